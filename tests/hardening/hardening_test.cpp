// Hardening against bad input: every input class is run through the real binary, and
// each rejection must exit 2, print exactly one line `lowering-oracle: FILE:LINE:COL: /pointer:
// message` and leave no output file behind.
//
// Plans go through `lower`, lowering plans (candidates) through `audit`, which reads either.
#include "ref/io/reader.hpp"
#include "tests/cli_run.hpp"
#include "tests/hardening/documents.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace lo::hardening;

namespace {

const std::string &planText() {
  static const std::string text = dump(basePlan());
  return text;
}

/// The lowering of the base plan with its audit, as the binary writes it, as a tree.
const Json &baseLowering() {
  static const Json lowering = [] {
    OracleRun r = runOracle("lower --audit", planText());
    EXPECT_EQ(r.exit, 0) << r.err;
    return parse(r.out);
  }();
  return lowering;
}

std::string parentOf(const std::string &pointer) { return pointer.substr(0, pointer.rfind('/')); }
std::string lastToken(const std::string &pointer) { return pointer.substr(pointer.rfind('/') + 1); }
std::string shown(const std::string &pointer) { return pointer.empty() ? "/" : pointer; }

/// 1-based column of the first occurrence of `needle` in `text`, plus `skip` bytes.
std::size_t columnOf(const std::string &text, const std::string &needle, std::size_t skip = 0) {
  const auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return at + skip + 1;
}

struct Doc {
  const char *command;
  Json tree;
};
std::vector<Doc> bothDocuments() { return {{"lower", basePlan()}, {"audit", baseLowering()}}; }

// Fields a reader may go without (docs/spec.md §2.1 and §2.2).
const std::set<std::string> kOptionalFields = {
    "format",      "version",         "mode",       "equality",   "audit",    "supportsForward",
    "vjpMode",     "numericalPolicy", "notes",      "provenance", "rounding", "subnormals",
    "contraction", "reduction",       "buildTarget"};

// Fields whose value is a spelling of docs/spec.md §1.5's vocabularies (or a format string).
const std::set<std::string> kSpellingFields = {
    "op",           "provider", "device",   "trustLevel", "vjpMode",     "layout",
    "mode",         "tag",      "rounding", "subnormals", "contraction", "reduction",
    "groupingKind", "equality", "kind",     "format"};
const std::set<std::string> kSpellingArrays = {"kinds", "trustLevels", "trustedExternalOps"};

} // namespace

// --- Controls: the documents the other tests break are accepted ---------------------------------

TEST(Hardening, BaseDocumentsAreAccepted) {
  expectAccepted(runOracle("lower", planText()));
  expectAccepted(runOracle("audit", dump(baseLowering())));
  expectAccepted(runOracle("lower", planText(), /*viaStdin=*/true));
}

// --- Numbers: ids at and beyond 2^63 and 2^64, negative and fractional numbers
// ---------------------

TEST(Hardening, NodeIdsAtAndBeyondTheLimits) {
  const std::string kBelow = "9223372036854775807"; // 2^63 - 1: the largest id
  Json plan = basePlan();
  at(plan, "/kernels/0/nodeId") = Json::number(kBelow);
  expectAccepted(runOracle("lower", dump(plan)));

  for (const char *id : {"9223372036854775808", "18446744073709551615"}) { // 2^63, 2^64 - 1
    at(plan, "/kernels/0/nodeId") = Json::number(id);
    const std::string text = dump(plan);
    SCOPED_TRACE(id);
    expectRejected(runOracle("lower", text), "/kernels/0/nodeId", "below 2^63", 1,
                   columnOf(text, "\"nodeId\":", 9));
  }
  for (const char *id : {"18446744073709551616", "100000000000000000000000"}) { // 2^64, 10^23
    at(plan, "/kernels/0/nodeId") = Json::number(id);
    const std::string text = dump(plan);
    SCOPED_TRACE(id);
    expectRejected(runOracle("lower", text), "/kernels/0/nodeId", "natural number", 1,
                   columnOf(text, "\"nodeId\":", 9));
  }
}

