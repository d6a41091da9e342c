// `lowering-oracle`: the command line of docs/spec.md §4.
#include "ref/io/error.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/version.hpp"

#include <iostream>
#include <stdexcept>

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

/// The subcommands, in the order of `--help`.
constexpr Setup kCommands[] = {setupLower,   setupAudit, setupGate, setupCheck,
                               setupExplain, setupGen,   setupDiff, setupProve};

} // namespace

void addModeOption(CLI::App &sub, std::string &mode) {
  sub.add_option("--mode", mode,
                 "singleton: one group per node; coalesced: adjacent nodes with "
                 "the same op and the same capsule share a group")
      ->check(CLI::IsMember({"singleton", "coalesced"}))
      ->default_str("coalesced");
}

void addEqualityOption(CLI::App &sub, std::string &equality) {
  sub.add_option("--equality", equality,
                 "capsule equality for coalescing: contract (every field equal) or identity "
                 "(name, op, provider and device only)")
      ->check(CLI::IsMember({"contract", "identity"}))
      ->default_str("contract");
}

} // namespace lo::cli

int main(int argc, char **argv) {
  using namespace lo::cli;
  CLI::App app{"lowering-oracle: reference lowering and conformance oracle for neural-network "
               "backend lowering plans.\n\nExit status: 0 success (conforms, proved), 1 a finding "
               "(does not conform, differs, refuted), 2 bad usage or invalid input, 3 inconclusive "
               "(solver unknown or timed out)."};
  app.set_version_flag("--version", std::string("lowering-oracle ") + lo::kVersion);
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App *, Action>> actions;
  for (Setup setup : kCommands) {
    Action action = setup(app);
    actions.emplace_back(app.get_subcommands({}).back(), std::move(action));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    return app.exit(e); // --help, --version
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return kBadInput;
  }

  try {
    for (auto &[sub, action] : actions)
      if (sub->parsed())
        return action();
  } catch (const lo::io::InputError &e) {
    std::cerr << "lowering-oracle: " << e.what() << '\n';
    return kBadInput;
  } catch (const std::exception &e) {
    std::cerr << "lowering-oracle: " << e.what() << '\n';
    return kBadInput;
  }
  return kBadInput;
}
