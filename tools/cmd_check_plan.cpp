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

enum class Format { text, json };

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
  sub->add_option("--format", o->format, "text: one line a departure; json: a selection report")
      ->type_name("text|json")
      ->transform(spellingsOf<Format>({{"text", Format::text}, {"json", Format::json}}));
  addOutputOption(*sub, o->out);
  return [o, sub] {
    if (o->candidate.empty() && sub->count("--failed") == 0)
      throw CLI::RequiredError("CANDIDATE or --failed");
    if (o->graph == "-" && o->candidate == "-")
      throw CLI::ValidationError("GRAPH and CANDIDATE cannot both be standard input");
    checkProfileName(o->profile);
    Interner interner;
    const selection::Graph g = io::readGraph(io::loadSource(o->graph), interner, o->edition);
    const selection::BackendProfile p = profileOf(o->profile, o->edition);
    GraphExecutionPlan plan;
    std::optional<std::string> failed;
    if (o->candidate.empty())
      failed = o->failed;
    else
      plan = io::readExecutionPlan(io::loadSource(o->candidate), interner, o->edition);
    const std::vector<checks::Finding> findings =
        checks::judgeSelection(p, g, interner, plan, failed);
    const std::string graphName = o->graph == "-" ? "<stdin>" : o->graph;
    const std::string candidateName = o->candidate.empty()  ? "<failure>"
                                      : o->candidate == "-" ? "<stdin>"
                                                            : o->candidate;
    const report::SelectionSubject subject{graphName, candidateName, p.name};
    writeOutput(o->out, [&](io::Sink &sink) {
      if (o->format == Format::json)
        report::writeSelectionJson(sink, subject, o->edition, findings);
      else
        report::writeSelectionText(sink, subject, findings);
    });
    return int{findings.empty() ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
