// lowering_oracle._native: the libraries of ref/, checks/ and tools/report/ for Python
// (docs/python.md). Every function takes the documents' JSON text and returns JSON text or a
// report: the Python package (lowering_oracle/__init__.py) turns dicts into text and text into
// dicts. No second implementation: the reading, the lowering, the audit, the gate and the checks
// are the ones the command line runs (docs/spec.md §1 to §6), and the GIL is released while they
// work. An input error is lowering_oracle.errors.InvalidInput, with the position and JSON pointer
// of docs/spec.md §4.5.
#include "checks/checks.hpp"
#include "checks/picture_facts.hpp"
#include "checks/selection.hpp"
#include "ref/acceptance.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/audit.hpp"
#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/io/acceptance_writer.hpp"
#include "ref/io/error.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/graph_writer.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/output.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/source.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "ref/opkind.hpp"
#include "ref/profile.hpp"
#include "ref/vocab.hpp"
#include "tools/plans/capsules.hpp"
#include "tools/plans/kinds.hpp"
#include "tools/plans/selection_cases.hpp"
#include "tools/plans/spelling.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/report.hpp"
#include "tools/suite/judge.hpp"
#include "tools/suite/verify.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace lo::python {
namespace {

/// A spelling of vocabulary E (docs/spec.md §1.5), or ValueError naming the choices.
template <class E> E parsed(const std::string &text, const char *what) {
  if (auto v = parseSpelling<E>(text))
    return *v;
  std::string choices;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i)
    choices += (i ? ", " : "") + std::string(spelling(static_cast<E>(i)));
  throw py::value_error(std::string(what) + " " + text + " is not one of " + choices);
}

/// The edition judged: the caller's, else the newest (docs/spec.md §1.6); never a file's.
Edition editionOf(const std::optional<std::string> &e) {
  return e ? parsed<Edition>(*e, "edition") : kNewestEdition;
}

/// The edition of selection: the caller's, else the maintained profiles' (docs/spec.md §10.5).
Edition selectionEditionOf(const std::optional<std::string> &e) {
  return e ? parsed<Edition>(*e, "edition") : selection::kMaintainedEdition;
}

/// The lowering judged, as the caller spells it (docs/spec.md §1.5): the mode, the equality and
/// the edition (ValueError for another spelling).
struct Judged {
  Mode mode;
  Equality equality;
  Edition edition;
};
Judged judgedAs(const std::string &mode, const std::string &equality,
                const std::optional<std::string> &edition) {
  return {parsed<Mode>(mode, "mode"), parsed<Equality>(equality, "equality"), editionOf(edition)};
}

/// The lowering of a GraphExecutionPlan (under `mode` and `equality`), or a GraphLoweringPlan's
/// groups as written: as `audit` and `gate` read FILE (docs/spec.md §4.3).
GraphLoweringPlan loweringOf(Interner &interner, const io::Source &source, Edition edition,
                             Mode mode, Equality equality) {
  if (io::detectDocumentKind(source) == io::DocumentKind::executionPlan)
    return lower(interner, io::readExecutionPlan(source, interner, edition), mode, equality);
  return io::readLoweringPlan(source, interner, edition).plan;
}

std::string lowerText(const std::string &text, const std::string &name, const std::string &mode,
                      const std::string &equality, const std::optional<std::string> &edition,
                      bool withAudit) {
  const Judged j = judgedAs(mode, equality, edition);
  py::gil_scoped_release released;
  Interner interner;
  const GraphLoweringPlan lowering =
      lower(interner, io::readExecutionPlan(io::sourceFromString(name, text), interner, j.edition),
            j.mode, j.equality);
  std::optional<AuditDocument> doc;
  if (withAudit)
    doc = toDocument(interner, audit(interner, lowering));
  return io::writtenText([&](io::Sink &sink) {
    io::writeLoweringPlan(sink, interner, lowering, j.mode, j.equality, doc ? &*doc : nullptr,
                          j.edition);
  });
}

std::string auditText(const std::string &text, const std::string &name, const std::string &equality,
                      const std::optional<std::string> &edition) {
  const Judged j = judgedAs("coalesced", equality, edition);
  py::gil_scoped_release released;
  Interner interner;
  ExecutionAudit a = audit(interner, loweringOf(interner, io::sourceFromString(name, text),
                                                j.edition, j.mode, j.equality));
  return io::writtenText([&](io::Sink &sink) {
    io::writeAudit(sink, interner, toDocument(interner, std::move(a)), "", j.edition);
  });
}

/// check()'s (or check_plan()'s) candidate cannot be read: InvalidInput with `document` "candidate"
/// (docs/python.md).
struct CandidateError : io::InputError {
  explicit CandidateError(const io::InputError &e) : io::InputError(e) {}
};

