#include "tools/report/suite_report.hpp"

#include "checks/catalogue.hpp"
#include "tools/report/html_report.hpp"
#include "tools/version.hpp"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace lo::cli {

// Every text from the input or the command line (case names, file names, messages) is shown
// through shownText in the text, JUnit and SARIF messages (docs/spec.md §3.5): it cannot forge a
// line, hide one, or make the XML invalid. In the JSON report, names are shown the same way but
// never cut (jsonName).

namespace {

using Status = SuiteEntry::Status;

ReportSubject subjectOf(const SuiteEntry &e) {
  return {e.plan, e.output, e.mode, e.equality, e.groups, e.nodes};
}

std::string what(const SuiteEntry &e) {
  return "case " + shownText(e.caseName) + ", mode " + std::string(spelling(e.mode)) +
         ", equality " + std::string(spelling(e.equality)) +
         (e.policy.empty() ? "" : ", gate of policy " + e.policy);
}

std::string errorLine(const SuiteEntry &e) {
  return cli::errorLine(
             ReportError{e.output, e.line, e.column, e.errorPointer, "error: " + e.error}) +
         " (" + what(e) + ")";
}

/// `OUTPUT: note: ...` (docs/spec.md §4.3: an output that declares another mode or equality than
/// its entry's is judged by its entry's, and the declaration is noted in every report).
std::string noteLine(const SuiteEntry &e, const std::string &note) {
  return shownText(e.output) + ": note: " + shownText(note);
}

void writeText(io::Sink &out, const SuiteReport &r) {
  for (const SuiteEntry &e : r.entries) {
    if (e.status == Status::fails)
      writeReportText(out, e.report, subjectOf(e)); // with its notes
    else if (e.status == Status::error)
      out << errorLine(e) << '\n';
    else if (!r.quiet)
      for (const std::string &note : e.report.notes)
        out << noteLine(e, note) << '\n';
  }
  if (!r.suiteVerified)
    out << "verify: note: " << unverifiedNote(r) << '\n';
  out << "verify: " << suiteSummary(r) << '\n';
}

void writeJson(io::Sink &out, const SuiteReport &r) {
  out << "{\"format\":\"lowering-oracle/verify-report\",\"version\":1,\n \"suite\":";
  jsonName(out, r.suite);
  out << ",\"outputs\":";
  jsonName(out, r.outputs);
  out << ",\"suiteVerified\":" << (r.suiteVerified ? "true" : "false");
  out << ",\n \"conforms\":" << (r.conforms() ? "true" : "false")
      << ",\"entries\":" << std::uint64_t{r.entries.size()}
      << ",\"conforming\":" << std::uint64_t{r.count(Status::conforms)}
      << ",\"failing\":" << std::uint64_t{r.count(Status::fails)}
      << ",\"errors\":" << std::uint64_t{r.count(Status::error)} << ",\n \"results\":[";
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const SuiteEntry &e = r.entries[i];
    out << (i ? ",\n  " : "\n  ") << "{\"case\":";
    jsonName(out, e.caseName);
    out << ",\"mode\":\"" << spelling(e.mode) << "\",\"equality\":\"" << spelling(e.equality)
        << '"';
    if (!e.policy.empty())
      out << ",\"policy\":\"" << e.policy << '"';
    out << ",\"plan\":";
    jsonName(out, e.plan);
    out << ",\"output\":";
    jsonName(out, e.output);
    out << ",\"status\":\""
        << (e.status == Status::conforms ? "conforms"
            : e.status == Status::fails  ? "fails"
                                         : "error")
        << '"';
    if (e.status == Status::error) {
      out << ",\"error\":{\"message\":";
      jsonShown(out, e.error);
      out << ",\"pointer\":";
      out.jsonString(e.errorPointer);
      out << ",\"line\":" << std::uint64_t{e.line} << ",\"column\":" << std::uint64_t{e.column}
          << '}';
    } else if (e.status == Status::fails) {
      out << ",\"report\":";
      writeReportJson(out, e.report, subjectOf(e)); // the document `check --format json` writes
    } else {
      out << ",\"notes\":[";
      for (std::size_t k = 0; k < e.report.notes.size(); ++k) {
        out << (k ? "," : "");
        jsonShown(out, e.report.notes[k]);
      }
      out << ']';
    }
    out << '}';
  }
  out << "]}\n";
}

