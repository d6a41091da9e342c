// The `audit` command (docs/spec.md §4.3, "audit"; its options are in its --help).
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

namespace lo::cli {

Action setupAudit(CLI::App &app) {
  enum class Format { json, text };
  struct Options {
    std::string file, out = "-";
    Format format = Format::json;
    Equality equality = Equality::contract;
    Edition edition = kNewestEdition;
    bool detailed = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "audit", "Audit a GraphLoweringPlan, or the coalesced lowering of a GraphExecutionPlan.");
  addOperand(*sub, "FILE", o->file, "GraphLoweringPlan or GraphExecutionPlan JSON file, or -");
  sub->add_option("--format", o->format, "json: an ExecutionAudit document; text: one line a row")
      ->type_name("TEXT")
      ->transform(spellingsOf<Format>({{"json", Format::json}, {"text", Format::text}}))
      ->default_str("json");
  sub->add_flag("--detailed", o->detailed,
                "text: after each row its four contract lines (shape, layout, value, vjp: claim; "
                "evidence), as the original's detailedReportLines");
  addEqualityOption(*sub, o->equality);
  addEditionOption(*sub, o->edition);
  sub->footer(
      "For a GraphExecutionPlan, --equality chooses the coalesced lowering that is audited; "
      "for a GraphLoweringPlan, the audit is derived from its groups (an audit it carries "
      "is ignored: `check` compares the two).");
  addOutputOption(*sub, o->out);
  return [o, sub] {
    applyEditionRules(*sub, o->edition, nullptr, &o->equality);
    if (o->detailed && o->format != Format::text)
      throw CLI::ValidationError("--detailed", "needs --format text");
    Interner interner;
    ExecutionAudit a = lo::audit(
        interner, readLowering(interner, o->file, o->edition, Mode::coalesced, o->equality));
    writeOutput(o->out, [&](io::Sink &sink) {
      if (o->format == Format::text) {
        io::writeAuditText(sink, interner, a, o->detailed, o->edition);
      } else {
        io::writeAudit(sink, interner, toDocument(interner, std::move(a)), "", o->edition);
        sink << '\n';
      }
    });
    return int{kSuccess};
  };
}

} // namespace lo::cli
