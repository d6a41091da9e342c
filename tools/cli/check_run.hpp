// The run of `check` (docs/spec.md §3.1 and §4.3): whether CANDIDATE is exactly what the spec gives
// for PLAN, both read whole, or, with --stream, both read in step as NDJSON streams (docs/spec.md
// §3.6 and §7) under a stall watch; then the report, written whole to the output.
#pragma once

#include "ref/edition.hpp"
#include "ref/io/limits.hpp"
#include "ref/vocab.hpp"
#include "tools/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace lo::cli {

/// check's operands and options (its --help).
struct CheckSettings {
  std::string plan, candidate, out = "-"; // PLAN, CANDIDATE ("-": standard input), -o
  Mode mode = Mode::coalesced;            // --mode: the user's, never the candidate's
  Equality equality = Equality::contract; // --equality
  Edition edition = kNewestEdition;       // --edition: the user's, never a file's
  report::ReportFormat format = report::ReportFormat::text;
  std::size_t maxPerCheck = io::kDefaultMaxPerCheck;
  bool stream = false;           // --stream
  bool audit = false;            // --audit: the audit is asked for (docs/spec.md §3.1, audit)
  std::uint64_t stallMs = 10000; // --stall-ms (0: wait forever)
};

/// Checks and writes the report to `s.out`; returns kSuccess when the candidate conforms, else
/// kFinding. Throws on invalid input (io::InputError, exit status 2): for the formats other than
/// text, the report is written first with the error as an entry (so that CI shows it).
int runCheck(const CheckSettings &s);

} // namespace lo::cli
