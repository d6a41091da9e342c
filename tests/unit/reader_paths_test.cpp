// The readers' rarer paths, through their public API (readExecutionPlan, readLoweringPlan,
// detectDocumentKind, LineReader, loadSource): malformed JSON where the reader expects a value,
// a key or an element; messages that quote or cut what the input wrote; a key with characters a
// JSON pointer escapes; documents held without simdjson's padding; and sources that give fewer
// or more bytes than their size. "@@" marks where the error must be reported (support.hpp).
#include "support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace lo::test {
namespace {

/// A plan with a capsules table holding "r" (a relu capsule) and the given kernels.
std::string rarePlan(const std::string &kernels) {
  return "{\"format\":\"nn-backend/graph-execution-plan\",\"version\":1,\n\"capsules\":{\"r\":" +
         capsuleJson("reference.relu", "relu") + "},\n\"kernels\":[\n" + kernels + "\n]}";
}

/// A plan whose one kernel is `kernel`.
std::string rareKernel(const std::string &fields) {
  return rarePlan("{\"nodeId\":1," + fields + "}");
}

/// A lowering plan whose one group is `group`.
std::string rareLowering(const std::string &group) {
  return "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") + "},\n\"groups\":[" +
         group + "]}";
}

// --- Malformed JSON where a value, a key or an element is expected -------------------------------

TEST(ReaderPaths, AKindThatIsNoJsonValue) {
  expectPlanRejected(rareKernel(R"("kind":@@?,"op":"relu","capsule":"r")"), "/kernels/0/kind",
                     "malformed JSON");
}

TEST(ReaderPaths, AKindThatIsANumber) {
  expectPlanRejected(rareKernel(R"("kind":@@5,"op":"relu","capsule":"r")"), "/kernels/0/kind",
                     "expected a kind (a string or an object with a \"tag\")");
}

TEST(ReaderPaths, AKindParameterThatIsNoJsonValue) {
  expectPlanRejected(rareKernel(R"("kind":{"tag":"reshape","inShape":@@?},"op":"reshape",)"
                                R"("capsule":"r")"),
                     "/kernels/0/kind/inShape", "malformed JSON");
}

TEST(ReaderPaths, ACapsuleThatIsNoJsonValue) {
  expectPlanRejected(rareKernel(R"("kind":"relu","op":"relu","capsule":@@?)"), "/kernels/0/capsule",
                     "malformed JSON");
}

TEST(ReaderPaths, AKeyWithABadEscape) {
  expectPlanRejected(rareKernel(R"("kind":"relu","op":"relu",@@"c\qapsule":"r")"), "/kernels/0",
                     "malformed JSON");
}

TEST(ReaderPaths, AKindKeyWithABadEscape) {
  expectPlanRejected(rareKernel(R"("kind":{@@"t\qag":"relu"},"op":"relu","capsule":"r")"),
                     "/kernels/0/kind", "malformed JSON");
}

TEST(ReaderPaths, AMissingCommaInAKind) {
  expectPlanRejected(rareKernel(R"("kind":{"tag":"relu" @@"x":1},"op":"relu","capsule":"r")"),
                     "/kernels/0/kind", "malformed JSON");
}

TEST(ReaderPaths, AMissingCommaBetweenNodeIds) {
  expectLoweringRejected(rareLowering(R"({"nodeIds":[1 @@2],"kinds":["relu"],"op":"relu",)"
                                      R"("capsule":"r","groupingKind":"single"})"),
                         "/groups/0/nodeIds/1", "malformed JSON");
}

TEST(ReaderPaths, InvalidUtf8IsPlacedAtTheBadByte) {
  expectPlanRejected(rareKernel("\"kind\":\"re@@\xff\",\"op\":\"relu\",\"capsule\":\"r\""), "",
                     "invalid UTF-8");
}

TEST(ReaderPaths, ARawControlCharacterAfterAnEscapeIsPlacedAtIt) {
  expectPlanRejected(rareKernel("\"kind\":\"re\\\"l@@\tu\",\"op\":\"relu\",\"capsule\":\"r\""), "",
                     "unescaped control character in a string");
}

// --- Messages that quote what the input wrote ----------------------------------------------------

TEST(ReaderPaths, AWrongNodeIdIsQuotedWithoutItsTrailingBlanks) {
  try {
    Interner interner;
    (void)lo::test::seed::readExecutionPlan(
        io::sourceFromString("plan.json", rarePlan("{\"nodeId\":\"one\" \t\r\n,\"kind\":\"relu\","
                                                   "\"op\":\"relu\",\"capsule\":\"r\"}")),
        interner);
    FAIL() << "a string nodeId was read";
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.message(), "expected a nodeId (a natural number), found \"one\"") << e.what();
  }
}

