// The SARIF 2.1.0 writer of every command that judges candidates (check, diff, verify): one
// model, a run with its rules, artifacts, notifications, properties and results, and one writer
// for it, `writeSarif`. `check` and `diff` report a list of candidates (writeSarifReports),
// `verify` the entries of a suite (writeSuiteSarif).
//
// Every report states its URIs the same way (docs/ci.md, "Reports"): a relative file name
// relative to %SRCROOT% (the working directory, a `file://` URI in originalUriBaseIds), an
// absolute one as a `file://` URI; every result has partialFingerprints, a stable hash (FNV-1a,
// 64 bits, hex) of its key. Where the two commands differ, the model says which:
//  - check, diff: rules with a `help` text, the rule `invalid-input`, the run's artifacts listed
//    (and each result's location naming its artifact's index), executionSuccessful false when
//    an input could not be judged, a region only where the pointer is found in the candidate;
//  - verify: rules without help, the rule `output-error`, no artifacts, executionSuccessful
//    true, a region on every result (where known, else 1:1).
#pragma once

#include "tools/report/report.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lo::report {

struct SuiteReport;

/// `"name":VALUE` members of a JSON object, VALUE already JSON.
using JsonMembers = std::vector<std::pair<std::string, std::string>>;

struct SarifResult {
  std::string ruleId;
  std::size_t ruleIndex = 0;
  std::string message;                                       // as written (a JSON string)
  std::string file;                                          // the artifact: a file name as given
  std::optional<std::pair<std::size_t, std::size_t>> region; // line, column
  std::string pointer; // the logical location (shown); empty: none
  std::string key;     // what partialFingerprints hashes
  JsonMembers properties;
};

/// One rule: its id and texts (full and help: empty for none).
struct SarifRule {
  std::string id, shortText, fullText, helpText;
};

/// The rules of the conformance checks (rule id = check name, in the order of the checks), each
/// with a `help` text (how to `explain` it) when `withHelp`.
std::vector<SarifRule> checkRules(bool withHelp);

struct SarifRun {
  /// The rules, in order: a result's ruleIndex indexes them. check, diff and verify: the checks'
  /// (checkRules), then their rule of an input not judged; check-plan: the selection checks'.
  std::vector<SarifRule> rules;
  bool listArtifacts = true;          // the run's `artifacts`, indexed by the results
  std::vector<std::string> artifacts; // listArtifacts: each distinct file, in order
  bool executionSuccessful = true;
  std::vector<std::pair<std::string, std::string>> notifications; // level, text
  JsonMembers properties;
  std::vector<SarifResult> results;
};

/// The report: one run.
void writeSarif(io::Sink &out, const SarifRun &run);

struct SuiteHeader;
/// A verify run's properties: command, suite, outputs, suiteVerified, edition, seed, count and
/// maxNodes (null for a hand-made suite).
JsonMembers verifyProperties(const SuiteHeader &header);

/// A verify run before its results: the `rules`, then the rule of an output not judged (missing,
/// unreadable or not a valid `document`); the unverified suite as a warning notification; the
/// run's properties (verifyProperties). Artifacts are not listed.
SarifRun verifyRun(const SuiteHeader &header, std::vector<SarifRule> rules,
                   std::string_view document);

/// A JSON string of `text`: as written (jsonOf), shown as every report shows an input's text
/// (jsonShownOf: cut and escaped), or a name shown but never cut (jsonNameOf).
std::string jsonOf(std::string_view text);
std::string jsonShownOf(std::string_view text);
std::string jsonNameOf(std::string_view text);

/// A relative path as a URI reference (a SARIF `uri`): unreserved characters and '/' kept, the
/// rest percent-encoded.
std::string uriOf(std::string_view path);

} // namespace lo::report