/// The profile of `plan` and `check_plan` (docs/spec.md §10.5-§10.6): a maintained profile by
/// name (ValueError for another name) or a profile document, its modules replaced by a registry
/// document's.
selection::BackendProfile profileOf(const std::optional<std::string> &profile,
                                    const std::optional<std::string> &profileDocument,
                                    const std::optional<std::string> &registry, Edition e) {
  selection::BackendProfile p;
  if (profileDocument) {
    p = io::readProfile(io::sourceFromString("<profile>", *profileDocument), e,
                        registry.has_value());
  } else {
    const std::string n = profile.value_or(std::string(acceptance::kDefaultProfile));
    if (!selection::hasMaintainedData(e))
      throw py::value_error("profile " + n + ": " + selection::noMaintainedData(e));
    auto known = selection::maintainedProfile(n);
    if (!known)
      throw py::value_error("profile " + n + " is not one of " +
                            selection::maintainedProfileList());
    p = std::move(*known);
  }
  if (registry)
    p.capsuleModules = io::readRegistry(io::sourceFromString("<registry>", *registry), e);
  return p;
}

/// Selection's inputs read (docs/spec.md §10.5-§10.6): the edition and the profile with the GIL
/// held (their errors are ValueError), then the graph without it; `then(e, p, g, interner)`.
template <class Then>
auto onGraph(const std::string &graph, const std::string &name,
             const std::optional<std::string> &profile,
             const std::optional<std::string> &profileDocument,
             const std::optional<std::string> &registry, const std::optional<std::string> &edition,
             Then &&then) {
  const Edition e = selectionEditionOf(edition);
  const selection::BackendProfile p = profileOf(profile, profileDocument, registry, e);
  py::gil_scoped_release released;
  Interner interner;
  const selection::Graph g = io::readGraph(io::sourceFromString(name, graph), interner, e);
  return then(e, p, g, interner);
}

/// Selection (docs/spec.md §10): the GraphExecutionPlan `plan` writes for a torchlean.ir.v1
/// graph; (false, upstream's error) where `plan` exits 2 with it.
std::pair<bool, std::string> planText(const std::string &graph, const std::string &name,
                                      const std::optional<std::string> &profile,
                                      const std::optional<std::string> &profileDocument,
                                      const std::optional<std::string> &registry,
                                      const std::optional<std::string> &edition) {
  return onGraph(graph, name, profile, profileDocument, registry, edition,
                 [](Edition e, const selection::BackendProfile &p, const selection::Graph &g,
                    Interner &interner) -> std::pair<bool, std::string> {
                   auto planned = selection::planExecution(p, g, interner);
                   if (auto *error = std::get_if<std::string>(&planned))
                     return {false, *error};
                   return {true, io::writtenText([&](io::Sink &sink) {
                             io::writeExecutionPlan(sink, interner,
                                                    std::get<GraphExecutionPlan>(planned), e);
                           })};
                 });
}

/// `check-plan` (docs/spec.md §10.8): each departure of a candidate GraphExecutionPlan (or of an
/// implementation's failure, `failed`) as (check, document, pointer, sentence).
std::vector<std::tuple<std::string, std::string, std::string, std::string>>
checkPlanTexts(const std::string &graph, const std::string &graphName,
               const std::optional<std::string> &candidate, const std::string &candidateName,
               const std::optional<std::string> &failed, const std::optional<std::string> &profile,
               const std::optional<std::string> &profileDocument,
               const std::optional<std::string> &registry,
               const std::optional<std::string> &edition) {
  return onGraph(graph, graphName, profile, profileDocument, registry, edition,
                 [&](Edition e, const selection::BackendProfile &p, const selection::Graph &g,
                     Interner &interner) {
                   GraphExecutionPlan plan;
                   if (candidate) {
                     try {
                       plan = io::readExecutionPlan(io::sourceFromString(candidateName, *candidate),
                                                    interner, e);
                     } catch (const io::InputError &error) {
                       throw CandidateError(error);
                     }
                   }
                   std::vector<std::tuple<std::string, std::string, std::string, std::string>> out;
                   for (const checks::Finding &f : checks::judgeSelection(
                            p, g, interner, plan, candidate ? std::nullopt : failed))
                     out.emplace_back(std::string(spelling(f.check)),
                                      f.check == Departure::missingNode ? "graph" : "candidate",
                                      f.pointer, f.sentence);
                   return out;
                 });
}

/// A preset (docs/spec.md §6.2) with some of its six booleans overridden, or ValueError naming the
/// choices.
AssurancePolicy policyOf(const std::string &preset, const std::map<std::string, bool> &overrides) {
  std::optional<AssurancePolicy> policy = policyPreset(preset);
  if (!policy)
    throw py::value_error("policy " + preset + " is not one of " + policyNames(false));
  for (const auto &[flag, value] : overrides) {
    bool known = false;
    for (const PolicyFlag &f : kPolicyFlags)
      if (f.name == flag) {
        (*policy).*f.field = value;
        known = true;
      }
    if (!known) {
      std::string names;
      for (const PolicyFlag &f : kPolicyFlags)
        names += (names.empty() ? "" : ", ") + std::string(f.name);
      throw py::value_error("policy field " + flag + " is not one of " + names);
    }
  }
  return *policy;
}

