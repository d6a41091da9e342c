#include "tools/support/report.hpp"

#include "checks/catalogue.hpp"
#include "tools/version.hpp"

#include <array>

namespace lo::cli {

namespace {

using checks::Report;

std::string loweringName(const ReportSubject &s) {
  return "the " + std::string(spelling(s.mode)) + " lowering (equality " +
         std::string(spelling(s.equality)) + ")";
}

bool applies(Check c, Mode mode) {
  const auto only = checks::info(c).onlyIn;
  return !only || *only == mode;
}

void xml(io::Sink &out, std::string_view s) {
  for (char c : s) {
    switch (c) {
    case '&': out << "&amp;"; break;
    case '<': out << "&lt;"; break;
    case '>': out << "&gt;"; break;
    case '"': out << "&quot;"; break;
    case '\'': out << "&apos;"; break;
    default:
      // XML 1.0 forbids most control characters; messages have none, but file names might.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
        out << '?';
      else
        out << c;
    }
  }
}

std::string textLine(const checks::Violation &v) {
  return v.pointer + ": " + std::string(spelling(v.check)) + ": " + v.message;
}

} // namespace

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

void writeReportText(io::Sink &out, const Report &report, const ReportSubject &s) {
  for (const auto &v : report.violations)
    out << s.candidate << ": " << textLine(v) << '\n';
  for (const auto &[c, k] : report.omitted)
    out << s.candidate << ": " << spelling(c) << ": " << std::uint64_t{k} << " more "
        << (k == 1 ? "violation" : "violations") << " not listed\n";
  for (const auto &note : report.notes)
    out << s.candidate << ": note: " << note << '\n';
  if (report.conforms())
    out << s.candidate << ": conforms to " << loweringName(s) << " of " << s.plan << " ("
        << std::uint64_t{s.groups} << (s.groups == 1 ? " group, " : " groups, ")
        << std::uint64_t{s.nodes} << (s.nodes == 1 ? " node)\n" : " nodes)\n");
  else
    out << s.candidate << ": does not conform to " << loweringName(s) << " of " << s.plan << ": "
        << violationSummary(report) << '\n';
}

void writeReportJson(io::Sink &out, const Report &report, const ReportSubject &s) {
  out << "{\"format\":\"lowering-oracle/check-report\",\"version\":1,\n \"plan\":";
  out.jsonString(s.plan);
  out << ",\"candidate\":";
  out.jsonString(s.candidate);
  out << ",\"mode\":\"" << spelling(s.mode) << "\",\"equality\":\"" << spelling(s.equality)
      << "\",\n \"conforms\":" << (report.conforms() ? "true" : "false") << ",\n \"violations\":[";
  for (std::size_t i = 0; i < report.violations.size(); ++i) {
    const auto &v = report.violations[i];
    out << (i ? ",\n  " : "\n  ") << "{\"check\":\"" << spelling(v.check) << "\",\"group\":";
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
    out.jsonString(v.message);
    out << '}';
  }
  out << "],\n \"omitted\":[";
  for (std::size_t i = 0; i < report.omitted.size(); ++i)
    out << (i ? "," : "") << "{\"check\":\"" << spelling(report.omitted[i].first)
        << "\",\"count\":" << std::uint64_t{report.omitted[i].second} << '}';
  out << "],\n \"notes\":[";
  for (std::size_t i = 0; i < report.notes.size(); ++i) {
    out << (i ? "," : "");
    out.jsonString(report.notes[i]);
  }
  out << "],\n \"checks\":[";
  const auto n = report.countsPerCheck();
  for (std::size_t c = 0; c < n.size(); ++c) {
    const auto check = static_cast<Check>(c);
    out << (c ? ",\n  " : "\n  ") << "{\"check\":\"" << spelling(check) << "\",\"status\":\""
        << (!applies(check, s.mode) ? "skipped"
            : n[c]                  ? "failed"
                                    : "passed")
        << "\",\"violations\":" << std::uint64_t{n[c]} << '}';
  }
  out << "]}\n";
}

void writeReportJunit(io::Sink &out, const Report &report, const ReportSubject &s) {
  const auto n = report.countsPerCheck();
  std::size_t failures = 0, skipped = 0;
  for (std::size_t c = 0; c < n.size(); ++c) {
    failures += n[c] > 0;
    skipped += !applies(static_cast<Check>(c), s.mode);
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"";
  xml(out, "lowering-oracle check " + s.candidate);
  out << "\" tests=\"" << std::uint64_t{n.size()} << "\" failures=\"" << std::uint64_t{failures}
      << "\" errors=\"0\" skipped=\"" << std::uint64_t{skipped} << "\">\n";
  out << "    <properties>\n      <property name=\"plan\" value=\"";
  xml(out, s.plan);
  out << "\"/>\n      <property name=\"mode\" value=\"" << spelling(s.mode)
      << "\"/>\n      <property name=\"equality\" value=\"" << spelling(s.equality)
      << "\"/>\n    </properties>\n";
  for (std::size_t c = 0; c < n.size(); ++c) {
    const auto check = static_cast<Check>(c);
    out << "    <testcase classname=\"lowering-oracle.check\" name=\"" << spelling(check) << "\"";
    if (!applies(check, s.mode)) {
      out << ">\n      <skipped message=\"applies only in mode "
          << spelling(*checks::info(check).onlyIn) << "\"/>\n    </testcase>\n";
      continue;
    }
    if (!n[c]) {
      out << "/>\n";
      continue;
    }
    out << ">\n      <failure type=\"" << spelling(check) << "\" message=\"";
    xml(out, std::to_string(n[c]) + (n[c] == 1 ? " violation: " : " violations: ") +
                 std::string(checks::info(check).failsWhen));
    out << "\">";
    for (const auto &v : report.violations)
      if (v.check == check) {
        xml(out, s.candidate + ": " + textLine(v));
        out << '\n';
      }
    for (const auto &[oc, k] : report.omitted)
      if (oc == check)
        out << std::uint64_t{k} << " more not listed\n";
    out << "</failure>\n    </testcase>\n";
  }
  if (!report.notes.empty()) {
    out << "    <system-out>";
    for (const auto &note : report.notes) {
      xml(out, "note: " + note);
      out << '\n';
    }
    out << "</system-out>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void writeReportSarif(io::Sink &out, const Report &report, const ReportSubject &s) {
  out << "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
         "\n \"runs\":[{\"tool\":{\"driver\":{\"name\":\"lowering-oracle\",\"version\":\""
      << kVersion << "\",\"rules\":[";
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
    const auto &i = checks::info(static_cast<Check>(c));
    out << (c ? ",\n  " : "\n  ") << "{\"id\":\"" << spelling(i.check)
        << "\",\"shortDescription\":{\"text\":";
    out.jsonString("Fails when " + std::string(i.failsWhen) + ".");
    out << "},\"fullDescription\":{\"text\":";
    out.jsonString(i.meaning);
    out << "},\"help\":{\"text\":";
    out.jsonString("Run `lowering-oracle explain " + std::string(spelling(i.check)) +
                   "` for a minimal failing example.");
    out << "},\"defaultConfiguration\":{\"level\":\"error\"}}";
  }
  out << "]}},\n \"artifacts\":[{\"location\":{\"uri\":";
  out.jsonString(s.candidate);
  out << "}},{\"location\":{\"uri\":";
  out.jsonString(s.plan);
  out << "}}],\n \"invocations\":[{\"executionSuccessful\":true,"
         "\"toolExecutionNotifications\":[";
  for (std::size_t i = 0; i < report.notes.size(); ++i) {
    out << (i ? "," : "") << "{\"level\":\"note\",\"message\":{\"text\":";
    out.jsonString(report.notes[i]);
    out << "}}";
  }
  for (std::size_t i = 0; i < report.omitted.size(); ++i) {
    out << (i || !report.notes.empty() ? "," : "")
        << "{\"level\":\"warning\",\"message\":{\"text\":";
    out.jsonString(std::string(spelling(report.omitted[i].first)) + ": " +
                   std::to_string(report.omitted[i].second) + " more violations not listed");
    out << "}}";
  }
  out << "]}],\n \"properties\":{\"mode\":\"" << spelling(s.mode) << "\",\"equality\":\""
      << spelling(s.equality) << "\"},\n \"results\":[";
  for (std::size_t i = 0; i < report.violations.size(); ++i) {
    const auto &v = report.violations[i];
    out << (i ? ",\n  " : "\n  ") << "{\"ruleId\":\"" << spelling(v.check)
        << "\",\"ruleIndex\":" << std::uint64_t{static_cast<std::size_t>(v.check)}
        << ",\"level\":\"error\",\"message\":{\"text\":";
    out.jsonString(v.message);
    out << "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":";
    out.jsonString(s.candidate);
    out << ",\"index\":0}},\"logicalLocations\":[{\"fullyQualifiedName\":";
    out.jsonString(v.pointer);
    out << ",\"kind\":\"element\"}]}]";
    if (v.group || v.nodeId) {
      out << ",\"properties\":{";
      if (v.group)
        out << "\"group\":" << std::uint64_t{*v.group};
      if (v.nodeId)
        out << (v.group ? "," : "") << "\"nodeId\":" << std::uint64_t{*v.nodeId};
      out << '}';
    }
    out << '}';
  }
  out << "]}]}\n";
}

void writeReport(io::Sink &out, ReportFormat format, const Report &report,
                 const ReportSubject &subject) {
  switch (format) {
  case ReportFormat::text: writeReportText(out, report, subject); break;
  case ReportFormat::json: writeReportJson(out, report, subject); break;
  case ReportFormat::junit: writeReportJunit(out, report, subject); break;
  case ReportFormat::sarif: writeReportSarif(out, report, subject); break;
  }
}

} // namespace lo::cli
