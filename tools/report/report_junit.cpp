// The JUnit writer (report_junit.hpp): the model of check/diff and of verify, and the one writer.
#include "tools/report/report_junit.hpp"
#include "tools/report/writers.hpp"

#include "checks/catalogue.hpp"
#include "ref/io/limits.hpp"
#include "tools/report/suite_report.hpp"

#include <cstdlib>
#include <ctime>
#include <set>
#include <unistd.h>

namespace lo::report {

namespace {

using Outcome = JunitCase::Outcome;

/// A name usable in a JUnit class name: letters, digits, '_' and '-' kept, the rest '_'.
std::string identifier(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, io::kMaxJunitNameBytes))
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return out.empty() ? "_" : out;
}

/// The class name of a case by the scheme `names` (report_junit.hpp).
std::string classNameOf(const JunitCase &c, std::string_view command, JunitNames names) {
  const std::string mode(spelling(c.mode)), equality(spelling(c.equality));
  if (names == JunitNames::perSelectionEntry)
    return "lowering-oracle.verify.selection." + shownText(c.who);
  if (names == JunitNames::perSelection)
    return "lowering-oracle." + identifier(command) + "." + identifier(c.who);
  if (names == JunitNames::perCandidate)
    return "lowering-oracle." + identifier(command) + "." + identifier(c.who) + "." + mode + "." +
           equality;
  return "lowering-oracle.verify." + shownText(c.who) + "." + mode + "-" + equality +
         (c.policy.empty() ? "" : "-gate-" + c.policy);
}

/// The time of a JUnit report: ISO 8601 UTC without time zone (the schema's pattern: a four-digit
/// year). $SOURCE_DATE_EPOCH, when set, makes it reproducible; it is taken only when it is a
/// whole number of seconds from 0 to 253402300799 (9999-12-31T23:59:59), else the current time
/// is written (docs/ci.md, "Reports"): a value gmtime cannot render never makes the report invalid.
std::string junitTimestamp() {
  constexpr long long kLastSecondOfYear9999 = 253402300799LL;
  std::time_t now = std::time(nullptr);
  if (const char *epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
    long long value = 0;
    bool whole = true;
    for (const char *c = epoch; *c && whole; ++c) {
      whole = *c >= '0' && *c <= '9' && value <= kLastSecondOfYear9999;
      value = value * 10 + (*c - '0');
    }
    if (whole && value <= kLastSecondOfYear9999)
      now = static_cast<std::time_t>(value);
  }
  std::tm tm{};
  char buffer[32];
  if (!::gmtime_r(&now, &tm) || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999 ||
      std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm) != 19)
    return "1970-01-01T00:00:00";
  return buffer;
}

/// The host name of a JUnit report, as an identifier ("localhost" when there is none).
std::string junitHostname() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0 || !buffer[0])
    return "localhost";
  return identifier(buffer);
}

/// `CANDIDATE: /pointer: check: sentence`, as XML, one a line.
std::string violationLinesXml(const CaseResult &c, std::optional<Check> only) {
  std::string body;
  for (const auto &v : c.report.violations)
    if (!only || v.check == *only)
      body += io::xmlText(shownText(c.subject.candidate) + ": " + violationLine(v)) + '\n';
  return body;
}