/// The gate (docs/spec.md §6.4) under a preset with some of its six booleans overridden: whether it
/// accepts, and the nn-backend/gate-result document `gate --format json` writes.
std::pair<bool, std::string> gateText(const std::string &text, const std::string &name,
                                      const std::string &preset,
                                      const std::map<std::string, bool> &overrides,
                                      const std::string &mode, const std::string &equality,
                                      const std::optional<std::string> &edition) {
  const AssurancePolicy policy = policyOf(preset, overrides);
  const Judged j = judgedAs(mode, equality, edition);
  py::gil_scoped_release released;
  Interner interner;
  const ExecutionAudit rows = audit(interner, loweringOf(interner, io::sourceFromString(name, text),
                                                         j.edition, j.mode, j.equality));
  bool accepted = false;
  std::string out = io::writtenText(
      [&](io::Sink &sink) { accepted = io::writeBoundedGate(sink, interner, policy, rows, true); });
  return {accepted, std::move(out)};
}

/// The acceptance gate of an edition that has it (docs/spec.md §6.10): a maintained profile
/// (default checked_cpu) with some of its fields overridden (`device`, `provider`, `vjpMode`:
/// spellings; `allowTrustedExternal`: a bool), as `gate --profile ... --format json` judges.
std::pair<bool, std::string> acceptanceGateText(const std::string &text, const std::string &name,
                                                const std::optional<std::string> &profileName,
                                                const std::map<std::string, std::string> &fields,
                                                std::optional<bool> allowTrustedExternal,
                                                const std::optional<std::string> &edition) {
  const Edition e = editionOf(edition);
  if (!acceptance::hasAcceptanceGate(e))
    throw py::value_error("edition " + std::string(spelling(e)) +
                          " has the evidence gate: give a preset, not a profile");
  const std::string wanted = profileName.value_or(std::string(acceptance::kDefaultProfile));
  const acceptance::MaintainedProfile *profile = acceptance::findProfile(e, wanted);
  if (!profile)
    throw py::value_error("profile " + wanted + " is not one of " + acceptance::profileNames(e));
  acceptance::KernelPolicy policy = profile->policy;
  for (const auto &[field, value] : fields) {
    if (field == "device")
      policy.device = parsed<Device>(value, "device");
    else if (field == "vjpMode")
      policy.vjpMode = parsed<VJPMode>(value, "VJP mode");
    else if (field == "provider") {
      const auto p = acceptance::parsePreference(value);
      if (!p || !inEdition(p->provider, e))
        throw py::value_error("provider " + value +
                              " is not auto, prefer:P or only:P with P a "
                              "provider of edition " +
                              std::string(spelling(e)));
      policy.provider = *p;
    } else
      throw py::value_error("policy field " + field +
                            " is not one of profile, device, provider, vjpMode, "
                            "allowTrustedExternal");
  }
  if (allowTrustedExternal)
    policy.assurance.allowTrustedExternal = *allowTrustedExternal;
  const std::string_view shown =
      profile->policy == policy ? profile->name : acceptance::profileName(e, policy);
  py::gil_scoped_release released;
  Interner interner;
  const GraphLoweringPlan groups = loweringOf(interner, io::sourceFromString(name, text), e,
                                              Mode::coalesced, Equality::contract);
  bool accepted = false;
  std::string out = io::writtenText([&](io::Sink &sink) {
    accepted = io::writeAcceptance(sink, interner, shown, policy, groups, true);
  });
  return {accepted, std::move(out)};
}

/// Each violation: check, group, node id, pointer, sentence, field, expected, actual.
std::vector<py::tuple> findingsOf(const checks::Report &report) {
  std::vector<py::tuple> out;
  for (const checks::Violation &v : report.violations)
    out.push_back(py::make_tuple(std::string(spelling(v.check)),
                                 v.group ? py::cast(*v.group) : py::none(),
                                 v.nodeId ? py::cast(*v.nodeId) : py::none(), v.pointer, v.message,
                                 v.field, v.expected, v.actual));
  return out;
}

/// One `check` (docs/spec.md §3): the documents, the report, and what its formats need.
class CheckRun {
public:
  CheckRun(const std::string &planText, const std::string &candidateText,
           const std::string &planName, const std::string &candidateName, Mode mode,
           Equality equality, Edition edition, std::size_t maxPerCheck, bool auditAsked)
      : planSource_(io::sourceFromString(planName, planText)),
        candidateSource_(io::sourceFromString(candidateName, candidateText)) {
    options_.mode = mode;
    options_.equality = equality;
    options_.edition = edition;
    options_.maxPerCheck = maxPerCheck;
    options_.auditAsked = auditAsked;
    bool candidateAsked = false; // the plan is read: an error now is the candidate's
    checks::CheckedDocuments read = [&] {
      try {
        return checks::checkDocuments(
            interner_, planSource_,
            [&]() -> const io::Source & {
              candidateAsked = true;
              return candidateSource_;
            },
            options_);
      } catch (const io::InputError &e) {
        if (candidateAsked)
          throw CandidateError(e);
        throw;
      }
    }();
    plan_ = std::move(read.plan);
    candidate_ = std::move(read.candidate);
    result_.report = std::move(read.report);
    result_.subject = {planName,
                       candidateName,
                       mode,
                       equality,
                       candidate_.plan.groups.size(),
                       plan_.kernels.size(),
                       edition};
    result_.candidateText = candidateSource_.text;
  }

