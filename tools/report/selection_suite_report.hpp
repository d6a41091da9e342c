// The report of `verify --selection` (docs/spec.md §4.3, "Selection entries"): one entry per
// selection case of a suite, each a candidate GraphExecutionPlan judged by the selection checks
// (docs/spec.md §10.8), in every format of `verify`: text, json, junit, sarif and html.
#pragma once

#include "checks/selection.hpp"
#include "ref/edition.hpp"
#include "ref/io/output.hpp"
#include "tools/report/report.hpp"
#include "tools/report/suite_report.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lo::report {

struct SelectionSuiteEntry {
  std::string caseName;
  std::string output;      // OUTPUTS/NAME, the candidate
  std::string graph;       // the suite's graph file
  std::string profileFile; // the suite's profile file
  std::string profile;     // the profile's name
  std::vector<checks::Finding> findings;
  /// Per finding: the line and column of its pointer in its document ({0, 0}: unknown).
  std::vector<std::pair<std::size_t, std::size_t>> positions;
  /// Departures not kept, over --max-per-check of one check (docs/spec.md §3.5).
  std::size_t omitted = 0;
  /// html: the entry's picture (writeSelectionPicture), drawn while its graph, profile and
  /// candidate were at hand, within the page's bound; empty: its departures are listed.
  std::string picture;
  std::optional<std::string> error; // no output to judge, in one sentence
  double seconds = 0;
  SuiteEntry::Status status() const {
    return error              ? SuiteEntry::Status::error
           : findings.empty() ? SuiteEntry::Status::conforms
                              : SuiteEntry::Status::fails;
  }
};

struct SelectionSuiteReport : SuiteHeader {
  std::vector<SelectionSuiteEntry> entries;
  std::size_t count(SuiteEntry::Status s) const;
  bool conforms() const { return count(SuiteEntry::Status::conforms) == entries.size(); }
};

/// text: each failing entry's departures as `check-plan` writes them and the command that draws
/// its picture, one line per error, then the suite line and a summary line; json: a
/// `lowering-oracle/selection-suite-report`; junit: one test case per entry; sarif: one result
/// per departure or error; html: one page, a table of every entry and a section for each entry
/// that does not conform (its picture when one was drawn, else its departures).
void writeSelectionSuiteReport(io::Sink &out, ReportFormat format,
                               const SelectionSuiteReport &report);

} // namespace lo::report
