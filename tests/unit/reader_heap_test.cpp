// What a reader holds while it reads a document (docs/performance.md, "peak memory within 2.5x
// the input", for every input, valid or not): a value that does not belong where it stands is
// refused before it is materialised, and an array is held at 8 bytes an element, never more. Each
// test compares the heap peak of reading a document with that of a document of the same size (the
// same simdjson parser) in which the large array is a single element followed by spaces.
#include "support.hpp"
#include "tests/bench/heap_counter.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace lo::test {
namespace {

constexpr std::size_t kElements = std::size_t{1} << 20;

/// `head` + an array of kElements zeros + `tail`, and the same with `[0]` and spaces.
std::pair<std::string, std::string> dense(const std::string &head, const std::string &tail) {
  std::string zeros = "[0";
  for (std::size_t i = 1; i < kElements; ++i)
    zeros += ",0";
  zeros += "]";
  std::string one = "[0]" + std::string(zeros.size() - 3, ' ');
  return {head + zeros + tail, head + one + tail};
}

/// The heap peak of `read(document)`, above what was live before (an InputError whose message
/// has `rejected` is expected; none when it is empty).
template <class Read>
std::size_t peakOf(const std::string &text, const std::string &rejected, Read &&read) {
  const io::Source source = io::sourceFromString("doc.json", text);
  const std::size_t before = heap::resetPeak();
  bool threw = false;
  try {
    read(source);
  } catch (const io::InputError &e) {
    threw = true;
    EXPECT_NE(rejected, "") << e.what();
    EXPECT_NE(e.message().find(rejected), std::string::npos) << e.what();
  }
  EXPECT_EQ(threw, !rejected.empty());
  return heap::peakSince(before);
}

std::string plan(const std::string &kind) {
  return "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
         "},\"kernels\":[{\"nodeId\":1,\"op\":\"relu\",\"capsule\":\"r\",\"kind\":" + kind + "}]}";
}

void readPlan(const io::Source &s) {
  Interner interner;
  (void)io::readExecutionPlan(s, interner);
}

void readLowering(const io::Source &s) {
  Interner interner;
  (void)io::readLoweringPlan(s, interner);
}

/// `dense` of a plan whose one kernel's kind is `kindHead` ARRAY `kindTail`.
std::pair<std::string, std::string> denseKind(const std::string &kindHead,
                                              const std::string &kindTail) {
  const std::string text = plan("@@");
  const std::size_t at = text.find("@@");
  return dense(text.substr(0, at) + kindHead, kindTail + text.substr(at + 2));
}

TEST(ReaderHeap, AnUnknownKindParameterIsRefusedBeforeItsValueIsRead) {
  // The tag after the parameter, and before it: the parameter is judged by its name either way.
  for (const bool tagFirst : {true, false}) {
    const auto [big, small] = tagFirst ? denseKind("{\"tag\":\"relu\",\"a\":", "}")
                                       : denseKind("{\"a\":", ",\"tag\":\"relu\"}");
    const std::string why = "kind \"relu\" has no parameter \"a\"";
    const std::size_t peakBig = peakOf(big, why, readPlan);
    const std::size_t peakSmall = peakOf(small, why, readPlan);
    std::printf("peak heap: %zu bytes (%zu zeros), %zu bytes (one)\n", peakBig, kElements,
                peakSmall);
    EXPECT_LE(peakBig, peakSmall + 64 * 1024) << "tag first: " << tagFirst;
  }
}

TEST(ReaderHeap, AnArrayOfTheWrongTypeIsRefusedBeforeItsValueIsRead) {
  const auto [big, small] = denseKind("{\"tag\":\"softmax\",\"axis\":", "}");
  const std::string why = "parameter \"axis\" of kind \"softmax\" must be a natural number";
  EXPECT_LE(peakOf(big, why, readPlan), peakOf(small, why, readPlan) + 64 * 1024);
}

TEST(ReaderHeap, ALargeNodeIdsArrayIsHeldAtEightBytesAnElement) {
  const std::string head = "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
                           "},\"groups\":[{\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
                           "\"groupingKind\":\"singleton\",\"nodeIds\":";
  const auto [big, small] = dense(head, "}]}");
  const std::size_t peakBig = peakOf(big, "", readLowering);
  const std::size_t peakSmall = peakOf(small, "", readLowering);
  std::printf("peak heap: %zu bytes (%zu node ids), %zu bytes (one)\n", peakBig, kElements,
              peakSmall);
  EXPECT_LE(peakBig, peakSmall + 8 * kElements + 64 * 1024);
}

TEST(ReaderHeap, AKernelsArrayOfNumbersStopsAtItsFirstElement) {
  const auto [big, small] = dense("{\"kernels\":", "}");
  const std::string why = "expected a kernel (a JSON object)";
  EXPECT_LE(peakOf(big, why, readPlan), peakOf(small, why, readPlan) + 64 * 1024);
}

} // namespace
} // namespace lo::test
