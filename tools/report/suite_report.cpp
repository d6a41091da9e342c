// The report of `verify` (suite_report.hpp): its counts, summary and entry lines, and the dispatch
// of `writeSuiteReport` to the writer of each format, the one `check` uses.
#include "tools/report/suite_report.hpp"

#include "tools/report/report.hpp"
#include "tools/report/writers.hpp"

#include <map>
#include <utility>
#include <vector>

namespace lo::report {

// Every text from the input or the command line (case names, file names, messages) is shown
// through shownText in the text, JUnit and SARIF messages (docs/spec.md §3.5): it cannot forge a
// line, hide one, or make the XML invalid. In the JSON report, names are shown the same way but
// never cut (jsonName).

std::string entryName(const SuiteEntry &e) {
  return "case " + shownText(e.result.name) + ", mode " +
         std::string(spelling(e.result.subject.mode)) + ", equality " +
         std::string(spelling(e.result.subject.equality)) +
         (e.policy.empty() ? "" : ", gate of policy " + e.policy);
}

std::string entryErrorLine(const SuiteEntry &e) {
  ReportError error = e.result.error.value_or(ReportError{});
  error.message = "error: " + error.message;
  return errorLine(error) + " (" + entryName(e) + ")";
}

std::string entryNoteLine(const SuiteEntry &e, const std::string &note) {
  return shownText(e.result.subject.candidate) + ": note: " + shownText(note);
}

std::size_t SuiteReport::count(SuiteEntry::Status s) const {
  std::size_t n = 0;
  for (const auto &e : entries)
    n += e.status() == s;
  return n;
}

/// With gate entries (verify --gates), the summary names each policy judged, in the order of
/// first appearance, with its entries and how many conform: "; gate entries by policy: verified
/// 16 (16 conform), checked 16 (15 conform), ...". Empty without gate entries.
namespace {
std::string gatePolicies(const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::size_t, std::size_t>> tally; // entries, conforming
  for (const SuiteEntry &e : r.entries) {
    if (e.policy.empty())
      continue;
    auto [it, added] = tally.try_emplace(e.policy, 0, 0);
    if (added)
      order.push_back(e.policy);
    ++it->second.first;
    it->second.second += e.status() == Status::conforms;
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

std::string entryCounts(std::string_view kind, std::size_t n, std::size_t ok, std::size_t bad,
                        std::size_t err) {
  return std::to_string(n) + " " + std::string(kind) + (n == 1 ? "entry: " : "entries: ") +
         std::to_string(ok) + (ok == 1 ? " conforms, " : " conform, ") + std::to_string(bad) +
         (bad == 1 ? " does not conform, " : " do not conform, ") + std::to_string(err) +
         (err == 1 ? " error" : " errors") + " (missing or invalid output)";
}

std::string suiteSummary(const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  return entryCounts("", r.entries.size(), r.count(Status::conforms), r.count(Status::fails),
                     r.count(Status::error)) +
         gatePolicies(r) + "; judged in edition " + std::string(spelling(r.edition));
}

std::string suiteLine(const SuiteHeader &r) {
  const std::string edition = ", edition " + std::string(spelling(r.edition));
  if (!r.parameters)
    return "suite " + shownText(r.suite) + ": no seed, count or max-nodes (a hand-made suite)" +
           edition + ", not verified";
  const SuiteParameters &p = *r.parameters;
  return "suite " + shownText(r.suite) + ": seed " + std::to_string(p.seed) + ", count " +
         std::to_string(p.count) + ", max-nodes " + std::to_string(p.maxNodes) + edition +
         (r.suiteVerified ? ", verified (regenerated from these parameters and found equal)"
                          : ", not verified");
}

std::string unverifiedNote(const SuiteHeader &r) {
  return "the suite " + shownText(r.suite) +
         " was not verified: its manifest names no gen parameters, so its plans and entries are "
         "judged as they are (--unverified-suite)";
}

void writeSuiteHeaderJson(io::Sink &out, const SuiteHeader &r) {
  out << ",\n \"suite\":";
  jsonName(out, r.suite);
  out << ",\"outputs\":";
  jsonName(out, r.outputs);
  out << ",\"suiteVerified\":" << (r.suiteVerified ? "true" : "false") << ",\"edition\":\""
      << spelling(r.edition) << '"';
  for (const auto &[name, field] :
       {std::pair{"seed", &SuiteParameters::seed}, std::pair{"count", &SuiteParameters::count},
        std::pair{"maxNodes", &SuiteParameters::maxNodes}}) {
    out << ",\"" << name << "\":";
    if (r.parameters)
      out << std::uint64_t{(*r.parameters).*field};
    else
      out << "null";
  }
}

void writeSuiteCountsJson(io::Sink &out, std::size_t entries, std::size_t conforming,
                          std::size_t failing, std::size_t errors) {
  out << ",\n \"conforms\":" << (conforming == entries ? "true" : "false")
      << ",\"entries\":" << std::uint64_t{entries}
      << ",\"conforming\":" << std::uint64_t{conforming}
      << ",\"failing\":" << std::uint64_t{failing} << ",\"errors\":" << std::uint64_t{errors};
}

std::string_view statusName(SuiteEntry::Status s) {
  using Status = SuiteEntry::Status;
  return s == Status::conforms ? "conforms" : s == Status::fails ? "fails" : "error";
}

std::string unlistedNote(const SuitePageLayout &page, std::size_t maxRows) {
  if (page.rows == page.order.size())
    return "";
  return "<p class=\"note\">" + std::to_string(page.order.size() - page.rows) +
         " more entries are not listed: the index lists at most " + std::to_string(maxRows) +
         ", the failing and error entries first (docs/spec.md §3.5).</p>\n";
}

std::string undrawnNote(const SuitePageLayout &page, std::size_t sectionBytes) {
  if (!page.notShown)
    return "";
  return "<p class=\"note\">" + std::to_string(page.notShown) +
         " failing or error entries have no section: the page's sections are bounded at " +
         std::to_string(sectionBytes) + " bytes (docs/spec.md §3.5).</p>\n";
}

void writeSuiteReport(io::Sink &out, ReportFormat format, const SuiteReport &report) {
  writerOf(format).suite(out, report);
}

} // namespace lo::report