TEST(Hardening, GroupNodeIdsAtAndBeyondTheLimits) {
  Json lowering = baseLowering();
  for (const char *id : {"9223372036854775808", "18446744073709551615", "18446744073709551616"}) {
    SCOPED_TRACE(id);
    at(lowering, "/groups/0/nodeIds/0") = Json::number(id);
    expectRejected(readInProcess("audit", dump(lowering)), "/groups/0/nodeIds/0", "2^6");
  }
}

TEST(Hardening, NegativeAndFractionalNumbersAreRejected) {
  for (const char *n : {"-1", "-0", "1.5", "1.0", "1e2", "0.5e1", "-9223372036854775808"}) {
    SCOPED_TRACE(n);
    Json plan = basePlan();
    at(plan, "/kernels/0/nodeId") = Json::number(n);
    expectRejected(runOracle("lower", dump(plan)), "/kernels/0/nodeId", "natural number");
    plan = basePlan();
    at(plan, "/kernels/1/kind/inC") = Json::number(n);
    expectRejected(readInProcess("lower", dump(plan)), "/kernels/1/kind/inC", "natural number");
    plan = basePlan();
    at(plan, "/kernels/2/kind/inShape/1") = Json::number(n);
    expectRejected(readInProcess("lower", dump(plan)), "/kernels/2/kind/inShape/1",
                   "natural number");
    plan = basePlan();
    at(plan, "/version") = Json::number(n);
    expectRejected(readInProcess("lower", dump(plan)), "/version", "");
  }
}

TEST(Hardening, KindParametersAreNaturalsUpTo2To64) {
  Json plan = basePlan();
  at(plan, "/kernels/1/kind/inC") = Json::number("18446744073709551615");
  expectAccepted(runOracle("lower", dump(plan)));
  at(plan, "/kernels/1/kind/inC") = Json::number("18446744073709551616");
  expectRejected(runOracle("lower", dump(plan)), "/kernels/1/kind/inC", "natural number");
}

// --- Bytes: invalid UTF-8, NUL bytes, a byte-order mark ------------------------------------------

