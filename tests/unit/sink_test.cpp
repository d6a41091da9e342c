// io::Sink (ref/io/output.hpp) against a plain std::string as its model: random pieces (characters,
// texts from empty to larger than either buffer, numbers, JSON strings with escapes), written to a
// Sink into a string and to a Sink into a Destination, each of which must end with the model's
// bytes. The seed is printed; LO_TEST_SEED=N runs it again.
#include "ref/io/output.hpp"

#include "tests/random_seed.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <random>
#include <string>

namespace lo::test {
namespace {

struct Collected final : io::Destination {
  std::string bytes;
  std::size_t writes = 0;
  void write(std::string_view b) override {
    bytes.append(b);
    ++writes;
  }
};

/// `s` as a JSON string literal, written the long way.
std::string jsonLiteral(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (u < 0x20) {
      out += "\\u00";
      out += "0123456789abcdef"[u >> 4];
      out += "0123456789abcdef"[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

TEST(Sink, WritesEveryPieceAcrossItsBuffersBoundaries) {
  const std::uint64_t seed = randomSeed();
  std::mt19937_64 random(seed);
  auto below = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
  std::string model, intoText;
  Collected intoFile;
  {
    io::Sink text(intoText), file(intoFile);
    for (int step = 0; step < 3000; ++step) {
      switch (below(4)) {
      case 0: {
        const char c = static_cast<char>(below(256));
        text << c;
        file << c;
        model += c;
        break;
      }
      case 1: {
        // Mostly short; now and then longer than the text buffer (4 KiB) or the file's (1 MiB).
        const std::size_t n = below(20) ? below(100) : below(10) ? below(9000) : below(3u << 20);
        std::string s(n, 'x');
        for (std::size_t i = 0; i < n; i += 1 + below(64))
          s[i] = static_cast<char>(below(256));
        text << std::string_view(s);
        file << std::string_view(s);
        model += s;
        break;
      }
      case 2: {
        const std::uint64_t n = random() >> below(64);
        text << n;
        file << n;
        model += std::to_string(n);
        break;
      }
      default: {
        std::string s(below(12), 'a');
        for (char &c : s)
          c = static_cast<char>(below(4) ? 'a' + below(26) : below(128));
        text.jsonString(s);
        file.jsonString(s);
        model += jsonLiteral(s);
      }
      }
    }
    text.flush();
    file.flush();
  }
  ASSERT_EQ(intoText.size(), model.size()) << "seed " << seed;
  EXPECT_TRUE(intoText == model) << "seed " << seed;
  ASSERT_EQ(intoFile.bytes.size(), model.size()) << "seed " << seed;
  EXPECT_TRUE(intoFile.bytes == model) << "seed " << seed;
  // Written out in blocks of the buffer's size or more, not piece by piece.
  EXPECT_LE(intoFile.writes, 2 + 2 * (model.size() >> 20) + 1000) << "seed " << seed;
}

} // namespace
} // namespace lo::test
