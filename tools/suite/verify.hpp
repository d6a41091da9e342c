// `verify` (docs/spec.md §4.3): judges a whole directory of an implementation's outputs against a
// conformance suite (what `gen` writes: a manifest with one entry per case, mode and equality) in
// one process, with one report (tools/report/suite_report.hpp). The suite is read
// (suite_reader.hpp) and verified (suite_integrity.hpp) before anything is judged; each entry is
// then judged (judge.hpp). A manifest without entries is never a pass.
#pragma once

#include "tools/report/report.hpp"
#include "tools/report/suite_report.hpp"

#include "ref/edition.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace lo::gen {

/// verify's operands and options (its --help).
struct VerifySettings {
  std::string suite, outputs;                            // SUITE, OUTPUTS
  std::string pattern = "{case}-{mode}-{equality}.json"; // --pattern
  std::string gatePattern = "{case}-gate-{policy}.json"; // --gate-pattern
  cli::ReportFormat format = cli::ReportFormat::text;    // --format (html: pictures are drawn)
  bool gates = false;                                    // --gates
  std::optional<Edition> edition;                        // --edition; nullopt: not given
  bool unverifiedSuite = false;                          // --unverified-suite
  bool quiet = false;                                    // --quiet
  std::size_t maxPerCheck = 20;                          // --max-per-check
  std::size_t maxFileBytes = std::size_t{256} << 20;     // --max-file-bytes
};

/// The report of every entry of the suite `s.suite` judged from `s.outputs`. Throws SuiteError
/// (suite_reader.hpp) on a pattern without its placeholders, an operand that is not a directory
/// (both named when neither is), an invalid suite, a suite of one edition judged as another
/// (`--edition` other than the manifest's `edition`), one that fails its integrity check, a
/// hand-made one without --unverified-suite, or a manifest without entries: exit status 2, no
/// report.
cli::SuiteReport runVerify(const VerifySettings &s);

/// The edition a suite is judged in: its manifest's `edition`, else `--edition`, else the newest.
/// "A suite of one edition judged as another is refused": a SuiteError when both are named and
/// differ.
Edition judgedEdition(const std::string &manifest, std::optional<Edition> named,
                      std::optional<Edition> asked);

} // namespace lo::gen
