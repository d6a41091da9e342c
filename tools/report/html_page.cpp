// The HTML pages (html_report.hpp): `check`'s page of one section per candidate, `verify`'s page
// with its summary table, and the page `diff` saves beside a finding, drawn from the model its
// caller computed (HtmlDiffPage). The pages compute nothing: each section shows a verdict, notes,
// an error and a picture made before (htmlPicture), or the findings when there is none.
#include "ref/io/limits.hpp"
#include "tools/report/html_parts.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/writers.hpp"

#include "tools/report/suite_report.hpp"

#include <algorithm>
#include <vector>

namespace lo::report {

namespace {

using html::esc;
using html::num;

void writeVerdict(io::Sink &out, const CaseResult &c) {
  const ReportSubject &s = c.subject;
  if (c.error) {
    out << "<p><span class=\"verdict err\">not judged</span> " << esc(errorLine(*c.error))
        << "</p>\n";
    return;
  }
  if (c.report.conforms())
    out << "<p><span class=\"verdict ok\">conforms</span> to " << loweringName(s.mode, s.equality)
        << " of " << esc(s.plan) << " (" << num(s.groups)
        << (s.groups == 1 ? " group, " : " groups, ") << num(s.nodes)
        << (s.nodes == 1 ? " node)" : " nodes)") << "</p>\n";
  else
    out << "<p><span class=\"verdict bad\">does not conform</span> to "
        << loweringName(s.mode, s.equality) << " of " << esc(s.plan) << ": "
        << violationSummary(c.report) << "</p>\n";
  for (const auto &note : c.report.notes)
    out << "<p class=\"note\">note: " << esc(note) << "</p>\n";
}

/// One candidate's section: heading, verdict, notes, and its picture or its findings.
void writeCaseSection(io::Sink &out, const CaseResult &c, std::string_view idPrefix,
                      bool judged = true) {
  const std::string anchor(idPrefix.substr(0, idPrefix.size() ? idPrefix.size() - 1 : 0));
  out << "<section class=\"case\" id=\"" << anchor << "\">\n<h2>";
  if (!c.name.empty())
    out << esc(c.name) << ": ";
  out << esc(c.subject.candidate) << "</h2>\n<p class=\"meta\">plan " << esc(c.subject.plan)
      << " · mode " << spelling(c.subject.mode) << " · equality " << spelling(c.subject.equality)
      << " · " << secondsText(c.seconds) << " s</p>\n";
  if (judged || c.error)
    writeVerdict(out, c);
  if (!c.picture.empty()) {
    out << c.picture;
  } else if (!c.error) {
    if (!c.noPicture.empty())
      out << "<p class=\"note\">No picture: " << c.noPicture << "; the findings are listed.</p>\n";
    out << htmlFindings(c.report, idPrefix);
  }
  out << "</section>\n";
}

} // namespace

/// The page of check and diff: one section per candidate with its verdict, notes, error and
/// picture (or its findings when it has none).
static void writeHtmlReports(io::Sink &out, const std::vector<CaseResult> &cases,
                             const ReportOptions &options) {
  const std::string title =
      "lowering-oracle " + options.command +
      (cases.size() == 1 ? ": " + shownText(cases.front().subject.candidate) : "");
  html::pageStart(out, title);
  out << "<h1>lowering-oracle " << io::htmlText(options.command) << "</h1>\n";
  if (cases.size() != 1) {
    out << "<table class=\"summary\"><tr><th>#</th><th>candidate</th><th>result</th></tr>\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const CaseResult &c = cases[i];
      const char *cls = c.error ? "error" : c.conforms() ? "pass" : "finding";
      out << "<tr><td>" << num(i) << "</td><td><a href=\"#c" << num(i) << "\">"
          << esc(c.name.empty() ? c.subject.candidate : c.name) << "</a></td><td class=\"" << cls
          << "\">" << cls << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    writeCaseSection(out, cases[i], "c" + num(i) + "-");
  html::pageEnd(out);
}

/// The page of `verify --format html`, bounded by kHtmlSuitePageBytes: which suite (seed, count,
/// max-nodes, edition, verified or, in a note, not), the summary, an index of the entries (failing
/// and error entries first, each linking to its section; then the passing ones), and the sections
/// of the failing and error entries with their pictures, while they fit.
static void writeSuiteHtml(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  html::pageStart(out, "lowering-oracle verify: " + shownText(r.suite));
  out << "<h1>lowering-oracle verify</h1>\n<p class=\"meta\">" << esc(suiteLine(r)) << " · outputs "
      << esc(r.outputs) << "</p>\n";
  if (!r.suiteVerified)
    out << "<p class=\"verdict bad\">not verified</p><p class=\"note\">note: "
        << esc(unverifiedNote(r)) << "</p>\n";
  out << "<p><span class=\"verdict " << (r.conforms() ? "ok" : "bad") << "\">"
      << esc(suiteSummary(r)) << "</span></p>\n";
  const SuitePageLayout page =
      suitePageLayout(r.entries, kHtmlSuiteSectionBytes, kHtmlSuiteMaxRows, [&](std::size_t i) {
        const SuiteEntry &e = r.entries[i];
        CaseResult c = e.result; // the entry's result, drawn as `check` draws a candidate
        c.name = e.result.name + (e.policy.empty() ? "" : " (gate of policy " + e.policy + ")");
        if (!e.policy.empty())
          c.noPicture = "the entry's output is a gate result, not a lowering to draw";
        else if (e.result.picture.empty())
          c.noPicture = "the pictures of the page are bounded (docs/spec.md §3.5)";
        return io::writtenText(
            [&](io::Sink &sink) { writeCaseSection(sink, c, "e" + num(i) + "-"); });
      });
  out << "<h2>Index</h2>\n<table class=\"summary\"><tr><th>#</th><th>case</th><th>mode</th>"
         "<th>equality</th><th>policy</th><th>output</th><th>result</th><th>violations</th></tr>\n";
  for (std::size_t k = 0; k < page.rows; ++k) {
    const std::size_t i = page.order[k];
    const SuiteEntry &e = r.entries[i];
    const char *cls = e.status() == Status::conforms ? "pass"
                      : e.status() == Status::fails  ? "finding"
                                                     : "error";
    out << "<tr><td>" << num(i) << "</td><td>";
    if (!page.sections[i].empty())
      out << "<a href=\"#e" << num(i) << "\">" << esc(e.result.name, io::kMaxHtmlIndexCellBytes)
          << "</a>";
    else
      out << esc(e.result.name, io::kMaxHtmlIndexCellBytes);
    out << "</td><td>" << spelling(e.result.subject.mode) << "</td><td>"
        << spelling(e.result.subject.equality) << "</td><td>"
        << esc(e.policy, io::kMaxHtmlIndexCellBytes) << "</td><td>"
        << esc(e.result.subject.candidate, io::kMaxHtmlIndexCellBytes) << "</td><td class=\"" << cls
        << "\">" << cls << "</td><td>"
        << (e.status() == Status::fails ? num(e.result.report.total()) : std::string())
        << "</td></tr>\n";
  }
  out << "</table>\n" << unlistedNote(page, kHtmlSuiteMaxRows);
  out << "<p class=\"note\">Passing entries are listed, not drawn.</p>\n";
  for (const std::size_t i : page.order)
    out << page.sections[i];
  out << undrawnNote(page, kHtmlSuiteSectionBytes);
  html::pageEnd(out);
}

void writeHtmlDiffPage(io::Sink &out, const HtmlDiffPage &page) {
  html::pageStart(out, "lowering-oracle diff: " + shownText(page.heading));
  out << "<h1>" << esc(page.heading) << "</h1>\n<p class=\"verdict bad\">" << esc(page.summary)
      << "</p>\n";
  if (!page.judged && !page.result.error)
    out << "<p class=\"note\">The output is not a lowering to draw: the reference lowering "
           "alone is shown (report.txt has the details).</p>\n";
  writeCaseSection(out, page.result, "c0-", page.judged);
  html::pageEnd(out);
}

const ReportWriter kHtmlWriter{writeHtmlReports, writeSuiteHtml};

} // namespace lo::report
