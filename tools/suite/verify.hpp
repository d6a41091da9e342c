// `verify` (docs/spec.md §4.3): judges a whole directory of an implementation's outputs against a
// conformance suite (what `gen` writes: a manifest with one entry per case, mode and equality) in
// one process, with one report (tools/report/suite_report.hpp). The suite is read
// (suite_reader.hpp) and verified (suite_integrity.hpp) before anything is judged; each entry is
// then judged (judge.hpp). A manifest without entries is never a pass.
#pragma once

#include "ref/io/limits.hpp"
#include "tools/report/report.hpp"
#include "tools/report/selection_suite_report.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/suite/suite_reader.hpp"

#include "ref/edition.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace lo::suite {

/// One entry for the implementation `verify --impl` or `--worker` runs (docs/spec.md §4.3): the
/// entry, its case's index in the manifest and its plan's bytes (those verified, read once), the
/// output file to write, the edition judged in.
struct ProduceRequest {
  const SuiteManifest::Entry *entry = nullptr;
  std::size_t caseIndex = 0;
  std::string_view planText;
  /// A selection entry's graph and profile (verify --selection); `planText` is then empty.
  std::string_view graphText, profileText;
  std::filesystem::path outPath;
  Edition edition = kNewestEdition;
};

/// What the implementation made of it: the output's bytes, or why there are none (a crash, a
/// timeout, a non-zero exit, no output: one sentence, the entry's error).
struct ProducedOutput {
  bool ok = false;
  std::string text;
  std::string error;
  /// A gate's exit status, held to its result's verdict (judge.hpp, JudgeOptions::exitCode); -1:
  /// none (a worker's answer).
  int exitCode = -1;
  /// A planner's answer that selection fails (exit status 2, a worker's "error"), in its words;
  /// `ok` and no text.
  bool refused = false;
  std::string message;
};

/// Runs the implementation for one entry (tools/diff/suite_run.hpp makes one from diff's drivers).
using Producer = std::function<ProducedOutput(const ProduceRequest &)>;

/// verify's operands and options (its --help).
struct VerifySettings {
  std::string suite, outputs;                               // SUITE, OUTPUTS
  std::string pattern = "{case}-{mode}-{equality}.json";    // --pattern
  std::string gatePattern = "{case}-gate-{policy}.json";    // --gate-pattern
  report::ReportFormat format = report::ReportFormat::text; // --format (html: pictures are drawn)
  bool gates = false;                                       // --gates
  bool selection = false;                                   // --selection
  std::string selectionPattern = "{case}.json";             // --selection-pattern
  std::optional<Edition> edition;                           // --edition; nullopt: not given
  bool unverifiedSuite = false;                             // --unverified-suite
  bool quiet = false;                                       // --quiet
  std::size_t maxPerCheck = io::kDefaultMaxPerCheck;        // --max-per-check
  std::size_t maxFileBytes = io::kDefaultMaxFileBytes;      // --max-file-bytes
  /// The suite the user names (docs/spec.md §4.3, "The suite the user names"): a suite whose
  /// manifest does not match is refused. nullopt: not given.
  std::optional<std::uint64_t> expectSeed, expectCount, minCount, expectMaxNodes;
  /// --impl, --worker: the implementation is run for every entry, writing into OUTPUTS (claimed as
  /// docs/spec.md §4.1, "Output directories", says); empty: the outputs are read from OUTPUTS.
  Producer producer;
  /// html among the reports asked for: each failing entry's picture is drawn (within the page's
  /// bound, docs/spec.md §3.5).
  bool pictures = false;
  /// A test's seam: called once the suite is verified, before anything is judged (a test swaps a
  /// suite file there to show that the bytes judged are the bytes verified). Empty: nothing.
  std::function<void()> afterVerified;
};

/// A suite as `verify` takes it before judging anything (docs/spec.md §4.3): its manifest read,
/// the edition judged, the suite the user names (requireNamedSuite), its integrity checked, and at
/// least one entry. `files` holds the bytes of every file an entry reads (a plan; a selection
/// entry's graph and profile), by the manifest's path, read once (for a hand-made suite, only when
/// `allPlans`; else suiteFileText reads each when it is first judged). The one rule of a suite, for
/// `verify` and the pytest plugin (docs/python.md). Throws SuiteError as runVerify does.
struct VerifiedSuite {
  std::filesystem::path suite; // the directory
  Suite read;
  Edition edition = kNewestEdition;
  std::string manifestName;
  std::map<std::string, std::string> files;
};
VerifiedSuite verifiedSuite(const VerifySettings &s, bool allPlans = false);

/// The bytes of the file `path` an entry of `v` reads: the verified bytes, or for a hand-made
/// suite the file read now (once). Throws SuiteError as readSuiteFile does.
const std::string &suiteFileText(VerifiedSuite &v, const std::string &path,
                                 std::size_t maxFileBytes);

/// The start of a run of `verify` (of its lowerings, gate results or selection entries): the
/// operands checked (checkOperands), the suite verified (verifiedSuite; then `s.afterVerified`),
/// OUTPUTS claimed when the implementation runs (claimOutputs). Throws SuiteError.
VerifiedSuite startRun(const VerifySettings &s);

/// What every report of `s` says of the suite `v` (its directories, parameters, whether it was
/// verified, the edition judged).
report::SuiteHeader headerOf(const VerifySettings &s, const VerifiedSuite &v);

/// The report of every entry of the suite `s.suite` judged from `s.outputs`. Throws SuiteError
/// (suite_reader.hpp) on a pattern without its placeholders, an operand that is not a directory
/// (both named when neither is), an invalid suite, a suite of one edition judged as another
/// (`--edition` other than the manifest's `edition`), one that fails its integrity check, a
/// hand-made one without --unverified-suite, or a manifest without entries: exit status 2, no
/// report.
report::SuiteReport runVerify(const VerifySettings &s);

/// `verify --selection`: the report of every selection entry of the suite `s.suite` (docs/spec.md
/// §4.3, "Selection entries"), each candidate judged by the selection checks (docs/spec.md
/// §10.8). The suite is read and verified as runVerify reads it; throws SuiteError as it does.
report::SelectionSuiteReport runVerifySelection(const VerifySettings &s);

/// "The suite the user names" (docs/spec.md §4.3): --expect-seed, --expect-count, --min-count and
/// --expect-max-nodes against the manifest's `seed`, `count` and `maxNodes`; a hand-made suite
/// (none named) fails any of them. Throws SuiteError naming the field, both values and the option.
void requireNamedSuite(const std::string &manifest, const std::optional<Provenance> &provenance,
                       const VerifySettings &s);

/// The edition a suite is judged in: its manifest's `edition`, else `--edition`, else the newest.
/// A SuiteError when both are named and differ (docs/spec.md §4.2).
Edition judgedEdition(const std::string &manifest, std::optional<Edition> named,
                      std::optional<Edition> asked);

} // namespace lo::suite
