// The findings of a red-team review, one test each, through the real binary: -o writing through
// the file it names, option ranges, signals during `lower -o` and `gen`, one producer feeding both
// streams of `check --stream`, echoed values cut, errors for a directory or an unreadable input,
// positions under escaped keys, a full disk, `gen --out . --force`. (Hash flooding: hash_test.cpp
// and tools/bench-collisions.)
#include "ref/io/reader.hpp"
#include "tests/seed.hpp"
#include "tests/temp_dir.hpp"
#include "tools/suite/generate.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace lo::test {
namespace {

namespace fs = std::filesystem;
const std::string kOracle = LO_ORACLE_BINARY;
const std::string kExamples = LO_EXAMPLES_DIR;

using lo::testing::slurp;

struct Attack : lo::testing::TempDir {
  std::string prefix() const override { return "lo-attack"; }
  /// Runs `command` by the shell in `dir`; returns the exit status (128 + N for signal N) and
  /// standard error in `err`.
  int sh(const std::string &command, std::string *err = nullptr) {
    const std::string full = "cd '" + dir.string() + "' && { " + command + " ; } 2> stderr.txt";
    const int status = std::system(full.c_str());
    if (err)
      *err = slurp(dir / "stderr.txt");
    fs::remove(dir / "stderr.txt");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::vector<std::string> entries(const fs::path &d) const {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(d))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string oracle() const { return "'" + kOracle + "'"; }
  std::string example(const std::string &name) const { return "'" + kExamples + "/" + name + "'"; }
};

std::size_t lines(const std::string &s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

// --- -o writes through the file it names ------------------------------------------------------

TEST_F(Attack, OutputToDevStdoutAppendsToTheRedirectedFile) {
  std::ofstream(dir / "log.txt") << "earlier line\n";
  ASSERT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o /dev/stdout >> log.txt"), 0);
  const std::string log = slurp(dir / "log.txt");
  EXPECT_EQ(log.rfind("earlier line\n{", 0), 0u) << log.substr(0, 200);
  EXPECT_NE(log.find("\"groups\""), std::string::npos);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"log.txt"});
}

TEST_F(Attack, AnotherSpellingOfDevStdoutOrStdinNeverReplacesTheDevEntry) {
  // The resolved target counts, not the spelling (docs/errors.md, "Output files"): as root, a
  // rename over /dev//stdout or /dev/stdin would replace the /dev entry with a regular file.
  struct stat before {};
  ASSERT_EQ(::lstat("/dev/stdout", &before), 0);
  ASSERT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o /dev//stdout > out.json"), 0);
  EXPECT_NE(slurp(dir / "out.json").find("\"groups\""), std::string::npos);
  std::string err;
  EXPECT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o /dev/stdin < out.json", &err),
            2);
  EXPECT_NE(err.find("/dev/stdin: is the standard input, not an output: not written"),
            std::string::npos)
      << err;
  for (const char *entry : {"/dev/stdout", "/dev/stdin"}) {
    struct stat after {};
    ASSERT_EQ(::lstat(entry, &after), 0) << entry;
    EXPECT_TRUE(S_ISLNK(after.st_mode)) << entry << " was replaced";
  }
  struct stat after {};
  ASSERT_EQ(::lstat("/dev/stdout", &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out.json"});
}

TEST_F(Attack, ProveEmitSmt2ErrorIsOneEscapedLine) {
  // A directory name with a newline and ESC cannot forge a line or colour the terminal.
  std::string err;
  EXPECT_EQ(
      sh(oracle() + " prove --only step.order --emit-smt2 \"$(printf '/proc/no\\n\\033[31mdir')\"",
         &err),
      2);
  if (err.find("prove is not built") != std::string::npos)
    GTEST_SKIP() << "built without Z3";
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_NE(err.find("\\u000a\\u001b[31mdir"), std::string::npos) << err;
}

// docs/spec.md §4.1, "Output directories": `diff --keep DIR` and `prove --emit-smt2 DIR` write
// into DIR only when it is absent, empty or marked as theirs; a directory of the user's files is
// refused with exit 2 and nothing in it changes (both overwrote plan.json and manifest.json
// before).
TEST_F(Attack, OutputDirectoriesOfDiffAndProveRefuseAUsersFiles) {
  for (const char *name : {"keep", "smt2"}) {
    fs::create_directories(dir / name);
    std::ofstream(dir / name / "plan.json") << "precious";
    std::ofstream(dir / name / "manifest.json") << "precious";
  }
  std::string err;
  EXPECT_EQ(sh(oracle() + " diff --impl false --count 2 --keep keep", &err), 2) << err;
  EXPECT_NE(err.find("--keep keep: directory is not empty and was not written by lowering-oracle"),
            std::string::npos)
      << err;
  const int prove = sh(oracle() + " prove --bound 1 --only step.order --emit-smt2 smt2", &err);
  const bool proofsBuilt = err.find("prove is not built") == std::string::npos;
  if (proofsBuilt) {
    EXPECT_EQ(prove, 2) << err;
    EXPECT_NE(err.find("--emit-smt2 smt2: directory is not empty"), std::string::npos) << err;
  }
  for (const char *name : {"keep", "smt2"}) {
    EXPECT_EQ(entries(dir / name), (std::vector<std::string>{"manifest.json", "plan.json"}));
    EXPECT_EQ(slurp(dir / name / "plan.json"), "precious");
    EXPECT_EQ(slurp(dir / name / "manifest.json"), "precious");
  }
  // A new directory is made and marked; a second run into it is allowed (it is the tool's).
  for (int run = 0; run < 2; ++run) {
    EXPECT_EQ(sh(oracle() + " diff --impl false --count 2 --keep fresh >/dev/null", &err), 1)
        << err;
    EXPECT_TRUE(fs::is_regular_file(dir / "fresh" / ".lowering-oracle-output"));
    EXPECT_TRUE(fs::is_regular_file(dir / "fresh" / "report.txt"));
    if (proofsBuilt) {
      EXPECT_EQ(sh(oracle() + " prove --bound 1 --only step.order --emit-smt2 q >/dev/null", &err),
                0)
          << err;
      EXPECT_TRUE(fs::is_regular_file(dir / "q" / ".lowering-oracle-output"));
      EXPECT_TRUE(fs::is_regular_file(dir / "q" / "manifest.json"));
    }
  }
  // An empty directory is used; a file is refused.
  fs::create_directories(dir / "empty");
  EXPECT_EQ(sh(oracle() + " diff --impl false --count 2 --keep empty >/dev/null", &err), 1) << err;
  EXPECT_TRUE(fs::is_regular_file(dir / "empty" / "plan.json"));
  std::ofstream(dir / "afile") << "x";
  EXPECT_EQ(sh(oracle() + " diff --impl false --keep afile", &err), 2) << err;
  EXPECT_EQ(slurp(dir / "afile"), "x");
}

TEST_F(Attack, OutputThroughASymlinkReplacesTheLinkNotItsTarget) {
  std::ofstream(dir / "precious.txt") << "keep me";
  fs::create_symlink(dir / "precious.txt", dir / "out.json");
  ASSERT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o out.json"), 0);
  EXPECT_EQ(slurp(dir / "precious.txt"), "keep me");
  EXPECT_FALSE(fs::is_symlink(dir / "out.json"));
  EXPECT_NE(slurp(dir / "out.json").find("\"groups\""), std::string::npos);
}

TEST_F(Attack, AReadOnlyOutputIsNotReplaced) {
  std::ofstream(dir / "out.json") << "read-only";
  fs::permissions(dir / "out.json", fs::perms::owner_read | fs::perms::group_read);
  std::string err;
  EXPECT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o out.json", &err), 2);
  EXPECT_NE(err.find("read-only"), std::string::npos) << err;
  EXPECT_EQ(lines(err), 1u) << err;
  EXPECT_EQ(slurp(dir / "out.json"), "read-only");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out.json"});
}

TEST_F(Attack, AReplacedOutputKeepsItsMode) {
  std::ofstream(dir / "out.json") << "old";
  fs::permissions(dir / "out.json", fs::perms::owner_read | fs::perms::owner_write |
                                        fs::perms::group_read | fs::perms::others_exec);
  ASSERT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o out.json"), 0);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0641u);
  EXPECT_NE(slurp(dir / "out.json").find("\"groups\""), std::string::npos);
}

// --- Options --------------------------------------------------------------------------------

TEST_F(Attack, NumericOptionsAreRangeCheckedInPlainNumbers) {
  struct Case {
    std::string args, needle;
  };
  const std::vector<Case> cases = {
      {"gen --out s --count -1", "--count: expected a whole number from 0 to 1000000, found -1"},
      {"gen --out s --seed -1", "--seed: expected a whole number from 0 to 18446744073709551615"},
      {"gen --out s --max-nodes 18446744073709551615", "from 0 to 100000"},
      {"gen --out s --max-nodes 4294967296", "from 0 to 100000"},
      {"diff --impl true --count -1", "--count: expected a whole number"},
      // Zero cases judged is never "all conform".
      {"diff --impl true --count 0", "--count: expected a whole number from 1 to 1000000, found 0"},
      {"diff --impl true --timeout-ms 9300000000000", "from 1 to 86400000"},
      {"diff --impl true --max-nodes 18446744073709551615", "from 0 to 100000"},
      {"check a b --max-per-check 0", "from 1 to 18446744073709551615"},
      {"prove --bound 65", "from 0 to 64"},
      {"prove --timeout-ms 1e3", "found 1e3"},
      // Every whole number alike: no hexadecimal, no sign, no space, no wrap-around past 2^64,
      // and 0 refused in plain numbers (not "Value 0 not in range 0.000000 to 1.797e308").
      {"diff --impl true --max-output-bytes 0x10",
       "--max-output-bytes: expected a whole number from 1 to 4294967296, found 0x10"},
      {"diff --impl true --max-output-bytes +5", "from 1 to 4294967296, found +5"},
      {"diff --impl true --max-output-bytes ' 10'", "from 1 to 4294967296, found  10"},
      {"diff --impl true --max-output-bytes 18446744073709551616",
       "from 1 to 4294967296, found 18446744073709551616"},
      {"diff --impl true --max-output-bytes 0", "from 1 to 4294967296, found 0"},
      {"diff --impl true --timeout-ms 18446744073709551615", "from 1 to 86400000"},
      {"check --stream a b --stall-ms 0x10", "--stall-ms: expected a whole number from 0 to"},
  };
  for (const auto &c : cases) {
    std::string err;
    EXPECT_EQ(sh(oracle() + " " + c.args, &err), 2) << c.args;
    EXPECT_NE(err.find(c.needle), std::string::npos) << c.args << ": " << err;
    // No 309-digit range, no allocation failure, no sanitizer report.
    EXPECT_LT(err.size(), 400u) << err;
    EXPECT_EQ(err.find("bad_alloc"), std::string::npos) << err;
    EXPECT_EQ(err.find("e308"), std::string::npos) << err;
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{}) << "a temporary directory was left";
}

TEST(RngBelow, AnEmptyRangeIsAnErrorNotADivisionByZero) {
  plans::Rng rng(1);
  EXPECT_THROW(rng.below(0), std::logic_error);
  EXPECT_EQ(rng.below(1), 0u);
}

// --- Signals --------------------------------------------------------------------------------

/// Starts the binary with `args`, standard input from `stdinPath`, in `cwd`, with SIGINT and
/// SIGTERM at their defaults (a test runner may ignore them).
pid_t spawn(const std::vector<std::string> &args, const std::string &stdinPath,
            const fs::path &cwd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdinPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  std::vector<char *> argv{const_cast<char *>(kOracle.c_str())};
  for (const auto &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  posix_spawn(&pid, kOracle.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return pid;
}

/// Waits until `ready()` or 60 s.
template <class F> bool eventually(F &&ready) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > until)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

bool anyEntryStartsWith(const fs::path &d, const std::string &prefix) {
  for (const auto &e : fs::directory_iterator(d))
    if (e.path().filename().string().rfind(prefix, 0) == 0)
      return true;
  return false;
}

TEST_F(Attack, ASignalDuringLowerRemovesTheTemporaryOutput) {
  for (int sig : {SIGINT, SIGTERM}) {
    // A plan stream whose writer never finishes: the header, then nothing (the FIFO stays open).
    const fs::path fifo = dir / "plan.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int writer = ::open(fifo.c_str(), O_RDWR); // a writer, so that the reader's open returns
    ASSERT_GE(writer, 0);
    const pid_t pid = spawn({"lower", "--stream", "-", "-o", "out.ndjson"}, fifo.string(), dir);
    ASSERT_GT(pid, 0);
    const std::string header =
        "{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1}\n";
    ASSERT_EQ(::write(writer, header.data(), header.size()), static_cast<ssize_t>(header.size()));
    ASSERT_TRUE(eventually([&] { return anyEntryStartsWith(dir, "out.ndjson.tmp."); }))
        << "the temporary output never appeared";
    ASSERT_EQ(::kill(pid, sig), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ::close(writer);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
    EXPECT_EQ(entries(dir), std::vector<std::string>{"plan.fifo"}) << "signal " << sig;
    fs::remove(fifo);
  }
}

TEST_F(Attack, ASignalDuringGenRemovesTheTemporaryDirectory) {
  for (int sig : {SIGINT, SIGTERM}) {
    const pid_t pid = spawn({"gen", "--out", "suite", "--count", "1000000"}, "/dev/null", dir);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(eventually([&] {
      for (const auto &e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind("suite.tmp-", 0) == 0 &&
            fs::exists(e.path() / "cases"))
          return std::distance(fs::directory_iterator(e.path() / "cases"), {}) > 3;
      return false;
    })) << "gen never wrote a case";
    ASSERT_EQ(::kill(pid, sig), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
    EXPECT_EQ(entries(dir), std::vector<std::string>{}) << "signal " << sig;
  }
}

// --- Streams ------------------------------------------------------------------------------------

TEST_F(Attack, OneProducerFeedsBothStreamsOfCheckStream) {
  // Runs of one to three nodes on two capsules: many small groups, 3 MB in all (more than the
  // pipes' buffers and the readers' blocks).
  {
    std::ofstream plan(dir / "plan.ndjson", std::ios::binary);
    auto capsule = [](const char *name) {
      const std::string c = "{\"tag\":\"shapeSafety\",\"op\":\"relu\"}";
      const std::string e = "{\"tag\":\"testSuite\",\"name\":\"t\"}";
      auto d = [&](const std::string &claim) {
        return "{\"claim\":" + claim + ",\"summary\":\"s\",\"evidence\":" + e + "}";
      };
      return std::string("{\"name\":\"") + name +
             "\",\"op\":\"relu\",\"provider\":\"reference\",\"device\":\"cpu\","
             "\"trustLevel\":\"checked\",\"shapeContract\":" +
             d(c) + ",\"layoutContract\":" +
             d("{\"tag\":\"layoutCompatibility\",\"op\":\"relu\",\"layout\":\"canonical-"
               "tensor\"}") +
             ",\"valueContract\":" + d("{\"tag\":\"valueRefinement\",\"op\":\"relu\"}") +
             ",\"vjpContract\":" +
             d("{\"tag\":\"vjpRefinement\",\"op\":\"relu\",\"mode\":\"none\"}") + "}";
    };
    plan << "{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1,\"capsules\":{"
         << "\"a\":" << capsule("a") << ",\"b\":" << capsule("b") << "}}\n";
    for (int i = 1; i <= 50000; ++i)
      plan << "{\"nodeId\":" << i << ",\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":\""
           << ((i / 2 + i / 7) % 2 ? "a" : "b") << "\"}\n";
  }
  ASSERT_GT(fs::file_size(dir / "plan.ndjson"), 2500000u);
  ASSERT_EQ(::mkfifo((dir / "A").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((dir / "B").c_str(), 0600), 0);
  const std::string o = oracle();
  std::string err;
  const int status =
      sh("timeout -s KILL 120 bash -c \"tee A < plan.ndjson | " + o +
             " lower --edition 2026-08 --stream - -o B & " + o +
             " check --edition 2026-08 --stream A B > report.txt; s=\\$?; wait; exit \\$s\"",
         &err);
  EXPECT_EQ(status, 0) << err << slurp(dir / "report.txt")
                       << (status == 137 ? " (deadlocked: killed after 120 s)" : "");
  EXPECT_NE(slurp(dir / "report.txt").find("conforms"), std::string::npos)
      << slurp(dir / "report.txt");
}

// --- Input errors ---------------------------------------------------------------------------

const std::regex kErrorLine(R"(lowering-oracle: [^\n]+:[0-9]+:[0-9]+: /[^\n]*: [^\n]+\n)");

TEST_F(Attack, ADirectoryOrAMissingInputHasAReasonAndAPosition) {
  fs::create_directory(dir / "adir");
  std::string err;
  EXPECT_EQ(sh(oracle() + " lower adir", &err), 2);
  EXPECT_TRUE(std::regex_match(err, kErrorLine)) << err;
  EXPECT_NE(err.find("adir:1:1: /: is a directory"), std::string::npos) << err;
  EXPECT_EQ(sh(oracle() + " lower --stream adir", &err), 2);
  EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
  EXPECT_EQ(sh(oracle() + " check adir adir", &err), 2);
  EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
  EXPECT_EQ(sh(oracle() + " lower missing.json", &err), 2);
  EXPECT_TRUE(std::regex_match(err, kErrorLine)) << err;
  EXPECT_NE(err.find("missing.json:1:1: /: cannot open: No such file or directory"),
            std::string::npos)
      << err;
}

TEST_F(Attack, APositionUnderAnEscapedKeyIsTheValuesPosition) {
  // The capsules-table key "a\u0062" holds an escape; the error found after reading (a field that
  // does not belong to the claim's tag) is placed by the pointer /capsules/ab/...
  const std::string plan =
      "{\"capsules\":{\"a\\u0062\":{\"name\":\"x\",\"op\":\"relu\",\"provider\":\"reference\","
      "\"device\":\"cpu\",\"trustLevel\":\"checked\",\n\"shapeContract\":{\"claim\":"
      "{\"tag\":\"shapeSafety\",\"op\":\"relu\",\"layout\":\"canonical-tensor\"},"
      "\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}}}},\"kernels\":[]}";
  std::ofstream(dir / "plan.json") << plan;
  std::string err;
  EXPECT_EQ(sh(oracle() + " lower plan.json", &err), 2);
  const std::size_t column = plan.find("\"canonical-tensor\"") - plan.find('\n');
  EXPECT_NE(err.find("plan.json:2:" + std::to_string(column) +
                     ": /capsules/ab/shapeContract/claim/layout: field \"layout\" does not belong"),
            std::string::npos)
      << err << " (expected column " << column << ")";
}

TEST_F(Attack, EchoedValuesAreCutWithAnEllipsis) {
  const std::string key(100000, 'k');
  std::ofstream(dir / "plan.json") << "{\"kernels\":[],\"" << key << "\":1}";
  std::string err;
  EXPECT_EQ(sh(oracle() + " lower plan.json", &err), 2);
  EXPECT_TRUE(std::regex_match(err, kErrorLine)) << err.substr(0, 300);
  EXPECT_LT(err.size(), 1000u);
  EXPECT_NE(err.find("/" + std::string(200, 'k') + "...: unknown field \"" + std::string(200, 'k') +
                     "\"... in a GraphExecutionPlan;"),
            std::string::npos)
      << err;
}

TEST(CandidateMemory, TheIdsOfAGroupCostEightBytesEach) {
  const std::string capsule =
      "{\"name\":\"x\",\"op\":\"relu\",\"provider\":\"reference\",\"device\":\"cpu\","
      "\"trustLevel\":\"checked\",\"shapeContract\":{\"claim\":{\"tag\":\"shapeSafety\","
      "\"op\":\"relu\"},\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}},"
      "\"layoutContract\":{\"claim\":{\"tag\":\"layoutCompatibility\",\"op\":\"relu\","
      "\"layout\":\"canonical-tensor\"},\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}},"
      "\"valueContract\":{\"claim\":{\"tag\":\"valueRefinement\",\"op\":\"relu\"},"
      "\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}},\"vjpContract\":{\"claim\":"
      "{\"tag\":\"vjpRefinement\",\"op\":\"relu\",\"mode\":\"none\"},"
      "\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}}}";
  // One group that repeats node 1 a thousand times (2 bytes an id in the file).
  std::string doc = "{\"capsules\":{\"k\":" + capsule + "},\"groups\":[{\"nodeIds\":[1";
  for (int i = 1; i < 1000; ++i)
    doc += ",1";
  doc += "],\"kinds\":[],\"op\":\"relu\",\"capsule\":\"k\",\"groupingKind\":\"singleton\"}]}";
  Interner interner;
  const auto read = lo::test::seed::readLoweringPlan(io::sourceFromString("c.json", doc), interner);
  ASSERT_EQ(read.plan.groups.size(), 1u);
  EXPECT_EQ(read.plan.groups[0].nodeIds.size(), 1000u);
  EXPECT_EQ(read.plan.groups[0].nodeIds.capacity(), 1000u) << "no room held beyond the ids";
}

// --- Smaller --------------------------------------------------------------------------------

TEST_F(Attack, AFullDiskIsAnErrorForGenAndHelp) {
  std::string err;
  EXPECT_NE(sh(oracle() + " --help > /dev/full", &err), 0);
  EXPECT_NE(err.find("write error"), std::string::npos) << err;
  EXPECT_NE(sh(oracle() + " gen --out s --count 1 > /dev/full", &err), 0);
  EXPECT_NE(err.find("write error"), std::string::npos) << err;
  EXPECT_EQ(sh(oracle() + " lower " + example("two-relu.json") + " -o /dev/full", &err), 2);
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
  EXPECT_EQ(sh(oracle() + " --help > /dev/null"), 0);
}

TEST_F(Attack, GenOutDotForceLeavesNoDebris) {
  fs::create_directory(dir / "suite");
  ASSERT_EQ(sh("cd suite && " + oracle() + " gen --out . --count 2 --force > /dev/null"), 0);
  ASSERT_EQ(sh("cd suite && " + oracle() + " gen --out . --count 3 --force > /dev/null"), 0);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"suite"});
  EXPECT_EQ(entries(dir / "suite"),
            (std::vector<std::string>{"README.md", "cases", "manifest.json", "selection"}));
  EXPECT_NE(slurp(dir / "suite" / "manifest.json").find("\"count\": 3"), std::string::npos);
}

} // namespace
} // namespace lo::test
