// The SARIF writer (report_sarif.hpp): the model of check/diff and of verify, and the one writer.
#include "tools/report/report_sarif.hpp"
#include "tools/report/writers.hpp"

#include "checks/catalogue.hpp"
#include "tools/report/locate.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/version.hpp"

#include <filesystem>
#include <map>

namespace lo::report {

std::string jsonOf(std::string_view text) {
  return io::writtenText([&](io::Sink &out) { out.jsonString(text); });
}
std::string jsonShownOf(std::string_view text) {
  return io::writtenText([&](io::Sink &out) { jsonShown(out, text); });
}
std::string jsonNameOf(std::string_view text) {
  return io::writtenText([&](io::Sink &out) { jsonName(out, text); });
}

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

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
    out[static_cast<std::size_t>(i)] = kHexDigits[h & 15];
  return out;
}

/// An artifact location: relative paths against %SRCROOT%, absolute ones as file URIs; with the
/// artifact's index in the run when it has one.
void artifactLocation(io::Sink &out, const std::string &file, std::optional<std::size_t> index) {
  out << "{\"uri\":";
  if (!file.empty() && file.front() == '/') {
    out.jsonString("file://" + uriOf(file));
  } else {
    out.jsonString(uriOf(file));
    out << ",\"uriBaseId\":\"%SRCROOT%\"";
  }
  if (index)
    out << ",\"index\":" << std::uint64_t{*index};
  out << '}';
}

void members(io::Sink &out, const JsonMembers &all) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    out << (i ? "," : "");
    out.jsonString(all[i].first);
    out << ':' << all[i].second;
  }
}

/// A violation's `field`, `expected` and `actual`, where it has them.
void addFieldValues(JsonMembers &to, const checks::Violation &v) {
  if (v.field.empty())
    return;
  to.emplace_back("field", jsonOf(v.field));
  to.emplace_back("expected", jsonShownOf(v.expected));
  to.emplace_back("actual", jsonShownOf(v.actual));
}

} // namespace

std::vector<SarifRule> checkRules(bool withHelp) {
  std::vector<SarifRule> rules;
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
    const auto &i = checks::info(static_cast<Check>(c));
    const std::string name(spelling(i.check));
    rules.push_back(
        {name, "Fails when " + std::string(i.failsWhen) + ".", std::string(i.meaning),
         withHelp ? "Run `lowering-oracle explain " + name + "` for a minimal failing example."
                  : ""});
  }
  return rules;
}

std::string uriOf(std::string_view path) {
  std::string out;
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += c;
    else {
      out += '%';
      out += kHexDigits[u >> 4];
      out += kHexDigits[u & 15];
    }
  }
  return out;
}

void writeSarif(io::Sink &out, const SarifRun &run) {
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
         "\n \"runs\":[{\"tool\":{\"driver\":{\"name\":\"lowering-oracle\",\"version\":\""
      << cli::kVersion << "\",\"rules\":[";
  for (std::size_t i = 0; i < run.rules.size(); ++i) {
    const SarifRule &r = run.rules[i];
    out << (i ? ",\n  " : "\n  ") << "{\"id\":";
    out.jsonString(r.id);
    out << ",\"shortDescription\":{\"text\":";
    out.jsonString(r.shortText);
    if (!r.fullText.empty()) {
      out << "},\"fullDescription\":{\"text\":";
      out.jsonString(r.fullText);
    }
    if (!r.helpText.empty()) {
      out << "},\"help\":{\"text\":";
      out.jsonString(r.helpText);
    }
    out << "},\"defaultConfiguration\":{\"level\":\"error\"}}";
  }
  out << "]}},\n \"originalUriBaseIds\":{"
         "\"%SRCROOT%\":{\"uri\":";
  out.jsonString(workingDirectoryUri());
  out << "}},\n \"columnKind\":\"unicodeCodePoints\"";
  std::map<std::string, std::size_t> indexOf;
  if (run.listArtifacts) {
    out << ",\n \"artifacts\":[";
    for (std::size_t i = 0; i < run.artifacts.size(); ++i) {
      indexOf.emplace(run.artifacts[i], i);
      out << (i ? "," : "") << "{\"location\":";
      artifactLocation(out, run.artifacts[i], i);
      out << '}';
    }
    out << ']';
  }
  out << ",\n \"invocations\":[{\"executionSuccessful\":"
      << (run.executionSuccessful ? "true" : "false") << ",\"toolExecutionNotifications\":[";
  for (std::size_t i = 0; i < run.notifications.size(); ++i) {
    out << (i ? "," : "") << "{\"level\":\"" << run.notifications[i].first
        << "\",\"message\":{\"text\":";
    out.jsonString(run.notifications[i].second);
    out << "}}";
  }
  out << "]}],\n \"properties\":{";
  members(out, run.properties);
  out << "},\n \"results\":[";
  for (std::size_t i = 0; i < run.results.size(); ++i) {
    const SarifResult &r = run.results[i];
    out << (i ? ",\n  " : "\n  ") << "{\"ruleId\":\"" << r.ruleId
        << "\",\"ruleIndex\":" << std::uint64_t{r.ruleIndex}
        << ",\"level\":\"error\",\"message\":{\"text\":";
    out.jsonString(r.message);
    out << "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":";
    std::optional<std::size_t> index;
    if (const auto it = indexOf.find(r.file); run.listArtifacts && it != indexOf.end())
      index = it->second;
    artifactLocation(out, r.file, index);
    if (r.region)
      out << ",\"region\":{\"startLine\":" << std::uint64_t{r.region->first}
          << ",\"startColumn\":" << std::uint64_t{r.region->second} << '}';
    out << '}';
    if (const std::string pointer = shownText(r.pointer); !pointer.empty()) {
      out << ",\"logicalLocations\":[{\"fullyQualifiedName\":";
      out.jsonString(pointer);
      out << ",\"kind\":\"element\"}]";
    }
    out << "}],\"partialFingerprints\":{\"loweringOracle/v1\":\"" << fingerprint(r.key)
        << "\"},\"properties\":{";
    members(out, r.properties);
    out << "}}";
  }
  out << "]}]}\n";
}

