// locate(): where a JSON pointer's value starts, for the SARIF regions of `verify`.
#include "tools/report/locate.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace lo::cli {
namespace {

using Position = std::pair<std::size_t, std::size_t>;

TEST(Locate, FindsMembersAndElements) {
  const std::string text = "{\"a\": 1,\n \"groups\": [ {\"x\":[1,2]},\n  {\"capsule\": \"k\"} ]}";
  EXPECT_EQ(report::locate(text, ""), (Position{1, 1}));
  EXPECT_EQ(report::locate(text, "/a"), (Position{1, 7}));
  EXPECT_EQ(report::locate(text, "/groups"), (Position{2, 12}));
  EXPECT_EQ(report::locate(text, "/groups/0/x/1"), (Position{2, 22}));
  EXPECT_EQ(report::locate(text, "/groups/1"), (Position{3, 3}));
  EXPECT_EQ(report::locate(text, "/groups/1/capsule"), (Position{3, 15}));
}

TEST(Locate, SkipsStringsWithBracketsAndMatchesEscapedKeys) {
  const std::string text = R"({"s": "]}\"[{", "k\u0065y": {"a/b": [0, "x"], "m~n": 7}})";
  EXPECT_EQ(report::locate(text, "/key/a~1b/1"), (Position{1, 41}));
  EXPECT_EQ(report::locate(text, "/key/m~0n"), (Position{1, 54}));
}

TEST(Locate, NamesNoValueWhenThePointerDoesNotFit) {
  const std::string text = R"({"groups": [{"a": 1}], "n": 3})";
  EXPECT_FALSE(report::locate(text, "/missing"));
  EXPECT_FALSE(report::locate(text, "/groups/1"));
  EXPECT_FALSE(report::locate(text, "/groups/x"));
  EXPECT_FALSE(report::locate(text, "/groups/99999999999999999999999"));
  EXPECT_FALSE(report::locate(text, "/n/0"));
  EXPECT_FALSE(report::locate(text, "groups"));
  EXPECT_FALSE(report::locate("{\"a\": [1, 2", "/a/5"));
  EXPECT_FALSE(report::locate("{\"a", "/a"));
}

TEST(LocateAll, GivesLocatesAnswerForEveryPointer) {
  const std::vector<std::string> texts = {
      "{\"a\": 1,\n \"groups\": [ {\"x\":[1,2]},\n  {\"capsule\": \"k\"} ]}",
      R"({"s": "]}\"[{", "k\u0065y": {"a/b": [0, "x"], "m~n": 7}})",
      R"({"groups": [{"a": 1}], "n": 3, "n": [5], "d": {"x": 1}, "d": {"y": 2}})",
      "{\"a\": [1, 2",
      "{\"a",
      "",
      "  [ [], {}, [[7]] ]"};
  const std::vector<std::string_view> pointers = {"",
                                                  "/a",
                                                  "/groups",
                                                  "/groups/0/x/1",
                                                  "/groups/1",
                                                  "/groups/1/capsule",
                                                  "/key/a~1b/1",
                                                  "/key/m~0n",
                                                  "/missing",
                                                  "/groups/x",
                                                  "/groups/99999999999999999999999",
                                                  "/n/0",
                                                  "groups",
                                                  "/a/5",
                                                  "/a/1",
                                                  "/n",
                                                  "/d/x",
                                                  "/d/y",
                                                  "/0",
                                                  "/2/0/0",
                                                  "/02/0",
                                                  "/1",
                                                  "/0/0",
                                                  "/a/01",
                                                  "/a/1"};
  for (const std::string &text : texts) {
    const auto all = report::locateAll(text, pointers);
    ASSERT_EQ(all.size(), pointers.size());
    for (std::size_t i = 0; i < pointers.size(); ++i)
      EXPECT_EQ(all[i], report::locate(text, pointers[i])) << text << " " << pointers[i];
  }
}

TEST(LocateAll, OnePassForManyFindings) {
  // 40,000 groups and one finding per group: locating each by rescanning the text costs
  // 40,000 scans of up to 3 MB (minutes); one pass takes milliseconds.
  std::string text = "{\"format\": \"nn-backend/graph-lowering-plan\", \"groups\": [\n";
  constexpr std::size_t kGroups = 40000;
  for (std::size_t g = 0; g < kGroups; ++g)
    text += std::string(g ? ",\n" : "") + "  {\"nodeIds\": [" + std::to_string(g + 1) +
            "], \"kinds\": [\"relu\"], \"op\": \"relu\", \"capsule\": \"reference.relu\", "
            "\"groupingKind\": \"singleton\"}";
  text += "\n]}\n";
  std::vector<std::string> owned;
  for (std::size_t g = 0; g < kGroups; ++g)
    owned.push_back("/groups/" + std::to_string(kGroups - 1 - g) + (g % 2 ? "/capsule" : ""));
  const std::vector<std::string_view> pointers(owned.begin(), owned.end());
  const auto start = std::chrono::steady_clock::now();
  const auto all = report::locateAll(text, pointers);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  ASSERT_EQ(all.size(), kGroups);
  for (std::size_t g = 0; g < kGroups; g += 997)
    EXPECT_EQ(all[g], report::locate(text, pointers[g])) << pointers[g];
  EXPECT_EQ(all[kGroups - 2], (Position{3, 3})); // /groups/1
}

} // namespace
} // namespace lo::cli
