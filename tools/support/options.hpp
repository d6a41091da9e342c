// Numeric options, validated alike in every command: a whole number written in decimal digits
// only (no sign: `--count -1` is an error, not 2^64 - 1), within a range stated in plain numbers
// in the one-line error and in --help. The ranges of `gen` and `diff`'s shared generator options
// live here, so that both commands agree (README, "Commands").
#pragma once

#include "ref/io/source.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace lo::cli {

/// --count of gen and diff: at most a million cases.
inline constexpr std::uint64_t kMaxCount = 1000000;
/// --max-nodes of gen and diff: at most 100000 nodes in a random case.
inline constexpr std::uint64_t kMaxNodes = 100000;
/// --timeout-ms of diff and prove: at most a day, so that a deadline never overflows.
inline constexpr std::uint64_t kMaxTimeoutMs = 86400000;
inline constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
/// --max-output-bytes of diff: from 1 (an empty output is no document) to 4 GiB, the largest
/// document the reader reads (docs/errors.md, "Limits").
inline constexpr std::uint64_t kMaxOutputBytes = io::kMaxDocumentBytes;

/// `text` as a whole number in [lo, hi]; else throws CLI::ValidationError, one line:
/// "--count: expected a whole number from 0 to 1000000, found -1".
std::uint64_t parseNatural(const std::string &option, const std::string &text, std::uint64_t lo,
                           std::uint64_t hi);

/// Adds `name` to `sub`: a whole number in [lo, hi] stored in `target` (any integer type that
/// holds hi); --help shows the range and the default.
template <class T>
CLI::Option *addNatural(CLI::App &sub, const std::string &name, T &target, std::uint64_t lo,
                        std::uint64_t hi, const std::string &description) {
  static_assert(std::is_integral_v<T>);
  const std::string shown = name.substr(0, name.find(','));
  auto *option = sub.add_option_function<std::string>(
      name,
      [&target, shown, lo, hi](const std::string &text) {
        target = static_cast<T>(parseNatural(shown, text, lo, hi));
      },
      description + " (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
  option->type_name("N")->default_str(std::to_string(target));
  return option;
}

} // namespace lo::cli
