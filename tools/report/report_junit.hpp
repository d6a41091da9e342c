// The JUnit writer of every command that judges candidates (check, diff, verify): one model, a
// list of <testsuite> each with its test cases, and one writer for it, `writeJunit`. `check` and
// `diff` make one suite per candidate (writeJunitReports), `verify` one suite for the whole suite
// of cases (writeSuiteJunit); both write the strict JUnit schema of tests/ci-schemas/junit.xsd.
//
// Class names follow one of two schemes, the writer's parameter `JunitNames`:
//  - perCandidate (check, diff): one class name per suite (a candidate), shared by its test
//    cases: `lowering-oracle.COMMAND.WHO.MODE.EQUALITY`, where COMMAND and WHO (the case's name,
//    else the candidate's file name) are identifiers (letters, digits, '_' and '-' kept, the rest
//    '_', at most 200 bytes);
//  - perEntry (verify): one class name per test case (an entry):
//    `lowering-oracle.verify.CASE.MODE-EQUALITY` (and `-gate-POLICY` for a gate entry), where
//    CASE is the case's name shown (shownText);
//  - perSelection (check-plan): `lowering-oracle.check-plan.WHO`, WHO the candidate's file name
//    as an identifier.
// Either way a class name is unique in a report: a repeated one gets "#2", "#3", ...
#pragma once

#include "tools/report/report.hpp"

#include <string>
#include <vector>

namespace lo::report {

struct SuiteReport;

/// Class names: per candidate (check, diff), per suite entry (verify), per selection check of one
/// candidate (check-plan), per selection entry (verify --selection).
enum class JunitNames { perCandidate, perEntry, perSelection, perSelectionEntry };

/// One <testcase>.
struct JunitCase {
  enum class Outcome { passed, skipped, failure, error };
  std::string name; // the test case's name (written as XML text)
  // The parts of its class name (the scheme of `JunitNames`).
  std::string who;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  std::string policy; // a gate entry's preset; empty otherwise
  double seconds = 0;
  Outcome outcome = Outcome::passed;
  std::string type;    // failure, error: its `type`
  std::string message; // skipped, failure, error: its `message` (written as XML text)
  std::string body;    // failure, error: the element's content, already XML
};

/// One <testsuite>: its attributes, properties (values shown as XML text), cases and system-out.
struct JunitSuite {
  std::string package; // written as it is (an identifier)
  std::string name;    // written as XML text
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<JunitCase> cases;
  std::string systemOut; // already XML
};

struct SuiteHeader;
/// The <testsuite> of a verify run, without its cases: its package and `name`, the properties
/// suite, outputs, suite-verified, edition (and seed, count, max-nodes when the manifest names
/// them), and in system-out the note of a suite not verified.
JunitSuite verifySuite(const SuiteHeader &header, std::string name);

/// The report: `<testsuites>` with each suite (id = its index), the timestamp and host name of
/// the run (junitTimestamp, junitHostname), class names by `names`.
void writeJunit(io::Sink &out, const std::vector<JunitSuite> &suites, std::string_view command,
                JunitNames names);

} // namespace lo::report
