// The `lower` command (docs/spec.md §4.3, "lower"; its options are in its --help).
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

namespace lo::cli {

Action setupLower(CLI::App &app) {
  struct Options {
    std::string plan, out = "-";
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    Edition edition = kNewestEdition;
    bool audit = false, stream = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand("lower", "Lower a GraphExecutionPlan to a GraphLoweringPlan.");
  addOperand(
      *sub, "PLAN", o->plan,
      "GraphExecutionPlan file (JSON; a plan stream with --stream), or - for standard input");
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
  addEditionOption(*sub, o->edition);
  auto *auditFlag =
      sub->add_flag("--audit", o->audit, "include the ExecutionAudit of the lowering");
  sub->add_flag(
         "--stream", o->stream,
         "read the NDJSON stream form (docs/formats.md) and write the lowering as a "
         "stream, in memory bounded by the largest group and the distinct capsules and kinds")
      ->excludes(auditFlag);
  addOutputOption(*sub, o->out);
  return [o, sub] {
    applyEditionRules(*sub, o->edition, &o->mode, &o->equality);
    Interner interner;
    if (o->stream) {
      io::PlanStream in(o->plan, interner, nullptr, o->edition);
      writeOutput(o->out, [&](io::Sink &sink) {
        io::lowerStream(in, sink, interner, o->mode, o->equality, o->edition);
      });
      return int{kSuccess};
    }
    // The plan's text is released before the lowering is made and written.
    GraphExecutionPlan plan = io::readExecutionPlan(io::loadSource(o->plan), interner, o->edition);
    writeLowering(interner, std::move(plan), o->mode, o->equality, o->audit, o->edition, o->out);
    return int{kSuccess};
  };
}

} // namespace lo::cli
