// The `check-plan` command (its options are in its --help): another implementation's selection
// judged (docs/spec.md §10.8), a finding per departure, exit status 1 when there is one.
#include "checks/selection.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/reader.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/profile_options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

#include <map>
#include <optional>

namespace lo::cli {

namespace {

enum class Format { text, json };

/// Where a finding's pointer points: into the graph for a missing node, else into the candidate.
bool inGraph(const checks::Finding &f) { return f.check == Departure::missingNode; }

void writeText(io::Sink &out, const std::string &graph, const std::string &candidate,
               const std::string &profile, const std::vector<checks::Finding> &findings) {
  std::map<Departure, std::size_t> counts;
  for (const checks::Finding &f : findings) {
    ++counts[f.check];
    out << (inGraph(f) ? graph : candidate) << ": " << (f.pointer.empty() ? "" : f.pointer + ": ")
        << spelling(f.check) << ": " << f.sentence << "\n";
  }
  if (findings.empty()) {
    out << candidate << ": conforms to the selection of " << graph << " under profile " << profile
        << " (docs/spec.md §10)\n";
    return;
  }
  out << candidate << ": does not conform to the selection of " << graph << " under profile "
      << profile << ": " << io::counted(findings.size(), "departure") << " (";
  bool first = true;
  for (const auto &[check, n] : counts) {
    out << (first ? "" : ", ") << spelling(check) << " " << std::to_string(n);
    first = false;
  }
  out << ")\n";
}

void writeJson(io::Sink &out, const std::string &graph, const std::string &candidate,
               const std::string &profile, Edition edition,
               const std::vector<checks::Finding> &findings) {
  out << "{\"format\":\"lowering-oracle/selection-report\",\"version\":1,\"graph\":";
  out.jsonString(graph) << ",\"candidate\":";
  out.jsonString(candidate) << ",\"profile\":";
  out.jsonString(profile) << ",\"edition\":";
  out.jsonString(spelling(edition))
      << ",\"conforms\":" << (findings.empty() ? "true" : "false") << ",\"findings\":[";
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const checks::Finding &f = findings[i];
    out << (i ? "," : "") << "{\"check\":";
    out.jsonString(spelling(f.check))
        << ",\"document\":\"" << (inGraph(f) ? "graph" : "candidate") << "\",\"pointer\":";
    out.jsonString(f.pointer) << ",\"sentence\":";
    out.jsonString(f.sentence) << "}";
  }
  out << "]}\n";
}

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
    writeOutput(o->out, [&](io::Sink &sink) {
      if (o->format == Format::json)
        writeJson(sink, graphName, candidateName, p.name, o->edition, findings);
      else
        writeText(sink, graphName, candidateName, p.name, findings);
    });
    return int{findings.empty() ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
