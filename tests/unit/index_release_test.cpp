// A large document's array loops in the strict reader (the direct path of the readers builds no
// index, so these read with the strict reader alone where the text is valid) give the pages of the
// parser's index they have left behind back to the system (JsonReader::elements,
// kIndexReleaseBytes; docs/performance.md, "Hostile inputs"), and the document reads exactly as it
// did with the whole index: every value, and every message's line, column, pointer and words. A
// page given back reads as zeros, so a reader (or a simdjson call) that looked back at one would
// read another document, and these tests would see.
#include "ref/io/graph_reader.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/reader_detail.hpp"
#include "ref/io/strict_json.hpp"
#include "support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace lo::test {
namespace {

// About 20 tokens a kernel: 1.3 M tokens, 5 MB of index, more than two steps of release.
constexpr std::size_t kKernels = 65000;

/// Kernel `i`, one a line: every seventh a reshape whose parameters come before its tag (the kind
/// is read twice: JsonReader::KeepIndex), the others relu.
std::string kernel(std::size_t i) {
  const std::string id = std::to_string(i);
  if (i % 7 == 0)
    return R"({"nodeId":)" + id +
           R"(,"kind":{"inShape":[2,3],"outShape":[6],"tag":"reshape"},"op":"reshape",)"
           R"("capsule":"h"})";
  return R"({"nodeId":)" + id + R"(,"kind":"relu","op":"relu","capsule":"r"})";
}

/// A plan of `count` kernels, the last one `last` when given. Kernel i is on line i + 5.
std::string planOf(std::size_t count, const std::string &last = "") {
  std::string out = "{\"format\":\"nn-backend/graph-execution-plan\",\"version\":1,\n"
                    "\"capsules\":{\"r\":" +
                    capsuleJson("reference.relu", "relu") +
                    ",\n\"h\":" + capsuleJson("reference.reshape", "reshape") +
                    "},\n\"kernels\":[\n";
  for (std::size_t i = 0; i < count; ++i) {
    out += i + 1 == count && !last.empty() ? last : kernel(i);
    out += i + 1 < count ? ",\n" : "\n";
  }
  return out + "]}";
}

/// The error of reading `text`, which must be one.
io::InputError errorOf(const std::string &text,
                       const std::function<void(const io::Source &)> &read) {
  try {
    read(io::sourceFromString("doc.json", text));
  } catch (const io::InputError &e) {
    return e;
  }
  ADD_FAILURE() << "read without an error";
  return io::InputError("doc.json", "none");
}

void readPlan(const io::Source &s) {
  Interner interner;
  (void)seed::readExecutionPlan(s, interner);
}

TEST(IndexRelease, ALargePlanReadsAsItIs) {
  const std::string text = planOf(kKernels);
  const std::size_t before = io::indexBytesReleased();
  Interner interner;
  const auto plan = io::detail::readExecutionPlanStrict(io::sourceFromString("plan.json", text),
                                                        interner, seed::kEdition, nullptr);
  const std::size_t released = io::indexBytesReleased() - before;
  // The index holds about 4 bytes a byte of text here; all but the last step goes back.
  EXPECT_GE(released, io::kIndexReleaseBytes) << text.size() << " bytes of text";
  ASSERT_EQ(plan.kernels.size(), kKernels);
  for (std::size_t i = 0; i < kKernels; ++i) {
    const auto &k = plan.kernels[i];
    ASSERT_EQ(k.nodeId, i);
    ASSERT_EQ(k.op, i % 7 == 0 ? BackendOp::reshape : BackendOp::relu) << i;
    ASSERT_EQ(k.kind, plan.kernels[i % 7 == 0 ? 0 : 1].kind) << i;
    ASSERT_EQ(k.capsule, plan.kernels[i % 7 == 0 ? 0 : 1].capsule) << i;
  }
  EXPECT_NE(plan.kernels[0].kind, plan.kernels[1].kind);
}

/// The error of a last kernel `bad` in a plan of kKernels kernels is the one it gives in a plan
/// of 3, moved by the kernels between: the same column and words, its line and index later.
void expectLateError(const std::string &bad, const std::string &field) {
  SCOPED_TRACE(bad);
  const io::InputError small = errorOf(planOf(3, bad), readPlan);
  const std::size_t before = io::indexBytesReleased();
  const io::InputError large = errorOf(planOf(kKernels, bad), readPlan);
  EXPECT_GE(io::indexBytesReleased() - before, io::kIndexReleaseBytes);
  EXPECT_EQ(small.line(), 3u + 5u - 1u) << small.what();
  EXPECT_EQ(large.line(), kKernels + 5u - 1u) << large.what();
  EXPECT_EQ(large.column(), small.column()) << large.what();
  EXPECT_EQ(large.message(), small.message());
  EXPECT_EQ(small.pointer(), "/kernels/2" + field);
  EXPECT_EQ(large.pointer(), "/kernels/" + std::to_string(kKernels - 1) + field);
}

TEST(IndexRelease, ALateErrorIsPlacedAsBefore) {
  // Found as the kernel is read (at its key, at a value, in a kind's second pass).
  expectLateError(R"({"nodeId":9999999,"kind":"relu","op":"relu","capsule":"r","x":1})", "/x");
  expectLateError(R"({"nodeId":9999999,"kind":"relu","op":"relu","capsule":7})", "/capsule");
  expectLateError(R"({"nodeId":9999999,"kind":{"outShape":[6],"inShape":[2,-3],)"
                  R"("tag":"reshape"},"op":"reshape","capsule":"h"})",
                  "/kind/inShape/1");
  // Found after the kernel was read, at its pointer by a fresh pass over the text.
  expectLateError(R"({"nodeId":9999999,"kind":"relu","op":"add","capsule":"r"})", "/op");
  // Found after every kernel was read (the ids are not increasing): it names kernel 1.
  expectLateError(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r"})", "/nodeId");
}

/// A lowering of one group whose node ids are 0 .. count - 1, then `after` in the group.
std::string oneGroup(std::size_t count, const std::string &lastId, const std::string &after) {
  std::string out = "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
                    "},\n\"groups\":[{\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
                    "\"groupingKind\":\"singleton\",\"nodeIds\":[";
  for (std::size_t i = 0; i + 1 < count; ++i)
    out += std::to_string(i) + ",";
  return out + lastId + "]" + after + "}]}";
}

TEST(IndexRelease, OneLargeGroupReadsAsItIs) {
  constexpr std::size_t kIds = 700000; // 1.4 M tokens: 5.6 MB of index
  const std::size_t before = io::indexBytesReleased();
  Interner interner;
  const auto doc = io::detail::readLoweringPlanStrict(
      io::sourceFromString("lowering.json", oneGroup(kIds, std::to_string(kIds - 1), "")), interner,
      seed::kEdition);
  EXPECT_GE(io::indexBytesReleased() - before, io::kIndexReleaseBytes);
  ASSERT_EQ(doc.plan.groups.size(), 1u);
  const auto &ids = doc.plan.groups[0].nodeIds;
  ASSERT_EQ(ids.size(), kIds);
  std::size_t wrong = 0;
  while (wrong < kIds && ids[wrong] == wrong)
    ++wrong;
  EXPECT_EQ(wrong, kIds) << "the first id read wrong";

  auto readLowering = [](const io::Source &s) {
    Interner in;
    (void)seed::readLoweringPlan(s, in);
  };
  for (const auto &[lastId, after, pointer] :
       {std::tuple<std::string, std::string, std::string>{
            "-1", "", "/groups/0/nodeIds/" + std::to_string(kIds - 1)},
        {"1", ",\"x\":1", "/groups/0/x"}}) {
    const io::InputError small = errorOf(oneGroup(3, lastId, after), readLowering);
    const io::InputError large = errorOf(oneGroup(kIds, lastId, after), readLowering);
    EXPECT_EQ(large.line(), 2u) << large.what();
    // The ids before differ in length: the column moves by exactly their text.
    const std::size_t moved =
        oneGroup(kIds, lastId, after).size() - oneGroup(3, lastId, after).size();
    EXPECT_EQ(large.column(), small.column() + moved) << large.what();
    EXPECT_EQ(large.message(), small.message());
    EXPECT_EQ(large.pointer(), pointer);
  }
}

TEST(IndexRelease, AGraphNodeReadTwiceKeepsItsIndexUntilItsRewind) {
  // A node whose shape (800,000 dimensions, spaced within the density limit) comes before its
  // kind is read twice (ref/io/graph_reader.cpp): the first pass's loop over the shape must not
  // give back the pages the second pass skips over again.
  std::string shape = "[1";
  for (std::size_t i = 1; i < 800000; ++i)
    shape += ",1      ";
  shape += "]";
  const std::string text = R"({"format":"torchlean.ir.v1","input_id":0,"output_ids":[2],"nodes":[)"
                           R"({"id":0,"kind":"input","parents":[],"shape":[1,4]},)"
                           R"({"id":1,"shape":)" +
                           shape +
                           R"(,"parents":[0],"kind":"relu"},)"
                           R"({"id":2,"shape":[1,4],"parents":[1],"kind":"relu"}]})";
  const std::size_t before = io::indexBytesReleased();
  Interner interner;
  const auto graph = io::detail::readGraphStrict(io::sourceFromString("graph.json", text), interner,
                                                 kNewestEdition);
  ASSERT_EQ(graph.nodes.size(), 3u);
  EXPECT_EQ(graph.nodes[1].parents, std::vector<NodeId>{0});
  EXPECT_EQ(graph.nodes[1].kind, graph.nodes[2].kind);
  EXPECT_EQ(graph.nodes[2].parents, std::vector<NodeId>{1});
  // The nodes' loop gives node 1's pages back once node 2 starts.
  EXPECT_GE(io::indexBytesReleased() - before, io::kIndexReleaseBytes);
}

} // namespace
} // namespace lo::test
