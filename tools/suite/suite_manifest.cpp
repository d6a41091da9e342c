#include "tools/suite/suite_manifest.hpp"

#include "ref/io/strict_json.hpp"

#include <set>

namespace lo::suite {

namespace {

using io::fieldBits;
using io::FieldSet;
using io::JsonReader;
namespace od = io::od;

// The fields of a manifest and of its entries (docs/spec.md §4.3), in the order of their bits.
constexpr std::string_view kManifestFields[] = {"format",     "version",  "seed",  "count",
                                                "maxNodes",   "cases",    "gates", "edition",
                                                "acceptance", "selection"};
constexpr std::string_view kCaseEntryFields[] = {"case", "mode", "equality", "files", "audit"};
constexpr std::string_view kGateEntryFields[] = {"case",     "policy", "mode",
                                                 "equality", "files",  "booleans"};
constexpr std::string_view kGateFilesFields[] = {"plan", "expected"};
constexpr std::string_view kAcceptanceEntryFields[] = {"case", "profile", "files"};
constexpr std::string_view kSelectionEntryFields[] = {"case", "files"};
constexpr std::string_view kSelectionFilesFields[] = {"graph", "profile", "expected"};

/// A case entry's `files`: `plan` and `expected`, and any other file of the case (a string each).
void readCaseFiles(JsonReader &r, od::value &v, SuiteManifest::Entry &e) {
  const char *start = r.location(v);
  std::set<std::string, std::less<>> seen;
  r.keyedFields(
      v, "the files of a case entry", [&](const char *keyAt, std::string_view key, od::value &x) {
        if (!seen.emplace(key).second)
          r.fail(keyAt, "duplicate field " + io::quote(key) + " in the files of a case entry");
        const std::string_view path = r.string(x, "a path");
        if (key == "plan")
          e.plan = path;
        else if (key == "expected")
          e.expected = path;
      });
  for (std::string_view name : kGateFilesFields)
    if (!seen.count(name))
      r.fail(start, "missing field " + io::quote(name) + " in the files of a case entry");
}

/// A gate entry's `files`: exactly `plan` and `expected`.
void readGateFiles(JsonReader &r, od::value &v, SuiteManifest::Entry &e) {
  r.fields(
      v, "the files of a gate entry",
      FieldSet{kGateFilesFields, fieldBits(kGateFilesFields, {"plan", "expected"})},
      [&](std::size_t i, od::value x) { (i == 0 ? e.plan : e.expected) = r.string(x, "a path"); });
}

/// A gate entry's `booleans`: the six booleans of an AssurancePolicy, each required.
AssurancePolicy readBooleans(JsonReader &r, od::value &v) {
  static constexpr std::string_view kNames[] = {"allowChecked",         "allowFuzzed",
                                                "allowTrustedExternal", "requireEvidence",
                                                "allowRuntimeGuards",   "allowTestEvidence"};
  static_assert(std::size(kNames) == std::size(kPolicyFlags));
  AssurancePolicy p;
  r.fields(v, "the booleans of a policy",
           FieldSet{kNames, fieldBits(kNames, {"allowChecked", "allowFuzzed",
                                               "allowTrustedExternal", "requireEvidence",
                                               "allowRuntimeGuards", "allowTestEvidence"})},
           [&](std::size_t i, od::value x) {
             p.*kPolicyFlags[i].field = r.boolean(x, kPolicyFlags[i].name);
           });
  return p;
}

SuiteManifest::Entry readEntry(JsonReader &r, od::value &v, bool gate) {
  SuiteManifest::Entry e;
  // A case entry's fields are a gate entry's without `policy` and `booleans`, with `audit`: read
  // by the gate entry's index (6 for `audit`).
  constexpr std::size_t kCaseAsGate[] = {0, 2, 3, 4, 6};
  const char *policyAt = nullptr, *booleansAt = nullptr;
  bool booleans = false;
  const auto onField = [&](std::size_t i, od::value x) {
    switch (gate ? i : kCaseAsGate[i]) {
    case 0: e.caseName = r.string(x, "a case name"); break;
    case 1: {
      policyAt = r.location(x);
      const std::string_view policy = r.string(x, "a policy");
      if (!policyPreset(policy) && policy != kCustomPolicy)
        r.fail(policyAt,
               "unknown policy " + io::quote(policy) + "; expected one of: " + policyNames(true));
      e.policy = policy;
      break;
    }
    case 2: e.mode = r.enumValue<Mode>(x); break;
    case 3: e.equality = r.enumValue<Equality>(x); break;
    case 4: gate ? readGateFiles(r, x, e) : readCaseFiles(r, x, e); break;
    case 5:
      booleansAt = r.location(x);
      e.gatePolicy = readBooleans(r, x);
      booleans = true;
      break;
    case 6: e.audit = r.boolean(x, "audit"); break;
    }
  };
  if (gate)
    r.fields(v, "a gate entry",
             FieldSet{kGateEntryFields,
                      fieldBits(kGateEntryFields, {"case", "policy", "mode", "equality", "files"})},
             onField);
  else
    r.fields(v, "a case entry",
             FieldSet{kCaseEntryFields,
                      fieldBits(kCaseEntryFields, {"case", "mode", "equality", "files"})},
             onField);
  if (gate) {
    // docs/spec.md §6.2: a policy is named after the preset it equals, else custom; a preset's
    // booleans are the preset's, a custom policy's are told.
    if (const auto preset = policyPreset(e.policy)) {
      if (booleans && e.gatePolicy != *preset)
        r.fail(booleansAt, "the booleans of a gate entry of policy " + io::quote(e.policy) +
                               " are not that preset's");
      e.gatePolicy = *preset;
    } else if (!booleans) {
      r.fail(policyAt, "a gate entry of policy \"custom\" must name its \"booleans\"");
    } else if (policyName(e.gatePolicy) != "custom") {
      r.fail(booleansAt, "the booleans of a gate entry of policy \"custom\" are those of the "
                         "preset " +
                             io::quote(policyName(e.gatePolicy)) + ": name it so");
    }
  }
  return e;
}

/// An entry whose fields `names` are all required, the first the case's name; `rest(e, i, x)`
/// reads field i > 0 into the entry `e`.
template <class Rest>
SuiteManifest::Entry readNamedEntry(JsonReader &r, od::value &v, std::string_view what,
                                    std::span<const std::string_view> names, Rest &&rest) {
  SuiteManifest::Entry e;
  r.fields(v, what, FieldSet{names, io::allFieldBits(names.size())},
           [&](std::size_t i, od::value x) {
             if (i == 0)
               e.caseName = r.string(x, "a case name");
             else
               rest(e, i, x);
           });
  return e;
}

/// An acceptance entry: a case, a maintained profile's name (checked against the suite's edition
/// by its reader) and the entry's files.
SuiteManifest::Entry readAcceptanceEntry(JsonReader &r, od::value &v) {
  SuiteManifest::Entry e =
      readNamedEntry(r, v, "an acceptance entry", kAcceptanceEntryFields,
                     [&](SuiteManifest::Entry &entry, std::size_t i, od::value x) {
                       if (i == 1)
                         entry.policy = r.string(x, "a profile name");
                       else
                         readGateFiles(r, x, entry);
                     });
  e.acceptance = true;
  return e;
}

/// A selection entry: a case and its files, exactly `graph`, `profile` and `expected`.
SuiteManifest::Entry readSelectionEntry(JsonReader &r, od::value &v) {
  SuiteManifest::Entry e = readNamedEntry(
      r, v, "a selection entry", kSelectionEntryFields,
      [&](SuiteManifest::Entry &entry, std::size_t, od::value x) {
        r.fields(x, "the files of a selection entry",
                 FieldSet{kSelectionFilesFields, io::allFieldBits(3)},
                 [&](std::size_t j, od::value y) {
                   std::string *const paths[] = {&entry.graph, &entry.profile, &entry.expected};
                   *paths[j] = r.string(y, "a path");
                 });
      });
  e.selection = true;
  return e;
}

} // namespace

SuiteManifest readSuiteManifest(const io::Source &source) {
  JsonReader r(source);
  SuiteManifest m;
  r.documentFields(
      "a conformance suite manifest", kSuiteFormat,
      FieldSet{kManifestFields, fieldBits(kManifestFields, {"format", "version", "cases"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 2: m.seed = r.natural(v, "seed"); break;
        case 3: m.count = r.natural(v, "count"); break;
        case 4: m.maxNodes = r.natural(v, "maxNodes"); break;
        case 5:
          r.elements(v, "the cases array",
                     [&](od::value &e) { m.cases.push_back(readEntry(r, e, false)); });
          break;
        case 6:
          m.gates.emplace();
          r.elements(v, "the gates array",
                     [&](od::value &e) { m.gates->push_back(readEntry(r, e, true)); });
          break;
        case 7: m.edition = r.enumValue<Edition>(v); break;
        case 8:
          m.acceptance.emplace();
          r.elements(v, "the acceptance array",
                     [&](od::value &e) { m.acceptance->push_back(readAcceptanceEntry(r, e)); });
          break;
        case 9:
          m.selection.emplace();
          r.elements(v, "the selection array",
                     [&](od::value &e) { m.selection->push_back(readSelectionEntry(r, e)); });
          break;
        }
      });
  return m;
}

} // namespace lo::suite
