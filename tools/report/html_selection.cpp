// check-plan's HTML page (selection_report.hpp, docs/spec.md §10.8): the verdict, the policy and
// availability, the departures, and for each node a departure names (or, when there is none, the
// first nodes) the registry's capsules of its op in registry order, each with why selection
// refuses it, which one selection chooses and which one the candidate chose.
#include "tools/report/html_parts.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/selection_report.hpp"

#include <map>
#include <set>

namespace lo::report {

namespace {

/// Nodes shown with their candidates, and capsules listed for one node, at most.
constexpr std::size_t kNodesShown = kHtmlMaxWindows;
constexpr std::size_t kCapsulesShown = 64;

} // namespace

void writeSelectionHtml(io::Sink &out, const SelectionSubject &s, Edition edition,
                        const SelectionView &v, const std::vector<checks::Finding> &findings) {
  html::pageStart(out, "lowering-oracle check-plan: " + s.candidate);
  writeSelectionPicture(out, s, edition, v, findings);
  html::pageEnd(out);
}

void writeSelectionPicture(io::Sink &out, const SelectionSubject &s, Edition edition,
                           const SelectionView &v, const std::vector<checks::Finding> &findings) {
  using html::esc;
  std::vector<KernelCapsule> registry;
  const selection::SelectionResult expected =
      selection::planGraphNodes(v.profile, v.graph, registry);
  out << "<h1>" << esc(s.candidate) << "</h1>\n<p><span class=\"verdict "
      << (findings.empty() ? "ok\">conforms" : "bad\">does not conform")
      << "</span> to the selection of <code>" << esc(s.graph) << "</code> under profile <code>"
      << esc(s.profile) << "</code>, edition " << spelling(edition)
      << " (docs/spec.md §10).</p>\n<p class=\"meta\">policy: device "
      << spelling(v.profile.policy.device) << ", provider "
      << acceptance::preferenceSpelling(v.profile.policy.provider) << ", assurance "
      << acceptance::assuranceSpelling(v.profile.policy.assurance) << ", VJP mode "
      << spelling(v.profile.policy.vjpMode) << "; availability: devices";
  for (Device d : v.profile.availability.devices)
    out << ' ' << spelling(d);
  out << ", providers";
  for (Provider p : v.profile.availability.providers)
    out << ' ' << spelling(p);
  out << "; " << html::num(registry.size()) << " capsules in the registry.</p>\n";
  if (!expected.ok())
    out << "<p>Selection fails: <code>" << esc(*expected.error) << "</code></p>\n";
  if (v.failed)
    out << "<p>The implementation failed: <code>" << esc(*v.failed) << "</code></p>\n";

  // The departures.
  std::set<std::size_t> shownNodes; // graph positions with a departure
  std::map<NodeId, std::size_t> position;
  for (std::size_t i = 0; i < v.graph.nodes.size(); ++i)
    position.emplace(v.graph.nodes[i].id, i);
  if (!findings.empty()) {
    out << "<h2>Departures</h2>\n<ol class=\"findings\">\n";
    for (std::size_t i = 0; i < findings.size() && i < kHtmlMaxFindings; ++i) {
      const checks::Finding &f = findings[i];
      out << "<li><span class=\"check\">" << spelling(f.check) << "</span> <span class=\"where\">"
          << esc(inGraph(f) ? s.graph : s.candidate) << (f.pointer.empty() ? "" : " ")
          << esc(f.pointer) << "</span><br>" << esc(f.sentence) << "</li>\n";
    }
    out << "</ol>\n";
    if (findings.size() > kHtmlMaxFindings)
      out << "<p class=\"elided\">" << html::num(findings.size() - kHtmlMaxFindings)
          << " more departures are not listed.</p>\n";
    // The node of each finding: a kernel's node, or the graph's node.
    for (const checks::Finding &f : findings) {
      std::size_t at = html::kNone;
      if (inGraph(f) && f.pointer.rfind("/nodes/", 0) == 0)
        at = std::stoul(f.pointer.substr(7));
      else if (f.pointer.rfind("/kernels/", 0) == 0) {
        const std::size_t k = std::stoul(f.pointer.substr(9));
        if (k < v.candidate.kernels.size())
          if (const auto it = position.find(v.candidate.kernels[k].nodeId); it != position.end())
            at = it->second;
      }
      if (at != html::kNone && v.graph.nodes[at].op)
        shownNodes.insert(at);
    }
  }
  if (shownNodes.empty())
    for (std::size_t i = 0; i < v.graph.nodes.size() && shownNodes.size() < kNodesShown; ++i)
      if (v.graph.nodes[i].op)
        shownNodes.insert(i);

  // The candidates of each node shown, in registry order.
  std::map<NodeId, CapsuleId> chosenBy; // the candidate's kernel of each node (its first)
  for (const PlannedNodeKernel &k : v.candidate.kernels)
    chosenBy.emplace(k.nodeId, k.capsule);
  std::map<NodeId, std::size_t> ruleChoice;
  for (const selection::PlannedNode &k : expected.kernels)
    ruleChoice.emplace(k.nodeId, k.capsule);
  out << "<h2>Candidates of each node</h2>\n";
  std::size_t listed = 0;
  for (std::size_t at : shownNodes) {
    if (listed++ == kNodesShown) {
      out << "<p class=\"elided\">" << html::num(shownNodes.size() - kNodesShown)
          << " more nodes are not shown.</p>\n";
      break;
    }
    const selection::Node &n = v.graph.nodes[at];
    const BackendOp op = *n.op;
    out << "<h3>node " << html::num(n.id) << ": <code>" << esc(html::kindText(v.interner, n.kind))
        << "</code> (op " << spelling(op) << ")</h3>\n";
    const auto chosen = chosenBy.find(n.id);
    const KernelCapsule *theirs =
        chosen == chosenBy.end() ? nullptr : &v.interner.capsule(chosen->second);
    out << "<p>The candidate chose "
        << (theirs ? "<code>" + esc(theirs->name) + "</code>" : std::string("nothing"))
        << ".</p>\n<table class=\"fields "
           "summary\"><tr><th>#</th><th>capsule</th><th>provider</th><th>device</th>"
           "<th>trust</th><th>selection</th></tr>\n";
    const auto rule = ruleChoice.find(n.id);
    std::size_t rows = 0, ofOp = 0;
    bool theirsListed = false;
    for (std::size_t i = 0; i < registry.size(); ++i) {
      const KernelCapsule &c = registry[i];
      if (c.op != op)
        continue;
      if (++ofOp > kCapsulesShown)
        continue;
      ++rows;
      const selection::Refusals r =
          selection::refusals(v.profile.policy, v.profile.availability, op, c);
      const bool isRule = rule != ruleChoice.end() && rule->second == i;
      const bool isTheirs = theirs && *theirs == c;
      theirsListed |= isTheirs;
      out << "<tr" << (isTheirs && !isRule ? " class=\"differs\"" : "") << "><td>" << html::num(i)
          << "</td><td><code>" << esc(c.name) << "</code>" << (isTheirs ? " (the candidate's)" : "")
          << "</td><td>" << spelling(c.provider) << "</td><td>" << spelling(c.device) << "</td><td>"
          << spelling(c.trustLevel) << "</td><td class=\""
          << (isRule ? "pass\">chosen"
              : r    ? "finding\">refused: "
                     : "\">")
          << (isRule ? ""
              : r    ? selection::refusalWords(r)
                     : "eligible, passed over")
          << "</td></tr>\n";
    }
    out << "</table>\n";
    if (ofOp > kCapsulesShown)
      out << "<p class=\"elided\">" << html::num(ofOp - kCapsulesShown)
          << " more capsules of this op are not shown.</p>\n";
    if (rows == 0)
      out << "<p class=\"note\">The registry has no capsule of op " << spelling(op) << ".</p>\n";
    if (theirs && !theirsListed)
      out << "<p class=\"note\">The candidate's capsule is not in the registry.</p>\n";
  }
}

} // namespace lo::report
