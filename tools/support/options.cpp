#include "tools/support/options.hpp"

#include <charconv>

namespace lo::cli {

std::uint64_t parseNatural(const std::string &option, const std::string &text, std::uint64_t lo,
                           std::uint64_t hi) {
  std::uint64_t value = 0;
  const char *first = text.data(), *last = text.data() + text.size();
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  auto [end, ec] = std::from_chars(first, last, value);
  if (!digits || ec != std::errc() || end != last || value < lo || value > hi) {
    std::string found = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    for (char &c : found)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        c = '?';
    throw CLI::ValidationError(option, "expected a whole number from " + std::to_string(lo) +
                                           " to " + std::to_string(hi) + ", found " + found);
  }
  return value;
}

} // namespace lo::cli
