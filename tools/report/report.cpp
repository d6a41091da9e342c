#include "tools/report/report.hpp"

#include "checks/catalogue.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/locate.hpp"
#include "tools/version.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <unistd.h>

namespace lo::cli {

namespace {

using checks::Report;
using checks::Violation;

constexpr char kHex[] = "0123456789abcdef";

std::string loweringName(const ReportSubject &s) {
  return "the " + std::string(spelling(s.mode)) + " lowering (equality " +
         std::string(spelling(s.equality)) + ")";
}

bool applies(Check c, Mode mode) {
  const auto only = checks::info(c).onlyIn;
  return !only || *only == mode;
}

/// A violation's `field`, `expected` and `actual`, where it has them.
void fieldValues(io::Sink &out, const Violation &v) {
  if (v.field.empty())
    return;
  out << ",\"field\":";
  out.jsonString(v.field);
  out << ",\"expected\":";
  jsonShown(out, v.expected);
  out << ",\"actual\":";
  jsonShown(out, v.actual);
}

std::string textLine(const Violation &v) {
  return shownText(v.pointer) + ": " + std::string(spelling(v.check)) + ": " + shownText(v.message);
}

/// A name usable in a JUnit class name: letters, digits, '_' and '-' kept, the rest '_'.
std::string identifier(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 200))
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return out.empty() ? "_" : out;
}

// --- text -------------------------------------------------------------------------------

void writeText(io::Sink &out, const CaseResult &c) {
  const ReportSubject &s = c.subject;
  const std::string candidate = shownText(s.candidate);
  if (c.error) {
    out << candidate << ": error: " << errorLine(*c.error) << '\n';
    return;
  }
  const Report &report = c.report;
  for (const auto &v : report.violations)
    out << candidate << ": " << textLine(v) << '\n';
  for (const auto &[check, k] : report.omitted)
    out << candidate << ": " << spelling(check) << ": " << std::uint64_t{k} << " more "
        << (k == 1 ? "violation" : "violations") << " not listed\n";
  for (const auto &note : report.notes)
    out << candidate << ": note: " << shownText(note) << '\n';
  if (report.conforms())
    out << candidate << ": conforms to " << loweringName(s) << " of " << shownText(s.plan) << " ("
        << std::uint64_t{s.groups} << (s.groups == 1 ? " group, " : " groups, ")
        << std::uint64_t{s.nodes} << (s.nodes == 1 ? " node)\n" : " nodes)\n");
  else
    out << candidate << ": does not conform to " << loweringName(s) << " of " << shownText(s.plan)
        << ": " << violationSummary(report) << '\n';
}

void writeTextAll(io::Sink &out, const std::vector<CaseResult> &cases,
                  const ReportOptions &options) {
  std::size_t conforming = 0, errors = 0;
  for (const CaseResult &c : cases) {
    writeText(out, c);
    conforming += c.conforms();
    errors += c.error.has_value();
  }
  if (cases.size() != 1)
    out << options.command << ": " << std::uint64_t{conforming} << " of "
        << std::uint64_t{cases.size()} << " conform, "
        << std::uint64_t{cases.size() - conforming - errors} << " do not, " << std::uint64_t{errors}
        << (errors == 1 ? " error\n" : " errors\n");
}

// --- json -------------------------------------------------------------------------------

