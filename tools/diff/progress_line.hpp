// `diff`'s progress on standard error (docs/conformance.md, "The runner"): on a terminal, one line
// updated in place at most every 100 ms and cleared before the summary; elsewhere, with
// --progress, a line every second. The lowering runner and the planner runner share it, and
// `runCases`, their loop over the cases: the line, then the summary, partial when an interrupt
// stops the loop.
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

/// Judges the cases 0 to `count` - 1 in turn, `judge(i)` true when a failure stops the run, with
/// `text(done)` as the progress line after each, until the last, a failure that stops the run or
/// an interrupt; then clears the line and returns `summary(done, interrupted)`, `done` the cases
/// judged (a case that stopped the run among them).
template <class Judge, class Text, class Summary>
int runCases(ProgressLine &progress, std::size_t count, Judge &&judge, Text &&text,
             Summary &&summary) {
  std::size_t done = 0;
  bool interrupted = false;
  try {
    for (std::size_t i = 0; i < count; ++i) {
      const bool stop = judge(i);
      ++done;
      if (stop)
        break;
      progress.update([&] { return text(done); });
    }
  } catch (const Interrupted &) {
    interrupted = true;
  }
  progress.clear();
  return summary(done, interrupted);
}

} // namespace lo::diff
