#include "tools/report/html_report.hpp"

#include "ref/gate.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/version.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

namespace lo::cli {

namespace {

using checks::Report;
using checks::Violation;

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

/// Text from the input as the page shows it: shown (shownText, cut at `cap`) and HTML-escaped.
std::string esc(std::string_view text, std::size_t cap = kMaxEchoBytes) {
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
      << kVersion << "\">\n<title>" << io::htmlText(title) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n";
}

void pageEnd(io::Sink &out) {
  out << "<p class=\"meta\">Written by lowering-oracle " << kVersion
      << " (docs/spec.md §3.5).</p>\n</body>\n</html>\n";
}

std::string loweringName(Mode mode, Equality equality) {
  return "the " + std::string(spelling(mode)) + " lowering (equality " +
         std::string(spelling(equality)) + ")";
}

std::string kindText(const Interner &in, KindId id) {
  const OpKind &k = in.kind(id);
  if (isBare(k.tag))
    return std::string(spelling(k.tag));
  return io::writtenText([&](io::Sink &s) { io::writeKind(s, k); });
}

std::string contractText(const ContractDescriptor &d) {
  return io::writtenText([&](io::Sink &s) {
    s << "claim ";
    io::writeContractClaim(s, d.claim);
    s << "; summary ";
    s.jsonString(d.summary);
    s << "; evidence ";
    io::writeContractEvidence(s, d.evidence);
    s << "; provenance: " << std::uint64_t{d.provenance.size()};
  });
}

/// The fields of a capsule, in the order of docs/spec.md §2.2, each as text.
std::vector<std::pair<std::string_view, std::string>> capsuleFields(const KernelCapsule &c) {
  const NumericalPolicy &p = c.numericalPolicy;
  return {{"name", c.name},
          {"op", std::string(spelling(c.op))},
          {"provider", std::string(spelling(c.provider))},
          {"device", std::string(spelling(c.device))},
          {"trustLevel", std::string(spelling(c.trustLevel))},
          {"supportsForward", c.supportsForward ? "true" : "false"},
          {"vjpMode", std::string(spelling(c.vjpMode))},
          {"shapeContract", contractText(c.shapeContract)},
          {"layoutContract", contractText(c.layoutContract)},
          {"valueContract", contractText(c.valueContract)},
          {"vjpContract", contractText(c.vjpContract)},
          {"numericalPolicy", "rounding " + std::string(spelling(p.rounding)) + ", subnormals " +
                                  std::string(spelling(p.subnormals)) + ", contraction " +
                                  std::string(spelling(p.contraction)) + ", reduction " +
                                  std::string(spelling(p.reduction))},
          {"notes", c.notes}};
}

/// A capsule finding's field-by-field difference: the reference's capsule against the
/// candidate's, the differing rows marked.
void capsuleDiff(io::Sink &out, const KernelCapsule &reference, const KernelCapsule &candidate) {
  const auto r = capsuleFields(reference), c = capsuleFields(candidate);
  out << "<table class=\"fields\"><tr><th>field</th><th>reference (the plan's node)</th>"
         "<th>candidate (the group)</th></tr>\n";
  for (std::size_t i = 0; i < r.size(); ++i) {
    const bool same = r[i].second == c[i].second;
    const std::size_t cap = same ? 160 : kMaxEchoBytes;
    out << "<tr" << (same ? "" : " class=\"differs\"") << "><th>" << r[i].first << "</th><td"
        << (same ? " class=\"same\"" : "") << ">" << esc(r[i].second, cap) << "</td><td"
        << (same ? " class=\"same\"" : "") << ">" << esc(c[i].second, cap) << "</td></tr>\n";
  }
  out << "</table>\n";
}

/// One finding as a list item: check, group, node, pointer, message, the field found wrong.
void findingItem(io::Sink &out, const Violation &v, std::string_view idPrefix, std::size_t j) {
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

void omittedAndRest(io::Sink &out, const Report &report, std::size_t listed) {
  if (report.violations.size() > listed)
    out << "<p class=\"elided\">" << num(report.violations.size() - listed)
        << " more findings not shown on this page (at most " << num(kHtmlMaxFindings) << ").</p>\n";
  for (const auto &[check, k] : report.omitted)
    out << "<p class=\"elided\">" << spelling(check) << ": " << num(k) << " more "
        << (k == 1 ? "violation" : "violations") << " not listed (--max-per-check).</p>\n";
}

// --- The picture --------------------------------------------------------------------------------

struct Picture {
  const HtmlPictureInput &in;
  Interner &interner;
  const std::vector<PlannedNodeKernel> &nodes;
  std::string_view id; // idPrefix
  GraphLoweringPlan reference;
  std::vector<std::size_t> refGroup;                   // by plan position
  std::vector<std::size_t> candGroup, candPos;         // by plan position; kNone: dropped
  std::vector<std::uint8_t> candCount;                 // occurrences in the candidate, up to 255
  std::vector<bool> moved;                             // listed before an earlier plan node
  std::vector<std::pair<NodeId, std::size_t>> foreign; // node id not in the plan, its group
  std::size_t foreignCount = 0;
  std::vector<std::pair<NodeId, std::size_t>> byId; // (node id, plan position), sorted
  std::vector<std::size_t> pinOf;                   // by finding: plan position or kNone
  std::unordered_map<std::size_t, std::vector<std::size_t>> pinsAt; // plan position -> findings
  std::unordered_map<std::uint32_t, std::string> kinds, keys;
  std::vector<std::pair<std::size_t, std::size_t>> windows; // [begin, end) plan positions
  std::size_t listed = 0;                                   // findings listed

  Picture(const HtmlPictureInput &input)
      : in(input), interner(*input.interner), nodes(input.plan->kernels), id(input.idPrefix) {}

  std::optional<std::size_t> positionOf(NodeId n) const {
    const auto it =
        std::lower_bound(byId.begin(), byId.end(), std::pair<NodeId, std::size_t>{n, 0});
    if (it == byId.end() || it->first != n)
      return std::nullopt;
    return it->second;
  }

  const std::string &kindOf(KindId k) {
    auto [it, added] = kinds.try_emplace(static_cast<std::uint32_t>(k));
    if (added)
      it->second = esc(kindText(interner, k), kHtmlCellBytes);
    return it->second;
  }

  void build() {
    const std::size_t n = nodes.size();
    byId.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      byId.emplace_back(nodes[i].nodeId, i);
    std::stable_sort(byId.begin(), byId.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    reference = lower(interner, *in.plan, in.mode, in.equality);
    refGroup.assign(n, kNone);
    std::size_t i = 0;
    for (std::size_t g = 0; g < reference.groups.size(); ++g)
      for (std::size_t k = 0; k < reference.groups[g].nodeIds.size() && i < n; ++k)
        refGroup[i++] = g;
    if (in.candidate) {
      candGroup.assign(n, kNone);
      candPos.assign(n, kNone);
      candCount.assign(n, 0);
      moved.assign(n, false);
      std::size_t pos = 0;
      const auto &groups = in.candidate->plan.groups;
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (const NodeId node : groups[g].nodeIds) {
          if (const auto at = positionOf(node)) {
            if (candGroup[*at] == kNone) {
              candGroup[*at] = g;
              candPos[*at] = pos;
            }
            if (candCount[*at] < 255)
              ++candCount[*at];
          } else {
            if (foreign.size() < kHtmlMaxForeign)
              foreign.emplace_back(node, g);
            ++foreignCount;
          }
          ++pos;
        }
      std::size_t latest = 0;
      bool any = false;
      for (std::size_t p = 0; p < n; ++p) {
        if (candPos[p] == kNone)
          continue;
        moved[p] = any && candPos[p] < latest;
        latest = any ? std::max(latest, candPos[p]) : candPos[p];
        any = true;
      }
    }
    // Findings pinned to a plan position: their node, else their group's first node in the plan.
    if (in.report) {
      const auto &vs = in.report->violations;
      listed = std::min(vs.size(), kHtmlMaxFindings);
      pinOf.assign(listed, kNone);
      for (std::size_t j = 0; j < listed; ++j) {
        std::optional<std::size_t> at;
        if (vs[j].nodeId)
          at = positionOf(*vs[j].nodeId);
        if (!at && vs[j].group && in.candidate && *vs[j].group < in.candidate->plan.groups.size())
          for (const NodeId node : in.candidate->plan.groups[*vs[j].group].nodeIds)
            if ((at = positionOf(node)))
              break;
        if (at) {
          pinOf[j] = *at;
          pinsAt[*at].push_back(j);
        }
      }
    }
    // The windows of the strip: the whole plan, or the neighbourhood of the first findings.
    if (n <= kHtmlWholePlan) {
      if (n)
        windows.emplace_back(0, n);
      return;
    }
    std::vector<std::size_t> centres;
    for (std::size_t j = 0; j < listed && centres.size() < kHtmlMaxWindows; ++j)
      if (pinOf[j] != kNone && std::find(centres.begin(), centres.end(), pinOf[j]) == centres.end())
        centres.push_back(pinOf[j]);
    if (centres.empty())
      centres.push_back(kHtmlContext); // no finding pinned: the start of the plan
    std::sort(centres.begin(), centres.end());
    for (const std::size_t c : centres) {
      const std::size_t b = c > kHtmlContext ? c - kHtmlContext : 0;
      const std::size_t e = std::min(n, c + kHtmlContext + 1);
      if (!windows.empty() && b <= windows.back().second)
        windows.back().second = std::max(windows.back().second, e);
      else
        windows.emplace_back(b, e);
    }
  }

  bool shown(std::size_t p) const {
    for (const auto &[b, e] : windows)
      if (p >= b && p < e)
        return true;
    return false;
  }

  // --- gate verdicts ---

  /// The audit of a lowering's distinct (op, capsule) rows, in order of first use: a gate
  /// depends only on the set of its reports (docs/spec.md §6.7), so its verdict and failure kinds
  /// are those of these rows, at the cost of the distinct rows rather than of every group.
  ExecutionAudit distinctAudit(const GraphLoweringPlan &p) {
    ExecutionPlan rows;
    std::unordered_map<std::uint64_t, bool> seen;
    for (const LoweredKernelGroup &g : p.groups) {
      const auto key = (std::uint64_t{static_cast<std::uint32_t>(g.capsule)} << 8) |
                       static_cast<std::uint64_t>(g.op);
      if (seen.emplace(key, true).second)
        rows.kernels.push_back({g.op, g.capsule});
    }
    return audit(interner, rows);
  }

  static std::string verdictText(const GateResult &r) {
    if (r.accepted())
      return "accepted";
    std::string s = "rejected:";
    for (std::size_t i = 0; i < r.failures.size(); ++i)
      s += std::string(i ? ", " : " ") + std::string(spelling(r.failures[i].kind));
    return s;
  }

  void gates(io::Sink &out) {
    out << "<h3>Gate verdicts</h3>\n<table class=\"gate\"><tr><th></th>";
    for (const auto &p : kPolicyPresets)
      out << "<th>" << p.name << "</th>";
    out << "</tr>\n<tr><th>reference lowering</th>";
    const ExecutionAudit referenceRows = distinctAudit(reference);
    std::vector<GateResult> ref;
    for (const auto &p : kPolicyPresets) {
      ref.push_back(gate(interner, p.policy, referenceRows));
      out << "<td class=\"" << (ref.back().accepted() ? "acc" : "rej") << "\">"
          << verdictText(ref.back()) << "</td>";
    }
    out << "</tr>\n";
    if (in.candidate) {
      out << "<tr><th>candidate</th>";
      const ExecutionAudit candidateRows = distinctAudit(in.candidate->plan);
      std::size_t i = 0;
      for (const auto &p : kPolicyPresets) {
        const GateResult r = gate(interner, p.policy, candidateRows);
        const bool same = sameGate(r, ref[i++]);
        out << "<td class=\"" << (r.accepted() ? "acc" : "rej") << (same ? "" : " differs") << "\">"
            << verdictText(r) << (same ? "" : " — differs from the reference") << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</table>\n";
  }

  // --- the overview ---

  void overview(io::Sink &out) {
    const std::size_t n = nodes.size();
    if (n == 0)
      return;
    auto x = [&](std::size_t p) {
      return std::to_string(static_cast<double>(p) * 1000.0 / static_cast<double>(n));
    };
    out << "<svg class=\"overview\" viewBox=\"0 0 1000 28\" width=\"100%\" height=\"28\" "
           "preserveAspectRatio=\"none\" role=\"img\" aria-label=\"the whole plan, "
        << num(n)
        << " nodes: the parts shown in blue, the findings in red\">"
           "<rect x=\"0\" y=\"0\" width=\"1000\" height=\"28\" fill=\"#f2f4f7\"/>";
    for (const auto &[b, e] : windows)
      out << "<rect x=\"" << x(b) << "\" y=\"4\" width=\"" << x(e - b)
          << "\" height=\"20\" fill=\"#90b8ee\"/>";
    for (std::size_t j = 0; j < listed; ++j)
      if (pinOf[j] != kNone)
        out << "<rect x=\"" << x(pinOf[j])
            << "\" y=\"0\" width=\"2\" height=\"28\" "
               "fill=\"#d32f2f\"><title>finding "
            << num(j + 1) << "</title></rect>";
    out << "</svg>\n";
  }

  // --- the strip ---

  bool refBoundary(std::size_t p) const { return p == 0 || refGroup[p] != refGroup[p - 1]; }
  bool candJoined(std::size_t p) const { // p continues p - 1's candidate group
    return p > 0 && candGroup[p] != kNone && candGroup[p] == candGroup[p - 1] &&
           candPos[p] == candPos[p - 1] + 1;
  }

  void elided(io::Sink &out, std::size_t b, std::size_t e) {
    if (b < e)
      out << "<div class=\"elided\">… " << num(e - b) << (e - b == 1 ? " node" : " nodes")
          << " not shown (positions " << num(b) << " to " << num(e - 1) << ") …</div>\n";
  }

  void segment(io::Sink &out, std::size_t b, std::size_t e) {
    out << "<div class=\"seg\"><table class=\"strip\">\n<tr><th>node</th>";
    for (std::size_t p = b; p < e; ++p)
      out << "<td class=\"n" << (pinsAt.count(p) ? " hit" : "") << "\" id=\"" << id << 'n' << num(p)
          << "\" title=\"plan position " << num(p) << "\">" << std::uint64_t{nodes[p].nodeId}
          << "</td>";
    out << "</tr>\n<tr><th>kind</th>";
    for (std::size_t p = b; p < e; ++p)
      out << "<td class=\"k\">" << kindOf(nodes[p].kind) << "</td>";
    out << "</tr>\n<tr><th>op</th>";
    for (std::size_t p = b; p < e; ++p)
      out << "<td class=\"o\">" << spelling(nodes[p].op) << "</td>";
    out << "</tr>\n<tr><th>capsule</th>";
    for (std::size_t p = b; p < e; ++p)
      out << "<td class=\"c\">" << esc(keyOf(nodes[p].capsule), kHtmlCellBytes) << "</td>";
    out << "</tr>\n<tr><th>trust</th>";
    for (std::size_t p = b; p < e; ++p) {
      const KernelCapsule &c = interner.capsule(nodes[p].capsule);
      out << "<td class=\"t" << (isTrustedExternal(c) ? " te" : "") << "\">"
          << spelling(c.trustLevel) << "</td>";
    }
    out << "</tr>\n<tr><th>reference</th>";
    for (std::size_t p = b; p < e;) {
      std::size_t q = p + 1;
      while (q < e && !refBoundary(q))
        ++q;
      const std::size_t g = refGroup[p];
      out << "<td colspan=\"" << num(q - p) << "\" class=\"grp " << (g % 2 ? "gB" : "gA")
          << "\">group " << num(g);
      if (g < reference.groups.size())
        out << " <small>" << spelling(reference.groups[g].groupingKind) << "</small>";
      out << "</td>";
      p = q;
    }
    out << "</tr>\n";
    if (in.candidate) {
      out << "<tr><th>candidate</th>";
      const auto &groups = in.candidate->plan.groups;
      for (std::size_t p = b; p < e;) {
        if (candGroup[p] == kNone) {
          out << "<td class=\"grp drop\" title=\"not in any group of the candidate\">dropped</td>";
          ++p;
          continue;
        }
        std::size_t q = p + 1;
        while (q < e && candJoined(q))
          ++q;
        // The cut differs from the reference's: a boundary one has and the other has not.
        bool cut = refBoundary(p) != !candJoined(p);
        for (std::size_t r = p + 1; r < q && !cut; ++r)
          cut = refBoundary(r);
        if (q < nodes.size() && !cut)
          cut = refBoundary(q) != !candJoined(q);
        bool isMoved = false, isDup = false;
        for (std::size_t r = p; r < q; ++r) {
          isMoved = isMoved || moved[r];
          isDup = isDup || candCount[r] > 1;
        }
        const std::size_t g = candGroup[p];
        out << "<td colspan=\"" << num(q - p) << "\" class=\"grp " << (g % 2 ? "cB" : "cA")
            << (cut ? " cut" : "") << (isMoved ? " moved" : "") << (isDup ? " dup" : "")
            << "\">group " << num(g);
        if (g < groups.size()) {
          const LoweredKernelGroup &cg = groups[g];
          out << " <small>" << spelling(cg.groupingKind) << "</small>";
          if (cg.op != nodes[p].op || cg.capsule != nodes[p].capsule)
            out << "<br><small>" << spelling(cg.op) << " · "
                << esc(interner.capsule(cg.capsule).name, kHtmlCellBytes) << "</small>";
        }
        if (isMoved)
          out << "<br><small>reordered</small>";
        if (isDup)
          out << "<br><small>listed twice</small>";
        out << "</td>";
        p = q;
      }
      out << "</tr>\n";
    }
    out << "<tr><th>findings</th>";
    for (std::size_t p = b; p < e; ++p) {
      out << "<td>";
      if (const auto it = pinsAt.find(p); it != pinsAt.end())
        for (const std::size_t j : it->second)
          out << "<a class=\"pin\" href=\"#" << id << 'f' << num(j) << "\" title=\""
              << spelling(in.report->violations[j].check) << "\">" << num(j + 1) << "</a>";
      out << "</td>";
    }
    out << "</tr>\n</table></div>\n";
  }

  std::unique_ptr<io::CapsuleKeys> keyTable;
  const std::string &keyOf(CapsuleId c) { return keyTable->key(c); }

  void strip(io::Sink &out) {
    keyTable = std::make_unique<io::CapsuleKeys>(io::capsuleKeysOf(interner, nodes));
    out << "<h3>The plan's nodes and both lowerings</h3>\n<p class=\"legend\">"
           "<span class=\"gA\">reference group</span><span class=\"cA\">candidate group</span>"
           "<span class=\"cut\">cut differs</span><span class=\"drop\">dropped node</span>"
           "<span class=\"moved\">reordered</span><span class=\"dup\">listed twice</span>"
           "<span class=\"te\" style=\"background:#fff0c2\">trusted-external \u26A0</span></p>\n";
    if (nodes.size() > kHtmlWholePlan)
      out << "<p class=\"note\">" << num(nodes.size()) << " nodes: only the " << num(kHtmlContext)
          << " nodes on either side of each of the first " << num(kHtmlMaxWindows)
          << " findings are shown.</p>\n";
    if (nodes.empty())
      out << "<p class=\"note\">The plan has no nodes.</p>\n";
    overview(out);
    std::size_t at = 0;
    for (const auto &[b, e] : windows) {
      elided(out, at, b);
      segment(out, b, e);
      at = e;
    }
    elided(out, at, nodes.size());
    if (foreignCount) {
      out << "<p>The candidate lists " << num(foreignCount)
          << (foreignCount == 1 ? " node id" : " node ids") << " that the plan does not have:";
      for (const auto &[node, g] : foreign)
        out << " node " << std::uint64_t{node} << " (group " << num(g) << ")";
      if (foreignCount > foreign.size())
        out << " and " << num(foreignCount - foreign.size()) << " more";
      out << ".</p>\n";
    }
  }

  // --- the findings ---

  void findings(io::Sink &out) {
    if (!in.report || in.report->violations.empty())
      return;
    const auto &vs = in.report->violations;
    out << "<h3>Findings</h3>\n<ol class=\"findings\">\n";
    std::size_t diffs = 0;
    for (std::size_t j = 0; j < listed; ++j) {
      const Violation &v = vs[j];
      findingItem(out, v, id, j);
      if (pinOf[j] != kNone) {
        out << "<br><span class=\"where\">pinned to node " << std::uint64_t{nodes[pinOf[j]].nodeId}
            << " (plan position " << num(pinOf[j]) << ")";
        if (shown(pinOf[j]))
          out << ": <a href=\"#" << id << 'n' << num(pinOf[j]) << "\">in the strip</a>";
        out << "</span>";
      }
      // The capsule a group carries against the capsule the plan gives its node.
      if (v.check == Check::capsule && in.candidate && v.group &&
          *v.group < in.candidate->plan.groups.size() && pinOf[j] != kNone &&
          diffs++ < kHtmlMaxWindows)
        capsuleDiff(out, interner.capsule(nodes[pinOf[j]].capsule),
                    interner.capsule(in.candidate->plan.groups[*v.group].capsule));
      out << "</li>\n";
    }
    out << "</ol>\n";
    omittedAndRest(out, *in.report, listed);
  }
};

void writeVerdict(io::Sink &out, const CaseResult &c) {
  const ReportSubject &s = c.subject;
  if (c.error) {
    out << "<p><span class=\"verdict err\">not judged</span> " << esc(errorLine(*c.error))
        << "</p>\n";
    return;
  }
  if (c.report.conforms())
    out << "<p><span class=\"verdict ok\">conforms</span> to " << loweringName(s.mode, s.equality)
        << " of " << esc(s.plan) << " (" << num(s.groups)
        << (s.groups == 1 ? " group, " : " groups, ") << num(s.nodes)
        << (s.nodes == 1 ? " node)" : " nodes)") << "</p>\n";
  else
    out << "<p><span class=\"verdict bad\">does not conform</span> to "
        << loweringName(s.mode, s.equality) << " of " << esc(s.plan) << ": "
        << violationSummary(c.report) << "</p>\n";
  for (const auto &note : c.report.notes)
    out << "<p class=\"note\">note: " << esc(note) << "</p>\n";
}

/// One candidate's section: heading, verdict, notes, and its picture or its findings.
void writeCaseSection(io::Sink &out, const CaseResult &c, std::string_view idPrefix,
                      bool judged = true) {
  const std::string anchor(idPrefix.substr(0, idPrefix.size() ? idPrefix.size() - 1 : 0));
  out << "<section class=\"case\" id=\"" << anchor << "\">\n<h2>";
  if (!c.name.empty())
    out << esc(c.name) << ": ";
  out << esc(c.subject.candidate) << "</h2>\n<p class=\"meta\">plan " << esc(c.subject.plan)
      << " · mode " << spelling(c.subject.mode) << " · equality " << spelling(c.subject.equality)
      << " · " << secondsText(c.seconds) << " s</p>\n";
  if (judged || c.error)
    writeVerdict(out, c);
  if (!c.picture.empty()) {
    out << c.picture;
  } else if (!c.error) {
    if (!c.noPicture.empty())
      out << "<p class=\"note\">No picture: " << c.noPicture << "; the findings are listed.</p>\n";
    out << htmlFindings(c.report, idPrefix);
  }
  out << "</section>\n";
}

} // namespace

std::string htmlPicture(const HtmlPictureInput &in) {
  Picture p(in);
  p.build();
  return io::writtenText([&](io::Sink &out) {
    p.gates(out);
    p.strip(out);
    p.findings(out);
  });
}

std::string htmlFindings(const Report &report, std::string_view idPrefix) {
  return io::writtenText([&](io::Sink &out) {
    const std::size_t listed = std::min(report.violations.size(), kHtmlMaxFindings);
    if (listed) {
      out << "<h3>Findings</h3>\n<ol class=\"findings\">\n";
      for (std::size_t j = 0; j < listed; ++j) {
        findingItem(out, report.violations[j], idPrefix, j);
        out << "</li>\n";
      }
      out << "</ol>\n";
    }
    omittedAndRest(out, report, listed);
  });
}

void writeHtmlReports(io::Sink &out, const std::vector<CaseResult> &cases,
                      const ReportOptions &options) {
  const std::string title =
      "lowering-oracle " + options.command +
      (cases.size() == 1 ? ": " + shownText(cases.front().subject.candidate) : "");
  pageStart(out, title);
  out << "<h1>lowering-oracle " << io::htmlText(options.command) << "</h1>\n";
  if (cases.size() != 1) {
    out << "<table class=\"summary\"><tr><th>#</th><th>candidate</th><th>result</th></tr>\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const CaseResult &c = cases[i];
      const char *cls = c.error ? "error" : c.conforms() ? "pass" : "finding";
      out << "<tr><td>" << num(i) << "</td><td><a href=\"#c" << num(i) << "\">"
          << esc(c.name.empty() ? c.subject.candidate : c.name) << "</a></td><td class=\"" << cls
          << "\">" << cls << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    writeCaseSection(out, cases[i], "c" + num(i) + "-");
  pageEnd(out);
}

void writeSuiteHtml(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  pageStart(out, "lowering-oracle verify: " + shownText(r.suite));
  out << "<h1>lowering-oracle verify</h1>\n<p class=\"meta\">suite " << esc(r.suite)
      << " · outputs " << esc(r.outputs) << "</p>\n<p><span class=\"verdict "
      << (r.conforms() ? "ok" : "bad") << "\">" << esc(suiteSummary(r)) << "</span></p>\n";
  out << "<table class=\"summary\"><tr><th>#</th><th>case</th><th>mode</th><th>equality</th>"
         "<th>policy</th><th>output</th><th>result</th><th>violations</th></tr>\n";
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const SuiteEntry &e = r.entries[i];
    const char *cls = e.status == Status::conforms ? "pass"
                      : e.status == Status::fails  ? "finding"
                                                   : "error";
    out << "<tr><td>" << num(i) << "</td><td><a href=\"#e" << num(i) << "\">" << esc(e.caseName)
        << "</a></td><td>" << spelling(e.mode) << "</td><td>" << spelling(e.equality) << "</td><td>"
        << esc(e.policy) << "</td><td>" << esc(e.output) << "</td><td class=\"" << cls << "\">"
        << cls << "</td><td>" << (e.status == Status::fails ? num(e.report.total()) : std::string())
        << "</td></tr>\n";
  }
  out << "</table>\n";
  for (std::size_t i = 0; i < r.entries.size(); ++i) {
    const SuiteEntry &e = r.entries[i];
    CaseResult c;
    c.name = e.caseName + (e.policy.empty() ? "" : " (gate of policy " + e.policy + ")");
    c.subject = {e.plan, e.output, e.mode, e.equality, e.groups, e.nodes};
    c.report = e.report;
    c.seconds = e.seconds;
    c.picture = e.picture;
    if (!e.policy.empty())
      c.noPicture = "the entry's output is a gate result, not a lowering to draw";
    if (e.status == Status::error)
      c.error = ReportError{e.output, e.line, e.column, e.errorPointer, e.error};
    writeCaseSection(out, c, "e" + num(i) + "-");
  }
  pageEnd(out);
}

std::string htmlDiffPage(const std::string &planText, const std::string &outputText,
                         bool outputIsLowering, Mode mode, Equality equality,
                         const std::string &heading, const std::string &summary) {
  Interner interner;
  CaseResult c;
  c.subject = {"plan.json", "output.json", mode, equality, 0, 0};
  GraphExecutionPlan plan;
  io::LoweringDocument candidate;
  bool havePlan = false, haveCandidate = false;
  try {
    plan = io::readExecutionPlan(io::sourceFromString("plan.json", planText), interner);
    havePlan = true;
    c.subject.nodes = plan.kernels.size();
    if (outputIsLowering) {
      candidate = io::readLoweringPlan(io::sourceFromString("output.json", outputText), interner);
      haveCandidate = true;
      c.subject.groups = candidate.plan.groups.size();
      c.report = checks::check(interner, plan, candidate, {mode, equality});
    }
  } catch (const io::InputError &e) {
    c.error = ReportError::from(e);
  }
  if (havePlan) {
    HtmlPictureInput in;
    in.interner = &interner;
    in.plan = &plan;
    in.candidate = haveCandidate ? &candidate : nullptr;
    in.report = haveCandidate ? &c.report : nullptr;
    in.mode = mode;
    in.equality = equality;
    c.picture = htmlPicture(in);
  }
  return io::writtenText([&](io::Sink &out) {
    pageStart(out, "lowering-oracle diff: " + shownText(heading));
    out << "<h1>" << esc(heading) << "</h1>\n<p class=\"verdict bad\">" << esc(summary) << "</p>\n";
    if (!haveCandidate && !c.error)
      out << "<p class=\"note\">The output is not a lowering to draw: the reference lowering "
             "alone is shown (report.txt has the details).</p>\n";
    writeCaseSection(out, c, "c0-", haveCandidate);
    pageEnd(out);
  });
}

} // namespace lo::cli
