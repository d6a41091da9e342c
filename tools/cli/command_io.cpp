#include "tools/cli/command_io.hpp"

#include "ref/audit.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tools/cli/options.hpp"

#include <optional>

namespace lo::cli {

CLI::Option *addOperand(CLI::App &sub, const std::string &name, std::string &target,
                        const std::string &description) {
  return sub.add_option(name, target, description)->required();
}

CLI::Option *addOutputOption(CLI::App &sub, std::string &out, const std::string &what) {
  return sub.add_option("-o,--output", out, what + ", or - for standard output (default)");
}

CLI::Option *addReportFormatOption(CLI::App &sub, report::ReportFormat &format,
                                   const std::string &description) {
  std::vector<std::pair<std::string, report::ReportFormat>> table;
  for (const auto &[name, f] : report::kReportFormats)
    table.emplace_back(name, f);
  return sub.add_option("--format", format, description)
      ->type_name("TEXT")
      ->transform(spellingsOf(table))
      ->default_str("text");
}

void addReportOptions(CLI::App &sub, report::ReportFormat &format, std::size_t &maxPerCheck,
                      const std::string &formatDescription, const std::string &per) {
  addReportFormatOption(sub, format, formatDescription);
  addNatural(sub, "--max-per-check", maxPerCheck, 1, kMaxU64,
             "list at most this many violations " + per + ", and count the rest");
}

void writeLowering(Interner &interner, GraphExecutionPlan plan, Mode mode, Equality equality,
                   bool withAudit, Edition edition, const std::string &out) {
  if (!withAudit) { // written as it is lowered: the groups are never held
    writeOutput(out, [&](io::Sink &sink) {
      io::writeLoweringOf(sink, interner, plan, mode, equality, edition);
    });
    return;
  }
  GraphLoweringPlan lowering = lower(interner, plan, mode, equality);
  plan = {};
  const AuditDocument audit = toDocument(interner, lo::audit(interner, lowering));
  writeOutput(out, [&](io::Sink &sink) {
    io::writeLoweringPlan(sink, interner, lowering, mode, equality, &audit, edition);
  });
}

GraphLoweringPlan readLowering(Interner &interner, const std::string &file, Edition edition,
                               Mode mode, Equality equality) {
  GraphExecutionPlan plan;
  { // The text is released before the plan is lowered.
    const io::Source source = io::loadSource(file);
    if (io::detectDocumentKind(source) != io::DocumentKind::executionPlan)
      return io::readLoweringPlan(source, interner, edition).plan;
    plan = io::readExecutionPlan(source, interner, edition);
  }
  return lower(interner, plan, mode, equality);
}

} // namespace lo::cli
