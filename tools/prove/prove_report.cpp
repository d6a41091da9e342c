#include "tools/prove/prove_report.hpp"

#include "ref/io/escape.hpp"
#include "tools/report/report.hpp"

#include <algorithm>

namespace lo::prove {

namespace {

std::string lengths(const proofs::Result &r) {
  return r.everyLength ? "all" : std::to_string(r.length);
}

/// The solver line of a report: which binary decided, and whether it is the documented one.
void writeSolverText(io::Sink &out, const std::optional<system::SolverBinary> &solver) {
  if (!solver)
    return;
  out << "solver: " << solver->name << ' ' << io::shownText(solver->path) << ", version "
      << io::shownText(solver->version)
      << ", self-test passed, every answer cross-checked with Z3\n";
  if (!solver->warning.empty())
    out << "warning: " << solver->warning << '\n';
}

/// The width of the obligation column: 29, or wider for a longer name.
std::size_t nameWidth() {
  std::size_t w = 29;
  for (const proofs::Obligation &o : proofs::obligations())
    w = std::max(w, o.name.size() + 1);
  return w;
}

} // namespace

void writeProveText(io::Sink &out, const std::vector<proofs::Result> &results,
                    const proofs::Options &options,
                    const std::optional<system::SolverBinary> &solver) {
  writeSolverText(out, solver);
  out << "edition: " << spelling(options.edition) << '\n';
  std::string header = "obligation";
  header.resize(nameWidth(), ' ');
  out << header << "status   bound  seconds\n";
  for (const auto &r : results) {
    std::string line = r.name;
    line.resize(std::max(line.size() + 1, nameWidth()), ' ');
    std::string status(proofs::spelling(r.status));
    status.resize(9, ' ');
    std::string bound = lengths(r);
    bound.resize(std::max<std::size_t>(bound.size() + 1, 7), ' ');
    out << line << status << bound << report::secondsText(r.seconds);
    if (!r.reason.empty())
      out << "  (" << r.reason << ")";
    out << '\n';
  }
}

void writeProveJson(io::Sink &out, const std::vector<proofs::Result> &results,
                    const proofs::Options &options,
                    const std::optional<system::SolverBinary> &solver) {
  out << "{\n  \"format\": \"lowering-oracle/proofs\",\n  \"version\": 1,\n  \"edition\": \""
      << spelling(options.edition) << "\",\n  \"equality\": \"" << spelling(options.equality)
      << "\",\n  \"bound\": " << std::uint64_t{options.bound}
      << ",\n  \"timeoutMs\": " << std::uint64_t{options.timeoutMs} << ",\n  \"solver\": ";
  if (solver) {
    out << "{\"name\":";
    out.jsonString(solver->name);
    out << ",\"path\":";
    out.jsonString(io::shownText(solver->path));
    out << ",\"version\":";
    out.jsonString(io::shownText(solver->version));
    out << ",\"documentedVersion\":";
    out.jsonString(system::kDocumentedCvc5Version);
    out << ",\"selfTest\":\"passed\",\"crossCheck\":\"z3\",\"warning\":";
    if (solver->warning.empty())
      out << "null";
    else
      out.jsonString(solver->warning);
    out << '}';
  } else {
    out << "{\"name\":\"z3\",\"inProcess\":true}";
  }
  out << ",\n  \"obligations\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto &r = results[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\":";
    out.jsonString(r.name);
    out << ",\"status\":\"" << proofs::spelling(r.status) << "\",\"bound\":";
    if (r.everyLength)
      out << "\"all\"";
    else
      out << std::uint64_t{r.length};
    out << ",\"seconds\":" << report::secondsText(r.seconds);
    if (!r.reason.empty()) {
      out << ",\"reason\":";
      out.jsonString(r.reason);
    }
    out << '}';
  }
  out << "\n  ]\n}\n";
}

} // namespace lo::prove