  bool conforms() const { return result_.report.conforms(); }

  std::vector<py::tuple> findings() const { return findingsOf(result_.report); }

  std::vector<std::pair<std::string, std::size_t>> omitted() const {
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const auto &[c, n] : result_.report.omitted)
      out.emplace_back(std::string(spelling(c)), n);
    return out;
  }

  const std::vector<std::string> &notes() const { return result_.report.notes; }

  /// The report in `format`, as `check --format FORMAT` writes it.
  std::string report(const std::string &format) {
    const report::ReportFormat f = reportFormat(format);
    py::gil_scoped_release released;
    report::CaseResult result = result_;
    if (f == report::ReportFormat::html)
      result.picture = report::htmlPicture(
          {&interner_, &plan_, &candidate_, &result.report, "c0-"},
          checks::pictureFacts(interner_, plan_, &candidate_, options_.mode, options_.equality));
    return io::writtenText([&](io::Sink &sink) { report::writeReports(sink, f, {result}); });
  }

private:
  static report::ReportFormat reportFormat(const std::string &format) {
    std::string names;
    for (const auto &[name, f] : report::kReportFormats) {
      if (format == name)
        return f;
      names += (names.empty() ? "" : ", ") + std::string(name);
    }
    throw py::value_error("format " + format + " is not one of " + names);
  }

  io::Source planSource_, candidateSource_;
  Interner interner_;
  checks::Options options_;
  GraphExecutionPlan plan_;
  io::LoweringDocument candidate_;
  report::CaseResult result_;
};

std::unique_ptr<CheckRun> checkTexts(const std::string &plan, const std::string &candidate,
                                     const std::string &planName, const std::string &candidateName,
                                     const std::string &mode, const std::string &equality,
                                     const std::optional<std::string> &edition,
                                     std::size_t maxPerCheck, bool auditAsked) {
  const Judged j = judgedAs(mode, equality, edition);
  py::gil_scoped_release released;
  return std::make_unique<CheckRun>(plan, candidate, planName, candidateName, j.mode, j.equality,
                                    j.edition, maxPerCheck, auditAsked);
}

/// A suite as `verify` takes it (tools/suite/verify.hpp, verifiedSuite: the one rule, docs/spec.md
/// §4.3): the edition judged, whether it was verified, its entries (case, mode, equality, audit,
/// the plan's path in the manifest; with `selection`, its selection entries: case, the graph's
/// and the profile's paths) and each of those files' bytes once, by that path. A refused suite is
/// a ValueError with verify's sentence.
py::tuple suiteOf(const std::string &suite, const std::optional<std::string> &edition,
                  std::optional<std::uint64_t> minCount, std::optional<std::uint64_t> expectCount,
                  std::optional<std::uint64_t> expectSeed,
                  std::optional<std::uint64_t> expectMaxNodes, bool unverifiedSuite,
                  std::optional<std::size_t> maxFileBytes, bool selection) {
  suite::VerifySettings s;
  s.suite = suite;
  s.selection = selection;
  if (edition)
    s.edition = parsed<Edition>(*edition, "edition");
  s.minCount = minCount;
  s.expectCount = expectCount;
  s.expectSeed = expectSeed;
  s.expectMaxNodes = expectMaxNodes;
  s.unverifiedSuite = unverifiedSuite;
  if (maxFileBytes)
    s.maxFileBytes = *maxFileBytes; // else verify's default
  std::optional<suite::VerifiedSuite> v;
  std::string refused;
  {
    py::gil_scoped_release released;
    try {
      v = suite::verifiedSuite(s, /*allPlans=*/true);
    } catch (const suite::SuiteError &e) {
      refused = e.what();
    }
  }
  if (!v)
    throw py::value_error(refused);
  py::list entries;
  for (const suite::SuiteManifest::Entry &m : v->read.entries)
    if (selection)
      entries.append(py::make_tuple(m.caseName, m.graph, m.profile));
    else
      entries.append(py::make_tuple(m.caseName, std::string(spelling(m.mode)),
                                    std::string(spelling(m.equality)), m.audit, m.plan));
  py::dict files;
  for (auto &[path, text] : v->files) {
    files[py::str(path)] = py::bytes(text);
    std::string().swap(text); // one copy of each file at a time
  }
  return py::make_tuple(std::string(spelling(v->edition)), v->read.provenance.has_value(), entries,
                        files);
}

/// Whether the edition has selection (docs/spec.md §10), for the plugin's selection entries.
bool hasSelectionIn(const std::string &edition) {
  return selection::hasSelection(parsed<Edition>(edition, "edition"));
}

