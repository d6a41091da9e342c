#include "tools/suite/judge.hpp"

#include "checks/acceptance_result.hpp"
#include "checks/checks.hpp"
#include "checks/gate_result.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/gate.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/gate_reader.hpp"
#include "ref/io/reader.hpp"
#include "ref/lowering.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/locate.hpp"
#include "tools/system/files.hpp"

namespace lo::suite {

namespace {

using io::shownText;
using report::SuiteEntry;

/// An output the reader refused: an error entry with the excerpt of what the reader says.
void readerError(const io::InputError &e, std::string prefix, SuiteEntry &entry) {
  entry.result.error =
      report::ReportError{entry.result.subject.candidate, e.line(), e.column(),
                          shownText(e.pointer(), io::kMaxExcerptBytes),
                          std::move(prefix) + shownText(e.message(), io::kMaxExcerptBytes)};
}

/// A gate or acceptance entry's finding, if any: an exit status that contradicts the result's
/// verdict `accepted` is one, whatever the result says (as diff's), else the comparison's first
/// difference `c`; one violation of the check `gate` at its pointer.
void gateFinding(checks::GateComparison c, bool accepted, int exitCode, const io::Source &source,
                 SuiteEntry &entry) {
  if (std::string contradiction = checks::exitContradiction(exitCode, accepted);
      !contradiction.empty())
    c = {checks::GateDifference::none, std::move(contradiction), "/verdict"};
  else if (c.difference == checks::GateDifference::none)
    return; // conforms: no violation
  checks::Violation v;
  v.check = Check::gate;
  v.pointer = c.pointer;
  v.message = c.words;
  entry.result.report.violations.push_back(std::move(v));
  entry.positions.push_back(
      report::locate(source.text, c.pointer).value_or(std::pair<std::size_t, std::size_t>{}));
}

/// A result (a gate or an acceptance result) that `read` reads from the entry's output and
/// `compare` compares with the reference's: its finding, if any (gateFinding); an output the reader
/// refuses is an error entry, its message after `prefix`.
template <class Read, class Compare>
void judgeResult(Read &&read, std::string prefix, Compare &&compare, int exitCode,
                 const io::Source &source, SuiteEntry &entry) {
  decltype(read()) actual;
  try {
    actual = read();
  } catch (const io::InputError &e) {
    readerError(e, std::move(prefix), entry);
    return;
  }
  gateFinding(compare(actual), actual.accepted, exitCode, source, entry);
}

/// A gate entry: the implementation's gate result against the reference gate of the plan's
/// lowering under the entry's mode and equality, as sets of reports per kind (docs/spec.md §6.7:
/// every lowering of the plan under contract has this gate up to multiplicities). A difference is
/// one violation of the check `gate` at the pointer where the result differs.
void judgeGate(Interner &interner, const GraphExecutionPlan &plan, const SuiteManifest::Entry &m,
               const io::Source &source, Edition edition, int exitCode, SuiteEntry &entry) {
  const AssurancePolicy policy = m.gatePolicy; // a preset's, or the entry's custom booleans
  const GraphLoweringPlan lowering = lower(interner, plan, m.mode, m.equality);
  judgeResult([&] { return io::readGateResult(source, edition); }, "not a gate result: ",
              [&](const io::ReadGateResult &actual) {
                entry.result.subject.groups = lowering.groups.size();
                return checks::compareGateResult(
                    m.policy, policy, gate(interner, policy, lowering),
                    obligationReports(interner, audit(interner, lowering)), actual,
                    /*exact=*/false);
              },
              exitCode, source, entry);
}

/// An acceptance entry (docs/spec.md §6.10): the implementation's acceptance result against the
/// reference's under the entry's maintained profile. A difference is one violation of the check
/// `gate` at the pointer where the result differs.
void judgeAcceptance(Interner &interner, const GraphExecutionPlan &plan,
                     const SuiteManifest::Entry &m, const io::Source &source, Edition edition,
                     int exitCode, SuiteEntry &entry) {
  const acceptance::MaintainedProfile *profile = acceptance::findProfile(edition, m.policy);
  if (!profile) { // the suite's reader checks every entry's profile against its edition
    entry.result.error =
        report::ReportError{entry.result.subject.candidate, 0, 0, "",
                            "profile " + shownText(m.policy) + " is not one of edition " +
                                std::string(spelling(edition)) + "'s"};
    return;
  }
  judgeResult([&] { return io::readAcceptanceResult(source, edition); },
              "not an acceptance result: ",
              [&](const io::ReadAcceptanceResult &actual) {
                const acceptance::GraphAcceptance expected =
                    acceptance::acceptGraphKernelPlan(interner, plan, profile->policy);
                entry.result.subject.groups = expected.groups.groups.size();
                return checks::compareAcceptanceResult(interner, profile->name, profile->policy,
                                                       expected, actual);
              },
              exitCode, source, entry);
}

/// A lowering entry: the checks of docs/spec.md §3 under the entry's mode and equality, never
/// those the output declares (a declaration that differs is a note of the report).
void judgeLowering(Interner &interner, const GraphExecutionPlan &plan,
                   const SuiteManifest::Entry &m, const io::Source &source,
                   const JudgeOptions &options, SuiteEntry &entry) {
  const io::LoweringDocument candidate = io::readLoweringPlan(source, interner, options.edition);
  checks::Options checking;
  checking.mode = m.mode;
  checking.equality = m.equality;
  checking.edition = options.edition;
  entry.result.subject.edition = options.edition;
  checking.maxPerCheck = options.maxPerCheck;
  checking.auditAsked = m.audit; // the entry asks for the audit: a missing one is a violation
  entry.result.report = checks::check(interner, plan, candidate, checking);
  entry.result.subject.groups = candidate.plan.groups.size();
  if (!options.picturePrefix.empty() &&
      !entry.result.report.conforms()) // verify's page draws failures
    entry.result.picture = report::htmlPicture(
        {&interner, &plan, &candidate, &entry.result.report, options.picturePrefix},
        checks::pictureFacts(interner, plan, &candidate, m.mode, m.equality));
  std::vector<std::string_view> pointers;
  for (const auto &v : entry.result.report.violations)
    pointers.push_back(v.pointer);
  for (const auto &at : report::locateAll(source.text, pointers)) // one pass over the output
    entry.positions.push_back(at.value_or(std::pair<std::size_t, std::size_t>{}));
}

} // namespace

std::string outputName(const std::string &pattern, const SuiteManifest::Entry &e) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    const auto replace = [&](std::string_view placeholder, std::string_view value) {
      if (pattern.compare(i, placeholder.size(), placeholder) != 0)
        return false;
      out += value;
      i += placeholder.size();
      return true;
    };
    if (!replace("{case}", e.caseName) && !replace("{mode}", spelling(e.mode)) &&
        !replace("{equality}", spelling(e.equality)) && !replace("{policy}", e.policy))
      out += pattern[i++];
  }
  return out;
}

