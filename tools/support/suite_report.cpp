#include "tools/support/suite_report.hpp"

#include "checks/catalogue.hpp"
#include "tools/version.hpp"

#include <cstdio>

namespace lo::cli {

namespace {

using Status = SuiteEntry::Status;

ReportSubject subjectOf(const SuiteEntry &e) {
  return {e.plan, e.output, e.mode, e.equality, e.groups, e.nodes};
}

std::string what(const SuiteEntry &e) {
  return "case " + e.caseName + ", mode " + std::string(spelling(e.mode)) + ", equality " +
         std::string(spelling(e.equality)) +
         (e.policy.empty() ? "" : ", gate of policy " + e.policy);
}

std::string errorLine(const SuiteEntry &e) {
  std::string where = e.output;
  if (e.line)
    where += ":" + std::to_string(e.line) + ":" + std::to_string(e.column);
  if (!e.errorPointer.empty())
    where += ": " + e.errorPointer;
  return where + ": error: " + e.error + " (" + what(e) + ")";
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

void xml(io::Sink &out, std::string_view s) {
  for (char c : s) {
    switch (c) {
    case '&': out << "&amp;"; break;
    case '<': out << "&lt;"; break;
    case '>': out << "&gt;"; break;
    case '"': out << "&quot;"; break;
    case '\'': out << "&apos;"; break;
    default:
      // XML 1.0 forbids most control characters; file names and messages may hold them.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
        out << '?';
      else
        out << c;
    }
  }
}

void writeText(io::Sink &out, const SuiteReport &r) {
  for (const SuiteEntry &e : r.entries) {
    if (e.status == Status::fails)
      writeReportText(out, e.report, subjectOf(e));
    else if (e.status == Status::error)
      out << errorLine(e) << '\n';
  }
  out << "verify: " << suiteSummary(r) << '\n';
}

void writeJson(io::Sink &out, const SuiteReport &r) {
  out << "{\"format\":\"lowering-oracle/verify-report\",\"version\":1,\n \"suite\":";
  out.jsonString(r.suite);
  out << ",\"outputs\":";
  out.jsonString(r.outputs);
  out << ",\n \"conforms\":" << (r.conforms() ? "true" : "false")
      << ",\"entries\":" << std::uint64_t{r.entries.size()}
      << ",\"conforming\":" << std::uint64_t{r.count(Status::conforms)}
      << ",\"failing\":" << std::uint64_t{r.count(Status::fails)}
      << ",\"errors\":" << std::uint64_t{r.count(Status::error)} << ",\n \"results\":[";
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const SuiteEntry &e = r.entries[i];
    out << (i ? ",\n  " : "\n  ") << "{\"case\":";
    out.jsonString(e.caseName);
    out << ",\"mode\":\"" << spelling(e.mode) << "\",\"equality\":\"" << spelling(e.equality)
        << '"';
    if (!e.policy.empty())
      out << ",\"policy\":\"" << e.policy << '"';
    out << ",\"plan\":";
    out.jsonString(e.plan);
    out << ",\"output\":";
    out.jsonString(e.output);
    out << ",\"status\":\""
        << (e.status == Status::conforms ? "conforms"
            : e.status == Status::fails  ? "fails"
                                         : "error")
        << '"';
    if (e.status == Status::error) {
      out << ",\"error\":{\"message\":";
      out.jsonString(e.error);
      out << ",\"pointer\":";
      out.jsonString(e.errorPointer);
      out << ",\"line\":" << std::uint64_t{e.line} << ",\"column\":" << std::uint64_t{e.column}
          << '}';
    } else if (e.status == Status::fails) {
      out << ",\"report\":";
      writeReportJson(out, e.report, subjectOf(e)); // the document `check --format json` writes
    }
    out << '}';
  }
  out << "]}\n";
}

void writeJunit(io::Sink &out, const SuiteReport &r) {
  double total = 0;
  for (const SuiteEntry &e : r.entries)
    total += e.seconds;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lowering-oracle verify\" "
         "tests=\""
      << std::uint64_t{r.entries.size()} << "\" failures=\""
      << std::uint64_t{r.count(Status::fails)} << "\" errors=\""
      << std::uint64_t{r.count(Status::error)} << "\" time=\"" << seconds(total) << "\">\n";
  out << "  <testsuite name=\"";
  xml(out, "lowering-oracle verify " + r.suite);
  out << "\" tests=\"" << std::uint64_t{r.entries.size()} << "\" failures=\""
      << std::uint64_t{r.count(Status::fails)} << "\" errors=\""
      << std::uint64_t{r.count(Status::error)} << "\" skipped=\"0\" time=\"" << seconds(total)
      << "\">\n    <properties>\n      <property name=\"suite\" value=\"";
  xml(out, r.suite);
  out << "\"/>\n      <property name=\"outputs\" value=\"";
  xml(out, r.outputs);
  out << "\"/>\n    </properties>\n";
  for (const SuiteEntry &e : r.entries) {
    const std::string modeEquality = std::string(spelling(e.mode)) + "-" +
                                     std::string(spelling(e.equality)) +
                                     (e.policy.empty() ? "" : "-gate-" + e.policy);
    out << "    <testcase classname=\"";
    xml(out, "lowering-oracle.verify." + e.caseName + "." + modeEquality);
    out << "\" name=\"";
    xml(out, e.caseName + " " + modeEquality);
    out << "\" file=\"";
    xml(out, e.output);
    out << "\" time=\"" << seconds(e.seconds) << '"';
    if (e.status == Status::conforms) {
      out << "/>\n";
      continue;
    }
    if (e.status == Status::error) {
      out << ">\n      <error type=\"output-error\" message=\"";
      xml(out, e.error);
      out << "\">";
      xml(out, errorLine(e));
      out << "</error>\n    </testcase>\n";
      continue;
    }
    out << ">\n      <failure type=\"does-not-conform\" message=\"";
    xml(out, violationSummary(e.report));
    out << "\">";
    std::string text;
    io::Sink lines(text);
    writeReportText(lines, e.report, subjectOf(e));
    lines.flush();
    xml(out, text);
    out << "</failure>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

/// SARIF 2.1.0: the output files are artifacts relative to OUTPUTS (uriBaseId), the plans relative
/// to SUITE.
void writeSarif(io::Sink &out, const SuiteReport &r) {
  constexpr std::size_t kOutputErrorRule = vocabularySize<Check>();
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
         "\n \"runs\":[{\"tool\":{\"driver\":{\"name\":\"lowering-oracle\",\"version\":\""
      << kVersion << "\",\"rules\":[";
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
    const auto &i = checks::info(static_cast<Check>(c));
    out << (c ? ",\n  " : "\n  ") << "{\"id\":\"" << spelling(i.check)
        << "\",\"shortDescription\":{\"text\":";
    out.jsonString("Fails when " + std::string(i.failsWhen) + ".");
    out << "},\"fullDescription\":{\"text\":";
    out.jsonString(i.meaning);
    out << "},\"defaultConfiguration\":{\"level\":\"error\"}}";
  }
  out << ",\n  {\"id\":\"output-error\",\"shortDescription\":{\"text\":\"The output is missing, "
         "unreadable or not a valid GraphLoweringPlan.\"},\"defaultConfiguration\":{\"level\":"
         "\"error\"}}]}},\n \"originalUriBaseIds\":{\"OUTPUTS\":{\"description\":{\"text\":";
  out.jsonString("the outputs directory: " + r.outputs);
  out << "}},\"SUITE\":{\"description\":{\"text\":";
  out.jsonString("the conformance suite: " + r.suite);
  out << "}}},\n \"invocations\":[{\"executionSuccessful\":true}],\n \"results\":[";
  bool first = true;
  const auto location = [&](const SuiteEntry &e, std::size_t line, std::size_t column,
                            const std::string &pointer) {
    out << ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":";
    out.jsonString(e.output);
    out << ",\"uriBaseId\":\"OUTPUTS\"}";
    if (line)
      out << ",\"region\":{\"startLine\":" << std::uint64_t{line}
          << ",\"startColumn\":" << std::uint64_t{column} << '}';
    out << '}';
    if (!pointer.empty()) {
      out << ",\"logicalLocations\":[{\"fullyQualifiedName\":";
      out.jsonString(pointer);
      out << ",\"kind\":\"element\"}]";
    }
    out << "}],\"properties\":{\"case\":";
    out.jsonString(e.caseName);
    out << ",\"mode\":\"" << spelling(e.mode) << "\",\"equality\":\"" << spelling(e.equality)
        << '"';
    if (!e.policy.empty())
      out << ",\"policy\":\"" << e.policy << '"';
    out << '}';
  };
  for (const SuiteEntry &e : r.entries) {
    if (e.status == Status::error) {
      out << (first ? "\n  " : ",\n  ")
          << "{\"ruleId\":\"output-error\",\"ruleIndex\":" << std::uint64_t{kOutputErrorRule}
          << ",\"level\":\"error\",\"message\":{\"text\":";
      out.jsonString(e.error + " (" + what(e) + ")");
      out << '}';
      location(e, e.line, e.column, e.errorPointer);
      out << '}';
      first = false;
    }
    if (e.status != Status::fails)
      continue;
    for (std::size_t k = 0; k < e.report.violations.size(); ++k) {
      const auto &v = e.report.violations[k];
      const auto at =
          k < e.positions.size() ? e.positions[k] : std::pair<std::size_t, std::size_t>{};
      out << (first ? "\n  " : ",\n  ") << "{\"ruleId\":\"" << spelling(v.check)
          << "\",\"ruleIndex\":" << std::uint64_t{static_cast<std::size_t>(v.check)}
          << ",\"level\":\"error\",\"message\":{\"text\":";
      out.jsonString(v.message + " (" + what(e) + ")");
      out << '}';
      location(e, at.first, at.second, v.pointer);
      out << '}';
      first = false;
    }
  }
  out << "]}]}\n";
}

} // namespace

std::size_t SuiteReport::count(SuiteEntry::Status s) const {
  std::size_t n = 0;
  for (const auto &e : entries)
    n += e.status == s;
  return n;
}

std::string suiteSummary(const SuiteReport &r) {
  const std::size_t n = r.entries.size(), ok = r.count(Status::conforms),
                    bad = r.count(Status::fails), err = r.count(Status::error);
  return std::to_string(n) + (n == 1 ? " entry: " : " entries: ") + std::to_string(ok) +
         (ok == 1 ? " conforms, " : " conform, ") + std::to_string(bad) +
         (bad == 1 ? " does not conform, " : " do not conform, ") + std::to_string(err) +
         (err == 1 ? " error" : " errors") + " (missing or invalid output)";
}

void writeSuiteReport(io::Sink &out, ReportFormat format, const SuiteReport &report) {
  switch (format) {
  case ReportFormat::text: writeText(out, report); break;
  case ReportFormat::json: writeJson(out, report); break;
  case ReportFormat::junit: writeJunit(out, report); break;
  case ReportFormat::sarif: writeSarif(out, report); break;
  }
}

} // namespace lo::cli
