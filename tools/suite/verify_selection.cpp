// `verify --selection` (docs/spec.md §4.3, "Selection entries"): each selection entry's candidate
// GraphExecutionPlan (or the planner's answer that selection fails) judged by the selection checks
// (checks/selection.hpp, docs/spec.md §10.8) against the entry's graph and profile, the bytes the
// suite was verified with.
#include "checks/selection.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/reader.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/locate.hpp"
#include "tools/report/selection_report.hpp"
#include "tools/suite/judge.hpp"
#include "tools/suite/outputs.hpp"
#include "tools/suite/verify.hpp"
#include "tools/system/bounded_read.hpp"
#include "tools/system/files.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace lo::suite {

namespace {

namespace fs = std::filesystem;
using io::shownText;

/// What the entry's planner answered: a plan's text, or its refusal, or no answer (`error`).
struct Answer {
  std::optional<std::string> text, refusal, error;
};

/// An output read from OUTPUTS, as every output is read: the plan at `name`, or, when it is absent,
/// the refusal at `name`.error (its first line).
Answer readAnswer(const fs::path &outputs, const std::string &name, std::size_t maxFileBytes) {
  using Status = system::BoundedRead::Status;
  Answer a;
  system::BoundedRead read = system::readInside(outputs, name, maxFileBytes);
  if (read.status == Status::ok) {
    a.text = std::move(read.text);
  } else if (read.status != Status::missing) {
    a.error = unreadOutput(read, outputs / name);
  } else if (system::BoundedRead refusal =
                 system::readInside(outputs, name + ".error", maxFileBytes);
             refusal.status == Status::ok) {
    a.refusal = refusal.text.substr(0, refusal.text.find('\n'));
  } else {
    a.error = unreadOutput(read, outputs / name) + " (nor " + name + ".error, a refusal)";
  }
  return a;
}

/// What verify keeps of an entry: its texts as far as a report shows them (cutToShown).
void keepShown(report::SelectionSuiteEntry &e) {
  for (checks::Finding &f : e.findings) {
    cutToShown(f.pointer);
    cutToShown(f.sentence);
  }
  if (e.error)
    cutToShown(*e.error);
}

} // namespace

report::SelectionSuiteReport runVerifySelection(const VerifySettings &s) {
  using Clock = std::chrono::steady_clock;
  VerifiedSuite verified = startRun(s);
  const Edition edition = verified.edition;
  const fs::path suite(s.suite), outputs(s.outputs);

  report::SelectionSuiteReport report;
  static_cast<report::SuiteHeader &>(report) = headerOf(s, verified);
  report.entries.reserve(verified.read.entries.size());
  std::size_t index = 0;
  // Failing entries are drawn while their pictures fit in the page (docs/spec.md §3.5).
  report::PictureBudget pictures(s.pictures || s.format == report::ReportFormat::html);
  for (const SuiteManifest::Entry &m : verified.read.entries) {
    const auto start = Clock::now();
    const std::string name = outputNameInside(s.selectionPattern, m);
    const std::string graphFile = (suite / m.graph).string(),
                      profileFile = (suite / m.profile).string();
    const std::string &graphText = suiteFileText(verified, m.graph, s.maxFileBytes);
    const std::string &profileText = suiteFileText(verified, m.profile, s.maxFileBytes);
    Interner interner;
    selection::Graph graph;
    selection::BackendProfile profile;
    try {
      graph = io::readGraph(io::sourceFromString(graphFile, graphText), interner, edition);
      profile = io::readProfile(io::sourceFromString(profileFile, profileText), edition);
    } catch (const io::InputError &e) {
      throw SuiteError("the suite's selection case is invalid: " + io::formatError(e));
    }
    report::SelectionSuiteEntry entry;
    entry.caseName = m.caseName;
    entry.output = (outputs / name).string();
    entry.graph = graphFile;
    entry.profileFile = profileFile;
    entry.profile = profile.name;

    Answer answer;
    if (!s.producer) {
      answer = readAnswer(outputs, name, s.maxFileBytes);
    } else if (!resolvesInside(outputs, name)) {
      answer.error = linkLeavesOutputs(outputs / name);
    } else {
      ProduceRequest q{&m, index, {}, graphText, profileText, outputs / name, edition};
      ProducedOutput produced = s.producer(q);
      if (!produced.ok)
        answer.error = std::move(produced.error);
      else if (produced.refused)
        answer.refusal = std::move(produced.message);
      else
        answer.text = std::move(produced.text);
    }
    if (answer.error) {
      entry.error = std::move(answer.error);
    } else {
      GraphExecutionPlan candidate;
      bool judged = true;
      if (answer.text) {
        try {
          candidate = io::readExecutionPlan(io::sourceFromString(entry.output, *answer.text),
                                            interner, edition);
        } catch (const io::InputError &e) {
          entry.error = "not a GraphExecutionPlan: " + io::formatError(e);
          judged = false;
        }
      }
      if (judged) {
        // At most --max-per-check of each check, the rest counted (docs/spec.md §3.5).
        std::map<Departure, std::size_t> kept;
        for (checks::Finding &f :
             checks::judgeSelection(profile, graph, interner, candidate, answer.refusal)) {
          if (++kept[f.check] > s.maxPerCheck)
            ++entry.omitted;
          else
            entry.findings.push_back(std::move(f));
        }
        for (const checks::Finding &f : entry.findings) {
          const std::string_view text = report::inGraph(f) ? std::string_view(graphText)
                                        : answer.text      ? std::string_view(*answer.text)
                                                           : std::string_view();
          entry.positions.push_back(text.empty()
                                        ? std::pair<std::size_t, std::size_t>{}
                                        : report::locate(text, f.pointer)
                                              .value_or(std::pair<std::size_t, std::size_t>{}));
        }
        if (pictures.drawing() && !entry.findings.empty()) {
          entry.picture = io::writtenText([&](io::Sink &out) {
            report::writeSelectionPicture(
                out, {shownText(graphFile), shownText(entry.output), shownText(profile.name)},
                edition, {graph, profile, interner, candidate, answer.refusal}, entry.findings);
          });
          pictures.admit(entry.picture);
        }
      }
    }
    keepShown(entry);
    entry.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.entries.push_back(std::move(entry));
    ++index;
  }
  return report;
}

} // namespace lo::suite
