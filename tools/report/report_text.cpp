// The text writer (kTextWriter, writers.hpp) of every command that judges candidates (check, diff,
// verify): one line a
// violation, note or error, then one summary line a candidate (writeTextReports, writeReportText);
// `verify` writes each failing entry as `check` writes a candidate, one line per error, the note
// lines of conforming entries (unless --quiet), and one summary line (writeSuiteText).
#include "tools/report/writers.hpp"

#include "tools/report/suite_report.hpp"

namespace lo::report {

namespace {

/// One candidate: its violations, omitted counts, notes and one summary line.
void writeCaseText(io::Sink &out, const CaseResult &c) {
  const ReportSubject &s = c.subject;
  const std::string candidate = shownText(s.candidate);
  if (c.error) {
    out << candidate << ": error: " << errorLine(*c.error) << '\n';
    return;
  }
  const checks::Report &report = c.report;
  for (const auto &v : report.violations)
    out << candidate << ": " << violationLine(v) << '\n';
  for (const auto &[check, k] : report.omitted)
    out << candidate << ": " << spelling(check) << ": " << std::uint64_t{k} << " more "
        << (k == 1 ? "violation" : "violations") << " not listed\n";
  for (const auto &note : report.notes)
    out << candidate << ": note: " << shownText(note) << '\n';
  if (report.conforms())
    out << candidate << ": conforms to " << loweringName(s.mode, s.equality) << " of "
        << shownText(s.plan) << " (" << std::uint64_t{s.groups}
        << (s.groups == 1 ? " group, " : " groups, ") << std::uint64_t{s.nodes}
        << (s.nodes == 1 ? " node)\n" : " nodes)\n");
  else
    out << candidate << ": does not conform to " << loweringName(s.mode, s.equality) << " of "
        << shownText(s.plan) << ": " << violationSummary(report) << '\n';
}

} // namespace

/// check, diff: each candidate's lines, and with several candidates one last line of totals.
static void writeTextReports(io::Sink &out, const std::vector<CaseResult> &cases,
                             const ReportOptions &options) {
  std::size_t conforming = 0, errors = 0;
  for (const CaseResult &c : cases) {
    writeCaseText(out, c);
    conforming += c.conforms();
    errors += c.error.has_value();
  }
  if (cases.size() != 1)
    out << options.command << ": " << std::uint64_t{conforming} << " of "
        << std::uint64_t{cases.size()} << " conform, "
        << std::uint64_t{cases.size() - conforming - errors} << " do not, " << std::uint64_t{errors}
        << (errors == 1 ? " error\n" : " errors\n");
}

void writeReportText(io::Sink &out, const checks::Report &report, const ReportSubject &subject) {
  CaseResult c;
  c.subject = subject;
  c.report = report;
  writeCaseText(out, c);
}

/// verify: the failing entries as check writes them, the errors, notes and the summary line.
static void writeSuiteText(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  for (const SuiteEntry &e : r.entries) {
    if (e.status() == Status::fails)
      writeReportText(out, e.result.report, e.result.subject); // with its notes
    else if (e.status() == Status::error)
      out << entryErrorLine(e) << '\n';
    else if (!r.quiet)
      for (const std::string &note : e.result.report.notes)
        out << entryNoteLine(e, note) << '\n';
  }
  if (!r.suiteVerified)
    out << "verify: note: " << unverifiedNote(r) << '\n';
  out << "verify: " << suiteLine(r) << '\n';
  out << "verify: " << suiteSummary(r) << '\n';
}

const ReportWriter kTextWriter{writeTextReports, writeSuiteText};

} // namespace lo::report