/// One `<testsuite>` (the strict JUnit schema, tests/ci-schemas/junit.xsd: package, id, name,
/// timestamp, hostname, the counts and time; then properties, the test cases, system-out and
/// system-err) with one test case per entry. The output's file name is in the failure or error
/// text (the schema has no `file` attribute).
void writeJunit(io::Sink &out, const SuiteReport &r) {
  double total = 0;
  for (const SuiteEntry &e : r.entries)
    total += e.seconds;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      << "  <testsuite package=\"lowering-oracle.verify\" id=\"0\" name=\"";
  writeXml(out, "lowering-oracle verify " + shownText(r.suite));
  out << "\" timestamp=\"" << junitTimestamp() << "\" hostname=\"" << junitHostname()
      << "\" tests=\"" << std::uint64_t{r.entries.size()} << "\" failures=\""
      << std::uint64_t{r.count(Status::fails)} << "\" errors=\""
      << std::uint64_t{r.count(Status::error)} << "\" skipped=\"0\" time=\"" << secondsText(total)
      << "\">\n    <properties>\n      <property name=\"suite\" value=\"";
  xmlShown(out, r.suite);
  out << "\"/>\n      <property name=\"outputs\" value=\"";
  xmlShown(out, r.outputs);
  out << "\"/>\n      <property name=\"suite-verified\" value=\""
      << (r.suiteVerified ? "true" : "false") << "\"/>\n    </properties>\n";
  // Class names are unique in the report: a repeated entry is refused, but two case names can
  // be shown alike (shownText escapes them), and the #N suffix keeps them apart.
  std::set<std::string> used;
  for (const SuiteEntry &e : r.entries) {
    const std::string modeEquality = std::string(spelling(e.mode)) + "-" +
                                     std::string(spelling(e.equality)) +
                                     (e.policy.empty() ? "" : "-gate-" + e.policy);
    const std::string base = "lowering-oracle.verify." + shownText(e.caseName) + "." + modeEquality;
    std::string classname = base;
    for (std::size_t k = 2; !used.insert(classname).second; ++k)
      classname = base + "#" + std::to_string(k);
    out << "    <testcase classname=\"";
    writeXml(out, classname);
    out << "\" name=\"";
    writeXml(out, shownText(e.caseName) + " " + modeEquality);
    out << "\" time=\"" << secondsText(e.seconds) << '"';
    if (e.status == Status::conforms) {
      out << "/>\n";
      continue;
    }
    if (e.status == Status::error) {
      out << ">\n      <error type=\"output-error\" message=\"";
      xmlShown(out, e.error);
      out << "\">";
      writeXml(out, errorLine(e));
      out << "</error>\n    </testcase>\n";
      continue;
    }
    out << ">\n      <failure type=\"does-not-conform\" message=\"";
    writeXml(out, violationSummary(e.report));
    out << "\">";
    writeXml(out, io::writtenText(
                      [&](io::Sink &lines) { writeReportText(lines, e.report, subjectOf(e)); }));
    out << "</failure>\n    </testcase>\n";
  }
  out << "    <system-out>";
  if (!r.suiteVerified)
    writeXml(out, "note: " + unverifiedNote(r) + "\n");
  // The notes of conforming entries (a failing entry's are in its failure text).
  for (const SuiteEntry &e : r.entries)
    if (e.status == Status::conforms)
      for (const std::string &note : e.report.notes)
        writeXml(out, noteLine(e, note) + "\n");
  out << "</system-out>\n    <system-err></system-err>\n  </testsuite>\n</testsuites>\n";
}

/// The output's path as given: OUTPUTS/NAME.
std::string outputPath(const SuiteReport &r, const SuiteEntry &e) {
  return r.outputs + (r.outputs.empty() || r.outputs.back() == '/' ? "" : "/") + e.output;
}

