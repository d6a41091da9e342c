// Tests of the stream form (ref/io/stream.hpp, docs/formats.md).
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"

#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <unistd.h>

// --- Heap accounting, for the test that memory does not grow with the length ----------------

namespace {
std::atomic<std::size_t> liveBytes{0}, peakBytes{0};
void *counted(std::size_t n) {
  void *p = std::malloc(n ? n : 1);
  if (!p)
    throw std::bad_alloc();
  const std::size_t live = liveBytes += malloc_usable_size(p);
  std::size_t peak = peakBytes.load();
  while (live > peak && !peakBytes.compare_exchange_weak(peak, live)) {
  }
  return p;
}
void uncounted(void *p) {
  if (p) {
    liveBytes -= malloc_usable_size(p);
    std::free(p);
  }
}
} // namespace

void *operator new(std::size_t n) { return counted(n); }
void *operator new[](std::size_t n) { return counted(n); }
void operator delete(void *p) noexcept { uncounted(p); }
void operator delete[](void *p) noexcept { uncounted(p); }
void operator delete(void *p, std::size_t) noexcept { uncounted(p); }
void operator delete[](void *p, std::size_t) noexcept { uncounted(p); }
// The nothrow forms too (simdjson allocates its parser with `new (std::nothrow) T[]`): every form
// that can pair with the deletes above must allocate with malloc, or AddressSanitizer reports an
// alloc-dealloc mismatch.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *p, const std::nothrow_t &) noexcept { uncounted(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { uncounted(p); }

