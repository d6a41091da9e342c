// Running the real `lowering-oracle` binary (LO_ORACLE_BINARY) from the GoogleTest tests of
// tests/gen and tests/hardening, in a fresh temporary directory. The command-line tests that only
// need the exit status and the output are case files instead (docs/testing.md, "CLI tests").
//
// lo::testing: `oracle(args)` through tools/system/spawn.hpp (and, from tests/temp_dir.hpp,
// `slurp` and the fixture `TempDir`). lo::hardening: `runOracle` on one input file in a scratch
// directory, the in-process reading step `readInProcess`, and what a rejection and an acceptance
// look like (tests/hardening).
#pragma once

#include "ref/io/reader.hpp"
#include "tests/seed.hpp"
#include "tests/temp_dir.hpp"
#include "tools/system/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace lo::testing {

namespace fs = std::filesystem;

/// `lowering-oracle ARGS`, its standard output captured.
inline system::Result oracle(std::vector<std::string> args,
                             std::chrono::milliseconds timeout = std::chrono::minutes(10)) {
  args.insert(args.begin(), LO_ORACLE_BINARY);
  system::Options o;
  o.timeout = timeout;
  o.captureStdout = true;
  return system::run(args, o);
}

/// `oracle` for a test of the seed editions' documents and suites: `--edition` test::seed::kEdition
/// after the command, unless ARGS name an edition.
inline system::Result seedOracle(std::vector<std::string> args,
                                 std::chrono::milliseconds timeout = std::chrono::minutes(10)) {
  const bool named = std::any_of(args.begin(), args.end(), [](const std::string &a) {
    return a == "--edition" || a.rfind("--edition=", 0) == 0;
  });
  if (!named && !args.empty())
    args.insert(args.begin() + 1, {"--edition", std::string(spelling(test::seed::kEdition))});
  return oracle(std::move(args), timeout);
}

} // namespace lo::testing

namespace lo::hardening {

struct OracleRun {
  int exit = -1;
  std::string err;        // standard error
  bool outExists = false; // whether out.json exists after the run
  std::string out;        // its content
};

inline std::string readAll(const std::filesystem::path &p) { return testing::slurp(p); }

/// One scratch directory for the whole test program.
inline const std::filesystem::path &scratch() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path made = testing::makeTempDir("lo-hardening");
    if (made.empty())
      std::abort();
    return made;
  }();
  return dir;
}

/// `lowering-oracle COMMAND input.json -o out.json` (or `COMMAND - -o out.json < input.json` with
/// `viaStdin`), run in the scratch directory, in test::seed::kEdition unless COMMAND names an
/// edition (the hardening documents are the seed's). `previousOut`, when given, is written to
/// out.json first. `resizeTo`, when given, extends the input file (sparsely, with zero bytes) to
/// that size.
inline OracleRun runOracle(const std::string &command, const std::string &input,
                           bool viaStdin = false,
                           const std::optional<std::string> &previousOut = std::nullopt,
                           std::optional<std::uintmax_t> resizeTo = std::nullopt) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch();
  fs::remove(dir / "out.json");
  {
    std::ofstream f(dir / "input.json", std::ios::binary);
    f.write(input.data(), static_cast<std::streamsize>(input.size()));
  }
  if (resizeTo)
    fs::resize_file(dir / "input.json", *resizeTo);
  if (previousOut) {
    std::ofstream f(dir / "out.json", std::ios::binary);
    f << *previousOut;
  }
  const std::string edition = command.find("--edition") == std::string::npos
                                  ? " --edition " + std::string(spelling(test::seed::kEdition))
                                  : "";
  const std::string cmd = "cd '" + dir.string() + "' && '" LO_ORACLE_BINARY "' " + command +
                          edition +
                          (viaStdin ? " - -o out.json < input.json" : " input.json -o out.json") +
                          " > stdout.txt 2> stderr.txt";
  const int status = std::system(cmd.c_str());
  OracleRun r;
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = readAll(dir / "stderr.txt");
  r.outExists = fs::exists(dir / "out.json");
  if (r.outExists)
    r.out = readAll(dir / "out.json");
  return r;
}

/// The reading step of `lower` (plans) or `audit` (either document) in this process, reported as
/// the binary reports it (`lowering-oracle: ` and the error, one line). Used where a test walks
/// every field of a document, so that the suite stays fast; each input class is also run through
/// the binary by at least one test.
inline OracleRun readInProcess(const std::string &command, const std::string &input) {
  OracleRun r;
  try {
    Interner interner;
    const io::Source source = io::sourceFromString("input.json", input);
    if (command == "lower" || io::detectDocumentKind(source) == io::DocumentKind::executionPlan)
      test::seed::readExecutionPlan(source, interner);
    else
      test::seed::readLoweringPlan(source, interner);
    r.exit = 0;
    r.outExists = true;
  } catch (const io::InputError &e) {
    r.exit = 2;
    r.err = std::string("lowering-oracle: ") + e.what() + "\n";
  }
  return r;
}

/// What every rejection must look like: exit 2, exactly one line on standard error,
/// `lowering-oracle: FILE:LINE:COL: /pointer: message`, and no output file. `pointer` and `needle`
/// (a part of the message) are checked when not empty; so are `line` and `column` when not 0.
inline void expectRejected(const OracleRun &r, const std::string &pointer,
                           const std::string &needle, std::size_t line = 0, std::size_t column = 0,
                           const std::string &file = "input.json") {
  EXPECT_EQ(r.exit, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.back(), '\n') << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(r.outExists) << "an output file was left behind";
  static const std::regex shape(
      R"(lowering-oracle: ([^:\n]+):([0-9]+):([0-9]+): (/[^\n]*): ([^\n]+)\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.err, m, shape)) << r.err;
  EXPECT_EQ(m[1].str(), file) << r.err;
  const std::string rest = m[4].str() + ": " + m[5].str();
  if (!pointer.empty()) {
    EXPECT_EQ(rest.rfind(pointer + ": ", 0), 0u) << "expected pointer " << pointer << ": " << r.err;
  }
  if (!needle.empty()) {
    EXPECT_NE(rest.find(needle), std::string::npos) << "expected \"" << needle << "\": " << r.err;
  }
  if (line) {
    EXPECT_EQ(std::stoul(m[2].str()), line) << r.err;
  }
  if (column) {
    EXPECT_EQ(std::stoul(m[3].str()), column) << r.err;
  }
}

inline void expectAccepted(const OracleRun &r) {
  EXPECT_EQ(r.exit, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(r.outExists);
}

} // namespace lo::hardening
