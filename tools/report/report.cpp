// The pieces every report writer shares (error lines, summaries, shown text, times) and the
// dispatch of `writeReports` to the writer of each format (report.hpp).
#include "tools/report/report.hpp"

#include "checks/catalogue.hpp"
#include "tools/report/writers.hpp"

#include <cstdio>
#include <stdexcept>

namespace lo::report {

std::string errorLine(const ReportError &e) {
  std::string out = shownText(e.file);
  if (e.line)
    out += ":" + std::to_string(e.line) + ":" + std::to_string(e.column);
  if (!e.pointer.empty())
    out += ": " + shownText(e.pointer);
  return out + ": " + shownText(e.message);
}

ReportError ReportError::from(const io::InputError &e) {
  return {e.file(), e.line(), e.column(), e.pointer(), e.message()};
}

std::string violationSummary(const checks::Report &report) {
  const auto n = report.countsPerCheck();
  const std::size_t all = report.total();
  std::string out = std::to_string(all) + (all == 1 ? " violation" : " violations");
  std::string parts;
  for (std::size_t c = 0; c < n.size(); ++c)
    if (n[c])
      parts += (parts.empty() ? "" : ", ") + std::string(spelling(static_cast<Check>(c))) + " " +
               std::to_string(n[c]);
  return parts.empty() ? out : out + " (" + parts + ")";
}

std::string violationLine(const checks::Violation &v) {
  return shownText(v.pointer) + ": " + std::string(spelling(v.check)) + ": " + shownText(v.message);
}

std::string loweringName(Mode mode, Equality equality) {
  return "the " + std::string(spelling(mode)) + " lowering (equality " +
         std::string(spelling(equality)) + ")";
}

bool checkAppliesIn(Check check, Mode mode, Edition edition) {
  return checks::appliesIn(check, mode, edition);
}

std::string skippedBecause(Check check, Mode mode, Edition edition) {
  const auto only = checks::info(check).onlyIn;
  if (only && *only != mode)
    return "applies only in mode " + std::string(spelling(*only));
  return "not run in edition " + std::string(spelling(edition)) +
         ": its groups have no kinds and no groupingKind";
}

void writeXml(io::Sink &out, std::string_view text) { out << io::xmlText(text); }

void xmlShown(io::Sink &out, std::string_view text) { writeXml(out, shownText(text)); }

void jsonShown(io::Sink &out, std::string_view text) { out.jsonString(shownText(text)); }

void jsonName(io::Sink &out, std::string_view text) { out.jsonString(shownText(text, io::kUncut)); }

std::string secondsText(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s < 0 ? 0.0 : s);
  return buffer;
}

void writeReports(io::Sink &out, ReportFormat format, const std::vector<CaseResult> &cases,
                  const ReportOptions &options) {
  writerOf(format).candidates(out, cases, options);
}

const ReportWriter &writerOf(ReportFormat format) {
  switch (format) {
  case ReportFormat::text: return kTextWriter;
  case ReportFormat::json: return kJsonWriter;
  case ReportFormat::junit: return kJunitWriter;
  case ReportFormat::sarif: return kSarifWriter;
  case ReportFormat::html: return kHtmlWriter;
  }
  throw std::logic_error("writerOf: not a report format");
}

void writeReport(io::Sink &out, ReportFormat format, const checks::Report &report,
                 const ReportSubject &subject) {
  CaseResult c;
  c.subject = subject;
  c.report = report;
  writeReports(out, format, {c});
}

} // namespace lo::report
