// The `check-plan` command (its options are in its --help): another implementation's selection
// judged (docs/spec.md §10.8), a finding per departure, exit status 1 when there is one.
#include "checks/selection.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/reader.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/profile_options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/selection_report.hpp"

#include <optional>

namespace lo::cli {

namespace {

enum class Format { text, json, junit, sarif, html };

} // namespace

Action setupCheckPlan(CLI::App &app) {
  struct Options {
    std::string graph, candidate, failed, out = "-";
    ProfileOptions profile;
    Format format = Format::text;
    Edition edition = selection::kMaintainedEdition;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "check-plan", "Judge another implementation's GraphExecutionPlan for a torchlean.ir.v1 graph "
                    "(selection, docs/spec.md §10.8).");
  addOperand(*sub, "GRAPH", o->graph, "torchlean.ir.v1 graph file (JSON), or - for standard input");
  auto *candidate = sub->add_option("CANDIDATE", o->candidate,
                                    "the implementation's GraphExecutionPlan (JSON), or - for "
                                    "standard input");
  sub->add_option("--failed", o->failed,
                  "instead of CANDIDATE: the implementation failed to plan, with this message")
      ->type_name("MESSAGE")
      ->excludes(candidate);
  addProfileOptions(*sub, o->profile);
  addEditionOption(*sub, o->edition, selection::kMaintainedEditionWhy);
  sub->add_option("--format", o->format,
                  "text: one line a departure; json: a selection report; junit: one test case "
                  "per selection check; sarif: SARIF 2.1.0, a result per departure; html: a page "
                  "with each departure's node and its candidates, why each was refused")
      ->type_name("text|json|junit|sarif|html")
      ->transform(spellingsOf<Format>({{"text", Format::text},
                                       {"json", Format::json},
                                       {"junit", Format::junit},
                                       {"sarif", Format::sarif},
                                       {"html", Format::html}}));
  addOutputOption(*sub, o->out);
  return [o, sub] {
    if (o->candidate.empty() && sub->count("--failed") == 0)
      throw CLI::RequiredError("CANDIDATE or --failed");
    if (o->graph == "-" && o->candidate == "-")
      throw CLI::ValidationError("GRAPH and CANDIDATE cannot both be standard input");
    checkProfileName(o->profile);
    Interner interner;
    const io::Source graphSource = io::loadSource(o->graph);
    const selection::Graph g = io::readGraph(graphSource, interner, o->edition);
    const selection::BackendProfile p = profileOf(o->profile, o->edition);
    GraphExecutionPlan plan;
    std::optional<std::string> failed;
    io::Source candidateSource;
    if (o->candidate.empty()) {
      failed = o->failed;
    } else {
      candidateSource = io::loadSource(o->candidate);
      plan = io::readExecutionPlan(candidateSource, interner, o->edition);
    }
    const std::vector<checks::Finding> findings =
        checks::judgeSelection(p, g, interner, plan, failed);
    const std::string graphName = o->graph == "-" ? "<stdin>" : o->graph;
    const std::string candidateName = o->candidate.empty()  ? "<failure>"
                                      : o->candidate == "-" ? "<stdin>"
                                                            : o->candidate;
    const report::SelectionSubject subject{graphName, candidateName, p.name, graphSource.text,
                                           candidateSource.text};
    writeOutput(o->out, [&](io::Sink &sink) {
      switch (o->format) {
      case Format::text: report::writeSelectionText(sink, subject, findings); break;
      case Format::json: report::writeSelectionJson(sink, subject, o->edition, findings); break;
      case Format::junit: report::writeSelectionJunit(sink, subject, o->edition, findings); break;
      case Format::sarif: report::writeSelectionSarif(sink, subject, o->edition, findings); break;
      case Format::html:
        report::writeSelectionHtml(sink, subject, o->edition, {g, p, interner, plan, failed},
                                   findings);
        break;
      }
    });
    return int{findings.empty() ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