/// The suite of one candidate of `check` or `diff`.
JunitSuite candidateSuite(const CaseResult &c, const ReportOptions &options) {
  const ReportSubject &s = c.subject;
  const auto n = c.report.countsPerCheck();
  const std::string mode(spelling(s.mode)), equality(spelling(s.equality));
  const std::string who = c.name.empty() ? s.candidate : c.name;
  JunitSuite suite;
  suite.package = "lowering-oracle." + identifier(options.command);
  suite.name = shownText("lowering-oracle " + options.command + " " + who + " (" + mode + ", " +
                         equality + ")");
  suite.seconds = c.seconds;
  suite.properties = {
      {"plan", s.plan}, {"candidate", s.candidate}, {"mode", mode}, {"equality", equality}};
  JunitCase base;
  base.who = who;
  base.mode = s.mode;
  base.equality = s.equality;
  base.seconds = c.seconds;
  if (c.error) {
    suite.tests = suite.errors = 1;
    JunitCase e = base;
    e.name = "input";
    e.outcome = Outcome::error;
    e.type = "invalid-input";
    e.message = errorLine(*c.error);
    e.body = io::xmlText(errorLine(*c.error));
    suite.cases.push_back(std::move(e));
  } else {
    suite.tests = n.size();
    // The checks run together: each check's time is the candidate's time shared evenly.
    const double each = c.seconds / static_cast<double>(n.size());
    for (std::size_t k = 0; k < n.size(); ++k) {
      const auto check = static_cast<Check>(k);
      suite.failures += n[k] > 0;
      JunitCase one = base;
      one.name = spelling(check);
      one.seconds = each;
      if (!checkAppliesIn(check, s.mode, s.edition)) {
        ++suite.skipped;
        one.outcome = Outcome::skipped;
        one.message = skippedBecause(check, s.mode, s.edition);
      } else if (n[k]) {
        one.outcome = Outcome::failure;
        one.type = spelling(check);
        one.message = std::to_string(n[k]) + (n[k] == 1 ? " violation: " : " violations: ") +
                      std::string(checks::info(check).failsWhen);
        one.body = violationLinesXml(c, check);
        for (const auto &[oc, k2] : c.report.omitted)
          if (oc == check)
            one.body += std::to_string(k2) + " more not listed\n";
      }
      suite.cases.push_back(std::move(one));
    }
  }
  for (const auto &note : c.report.notes)
    suite.systemOut += io::xmlText("note: " + shownText(note)) + '\n';
  return suite;
}

} // namespace