TEST(ReaderPaths, ALongWrongValueIsCutInTheMessage) {
  const std::string value = "\"" + std::string(60, 'x') + "\"";
  try {
    Interner interner;
    (void)lo::test::seed::readExecutionPlan(
        io::sourceFromString("plan.json", rarePlan("{\"nodeId\":" + value +
                                                   ",\"kind\":\"relu\",\"op\":\"relu\","
                                                   "\"capsule\":\"r\"}")),
        interner);
    FAIL() << "a string nodeId was read";
  } catch (const io::InputError &e) {
    // The first 40 bytes of the token, then "...".
    EXPECT_EQ(e.message(),
              "expected a nodeId (a natural number), found " + value.substr(0, 40) + "...")
        << e.what();
  }
}

TEST(ReaderPaths, ALongUnknownKindIsCutAtACharacterBoundary) {
  // 199 ASCII bytes, then two-byte characters: byte 200 is inside one, so the cut goes before it.
  std::string name = std::string(199, 'k');
  for (int i = 0; i < 10; ++i)
    name += "\xc3\xa9"; // é
  try {
    Interner interner;
    (void)lo::test::seed::readExecutionPlan(
        io::sourceFromString(
            "plan.json", rareKernel("\"kind\":\"" + name + "\",\"op\":\"relu\",\"capsule\":\"r\"")),
        interner);
    FAIL() << "an unknown kind was read";
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.message().rfind("unknown kind \"" + std::string(199, 'k') + "\"...;", 0), 0u)
        << e.message().substr(0, 260);
  }
}

TEST(ReaderPaths, AnUnknownParameterWhoseNameAPointerEscapesIsPlacedAtItsValue) {
  // The key "a/b~c" is /a~1b~0c in the pointer; the error is found after the kind was read, by
  // walking the pointer again through the document.
  expectPlanRejected(rareKernel(R"("kind":{"tag":"relu","a/b~c":@@1},"op":"relu","capsule":"r")"),
                     "/kernels/0/kind/a~1b~0c", "kind \"relu\" has no parameter \"a/b~c\"");
}

TEST(ReaderPaths, APositionPastTheEndIsTheEnd) {
  EXPECT_EQ(io::lineColumn("ab\ncd", 0), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(io::lineColumn("ab\ncd", 3), std::make_pair(std::size_t{2}, std::size_t{1}));
  EXPECT_EQ(io::lineColumn("ab\ncd", 99), std::make_pair(std::size_t{2}, std::size_t{3}));
}

// Columns count code points, as SARIF's columnKind "unicodeCodePoints" says (docs/spec.md §3.5):
// the text message and the SARIF region of one error give the same column.
TEST(ReaderPaths, ColumnsCountCodePointsNotBytes) {
  EXPECT_EQ(io::lineColumn("\xc3\xa9\xc3\xa9x", 4), std::make_pair(std::size_t{1}, std::size_t{3}));
  EXPECT_EQ(io::lineColumn("\xf0\x9f\x98\x80\nab", 6),
            std::make_pair(std::size_t{2}, std::size_t{2}));
  Interner in;
  try {
    lo::test::seed::readExecutionPlan(
        io::sourceFromString("plan.json", "{\"format\":\"nn-backend/graph-execution-plan\","
                                          "\"version\":1,\"capsules\":{\"\xc3\xa9\xc3\xa9\":1}}"),
        in);
    FAIL() << "accepted";
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.column(), 74u) << e.what() << " (byte column 76)";
  }
}

// --- Documents and sources -----------------------------------------------------------------------

TEST(ReaderPaths, ADocumentWithoutRoomForThePaddingIsReadFromACopy) {
  io::Source s{"plan.json", rareKernel(R"("kind":"relu","op":"relu","capsule":"r")")};
  s.text.shrink_to_fit();
  ASSERT_LT(s.text.capacity(), s.text.size() + 64);
  Interner interner;
  const auto plan = lo::test::seed::readExecutionPlan(s, interner);
  ASSERT_EQ(plan.kernels.size(), 1u);
  EXPECT_EQ(plan.kernels[0].nodeId, 1u);
}

