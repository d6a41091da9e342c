// Running an implementation without a shell: word splitting, substitution, exit status, signals,
// timeouts and captured output.
#include "tools/system/command_line.hpp"
#include "tools/system/deadline.hpp"
#include "tools/system/interrupt.hpp"
#include "tools/system/solver_binary.hpp"
#include "tools/system/spawn.hpp"
#include "tools/system/worker.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <limits>
#include <set>
#include <thread>
#include <unistd.h>

namespace lo::system {
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

TEST(Run, StandardOutputCapIsReportedNotSilent) {
  Options o;
  o.captureStdout = true;
  o.maxStdout = 1000;
  const Result cut = sh("head -c 1001 /dev/zero", o);
  EXPECT_TRUE(cut.ok());
  EXPECT_TRUE(cut.stdoutTruncated);
  EXPECT_EQ(cut.standardOutput.size(), 1000u);
  const Result whole = sh("head -c 1000 /dev/zero", o);
  EXPECT_FALSE(whole.stdoutTruncated) << "exactly the cap is not cut";
  EXPECT_EQ(whole.standardOutput.size(), 1000u);
}

TEST(Deadline, SaturatesInsteadOfOverflowing) {
  const auto now = Clock::now();
  EXPECT_EQ(deadlineAfter(std::chrono::milliseconds(std::numeric_limits<long long>::max()), now),
            Clock::time_point::max());
  EXPECT_EQ(deadlineAfter(std::chrono::milliseconds(9300000000000LL), now),
            Clock::time_point::max());
  EXPECT_EQ(deadlineAfter(1500ms, now), now + 1500ms);
  EXPECT_EQ(deadlineAfter(0ms, now), now);
  // A run with a saturated timeout is not a false timeout.
  Options o;
  o.timeout = std::chrono::milliseconds(std::numeric_limits<long long>::max());
  EXPECT_TRUE(sh("true", o).ok());
}

TEST(Forked, AnswersFailuresTimeoutsAndCrashes) {
  const auto later = deadlineAfter(60000ms);
  ForkResult r = runForked([] { return std::string("forty-two"); }, later);
  EXPECT_EQ(r.status, ForkResult::Status::answered);
  EXPECT_EQ(r.answer, "forty-two");
  r = runForked([]() -> std::string { throw std::runtime_error("no plan"); }, later);
  EXPECT_EQ(r.status, ForkResult::Status::failed);
  EXPECT_EQ(r.answer, "no plan");
  const auto start = Clock::now();
  r = runForked(
      [] {
        std::this_thread::sleep_for(30s);
        return std::string("late");
      },
      deadlineAfter(200ms));
  EXPECT_EQ(r.status, ForkResult::Status::timedOut);
  EXPECT_LT(Clock::now() - start, 10s) << "killed at the deadline, not waited for";
  r = runForked(
      []() -> std::string {
        ::raise(SIGKILL);
        return "";
      },
      later);
  EXPECT_EQ(r.status, ForkResult::Status::crashed);
}

std::vector<std::string> shWorker(const std::string &script) { return {"sh", "-c", script}; }

TEST(WorkerProcess, AnswersLineByLineFromOneProcess) {
  Worker w(shWorker("while read -r line; do echo \"got $line\"; echo \"err $line\" >&2; done"),
           1000);
  for (const char *request : {"a", "b c", "{\"id\":3}"}) {
    const Worker::Reply r = w.exchange(request, deadlineAfter(20000ms));
    ASSERT_EQ(r.status, Worker::Reply::Status::answered) << r.error;
    EXPECT_EQ(r.line, std::string("got ") + request);
  }
  EXPECT_EQ(w.starts(), 1u) << "started once";
}

TEST(WorkerProcess, DeathHangAndOverlongLinesRestartIt) {
  // Dies on its second request, with a status.
  Worker dies(shWorker("read -r a; echo one; read -r b; echo dying >&2; exit 7"), 1000);
  EXPECT_EQ(dies.exchange("1", deadlineAfter(20000ms)).status, Worker::Reply::Status::answered);
  Worker::Reply r = dies.exchange("2", deadlineAfter(20000ms));
  EXPECT_EQ(r.status, Worker::Reply::Status::exited);
  EXPECT_EQ(r.code, 7);
  EXPECT_NE(r.standardError.find("dying"), std::string::npos) << r.standardError;
  EXPECT_EQ(describe(r, 1000ms), "exited with status 7 without answering");
  // The next exchange starts it again.
  EXPECT_EQ(dies.exchange("3", deadlineAfter(20000ms)).status, Worker::Reply::Status::answered);
  EXPECT_EQ(dies.starts(), 2u);

  Worker hangs(shWorker("read -r a; sleep 30"), 1000);
  const auto start = Clock::now();
  EXPECT_EQ(hangs.exchange("x", deadlineAfter(300ms)).status, Worker::Reply::Status::timedOut);
  EXPECT_LT(Clock::now() - start, 10s);

  Worker chatty(shWorker("read -r a; head -c 5000 /dev/zero | tr '\\0' x; echo"), 1000);
  EXPECT_EQ(chatty.exchange("x", deadlineAfter(20000ms)).status, Worker::Reply::Status::tooLong);

  Worker crashes(shWorker("read -r a; kill -SEGV $$"), 1000);
  r = crashes.exchange("x", deadlineAfter(20000ms));
  EXPECT_EQ(r.status, Worker::Reply::Status::signaled);
  EXPECT_EQ(r.code, SIGSEGV);

  Worker missing({"/nonexistent/worker"}, 1000);
  EXPECT_EQ(missing.exchange("x", deadlineAfter(1000ms)).status,
            Worker::Reply::Status::failedToStart);
}

// SIGINT while a child runs: the wait returns `interrupted` at once and the child's group is
// killed; the guard restores the signal's disposition.
TEST(Interrupt, StopsTheWaitAndTheChild) {
  {
    InterruptGuard guard;
    std::thread signaller([] {
      std::this_thread::sleep_for(300ms);
      ::kill(::getpid(), SIGINT);
    });
    Options o;
    o.timeout = 60000ms;
    const auto start = Clock::now();
    const Result r = sh("sleep 30", o);
    signaller.join();
    EXPECT_EQ(r.status, Result::Status::interrupted);
    EXPECT_EQ(InterruptGuard::received(), SIGINT);
    EXPECT_LT(Clock::now() - start, 10s);
  }
  struct sigaction now {};
  ::sigaction(SIGINT, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL) << "restored";
}

// `prove --solver cvc5`'s self-test is keyed (docs/proofs.md, "Trust base"): another key gives
// other text, so no fixed answer sheet recognises it; each key gives one sat query (one fact) and
// one unsat query (two facts on one variable with different values).
TEST(SolverSelfTest, TheQueriesAreKeyedAndOneIsSatTheOtherUnsat) {
  const auto count = [](const std::string &text, const std::string &part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
      ++n;
    return n;
  };
  std::set<std::string> seen;
  for (std::uint64_t key = 0; key < 50; ++key) {
    const system::SelfTest t = system::selfTestQueries(key);
    EXPECT_EQ(count(t.sat, "(assert "), 1u) << t.sat;
    EXPECT_EQ(count(t.unsat, "(assert "), 2u) << t.unsat;
    EXPECT_NE(t.unsat.find(t.sat.substr(0, t.sat.find("(assert"))), std::string::npos);
    seen.insert(t.sat);
    seen.insert(t.unsat);
  }
  EXPECT_EQ(seen.size(), 100u) << "every key gives its own queries";
  EXPECT_EQ(system::selfTestQueries(7).unsat, system::selfTestQueries(7).unsat) << "a key is a key";
}

} // namespace
} // namespace lo::system