/// The JUnit schema (tests/ci-schemas/junit.xsd) wants, on every suite: package, id, name,
/// timestamp, hostname, tests, failures, errors, time; then properties, the test cases,
/// system-out and system-err, in that order.
void writeJunit(io::Sink &out, const std::vector<JunitSuite> &suites, std::string_view command,
                JunitNames names) {
  const std::string when = junitTimestamp(), host = junitHostname();
  // Class names are unique in the report: two names can be shown alike (an identifier or
  // shownText maps several to one), and the #N suffix keeps them apart.
  std::set<std::string> used;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (std::size_t index = 0; index < suites.size(); ++index) {
    const JunitSuite &s = suites[index];
    out << "  <testsuite package=\"" << s.package << "\" id=\"" << std::uint64_t{index}
        << "\" name=\"";
    writeXml(out, s.name);
    out << "\" timestamp=\"" << when << "\" hostname=\"" << host << "\" tests=\""
        << std::uint64_t{s.tests} << "\" failures=\"" << std::uint64_t{s.failures} << "\" errors=\""
        << std::uint64_t{s.errors} << "\" skipped=\"" << std::uint64_t{s.skipped} << "\" time=\""
        << secondsText(s.seconds) << "\">\n    <properties>\n";
    for (const auto &[name, value] : s.properties) {
      out << "      <property name=\"" << name << "\" value=\"";
      xmlShown(out, value);
      out << "\"/>\n";
    }
    out << "    </properties>\n";
    std::string classname; // perCandidate: the suite's, shared by its cases
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
      const JunitCase &c = s.cases[i];
      if (i == 0 || names == JunitNames::perEntry || names == JunitNames::perSelectionEntry) {
        const std::string base = classNameOf(c, command, names);
        classname = base;
        for (std::size_t k = 2; !used.insert(classname).second; ++k)
          classname = base + "#" + std::to_string(k);
      }
      out << "    <testcase classname=\"";
      writeXml(out, classname);
      out << "\" name=\"";
      writeXml(out, c.name);
      out << "\" time=\"" << secondsText(c.seconds) << '"';
      switch (c.outcome) {
      case Outcome::passed: out << "/>\n"; continue;
      case Outcome::skipped:
        out << ">\n      <skipped message=\"";
        writeXml(out, c.message);
        out << "\"/>\n    </testcase>\n";
        continue;
      case Outcome::failure:
      case Outcome::error: {
        const char *element = c.outcome == Outcome::failure ? "failure" : "error";
        out << ">\n      <" << element << " type=\"" << c.type << "\" message=\"";
        writeXml(out, c.message);
        out << "\">" << c.body << "</" << element << ">\n    </testcase>\n";
      }
      }
    }
    out << "    <system-out>" << s.systemOut
        << "</system-out>\n    <system-err></system-err>\n  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

/// check, diff: one suite per candidate, with one case per check (the checks that do not apply
/// in the mode skipped); an input error is one case with <error type="invalid-input">; the
/// candidate's notes in system-out.
static void writeJunitReports(io::Sink &out, const std::vector<CaseResult> &cases,
                              const ReportOptions &options) {
  std::vector<JunitSuite> suites;
  for (const CaseResult &c : cases)
    suites.push_back(candidateSuite(c, options));
  writeJunit(out, suites, options.command, JunitNames::perCandidate);
}

JunitSuite verifySuite(const SuiteHeader &r, std::string name) {
  JunitSuite suite;
  suite.package = "lowering-oracle.verify";
  suite.name = std::move(name);
  suite.properties = {{"suite", r.suite},
                      {"outputs", r.outputs},
                      {"suite-verified", r.suiteVerified ? "true" : "false"},
                      {"edition", std::string(spelling(r.edition))}};
  if (r.parameters) // gen's parameters the manifest names (none for a hand-made suite)
    suite.properties.insert(suite.properties.end(),
                            {{"seed", std::to_string(r.parameters->seed)},
                             {"count", std::to_string(r.parameters->count)},
                             {"max-nodes", std::to_string(r.parameters->maxNodes)}});
  if (!r.suiteVerified)
    suite.systemOut += io::xmlText("note: " + unverifiedNote(r) + "\n");
  return suite;
}

/// verify: one suite, one case per entry (a failure for violations, an error for an output that
/// could not be judged); the notes of conforming entries, and whether the suite was verified, in
/// system-out and the property `suite-verified`. The output's file name is in the failure or
/// error text (the schema has no `file` attribute).
static void writeSuiteJunit(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  JunitSuite suite = verifySuite(r, "lowering-oracle verify " + shownText(r.suite));
  suite.tests = r.entries.size();
  suite.failures = r.count(Status::fails);
  suite.errors = r.count(Status::error);
  for (const SuiteEntry &e : r.entries) {
    suite.seconds += e.result.seconds;
    JunitCase c;
    c.who = e.result.name;
    c.mode = e.result.subject.mode;
    c.equality = e.result.subject.equality;
    c.policy = e.policy;
    c.name = shownText(e.result.name) + " " + std::string(spelling(e.result.subject.mode)) + "-" +
             std::string(spelling(e.result.subject.equality)) +
             (e.policy.empty() ? "" : "-gate-" + e.policy);
    c.seconds = e.result.seconds;
    if (e.status() == Status::error) {
      c.outcome = Outcome::error;
      c.type = "output-error";
      c.message = shownText(e.result.error->message);
      c.body = io::xmlText(entryErrorLine(e));
    } else if (e.status() == Status::fails) {
      c.outcome = Outcome::failure;
      c.type = "does-not-conform";
      c.message = violationSummary(e.result.report);
      c.body = io::xmlText(io::writtenText(
          [&](io::Sink &lines) { writeReportText(lines, e.result.report, e.result.subject); }));
    }
    suite.cases.push_back(std::move(c));
  }
  // The notes of conforming entries (a failing entry's are in its failure text).
  for (const SuiteEntry &e : r.entries)
    if (e.status() == Status::conforms)
      for (const std::string &note : e.result.report.notes)
        suite.systemOut += io::xmlText(entryNoteLine(e, note) + "\n");
  writeJunit(out, {suite}, "verify", JunitNames::perEntry);
}

const ReportWriter kJunitWriter{writeJunitReports, writeSuiteJunit};

} // namespace lo::report