TEST(ReaderPaths, AGroupOfManyNodeIdsIsReadWhole) {
  // More ids than the reader's scratch buffer keeps between arrays (2^16). Only the shape of a
  // group is read here: repeated ids and one kind for many nodes are the checks' to name.
  constexpr std::size_t n = 70000;
  std::string ids = "1";
  for (std::size_t i = 2; i <= n; ++i)
    ids += ",1";
  Interner interner;
  const auto d = lo::test::seed::readLoweringPlan(
      io::sourceFromString("lowering.json",
                           rareLowering("{\"nodeIds\":[" + ids +
                                        "],\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
                                        "\"groupingKind\":\"sameCapsuleRun\"}")),
      interner);
  ASSERT_EQ(d.plan.groups.size(), 1u);
  ASSERT_EQ(d.plan.groups[0].nodeIds.size(), n);
  EXPECT_EQ(d.plan.groups[0].nodeIds.back(), 1u);
}

/// The InputError message detectDocumentKind gives for `text`, or "" when it detects a kind.
std::string detectionError(const std::string &text) {
  try {
    (void)io::detectDocumentKind(io::sourceFromString("doc.json", text));
  } catch (const io::InputError &e) {
    return e.what();
  }
  return "";
}

TEST(ReaderPaths, DetectionNeedsAFormatOrKernelsOrGroups) {
  EXPECT_EQ(detectionError("{}"), "doc.json:1:1: /: neither a GraphExecutionPlan (no \"kernels\") "
                                  "nor a GraphLoweringPlan (no \"groups\")");
  EXPECT_EQ(
      io::detectDocumentKind(io::sourceFromString("doc.json", R"({"groups":[],"kernels":[]})")),
      io::DocumentKind::loweringPlan)
      << "the first of the two decides";
  EXPECT_NE(detectionError(R"({"gr\qoups":[]})").find("malformed JSON"), std::string::npos);
  EXPECT_NE(detectionError(R"({"kernels":[] "groups":[]})").find("malformed JSON"),
            std::string::npos);
}

// --- Stream lines --------------------------------------------------------------------------------

/// The InputError of kernel line `line` (line `number`) of a plan stream whose header has no
/// capsules table.
io::InputError streamKernelError(std::string_view line, std::size_t number) {
  Interner interner;
  io::LineReader lines("plan.ndjson", interner);
  (void)lines.readHeader(R"({"format":"nn-backend/graph-execution-plan","version":1})", 1,
                         "nn-backend/graph-execution-plan");
  try {
    (void)lines.readKernel(line, number);
  } catch (const io::InputError &e) {
    return e;
  }
  ADD_FAILURE() << "line " << number << " was read: " << line;
  return io::InputError("plan.ndjson", "");
}

TEST(ReaderPaths, AStreamLineThatIsAScalar) {
  const io::InputError e = streamKernelError("5", 4);
  EXPECT_EQ(e.line(), 4u) << e.what();
  EXPECT_NE(e.message().find("expected a JSON object"), std::string::npos) << e.what();
}

TEST(ReaderPaths, AStreamKeyWithoutATableInTheHeader) {
  const io::InputError e =
      streamKernelError(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r"})", 2);
  EXPECT_EQ(e.line(), 2u) << e.what();
  EXPECT_EQ(e.pointer(), "/capsule") << e.what();
  EXPECT_NE(e.message().find("\"r\""), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("the stream header"), std::string::npos) << e.what();
}

TEST(ReaderPaths, ASourceThatGivesMoreThanItsSizeIsReadWhole) {
  // /proc files report size 0 and give their text on reading.
  const io::Source s = io::loadSource("/proc/self/status");
  EXPECT_NE(s.text.find("Pid:"), std::string::npos);
}

TEST(ReaderPaths, ASourceThatGivesLessThanItsSizeIsReadAsWhatItGives) {
  // sysfs attributes report a page as their size and give a few bytes.
  const char *path = "/sys/devices/system/cpu/online";
  if (::access(path, R_OK) != 0 || std::filesystem::file_size(path) == 0)
    GTEST_SKIP() << path << " is not readable here";
  const io::Source s = io::loadSource(path);
  EXPECT_LT(s.text.size(), std::filesystem::file_size(path));
  EXPECT_FALSE(s.text.empty());
  EXPECT_EQ(s.text.back(), '\n');
}

TEST(ReaderPaths, APipeIsReadWhole) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = rareKernel(R"("kind":"relu","op":"relu","capsule":"r")");
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  const io::Source s = io::loadSource("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  EXPECT_EQ(s.text, text);
  Interner interner;
  EXPECT_EQ(lo::test::seed::readExecutionPlan(s, interner).kernels.size(), 1u);
}

} // namespace
} // namespace lo::test