namespace lo {
namespace {

KernelCapsule capsule(std::string name, BackendOp op, TrustLevel trust = TrustLevel::verified,
                      Provider provider = Provider::reference) {
  KernelCapsule c;
  c.name = std::move(name);
  c.op = op;
  c.provider = provider;
  c.trustLevel = trust;
  c.shapeContract.claim.op = op;
  c.shapeContract.summary = "shape of " + std::string(spelling(op));
  return c;
}

/// A temporary file, removed at the end of the test.
struct TempFile {
  std::string path;
  TempFile() {
    char name[] = "/tmp/lo-stream-test-XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    path = name;
  }
  ~TempFile() { std::remove(path.c_str()); }
  void write(const std::string &text) const { std::ofstream(path, std::ios::binary) << text; }
  std::string read() const {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

/// A random plan over a few capsules (two of them the same name with different trust, so that
/// `contract` and `identity` group differently, and key `#2` is used), with runs.
GraphExecutionPlan randomPlan(Interner &interner, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const CapsuleId relu = interner.intern(capsule("reference.relu", BackendOp::relu));
  const CapsuleId relu2 =
      interner.intern(capsule("reference.relu", BackendOp::relu, TrustLevel::checked));
  const CapsuleId add = interner.intern(capsule("reference.add", BackendOp::add));
  const CapsuleId sm = interner.intern(capsule("libtorch.softmax", BackendOp::softmax,
                                               TrustLevel::trusted_external, Provider::libtorch));
  const KindId softmax = interner.intern(OpKind{KindTag::softmax, {{1}}});
  GraphExecutionPlan p;
  NodeId id = 1 + rng() % 5;
  while (p.kernels.size() < n) {
    const std::size_t run = 1 + rng() % 4;
    const std::uint64_t pick = rng() % 4;
    for (std::size_t i = 0; i < run && p.kernels.size() < n; ++i) {
      switch (pick) {
      case 0:
        p.kernels.push_back({id, Interner::bareKind(KindTag::relu), BackendOp::relu, relu});
        break;
      case 1:
        p.kernels.push_back({id, Interner::bareKind(KindTag::relu), BackendOp::relu, relu2});
        break;
      case 2:
        p.kernels.push_back({id, Interner::bareKind(KindTag::add), BackendOp::add, add});
        break;
      default: p.kernels.push_back({id, softmax, BackendOp::softmax, sm}); break;
      }
      id += 1 + rng() % 3;
    }
  }
  return p;
}

std::string streamText(const Interner &interner, const GraphExecutionPlan &plan) {
  std::string text;
  io::Sink sink(text);
  io::writeExecutionPlanStream(sink, interner, plan);
  return text;
}

/// The lowering stream of `plan`, turned back into a GraphLoweringPlan document and read.
GraphLoweringPlan lowerThroughStream(Interner &interner, const GraphExecutionPlan &plan, Mode mode,
                                     Equality equality, std::string *outText = nullptr) {
  TempFile in;
  in.write(streamText(interner, plan));
  std::string out;
  {
    io::PlanStream stream(in.path, interner);
    io::Sink sink(out);
    io::lowerStream(stream, sink, interner, mode, equality);
  }
  if (outText)
    *outText = out;
  // Header line -> the document's head; group lines -> its groups.
  std::istringstream lines(out);
  std::string header, line, groups;
  std::getline(lines, header);
  while (std::getline(lines, line))
    groups += (groups.empty() ? "" : ",") + line;
  EXPECT_EQ(header.rfind("{\"format\":\"nn-backend/graph-lowering-plan-stream\"", 0), 0u);
  std::string doc = "{\"format\":\"nn-backend/graph-lowering-plan\"" +
                    header.substr(header.find(",\"version\"")); // ...,"capsules":{...}}
  doc.pop_back();
  doc += ",\"groups\":[" + groups + "]}";
  return io::readLoweringPlan(io::sourceFromString("stream", doc), interner).plan;
}

TEST(Stream, LowersAsTheWholeDocumentDoesInEveryModeAndEquality) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Interner interner;
    const GraphExecutionPlan plan = randomPlan(interner, 1 + seed * 7, seed);
    for (Mode mode : {Mode::singleton, Mode::coalesced})
      for (Equality eq : {Equality::contract, Equality::identity})
        EXPECT_EQ(lowerThroughStream(interner, plan, mode, eq), lower(interner, plan, mode, eq));
  }
}

TEST(Stream, WritesTheSameGroupsAndKeysAsTheJsonWriter) {
  Interner interner;
  const GraphExecutionPlan plan = randomPlan(interner, 200, 7);
  std::string text;
  lowerThroughStream(interner, plan, Mode::coalesced, Equality::contract, &text);
  const GraphLoweringPlan whole = lower(interner, plan, Mode::coalesced);
  const std::string json =
      io::loweringPlanJson(interner, whole, Mode::coalesced, Equality::contract);
  // Every group line of the stream appears, in order, in the JSON document.
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  std::size_t at = 0, count = 0;
  while (std::getline(lines, line)) {
    at = json.find(line, at);
    ASSERT_NE(at, std::string::npos) << line;
    ++count;
  }
  EXPECT_EQ(count, whole.groups.size());
  EXPECT_NE(text.find("\"reference.relu#2\""), std::string::npos);
}

TEST(Stream, ReadsAPlanLineByLine) {
  Interner interner;
  const GraphExecutionPlan plan = randomPlan(interner, 50, 3);
  TempFile f;
  f.write(streamText(interner, plan));
  Interner again;
  io::PlanStream in(f.path, again);
  EXPECT_FALSE(in.capsules().empty());
  std::vector<NodeId> ids;
  PlannedNodeKernel k;
  while (in.next(k))
    ids.push_back(k.nodeId);
  ASSERT_EQ(ids.size(), plan.kernels.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(ids[i], plan.kernels[i].nodeId);
}

/// The message of the InputError that lowering `text` raises, or "" when there is none.
std::string errorOf(const std::string &text) {
  TempFile f;
  f.write(text);
  try {
    Interner interner;
    io::PlanStream in(f.path, interner);
    std::string out;
    io::Sink sink(out);
    io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract);
  } catch (const io::InputError &e) {
    std::string m = io::formatError(e);
    return m.substr(m.find(':') + 1); // without the temporary file's name
  }
  return "";
}

const std::string kHeader =
    R"({"format":"nn-backend/graph-execution-plan-stream","version":1,"capsules":{"r":{"name":"r","op":"relu","provider":"reference","device":"cpu","trustLevel":"verified","shapeContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"layoutContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"valueContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"vjpContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}}}}})"
    "\n";
const std::string kRelu1 = R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r"})"
                           "\n";

TEST(Stream, AcceptsAValidStreamWithoutAFinalNewline) {
  EXPECT_EQ(errorOf(kHeader + kRelu1 + R"({"nodeId":2,"kind":"relu","op":"relu","capsule":"r"})"),
            "");
  EXPECT_EQ(errorOf(kHeader), ""); // no kernels: an empty lowering
}

TEST(Stream, RejectsEachInvalidLineWithItsLineNumber) {
  EXPECT_NE(errorOf("").find("empty stream"), std::string::npos);
  EXPECT_NE(errorOf("{\"version\":1}\n").find("1:1: /: missing field \"format\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"format":"nn-backend/graph-execution-plan","version":1})"
                    "\n")
                .find("format is"),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + kRelu1 + kRelu1).find("3:1: /nodeId: nodeId 1 does not increase"),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"x"})"
                              "\n")
                .find("2:"),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + R"({"nodeId":1,"kind":"add","op":"add","capsule":"r"})"
                              "\n")
                .find("2:"),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + R"({"nodeId":1,"kind":"add","op":"relu","capsule":"r"})"
                              "\n")
                .find("/op: op \"relu\" is not the op of kind \"add\""),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + "\n" + kRelu1).find("2:1: /: empty line"), std::string::npos);
  EXPECT_NE(errorOf(kHeader + kRelu1 +
                    R"({"nodeId":2,"kind":"relu","op":"relu","capsule":"r"} {})"
                    "\n")
                .find("3:"),
            std::string::npos);
  EXPECT_NE(errorOf(kHeader + R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r","x":1})"
                              "\n")
                .find("unknown field \"x\""),
            std::string::npos);
}

/// The peak heap of lowering a stream of `n` kernels, above what was live before.
std::size_t peakHeapOfStreamLowering(std::size_t n) {
  TempFile f;
  {
    Interner interner;
    f.write(streamText(interner, randomPlan(interner, n, 11)));
  }
  const std::size_t before = liveBytes.load();
  peakBytes = before;
  {
    Interner interner;
    io::PlanStream in(f.path, interner);
    io::OutputFile out("/dev/null");
    io::Sink sink(out);
    io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract);
    out.commit();
  }
  return peakBytes.load() - before;
}

// "processed in memory bounded by the largest group and the capsule table": 15 times the kernels
// (with runs of at most 4) use the same heap, within a few kilobytes.
TEST(Stream, HeapDoesNotGrowWithTheLength) {
  const std::size_t small = peakHeapOfStreamLowering(4000);
  const std::size_t large = peakHeapOfStreamLowering(60000);
  std::printf("peak heap: %zu bytes for 4000 kernels, %zu bytes for 60000\n", small, large);
  EXPECT_LE(large, small + 16 * 1024);
}

} // namespace
} // namespace lo
