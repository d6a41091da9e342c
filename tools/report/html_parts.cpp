// The pieces of every HTML page (html_parts.hpp): the page's frame and style, text as the page
// shows it, a finding as a list item, a capsule finding's field-by-field difference, and the
// findings of a report listed without a picture (htmlFindings).
#include "tools/report/html_parts.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/writer.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/record_text.hpp"
#include "tools/version.hpp"

#include <algorithm>

namespace lo::report {

namespace html {

/// Text from the input as the page shows it: shown (shownText, cut at `cap`) and HTML-escaped.
std::string esc(std::string_view text, std::size_t cap) {
  return io::htmlText(shownText(text, cap));
}

std::string num(std::size_t n) { return std::to_string(n); }

constexpr std::string_view kStyle = R"css(
body{font:14px/1.4 "DejaVu Sans",system-ui,sans-serif;margin:1.2em;color:#1d232a;background:#fff}
h1{font-size:1.35em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.4em 0 .3em}
h3{font-size:1em;margin:1em 0 .3em}
code,.mono,td.n,td.k,td.o,td.c,td.t{font-family:"DejaVu Sans Mono",monospace}.meta{color:#555}
.verdict{font-weight:bold;padding:.3em .6em;border-radius:4px;display:inline-block}
.ok{background:#e3f4e1;color:#1b5e20}.bad{background:#fde7e7;color:#a11}
.err{background:#fff1d6;color:#7a4b00}.note{color:#555;font-style:italic}
table{border-collapse:collapse}th,td{border:1px solid #c9ced6;padding:2px 5px;vertical-align:top}
th{background:#f2f4f7;text-align:left;font-weight:600}.gate td.acc{background:#e3f4e1}
.gate td.rej{background:#fde7e7}.gate td.differs{outline:3px solid #d32f2f;outline-offset:-3px}
.seg{overflow-x:auto;margin:.4em 0}
.strip td{font-size:12px;white-space:nowrap;text-align:center;min-width:5.5em}
.strip th{font-size:12px;white-space:nowrap;position:sticky;left:0}.strip td.n{font-weight:bold}
.strip td.te{background:#fff0c2}.strip td.te::after{content:" \26A0";color:#b26a00}
.grp{font-size:12px}.gA{background:#dbe9fb}.gB{background:#c8dcf5}.cA{background:#e6f2e6}
.cB{background:#d0e8d0}
.drop{background:repeating-linear-gradient(45deg,#fde7e7,#fde7e7 4px,#f7c6c6 4px,#f7c6c6 8px);
color:#a11;font-weight:bold}.moved{box-shadow:inset 0 0 0 3px #8e24aa}
.dup{box-shadow:inset 0 0 0 3px #ef6c00}.cut{box-shadow:inset 0 0 0 3px #d32f2f}
td.hit{background:#fde7e7}a.pin{display:inline-block;min-width:1.4em;border-radius:.7em;
background:#d32f2f;color:#fff;text-decoration:none;font-weight:bold;margin:1px}
.elided{color:#555;font-style:italic;margin:.3em 0;padding:.2em .5em;border-left:3px dashed #999}
ol.findings>li{margin:.5em 0}.check{font-family:"DejaVu Sans Mono",monospace;background:#a11;
color:#fff;padding:0 .4em;border-radius:3px}
.where{color:#555;font-family:"DejaVu Sans Mono",monospace;font-size:12px}
table.fields td.same{color:#666}table.fields tr.differs td{background:#fde7e7}
.legend span{display:inline-block;padding:0 .5em;margin-right:.4em;font-size:12px}
.summary td.pass{background:#e3f4e1}.summary td.finding{background:#fde7e7}
.summary td.error{background:#fff1d6}
svg.overview{display:block;margin:.3em 0;border:1px solid #c9ced6}
)css";

void pageStart(io::Sink &out, std::string_view title) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         // No script, no network: the page needs nothing but its inline style.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"lowering-oracle "
      << cli::kVersion << "\">\n<title>" << io::htmlText(title) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n";
}

void pageEnd(io::Sink &out) {
  out << "<p class=\"meta\">Written by lowering-oracle " << cli::kVersion
      << " (docs/spec.md §3.5).</p>\n</body>\n</html>\n";
}

std::string kindText(const Interner &in, KindId id) {
  const OpKind &k = in.kind(id);
  if (isBare(k.tag))
    return std::string(spelling(k.tag));
  return io::writtenText([&](io::Sink &s) { io::writeKind(s, k); });
}

std::string contractText(const ContractDescriptor &d) { return recordText<ContractDescriptor>(d); }

/// A capsule finding's field-by-field difference: the reference's capsule against the
/// candidate's, the differing rows marked.
void capsuleDiff(io::Sink &out, const KernelCapsule &reference, const KernelCapsule &candidate) {
  const auto r = fieldTexts<KernelCapsule>(reference), c = fieldTexts<KernelCapsule>(candidate);
  out << "<table class=\"fields\"><tr><th>field</th><th>reference (the plan's node)</th>"
         "<th>candidate (the group)</th></tr>\n";
  for (std::size_t i = 0; i < r.size(); ++i) {
    const bool same = r[i].second == c[i].second;
    const std::size_t cap = same ? io::kMaxHtmlSameFieldBytes : io::kMaxShownBytes;
    out << "<tr" << (same ? "" : " class=\"differs\"") << "><th>" << r[i].first << "</th><td"
        << (same ? " class=\"same\"" : "") << ">" << esc(r[i].second, cap) << "</td><td"
        << (same ? " class=\"same\"" : "") << ">" << esc(c[i].second, cap) << "</td></tr>\n";
  }
  out << "</table>\n";
}

/// One finding as a list item: check, group, node, pointer, message, the field found wrong.
void findingItem(io::Sink &out, const checks::Violation &v, std::string_view idPrefix,
                 std::size_t j) {
  out << "<li class=\"finding\" id=\"" << idPrefix << 'f' << num(j) << "\"><span class=\"check\">"
      << spelling(v.check) << "</span> <span class=\"where\">";
  if (v.group)
    out << "group " << num(*v.group) << " · ";
  if (v.nodeId)
    out << "node " << std::uint64_t{*v.nodeId} << " · ";
  out << esc(v.pointer.empty() ? std::string_view("/") : std::string_view(v.pointer))
      << "</span><br><span class=\"msg\">" << esc(v.message) << "</span>";
  if (!v.field.empty())
    out << "<br><span class=\"where\">field " << esc(v.field) << ": the spec gives "
        << esc(v.expected) << ", the candidate has " << esc(v.actual) << "</span>";
}

void omittedAndRest(io::Sink &out, const checks::Report &report, std::size_t listed) {
  if (report.violations.size() > listed)
    out << "<p class=\"elided\">" << num(report.violations.size() - listed)
        << " more findings not shown on this page (at most " << num(kHtmlMaxFindings) << ").</p>\n";
  for (const auto &[check, k] : report.omitted)
    out << "<p class=\"elided\">" << spelling(check) << ": " << num(k) << " more "
        << (k == 1 ? "violation" : "violations") << " not listed (--max-per-check).</p>\n";
}

} // namespace html

std::string htmlFindings(const checks::Report &report, std::string_view idPrefix) {
  return io::writtenText([&](io::Sink &out) {
    const std::size_t listed = std::min(report.violations.size(), kHtmlMaxFindings);
    if (listed) {
      out << "<h3>Findings</h3>\n<ol class=\"findings\">\n";
      for (std::size_t j = 0; j < listed; ++j) {
        html::findingItem(out, report.violations[j], idPrefix, j);
        out << "</li>\n";
      }
      out << "</ol>\n";
    }
    html::omittedAndRest(out, report, listed);
  });
}

} // namespace lo::report