namespace {

/// The fields every entry has, whatever its output.
SuiteEntry entryOf(const GraphExecutionPlan &plan, const SuiteManifest::Entry &m,
                   const std::string &name) {
  SuiteEntry entry;
  entry.result.name = m.caseName;
  entry.result.subject.mode = m.mode;
  entry.result.subject.equality = m.equality;
  entry.policy = m.policy;
  entry.result.subject.plan = m.plan;
  entry.result.subject.nodes = plan.kernels.size();
  entry.result.subject.candidate = name;
  return entry;
}

} // namespace

SuiteEntry unjudgedEntry(const GraphExecutionPlan &plan, const SuiteManifest::Entry &m,
                         const std::string &name, std::string error) {
  SuiteEntry entry = entryOf(plan, m, name);
  entry.result.error = report::ReportError{name, 0, 0, "", std::move(error)};
  return entry;
}

namespace {

/// What a report keeps of a judged entry until every entry is judged: each finding's texts only
/// as far as a report shows them (shownText cuts at kMaxShownBytes, so a prefix a character past
/// that is written as the whole text is), never the whole of what an implementation wrote (a
/// 1 MiB capsule name quoted by each finding). Their positions were found before (judgeLowering).
void keepShown(SuiteEntry &entry) {
  for (checks::Violation &v : entry.result.report.violations)
    for (std::string *text : {&v.pointer, &v.message, &v.field, &v.expected, &v.actual})
      cutToShown(*text);
  for (std::string &note : entry.result.report.notes)
    cutToShown(note);
}

} // namespace

void cutToShown(std::string &text) {
  if (text.size() > io::kMaxShownBytes + 4)
    text = std::string(io::utf8Prefix(text, io::kMaxShownBytes + 4));
}

std::string unreadOutput(const system::BoundedRead &read, const std::filesystem::path &file) {
  using Status = system::BoundedRead::Status;
  return read.status == Status::missing ? "no output: " + file.string() + " does not exist"
         : read.status == Status::tooLarge
             ? "output not judged: " + file.string() + " " + read.why + " (--max-file-bytes)"
             : "no output: " + file.string() + " " + read.why;
}

SuiteEntry judgeOutputText(Interner &interner, const GraphExecutionPlan &plan,
                           const SuiteManifest::Entry &m, const std::string &name,
                           const std::string &path, std::string text, const JudgeOptions &options) {
  SuiteEntry entry = entryOf(plan, m, name);
  try {
    const io::Source source = io::sourceFromString(path, text);
    text = std::string(); // one copy of the output at a time
    if (m.acceptance)
      judgeAcceptance(interner, plan, m, source, options.edition, options.exitCode, entry);
    else if (!m.policy.empty())
      judgeGate(interner, plan, m, source, options.edition, options.exitCode, entry);
    else
      judgeLowering(interner, plan, m, source, options, entry);
  } catch (const io::InputError &e) {
    readerError(e, "", entry); // the message may quote the output
  }
  keepShown(entry);
  return entry;
}

SuiteEntry judgeEntry(Interner &interner, const GraphExecutionPlan &plan,
                      const SuiteManifest::Entry &m, const std::filesystem::path &outputs,
                      const std::string &name, const JudgeOptions &options) {
  const std::filesystem::path outputFile = outputs / name;
  // The output is read as `diff` reads `{out}` (system::readInside): a regular file inside
  // OUTPUTS of at most --max-file-bytes; a FIFO, a device or a symbolic link out of OUTPUTS is
  // an error entry, never opened for a blocking read (docs/spec.md §4.3).
  system::BoundedRead read = system::readInside(outputs, name, options.maxFileBytes);
  if (read.status != system::BoundedRead::Status::ok)
    return unjudgedEntry(plan, m, name, unreadOutput(read, outputFile));
  return judgeOutputText(interner, plan, m, name, outputFile.string(), std::move(read.text),
                         options);
}

} // namespace lo::suite
