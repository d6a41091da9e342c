// The HTML report (docs/spec.md §3.5): a hostile name is shown as text, never as markup; the strip
// shows a dropped and a reordered node and pins each finding to its node; a capsule finding shows
// its field-by-field difference; a plan of a million nodes with one finding gives a page of
// bounded size.
#include "fixtures.hpp"
#include "tests/seed.hpp"

#include "ref/io/escape.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/suite_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

namespace lo::checks::testing {
namespace {

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::size_t occurrences(const std::string &text, const std::string &part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

/// The page `check --format html` writes for `candidate` as a lowering of `plan`.
std::string page(Interner &in, const GraphExecutionPlan &plan, const io::LoweringDocument &cand,
                 const Options &options, const std::string &candidateName = "candidate.json") {
  report::CaseResult c;
  c.report = check(in, plan, cand, options);
  c.subject = {"plan.json",      candidateName,           options.mode,
               options.equality, cand.plan.groups.size(), plan.kernels.size(),
               options.edition};
  c.picture = report::htmlPicture({&in, &plan, &cand, &c.report, "c0-"},
                                  pictureFacts(in, plan, &cand, options.mode, options.equality));
  return io::writtenText(
      [&](io::Sink &out) { report::writeReports(out, report::ReportFormat::html, {c}, {}); });
}

TEST(HtmlText, EscapesMarkupAndForbiddenControls) {
  EXPECT_EQ(io::htmlText("<a href=\"x\" title='y'>&amp;</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  EXPECT_EQ(io::htmlText(std::string("a\0b\x1b\x7f\tc\n", 8)), "a\xef\xbf\xbd"
                                                               "b\xef\xbf\xbd\xef\xbf\xbd\tc\n");
  EXPECT_EQ(io::htmlText("caf\xc3\xa9"), "caf\xc3\xa9") << "UTF-8 is kept";
}

TEST(HtmlReport, HostileCapsuleNameRendersAsText) {
  Interner in;
  const std::string hostile = "<script>alert(1)</script>";
  const CapsuleId evil = in.intern(sampleCapsule(hostile, BackendOp::relu));
  const CapsuleId other =
      in.intern(sampleCapsule(hostile, BackendOp::relu, TrustLevel::trusted_external));
  GraphExecutionPlan plan;
  const KindId relu = Interner::bareKind(KindTag::relu);
  plan.kernels = {{1, relu, BackendOp::relu, evil}, {2, relu, BackendOp::relu, evil}};
  // The candidate carries a capsule of the same name with another contract: a capsule finding
  // whose message, expected and actual values all quote the hostile name.
  io::LoweringDocument cand =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  cand.plan.groups[0].capsule = other;
  const std::string html = page(in, plan, cand, {}, "<img src=x onerror=alert(2)>.json");

  ASSERT_NE(html.find("<span class=\"check\">capsule</span>"), std::string::npos) << html;
  EXPECT_EQ(lowercase(html).find("<script"), std::string::npos) << "no script element at all";
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(2)&gt;.json"), std::string::npos);
  // The page allows no script even if markup slipped through.
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
}

TEST(HtmlReport, StripShowsDroppedAndReorderedNodesAndPinsFindings) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  io::LoweringDocument cand =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  // Reference groups: [1,2] [3] [4] [5] [6,7] [8] [9]. Drop node 8; swap groups [4] and [5].
  cand.plan.groups.erase(cand.plan.groups.begin() + 5);
  std::swap(cand.plan.groups[2], cand.plan.groups[3]);
  const std::string html = page(in, plan, cand, lo::test::seed::options());

  EXPECT_NE(html.find(">dropped</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("reordered"), std::string::npos);
  // Every finding is listed and pinned to a node of the strip.
  const Report report = check(in, plan, cand, {});
  ASSERT_FALSE(report.violations.empty());
  EXPECT_EQ(occurrences(html, "<li class=\"finding\""), report.violations.size());
  for (std::size_t j = 0; j < report.violations.size(); ++j)
    EXPECT_NE(html.find("href=\"#c0-f" + std::to_string(j) + "\""), std::string::npos)
        << "finding " << j << " is pinned in the strip";
  // Nine nodes: the strip holds all of them, trusted-external ones (3 and 9) marked.
  EXPECT_EQ(occurrences(html, "<td class=\"n"), 9u);
  EXPECT_EQ(occurrences(html, "class=\"t te\""), 2u);
  // The gate verdict under each preset, for both lowerings.
  for (const char *preset : {"<th>verified</th>", "<th>checked</th>", "<th>external</th>"})
    EXPECT_NE(html.find(preset), std::string::npos);
  EXPECT_NE(html.find("<th>reference lowering</th>"), std::string::npos);
  EXPECT_NE(html.find("<th>candidate</th>"), std::string::npos);
}

TEST(HtmlReport, CapsuleFindingShowsTheFieldByFieldDifference) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  io::LoweringDocument cand =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  cand.plan.groups[1].capsule = a.R; // node 3's capsule is Rx: same name, trusted-external
  const std::string html = page(in, plan, cand, lo::test::seed::options());
  ASSERT_NE(html.find("<table class=\"fields\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr class=\"differs\"><th>trustLevel</th><td>trusted-external</td>"
                      "<td>verified</td></tr>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><th>name</th><td class=\"same\">reference.relu</td>"),
            std::string::npos);
}

// A candidate gate marked "differs" whose verdict and failure kinds read the same as the
// reference's shows the report it loses (docs/spec.md §3.5), and the field-by-field difference
// lists each provenance item, not only their count.
TEST(HtmlReport, AGateThatDiffersShowsTheReportAndProvenanceIsShownAsEntries) {
  Interner in;
  KernelCapsule p = sampleCapsule("vendor.relu", BackendOp::relu);
  for (ContractDescriptor *d : {&p.shapeContract, &p.layoutContract, &p.vjpContract})
    d->evidence = {EvidenceTag::runtimeGuard, "guard"}; // accepted by checked
  p.valueContract.evidence = {EvidenceTag::trustedBoundary, "reason one"};
  KernelCapsule q = p;
  q.valueContract.evidence.text = "reason two";
  q.valueContract.provenance = {{ProvenanceTag::sourceFile, "src/q-kernel.cu", "", std::nullopt}};
  const KindId relu = Interner::bareKind(KindTag::relu);
  GraphExecutionPlan plan;
  plan.kernels = {{1, relu, BackendOp::relu, in.intern(p)},
                  {2, relu, BackendOp::relu, in.intern(q)}};
  io::LoweringDocument cand =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  ASSERT_EQ(cand.plan.groups.size(), 2u);
  cand.plan.groups[0].nodeIds.push_back(2);
  cand.plan.groups[0].kinds.push_back(relu);
  cand.plan.groups[0].groupingKind = GroupingKind::sameCapsuleRun;
  cand.plan.groups.pop_back();
  const std::string html = page(in, plan, cand, lo::test::seed::options());
  // Under verified and checked both lowerings are "rejected: trustedBoundary"; the candidate
  // loses node 2's report.
  EXPECT_NE(html.find("rejected: trustedBoundary — differs from the reference: <span "
                      "class=\"why\">the candidate loses the trustedBoundary report relu: "
                      "vendor.relu value: "),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("trusted boundary: reason two</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("src/q-kernel.cu"), std::string::npos) << html;
  EXPECT_EQ(html.find("provenance: 1"), std::string::npos) << html;
}

TEST(HtmlReport, MillionNodePlanWithOneFindingGivesABoundedPage) {
  Interner in;
  const Alphabet a = alphabet(in);
  GraphExecutionPlan plan;
  constexpr std::size_t n = 1000000;
  plan.kernels.reserve(n);
  // relu and tanh alternate: the coalesced lowering has a million singleton groups.
  for (std::size_t i = 0; i < n; ++i)
    plan.kernels.push_back(i % 2 ? PlannedNodeKernel{i, a.tanh, BackendOp::tanh, a.T}
                                 : PlannedNodeKernel{i, a.relu, BackendOp::relu, a.R});
  io::LoweringDocument cand =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  cand.plan.groups[654320].capsule = a.Rx; // one capsule finding, deep inside
  const std::string html = page(in, plan, cand, lo::test::seed::options());

  ASSERT_EQ(occurrences(html, "<li class=\"finding\""), 1u) << html.substr(0, 4000);
  RecordProperty("bytes", static_cast<int>(html.size()));
  EXPECT_LT(html.size(), std::size_t{256} << 10) << "the page is bounded, not a million cells";
  EXPECT_EQ(occurrences(html, "<td class=\"n"), 2 * report::kHtmlContext + 1);
  EXPECT_NE(html.find("654314 nodes not shown (positions 0 to 654313)"), std::string::npos);
  EXPECT_NE(html.find("345673 nodes not shown (positions 654327 to 999999)"), std::string::npos);
  EXPECT_NE(html.find("id=\"c0-n654320\""), std::string::npos) << "the finding's node is shown";
}

// verify's page (docs/spec.md §3.5): an index with the failing entry first, then the error, then
// the passing one; the failing and error entries link to their sections, the passing one is listed,
// not drawn.
TEST(HtmlReport, VerifyPageIndexesFailuresFirstAndLinksToTheirSections) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  io::LoweringDocument good =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  io::LoweringDocument bad = good;
  bad.plan.groups.pop_back();
  report::SuiteReport r;
  r.suite = "suite";
  r.outputs = "outputs";
  for (int i = 0; i < 3; ++i) {
    report::SuiteEntry e;
    e.result.name = "case-<" + std::to_string(i) + ">";
    e.result.subject.candidate = "out" + std::to_string(i) + ".json";
    if (i == 2) {
      e.result.error = report::ReportError{e.result.subject.candidate, 0, 0, "",
                                           "no output: out2.json does not exist"};
    } else {
      e.result.report = check(in, plan, i ? bad : good, {});
      EXPECT_EQ(e.status(),
                i ? report::SuiteEntry::Status::fails : report::SuiteEntry::Status::conforms);
      e.result.picture = report::htmlPicture(
          {&in, &plan, i ? &bad : &good, &e.result.report, "e" + std::to_string(i) + "-"},
          pictureFacts(in, plan, i ? &bad : &good, Mode::coalesced, Equality::contract));
    }
    r.entries.push_back(std::move(e));
  }
  const std::string html = io::writtenText(
      [&](io::Sink &out) { report::writeSuiteReport(out, report::ReportFormat::html, r); });
  for (const char *row : {"<a href=\"#e1\">case-&lt;1&gt;</a>",
                          "<a href=\"#e2\">case-&lt;2&gt;</a>", "<td>case-&lt;0&gt;</td>"})
    EXPECT_NE(html.find(row), std::string::npos) << row;
  EXPECT_EQ(html.find("href=\"#e0\""), std::string::npos) << "a passing entry has no section";
  EXPECT_LT(html.find("case-&lt;1&gt;"), html.find("case-&lt;2&gt;")) << "the failure first";
  EXPECT_LT(html.find("case-&lt;2&gt;"), html.find("case-&lt;0&gt;")) << "then the error";
  EXPECT_NE(html.find("<td class=\"pass\">pass</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"finding\">finding</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"error\">error</td>"), std::string::npos);
  for (const char *section :
       {"<section class=\"case\" id=\"e1\">", "<section class=\"case\" id=\"e2\">"})
    EXPECT_NE(html.find(section), std::string::npos) << section;
  EXPECT_EQ(html.find("<section class=\"case\" id=\"e0\">"), std::string::npos);
  EXPECT_NE(html.find("href=\"#e1-f0\""), std::string::npos) << "entry 1's finding is pinned";
  EXPECT_NE(html.find("no output: out2.json does not exist"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<table class=\"strip\">"), 1u) << "the failing entry is drawn";
  EXPECT_EQ(html.find("No picture"), std::string::npos) << "the failing entry has its picture";
  EXPECT_NE(html.find("Passing entries are listed, not drawn."), std::string::npos);
}

TEST(HtmlReport, AGateEntrySaysWhyItHasNoPicture) {
  report::SuiteReport r;
  r.suite = "suite";
  r.outputs = "outputs";
  report::SuiteEntry e;
  e.result.name = "case-0";
  e.policy = "verified";
  e.result.subject.candidate = "out0.gate.json";
  e.result.report.violations.push_back(
      {Check::gate, {}, {}, "/verdict", "the verdict differs", "", "", ""});
  r.entries.push_back(std::move(e));
  const std::string html = io::writtenText(
      [&](io::Sink &out) { report::writeSuiteReport(out, report::ReportFormat::html, r); });
  const std::size_t why = html.find(
      "No picture: the entry's output is a gate result, not a lowering to draw; the findings are "
      "listed.");
  ASSERT_NE(why, std::string::npos) << html;
  EXPECT_LT(why, html.find("the verdict differs")) << "the reason comes before the findings";
  EXPECT_EQ(occurrences(html, "<table class=\"strip\">"), 0u);
}

} // namespace
} // namespace lo::checks::testing
