// The report of `verify`: one entry per (case, mode, equality) of a conformance suite (and, with
// `--gates`, instead, per (case, policy): a differing gate result is one violation of the check
// `gate`), in every report format of `check` (text, json, junit, sarif, html). An output that is
// missing, unreadable or not a valid GraphLoweringPlan is an entry with an error, reported like the
// others.
#pragma once

#include "ref/edition.hpp"

#include "tools/report/report.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lo::report {

/// One entry of a suite: the one result model of every report (CaseResult, as `check` and `diff`
/// report a candidate: `result.name` the case, `result.subject` the plan, the output as the
/// candidate, the entry's mode and equality, the output's groups and the plan's nodes;
/// `result.report` the violations; `result.error` an output that could not be judged, its file
/// the output; `result.seconds`, `result.picture`), with what only a suite entry has.
struct SuiteEntry {
  enum class Status { conforms, fails, error };
  CaseResult result;
  std::string policy; // a gate entry (verify --gates): the preset or custom; empty for a lowering
  /// fails: the line and column of each violation's pointer in the output ({0, 0}: unknown).
  std::vector<std::pair<std::size_t, std::size_t>> positions;
  Status status() const {
    return result.error               ? Status::error
           : result.report.conforms() ? Status::conforms
                                      : Status::fails;
  }
};

/// gen's parameters as a suite's manifest names them (docs/spec.md §4.3).
struct SuiteParameters {
  std::uint64_t seed = 0, count = 0, maxNodes = 0;
};

/// What every report of `verify` says of the suite it judged (the lowerings, the gate results,
/// the selection entries).
struct SuiteHeader {
  std::string suite;   // the suite directory
  std::string outputs; // the outputs directory
  /// The seed, count and maxNodes the manifest names; nullopt: a hand-made suite that names none.
  std::optional<SuiteParameters> parameters = std::nullopt;
  /// Whether the suite was verified (regenerated from its manifest's gen parameters and found
  /// equal, docs/spec.md §4.3); false for a hand-made suite judged with --unverified-suite.
  bool suiteVerified = true;
  /// The edition the suite was judged in (docs/spec.md §1.6): its manifest's `edition`.
  Edition edition = kNewestEdition;
};

struct SuiteReport : SuiteHeader {
  std::vector<SuiteEntry> entries;
  /// `verify --quiet`: the text format leaves out the note lines of conforming entries (a
  /// declaration noted, docs/spec.md §4.3); findings, errors, the unverified note and the summary
  /// stay, and the other formats keep every note.
  bool quiet = false;
  std::size_t count(SuiteEntry::Status s) const;
  bool conforms() const { return count(SuiteEntry::Status::conforms) == entries.size(); }
};

/// verify's HTML page (docs/spec.md §3.5), for the entries of any list: their order on the page
/// (the failing entries, then the error entries, then the passing ones, each in the manifest's
/// order) and the section of each failing or error entry made by `section(i)`, kept while the
/// sections fit in kHtmlSuiteSectionBytes (empty: none; `notShown` counts those left out), so
/// that the index links only to sections on the page. It lists at most kHtmlSuiteMaxRows rows.
struct SuitePageLayout {
  std::vector<std::size_t> order;
  std::vector<std::string> sections;
  std::size_t notShown = 0;
  std::size_t rows = 0;
};
template <class Entries, class Section>
SuitePageLayout suitePageLayout(const Entries &entries, std::size_t sectionBytes,
                                std::size_t maxRows, Section &&section) {
  using Status = SuiteEntry::Status;
  SuitePageLayout page;
  page.order.reserve(entries.size());
  for (const Status status : {Status::fails, Status::error, Status::conforms})
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].status() == status)
        page.order.push_back(i);
  page.sections.resize(entries.size());
  std::size_t bytes = 0;
  for (const std::size_t i : page.order) {
    if (entries[i].status() == Status::conforms)
      break;
    std::string text = section(i);
    if (bytes + text.size() > sectionBytes) {
      ++page.notShown;
      continue;
    }
    bytes += text.size();
    page.sections[i] = std::move(text);
  }
  page.rows = std::min(page.order.size(), maxRows);
  return page;
}

/// The page's notes after its index and after its sections: the entries not listed (over
/// `maxRows`) and the sections left out (SuitePageLayout::notShown), when there are any.
std::string unlistedNote(const SuitePageLayout &page, std::size_t maxRows);
std::string undrawnNote(const SuitePageLayout &page, std::size_t sectionBytes);