/// SARIF 2.1.0, stated as `check`'s SARIF states it (docs/ci.md, "Reports"): each output file by
/// its path as given (OUTPUTS/NAME), relative to %SRCROOT% (the working directory) or an absolute
/// `file://` URI; every result has a region (its line and column where known, else 1:1, so that
/// code scanning can show it) and partialFingerprints (a stable hash of its case, output, mode,
/// equality, policy, rule and pointer).
void writeSarif(io::Sink &out, const SuiteReport &r) {
  constexpr std::size_t kOutputErrorRule = vocabularySize<Check>();
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
         "\n \"runs\":[{\"tool\":{\"driver\":{\"name\":\"lowering-oracle\",\"version\":\""
      << kVersion << "\",\"rules\":[";
  writeSarifCheckRules(out, false);
  out << ",\n  {\"id\":\"output-error\",\"shortDescription\":{\"text\":\"The output is missing, "
         "unreadable or not a valid GraphLoweringPlan.\"},\"defaultConfiguration\":{\"level\":"
         "\"error\"}}]}},\n \"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":";
  out.jsonString(sarifSourceRootUri());
  out << "}},\n \"columnKind\":\"unicodeCodePoints\"";
  out << ",\n \"invocations\":[{\"executionSuccessful\":true,\"toolExecutionNotifications\":[";
  bool firstNote = true;
  const auto notification = [&](std::string_view level, const std::string &text) {
    out << (firstNote ? "" : ",") << "{\"level\":\"" << level << "\",\"message\":{\"text\":";
    out.jsonString(text);
    out << "}}";
    firstNote = false;
  };
  if (!r.suiteVerified)
    notification("warning", unverifiedNote(r));
  for (const SuiteEntry &e : r.entries)
    for (const std::string &note : e.report.notes)
      notification("note", noteLine(e, note) + " (" + what(e) + ")");
  out << "]}],\n \"properties\":{\"command\":\"verify\",\"suite\":";
  jsonName(out, r.suite);
  out << ",\"outputs\":";
  jsonName(out, r.outputs);
  out << ",\"suiteVerified\":" << (r.suiteVerified ? "true" : "false") << "},\n \"results\":[";
  bool first = true;
  // One result: its rule, message and location (the output, where known), and its entry.
  const auto result = [&](const SuiteEntry &e, std::string_view ruleId, std::size_t ruleIndex,
                          const std::string &message, std::size_t line, std::size_t column,
                          const std::string &pointer) {
    out << (first ? "\n  " : ",\n  ");
    first = false;
    writeSarifResultStart(out, ruleId, ruleIndex, shownText(message) + " (" + what(e) + ")");
    out << ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":";
    writeSarifArtifactLocation(out, outputPath(r, e));
    writeSarifRegion(out, line ? line : 1, line ? column : 1);
    out << '}';
    writeSarifLogicalLocation(out, shownText(pointer));
    const std::string key = e.caseName + '\0' + e.output + '\0' + std::string(spelling(e.mode)) +
                            '\0' + std::string(spelling(e.equality)) + '\0' + e.policy + '\0' +
                            std::string(ruleId) + '\0' + pointer;
    out << "}],\"partialFingerprints\":{\"loweringOracle/v1\":\"" << sarifFingerprint(key)
        << "\"},\"properties\":{\"case\":";
    jsonShown(out, e.caseName);
    out << ",\"mode\":\"" << spelling(e.mode) << "\",\"equality\":\"" << spelling(e.equality)
        << '"';
    if (!e.policy.empty()) {
      out << ",\"policy\":";
      out.jsonString(e.policy);
    }
    out << "}}";
  };
  for (const SuiteEntry &e : r.entries) {
    if (e.status == Status::error)
      result(e, "output-error", kOutputErrorRule, e.error, e.line, e.column, e.errorPointer);
    if (e.status != Status::fails)
      continue;
    for (std::size_t k = 0; k < e.report.violations.size(); ++k) {
      const auto &v = e.report.violations[k];
      const auto at =
          k < e.positions.size() ? e.positions[k] : std::pair<std::size_t, std::size_t>{};
      result(e, spelling(v.check), static_cast<std::size_t>(v.check), v.message, at.first,
             at.second, v.pointer);
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

/// With gate entries (verify --gates), the summary names each policy judged, in the order of
/// first appearance, with its entries and how many conform: "; gate entries by policy: verified
/// 16 (16 conform), checked 16 (15 conform), ...". Empty without gate entries.
namespace {
std::string gatePolicies(const SuiteReport &r) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::size_t, std::size_t>> tally; // entries, conforming
  for (const SuiteEntry &e : r.entries) {
    if (e.policy.empty())
      continue;
    auto [it, added] = tally.try_emplace(e.policy, 0, 0);
    if (added)
      order.push_back(e.policy);
    ++it->second.first;
    it->second.second += e.status == Status::conforms;
  }
  std::string out;
  for (const std::string &policy : order) {
    const auto [n, ok] = tally[policy];
    out += (out.empty() ? "; gate entries by policy: " : ", ") + shownText(policy) + " " +
           std::to_string(n) + " (" + std::to_string(ok) + (ok == 1 ? " conforms)" : " conform)");
  }
  return out;
}
} // namespace

std::string suiteSummary(const SuiteReport &r) {
  const std::size_t n = r.entries.size(), ok = r.count(Status::conforms),
                    bad = r.count(Status::fails), err = r.count(Status::error);
  return std::to_string(n) + (n == 1 ? " entry: " : " entries: ") + std::to_string(ok) +
         (ok == 1 ? " conforms, " : " conform, ") + std::to_string(bad) +
         (bad == 1 ? " does not conform, " : " do not conform, ") + std::to_string(err) +
         (err == 1 ? " error" : " errors") + " (missing or invalid output)" + gatePolicies(r);
}

std::string unverifiedNote(const SuiteReport &r) {
  return "the suite " + shownText(r.suite) +
         " was not verified: its manifest names no gen parameters, so its plans and entries are "
         "judged as they are (--unverified-suite)";
}

void writeSuiteReport(io::Sink &out, ReportFormat format, const SuiteReport &report) {
  switch (format) {
  case ReportFormat::text: writeText(out, report); break;
  case ReportFormat::json: writeJson(out, report); break;
  case ReportFormat::junit: writeJunit(out, report); break;
  case ReportFormat::sarif: writeSarif(out, report); break;
  case ReportFormat::html: writeSuiteHtml(out, report); break;
  }
}

} // namespace lo::cli
