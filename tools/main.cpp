// `lowering-oracle`: the command line of docs/spec.md §4. A command that fails throws; main
// catches it and prints it on the one error path (printDiagnostic, tools/cli/diagnostic.hpp).
#include "ref/io/limits.hpp"
#include "tools/cli/diagnostic.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/version.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lo::cli {

#ifndef LO_HAVE_PROOFS
/// A build without Z3 (`-DLO_BUILD_PROOFS=OFF`) keeps the `prove` command, which says so.
Action setupProve(CLI::App &app) {
  app.add_subcommand("prove", "Not built: this lowering-oracle was built without Z3 "
                              "(-DLO_BUILD_PROOFS=OFF).")
      ->allow_extras();
  return []() -> int {
    throw std::runtime_error("prove is not built: this lowering-oracle was built without Z3 "
                             "(configure with -DLO_BUILD_PROOFS=ON and libz3-dev installed)");
  };
}
#endif

namespace {

/// The subcommands, in the order of `--help`: each one's name, as its setup names it.
struct Command {
  std::string_view name;
  Setup setup;
};
constexpr Command kCommands[] = {
    {"plan", setupPlan},       {"lower", setupLower}, {"audit", setupAudit},
    {"gate", setupGate},       {"check", setupCheck}, {"check-plan", setupCheckPlan},
    {"explain", setupExplain}, {"gen", setupGen},     {"verify", setupVerify},
    {"diff", setupDiff},       {"prove", setupProve}};

/// "Exit 0" only when what was written reached standard output: a full disk (/dev/full) or a
/// closed pipe is an error, for --help as for any command.
int flushed(int status) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout))
    return status;
  const int error = errno; // before anything else can set it
  printDiagnostic(std::string("standard output: write error: ") + std::strerror(error));
  return status == kSuccess ? kBadInput : status;
}

} // namespace

namespace {

/// The one error path: "lowering-oracle: what is wrong" on one line of standard error (control
/// characters of the input shown escaped, docs/spec.md §3.5), exit 2.
int badInput(std::string_view what) {
  printDiagnostic(what);
  return kBadInput;
}

} // namespace

} // namespace lo::cli

int main(int argc, char **argv) {
  using namespace lo::cli;
  CLI::App app{
      "lowering-oracle: reference lowering and conformance oracle for neural-network "
      "backend lowering plans.\n\nExit status: 0 success (conforms, proved), 1 a finding "
      "(does not conform, differs, refuted), 2 bad usage or invalid input, 3 inconclusive "
      "(prove: solver unknown, timed out or interrupted; diff: interrupted before any finding; "
      "verify: interrupted while it runs an implementation)."};
  app.set_version_flag("--version", std::string("lowering-oracle ") + lo::cli::kVersion);
  app.require_subcommand(1);
  // When the first argument names a subcommand, only that one is set up: the options of all of
  // them are some 4,800 allocations, about 10 ms of each start in the sanitizer build, which the
  // tests start thousands of times (docs/testing.md, "The test loop"). Otherwise (--help,
  // --version, an unknown name) all are.
  const Command *named = nullptr;
  for (const Command &command : kCommands)
    if (argc >= 2 && command.name == argv[1])
      named = &command;
  std::vector<std::pair<CLI::App *, Action>> actions;
  for (const Command &command : kCommands) {
    if (named && &command != named)
      continue;
    Action action = command.setup(app);
    CLI::App *sub = app.get_subcommands({}).back();
    if (sub->get_name() != command.name)
      return badInput("internal error: the command table names \"" + std::string(command.name) +
                      "\" where its setup adds \"" + sub->get_name() + "\"");
    actions.emplace_back(sub, std::move(action));
  }

  // The subcommands, for the message that names a missing or unknown one.
  std::string names;
  for (const Command &command : kCommands)
    names += (names.empty() ? "" : ", ") + std::string(command.name);
  const bool known = argc < 2 || named;
  try {
    // An unknown subcommand is named, with the list (CLI11 would only say that one is required).
    if (!known && argv[1][0] != '-') {
      std::string unknown = argv[1];
      if (unknown.size() > lo::io::kMaxSubcommandBytes)
        unknown = unknown.substr(0, lo::io::kMaxSubcommandBytes) + "...";
      return badInput("unknown subcommand \"" + unknown + "\": the subcommands are " + names +
                      " (see lowering-oracle --help)");
    }
    app.parse(argc, argv);
    for (auto &[sub, action] : actions)
      if (sub->parsed())
        return flushed(action());
    return badInput("A subcommand is required: one of " + names + " (see lowering-oracle --help)");
  } catch (const CLI::Success &e) {
    return flushed(app.exit(e)); // --help, --version
  } catch (const CLI::RequiredError &e) {
    // No subcommand at all (CLI11's "A subcommand is required"): say which ones there are.
    if (!app.get_subcommands().empty())
      return badInput(e.what());
    return badInput("A subcommand is required: one of " + names + " (see lowering-oracle --help)");
  } catch (const CLI::ParseError &e) {
    return badInput(e.what()); // usage: one line, without CLI11's "Run with --help" line
  } catch (const InterruptedRun &e) {
    printDiagnostic(e.what());
    return kInconclusive;
  } catch (const std::exception &e) {
    return badInput(e.what()); // invalid input (io::InputError) or a failed action
  }
}