/// A gate result judged as `verify --gates` judges a gate entry (tools/suite/judge.hpp): against
/// the reference gate of the plan's lowering under `mode`, `equality` and the policy (a preset's
/// name, or "custom" with the six booleans), with `exitCode` (-1: none) held to the result's
/// verdict. The findings as check() gives them, or the error line when the result is unreadable.
std::pair<std::vector<py::tuple>, std::optional<std::string>>
gateConforms(const std::string &planText, const std::string &resultText,
             const std::string &planName, const std::string &resultName, const std::string &preset,
             const std::map<std::string, bool> &overrides, const std::string &mode,
             const std::string &equality, const std::optional<std::string> &edition, int exitCode) {
  suite::SuiteManifest::Entry m;
  m.caseName = resultName;
  m.plan = planName;
  const Judged j = judgedAs(mode, equality, edition);
  m.mode = j.mode;
  m.equality = j.equality;
  if (acceptance::hasAcceptanceGate(j.edition)) {
    // An acceptance entry (docs/spec.md §6.10): `policy` is a maintained profile's name (empty:
    // the default profile).
    const std::string wanted = preset.empty() ? std::string(acceptance::kDefaultProfile) : preset;
    if (!acceptance::findProfile(j.edition, wanted))
      throw py::value_error("profile " + wanted + " is not one of " +
                            acceptance::profileNames(j.edition));
    if (!overrides.empty())
      throw py::value_error("the acceptance gate's result is judged under a maintained profile: "
                            "give its name");
    m.acceptance = true;
    m.policy = wanted;
  } else {
    m.policy = overrides.empty() ? preset : "custom";
    m.gatePolicy = policyOf(preset, overrides);
  }
  suite::JudgeOptions options;
  options.edition = j.edition;
  options.exitCode = exitCode;
  report::SuiteEntry entry;
  {
    py::gil_scoped_release released;
    Interner interner;
    const GraphExecutionPlan plan =
        io::readExecutionPlan(io::sourceFromString(planName, planText), interner, j.edition);
    entry = suite::judgeOutputText(interner, plan, m, resultName, resultName, resultText, options);
  }
  std::optional<std::string> error;
  if (entry.result.error)
    error = report::errorLine(*entry.result.error);
  return {findingsOf(entry.result.report), error};
}

/// Each value of vocabulary E with the editions that have it (docs/spec.md §1.5, §1.6).
template <class E> py::dict valuesWithEditions() {
  py::dict out;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i) {
    const auto value = static_cast<E>(i);
    py::list editions;
    for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e)
      if (inEdition(value, static_cast<Edition>(e)))
        editions.append(std::string(spelling(static_cast<Edition>(e))));
    out[py::str(std::string(spelling(value)))] = editions;
  }
  return out;
}

/// The editions of a set, by name.
py::list editionList(EditionSet set) {
  py::list out;
  for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e)
    if (set & editionBit(static_cast<Edition>(e)))
      out.append(std::string(spelling(static_cast<Edition>(e))));
  return out;
}

/// The fields of record `K` as data (ref/record.hpp), in order: each with its name, the editions
/// that have it and those that require it, its default (a vocabulary's spelling, a boolean or a
/// text; [] for an array, None for a record or an optional), the record it holds (or None), and
/// whether it is part of identity and of contract equality.
template <class K> py::list recordFields() {
  py::list out;
  const typename RecordTable<K>::Value defaults{};
  forEachField<K>([&](const auto &f, auto) {
    using T = std::remove_cvref_t<decltype(defaults.*f.member)>;
    py::dict d;
    d["name"] = std::string(f.name);
    d["editions"] = editionList(f.editions);
    d["required"] = editionList(f.requiredIn);
    if constexpr (std::is_enum_v<T>)
      d["default"] = std::string(spelling(defaults.*f.member));
    else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>)
      d["default"] = defaults.*f.member;
    else if constexpr (IsVector<T>::value)
      d["default"] = py::list();
    else
      d["default"] = py::none();
    if constexpr (Recorded<T>)
      d["record"] = std::string(RecordTable<T>::what);
    else if constexpr (IsVector<T>::value)
      d["record"] = std::string(RecordTable<typename T::value_type>::what);
    else
      d["record"] = py::none();
    d["identity"] = f.has(kFieldIdentity);
    d["contract"] = !f.has(kFieldAlias | kFieldOutsideContract);
    out.append(d);
  });
  return out;
}

/// Every record's fields, by the record's name in messages ("a capsule").
py::dict records() {
  py::dict out;
  out[py::str(std::string(RecordTable<KernelCapsule>::what))] = recordFields<KernelCapsule>();
  out[py::str(std::string(RecordTable<ContractDescriptor>::what))] =
      recordFields<ContractDescriptor>();
  out[py::str(std::string(RecordTable<ContractClaim>::what))] = recordFields<ContractClaim>();
  out[py::str(std::string(RecordTable<ContractEvidence>::what))] = recordFields<ContractEvidence>();
  out[py::str(std::string(RecordTable<ContractProvenance>::what))] =
      recordFields<ContractProvenance>();
  out[py::str(std::string(RecordTable<NumericalPolicy>::what))] = recordFields<NumericalPolicy>();
  out[py::str(std::string(RecordTable<AuditRow>::what))] = recordFields<AuditRow>();
  return out;
}

