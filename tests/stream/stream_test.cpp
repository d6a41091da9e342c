// Tests of the stream form (ref/io/stream.hpp, docs/formats.md).
#include "ref/io/stream.hpp"
#include "tests/seed.hpp"

#include "checks/checks.hpp"
#include "ref/io/writer.hpp"
#include "tests/unit/support.hpp"
#include "tools/system/output_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

// --- Heap accounting, for the tests that memory does not grow with the length --------------

#include "tests/bench/heap_counter.hpp"

using lo::heap::liveBytes;
using lo::heap::peakBytes;

namespace lo {
namespace {

/// A capsule of the unit tests' builder (every contract filled in), verified unless told.
KernelCapsule capsule(std::string name, BackendOp op, TrustLevel trust = TrustLevel::verified,
                      Provider provider = Provider::reference) {
  return test::makeCapsule(std::move(name), op, trust, provider);
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
    io::PlanStream stream(in.path, interner, nullptr, test::seed::kEdition);
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
  return test::seed::readLoweringPlan(io::sourceFromString("stream", doc), interner).plan;
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

TEST(Stream, AGroupWhoseCapsuleWasInlineIsWrittenInline) {
  // The header's table has no capsule: each kernel carries its own, and so does its group.
  const std::string relu = test::capsuleJson("reference.relu", "relu");
  TempFile in;
  in.write("{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1}\n"
           "{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" +
           relu +
           "}\n"
           "{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" +
           relu + "}\n");
  Interner interner;
  io::PlanStream stream(in.path, interner, nullptr, test::seed::kEdition);
  std::string out;
  {
    io::Sink sink(out);
    const io::StreamSummary summary =
        io::lowerStream(stream, sink, interner, Mode::singleton, Equality::contract);
    EXPECT_EQ(summary.groups, 2u);
  }
  std::vector<std::string> groupLines;
  std::istringstream split(out);
  for (std::string line; std::getline(split, line);)
    groupLines.push_back(line);
  ASSERT_EQ(groupLines.size(), 3u) << out;
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_NE(groupLines[i].find("\"capsule\":{\"name\":\"reference.relu\""), std::string::npos)
        << groupLines[i];
}

TEST(Stream, ReadsAPlanLineByLine) {
  Interner interner;
  const GraphExecutionPlan plan = randomPlan(interner, 50, 3);
  TempFile f;
  f.write(streamText(interner, plan));
  Interner again;
  io::PlanStream in(f.path, again, nullptr, test::seed::kEdition);
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
    io::PlanStream in(f.path, interner, nullptr, test::seed::kEdition);
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
    io::PlanStream in(f.path, interner, nullptr, test::seed::kEdition);
    system::OutputFile out("/dev/null");
    io::Sink sink(out);
    io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract);
    out.commit();
  }
  return peakBytes.load() - before;
}

/// Memory bounded by the largest group and the capsule table (docs/spec.md §3.6): 15 times the
/// kernels (with runs of at most 4) use the same heap, within a few kilobytes.
void expectHeapIndependentOfLength(std::size_t (*peakHeap)(std::size_t)) {
  const std::size_t small = peakHeap(4000);
  const std::size_t large = peakHeap(60000);
  std::printf("peak heap: %zu bytes for 4000 kernels, %zu bytes for 60000\n", small, large);
  EXPECT_LE(large, small + 16 * 1024);
}

TEST(Stream, HeapDoesNotGrowWithTheLength) {
  expectHeapIndependentOfLength(peakHeapOfStreamLowering);
}

// --- check --stream: a lowering stream read as a candidate ------------------------------------

/// The lowering stream `lower --stream` writes for `plan`.
std::string loweringStreamText(Interner &interner, const GraphExecutionPlan &plan, Mode mode,
                               Equality equality) {
  TempFile in;
  in.write(streamText(interner, plan));
  io::PlanStream stream(in.path, interner, nullptr, test::seed::kEdition);
  std::string out;
  io::Sink sink(out);
  io::lowerStream(stream, sink, interner, mode, equality);
  sink.flush();
  return out;
}

/// `check --stream` of two stream files, as the command runs it.
checks::Report checkFiles(const std::string &planText, const std::string &candidateText,
                          std::optional<Mode> mode = std::nullopt,
                          checks::StreamTotals *totals = nullptr) {
  TempFile p, c;
  p.write(planText);
  c.write(candidateText);
  Interner interner;
  io::PlanStream plan(p.path, interner, nullptr, test::seed::kEdition);
  io::LoweringStream candidate(c.path, interner, nullptr, test::seed::kEdition);
  checks::Options options;
  options.mode = mode.value_or(candidate.declared().mode.value_or(Mode::coalesced));
  options.equality = candidate.declared().equality.value_or(Equality::contract);
  return checks::checkStream(
      interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
      [&](LoweredKernelGroup &g) { return candidate.next(g); }, options, candidate.declared().mode,
      candidate.declared().equality, totals);
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

std::string joined(const std::vector<std::string> &ls) {
  std::string out;
  for (const auto &l : ls)
    out += l + "\n";
  return out;
}

std::vector<std::string> messages(const checks::Report &r) {
  std::vector<std::string> out;
  for (const auto &v : r.violations)
    out.push_back(std::string(spelling(v.check)) + " " + v.pointer + ": " + v.message);
  return out;
}

TEST(CheckStream, TheLoweringStreamConformsInEveryModeAndEquality) {
  for (Mode mode : {Mode::coalesced, Mode::singleton})
    for (Equality eq : {Equality::contract, Equality::identity}) {
      Interner interner;
      const GraphExecutionPlan plan = randomPlan(interner, 300, 5);
      const std::string planText = streamText(interner, plan);
      const std::string lowering = loweringStreamText(interner, plan, mode, eq);
      checks::StreamTotals totals;
      const checks::Report r = checkFiles(planText, lowering, std::nullopt, &totals);
      EXPECT_TRUE(r.conforms()) << spelling(mode) << " " << spelling(eq) << ": "
                                << (r.violations.empty() ? "" : r.violations[0].message);
      EXPECT_TRUE(r.notes.empty() || eq == Equality::identity);
      EXPECT_EQ(totals.kernels, plan.kernels.size());
      EXPECT_EQ(totals.groups, lower(interner, plan, mode, eq).groups.size());
    }
}

TEST(CheckStream, ReadsTheDeclaredModeAndNamesItWhenCheckedOtherwise) {
  Interner interner;
  const GraphExecutionPlan plan = randomPlan(interner, 40, 6);
  const std::string singleton =
      loweringStreamText(interner, plan, Mode::singleton, Equality::contract);
  EXPECT_TRUE(checkFiles(streamText(interner, plan), singleton).conforms());
  const checks::Report r = checkFiles(streamText(interner, plan), singleton, Mode::coalesced);
  EXPECT_FALSE(r.conforms());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes[0],
            "the candidate declares mode singleton, but it is checked as mode coalesced");
}

// The wording of each departure of the sequence (docs/checks.md, "Streaming"), on the lowering of
// nodes 1, 2 (relu), 4 (add), 7 (relu): groups [1,2], [4], [7].
TEST(CheckStream, NamesEachDepartureOfTheSequenceWhereItHappens) {
  Interner interner;
  const CapsuleId relu = interner.intern(capsule("reference.relu", BackendOp::relu));
  const CapsuleId add = interner.intern(capsule("reference.add", BackendOp::add));
  const KindId r = Interner::bareKind(KindTag::relu), a = Interner::bareKind(KindTag::add);
  GraphExecutionPlan plan;
  plan.kernels = {{1, r, BackendOp::relu, relu},
                  {2, r, BackendOp::relu, relu},
                  {4, a, BackendOp::add, add},
                  {7, r, BackendOp::relu, relu}};
  const std::string planText = streamText(interner, plan);
  const auto ref = lines(loweringStreamText(interner, plan, Mode::coalesced, Equality::contract));
  ASSERT_EQ(ref.size(), 4u); // the header and three groups
  EXPECT_TRUE(checkFiles(planText, joined(ref)).conforms());

  // The sequence departures only: a dropped or repeated node also changes the gate's reports,
  // which the gate check names beside them (tests/gate covers its wording).
  auto edited = [&](std::vector<std::string> ls) {
    std::vector<std::string> out;
    for (auto &m : messages(checkFiles(planText, joined(ls))))
      if (!m.starts_with("gate "))
        out.push_back(std::move(m));
    return out;
  };
  // The group of node 4 dropped: node 4 is missing, and [1,2], [7] are not adjacent in the plan.
  EXPECT_EQ(edited({ref[0], ref[1], ref[3]}),
            std::vector<std::string>{"provenance /groups: node 4 (add) of the plan is in no "
                                     "group; it comes after node 2 in the plan"});
  // Groups [4] and [7] swapped: node 4 is met after node 7 passed it over.
  EXPECT_EQ(edited({ref[0], ref[1], ref[3], ref[2]}),
            std::vector<std::string>{"order /groups/2/nodeIds/0: node 4 is out of plan order in "
                                     "group 2; the plan has it right after node 2"});
  // Group [4] repeated.
  EXPECT_EQ(
      edited({ref[0], ref[1], ref[2], ref[2], ref[3]}),
      std::vector<std::string>{
          "provenance /groups/2/nodeIds/0: group 2 lists node 4 again; the plan has it once"});
  // Node 4 replaced by node 5, which the plan lacks: one finding for 5, one for the missing 4.
  std::string five = ref[2];
  five.replace(five.find("[4]"), 3, "[5]");
  EXPECT_EQ(edited({ref[0], ref[1], five, ref[3]}),
            (std::vector<std::string>{
                "provenance /groups/1/nodeIds/0: group 1 lists node 5, which is not in the plan",
                "provenance /groups: node 4 (add) of the plan is in no group; it comes after node "
                "2 in the plan"}));
  // Node 1 listed again at the end, after the plan ended.
  std::string one = ref[3];
  one.replace(one.find("[7]"), 3, "[7,1]");
  const auto lastMessages = edited({ref[0], ref[1], ref[2], one});
  ASSERT_FALSE(lastMessages.empty());
  EXPECT_EQ(lastMessages[0], "provenance /groups/2/nodeIds/1: group 2 lists node 1 out of the "
                             "plan's increasing order, where the plan has no more nodes: it is "
                             "listed again or is not in the plan");
}

TEST(CheckStream, APlanWhoseIdsDoNotIncreaseIsRefused) {
  // The stream form's rule, which io::PlanStream enforces while it reads; a caller that feeds
  // checkStream itself is held to it too.
  Interner interner;
  const CapsuleId r = interner.intern(capsule("reference.relu", BackendOp::relu));
  const std::vector<PlannedNodeKernel> kernels = {test::node(2, KindTag::relu, BackendOp::relu, r),
                                                  test::node(1, KindTag::relu, BackendOp::relu, r)};
  std::size_t next = 0;
  EXPECT_THROW((void)checks::checkStream(
                   interner,
                   [&](PlannedNodeKernel &k) {
                     if (next == kernels.size())
                       return false;
                     k = kernels[next++];
                     return true;
                   },
                   [](LoweredKernelGroup &) { return false; }, test::seed::options()),
               std::invalid_argument);
}

TEST(CheckStream, RejectsAnInvalidCandidateLineWithItsLineNumber) {
  Interner interner;
  const GraphExecutionPlan plan = randomPlan(interner, 10, 7);
  const std::string planText = streamText(interner, plan);
  auto errorOfCandidate = [&](const std::string &text) -> std::string {
    try {
      checkFiles(planText, text);
    } catch (const io::InputError &e) {
      const std::string m = io::formatError(e);
      return m.substr(m.find(':') + 1);
    }
    return "";
  };
  const auto ref = lines(loweringStreamText(interner, plan, Mode::coalesced, Equality::contract));
  EXPECT_EQ(errorOfCandidate(joined(ref)), "");
  EXPECT_NE(errorOfCandidate("").find("empty stream"), std::string::npos);
  EXPECT_NE(errorOfCandidate(planText).find("1:"), std::string::npos); // a plan is not a lowering
  EXPECT_NE(errorOfCandidate(joined({ref[0], ref[1], R"({"nodeIds":[1]})"}))
                .find("3:1: /: missing field"),
            std::string::npos);
  EXPECT_NE(errorOfCandidate(joined({ref[0], R"({"nodeIds":[1],"kinds":["relu"],"op":"relu",)"
                                             R"("capsule":"nope","groupingKind":"singleton"})"}))
                .find("2:"),
            std::string::npos);
  std::string mode = ref[0];
  mode.replace(mode.find("\"coalesced\""), 11, "\"sideways\"");
  EXPECT_NE(errorOfCandidate(joined({mode})).find("1:"), std::string::npos);
}

/// The peak heap of `check --stream` of the reference lowering of a plan of `n` kernels.
std::size_t peakHeapOfStreamCheck(std::size_t n) {
  TempFile p, c;
  {
    Interner interner;
    const GraphExecutionPlan plan = randomPlan(interner, n, 12);
    p.write(streamText(interner, plan));
    c.write(loweringStreamText(interner, plan, Mode::coalesced, Equality::contract));
  }
  const std::size_t before = liveBytes.load();
  peakBytes = before;
  {
    Interner interner;
    io::PlanStream plan(p.path, interner, nullptr, test::seed::kEdition);
    io::LoweringStream candidate(c.path, interner, nullptr, test::seed::kEdition);
    const checks::Report r = checks::checkStream(
        interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
        [&](LoweredKernelGroup &g) { return candidate.next(g); }, test::seed::options());
    EXPECT_TRUE(r.conforms());
  }
  return peakBytes.load() - before;
}

// `check --stream` holds one group, not the stream: 15 times the kernels use the same heap.
TEST(CheckStream, HeapDoesNotGrowWithTheLength) {
  expectHeapIndependentOfLength(peakHeapOfStreamCheck);
}

} // namespace
} // namespace lo
