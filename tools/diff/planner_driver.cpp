#include "tools/diff/planner_driver.hpp"

#include "ref/io/output.hpp"
#include "tools/system/command_line.hpp"

namespace lo::diff {

PlannerDriver::PlannerDriver(const DiffSettings &s) : s_(s) {
  if (s.plannerWorker.empty()) {
    template_ = system::splitCommand(s.planner);
    toStdout_ = s.planner.find("{out}") == std::string::npos;
  } else {
    worker_.emplace(s, s.plannerWorker, "a GraphExecutionPlan", true);
  }
}

Produced PlannerDriver::produce(const std::filesystem::path &graphPath,
                                const std::filesystem::path &profilePath,
                                const std::filesystem::path &outPath, std::string_view graphText,
                                std::string_view profileText, Edition edition,
                                std::size_t caseIndex, system::Clock::time_point deadline) {
  ++runs_;
  if (!worker_) {
    const auto argv = system::substitute(template_, {{"graph", graphPath.string()},
                                                     {"profile", profilePath.string()},
                                                     {"out", outPath.string()}});
    return runCase(
        argv, s_, deadline, toStdout_, outPath,
        [](int code) { return code == 2 ? ExitMeans::answer : ExitMeans::failure; }, "the planner");
  }
  // One request after its id: the case's files, and their texts as JSON strings.
  std::string fields;
  io::Sink sink(fields);
  sink << "\"edition\":\"" << spelling(edition) << "\",\"case\":" << std::uint64_t{caseIndex}
       << ",\"graph\":";
  sink.jsonString(graphPath.string());
  sink << ",\"profile\":";
  sink.jsonString(profilePath.string());
  sink << ",\"out\":";
  sink.jsonString(outPath.string());
  sink << ",\"graphText\":";
  sink.jsonString(graphText);
  sink << ",\"profileText\":";
  sink.jsonString(profileText);
  sink.flush();
  return worker_->exchange(fields, outPath, deadline);
}

std::string PlannerDriver::refusal(const Produced &p) const {
  if (worker_)
    return p.message.empty() ? "the planner answered error" : p.message;
  const std::string line = p.standardError.substr(0, p.standardError.find('\n'));
  return line.empty() ? "the planner exited with status 2" : line;
}

std::size_t PlannerDriver::starts() const { return worker_ ? worker_->starts() : runs_; }

} // namespace lo::diff