TEST(Hardening, InvalidUtf8IsRejectedAtTheBadByte) {
  // A stray continuation byte, an overlong '/', a UTF-16 surrogate, a code point above U+10FFFF,
  // a truncated sequence, a byte that never occurs in UTF-8.
  for (const std::string bad :
       {"\x80", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\xFF"}) {
    SCOPED_TRACE(testing::PrintToString(bad));
    for (const char *where : {"/capsules/a/notes", "/kernels/1/capsule/name"}) {
      Json plan = basePlan();
      at(plan, where) = Json::string("ok" + bad + "ok");
      const std::string text = dump(plan);
      expectRejected(where[1] == 'c' ? runOracle("lower", text) : readInProcess("lower", text), "/",
                     "invalid UTF-8", 1, columnOf(text, bad));
    }
    // In a key, and in a candidate.
    Json plan = basePlan();
    plan.fields.emplace_back("k" + bad, Json::number("1"));
    expectRejected(readInProcess("lower", dump(plan)), "/", "invalid UTF-8");
    Json lowering = baseLowering();
    at(lowering, "/groups/0/capsule") = Json::string(bad);
    expectRejected(readInProcess("audit", dump(lowering)), "/", "invalid UTF-8");
  }
}

TEST(Hardening, EscapedLoneSurrogatesAreRejected) {
  for (const char *escape : {"\\ud800", "\\udc00x", "\\ud800\\u0041"}) {
    SCOPED_TRACE(escape);
    std::string text = planText();
    const std::string notes = "\"notes\":\"notes\"";
    text.replace(text.find(notes), notes.size(), "\"notes\":\"" + std::string(escape) + "\"");
    expectRejected(runOracle("lower", text), "", "");
  }
}

TEST(Hardening, RawNulIsRejectedAndEscapedNulIsRead) {
  const std::string nul(1, '\0');
  // Raw NUL inside a string, between tokens, after the document, and as the whole document.
  const std::string notes = "\"notes\":\"notes\"";
  std::string inString = planText();
  inString.replace(inString.find(notes), notes.size(), "\"notes\":\"a" + nul + "b\"");
  expectRejected(runOracle("lower", inString), "/", "unescaped control character", 1,
                 columnOf(inString, nul));
  std::string between = planText();
  between.insert(1, nul);
  expectRejected(runOracle("lower", between), "", "", 1);
  expectRejected(runOracle("lower", planText() + nul), "/", "trailing data", 1,
                 planText().size() + 1);
  expectRejected(runOracle("lower", nul), "/", "", 1, 1);
  // An escaped NUL is a character like any other: read, and written back escaped.
  std::string escaped = planText();
  escaped.replace(escaped.find(notes), notes.size(), "\"notes\":\"a\\u0000b\"");
  OracleRun r = runOracle("lower", escaped);
  expectAccepted(r);
  EXPECT_NE(r.out.find("a\\u0000b"), std::string::npos);
}

TEST(Hardening, ByteOrderMarksAreRejected) {
  expectRejected(runOracle("lower", "\xEF\xBB\xBF" + planText()), "/", "byte-order mark", 1, 1);
  expectRejected(runOracle("audit", "\xEF\xBB\xBF" + dump(baseLowering())), "/", "byte-order mark",
                 1, 1);
  expectRejected(runOracle("lower", "\xEF\xBB\xBF" + planText(), /*viaStdin=*/true), "/",
                 "byte-order mark", 1, 1, "<stdin>");
  // UTF-16 and UTF-32 byte-order marks are not UTF-8 at all.
  expectRejected(runOracle("lower", "\xFF\xFE" + planText()), "/", "invalid UTF-8", 1, 1);
  expectRejected(runOracle("lower", std::string("\x00\x00\xFE\xFF", 4) + planText()), "/", "", 1);
}

TEST(Hardening, ControlCharactersInKeysKeepTheMessageOnOneLine) {
  // An escaped newline in a key is a newline in the JSON pointer; the message shows it escaped.
  Json plan = basePlan();
  plan.fields.emplace_back("a\nb", Json::number("1"));
  expectRejected(runOracle("lower", dump(plan)), "/a\\u000ab", "unknown field");
  plan = basePlan();
  at(plan, "/capsules").fields.emplace_back("k\r\x01", Json::object({}));
  expectRejected(readInProcess("lower", dump(plan)), "/capsules/k\\u000d\\u0001", "missing field");
}

// --- Structure: duplicate keys, trailing data, a second document, not an object
// -------------------

TEST(Hardening, EveryDuplicateFieldIsRejected) {
  for (auto &[command, tree] : bothDocuments()) {
    std::vector<std::string> objects;
    walk(tree, "", [&](const std::string &p, Json &j) {
      if (j.type == Json::Type::object)
        objects.push_back(p);
    });
    for (const auto &p : objects)
      for (std::size_t i = 0; i < at(tree, p).fields.size(); ++i) {
        Json copy = tree;
        Json &object = at(copy, p);
        const auto field = object.fields[i];
        object.fields.insert(object.fields.begin() + static_cast<long>(i) + 1, field);
        SCOPED_TRACE(std::string(command) + " " + p + "/" + field.first);
        // The capsules table's keys are capsule keys; everything else is a field.
        // A kind with all its parameters and one more is also "too many fields in a kind".
        const bool kind = at(tree, p).find("tag") &&
                          (lastToken(p) == "kind" || lastToken(parentOf(p)) == "kinds");
        expectRejected(readInProcess(command, dump(copy)), p + "/" + field.first,
                       kind ? "in a kind" : "duplicate");
      }
  }
}

TEST(Hardening, TrailingDataAndASecondDocumentAreRejected) {
  for (auto &[command, tree] : bothDocuments()) {
    const std::string text = dump(tree);
    for (const std::string &tail :
         std::vector<std::string>{" x", "]", "}", ",", "{}", "[]", "0", "\"s\"", "null",
                                  "\n" + text, text, " " + text}) {
      SCOPED_TRACE(std::string(command) + " + " + tail.substr(0, 10));
      const std::size_t skip = tail.find_first_not_of(" \n");
      const std::size_t line = tail[0] == '\n' ? 2 : 1;
      const std::size_t column = tail[0] == '\n' ? 1 : text.size() + skip + 1;
      const std::string input = text + tail;
      expectRejected(tail == text ? runOracle(command, input) : readInProcess(command, input), "/",
                     "trailing data", line, column);
    }
    expectAccepted(runOracle(command, text + " \n\t\r\n"));
  }
}

TEST(Hardening, DocumentsThatAreNotObjectsAreRejected) {
  for (const std::string text : {"", "   \n", "[]", "null", "1", "\"plan\"", "{", "{\"kernels\":[",
                                 "{\"kernels\":[]", "{\"kernels\" []}", "{'kernels':[]}"}) {
    SCOPED_TRACE(text);
    // A single value is not a plan either: the message says what was expected, in plain words.
    const bool value = text == "[]" || text == "null" || text == "1" || text == "\"plan\"";
    const std::string needle = value ? "a JSON object" : "";
    expectRejected(text.empty() ? runOracle("lower", text) : readInProcess("lower", text), "",
                   needle);
    expectRejected(readInProcess("audit", text), "", needle);
  }
}

// --- Vocabulary: every enum misspelled, every required field missing ---------------------------

TEST(Hardening, EverySpellingMisspelledIsRejected) {
  std::size_t cases = 0;
  for (auto &[command, tree] : bothDocuments()) {
    std::vector<std::string> targets;
    walk(tree, "", [&](const std::string &p, Json &j) {
      if (j.type != Json::Type::string || p.empty())
        return;
      const std::string key = lastToken(p), parentKey = lastToken(parentOf(p));
      if (kSpellingFields.count(key) || kSpellingArrays.count(parentKey))
        targets.push_back(p);
    });
    for (const auto &p : targets) {
      for (const char *how : {"misspelled", "case"}) {
        Json copy = tree;
        std::string &text = at(copy, p).text;
        text = std::string(how) == "case"
                   ? std::string(1, static_cast<char>(std::toupper(text[0]))) + text.substr(1)
                   : text + "_x";
        SCOPED_TRACE(std::string(command) + " " + p + " = " + text);
        const bool isFormat = lastToken(p) == "format";
        expectRejected(readInProcess(command, dump(copy)), p, isFormat ? "format" : "unknown");
        ++cases;
      }
    }
  }
  EXPECT_GE(cases, 80u); // every field of both documents that holds a spelling
}

TEST(Hardening, EveryRequiredFieldMissingIsRejected) {
  std::size_t required = 0;
  for (auto &[command, document] : bothDocuments()) {
    Json &tree = document; // (clang 14 cannot capture a structured binding in a lambda)
    std::vector<std::string> fields;
    walk(tree, "", [&](const std::string &p, Json &) {
      if (!p.empty() && lastToken(parentOf(p)) != "capsules" &&
          at(tree, parentOf(p)).type == Json::Type::object)
        fields.push_back(p);
    });
    for (const auto &p : fields) {
      Json copy = tree;
      auto &object = at(copy, parentOf(p)).fields;
      const std::string key = lastToken(p);
      object.erase(std::find_if(object.begin(), object.end(),
                                [&](const auto &f) { return f.first == key; }));
      SCOPED_TRACE(std::string(command) + " without " + p);
      const OracleRun r = readInProcess(command, dump(copy));
      if (key == "capsules") { // the kernels name capsules of the table
        expectRejected(r, "", "no capsules table");
      } else if (kOptionalFields.count(key) && (key != "mode" || parentOf(p).empty())) {
        expectAccepted(r);
      } else {
        const std::string object = parentOf(p);
        const bool isParameter =
            key != "tag" && (lastToken(object) == "kind" || lastToken(parentOf(object)) == "kinds");
        expectRejected(r, shown(parentOf(p)),
                       (isParameter ? "missing parameter \"" : "missing field \"") + key + "\"");
        ++required;
      }
    }
  }
  EXPECT_GE(required, 60u);
}

// One representative of each exhaustive class above through the binary itself.
TEST(Hardening, RepresentativesThroughTheBinary) {
  Json plan = basePlan();
  plan.fields.push_back(plan.fields[3]); // a second "kernels"
  expectRejected(runOracle("lower", dump(plan)), "/kernels", "duplicate field \"kernels\"");
  plan = basePlan();
  at(plan, "/capsules/a/provider") = Json::string("cudaa");
  expectRejected(runOracle("lower", dump(plan)), "/capsules/a/provider", "unknown Provider");
  plan = basePlan();
  auto &capsule = at(plan, "/kernels/1/capsule").fields;
  capsule.erase(capsule.begin());
  expectRejected(runOracle("lower", dump(plan)), "/kernels/1/capsule", "missing field \"name\"");
  Json lowering = baseLowering();
  at(lowering, "/groups/0/groupingKind") = Json::string("sameCapsule");
  expectRejected(runOracle("audit", dump(lowering)), "/groups/0/groupingKind",
                 "unknown GroupingKind");
}

// --- Limits: depth, document size, string length ------------------------------------------------

TEST(Hardening, StringLengthLimit) {
  Json plan = basePlan();
  at(plan, "/capsules/a/notes") = Json::string(std::string(lo::io::kMaxStringBytes, 'n'));
  expectAccepted(runOracle("lower", dump(plan)));
  at(plan, "/capsules/a/notes") = Json::string(std::string(lo::io::kMaxStringBytes + 1, 'n'));
  const std::string text = dump(plan);
  expectRejected(runOracle("lower", text), "/capsules/a/notes", "string longer than the limit", 1);
}

TEST(Hardening, NestingDeeperThanTheSchemaIsRejected) {
  for (std::size_t depth :
       {lo::io::kMaxDepth - 1, lo::io::kMaxDepth, lo::io::kMaxDepth + 1, std::size_t{100000}}) {
    SCOPED_TRACE(depth);
    const std::string deep = std::string(depth, '[') + std::string(depth, ']');
    // As a whole document, as a value the reader would descend into, and unclosed.
    const bool binary = depth > lo::io::kMaxDepth + 1;
    expectRejected(binary ? runOracle("lower", deep) : readInProcess("lower", deep), "", "");
    expectRejected(readInProcess("lower", "{\"kernels\":" + deep + "}"), "", "");
    expectRejected(readInProcess("audit", "{\"groups\":[{\"nodeIds\":" + deep + "}]}"), "", "");
    expectRejected(readInProcess("lower", std::string(depth, '[')), "", "");
    Json plan = basePlan();
    std::string text = dump(plan);
    const std::string notes = "\"notes\":\"notes\"";
    text.replace(text.find(notes), notes.size(), "\"notes\":" + deep);
    expectRejected(readInProcess("lower", text), "/capsules/a/notes", "");
  }
}

TEST(Hardening, DocumentSizeLimit) {
  // A sparse file one byte over the limit: rejected before it is read.
  const OracleRun r =
      runOracle("lower", planText(), false, std::nullopt, lo::io::kMaxDocumentBytes + 1);
  expectRejected(r, "/", "larger than the limit");
}

// --- Output: written whole or not at all
// -----------------------------------------------------------

TEST(Hardening, AFailedRunKeepsAnExistingOutputFile) {
  const OracleRun r =
      runOracle("lower", "\xEF\xBB\xBF{}", false, std::string("previous content\n"));
  EXPECT_EQ(r.exit, 2);
  EXPECT_TRUE(r.outExists);
  EXPECT_EQ(r.out, "previous content\n");
}
