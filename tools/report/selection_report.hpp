// The selection report (docs/spec.md §10.8): a candidate selection's departures as text, one line
// a finding and a summary line, as a `lowering-oracle/selection-report` document, as JUnit or
// SARIF, or as an HTML page (html_selection.cpp). `check-plan` and `explain` write it.
#pragma once

#include "checks/selection.hpp"
#include "ref/io/output.hpp"
#include "ref/profile.hpp"
#include "tools/report/report_sarif.hpp"

#include <optional>

#include <string>
#include <vector>

namespace lo::report {

/// The names the report gives: the graph's and the candidate's files, the profile's name; and
/// the two files' texts, where the SARIF report finds each pointer's line and column (empty: no
/// region).
struct SelectionSubject {
  std::string graph, candidate, profile;
  std::string_view graphText = {}, candidateText = {};
};

/// Where a finding's pointer points: into the graph for a missing node, else into the candidate.
bool inGraph(const checks::Finding &f);

void writeSelectionText(io::Sink &out, const SelectionSubject &s,
                        const std::vector<checks::Finding> &findings);
void writeSelectionJson(io::Sink &out, const SelectionSubject &s, Edition edition,
                        const std::vector<checks::Finding> &findings);
/// JUnit (tests/ci-schemas/junit.xsd): one suite, one test case per selection check, a failure
/// for each check with findings.
void writeSelectionJunit(io::Sink &out, const SelectionSubject &s, Edition edition,
                         const std::vector<checks::Finding> &findings);
/// What the HTML page draws besides the findings: the graph, the profile, the candidate (its
/// capsules in `interner`) or the implementation's failure.
struct SelectionView {
  const selection::Graph &graph;
  const selection::BackendProfile &profile;
  const Interner &interner;
  const GraphExecutionPlan &candidate;
  const std::optional<std::string> &failed;
};
/// One self-contained page (html_selection.cpp): the verdict, the policy, the departures, and
/// for each node a departure names (or the first nodes) the registry's capsules of its op in
/// registry order, each with why selection refuses it, the one selection chooses and the
/// candidate's.
void writeSelectionHtml(io::Sink &out, const SelectionSubject &s, Edition edition,
                        const SelectionView &v, const std::vector<checks::Finding> &findings);
/// The same page's content without its head and end: a section of `verify --selection`'s page.
void writeSelectionPicture(io::Sink &out, const SelectionSubject &s, Edition edition,
                           const SelectionView &v, const std::vector<checks::Finding> &findings);
/// The rules of the selection checks (rule id = check name, in their order), each with a `help`
/// text (how to `explain` it) when `withHelp`.
std::vector<SarifRule> selectionRules(bool withHelp);

/// SARIF 2.1.0: the selection checks as rules, one result per finding at its file and pointer.
void writeSelectionSarif(io::Sink &out, const SelectionSubject &s, Edition edition,
                         const std::vector<checks::Finding> &findings);

} // namespace lo::report
