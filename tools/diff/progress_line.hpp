// `diff`'s progress on standard error (docs/conformance.md, "The runner"): on a terminal, one line
// updated in place at most every 100 ms and cleared before the summary; elsewhere, with
// --progress, a line every second. The lowering runner and the planner runner share it, and
// `runCases`, their loop's end: the summary, partial when an interrupt stops the loop.
#pragma once

#include "tools/system/spawn.hpp"

#include <chrono>
#include <cstddef>
#include <iostream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace lo::diff {

/// SIGINT or SIGTERM arrived: unwinds to the partial summary.
struct Interrupted {};

class ProgressLine {
public:
  /// `asked`: --progress (a line every second even when standard error is not a terminal).
  explicit ProgressLine(bool asked) : terminal_(::isatty(2) != 0), asked_(asked) {}

  bool terminal() const { return terminal_; }

  /// Writes `text()` as the progress line when one is due.
  template <class Text> void update(Text &&text) {
    if (!terminal_ && !asked_)
      return;
    const auto now = system::Clock::now();
    if (now - last_ <= std::chrono::milliseconds(terminal_ ? 100 : 1000))
      return;
    last_ = now;
    std::cerr << (terminal_ ? "\r" : "") << text() << (terminal_ ? "" : "\n") << std::flush;
  }

  /// On a terminal: the line cleared, and `then` written in its place (a line not ended).
  void clear(std::string_view then = {}) const {
    if (terminal_)
      std::cerr << "\r\033[K" << then << std::flush;
  }

private:
  bool terminal_, asked_;
  system::Clock::time_point last_ = system::Clock::now();
};

/// Runs `cases(done)`, which judges the cases and counts in `done` those judged, until it returns
/// or an interrupt stops it; then clears the line and returns `summary(done, interrupted)`.
template <class Cases, class Summary>
int runCases(const ProgressLine &progress, Cases &&cases, Summary &&summary) {
  std::size_t done = 0;
  bool interrupted = false;
  try {
    cases(done);
  } catch (const Interrupted &) {
    interrupted = true;
  }
  progress.clear();
  return summary(done, interrupted);
}

} // namespace lo::diff
