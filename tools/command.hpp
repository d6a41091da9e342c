// How the subcommands of `lowering-oracle` (docs/spec.md §4.2) plug into the command line: one file
// per subcommand (tools/cmd_*.cpp), each defining a `setup` function that adds the subcommand and
// its options to the app and returns the action to run once parsed. tools/main.cpp lists them, in
// the order of `--help`, in one explicit table.
#pragma once

#include "tools/cli/options.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace lo::cli {

/// The action of a parsed subcommand; it returns an ExitCode (tools/exit_codes.hpp).
using Action = std::function<int()>;

/// Adds a subcommand to `app` and returns its action.
using Setup = Action (*)(CLI::App &app);

Action setupPlan(CLI::App &app);
Action setupCheckPlan(CLI::App &app);
Action setupLower(CLI::App &app);
Action setupAudit(CLI::App &app);
Action setupGate(CLI::App &app);
Action setupCheck(CLI::App &app);
Action setupExplain(CLI::App &app);
Action setupGen(CLI::App &app);
Action setupVerify(CLI::App &app);
Action setupDiff(CLI::App &app);
Action setupProve(CLI::App &app);

} // namespace lo::cli