/// Each format's writer is the one `check` uses (report_text, report_json, report_junit,
/// report_sarif, html_page); every format says which edition it judged in (text and html the
/// summary line, json `edition`, junit and sarif the property `edition`) and whether the suite was
/// verified: text a note line
/// before the summary (only when it was not), json `suiteVerified`, junit the property
/// `suite-verified` (and a note in system-out when it was not), sarif the run's property
/// `suiteVerified` (and a warning notification when it was not). text: the violations of each
/// failing entry as `check` writes them, one line per error, then one summary line. json: the
/// counts and one result per entry (a failing entry with its check report). junit: one test case
/// per entry (classname `lowering-oracle.verify.CASE.MODE-EQUALITY`, unique in a report), a failure
/// for violations, an error for an output that could not be judged, its time. sarif: one result per
/// violation and per error, rule id = check name or `output-error`, located as `check` locates its
/// results: the output's path (OUTPUTS/NAME) relative to %SRCROOT% (or an absolute file URI), a
/// region on every result (the value the pointer names, the reader's position, else 1:1) and
/// partialFingerprints. html: a summary table of every entry linking to its section and picture
/// (writeSuiteHtml).
void writeSuiteReport(io::Sink &out, ReportFormat format, const SuiteReport &report);

/// "case CASE, mode MODE, equality EQUALITY[, gate of policy POLICY]": which entry a line is of.
std::string entryName(const SuiteEntry &e);

/// `OUTPUT[:LINE:COLUMN][: POINTER]: error: MESSAGE (ENTRY)`: an entry that could not be judged.
std::string entryErrorLine(const SuiteEntry &e);

/// `OUTPUT: note: NOTE` (docs/spec.md §4.3: an output that declares another mode or equality than
/// its entry's is judged by its entry's, and the declaration is noted in every report).
std::string entryNoteLine(const SuiteEntry &e, const std::string &note);

/// "N KINDentries: OK conform, BAD do not conform, ERR errors (missing or invalid output)", each
/// word in the number's form; `kind` is empty or ends with a space ("selection ").
std::string entryCounts(std::string_view kind, std::size_t n, std::size_t ok, std::size_t bad,
                        std::size_t err);
/// "600 entries: 598 conform, 1 does not conform, 1 error (missing or invalid output)".
std::string suiteSummary(const SuiteReport &report);

/// Which suite was judged, with its parameters and whether it was verified, or that it is a
/// hand-made suite (docs/spec.md §4.3, "verify"). Every format states it (text the line `verify:
/// SUITE-LINE` before the summary).
std::string suiteLine(const SuiteHeader &report);

/// "the suite SUITE was not verified: ..." (for a report of an unverified suite).
std::string unverifiedNote(const SuiteHeader &report);

/// The members every JSON report of verify starts with: `"suite"`, `"outputs"`,
/// `"suiteVerified"`, `"edition"`, `"seed"`, `"count"` and `"maxNodes"` (null for a hand-made
/// suite), each after a comma.
void writeSuiteHeaderJson(io::Sink &out, const SuiteHeader &header);

/// The JSON counts of a report: `"conforms"`, `"entries"`, `"conforming"`, `"failing"` and
/// `"errors"`, each after a comma.
void writeSuiteCountsJson(io::Sink &out, std::size_t entries, std::size_t conforming,
                          std::size_t failing, std::size_t errors);

/// A status as the JSON reports spell it: "conforms", "fails" or "error".
std::string_view statusName(SuiteEntry::Status s);

/// A JSON report of verify (`Report`: a SuiteReport or a SelectionSuiteReport): its `format`, the
/// header, the counts and `"results"`, one object per entry whose members `member(entry)` writes.
template <class Report, class Members>
void writeSuiteJson(io::Sink &out, std::string_view format, const Report &r, Members &&members) {
  using Status = SuiteEntry::Status;
  out << "{\"format\":\"" << format << "\",\"version\":1";
  writeSuiteHeaderJson(out, r);
  writeSuiteCountsJson(out, r.entries.size(), r.count(Status::conforms), r.count(Status::fails),
                       r.count(Status::error));
  out << ",\n \"results\":[";
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    out << (i ? ",\n  " : "\n  ") << '{';
    members(r.entries[i]);
    out << '}';
  }
  out << "]}\n";
}

} // namespace lo::report
