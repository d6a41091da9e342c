// Runs the real `lowering-oracle` binary on one input file, in a scratch directory, and collects
// what the hardening tests assert on: the exit status, standard error, and the output file.
#pragma once

#include "ref/io/reader.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <string>
#include <sys/wait.h>

namespace lo::hardening {

struct OracleRun {
  int exit = -1;
  std::string err;        // standard error
  bool outExists = false; // whether out.json exists after the run
  std::string out;        // its content
};

inline std::string readAll(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline const std::filesystem::path &scratch() {
  static const std::filesystem::path dir = [] {
    std::string templ = (std::filesystem::temp_directory_path() / "lo-hardening-XXXXXX").string();
    if (!::mkdtemp(templ.data()))
      std::abort();
    return std::filesystem::path(templ);
  }();
  return dir;
}

/// `lowering-oracle COMMAND input.json -o out.json` (or `COMMAND - -o out.json < input.json` with
/// `viaStdin`), run in the scratch directory. `previousOut`, when given, is written to out.json
/// first. `resizeTo`, when given, extends the input file (sparsely, with zero bytes) to that size.
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
  const std::string cmd = "cd '" + dir.string() + "' && '" LO_ORACLE_BINARY "' " + command +
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
      io::readExecutionPlan(source, interner);
    else
      io::readLoweringPlan(source, interner);
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
