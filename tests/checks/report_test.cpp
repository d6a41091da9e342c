// The report writers: every format carries each violation with the spec's field names, and the
// machine-readable ones are well-formed (JSON and SARIF parse; JUnit has one case per check).
#include "fixtures.hpp"

#include "tools/report/locate.hpp"
#include "tools/report/report.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

namespace lo::checks::testing {
namespace {

struct Written {
  Report report;
  report::ReportSubject subject;
};

Written failingReport() {
  Interner in;
  const Example ex = example(in, Check::maximal);
  Written w{check(in, ex.plan, ex.candidate, ex.options),
            {"plan.json", "cand \"1\".json", Mode::coalesced, Equality::contract,
             ex.candidate.plan.groups.size(), ex.plan.kernels.size(), ex.options.edition}};
  w.report.notes.push_back("a note");
  return w;
}

std::string render(report::ReportFormat f, const Written &w) {
  std::string out;
  {
    io::Sink sink(out);
    report::writeReport(sink, f, w.report, w.subject);
    sink.flush();
  }
  return out;
}

TEST(Report, TextIsOneLineAViolationThenNotesAndSummary) {
  const Written w = failingReport();
  const std::string text = render(report::ReportFormat::text, w);
  EXPECT_EQ(text, "cand \"1\".json: /groups/1: maximal: group 1 (node 2) could have been appended "
                  "to group 0: same op relu and the same capsule reference.relu\n"
                  "cand \"1\".json: note: a note\n"
                  "cand \"1\".json: does not conform to the coalesced lowering (equality "
                  "contract) of plan.json: 1 violation (maximal 1)\n");
}

TEST(Report, TextSaysWhenItConformsAndCountsOmitted) {
  Written w = failingReport();
  w.report.violations.clear();
  w.report.notes.clear();
  EXPECT_EQ(render(report::ReportFormat::text, w),
            "cand \"1\".json: conforms to the coalesced lowering (equality contract) of "
            "plan.json (2 groups, 2 nodes)\n");
  w.report.omitted.emplace_back(Check::order, 5);
  EXPECT_NE(render(report::ReportFormat::text, w).find("order: 5 more violations not listed"),
            std::string::npos);
  EXPECT_EQ(report::violationSummary(w.report), "5 violations (order 5)");
}

TEST(Report, JsonParsesWithTheSpecsFieldNames) {
  const Written w = failingReport();
  const std::string json = render(report::ReportFormat::json, w);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["format"]), "lowering-oracle/check-report");
  EXPECT_FALSE(bool(doc["conforms"]));
  EXPECT_EQ(std::string_view(doc["candidate"]), "cand \"1\".json");
  auto v = doc["violations"].at(0);
  EXPECT_EQ(std::string_view(v["check"]), "maximal");
  EXPECT_EQ(std::uint64_t(v["group"]), 1u);
  EXPECT_EQ(std::uint64_t(v["nodeId"]), 2u);
  EXPECT_EQ(std::string_view(v["pointer"]), "/groups/1");
  EXPECT_EQ(simdjson::dom::array(doc["checks"]).size(), vocabularySize<Check>());
  EXPECT_EQ(std::string_view(doc["checks"].at(8)["status"]), "failed");
  EXPECT_EQ(std::string_view(doc["checks"].at(7)["status"]), "skipped"); // singleton
  EXPECT_EQ(std::string_view(doc["notes"].at(0)), "a note");
}

