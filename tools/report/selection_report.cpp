// docs/spec.md §10.8.
#include "tools/report/selection_report.hpp"

#include "checks/selection_catalogue.hpp"
#include "ref/io/escape.hpp"
#include "tools/report/locate.hpp"
#include "tools/report/report.hpp"
#include "tools/report/report_junit.hpp"
#include "tools/report/report_sarif.hpp"

#include <map>

namespace lo::report {

bool inGraph(const checks::Finding &f) { return f.check == Departure::missingNode; }

void writeSelectionText(io::Sink &out, const SelectionSubject &s,
                        const std::vector<checks::Finding> &findings) {
  std::map<Departure, std::size_t> counts;
  for (const checks::Finding &f : findings) {
    ++counts[f.check];
    out << (inGraph(f) ? s.graph : s.candidate) << ": "
        << (f.pointer.empty() ? "" : f.pointer + ": ") << spelling(f.check) << ": "
        << io::shownText(f.sentence) << "\n";
  }
  if (findings.empty()) {
    out << s.candidate << ": conforms to the selection of " << s.graph << " under profile "
        << s.profile << " (docs/spec.md §10)\n";
    return;
  }
  out << s.candidate << ": does not conform to the selection of " << s.graph << " under profile "
      << s.profile << ": " << io::counted(findings.size(), "departure") << " (";
  bool first = true;
  for (const auto &[check, n] : counts) {
    out << (first ? "" : ", ") << spelling(check) << " " << std::to_string(n);
    first = false;
  }
  out << ")\n";
}

void writeSelectionJson(io::Sink &out, const SelectionSubject &s, Edition edition,
                        const std::vector<checks::Finding> &findings) {
  out << "{\"format\":\"lowering-oracle/selection-report\",\"version\":1,\"graph\":";
  out.jsonString(s.graph) << ",\"candidate\":";
  out.jsonString(s.candidate) << ",\"profile\":";
  out.jsonString(s.profile) << ",\"edition\":";
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

void writeSelectionJunit(io::Sink &out, const SelectionSubject &s, Edition edition,
                         const std::vector<checks::Finding> &findings) {
  JunitSuite suite;
  suite.package = "lowering-oracle.check-plan";
  suite.name = s.candidate;
  suite.properties = {
      {"graph", s.graph}, {"profile", s.profile}, {"edition", std::string(spelling(edition))}};
  for (std::size_t i = 0; i < vocabularySize<Departure>(); ++i) {
    const auto d = static_cast<Departure>(i);
    JunitCase c;
    c.name = std::string(spelling(d));
    c.who = s.candidate;
    std::string body;
    std::size_t count = 0;
    for (const checks::Finding &f : findings)
      if (f.check == d) {
        if (count++ == 0)
          c.message = f.sentence;
        body += io::writtenText([&](io::Sink &x) {
                  writeXml(x, (inGraph(f) ? s.graph : s.candidate) + ": " +
                                  (f.pointer.empty() ? "" : f.pointer + ": ") + f.sentence);
                }) +
                "\n";
      }
    if (count > 0) {
      c.outcome = JunitCase::Outcome::failure;
      c.type = std::string(spelling(d));
      c.body = body;
      ++suite.failures;
    }
    suite.cases.push_back(std::move(c));
  }
  suite.tests = suite.cases.size();
  writeJunit(out, {suite}, "check-plan", JunitNames::perSelection);
}

std::vector<SarifRule> selectionRules(bool withHelp) {
  std::vector<SarifRule> rules;
  for (std::size_t i = 0; i < vocabularySize<Departure>(); ++i) {
    const auto d = static_cast<Departure>(i);
    rules.push_back({std::string(spelling(d)),
                     "Finds " + std::string(checks::findingOf(d)) + " (docs/spec.md §10.8).", "",
                     withHelp ? "Run `lowering-oracle explain " + std::string(spelling(d)) +
                                    "` for a minimal example."
                              : ""});
  }
  return rules;
}

void writeSelectionSarif(io::Sink &out, const SelectionSubject &s, Edition edition,
                         const std::vector<checks::Finding> &findings) {
  SarifRun run;
  run.rules = selectionRules(true);
  run.rules.push_back({"invalid-input",
                       "The graph, the profile or the candidate is not a valid document.", "", ""});
  run.artifacts = {s.graph, s.candidate};
  run.properties = {{"command", "\"check-plan\""},
                    {"edition", "\"" + std::string(spelling(edition)) + "\""}};
  for (const checks::Finding &f : findings) {
    SarifResult r;
    r.ruleId = std::string(spelling(f.check));
    r.ruleIndex = static_cast<std::size_t>(f.check);
    r.message = io::shownText(f.sentence);
    r.file = inGraph(f) ? s.graph : s.candidate;
    const std::string_view text = inGraph(f) ? s.graphText : s.candidateText;
    if (!text.empty() && !f.pointer.empty())
      r.region = locate(text, f.pointer);
    r.pointer = f.pointer;
    r.key = r.ruleId + '\0' + r.file + '\0' + f.pointer + '\0' + f.sentence;
    run.results.push_back(std::move(r));
  }
  writeSarif(out, run);
}

} // namespace lo::report