/// check, diff: one result per violation or input error; notes, omitted violations and errors as
/// notifications; the run's property `command`.
static void writeSarifReports(io::Sink &out, const std::vector<CaseResult> &cases,
                              const ReportOptions &options) {
  SarifRun run;
  const std::string inputRule = "invalid-input"; // after the checks' rules
  run.rules = checkRules(true);
  run.rules.push_back(
      {inputRule, "The candidate or the plan is not a valid document and could not be judged.",
       "The file is not JSON, or not a GraphExecutionPlan or GraphLoweringPlan as "
       "docs/formats.md describes; the message gives the position and what is wrong.",
       ""});
  // One artifact per distinct candidate and plan file.
  std::map<std::string, std::size_t> seen;
  auto artifact = [&](const std::string &file) {
    if (seen.emplace(file, run.artifacts.size()).second)
      run.artifacts.push_back(file);
  };
  for (const CaseResult &c : cases) {
    artifact(c.subject.candidate);
    artifact(c.subject.plan);
    if (c.error)
      artifact(c.error->file);
  }
  for (const CaseResult &c : cases) {
    run.executionSuccessful &= !c.error;
    const std::string candidate = shownText(c.subject.candidate);
    for (const auto &note : c.report.notes)
      run.notifications.emplace_back("note", shownText(candidate + ": " + note));
    for (const auto &[check, k] : c.report.omitted)
      run.notifications.emplace_back("warning", candidate + ": " + std::string(spelling(check)) +
                                                    ": " + std::to_string(k) +
                                                    " more violations not listed");
    if (c.error)
      run.notifications.emplace_back("error", errorLine(*c.error));
  }
  run.properties = {{"command", jsonOf(options.command)}};
  for (const CaseResult &c : cases) {
    const std::string scope = c.name + '\0' + c.subject.candidate + '\0' +
                              std::string(spelling(c.subject.mode)) + '\0' +
                              std::string(spelling(c.subject.equality)) + '\0';
    JsonMembers entry = {{"mode", jsonOf(spelling(c.subject.mode))},
                         {"equality", jsonOf(spelling(c.subject.equality))}};
    if (!c.name.empty())
      entry.emplace_back("case", jsonShownOf(c.name));
    if (c.error) {
      SarifResult r{inputRule,
                    vocabularySize<Check>(),
                    errorLine(*c.error),
                    c.error->file,
                    std::nullopt,
                    c.error->pointer,
                    scope + inputRule + '\0' + c.error->pointer,
                    entry};
      if (c.error->line)
        r.region.emplace(c.error->line, c.error->column);
      run.results.push_back(std::move(r));
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
      SarifResult r{std::string(spelling(v.check)),
                    static_cast<std::size_t>(v.check),
                    shownText(v.message),
                    c.subject.candidate,
                    k < regions.size() ? regions[k] : std::nullopt,
                    v.pointer,
                    scope + std::string(spelling(v.check)) + '\0' + v.pointer,
                    entry};
      if (v.group)
        r.properties.emplace_back("group", std::to_string(*v.group));
      if (v.nodeId)
        r.properties.emplace_back("nodeId", std::to_string(*v.nodeId));
      addFieldValues(r.properties, v);
      run.results.push_back(std::move(r));
    }
  }
  writeSarif(out, run);
}

