// What a reader holds while it reads a document (docs/performance.md, "peak memory within 2.5x
// the input", for every input, valid or not): a document too dense to index is refused before the
// parser is allocated (docs/errors.md, "Limits"); a value that does not belong where it stands is
// refused before it is materialised, and an array is held at 8 bytes an element, never more. Each
// test of an array compares the heap peak of reading a document with that of a document of the
// same size (the same simdjson parser) in which the large array is a single element followed by
// spaces; its elements are spaced so that the document passes the density limit.
#include "checks/checks.hpp"
#include "ref/io/density.hpp"
#include "ref/io/limits.hpp"
#include "support.hpp"
#include "tests/bench/heap_counter.hpp"
#include "tests/random_seed.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace lo::test {
namespace {

constexpr std::size_t kElements = std::size_t{1} << 18; // 2 MiB of array: above the floor

/// `head` + an array of kElements zeros + `tail`, and the same with `[0]` and spaces. Each
/// element takes 8 bytes (`,0` and six spaces): 2 tokens in 8 bytes, within the density limit.
std::pair<std::string, std::string> dense(const std::string &head, const std::string &tail) {
  std::string zeros = "[0";
  for (std::size_t i = 1; i < kElements; ++i)
    zeros += ",0      ";
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
  (void)lo::test::seed::readExecutionPlan(s, interner);
}

void readLowering(const io::Source &s) {
  Interner interner;
  (void)lo::test::seed::readLoweringPlan(s, interner);
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

TEST(ReaderHeap, AnErrorPlacedByItsPointerIndexesTheDocumentOnce) {
  // The op does not match the kind: found after the kernel was read, and placed by a second pass
  // over the document (JsonReader::failAtPointer) with the reader's own parser, not a second one
  // beside it (a second index and string buffer). The reference: a document of the same size
  // refused in the first pass, at its array.
  const std::string big =
      denseKind("{\"tag\":\"reshape\",\"outShape\":[1],\"inShape\":", "}").first;
  const std::string once = denseKind("{\"tag\":\"softmax\",\"axis\":", "}").first;
  const std::size_t peakBig =
      peakOf(big, "op \"relu\" is not the op of kind \"reshape\"", readPlan);
  const std::size_t peakOnce =
      peakOf(once, "parameter \"axis\" of kind \"softmax\" must be a natural number", readPlan);
  std::printf("peak heap: %zu bytes (%zu dimensions held, then placed), %zu bytes (refused)\n",
              peakBig, kElements, peakOnce);
  EXPECT_LE(peakBig, peakOnce + 8 * kElements + 64 * 1024);
}

TEST(ReaderHeap, AnAuditsCapsuleNamesAreHeldInOneBuffer) {
  // An audit's capsuleNames of 3 bytes each (each spaced to 8 bytes: within the density limit):
  // one buffer with room for the rest of the document, nothing allocated a name. A std::string a
  // name held 32 bytes each, and its vector regrew.
  std::string names = "[\"abc\"";
  for (std::size_t i = 1; i < kElements; ++i)
    names += ",\"abc\"  ";
  names += "]";
  const std::string one = "[\"abc\"]" + std::string(names.size() - 7, ' ');
  const std::string head = "{\"groups\":[],\"audit\":{\"format\":\"nn-backend/execution-audit\","
                           "\"version\":1,\"kernels\":[],\"trustedExternalOps\":[],"
                           "\"hasTrustedExternal\":false,\"trustLevels\":[],\"capsuleNames\":";
  const std::size_t peakBig = peakOf(head + names + "}}", "", readLowering);
  const std::size_t peakSmall = peakOf(head + one + "}}", "", readLowering);
  std::printf("peak heap: %zu bytes (%zu names), %zu bytes (one)\n", peakBig, kElements, peakSmall);
  EXPECT_LE(peakBig, peakSmall + 64 * 1024);
}

TEST(ReaderHeap, AContractsProvenanceIsHeldPacked) {
  // A shape contract whose provenance lists kElements notes `{"tag":"note","text":""}` (each
  // spaced to 30 bytes: within the density limit): their fields packed in one buffer (4 bytes a
  // note; the buffer regrows), not a 112-byte record each.
  const std::string note = "{\"tag\":\"note\",\"text\":\"\"}";
  std::string notes = "[" + note;
  for (std::size_t i = 1; i < kElements; ++i)
    notes += "," + note + "     ";
  notes += "]";
  const std::string one = "[" + note + "]" + std::string(notes.size() - note.size() - 2, ' ');
  std::string text = plan("\"relu\"");
  const std::size_t at = text.find("\"summary\":\"s\"") + 13;
  const std::size_t peakBig =
      peakOf(text.substr(0, at) + ",\"provenance\":" + notes + text.substr(at), "", readPlan);
  const std::size_t peakSmall =
      peakOf(text.substr(0, at) + ",\"provenance\":" + one + text.substr(at), "", readPlan);
  std::printf("peak heap: %zu bytes (%zu notes), %zu bytes (one)\n", peakBig, kElements, peakSmall);
  EXPECT_LE(peakBig, peakSmall + 16 * kElements);
}

TEST(ReaderHeap, AKernelsArrayOfNumbersStopsAtItsFirstElement) {
  const auto [big, small] = dense("{\"kernels\":", "}");
  const std::string why = "expected a kernel (a JSON object)";
  EXPECT_LE(peakOf(big, why, readPlan), peakOf(small, why, readPlan) + 64 * 1024);
}

// --- The density limit: refused before the parser indexes the document --------------------------

/// `{"kernels":[0,0,...]}` of about `bytes` bytes: one token a byte.
std::string zerosDocument(std::size_t bytes) {
  std::string text = "{\"kernels\":[0";
  while (text.size() + 3 < bytes)
    text += ",0";
  return text + "]}";
}

TEST(ReaderHeap, ADenseDocumentIsRefusedBeforeTheParserIsAllocated) {
  const std::string text = zerosDocument(2 * io::kDenseFloorBytes);
  const io::Source source = io::sourceFromString("doc.json", text);
  const std::size_t before = heap::resetPeak();
  try {
    readPlan(source);
    ADD_FAILURE() << "a document of one token a byte was read";
  } catch (const io::InputError &e) {
    EXPECT_NE(e.message().find("document too dense"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 1u);
    EXPECT_EQ(e.column(), 1u);
  }
  // The parser's index alone would take 4 bytes a byte of the document.
  EXPECT_LT(heap::peakSince(before), std::size_t{64} * 1024);
}

TEST(ReaderHeap, TheDensityLimitStartsAboveTheFloorAndAtItsRatio) {
  // At the floor, one token a byte is read (and refused by the reader, at its first element).
  const std::string atFloor = zerosDocument(io::kDenseFloorBytes);
  ASSERT_LE(atFloor.size(), io::kDenseFloorBytes);
  (void)peakOf(atFloor, "expected a kernel (a JSON object)", readPlan);
  // Above it, exactly 3 tokens in 8 bytes pass the limit (the reader refuses the array instead).
  std::string atRatio = "{\"kernels\":[0";
  while (atRatio.size() < 2 * io::kDenseFloorBytes)
    atRatio += ",0    ,0      ,0      "; // 6 tokens in 24 bytes
  atRatio += "]}";
  ASSERT_LE(io::jsonTokens(atRatio) * 8, atRatio.size() * io::kMaxTokensPerEightBytes);
  (void)peakOf(atRatio, "expected a kernel (a JSON object)", readPlan);
}

/// The tokens simdjson's first pass indexes in `text`, or nothing when the pass fails.
std::optional<std::size_t> simdjsonTokens(const std::string &text) {
  simdjson::dom::parser parser;
  if (parser.allocate(std::max<std::size_t>(text.size(), 64)))
    return std::nullopt;
  const simdjson::padded_string padded(text);
  if (parser.implementation->stage1(reinterpret_cast<const std::uint8_t *>(padded.data()),
                                    padded.size(), simdjson::stage1_mode::regular))
    return std::nullopt;
  return parser.implementation->n_structural_indexes;
}

TEST(JsonTokens, CountsWhatTheParserIndexesOnEveryExample) {
  std::size_t seen = 0;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(LO_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json")
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    SCOPED_TRACE(entry.path().string());
    const auto indexed = simdjsonTokens(text.str());
    ASSERT_TRUE(indexed.has_value());
    EXPECT_EQ(io::jsonTokens(text.str()), *indexed);
    ++seen;
  }
  EXPECT_GT(seen, 5u);
}

TEST(JsonTokens, NeverFewerThanTheParserIndexesOnAnyText) {
  const std::uint64_t seed = randomSeed();
  std::mt19937_64 random(seed);
  const std::string alphabet = "{}[]:,\"\\a0 \n\x01\xc3\xa9{}[]:,\"a0 \n";
  std::size_t compared = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string text(std::uniform_int_distribution<std::size_t>(0, 120)(random), ' ');
    for (char &c : text)
      c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)];
    auto indexed = simdjsonTokens(text);
    if (!indexed) { // most often a string left open: close it
      text += '"';
      indexed = simdjsonTokens(text);
    }
    if (!indexed)
      continue;
    ++compared;
    ASSERT_GE(io::jsonTokens(text), *indexed) << "seed " << seed << ", text: " << text;
  }
  EXPECT_GT(compared, 100u) << "seed " << seed;
}

