// The one escaping module (ref/io/escape.hpp, docs/spec.md §3.5): the RFC 3629 validator and the
// rule every report shows text from the input by.
#include "ref/io/escape.hpp"

#include "ref/interner.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lo::io {
namespace {

TEST(Utf8, AcceptsWellFormedCharactersOnly) {
  EXPECT_EQ(utf8Length("a", 0), 1u);
  EXPECT_EQ(utf8Length("\xc3\xa9", 0), 2u);
  EXPECT_EQ(utf8Length("\xe2\x9c\x93", 0), 3u);
  EXPECT_EQ(utf8Length("\xf0\x9f\x98\x80", 0), 4u);
  EXPECT_EQ(utf8Length("\xf4\x8f\xbf\xbf", 0), 4u) << "U+10FFFF, the last code point";
  EXPECT_EQ(utf8Length("\xef\xbf\xbf", 0), 3u) << "U+FFFF is well-formed (a noncharacter)";
  EXPECT_EQ(utf8Length("\xed\xa0\x80", 0), 0u) << "a surrogate (U+D800)";
  EXPECT_EQ(utf8Length("\xed\xbf\xbf", 0), 0u) << "a surrogate (U+DFFF)";
  EXPECT_EQ(utf8Length("\xe0\x80\xaf", 0), 0u) << "an overlong '/'";
  EXPECT_EQ(utf8Length("\xc0\xaf", 0), 0u) << "an overlong '/'";
  EXPECT_EQ(utf8Length("\xf0\x80\x80\xaf", 0), 0u) << "an overlong '/'";
  EXPECT_EQ(utf8Length("\xf4\x90\x80\x80", 0), 0u) << "U+110000";
  EXPECT_EQ(utf8Length("\xf5\x80\x80\x80", 0), 0u);
  EXPECT_EQ(utf8Length("\x80", 0), 0u) << "a stray continuation byte";
  EXPECT_EQ(utf8Length("\xe2\x9c", 0), 0u) << "truncated";
  EXPECT_EQ(utf8Length("\xe2(\x93", 0), 0u) << "not a continuation byte";
  EXPECT_EQ(firstInvalidUtf8("caf\xc3\xa9"), 5u);
  EXPECT_EQ(firstInvalidUtf8("ab\xed\xa0\x80"), 2u);
  EXPECT_EQ(firstInvalidUtf8(""), 0u);
}

TEST(ShownText, InvalidUtf8IsShownByteByByte) {
  EXPECT_EQ(shownText("s\xed\xa0\x80"), "s\\xed\\xa0\\x80") << "surrogate";
  EXPECT_EQ(shownText("o\xe0\x80\xaf"), "o\\xe0\\x80\\xaf") << "overlong";
  EXPECT_EQ(shownText("h\xf4\x90\x80\x80"), "h\\xf4\\x90\\x80\\x80") << "above U+10FFFF";
  EXPECT_EQ(shownText("t\xe2\x9c"), "t\\xe2\\x9c") << "truncated";
  EXPECT_EQ(shownText("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80") << "a valid 4-byte character";
}

TEST(ShownText, EscapesWhatCouldForgeALineOrBreakXml) {
  EXPECT_EQ(shownText("a\nb\r\tc\x1b\x7f"), "a\\u000ab\\u000d\\u0009c\\u001b\\u007f");
  EXPECT_EQ(shownText("\xc2\x85"), "\\u0085") << "NEL";
  EXPECT_EQ(shownText("\xe2\x80\xa8\xe2\x80\xa9"), "\\u2028\\u2029");
  EXPECT_EQ(shownText("\xe2\x80\xaa\xe2\x80\xae"), "\\u202a\\u202e") << "embeddings, overrides";
  EXPECT_EQ(shownText("\xe2\x81\xa6\xe2\x81\xa9"), "\\u2066\\u2069") << "isolates";
  EXPECT_EQ(shownText("\xe2\x80\x8e\xd8\x9c"), "\\u200e\\u061c") << "marks";
  EXPECT_EQ(shownText("\xef\xbf\xbf\xef\xbf\xbe\xef\xb7\x90"), "\\uffff\\ufffe\\ufdd0")
      << "noncharacters (U+FFFE and U+FFFF are not XML characters)";
  EXPECT_EQ(shownText("caf\xc3\xa9 \xe2\x9c\x93 \xe2\x80\xaf"),
            "caf\xc3\xa9 \xe2\x9c\x93 \xe2\x80\xaf")
      << "text stays (U+202F is a space, not an override)";
}

TEST(ShownText, IsUnchangedWhenShownAgain) {
  const std::string hostile = "a\n\xed\xa0\x80\xef\xbf\xbf\xe2\x80\xae\\u000a\\x41";
  EXPECT_EQ(shownText(shownText(hostile)), shownText(hostile));
  EXPECT_EQ(shownText(std::string(5000, 'n')).size(), kMaxShownBytes + 3) << "cut with …";
  EXPECT_EQ(shownText("\xe2\x80\xa8\xe2\x80\xa8", 7), "\\u2028\xe2\x80\xa6") << "whole escapes";
}

TEST(Utf8Prefix, CutsAtCapWithoutSplittingACharacter) {
  EXPECT_EQ(utf8Prefix("abc", 3), "abc");
  EXPECT_EQ(utf8Prefix("abcd", 3), "abc");
  EXPECT_EQ(utf8Prefix("a\xc3\xa9", 2), "a") << "not inside the two bytes of e-acute";
  EXPECT_EQ(utf8Prefix("\xf0\x9f\x98\x80x", 3), "");
  EXPECT_EQ(utf8Prefix("\xf0\x9f\x98\x80x", 4), "\xf0\x9f\x98\x80");
}

TEST(ShownLines, KeepsTheNewlinesBetweenShownLines) {
  EXPECT_EQ(shownLines("one\x1b[8m\ntwo\xe2\x80\xa8three\n"), "one\\u001b[8m\ntwo\\u2028three\n");
  EXPECT_EQ(shownLines(""), "");
  EXPECT_EQ(shownLines("one\ntwo\x07"), "one\ntwo\\u0007\n") << "a last line is ended too";
  EXPECT_EQ(shownLines("a\x1b\nbb\n", 1, "  "), "  a\xe2\x80\xa6\n  b\xe2\x80\xa6\n")
      << "cut, indented";
}

TEST(XmlText, EscapesMarkupAndShowsTheRest) {
  EXPECT_EQ(xmlText("<a b=\"c\" & 'd'>"), "&lt;a b=&quot;c&quot; &amp; &apos;d&apos;&gt;");
  EXPECT_EQ(xmlText("x\xef\xbf\xbf\x01\xed\xa0\x80"), "x\\uffff\\u0001\\xed\\xa0\\x80");
  EXPECT_EQ(xmlText(std::string(5000, 'n')).size(), 5000u) << "never cut";
}

// docs/spec.md §3.5: an input error quotes the string it names and escapes nothing; the line it is
// shown in (what(), the line on standard error) shows it by the one rule.
TEST(Quoting, AnInputErrorQuotesRawTextAndItsLineShowsIt) {
  Interner interner;
  try {
    (void)readExecutionPlan(sourceFromString("plan\x1b.json", R"({"kernels":[],"a\nb\u2028":1})"),
                            interner);
    FAIL() << "an unknown field is rejected";
  } catch (const InputError &e) {
    EXPECT_NE(e.message().find("unknown field \"a\nb\xe2\x80\xa8\""), std::string::npos)
        << e.message();
    EXPECT_EQ(e.file(), "plan\x1b.json");
    const std::string line = e.what();
    EXPECT_NE(line.find("plan\\u001b.json:"), std::string::npos) << line;
    EXPECT_NE(line.find("unknown field \"a\\u000ab\\u2028\""), std::string::npos) << line;
    EXPECT_EQ(line, shownText(line, kUncut)) << "shown once, unchanged when shown again";
  }
}

} // namespace
} // namespace lo::io
