// How the subcommands of `lowering-oracle` plug into the command line: one file per subcommand
// (tools/cmd_*.cpp, picked up by tools/CMakeLists.txt), each registering itself with a static
// `Registration` that adds its options to the app and returns the action to run once parsed.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lo::cli {

/// The action of a parsed subcommand; it returns an ExitCode (tools/exit_codes.hpp).
using Action = std::function<int()>;

/// Adds a subcommand to `app` and returns its action.
using Setup = std::function<Action(CLI::App &app)>;

struct Registration {
  /// `order` sorts the subcommands in --help (lower first).
  Registration(int order, Setup setup);
};

/// The `--mode` and `--equality` options, shared by several subcommands.
void addModeOption(CLI::App &sub, std::string &mode);
void addEqualityOption(CLI::App &sub, std::string &equality);

} // namespace lo::cli
