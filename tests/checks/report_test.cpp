// The report writers: every format carries each violation with the spec's field names, and the
// machine-readable ones are well-formed (JSON and SARIF parse; JUnit has one case per check).
#include "fixtures.hpp"

#include "tools/support/report.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

namespace lo::checks::testing {
namespace {

struct Written {
  Report report;
  cli::ReportSubject subject;
};

Written failingReport() {
  Interner in;
  const Example ex = example(in, Check::maximal);
  Written w{check(in, ex.plan, ex.candidate, ex.options),
            {"plan.json", "cand \"1\".json", Mode::coalesced, Equality::contract,
             ex.candidate.plan.groups.size(), ex.plan.kernels.size()}};
  w.report.notes.push_back("a note");
  return w;
}

std::string render(cli::ReportFormat f, const Written &w) {
  std::string out;
  {
    io::Sink sink(out);
    cli::writeReport(sink, f, w.report, w.subject);
    sink.flush();
  }
  return out;
}

TEST(Report, TextIsOneLineAViolationThenNotesAndSummary) {
  const Written w = failingReport();
  const std::string text = render(cli::ReportFormat::text, w);
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
  EXPECT_EQ(render(cli::ReportFormat::text, w),
            "cand \"1\".json: conforms to the coalesced lowering (equality contract) of "
            "plan.json (2 groups, 2 nodes)\n");
  w.report.omitted.emplace_back(Check::order, 5);
  EXPECT_NE(render(cli::ReportFormat::text, w).find("order: 5 more violations not listed"),
            std::string::npos);
  EXPECT_EQ(cli::violationSummary(w.report), "5 violations (order 5)");
}

TEST(Report, JsonParsesWithTheSpecsFieldNames) {
  const Written w = failingReport();
  const std::string json = render(cli::ReportFormat::json, w);
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
  const std::string sarif = render(cli::ReportFormat::sarif, w);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(sarif).get(doc), simdjson::SUCCESS) << sarif;
  EXPECT_EQ(std::string_view(doc["version"]), "2.1.0");
  auto run = doc["runs"].at(0);
  auto rules = simdjson::dom::array(run["tool"]["driver"]["rules"]);
  ASSERT_EQ(rules.size(), vocabularySize<Check>());
  EXPECT_EQ(std::string_view(rules.at(8)["id"]), "maximal");
  auto result = run["results"].at(0);
  EXPECT_EQ(std::string_view(result["ruleId"]), "maximal");
  EXPECT_EQ(std::uint64_t(result["ruleIndex"]), 8u);
  EXPECT_EQ(
      std::string_view(result["locations"].at(0)["logicalLocations"].at(0)["fullyQualifiedName"]),
      "/groups/1");
  EXPECT_EQ(std::string_view(
                run["invocations"].at(0)["toolExecutionNotifications"].at(0)["message"]["text"]),
            "a note");
}

TEST(Report, JunitHasOneTestCasePerCheck) {
  const Written w = failingReport();
  const std::string xml = render(cli::ReportFormat::junit, w);
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

} // namespace
} // namespace lo::checks::testing
