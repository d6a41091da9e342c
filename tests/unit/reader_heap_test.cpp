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

/// The heap peak of `read(document)`, above what was live before (an InputError is expected or
/// not, as `rejected` says).
template <class Read> std::size_t peakOf(const std::string &text, bool rejected, Read &&read) {
  const io::Source source = io::sourceFromString("doc.json", text);
  const std::size_t before = heap::resetPeak();
  bool threw = false;
  try {
    read(source);
  } catch (const io::InputError &e) {
    threw = true;
    EXPECT_TRUE(rejected) << e.what();
  }
  EXPECT_EQ(threw, rejected);
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

TEST(ReaderHeap, AnUnknownKindParameterIsRefusedBeforeItsValueIsRead) {
  // The tag after the parameter, and before it: the parameter is judged by its name either way.
  for (const bool tagFirst : {true, false}) {
    const auto [big, small] = tagFirst ? dense(plan("{\"tag\":\"relu\",\"a\":"), "}")
                                       : dense(plan("{\"a\":"), ",\"tag\":\"relu\"}");
    const std::size_t peakBig = peakOf(big, true, readPlan);
    const std::size_t peakSmall = peakOf(small, true, readPlan);
    std::printf("peak heap: %zu bytes (%zu zeros), %zu bytes (one)\n", peakBig, kElements,
                peakSmall);
    EXPECT_LE(peakBig, peakSmall + 64 * 1024) << "tag first: " << tagFirst;
  }
}

TEST(ReaderHeap, AnArrayOfTheWrongTypeIsRefusedBeforeItsValueIsRead) {
  const auto [big, small] = dense(plan("{\"tag\":\"softmax\",\"axis\":"), "}");
  EXPECT_LE(peakOf(big, true, readPlan), peakOf(small, true, readPlan) + 64 * 1024);
}

TEST(ReaderHeap, ALargeNodeIdsArrayIsHeldAtEightBytesAnElement) {
  const std::string head = "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
                           "},\"groups\":[{\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
                           "\"groupingKind\":\"singleton\",\"nodeIds\":";
  const auto [big, small] = dense(head, "}]}");
  const std::size_t peakBig = peakOf(big, false, readLowering);
  const std::size_t peakSmall = peakOf(small, false, readLowering);
  std::printf("peak heap: %zu bytes (%zu node ids), %zu bytes (one)\n", peakBig, kElements,
              peakSmall);
  EXPECT_LE(peakBig, peakSmall + 8 * kElements + 64 * 1024);
}

TEST(ReaderHeap, AKernelsArrayOfNumbersStopsAtItsFirstElement) {
  const auto [big, small] = dense("{\"kernels\":", "}");
  EXPECT_LE(peakOf(big, true, readPlan), peakOf(small, true, readPlan) + 64 * 1024);
}

} // namespace
} // namespace lo::test
