// docs/spec.md §10.8.
#include "tools/report/selection_report.hpp"

#include "ref/io/escape.hpp"

#include <map>

namespace lo::report {

bool inGraph(const checks::Finding &f) { return f.check == Departure::missingNode; }

void writeSelectionText(io::Sink &out, const SelectionSubject &s,
                        const std::vector<checks::Finding> &findings) {
  std::map<Departure, std::size_t> counts;
  for (const checks::Finding &f : findings) {
    ++counts[f.check];
    out << (inGraph(f) ? s.graph : s.candidate) << ": "
        << (f.pointer.empty() ? "" : f.pointer + ": ") << spelling(f.check) << ": " << f.sentence
        << "\n";
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

} // namespace lo::report