void writeJsonCase(io::Sink &out, const CaseResult &c, bool alone) {
  const ReportSubject &s = c.subject;
  out << "{\"format\":\"lowering-oracle/check-report\",\"version\":1,";
  if (!c.name.empty()) {
    out << "\"case\":";
    jsonName(out, c.name);
    out << ',';
  }
  out << (alone ? "\n " : "") << "\"plan\":";
  jsonName(out, s.plan);
  out << ",\"candidate\":";
  jsonName(out, s.candidate);
  out << ",\"mode\":\"" << spelling(s.mode) << "\",\"equality\":\"" << spelling(s.equality) << "\","
      << (alone ? "\n " : "") << "\"conforms\":" << (c.conforms() ? "true" : "false")
      << ",\"time\":" << secondsText(c.seconds) << ",\"error\":";
  if (c.error) {
    out << "{\"file\":";
    jsonName(out, c.error->file);
    out << ",\"line\":" << std::uint64_t{c.error->line}
        << ",\"column\":" << std::uint64_t{c.error->column} << ",\"pointer\":";
    out.jsonString(c.error->pointer);
    out << ",\"message\":";
    jsonShown(out, c.error->message);
    out << '}';
  } else {
    out << "null";
  }
  const Report &report = c.report;
  out << ',' << (alone ? "\n " : "") << "\"violations\":[";
  for (std::size_t i = 0; i < report.violations.size(); ++i) {
    const auto &v = report.violations[i];
    out << (i ? "," : "") << (alone ? "\n  " : "") << "{\"check\":\"" << spelling(v.check)
        << "\",\"group\":";
    if (v.group)
      out << std::uint64_t{*v.group};
    else
      out << "null";
    out << ",\"nodeId\":";
    if (v.nodeId)
      out << std::uint64_t{*v.nodeId};
    else
      out << "null";
    out << ",\"pointer\":";
    out.jsonString(v.pointer);
    out << ",\"message\":";
    jsonShown(out, v.message);
    fieldValues(out, v);
    out << '}';
  }
  out << "]," << (alone ? "\n " : "") << "\"omitted\":[";
  for (std::size_t i = 0; i < report.omitted.size(); ++i)
    out << (i ? "," : "") << "{\"check\":\"" << spelling(report.omitted[i].first)
        << "\",\"count\":" << std::uint64_t{report.omitted[i].second} << '}';
  out << "]," << (alone ? "\n " : "") << "\"notes\":[";
  for (std::size_t i = 0; i < report.notes.size(); ++i) {
    out << (i ? "," : "");
    jsonShown(out, report.notes[i]);
  }
  out << "]," << (alone ? "\n " : "") << "\"checks\":[";
  const auto n = report.countsPerCheck();
  for (std::size_t k = 0; k < n.size(); ++k) {
    const auto check = static_cast<Check>(k);
    out << (k ? "," : "") << (alone ? "\n  " : "") << "{\"check\":\"" << spelling(check)
        << "\",\"status\":\""
        << (!applies(check, s.mode) ? "skipped"
            : c.error               ? "error"
            : n[k]                  ? "failed"
                                    : "passed")
        << "\",\"violations\":" << std::uint64_t{n[k]} << '}';
  }
  out << "]}";
}

/// One candidate's check report (several candidates are judged by `verify`, whose report is
/// tools/report/suite_report.hpp's).
void writeJsonAll(io::Sink &out, const std::vector<CaseResult> &cases, const ReportOptions &) {
  if (cases.size() != 1)
    throw std::logic_error("a json check report holds one candidate");
  writeJsonCase(out, cases.front(), true);
  out << '\n';
}

// --- junit ------------------------------------------------------------------------------

