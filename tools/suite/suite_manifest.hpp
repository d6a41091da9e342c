// Reading a conformance suite's `manifest.json` (docs/spec.md §4.3; schema:
// docs/schema/conformance-suite.schema.json) on the strict JSON layer (ref/io/strict_json.hpp):
// an unknown or repeated field, a wrong type, an unknown mode, equality or policy, a missing
// `format`, `version` or `cases` is an io::InputError with the manifest's name, the line and
// column, and the JSON pointer. What a suite means beyond its shape (paths inside the suite, case
// names that are file names, gen's parameters all three or none) is for its reader to judge:
// suite_reader.hpp (`verify`), suite_files.hpp's isGenSuite (`gen --force`).
#pragma once

#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/io/source.hpp"
#include "ref/lowering.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lo::suite {

/// The format of a suite's manifest.
inline constexpr std::string_view kSuiteFormat = "lowering-oracle/conformance-suite";

/// A manifest as it is written.
struct SuiteManifest {
  /// `{"case", "mode", "equality", "files": {"plan", "expected", ...}}`, or a gate entry
  /// `{"case", "policy", "mode", "equality", "files": {"plan", "expected"}}`.
  struct Entry {
    std::string caseName;
    /// A gate entry's policy: a preset (verified, checked, external) or custom; empty for a case.
    std::string policy;
    /// A gate entry's six booleans: its `booleans` (gen writes them on every gate entry; a
    /// preset's may be left out, a custom one's may not, docs/spec.md §6.2).
    AssurancePolicy gatePolicy;
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    /// A case entry's `audit`: the output must carry its ExecutionAudit (default false).
    bool audit = false;
    /// An acceptance entry `{"case", "profile", "files"}` of the lean-dojo lineage (docs/spec.md
    /// §6.10): `policy` holds the maintained profile's name, `mode` and `equality` are the
    /// groups' (coalesced, contract).
    bool acceptance = false;
    /// A selection entry `{"case", "files": {"graph", "profile", "expected"}}` (docs/spec.md
    /// §4.3, "Selection entries"): the case's graph and profile; `plan` is empty.
    bool selection = false;
    std::string graph, profile;
    std::string plan, expected;
  };
  /// gen's parameters, each when the manifest names it (a hand-made suite names none).
  std::optional<std::uint64_t> seed, count, maxNodes;
  /// The edition of the suite's values (docs/spec.md §1.6), when the manifest names it: gen always
  /// does; a hand-made suite may leave it out.
  std::optional<Edition> edition;
  std::vector<Entry> cases;
  std::optional<std::vector<Entry>> gates; // nullopt: the manifest lists no gate results
  /// The acceptance results of the lean-dojo lineage; nullopt: the manifest lists none.
  std::optional<std::vector<Entry>> acceptance;
  /// The selection cases of an edition with selection (docs/spec.md §10); nullopt: none listed.
  std::optional<std::vector<Entry>> selection;
};

/// Reads `source` as a suite manifest. `format`, `version` (1) and `cases` are required; `seed`,
/// `count`, `maxNodes`, `edition`, `gates`, `acceptance` and `selection` may be left out (a
/// hand-made suite); an edition that is not one of ref/edition.hpp's is an error. Throws
/// io::InputError.
SuiteManifest readSuiteManifest(const io::Source &source);

} // namespace lo::suite