JsonMembers verifyProperties(const SuiteHeader &r) {
  JsonMembers out = {{"command", jsonOf("verify")},
                     {"suite", jsonNameOf(r.suite)},
                     {"outputs", jsonNameOf(r.outputs)},
                     {"suiteVerified", r.suiteVerified ? "true" : "false"},
                     {"edition", jsonOf(spelling(r.edition))}};
  // gen's parameters the manifest names (null for a hand-made suite).
  for (const auto &[name, field] :
       {std::pair{"seed", &SuiteParameters::seed}, std::pair{"count", &SuiteParameters::count},
        std::pair{"maxNodes", &SuiteParameters::maxNodes}})
    out.emplace_back(name, r.parameters ? std::to_string((*r.parameters).*field) : "null");
  return out;
}

SarifRun verifyRun(const SuiteHeader &header, std::vector<SarifRule> rules,
                   std::string_view document) {
  SarifRun run;
  run.rules = std::move(rules);
  run.rules.push_back(
      {"output-error",
       "The output is missing, unreadable or not a valid " + std::string(document) + ".", "", ""});
  run.listArtifacts = false;
  if (!header.suiteVerified)
    run.notifications.emplace_back("warning", unverifiedNote(header));
  run.properties = verifyProperties(header);
  return run;
}

/// verify: one result per violation and per output error, located in the output's path
/// (OUTPUTS/NAME); the unverified suite as a warning notification, notes as notes; the run's
/// properties command, suite, outputs, suiteVerified, edition, seed, count and maxNodes (null for
/// a hand-made suite).
static void writeSuiteSarif(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  SarifRun run = verifyRun(r, checkRules(false), "GraphLoweringPlan");
  for (const SuiteEntry &e : r.entries)
    for (const std::string &note : e.result.report.notes)
      run.notifications.emplace_back("note", entryNoteLine(e, note) + " (" + entryName(e) + ")");
  // The output's path as given: OUTPUTS/NAME.
  auto outputPath = [&](const SuiteEntry &e) {
    return r.outputs + (r.outputs.empty() || r.outputs.back() == '/' ? "" : "/") +
           e.result.subject.candidate;
  };
  // One result: its rule, message and location (the output, where known), and its entry.
  const auto result = [&](const SuiteEntry &e, std::string_view ruleId, std::size_t ruleIndex,
                          const std::string &message, std::size_t line, std::size_t column,
                          const std::string &pointer) {
    SarifResult s;
    s.ruleId = ruleId;
    s.ruleIndex = ruleIndex;
    s.message = shownText(message) + " (" + entryName(e) + ")";
    s.file = outputPath(e);
    s.region.emplace(line ? line : 1, line ? column : 1);
    s.pointer = pointer;
    s.key = e.result.name + '\0' + e.result.subject.candidate + '\0' +
            std::string(spelling(e.result.subject.mode)) + '\0' +
            std::string(spelling(e.result.subject.equality)) + '\0' + e.policy + '\0' +
            std::string(ruleId) + '\0' + pointer;
    s.properties = {{"case", jsonShownOf(e.result.name)},
                    {"mode", jsonOf(spelling(e.result.subject.mode))},
                    {"equality", jsonOf(spelling(e.result.subject.equality))}};
    if (!e.policy.empty())
      s.properties.emplace_back("policy", jsonOf(e.policy));
    run.results.push_back(std::move(s));
  };
  for (const SuiteEntry &e : r.entries) {
    if (e.status() == Status::error)
      result(e, "output-error", vocabularySize<Check>(), e.result.error->message,
             e.result.error->line, e.result.error->column, e.result.error->pointer);
    if (e.status() != Status::fails)
      continue;
    for (std::size_t k = 0; k < e.result.report.violations.size(); ++k) {
      const auto &v = e.result.report.violations[k];
      const auto at =
          k < e.positions.size() ? e.positions[k] : std::pair<std::size_t, std::size_t>{};
      result(e, spelling(v.check), static_cast<std::size_t>(v.check), v.message, at.first,
             at.second, v.pointer);
    }
  }
  writeSarif(out, run);
}

const ReportWriter kSarifWriter{writeSarifReports, writeSuiteSarif};

} // namespace lo::report