/// The JUnit schema (tests/ci-schemas/junit.xsd) wants, on every suite: package, id, name,
/// timestamp, hostname, tests, failures, errors, time; then properties, the test cases,
/// system-out and system-err, in that order.
void writeJunitAll(io::Sink &out, const std::vector<CaseResult> &cases,
                   const ReportOptions &options) {
  const std::string when = junitTimestamp(), host = junitHostname();
  std::set<std::string> used; // class names, unique in the report
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (std::size_t index = 0; index < cases.size(); ++index) {
    const CaseResult &c = cases[index];
    const ReportSubject &s = c.subject;
    const auto n = c.report.countsPerCheck();
    const std::string who = c.name.empty() ? s.candidate : c.name;
    std::string classname = "lowering-oracle." + identifier(options.command) + "." +
                            identifier(who) + "." + std::string(spelling(s.mode)) + "." +
                            std::string(spelling(s.equality));
    for (std::size_t k = 2; !used.insert(classname).second; ++k)
      classname = classname.substr(0, classname.rfind('#')) + "#" + std::to_string(k);

    std::size_t tests = 0, failures = 0, skipped = 0, errors = 0;
    if (c.error) {
      tests = errors = 1;
    } else if (options.junitCasePerCheck) {
      tests = n.size();
      for (std::size_t k = 0; k < n.size(); ++k) {
        failures += n[k] > 0;
        skipped += !applies(static_cast<Check>(k), s.mode);
      }
    } else {
      tests = 1;
      failures = !c.report.conforms();
    }
    out << "  <testsuite package=\"lowering-oracle." << identifier(options.command) << "\" id=\""
        << std::uint64_t{index} << "\" name=\"";
    xmlShown(out, "lowering-oracle " + options.command + " " + who + " (" +
                      std::string(spelling(s.mode)) + ", " + std::string(spelling(s.equality)) +
                      ")");
    out << "\" timestamp=\"" << when << "\" hostname=\"" << host << "\" tests=\""
        << std::uint64_t{tests} << "\" failures=\"" << std::uint64_t{failures} << "\" errors=\""
        << std::uint64_t{errors} << "\" skipped=\"" << std::uint64_t{skipped} << "\" time=\""
        << secondsText(c.seconds) << "\">\n";
    out << "    <properties>\n      <property name=\"plan\" value=\"";
    xmlShown(out, s.plan);
    out << "\"/>\n      <property name=\"candidate\" value=\"";
    xmlShown(out, s.candidate);
    out << "\"/>\n      <property name=\"mode\" value=\"" << spelling(s.mode)
        << "\"/>\n      <property name=\"equality\" value=\"" << spelling(s.equality)
        << "\"/>\n    </properties>\n";
    auto testcase = [&](std::string_view name, double time) {
      out << "    <testcase classname=\"";
      writeXml(out, classname);
      out << "\" name=\"" << name << "\" time=\"" << secondsText(time) << "\"";
    };
    if (c.error) {
      testcase("input", c.seconds);
      out << ">\n      <error type=\"invalid-input\" message=\"";
      writeXml(out, errorLine(*c.error));
      out << "\">";
      writeXml(out, errorLine(*c.error));
      out << "</error>\n    </testcase>\n";
    } else if (!options.junitCasePerCheck) {
      testcase(std::string(spelling(s.mode)) + "-" + std::string(spelling(s.equality)), c.seconds);
      if (c.report.conforms()) {
        out << "/>\n";
      } else {
        out << ">\n      <failure type=\"does-not-conform\" message=\"";
        writeXml(out, violationSummary(c.report));
        out << "\">";
        for (const auto &v : c.report.violations) {
          writeXml(out, shownText(s.candidate) + ": " + textLine(v));
          out << '\n';
        }
        for (const auto &[oc, k] : c.report.omitted)
          out << spelling(oc) << ": " << std::uint64_t{k} << " more not listed\n";
        out << "</failure>\n    </testcase>\n";
      }
    } else {
      // The checks run together: each check's time is the candidate's time shared evenly.
      const double each = c.seconds / static_cast<double>(n.size());
      for (std::size_t k = 0; k < n.size(); ++k) {
        const auto check = static_cast<Check>(k);
        testcase(spelling(check), each);
        if (!applies(check, s.mode)) {
          out << ">\n      <skipped message=\"applies only in mode "
              << spelling(*checks::info(check).onlyIn) << "\"/>\n    </testcase>\n";
          continue;
        }
        if (!n[k]) {
          out << "/>\n";
          continue;
        }
        out << ">\n      <failure type=\"" << spelling(check) << "\" message=\"";
        writeXml(out, std::to_string(n[k]) + (n[k] == 1 ? " violation: " : " violations: ") +
                          std::string(checks::info(check).failsWhen));
        out << "\">";
        for (const auto &v : c.report.violations)
          if (v.check == check) {
            writeXml(out, shownText(s.candidate) + ": " + textLine(v));
            out << '\n';
          }
        for (const auto &[oc, k2] : c.report.omitted)
          if (oc == check)
            out << std::uint64_t{k2} << " more not listed\n";
        out << "</failure>\n    </testcase>\n";
      }
    }
    out << "    <system-out>";
    for (const auto &note : c.report.notes) {
      writeXml(out, "note: " + shownText(note));
      out << '\n';
    }
    out << "</system-out>\n    <system-err></system-err>\n  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

// --- sarif ------------------------------------------------------------------------------

/// "file:///abs/dir/" for the working directory (the %SRCROOT% base of relative URIs).
std::string workingDirectoryUri() {
  std::error_code e;
  std::string cwd = std::filesystem::current_path(e).string();
  if (e || cwd.empty())
    cwd = "/";
  if (cwd.back() != '/')
    cwd += '/';
  return "file://" + uriOf(cwd);
}

/// FNV-1a, 64 bits, in hex: a stable fingerprint, the same on every machine.
std::string fingerprint(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4)
    out[static_cast<std::size_t>(i)] = kHex[h & 15];
  return out;
}

/// The URI of a file in an artifact location: relative paths against %SRCROOT%, absolute ones as
/// file URIs.
void uriMembers(io::Sink &out, const std::string &file) {
  out << "\"uri\":";
  if (!file.empty() && file.front() == '/') {
    out.jsonString("file://" + uriOf(file));
  } else {
    out.jsonString(uriOf(file));
    out << ",\"uriBaseId\":\"%SRCROOT%\"";
  }
}

/// The artifact location of a file, with its index in the run's artifacts.
void artifactLocation(io::Sink &out, const std::string &file, std::size_t index) {
  out << '{';
  uriMembers(out, file);
  out << ",\"index\":" << std::uint64_t{index} << '}';
}

constexpr std::string_view kInvalidInput = "invalid-input";

void writeSarifAll(io::Sink &out, const std::vector<CaseResult> &cases,
                   const ReportOptions &options) {
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
         "\n \"runs\":[{\"tool\":{\"driver\":{\"name\":\"lowering-oracle\",\"version\":\""
      << kVersion << "\","
      << "\"rules\":[";
  writeSarifCheckRules(out, true);
  out << ",\n  {\"id\":\"" << kInvalidInput
      << "\",\"shortDescription\":{\"text\":\"The candidate or the plan is not a valid "
         "document and could not be judged.\"},\"fullDescription\":{\"text\":\"The file is not "
         "JSON, or not a GraphExecutionPlan or GraphLoweringPlan as docs/formats.md describes; "
         "the message gives the position and what is wrong.\"},"
         "\"defaultConfiguration\":{\"level\":\"error\"}}";
  out << "]}},\n \"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":";
  out.jsonString(workingDirectoryUri());
  out << "}},\n \"columnKind\":\"unicodeCodePoints\",\n \"artifacts\":[";
  // One artifact per distinct candidate and plan file.
  std::vector<std::string> artifacts;
  std::map<std::string, std::size_t> indexOf;
  auto artifactIndex = [&](const std::string &file) {
    const auto [it, added] = indexOf.emplace(file, artifacts.size());
    if (added)
      artifacts.push_back(file);
    return it->second;
  };
  for (const CaseResult &c : cases) {
    artifactIndex(c.subject.candidate);
    artifactIndex(c.subject.plan);
    if (c.error)
      artifactIndex(c.error->file);
  }
  for (std::size_t i = 0; i < artifacts.size(); ++i) {
    out << (i ? "," : "") << "{\"location\":";
    artifactLocation(out, artifacts[i], i);
    out << '}';
  }
  bool allRan = true;
  for (const CaseResult &c : cases)
    allRan &= !c.error;
  out << "],\n \"invocations\":[{\"executionSuccessful\":" << (allRan ? "true" : "false")
      << ",\"toolExecutionNotifications\":[";
  bool first = true;
  for (const CaseResult &c : cases) {
    for (const auto &note : c.report.notes) {
      out << (first ? "" : ",") << "{\"level\":\"note\",\"message\":{\"text\":";
      jsonShown(out, shownText(c.subject.candidate) + ": " + note);
      out << "}}";
      first = false;
    }
    for (const auto &[check, k] : c.report.omitted) {
      out << (first ? "" : ",") << "{\"level\":\"warning\",\"message\":{\"text\":";
      out.jsonString(shownText(c.subject.candidate) + ": " + std::string(spelling(check)) + ": " +
                     std::to_string(k) + " more violations not listed");
      out << "}}";
      first = false;
    }
    if (c.error) {
      out << (first ? "" : ",") << "{\"level\":\"error\",\"message\":{\"text\":";
      out.jsonString(errorLine(*c.error));
      out << "}}";
      first = false;
    }
  }
  out << "]}],\n \"properties\":{\"command\":";
  out.jsonString(options.command);
  out << "},\n \"results\":[";
  first = true;
  auto result = [&](const CaseResult &c, std::string_view ruleId, std::size_t ruleIndex,
                    const std::string &message, const std::string &file, const std::string &pointer,
                    std::optional<TextPosition> where, const std::string &key) {
    out << (first ? "\n  " : ",\n  ");
    writeSarifResultStart(out, ruleId, ruleIndex, message);
    out << ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":";
    artifactLocation(out, file, artifactIndex(file));
    if (where)
      writeSarifRegion(out, where->line, where->column);
    out << '}';
    writeSarifLogicalLocation(out, shownText(pointer));
    out << "}],\"partialFingerprints\":{\"loweringOracle/v1\":\"" << fingerprint(key)
        << "\"},\"properties\":{\"mode\":\"" << spelling(c.subject.mode) << "\",\"equality\":\""
        << spelling(c.subject.equality) << '"';
    if (!c.name.empty()) {
      out << ",\"case\":";
      jsonShown(out, c.name);
    }
    first = false;
  };
  for (const CaseResult &c : cases) {
    const std::string scope = c.name + '\0' + c.subject.candidate + '\0' +
                              std::string(spelling(c.subject.mode)) + '\0' +
                              std::string(spelling(c.subject.equality)) + '\0';
    if (c.error) {
      std::optional<TextPosition> where;
      if (c.error->line)
        where = TextPosition{c.error->line, c.error->column};
      result(c, kInvalidInput, vocabularySize<Check>(), errorLine(*c.error), c.error->file,
             c.error->pointer, where, scope + std::string(kInvalidInput) + '\0' + c.error->pointer);
      out << "}}";
      continue;
    }
    // The regions of all the candidate's violations, found in one pass over its text.
    std::vector<std::optional<std::pair<std::size_t, std::size_t>>> regions;
    if (!c.candidateText.empty()) {
      std::vector<std::string_view> pointers;
      for (const auto &v : c.report.violations)
        pointers.push_back(v.pointer);
      regions = locateAll(c.candidateText, pointers);
    }
    for (std::size_t k = 0; k < c.report.violations.size(); ++k) {
      const auto &v = c.report.violations[k];
      std::optional<TextPosition> where;
      if (k < regions.size() && regions[k])
        where = TextPosition{regions[k]->first, regions[k]->second};
      result(c, spelling(v.check), static_cast<std::size_t>(v.check), shownText(v.message),
             c.subject.candidate, v.pointer, where,
             scope + std::string(spelling(v.check)) + '\0' + v.pointer);
      if (v.group)
        out << ",\"group\":" << std::uint64_t{*v.group};
      if (v.nodeId)
        out << ",\"nodeId\":" << std::uint64_t{*v.nodeId};
      fieldValues(out, v);
      out << "}}";
    }
  }
  out << "]}]}\n";
}

} // namespace

