#include "tools/cli/explain_selection.hpp"

#include "checks/selection_catalogue.hpp"
#include "ref/io/error.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/graph_writer.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/exit_codes.hpp"
#include "tools/plans/selection_cases.hpp"
#include "tools/report/selection_report.hpp"

#include <stdexcept>

namespace lo::cli {

int explainSelection(Departure d, Edition edition, const std::string &out) {
  const auto header = [&](io::Sink &sink) {
    sink << spelling(d) << " finds " << checks::findingOf(d) << " (docs/spec.md §10.8).\n";
  };
  if (!selection::hasSelection(edition)) {
    writeOutput(out, [&](io::Sink &sink) {
      header(sink);
      sink << "\nNo example in edition " << spelling(edition)
           << ": selection is judged in the editions of the lean-dojo lineage (docs/spec.md "
              "§10).\n";
    });
    return kSuccess;
  }
  Interner written;
  const checks::SelectionExample ex = checks::selectionExample(written, d);
  const std::string graphText = io::graphJson(ex.graph, written);
  const std::string profileText = io::profileJson(ex.profile, edition);
  const std::string candidateText =
      ex.failed ? "" : io::executionPlanJson(written, ex.candidate, edition);
  // The report is `check-plan --edition E` of the files as they are written.
  Interner fresh;
  const selection::Graph graph =
      readExampleBack(graphText, "graph.json", edition,
                      [&](const io::Source &s) { return io::readGraph(s, fresh, edition); });
  const selection::BackendProfile profile =
      readExampleBack(profileText, "profile.json", edition,
                      [&](const io::Source &s) { return io::readProfile(s, edition); });
  GraphExecutionPlan candidate;
  if (!ex.failed)
    candidate = readExampleBack(candidateText, "candidate.json", edition, [&](const io::Source &s) {
      return io::readExecutionPlan(s, fresh, edition);
    });
  const std::vector<checks::Finding> findings =
      checks::judgeSelection(profile, graph, fresh, candidate, ex.failed);
  const std::string e(spelling(edition));
  writeOutput(out, [&](io::Sink &sink) {
    header(sink);
    sink << "\nExample (" << ex.story << "), judged with --edition " << e << ".\n\ngraph.json:\n"
         << graphText << "\nprofile.json:\n"
         << profileText << '\n';
    if (ex.failed)
      sink << "The implementation failed: " << *ex.failed
           << "\n\n$ lowering-oracle check-plan graph.json --failed '" << *ex.failed
           << "' --profile-file profile.json --edition " << e << '\n';
    else
      sink << "candidate.json:\n"
           << candidateText
           << "\n$ lowering-oracle check-plan graph.json candidate.json --profile-file "
              "profile.json --edition "
           << e << '\n';
    report::writeSelectionText(
        sink, {"graph.json", ex.failed ? "<failure>" : "candidate.json", profile.name}, findings);
  });
  return kSuccess;
}

} // namespace lo::cli
