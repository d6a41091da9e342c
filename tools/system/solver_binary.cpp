#include "tools/system/solver_binary.hpp"

#include "ref/io/escape.hpp"
#include "tools/system/files.hpp"
#include "tools/system/spawn.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace lo::system {

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  return s;
}

/// What the solver at `path` answers to `query` (its standard output, trimmed), or why it gave no
/// answer.
std::string ask(const std::string &path, std::string_view query,
                std::chrono::milliseconds timeout) {
  const SolverRun run = runSolver(
      path, query, {},
      system::Options{
          .timeout = timeout, .captureStdout = true, .maxCapture = 4096, .maxStdout = 4096});
  if (!run.why.empty())
    throw std::runtime_error("prove: " + run.why + " for the solver's self-test");
  return run.result.status == system::Result::Status::exited
             ? run.answer
             : "(" + system::describe(run.result, timeout) + ")";
}

} // namespace

SelfTest selfTestQueries(std::uint64_t key) {
  std::mt19937_64 random(key);
  const std::string name = "v" + std::to_string(random() % 1000000000);
  const std::int64_t a = static_cast<std::int64_t>(random() % 2000001) - 1000000;
  const std::int64_t b = a + 1 + static_cast<std::int64_t>(random() % 1000);
  const std::string head = "(set-logic QF_LIA)\n(declare-fun " + name + " () Int)\n";
  const auto is = [&](std::int64_t v) {
    const std::string n = v < 0 ? "(- " + std::to_string(-v) + ")" : std::to_string(v);
    return "(assert (= " + name + " " + n + "))\n";
  };
  // The unsat query's two facts in a random order.
  const bool swap = random() % 2 == 1;
  return {head + is(a) + "(check-sat)\n",
          head + (swap ? is(b) + is(a) : is(a) + is(b)) + "(check-sat)\n"};
}

SolverRun runSolver(const std::string &path, std::string_view query,
                    const std::vector<std::string> &args, const system::Options &options) {
  SolverRun run;
  // The query in a private directory of $TMPDIR (removed at the end, and on SIGINT or SIGTERM).
  std::optional<system::TemporaryDirectory> dir;
  try {
    dir.emplace("lowering-oracle-query");
  } catch (const std::exception &) {
    run.why = "cannot create a temporary directory";
    return run;
  }
  const std::string file = (dir->path() / "query.smt2").string();
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    run.why = "cannot create a temporary file";
    return run;
  }
  bool written = true;
  for (std::size_t done = 0; done < query.size() && written;) {
    const ssize_t n = ::write(fd, query.data() + done, query.size() - done);
    written = n > 0;
    done += written ? static_cast<std::size_t>(n) : 0;
  }
  ::close(fd);
  if (written) {
    std::vector<std::string> argv{path};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(file);
    run.result = system::run(argv, options);
    run.answer = trimmed(run.result.standardOutput);
  } else {
    run.why = "cannot write the query";
  }
  return run;
}

std::optional<std::string> findOnPath(std::string_view program, std::string_view pathVariable) {
  auto usable = [](const std::filesystem::path &p) -> std::optional<std::string> {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(p.c_str(), X_OK) != 0)
      return std::nullopt;
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(p, ec);
    return ec ? std::filesystem::absolute(p).string() : resolved.string();
  };
  if (program.find('/') != std::string_view::npos)
    return usable(std::filesystem::path(program));
  std::size_t start = 0;
  while (true) {
    const std::size_t end = pathVariable.find(':', start);
    std::string_view dir = pathVariable.substr(start, end - start);
    // An empty entry is the working directory (POSIX execvp).
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? "." : std::string(dir)) / std::string(program);
    if (auto found = usable(candidate))
      return found;
    if (end == std::string_view::npos)
      return std::nullopt;
    start = end + 1;
  }
}

std::optional<std::string> cvc5Version(std::string_view text) {
  const std::size_t at = text.find("version ");
  if (at == std::string_view::npos)
    return std::nullopt;
  std::size_t begin = at + 8, end = begin;
  while (end < text.size() && end - begin < io::kMaxSolverVersionBytes &&
         (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
          text[end] == '-' || text[end] == '+' || text[end] == '_'))
    ++end;
  if (end == begin)
    return std::nullopt;
  return std::string(text.substr(begin, end - begin));
}

SolverBinary trustedCvc5(std::chrono::milliseconds timeout) {
  const char *pathVariable = std::getenv("PATH");
  const auto path = findOnPath("cvc5", pathVariable ? pathVariable : "/usr/bin:/bin");
  if (!path)
    throw std::runtime_error("prove: --solver cvc5: no executable cvc5 on PATH (install the cvc5 "
                             "package, documented version " +
                             std::string(kDocumentedCvc5Version) + ")");
  SolverBinary solver{"cvc5", *path, "unknown", ""};
  const system::Result v = system::run({*path, "--version"}, system::Options{.timeout = timeout,
                                                                             .captureStdout = true,
                                                                             .maxCapture = 4096,
                                                                             .maxStdout = 4096});
  if (v.status == system::Result::Status::exited)
    if (auto version = cvc5Version(v.standardOutput))
      solver.version = *version;
  if (solver.version != kDocumentedCvc5Version)
    solver.warning = "cvc5 version " + io::shownText(solver.version) + " is not the documented " +
                     std::string(kDocumentedCvc5Version) +
                     " (docs/proofs.md, \"Trust base\"): its answers are not the ones CI checks "
                     "against Z3";

  // The self-test: the same logic as the obligations' simplest queries, one answer known each way,
  // keyed per process (docs/proofs.md, "Trust base"): the variable's name and the constants are
  // random, so no fixed text can be recognised; every later answer is cross-checked with Z3.
  const SelfTest test = selfTestQueries(std::random_device{}());
  const std::string satAnswer = ask(*path, test.sat, timeout);
  const std::string unsatAnswer = ask(*path, test.unsat, timeout);
  if (satAnswer != "sat" || unsatAnswer != "unsat")
    throw std::runtime_error(
        "prove: --solver cvc5: " + *path + " (version " + solver.version +
        ") failed its self-test and is refused: a trivially satisfiable query got \"" +
        io::shownText(satAnswer.substr(0, io::kMaxSolverAnswerBytes)) +
        "\" (expected sat) and a trivially "
        "unsatisfiable one got \"" +
        io::shownText(unsatAnswer.substr(0, io::kMaxSolverAnswerBytes)) +
        "\" (expected unsat); none of its answers would be believed");
  return solver;
}

} // namespace lo::system