// What `check` holds beyond its two documents while it judges (docs/performance.md, "Hostile
// inputs"): nothing per node id (a group's members are found in the plan as they are asked for),
// even when every id is a finding.
TEST(CheckHeap, AGroupIsJudgedWithNothingHeldPerNodeId) {
  Interner interner;
  const GraphExecutionPlan planned = lo::test::seed::readExecutionPlan(
      io::sourceFromString("plan.json", plan("\"relu\"")), interner);
  std::string ids;
  for (std::size_t i = 0; i < kElements; ++i)
    ids += (i ? "," : "") + std::to_string(1000000 + i);
  const std::string candidate =
      "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
      "},\"groups\":[{\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
      "\"groupingKind\":\"singleton\",\"nodeIds\":[" +
      ids + "]}]}";
  const io::LoweringDocument lowering =
      lo::test::seed::readLoweringPlan(io::sourceFromString("candidate.json", candidate), interner);
  checks::Options options;
  const std::size_t before = heap::resetPeak();
  const checks::Report report = checks::check(interner, planned, lowering, options);
  const std::size_t peak = heap::peakSince(before);
  std::printf("check's peak heap: %zu bytes for %zu node ids\n", peak, kElements);
  EXPECT_FALSE(report.conforms());
  EXPECT_LE(peak, 64 * 1024);
}

} // namespace
} // namespace lo::test