/// A relative path as a URI reference: unreserved characters and '/' kept, the rest
/// percent-encoded.
std::string uriOf(std::string_view path) {
  std::string out;
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += c;
    else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

/// ISO 8601 UTC time of the report, without time zone (the JUnit schema's pattern: a four-digit
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

std::string junitHostname() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0 || !buffer[0])
    return "localhost";
  return identifier(buffer);
}

std::string errorLine(const ReportError &e) {
  std::string out = shownText(e.file);
  if (e.line)
    out += ":" + std::to_string(e.line) + ":" + std::to_string(e.column);
  if (!e.pointer.empty())
    out += ": " + shownText(e.pointer);
  return out + ": " + shownText(e.message);
}

void writeXml(io::Sink &out, std::string_view text) { out << io::xmlText(text); }

std::string secondsText(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s < 0 ? 0.0 : s);
  return buffer;
}

void writeSarifCheckRules(io::Sink &out, bool withHelp) {
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
    const auto &i = checks::info(static_cast<Check>(c));
    out << (c ? ",\n  " : "\n  ") << "{\"id\":\"" << spelling(i.check)
        << "\",\"shortDescription\":{\"text\":";
    out.jsonString("Fails when " + std::string(i.failsWhen) + ".");
    out << "},\"fullDescription\":{\"text\":";
    out.jsonString(i.meaning);
    if (withHelp) {
      out << "},\"help\":{\"text\":";
      out.jsonString("Run `lowering-oracle explain " + std::string(spelling(i.check)) +
                     "` for a minimal failing example.");
    }
    out << "},\"defaultConfiguration\":{\"level\":\"error\"}}";
  }
}

