// docs/spec.md §4.3, "Selection entries"; the departures as check-plan reports them (§10.8).
#include "tools/report/selection_suite_report.hpp"

#include "ref/io/escape.hpp"
#include "tools/report/html_parts.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/report_junit.hpp"
#include "tools/report/report_sarif.hpp"
#include "tools/report/selection_report.hpp"

namespace lo::report {

namespace {

using Status = SuiteEntry::Status;

std::string summary(const SelectionSuiteReport &r) {
  return entryCounts("selection ", r.entries.size(), r.count(Status::conforms),
                     r.count(Status::fails), r.count(Status::error)) +
         "; judged in edition " + std::string(spelling(r.edition));
}

/// The command that judges one entry again and draws its picture.
std::string repeat(const SelectionSuiteReport &r, const SelectionSuiteEntry &e) {
  return "lowering-oracle check-plan " + shownText(e.graph) + " " + shownText(e.output) +
         " --profile-file " + shownText(e.profileFile) + " --edition " +
         std::string(spelling(r.edition)) + " --format html -o picture.html";
}

std::string errorText(const SelectionSuiteEntry &e) {
  return shownText(e.output) + ": error: " + shownText(*e.error) + " (case " +
         shownText(e.caseName) + ")";
}

SelectionSubject subjectOf(const SelectionSuiteEntry &e) {
  return {shownText(e.graph), shownText(e.output), shownText(e.profile)};
}

void writeText(io::Sink &out, const SelectionSuiteReport &r) {
  for (const SelectionSuiteEntry &e : r.entries) {
    if (e.status() == Status::error)
      out << errorText(e) << '\n';
    if (e.status() != Status::fails)
      continue;
    writeSelectionText(out, subjectOf(e), e.findings);
    if (e.omitted)
      out << shownText(e.output) << ": " << io::counted(e.omitted, "more departure")
          << " not listed (--max-per-check)\n";
    out << shownText(e.output) << ": picture: " << repeat(r, e) << '\n';
  }
  if (!r.suiteVerified)
    out << "verify: note: " << unverifiedNote(r) << '\n';
  out << "verify: " << suiteLine(r) << '\n' << "verify: " << summary(r) << '\n';
}

void writeJson(io::Sink &out, const SelectionSuiteReport &r) {
  writeSuiteJson(
      out, "lowering-oracle/selection-suite-report", r, [&](const SelectionSuiteEntry &e) {
        out << "\"case\":";
        jsonName(out, e.caseName);
        out << ",\"graph\":";
        jsonName(out, e.graph);
        out << ",\"profile\":";
        jsonName(out, e.profile);
        out << ",\"output\":";
        jsonName(out, e.output);
        out << ",\"status\":\"" << statusName(e.status()) << '"';
        if (e.error) {
          out << ",\"error\":";
          jsonShown(out, *e.error);
        }
        out << ",\"omitted\":" << std::uint64_t{e.omitted} << ",\"findings\":[";
        for (std::size_t k = 0; k < e.findings.size(); ++k) {
          const checks::Finding &f = e.findings[k];
          out << (k ? "," : "") << "{\"check\":\"" << spelling(f.check) << "\",\"document\":\""
              << (inGraph(f) ? "graph" : "candidate") << "\",\"pointer\":";
          jsonShown(out, f.pointer);
          out << ",\"sentence\":";
          jsonShown(out, f.sentence);
          out << '}';
        }
        out << ']';
      });
}

void writeJunitReport(io::Sink &out, const SelectionSuiteReport &r) {
  JunitSuite suite = verifySuite(r, "lowering-oracle verify --selection " + shownText(r.suite));
  suite.tests = r.entries.size();
  suite.failures = r.count(Status::fails);
  suite.errors = r.count(Status::error);
  for (const SelectionSuiteEntry &e : r.entries) {
    suite.seconds += e.seconds;
    JunitCase c;
    c.who = e.caseName;
    c.name = shownText(e.caseName) + " selection";
    c.seconds = e.seconds;
    if (e.status() == Status::error) {
      c.outcome = JunitCase::Outcome::error;
      c.type = "output-error";
      c.message = shownText(*e.error);
      c.body = io::xmlText(errorText(e));
    } else if (e.status() == Status::fails) {
      c.outcome = JunitCase::Outcome::failure;
      c.type = "does-not-conform";
      c.message =
          std::string(spelling(e.findings.front().check)) + ": " +
          shownText(e.findings.front().sentence) +
          (e.findings.size() > 1 ? " (and " + io::counted(e.findings.size() - 1, "more") + ")"
                                 : "");
      c.body = io::xmlText(io::writtenText([&](io::Sink &lines) {
        writeSelectionText(lines, subjectOf(e), e.findings);
        lines << "picture: " << repeat(r, e) << '\n';
      }));
    }
    suite.cases.push_back(std::move(c));
  }
  writeJunit(out, {suite}, "verify", JunitNames::perSelectionEntry);
}

void writeSarifReport(io::Sink &out, const SelectionSuiteReport &r) {
  SarifRun run = verifyRun(r, selectionRules(false), "GraphExecutionPlan");
  run.properties.emplace_back("selection", "true");
  for (const SelectionSuiteEntry &e : r.entries) {
    const auto result = [&](std::string ruleId, std::size_t ruleIndex, const std::string &message,
                            const std::string &file, std::pair<std::size_t, std::size_t> at,
                            const std::string &pointer) {
      SarifResult s;
      s.ruleId = ruleId;
      s.ruleIndex = ruleIndex;
      s.message = shownText(message) + " (case " + shownText(e.caseName) + ")";
      s.file = file;
      s.region.emplace(at.first ? at.first : 1, at.first ? at.second : 1);
      s.pointer = pointer;
      s.key = e.caseName + '\0' + file + '\0' + ruleId + '\0' + pointer + '\0' + message;
      s.properties = {{"case", jsonShownOf(e.caseName)}};
      run.results.push_back(std::move(s));
    };
    if (e.error)
      result("output-error", vocabularySize<Departure>(), *e.error, e.output, {}, "");
    for (std::size_t k = 0; k < e.findings.size(); ++k) {
      const checks::Finding &f = e.findings[k];
      result(std::string(spelling(f.check)), static_cast<std::size_t>(f.check), f.sentence,
             inGraph(f) ? e.graph : e.output,
             k < e.positions.size() ? e.positions[k] : std::pair<std::size_t, std::size_t>{},
             f.pointer);
    }
  }
  writeSarif(out, run);
}

/// One failing or error entry's section of the page: its picture when one was drawn, else its
/// departures listed; an error entry's error.
std::string htmlSection(const SelectionSuiteReport &r, std::size_t i) {
  using html::esc;
  const SelectionSuiteEntry &e = r.entries[i];
  return io::writtenText([&](io::Sink &s) {
    s << "<h2 id=\"e" << i << "\">" << esc(e.caseName) << "</h2>\n";
    if (e.error) {
      s << "<p>error: <code>" << esc(*e.error) << "</code></p>\n";
      return;
    }
    if (!e.picture.empty()) {
      s << e.picture;
      return;
    }
    s << "<ol class=\"findings\">\n";
    for (std::size_t k = 0; k < e.findings.size() && k < kHtmlMaxFindings; ++k) {
      const checks::Finding &f = e.findings[k];
      s << "<li><span class=\"check\">" << spelling(f.check) << "</span> <span class=\"where\">"
        << esc(inGraph(f) ? e.graph : e.output) << (f.pointer.empty() ? "" : " ") << esc(f.pointer)
        << "</span><br>" << esc(f.sentence) << "</li>\n";
    }
    s << "</ol>\n";
    if (e.findings.size() > kHtmlMaxFindings)
      s << "<p>" << html::num(e.findings.size() - kHtmlMaxFindings)
        << " more departures not listed.</p>\n";
    s << "<p>Its picture (each node's candidates in registry order and why each is refused): "
         "<code>"
      << esc(repeat(r, e)) << "</code></p>\n";
  });
}

/// The page, laid out and bounded as verify's (suitePageLayout, docs/spec.md §3.5).
void writeHtml(io::Sink &out, const SelectionSuiteReport &r) {
  using html::esc;
  html::pageStart(out, "lowering-oracle verify --selection: " + shownText(r.suite));
  out << "<h1>verify --selection " << esc(r.suite) << "</h1>\n<p><span class=\"verdict "
      << (r.conforms() ? "ok\">conforms" : "bad\">does not conform") << "</span> "
      << esc(summary(r)) << "</p>\n<p class=\"meta\">" << esc(suiteLine(r)) << "</p>\n";
  if (!r.suiteVerified)
    out << "<p>" << esc(unverifiedNote(r)) << "</p>\n";
  const SuitePageLayout page = suitePageLayout(r.entries, kHtmlSuiteSectionBytes, kHtmlSuiteMaxRows,
                                               [&](std::size_t i) { return htmlSection(r, i); });
  out << "<table>\n<tr><th>case</th><th>status</th><th>departures</th><th>output</th></tr>\n";
  for (std::size_t k = 0; k < page.rows; ++k) {
    const std::size_t i = page.order[k];
    const SelectionSuiteEntry &e = r.entries[i];
    const Status st = e.status();
    out << "<tr><td>";
    if (!page.sections[i].empty())
      out << "<a href=\"#e" << i << "\">" << esc(e.caseName, io::kMaxHtmlIndexCellBytes) << "</a>";
    else
      out << esc(e.caseName, io::kMaxHtmlIndexCellBytes);
    out << "</td><td>"
        << (st == Status::conforms ? "conforms"
            : st == Status::fails  ? "does not conform"
                                   : "error")
        << "</td><td>" << html::num(e.findings.size()) << "</td><td><code>"
        << esc(e.output, io::kMaxHtmlIndexCellBytes) << "</code></td></tr>\n";
  }
  out << "</table>\n" << unlistedNote(page, kHtmlSuiteMaxRows);
  for (const std::size_t i : page.order)
    out << page.sections[i];
  out << undrawnNote(page, kHtmlSuiteSectionBytes);
  html::pageEnd(out);
}

} // namespace

std::size_t SelectionSuiteReport::count(SuiteEntry::Status s) const {
  std::size_t n = 0;
  for (const SelectionSuiteEntry &e : entries)
    n += e.status() == s;
  return n;
}

void writeSelectionSuiteReport(io::Sink &out, ReportFormat format,
                               const SelectionSuiteReport &report) {
  switch (format) {
  case ReportFormat::text: writeText(out, report); break;
  case ReportFormat::json: writeJson(out, report); break;
  case ReportFormat::junit: writeJunitReport(out, report); break;
  case ReportFormat::sarif: writeSarifReport(out, report); break;
  case ReportFormat::html: writeHtml(out, report); break;
  }
}

} // namespace lo::report
