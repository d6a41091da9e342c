#include "tools/suite/suite_manifest.hpp"

#include "ref/io/strict_json.hpp"

#include <set>

namespace lo::gen {

namespace {

using io::fieldBits;
using io::FieldSet;
using io::JsonReader;
namespace od = io::od;

// The fields of a manifest and of its entries (docs/spec.md §4.3), in the order of their bits.
constexpr std::string_view kManifestFields[] = {"format",   "version", "seed",  "count",
                                                "maxNodes", "cases",   "gates", "edition"};
constexpr std::string_view kCaseEntryFields[] = {"case", "mode", "equality", "files"};
constexpr std::string_view kGateEntryFields[] = {"case", "policy", "mode", "equality", "files"};
constexpr std::string_view kGateFilesFields[] = {"plan", "expected"};

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

SuiteManifest::Entry readEntry(JsonReader &r, od::value &v, bool gate) {
  SuiteManifest::Entry e;
  // A case entry's fields are a gate entry's without `policy`: read by the gate entry's index.
  constexpr std::size_t kCaseAsGate[] = {0, 2, 3, 4};
  const auto onField = [&](std::size_t i, od::value x) {
    switch (gate ? i : kCaseAsGate[i]) {
    case 0: e.caseName = r.string(x, "a case name"); break;
    case 1: {
      const char *at = r.location(x);
      const std::string_view policy = r.string(x, "a policy preset");
      if (!policyPreset(policy))
        r.fail(at, "unknown policy preset " + io::quote(policy) +
                       "; expected one of: verified, checked, external");
      e.policy = policy;
      break;
    }
    case 2: e.mode = r.enumValue<Mode>(x); break;
    case 3: e.equality = r.enumValue<Equality>(x); break;
    case 4: gate ? readGateFiles(r, x, e) : readCaseFiles(r, x, e); break;
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
  return e;
}

} // namespace

SuiteManifest readSuiteManifest(const io::Source &source) {
  JsonReader r(source);
  SuiteManifest m;
  r.rootFields(
      "a conformance suite manifest",
      FieldSet{kManifestFields, fieldBits(kManifestFields, {"format", "version", "cases"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 0: r.expectFormat(v, kSuiteFormat); break;
        case 1: r.expectVersion(v); break;
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
        }
      });
  return m;
}

} // namespace lo::gen