/// The vocabularies as data, for lowering_oracle.strategies: never a list of its own.
py::dict vocabulary() {
  py::dict out;
  py::list editions, spec;
  for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e) {
    const auto ed = static_cast<Edition>(e);
    editions.append(std::string(spelling(ed)));
    if (claimsHaveSpec(ed))
      spec.append(std::string(spelling(ed)));
  }
  out["editions"] = editions;
  out["newest"] = std::string(spelling(kNewestEdition));
  // The editions of the seed's capsule (docs/spec.md §1.6), oldest first: the strategies' editions.
  py::list seed;
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
    if (kSeedEditions & editionBit(static_cast<Edition>(i)))
      seed.append(std::string(spelling(static_cast<Edition>(i))));
  out["seedEditions"] = seed;
  out["claimsHaveSpec"] = spec;
  out["BackendOp"] = valuesWithEditions<BackendOp>();
  out["Provider"] = valuesWithEditions<Provider>();
  out["Device"] = valuesWithEditions<Device>();
  out["TrustLevel"] = valuesWithEditions<TrustLevel>();
  out["VJPMode"] = valuesWithEditions<VJPMode>();
  out["TensorLayout"] = valuesWithEditions<TensorLayout>();
  out["Rounding"] = valuesWithEditions<Rounding>();
  out["Subnormals"] = valuesWithEditions<Subnormals>();
  out["Contraction"] = valuesWithEditions<Contraction>();
  out["Reduction"] = valuesWithEditions<Reduction>();
  out["ClaimTag"] = valuesWithEditions<ClaimTag>();
  out["EvidenceTag"] = valuesWithEditions<EvidenceTag>();
  out["ProvenanceTag"] = valuesWithEditions<ProvenanceTag>();
  out["Check"] = valuesWithEditions<Check>();
  out["records"] = records();
  // The gate's policies (docs/spec.md §6.2): the presets and the six booleans, in order.
  py::list presets, flags;
  for (const NamedPolicy &p : kPolicyPresets)
    presets.append(std::string(p.name));
  for (const PolicyFlag &f : kPolicyFlags)
    flags.append(std::string(f.name));
  out["PolicyPresets"] = presets;
  out["PolicyFlags"] = flags;
  // The acceptance gate's maintained profiles of each edition that has it (docs/spec.md §6.10).
  py::dict profiles;
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto e = static_cast<Edition>(i);
    if (!acceptance::hasAcceptanceGate(e))
      continue;
    py::list names;
    for (const acceptance::MaintainedProfile *p : acceptance::profilesOf(e))
      names.append(std::string(p->name));
    profiles[py::str(std::string(spelling(e)))] = names;
  }
  out["AcceptanceProfiles"] = profiles;
  // Each kind: its editions, its parameters (name, natural | naturals | hardMask | text | shapes)
  // and its op.
  py::dict kinds;
  for (std::size_t i = 0; i < vocabularySize<KindTag>(); ++i) {
    const auto tag = static_cast<KindTag>(i);
    const KindSignature &sig = signature(tag);
    py::list params;
    for (const ParamSpec &p : sig.params)
      params.append(py::make_tuple(std::string(p.name), std::string(paramTypeName(p.type))));
    py::list editions;
    for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e)
      if (inEdition(tag, static_cast<Edition>(e)))
        editions.append(std::string(spelling(static_cast<Edition>(e))));
    py::dict k;
    k["editions"] = editions;
    k["params"] = params;
    k["op"] = sig.op ? py::cast(std::string(spelling(*sig.op))) : py::none();
    kinds[py::str(std::string(spelling(tag)))] = k;
  }
  out["kinds"] = kinds;
  return out;
}

/// A selection case of `diff --planner` (tools/plans/selection_cases.hpp) drawn from `words`
/// (plans::WordsChoices): the graph's and the profile's JSON text, in `edition` (the newest by
/// default; ValueError for an edition without selection).
std::pair<std::string, std::string> selectionCase(std::vector<std::uint64_t> words,
                                                  const std::optional<std::string> &edition,
                                                  std::size_t maxNodes) {
  const Edition e = editionOf(edition);
  if (!selection::hasSelection(e))
    throw py::value_error("edition " + std::string(spelling(e)) +
                          " has no selection (docs/spec.md §10)");
  Interner interner;
  plans::WordsChoices choices(std::move(words));
  const plans::SelectionCase c =
      plans::randomSelectionCase(interner, choices, plans::SelectionKnobs{maxNodes, e});
  return {io::graphJson(c.graph, interner), io::profileJson(c.profile, e)};
}

/// The index of `text` among `names` (a choice's names, in its order), else ValueError naming them.
template <std::size_t N>
std::size_t nameIndex(const std::string_view (&names)[N], const std::string &text,
                      const char *what) {
  const auto *at = std::find(std::begin(names), std::end(names), text);
  if (at != std::end(names))
    return static_cast<std::size_t>(at - std::begin(names));
  std::string choices;
  for (std::string_view n : names)
    choices += (choices.empty() ? "" : ", ") + std::string(n);
  throw py::value_error(std::string(what) + " " + text + " is not one of " + choices);
}

