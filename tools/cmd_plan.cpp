// The `plan` command (its options are in its --help): selection, "upstream's planGraphNodes,
// writing the GraphExecutionPlan" (docs/spec.md §10), and with --lower the lowering straight after.
#include "ref/io/graph_reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/profile.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/profile_options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

#include <stdexcept>

namespace lo::cli {

Action setupPlan(CLI::App &app) {
  struct Options {
    std::string graph, out = "-";
    ProfileOptions profile;
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    Edition edition = selection::kMaintainedEdition;
    bool lower = false, audit = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "plan", "Choose a capsule for each runtime-relevant node of a torchlean.ir.v1 graph.");
  addOperand(*sub, "GRAPH", o->graph, "torchlean.ir.v1 graph file (JSON), or - for standard input");
  addProfileOptions(*sub, o->profile);
  addEditionOption(*sub, o->edition, selection::kMaintainedEditionWhy);
  sub->add_flag("--lower", o->lower, "write the GraphLoweringPlan of the plan instead");
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
  sub->add_flag("--audit", o->audit, "with --lower: include the ExecutionAudit of the lowering");
  addOutputOption(*sub, o->out);
  return [o] {
    checkProfileName(o->profile);
    Interner interner;
    auto planned = [&] { // the graph is read first (its errors before the profile's), then freed
      const selection::Graph g = io::readGraph(io::loadSource(o->graph), interner, o->edition);
      return selection::planExecution(profileOf(o->profile, o->edition), g, interner);
    }();
    if (auto *error = std::get_if<std::string>(&planned))
      throw std::runtime_error(*error); // upstream's words, exit 2 (docs/spec.md §10.7)
    GraphExecutionPlan plan = std::move(std::get<GraphExecutionPlan>(planned));
    if (!o->lower) {
      writeOutput(o->out, [&](io::Sink &sink) {
        io::writeExecutionPlan(sink, interner, plan, o->edition);
      });
      return int{kSuccess};
    }
    writeLowering(interner, std::move(plan), o->mode, o->equality, o->audit, o->edition, o->out);
    return int{kSuccess};
  };
}

} // namespace lo::cli
