// The `gen` command (docs/spec.md §4.3, "gen", and §6.5; its options are in its --help). The
// options only: the run is tools/suite/suite_writer.
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/suite/generate.hpp"
#include "tools/suite/suite_writer.hpp"

#include <memory>
#include <string>

namespace lo::cli {

Action setupGen(CLI::App &app) {
  struct Options {
    std::string out;
    std::size_t count = 100;
    suite::Settings settings;
    bool force = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "gen", "Write a deterministic conformance suite: plans, expected outputs, expected gate "
             "results, a manifest.");
  sub->add_option("--out", o->out, "directory to create (must not exist or be empty)")->required();
  addNatural(*sub, "--count", o->count, 0, kMaxCount,
             "number of cases: the " + std::to_string(suite::edgeCaseCount()) +
                 " hand-picked ones first, then random ones");
  addNatural(*sub, "--seed", o->settings.seed, 0, kMaxU64, "seed of the random cases");
  addEditionOption(*sub, o->settings.edition)
      ->description("the edition whose values every file of the suite is written in (docs/spec.md "
                    "§1.6), recorded as the manifest's `edition`; default the newest");
  addNatural(*sub, "--max-nodes", o->settings.maxNodes, 0, kMaxNodes,
             "most nodes in a random case");
  sub->add_flag("--force", o->force,
                "replace a non-empty DIR, only if it is a suite gen wrote (its manifest.json "
                "names a conformance suite and gen's seed, count and maxNodes); anything else is "
                "refused and left untouched");
  sub->footer("Case I of seed S and edition E is the same plan in `gen` and `diff`.");
  return [o] { return suite::runGen(o->out, o->force, o->settings, o->count); };
}

} // namespace lo::cli