/// plans::nearCollision of `capsule` (a capsule's JSON text, read in `edition`) of the collision
/// named `collision` (plans::kCollisionNames), each choice the first: the capsule's JSON text.
/// The capsule is read as the one capsule of a registry, the document whose capsules stand alone
/// (docs/spec.md §10.6), so that the reader and its messages are the documents' own.
std::string nearCollisionText(const std::string &capsule, const std::string &collision,
                              const std::optional<std::string> &edition) {
  const Edition e = editionOf(edition);
  const auto which =
      static_cast<plans::Collision>(nameIndex(plans::kCollisionNames, collision, "collision"));
  const auto modules =
      io::readRegistry(io::sourceFromString("<capsule>", R"({"modules":[{"name":"m","capsules":[)" +
                                                             capsule + "]}]}"),
                       e);
  plans::WordsChoices first({});
  const KernelCapsule near =
      plans::nearCollision(first, modules.at(0).capsules.at(0), which, plans::Vocabulary::suite, e);
  return io::writtenText([&](io::Sink &out) { io::writeCapsule(out, near, e); });
}

/// plans::chosenPlanJson (tools/plans/spelling.hpp) of the plan `plain` (any text of it, read in
/// `edition`), whose kernel i holds capsule `capsuleOf[i]` of the caller's list of capsules, as
/// `how` says: `table` (key, capsule index, omit) and `kernels` (the index of its table entry or
/// -1 for an inline capsule, omit) and the document's choices (lowering_oracle.spelling).
std::string spellPlan(const std::string &plain, const std::vector<std::size_t> &capsuleOf,
                      const py::dict &how, const std::optional<std::string> &edition) {
  const Edition e = editionOf(edition);
  Interner interner;
  const GraphExecutionPlan plan =
      io::readExecutionPlan(io::sourceFromString("<plan>", plain), interner, e);
  if (capsuleOf.size() != plan.kernels.size())
    throw py::value_error("one capsule index a kernel");
  std::map<std::size_t, CapsuleId> capsule;
  for (std::size_t i = 0; i < capsuleOf.size(); ++i)
    capsule.emplace(capsuleOf[i], plan.kernels[i].capsule);
  auto omit = [](const py::handle &o) {
    return static_cast<plans::Omit>(nameIndex(plans::kOmitNames, py::cast<std::string>(o), "omit"));
  };
  plans::PlanText text;
  for (const py::handle &entry : how["table"].cast<py::list>()) {
    const auto t = entry.cast<py::tuple>();
    const auto at = capsule.find(t[1].cast<std::size_t>());
    if (at == capsule.end())
      throw py::value_error("a table entry's capsule is no kernel's");
    text.table.push_back({t[0].cast<std::string>(), at->second, omit(t[2])});
  }
  for (const py::handle &kernel : how["kernels"].cast<py::list>()) {
    const auto t = kernel.cast<py::tuple>();
    plans::PlanText::Kernel &k = text.kernels.emplace_back();
    if (const auto entry = t[0].cast<long long>(); entry >= 0)
      k.entry = static_cast<std::size_t>(entry);
    k.omit = omit(t[1]);
    k.kindObject = how["kind_objects"].cast<bool>();
  }
  for (const auto &k : text.kernels)
    if (k.entry && *k.entry >= text.table.size())
      throw py::value_error("a kernel names no table entry");
  if (text.kernels.size() != plan.kernels.size())
    throw py::value_error("one spelling a kernel");
  text.header = how["header"].cast<bool>();
  text.tableFirst = how["table_first"].cast<bool>();
  text.reverseFields = how["reverse_fields"].cast<bool>();
  text.reverseParams = how["reverse_params"].cast<bool>();
  text.pretty = how["pretty"].cast<bool>();
  text.escapes = static_cast<plans::Escapes>(
      nameIndex(plans::kEscapesNames, how["escapes"].cast<std::string>(), "escapes"));
  if (!how["edition"].is_none())
    text.edition = how["edition"].cast<std::string>();
  return plans::chosenPlanJson(interner, plan, text, e);
}

/// A kind `tag` of `edition` drawn by the suite's generator (plans::randomKind) from `words`
/// (plans::WordsChoices; none: the simplest parameters), `wild` parameters or sensible ones: the
/// kind's JSON text as the writer writes it.
std::string kindText(const std::string &tag, std::vector<std::uint64_t> words,
                     const std::optional<std::string> &edition, bool wild) {
  const Edition e = editionOf(edition);
  const KindTag k = parsed<KindTag>(tag, "kind");
  if (!inEdition(k, e))
    throw py::value_error("kind " + tag + " is not in edition " + std::string(spelling(e)));
  plans::WordsChoices choices(std::move(words));
  const OpKind kind =
      plans::randomKind(choices, k, wild ? plans::Params::wild : plans::Params::sensible);
  return io::writtenText([&](io::Sink &out) { io::writeKind(out, kind); });
}

} // namespace
} // namespace lo::python

