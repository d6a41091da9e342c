// Running an implementation without a shell: word splitting, substitution, exit status, signals,
// timeouts and captured output.
#include "tools/support/subprocess.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace lo::subprocess {
namespace {

using V = std::vector<std::string>;
using namespace std::chrono_literals;

TEST(SplitCommand, SplitsLikeAShellWithoutRunningOne) {
  EXPECT_EQ(splitCommand("  impl  {plan}\t-o {out} "), (V{"impl", "{plan}", "-o", "{out}"}));
  EXPECT_EQ(splitCommand("a 'b c' \"d \\\"e\\\" $f\" g\\ h ''"),
            (V{"a", "b c", "d \"e\" $f", "g h", ""}));
  EXPECT_EQ(splitCommand("x'y'\"z\""), (V{"xyz"}));
  EXPECT_THROW(splitCommand("a 'b"), std::invalid_argument);
  EXPECT_THROW(splitCommand("a \"b"), std::invalid_argument);
  EXPECT_THROW(splitCommand("   "), std::invalid_argument);
}

TEST(Substitute, ReplacesInsideEachArgumentAndNeverRescans) {
  const V argv{"impl", "--in={plan}", "{out}", "{mode}/{equality}", "{other}", "{"};
  const V out = substitute(argv, {{"plan", "a b; rm -rf / {out}"},
                                  {"out", "$(touch x)"},
                                  {"mode", "coalesced"},
                                  {"equality", "contract"}});
  EXPECT_EQ(out, (V{"impl", "--in=a b; rm -rf / {out}", "$(touch x)", "coalesced/contract",
                    "{other}", "{"}));
}

Result sh(const std::string &script, Options o = {}) { return run({"sh", "-c", script}, o); }

TEST(Run, ExitStatusAndStandardError) {
  const Result r = sh("echo out; echo err >&2; exit 3");
  EXPECT_EQ(r.status, Result::Status::exited);
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.standardError, "err\n");
  EXPECT_EQ(r.standardOutput, "") << "not captured unless asked";
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(describe(r, 1000ms), "exited with status 3");
  Options o;
  o.captureStdout = true;
  EXPECT_EQ(sh("echo out", o).standardOutput, "out\n");
  EXPECT_TRUE(sh("true").ok());
}

TEST(Run, ArgumentsArriveUnchanged) {
  Options o;
  o.captureStdout = true;
  const Result r = run({"sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "$(echo x)", ";", ""}, o);
  EXPECT_EQ(r.standardOutput, "a b|$(echo x)|;||");
}

TEST(Run, Signal) {
  const Result r = sh("kill -SEGV $$");
  EXPECT_EQ(r.status, Result::Status::signaled);
  EXPECT_EQ(r.code, SIGSEGV);
  EXPECT_NE(describe(r, 1000ms).find("signal 11"), std::string::npos);
}

TEST(Run, TimeoutKillsTheWholeProcessGroup) {
  Options o;
  o.timeout = 200ms;
  // The grandchild keeps the stderr pipe open; the run must still end at the timeout.
  const Result r = sh("echo started >&2; sleep 30 & sleep 30", o);
  EXPECT_EQ(r.status, Result::Status::timedOut);
  EXPECT_LT(r.elapsed, 5000ms);
  EXPECT_EQ(r.standardError, "started\n");
  EXPECT_EQ(describe(r, o.timeout), "timed out after 200 ms");
}

TEST(Run, ChildExitsWhileAGrandchildHoldsThePipe) {
  Options o;
  o.timeout = 20000ms;
  const Result r = sh("sleep 30 & exit 0", o);
  EXPECT_TRUE(r.ok());
  EXPECT_LT(r.elapsed, 5000ms);
}

TEST(Run, CommandThatCannotStart) {
  const Result r = run({"/nonexistent/lowering-impl"}, {});
  EXPECT_EQ(r.status, Result::Status::failedToStart);
  EXPECT_EQ(r.error, "No such file or directory");
}

TEST(Run, LargeStandardErrorIsCapped) {
  Options o;
  o.maxCapture = 1000;
  const Result r = sh("head -c 200000 /dev/zero | tr '\\0' x >&2", o);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.standardError.size(), 1003u);
  EXPECT_EQ(r.standardError.substr(1000), "...");
}

} // namespace
} // namespace lo::subprocess
