// Judging one entry of a conformance suite (docs/spec.md §4.3, `verify`): the implementation's
// output for the entry, read from OUTPUTS as every file of OUTPUTS is ("Files"), judged as `check
// PLAN OUTPUT --mode M --equality E` judges it under the entry's mode and equality (the checks of
// docs/spec.md §3), or with `--gates` as a gate result against the reference gate (docs/spec.md
// §6.7). An output that is missing, unreadable or not a valid document is an entry with an error.
#pragma once

#include "ref/edition.hpp"
#include "ref/interner.hpp"
#include "ref/io/limits.hpp"
#include "ref/ir.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/suite/suite_manifest.hpp"
#include "tools/system/bounded_read.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace lo::suite {

/// The output file name of an entry: `pattern` (--pattern, --gate-pattern) with {case}, {mode},
/// {equality} and {policy} replaced by the entry's.
std::string outputName(const std::string &pattern, const SuiteManifest::Entry &e);

/// How an entry is judged and reported.
struct JudgeOptions {
  std::size_t maxPerCheck = io::kDefaultMaxPerCheck;   // --max-per-check
  std::size_t maxFileBytes = io::kDefaultMaxFileBytes; // --max-file-bytes
  /// html: a failing entry's picture is drawn, its element ids starting with this prefix; empty:
  /// none (a conforming entry is never drawn: docs/spec.md §3.5, verify's page).
  std::string picturePrefix;
  /// The edition the output is read in (docs/spec.md §1.6): the suite's.
  Edition edition = kNewestEdition;
  /// A gate entry run by `verify --gates --impl`: the gate's exit status, held to its result's
  /// verdict (checks::exitContradiction); -1: none (an output read from OUTPUTS, a gate worker's).
  int exitCode = -1;
};

/// The entry `m` of the case whose plan is `plan` (read into `interner`, which its outputs share),
/// judged from the file `name` of `outputs`: a gate entry (a policy) against the reference gate, a
/// lowering entry by the checks. Every field of the entry is set but `seconds`.
report::SuiteEntry judgeEntry(Interner &interner, const GraphExecutionPlan &plan,
                              const SuiteManifest::Entry &m, const std::filesystem::path &outputs,
                              const std::string &name, const JudgeOptions &options);

/// The same entry judged from `text`, the output's bytes as they were read once (`verify --impl`,
/// `--worker`: what the implementation produced), `path` naming it in the report's messages.
report::SuiteEntry judgeOutputText(Interner &interner, const GraphExecutionPlan &plan,
                                   const SuiteManifest::Entry &m, const std::string &name,
                                   const std::string &path, std::string text,
                                   const JudgeOptions &options);

/// `text` cut to what a report shows of it (io::kMaxShownBytes and a character): what `verify`
/// keeps of an entry grows with its findings, not with what an implementation writes into them.
void cutToShown(std::string &text);

/// Why the output `file` (read as `read` says, not ok) is not judged, in one sentence.
std::string unreadOutput(const system::BoundedRead &read, const std::filesystem::path &file);

/// The same entry as an error entry: no output to judge, for the reason `error` (one sentence).
report::SuiteEntry unjudgedEntry(const GraphExecutionPlan &plan, const SuiteManifest::Entry &m,
                                 const std::string &name, std::string error);

} // namespace lo::suite
