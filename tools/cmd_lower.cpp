// `lower PLAN [--mode singleton|coalesced] [--equality contract|identity] [--audit] [-o OUT]`:
// "writes the GraphLoweringPlan (default coalesced, contract)".
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

namespace lo::cli {

Action setupLower(CLI::App &app) {
  struct Options {
    std::string plan, out = "-";
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    bool audit = false, stream = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand("lower", "Lower a GraphExecutionPlan to a GraphLoweringPlan.");
  sub->add_option(
         "PLAN", o->plan,
         "GraphExecutionPlan file (JSON; a plan stream with --stream), or - for standard input")
      ->required();
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
  auto *auditFlag =
      sub->add_flag("--audit", o->audit, "include the ExecutionAudit of the lowering");
  sub->add_flag(
         "--stream", o->stream,
         "read the NDJSON stream form (docs/formats.md) and write the lowering as a "
         "stream, in memory bounded by the largest group and the distinct capsules and kinds")
      ->excludes(auditFlag);
  sub->add_option("-o,--output", o->out, "output file, or - for standard output (default)");
  return [o] {
    Interner interner;
    if (o->stream) {
      io::PlanStream in(o->plan, interner);
      io::OutputFile file(o->out);
      io::Sink sink(file);
      io::lowerStream(in, sink, interner, o->mode, o->equality);
      file.commit();
      return int{kSuccess};
    }
    GraphExecutionPlan plan = io::readExecutionPlan(io::loadSource(o->plan), interner);
    GraphLoweringPlan lowering = lower(interner, plan, o->mode, o->equality);
    plan = {}; // the plan is no longer needed: keep peak memory to the lowering
    std::optional<AuditDocument> audit;
    if (o->audit)
      audit = toDocument(interner, lo::audit(interner, lowering));
    io::OutputFile file(o->out);
    io::Sink sink(file);
    io::writeLoweringPlan(sink, interner, lowering, o->mode, o->equality,
                          audit ? &*audit : nullptr);
    file.commit();
    return int{kSuccess};
  };
}

} // namespace lo::cli