void writeSarifResultStart(io::Sink &out, std::string_view ruleId, std::size_t ruleIndex,
                           std::string_view message) {
  out << "{\"ruleId\":\"" << ruleId << "\",\"ruleIndex\":" << std::uint64_t{ruleIndex}
      << ",\"level\":\"error\",\"message\":{\"text\":";
  out.jsonString(message);
  out << '}';
}

void writeSarifRegion(io::Sink &out, std::size_t line, std::size_t column) {
  out << ",\"region\":{\"startLine\":" << std::uint64_t{line}
      << ",\"startColumn\":" << std::uint64_t{column} << '}';
}

void writeSarifLogicalLocation(io::Sink &out, std::string_view pointer) {
  if (pointer.empty())
    return;
  out << ",\"logicalLocations\":[{\"fullyQualifiedName\":";
  out.jsonString(pointer);
  out << ",\"kind\":\"element\"}]";
}

void xmlShown(io::Sink &out, std::string_view text) { writeXml(out, shownText(text)); }

void jsonShown(io::Sink &out, std::string_view text) { out.jsonString(shownText(text)); }

void jsonName(io::Sink &out, std::string_view text) { out.jsonString(shownText(text, io::kUncut)); }

ReportError ReportError::from(const io::InputError &e) {
  return {e.file(), e.line(), e.column(), e.pointer(), e.message()};
}

