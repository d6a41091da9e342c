// Shared by the libFuzzer harnesses of tests/fuzz: how a harness reports a broken property, and
// what a clean rejection of bad input looks like.
#pragma once

#include "ref/edition.hpp"
#include "ref/io/error.hpp"
#include "tests/seed.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace lo::fuzz {

/// The edition the harnesses draw, write and read in (docs/spec.md §1.6): that of their corpora,
/// whose singleton lowering and group kinds the round trips exercise.
inline constexpr Edition kEdition = test::seed::kEdition;

/// A property of the oracle does not hold: print why and abort, so that libFuzzer (or the replay
/// driver) saves and reports the input.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz property violated: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void require(bool ok, std::string_view what, std::string_view detail = {}) {
  if (!ok)
    fail(what, detail);
}

/// An input error as docs/spec.md §4.5 gives it: a rejection names the file, a position and a
/// pointer, and is one line.
inline void requireCleanError(const io::InputError &e, std::string_view file) {
  const std::string text = e.what();
  require(text.rfind(std::string(file) + ":", 0) == 0, "error does not start with the file name",
          text);
  require(text.find_first_of("\n\r") == std::string::npos, "error is not one line", text);
  require(!e.message().empty(), "error has an empty message", text);
  if (e.line() != 0)
    require(e.pointer().empty() || e.pointer()[0] == '/', "error pointer is not a JSON pointer",
            text);
}

} // namespace lo::fuzz