PYBIND11_MODULE(_native, m) {
  using namespace lo::python;
  m.doc() = "The lowering-oracle libraries (docs/python.md); use the lowering_oracle package.";
  // io::InputError as lowering_oracle.errors.InvalidInput(text, file, line, column, pointer,
  // message): the one error line of docs/spec.md §4.5 and its parts.
  static py::object invalidInput =
      py::module_::import("lowering_oracle.errors").attr("InvalidInput");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const lo::io::InputError &e) {
      const bool candidate = dynamic_cast<const CandidateError *>(&e) != nullptr;
      const py::object error = invalidInput(lo::io::formatError(e), e.file(), e.line(), e.column(),
                                            e.pointer(), e.message(), candidate ? "candidate" : "");
      PyErr_SetObject(invalidInput.ptr(), error.ptr());
    }
  });
  m.def("lower", &lowerText, py::arg("text"), py::arg("name"), py::arg("mode"), py::arg("equality"),
        py::arg("edition"), py::arg("audit"));
  m.def("plan", &planText, py::arg("graph"), py::arg("name"), py::arg("profile"),
        py::arg("profile_document"), py::arg("registry"), py::arg("edition"));
  m.def("check_plan", &checkPlanTexts, py::arg("graph"), py::arg("graph_name"),
        py::arg("candidate"), py::arg("candidate_name"), py::arg("failed"), py::arg("profile"),
        py::arg("profile_document"), py::arg("registry"), py::arg("edition"));
  m.def("audit", &auditText, py::arg("text"), py::arg("name"), py::arg("equality"),
        py::arg("edition"));
  m.def("gate", &gateText, py::arg("text"), py::arg("name"), py::arg("policy"),
        py::arg("overrides"), py::arg("mode"), py::arg("equality"), py::arg("edition"));
  m.def("acceptance_gate", &acceptanceGateText, py::arg("text"), py::arg("name"),
        py::arg("profile"), py::arg("fields"), py::arg("allow_trusted_external"),
        py::arg("edition"));
  m.def("gate_kind", [](const std::optional<std::string> &edition) {
    return std::string(lo::acceptance::hasAcceptanceGate(editionOf(edition)) ? "acceptance"
                                                                             : "evidence");
  });
  py::class_<CheckRun>(m, "CheckRun")
      .def_property_readonly("conforms", &CheckRun::conforms)
      .def("findings", &CheckRun::findings)
      .def("omitted", &CheckRun::omitted)
      .def("notes", &CheckRun::notes)
      .def("report", &CheckRun::report, py::arg("format"));
  m.def("check", &checkTexts, py::arg("plan"), py::arg("candidate"), py::arg("plan_name"),
        py::arg("candidate_name"), py::arg("mode"), py::arg("equality"), py::arg("edition"),
        py::arg("max_per_check"), py::arg("audit"));
  m.def("vocabulary", &vocabulary);
  m.def("selection_case", &selectionCase, py::arg("words"), py::arg("edition"),
        py::arg("max_nodes"));
  // gen asks one case in AUDIT_SHARE for the audit (tools/suite/generate.hpp), and so does
  // lowering_oracle.strategies.audits().
  m.attr("AUDIT_SHARE") = lo::suite::kAuditShare;
  // check's --max-per-check default (ref/io/limits.hpp), the default of lowering_oracle.check.
  m.attr("DEFAULT_MAX_PER_CHECK") = lo::io::kDefaultMaxPerCheck;
  // The preset of gate() when none is named, as `gate`'s (ref/gate.hpp).
  m.attr("DEFAULT_POLICY") = std::string(lo::kDefaultPolicy);
  m.def("suite", &suiteOf, py::arg("suite"), py::arg("edition"), py::arg("min_count"),
        py::arg("expect_count"), py::arg("expect_seed"), py::arg("expect_max_nodes"),
        py::arg("unverified_suite"), py::arg("max_file_bytes"), py::arg("selection") = false);
  m.def("has_selection", &hasSelectionIn, py::arg("edition"));
  m.def("kind", &kindText, py::arg("tag"), py::arg("words"), py::arg("edition"), py::arg("wild"));
  m.def("spell_plan", &spellPlan, py::arg("plain"), py::arg("capsule_of"), py::arg("how"),
        py::arg("edition"));
  m.def("near_collision", &nearCollisionText, py::arg("capsule"), py::arg("collision"),
        py::arg("edition"));
  // The near-collisions of tools/plans/capsules.hpp, by name, in their order.
  m.attr("COLLISIONS") = py::cast(std::vector<std::string>(std::begin(lo::plans::kCollisionNames),
                                                           std::end(lo::plans::kCollisionNames)));
  m.def("gate_conforms", &gateConforms, py::arg("plan"), py::arg("result"), py::arg("plan_name"),
        py::arg("result_name"), py::arg("policy"), py::arg("overrides"), py::arg("mode"),
        py::arg("equality"), py::arg("edition"), py::arg("exit_code"));
}