std::string violationSummary(const Report &report) {
  const auto n = report.countsPerCheck();
  const std::size_t all = report.total();
  std::string out = std::to_string(all) + (all == 1 ? " violation" : " violations");
  std::string parts;
  for (std::size_t c = 0; c < n.size(); ++c)
    if (n[c])
      parts += (parts.empty() ? "" : ", ") + std::string(spelling(static_cast<Check>(c))) + " " +
               std::to_string(n[c]);
  return parts.empty() ? out : out + " (" + parts + ")";
}

void writeReports(io::Sink &out, ReportFormat format, const std::vector<CaseResult> &cases,
                  const ReportOptions &options) {
  switch (format) {
  case ReportFormat::text: writeTextAll(out, cases, options); break;
  case ReportFormat::json: writeJsonAll(out, cases, options); break;
  case ReportFormat::junit: writeJunitAll(out, cases, options); break;
  case ReportFormat::sarif: writeSarifAll(out, cases, options); break;
  case ReportFormat::html: writeHtmlReports(out, cases, options); break;
  }
}

void writeReport(io::Sink &out, ReportFormat format, const Report &report,
                 const ReportSubject &subject) {
  CaseResult c;
  c.subject = subject;
  c.report = report;
  writeReports(out, format, {c});
}

void writeReportText(io::Sink &out, const Report &r, const ReportSubject &s) {
  writeReport(out, ReportFormat::text, r, s);
}
void writeReportJson(io::Sink &out, const Report &r, const ReportSubject &s) {
  writeReport(out, ReportFormat::json, r, s);
}
std::string sarifSourceRootUri() { return workingDirectoryUri(); }

void writeSarifArtifactLocation(io::Sink &out, const std::string &file) {
  out << '{';
  uriMembers(out, file);
  out << '}';
}

std::string sarifFingerprint(std::string_view key) { return fingerprint(key); }

} // namespace lo::cli
