// locate(): where a JSON pointer's value starts, for the SARIF regions of `verify`.
#include "tools/support/locate.hpp"

#include <gtest/gtest.h>

namespace lo::cli {
namespace {

using Position = std::pair<std::size_t, std::size_t>;

TEST(Locate, FindsMembersAndElements) {
  const std::string text = "{\"a\": 1,\n \"groups\": [ {\"x\":[1,2]},\n  {\"capsule\": \"k\"} ]}";
  EXPECT_EQ(locate(text, ""), (Position{1, 1}));
  EXPECT_EQ(locate(text, "/a"), (Position{1, 7}));
  EXPECT_EQ(locate(text, "/groups"), (Position{2, 12}));
  EXPECT_EQ(locate(text, "/groups/0/x/1"), (Position{2, 22}));
  EXPECT_EQ(locate(text, "/groups/1"), (Position{3, 3}));
  EXPECT_EQ(locate(text, "/groups/1/capsule"), (Position{3, 15}));
}

TEST(Locate, SkipsStringsWithBracketsAndMatchesEscapedKeys) {
  const std::string text = R"({"s": "]}\"[{", "k\u0065y": {"a/b": [0, "x"], "m~n": 7}})";
  EXPECT_EQ(locate(text, "/key/a~1b/1"), (Position{1, 41}));
  EXPECT_EQ(locate(text, "/key/m~0n"), (Position{1, 54}));
}

TEST(Locate, NamesNoValueWhenThePointerDoesNotFit) {
  const std::string text = R"({"groups": [{"a": 1}], "n": 3})";
  EXPECT_FALSE(locate(text, "/missing"));
  EXPECT_FALSE(locate(text, "/groups/1"));
  EXPECT_FALSE(locate(text, "/groups/x"));
  EXPECT_FALSE(locate(text, "/groups/99999999999999999999999"));
  EXPECT_FALSE(locate(text, "/n/0"));
  EXPECT_FALSE(locate(text, "groups"));
  EXPECT_FALSE(locate("{\"a\": [1, 2", "/a/5"));
  EXPECT_FALSE(locate("{\"a", "/a"));
}

} // namespace
} // namespace lo::cli