TEST(Report, SarifIsVersion210WithOneRulePerCheck) {
  const Written w = failingReport();
  const std::string sarif = render(report::ReportFormat::sarif, w);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(sarif).get(doc), simdjson::SUCCESS) << sarif;
  EXPECT_EQ(std::string_view(doc["version"]), "2.1.0");
  auto run = doc["runs"].at(0);
  auto rules = simdjson::dom::array(run["tool"]["driver"]["rules"]);
  ASSERT_EQ(rules.size(), vocabularySize<Check>() + 1) << "one rule per check, and invalid-input";
  EXPECT_EQ(std::string_view(rules.at(8)["id"]), "maximal");
  auto result = run["results"].at(0);
  EXPECT_EQ(std::string_view(result["ruleId"]), "maximal");
  EXPECT_EQ(std::uint64_t(result["ruleIndex"]), 8u);
  EXPECT_EQ(
      std::string_view(result["locations"].at(0)["logicalLocations"].at(0)["fullyQualifiedName"]),
      "/groups/1");
  EXPECT_EQ(std::string_view(
                run["invocations"].at(0)["toolExecutionNotifications"].at(0)["message"]["text"]),
            "cand \"1\".json: a note");
}

TEST(Report, JunitHasOneTestCasePerCheck) {
  const Written w = failingReport();
  const std::string xml = render(report::ReportFormat::junit, w);
  std::size_t cases = 0;
  for (std::size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++cases;
  EXPECT_EQ(cases, vocabularySize<Check>());
  EXPECT_NE(xml.find("tests=\"12\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure type=\"maximal\""), std::string::npos);
  EXPECT_NE(xml.find("cand &quot;1&quot;.json"), std::string::npos) << "escaped file name";
  EXPECT_NE(xml.find("<skipped message=\"applies only in mode singleton\"/>"), std::string::npos);
}

TEST(ShownText, EscapesEveryControlAndCutsLongText) {
  EXPECT_EQ(report::shownText("relu.cudnn"), "relu.cudnn");
  EXPECT_EQ(report::shownText("a\nb\x1b[8mc\x7f"), "a\\u000ab\\u001b[8mc\\u007f");
  EXPECT_EQ(report::shownText("\xc2\x9b"
                              "31m"),
            "\\u009b31m")
      << "CSI, a C1 control";
  EXPECT_EQ(report::shownText("x\xe2\x80\xaey\xe2\x80\xa8z"), "x\\u202ey\\u2028z")
      << "bidirectional override and line separator";
  EXPECT_EQ(report::shownText("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93")
      << "text stays";
  EXPECT_EQ(report::shownText("bad\xff"), "bad\\xff");
  const std::string cut = report::shownText(std::string(5000, 'n'));
  EXPECT_EQ(cut, std::string(io::kMaxShownBytes, 'n') + "\xe2\x80\xa6");
  EXPECT_EQ(report::shownText("\xc3\xa9\xc3\xa9", 3), "\xc3\xa9"
                                                      "\xe2\x80\xa6")
      << "cut after a whole character";
}

// docs/spec.md §3.5: a check puts input text in its sentence raw; every format shows it by the one
// rule, so the same name looks the same in text, JUnit, JSON and SARIF.
TEST(Report, EveryFormatShowsAnInputStringTheSameWay) {
  Written w = failingReport();
  ASSERT_FALSE(w.report.violations.empty());
  w.report.violations.front().message = "capsule a\nb\xed\xa0\x80\xef\xbf\xbf\xe2\x80\xae";
  const std::string shown = "capsule a\\u000ab\\xed\\xa0\\x80\\uffff\\u202e";
  std::string inJson; // the same text as a JSON string's content: each backslash doubled
  for (char c : shown)
    inJson += c == '\\' ? std::string("\\\\") : std::string(1, c);
  for (auto f : {report::ReportFormat::text, report::ReportFormat::junit,
                 report::ReportFormat::json, report::ReportFormat::sarif}) {
    const std::string out = render(f, w);
    const bool json = f == report::ReportFormat::json || f == report::ReportFormat::sarif;
    EXPECT_NE(out.find(json ? inJson : shown), std::string::npos) << out;
    for (const char *raw : {"a\nb", "\xed\xa0\x80", "\xef\xbf\xbf", "\xe2\x80\xae"})
      EXPECT_EQ(out.find(raw), std::string::npos) << static_cast<int>(f) << ": " << out;
  }
}

TEST(Locate, FindsThePointersValueInTheText) {
  const std::string text =
      "{\"groups\": [\n  {\"a\": 1},\n  {\"a/b\": [10, 20], \"x\\u0079\": \"v\"}\n]}";
  auto at = [&](std::string_view pointer) {
    const auto offset = report::pointerOffset(text, pointer);
    return offset ? text.substr(*offset, 3) : std::string("none");
  };
  EXPECT_EQ(at(""), "{\"g");
  EXPECT_EQ(at("/groups/1"), "{\"a");
  EXPECT_EQ(at("/groups/0/a"), "1},");
  EXPECT_EQ(at("/groups/1/a~1b/1"), "20]");
  EXPECT_EQ(at("/groups/1/xy"), "\"v\"") << "keys compare decoded";
  EXPECT_EQ(at("/groups/2"), "none");
  EXPECT_EQ(at("/nothing"), "none");
  const auto p = report::positionOf(text, *report::pointerOffset(text, "/groups/1"));
  EXPECT_EQ(p.line, 3u);
  EXPECT_EQ(p.column, 3u);
  EXPECT_EQ(report::positionOf("\xc3\xa9\xc3\xa9x", 4).column, 3u) << "columns in code points";
}

TEST(Report, JsonCarriesFieldExpectedActualWhereTheyApply) {
  Interner in;
  const Example ex = example(in, Check::groupingKind);
  const Report r = check(in, ex.plan, ex.candidate, ex.options);
  Written w{r, {"plan.json", "c.json", ex.options.mode, ex.options.equality, 0, 0}};
  const std::string json = render(report::ReportFormat::json, w);
  EXPECT_NE(json.find("\"check\":\"grouping-kind\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"field\":\"groupingKind\",\"expected\":\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"actual\":\""), std::string::npos) << json;
  const std::string maximal = render(report::ReportFormat::json, failingReport());
  EXPECT_EQ(maximal.find("\"field\""), std::string::npos) << "not for a finding about no one field";
}

// Several candidates (`diff`): JUnit class names unique per case, mode and equality; an error
// entry for a candidate that could not be read; a JSON document with every case and a summary.
TEST(Report, SeveralCandidatesWithAnErrorEntry) {
  const Written w = failingReport();
  std::vector<report::CaseResult> cases(3);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].name = "0001-one-node";
    cases[i].subject = w.subject;
    cases[i].report = w.report;
    cases[i].seconds = 0.25;
  }
  cases[1].subject.mode = Mode::singleton;
  cases[2].name = "0002-long-run";
  cases[2].error = report::ReportError{"out/0002.json", 3, 7, "/groups", "groups is not an array"};
  report::ReportOptions options;
  options.command = "diff";
  std::string xml;
  {
    io::Sink sink(xml);
    report::writeReports(sink, report::ReportFormat::junit, cases, options);
    sink.flush();
  }
  EXPECT_NE(xml.find("classname=\"lowering-oracle.diff.0001-one-node.coalesced.contract\" "
                     "name=\"provenance\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("classname=\"lowering-oracle.diff.0001-one-node.singleton.contract\""),
            std::string::npos);
  EXPECT_NE(xml.find("<error type=\"invalid-input\" message=\"out/0002.json:3:7: /groups: groups "
                     "is not an array\""),
            std::string::npos)
      << xml;
  // JSON holds one candidate (`check`'s report); several are `verify`'s suite report.
  {
    std::string json;
    io::Sink sink(json);
    EXPECT_THROW(report::writeReports(sink, report::ReportFormat::json, cases, options),
                 std::logic_error);
  }
  std::string text;
  {
    io::Sink sink(text);
    report::writeReports(sink, report::ReportFormat::text, cases, options);
    sink.flush();
  }
  EXPECT_NE(text.find("diff: 0 of 3 conform, 2 do not, 1 error\n"), std::string::npos) << text;
}

} // namespace
} // namespace lo::checks::testing
