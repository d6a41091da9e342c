// The picture of one candidate (htmlPicture, html_report.hpp): the gate verdicts of both
// lowerings under each preset, an overview of the whole plan (SVG), the strip of the plan's nodes
// with the reference lowering's groups and the candidate's aligned to them and each finding
// pinned, and the findings list with each capsule finding's field-by-field difference. A large
// plan shows only the neighbourhood of its findings (the bounds of html_report.hpp).
#include "tools/report/html_parts.hpp"
#include "tools/report/html_report.hpp"

#include "ref/gate.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/writer.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

namespace lo::report {

namespace {

using checks::Violation;
using html::capsuleDiff;
using html::esc;
using html::findingItem;
using html::kindText;
using html::kNone;
using html::num;
using html::omittedAndRest;

// --- The picture --------------------------------------------------------------------------------

struct Picture {
  const HtmlPictureInput &in;
  const checks::PictureFacts &facts;
  Interner &interner;
  const std::vector<PlannedNodeKernel> &nodes;
  std::string_view id; // idPrefix
  const GraphLoweringPlan &reference;
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

  Picture(const HtmlPictureInput &input, const checks::PictureFacts &pictureFacts)
      : in(input), facts(pictureFacts), interner(*input.interner), nodes(input.plan->kernels),
        id(input.idPrefix), reference(pictureFacts.reference) {}

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
      it->second = esc(kindText(interner, k), io::kMaxHtmlCellBytes);
    return it->second;
  }

  void build() {
    const std::size_t n = nodes.size();
    byId.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      byId.emplace_back(nodes[i].nodeId, i);
    std::stable_sort(byId.begin(), byId.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
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

  static std::string verdictText(const GateResult &r) {
    if (r.accepted())
      return "accepted";
    std::string s = "rejected:";
    for (std::size_t i = 0; i < r.failures.size(); ++i)
      s += std::string(i ? ", " : " ") + std::string(spelling(r.failures[i].kind));
    return s;
  }

  /// What makes the candidate's gate differ from the reference's under one preset, when the
  /// verdict and the failure kinds read the same: one report of a kind that one lowering lists
  /// and the other does not (docs/spec.md §6.7: per kind, the set of reports), so that a cell
  /// marked "differs" shows why.
  static std::string gateDifference(const GateResult &candidate, const GateResult &reference) {
    if (candidate.accepted() != reference.accepted() ||
        candidate.failures.size() != reference.failures.size())
      return {};
    for (std::size_t i = 0; i < reference.failures.size(); ++i) {
      const GateFailure &c = candidate.failures[i], &r = reference.failures[i];
      if (c.kind != r.kind)
        return {};
      const auto missing = [](const GateFailure &from, const GateFailure &in) {
        std::set<std::string> have;
        for (const ObligationReport &x : in.reports)
          have.insert(io::gateReportText(x));
        for (const ObligationReport &x : from.reports)
          if (!have.count(io::gateReportText(x)))
            return std::optional<ObligationReport>(x);
        return std::optional<ObligationReport>();
      };
      const std::string kind(spelling(r.kind));
      if (const auto lost = missing(r, c))
        return "the candidate loses the " + kind + " report " +
               io::reportLine(io::boundedReport(*lost));
      if (const auto added = missing(c, r))
        return "the candidate adds the " + kind + " report " +
               io::reportLine(io::boundedReport(*added));
    }
    return {};
  }

  void gates(io::Sink &out) {
    out << "<h3>Gate verdicts</h3>\n<table class=\"gate\"><tr><th></th>";
    for (const auto &p : kPolicyPresets)
      out << "<th>" << p.name << "</th>";
    out << "</tr>\n<tr><th>reference lowering</th>";
    const std::vector<GateResult> &ref = facts.referenceGates;
    for (const GateResult &r : ref)
      out << "<td class=\"" << (r.accepted() ? "acc" : "rej") << "\">" << verdictText(r) << "</td>";
    out << "</tr>\n";
    if (in.candidate) {
      out << "<tr><th>candidate</th>";
      for (std::size_t i = 0; i < facts.candidateGates.size() && i < ref.size(); ++i) {
        const GateResult &r = facts.candidateGates[i];
        const bool same = sameGate(r, ref[i]);
        out << "<td class=\"" << (r.accepted() ? "acc" : "rej") << (same ? "" : " differs") << "\">"
            << verdictText(r) << (same ? "" : " — differs from the reference");
        if (!same)
          if (const std::string why = gateDifference(r, ref[i]); !why.empty())
            out << ": <span class=\"why\">" << esc(why, io::kMaxHtmlCellBytes * 8) << "</span>";
        out << "</td>";
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
      out << "<td class=\"c\">" << esc(keyOf(nodes[p].capsule), io::kMaxHtmlCellBytes) << "</td>";
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
                << esc(interner.capsule(cg.capsule).name, io::kMaxHtmlCellBytes) << "</small>";
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
          diffs++ < kHtmlMaxCapsuleDiffs)
        capsuleDiff(out, interner.capsule(nodes[pinOf[j]].capsule),
                    interner.capsule(in.candidate->plan.groups[*v.group].capsule));
      out << "</li>\n";
    }
    out << "</ol>\n";
    omittedAndRest(out, *in.report, listed);
  }
};

} // namespace

std::string htmlPicture(const HtmlPictureInput &in, const checks::PictureFacts &facts) {
  Picture p(in, facts);
  p.build();
  return io::writtenText([&](io::Sink &out) {
    p.gates(out);
    p.strip(out);
    p.findings(out);
  });
}

} // namespace lo::report
