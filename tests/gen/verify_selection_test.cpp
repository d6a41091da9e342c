// `gen` writes selection cases and `verify --selection` judges them (docs/spec.md §4.3, "Selection
// entries"): the suite's expected files are what `plan` gives, the planner's outputs (or its
// refusals) are judged by the selection checks, the suite is verified as every suite is, and every
// report format is written.
#include "checks/selection.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/output.hpp"
#include "ref/io/writer.hpp"
#include "ref/profile.hpp"
#include "tests/cli_run.hpp"
#include "tools/diff/suite_run.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/selection_suite_report.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/suite/suite_manifest.hpp"
#include "tools/suite/verify.hpp"

#include <simdjson.h>

#include <map>

namespace lo::testing {
namespace {

namespace fs = std::filesystem;
using report::SuiteEntry;

constexpr std::size_t kCount = 10;

/// A suite of kCount cases of edition 2026-10 written in-process, and the outputs of a conforming
/// planner: each case's expected plan as its output, each expected refusal as NAME.error.
class VerifySelection : public TempDir {
protected:
  void SetUp() override {
    TempDir::SetUp();
    suite = dir / "suite";
    outputs = dir / "out";
    writeSuite(suite, Edition::e2026_10);
    fs::create_directories(outputs);
    for (const auto &[path, text] : files) {
      const fs::path p(path);
      if (p.parent_path().parent_path() != "selection")
        continue;
      const std::string name = "selection-" + p.parent_path().filename().string() + ".json";
      if (p.filename() == "expected.json")
        write(outputs / name, text);
      else if (p.filename() == "expected-error.txt")
        write(outputs / (name + ".error"), text);
    }
  }
  void writeSuite(const fs::path &where, Edition edition) {
    files.clear();
    suite::suiteFiles(suite::Settings{5, 12, edition}, kCount,
                      [&](const std::string &path, std::string_view text) {
                        files[path] = std::string(text);
                        fs::create_directories((where / path).parent_path());
                        write(where / path, std::string(text));
                      });
  }
  suite::VerifySettings settings() const {
    suite::VerifySettings s;
    s.suite = suite.string();
    s.outputs = outputs.string();
    s.selection = true;
    return s;
  }
  /// The numbers of the cases whose expected file is a plan (`plans`) or a refusal.
  std::vector<std::string> cases(bool plans) const {
    std::vector<std::string> out;
    for (const auto &[path, text] : files)
      if (path.ends_with(plans ? "/expected.json" : "/expected-error.txt"))
        out.push_back(fs::path(path).parent_path().filename().string());
    return out;
  }
  static void write(const fs::path &p, const std::string &text) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << text;
  }
  fs::path suite, outputs;
  std::map<std::string, std::string> files;
};

TEST_F(VerifySelection, GenWritesOneEntryPerCaseWhatPlanGivesFromItsFiles) {
  const suite::SuiteManifest m =
      suite::readSuiteManifest(io::sourceFromString("manifest.json", files.at("manifest.json")));
  ASSERT_TRUE(m.selection.has_value());
  ASSERT_EQ(m.selection->size(), kCount);
  // Both kinds of answer are in the suite, so that both are judged below.
  ASSERT_FALSE(cases(true).empty());
  ASSERT_FALSE(cases(false).empty());
  for (std::size_t i = 0; i < kCount; ++i) {
    const suite::SuiteManifest::Entry &e = (*m.selection)[i];
    EXPECT_EQ(e.caseName, "selection-" + suite::caseNumber(i));
    // What `plan GRAPH --profile-file PROFILE` gives from the suite's own files.
    Interner interner;
    const selection::Graph g = io::readGraph(io::sourceFromString(e.graph, files.at(e.graph)),
                                             interner, Edition::e2026_10);
    const selection::BackendProfile p =
        io::readProfile(io::sourceFromString(e.profile, files.at(e.profile)), Edition::e2026_10);
    const auto planned = selection::planExecution(p, g, interner);
    if (const auto *error = std::get_if<std::string>(&planned)) {
      EXPECT_TRUE(e.expected.ends_with("expected-error.txt")) << e.expected;
      EXPECT_EQ(files.at(e.expected), *error + "\n");
    } else {
      EXPECT_TRUE(e.expected.ends_with("expected.json")) << e.expected;
      EXPECT_EQ(files.at(e.expected), io::writtenText([&](io::Sink &out) {
                  io::writeExecutionPlan(out, interner, std::get<GraphExecutionPlan>(planned),
                                         Edition::e2026_10);
                }));
    }
  }
  // An edition without selection: no list, no files.
  writeSuite(dir / "old", Edition::e2026_08b);
  EXPECT_EQ(files.at("manifest.json").find("\"selection\""), std::string::npos);
  for (const auto &[path, text] : files)
    EXPECT_FALSE(path.starts_with("selection/")) << path;
}

TEST_F(VerifySelection, ConformingPlansAndRefusalsPassAndEveryDepartureIsNamed) {
  report::SelectionSuiteReport r = suite::runVerifySelection(settings());
  ASSERT_EQ(r.entries.size(), kCount);
  EXPECT_TRUE(r.conforms()) << io::writtenText([&](io::Sink &out) {
    report::writeSelectionSuiteReport(out, report::ReportFormat::text, r);
  });
  EXPECT_TRUE(r.suiteVerified);

  const std::string planned = "selection-" + cases(true).front() + ".json";
  const std::string refused = "selection-" + cases(false).front() + ".json";
  // A plan's refusal where selection gives a plan; the last kernel of another plan gone; a
  // refusal's file gone (nothing at all: an error entry).
  fs::rename(outputs / planned, outputs / (planned + ".error"));
  fs::remove(outputs / (refused + ".error"));
  r = suite::runVerifySelection(settings());
  EXPECT_EQ(r.count(SuiteEntry::Status::fails), 1u);
  EXPECT_EQ(r.count(SuiteEntry::Status::error), 1u);
  for (const report::SelectionSuiteEntry &e : r.entries) {
    if (e.output.ends_with(planned)) {
      ASSERT_EQ(e.findings.size(), 1u);
      EXPECT_EQ(e.findings[0].check, Departure::errorWherePlan);
    } else if (e.output.ends_with(refused)) {
      ASSERT_TRUE(e.error.has_value());
      EXPECT_NE(e.error->find("does not exist"), std::string::npos) << *e.error;
    } else {
      EXPECT_EQ(e.status(), SuiteEntry::Status::conforms) << e.caseName;
    }
  }
}

TEST_F(VerifySelection, AMissingNodeIsADepartureLocatedInTheGraph) {
  // The plan with the most kernels loses its last one: the graph's node is missing from it.
  std::string name;
  std::size_t most = 0;
  for (const std::string &number : cases(true)) {
    const std::string &text = files.at("selection/" + number + "/expected.json");
    const std::size_t n = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (n > most) {
      most = n;
      name = number;
    }
  }
  ASSERT_FALSE(name.empty());
  Interner interner;
  GraphExecutionPlan plan = io::readExecutionPlan(
      io::sourceFromString("p", files.at("selection/" + name + "/expected.json")), interner,
      Edition::e2026_10);
  ASSERT_FALSE(plan.kernels.empty());
  plan.kernels.pop_back();
  write(outputs / ("selection-" + name + ".json"), io::writtenText([&](io::Sink &out) {
          io::writeExecutionPlan(out, interner, plan, Edition::e2026_10);
        }));
  const report::SelectionSuiteReport r = suite::runVerifySelection(settings());
  EXPECT_EQ(r.count(SuiteEntry::Status::fails), 1u);
  for (const report::SelectionSuiteEntry &e : r.entries) {
    if (e.caseName != "selection-" + name)
      continue;
    ASSERT_FALSE(e.findings.empty());
    EXPECT_EQ(e.findings[0].check, Departure::missingNode);
    EXPECT_EQ(e.findings[0].pointer.rfind("/nodes/", 0), 0u) << e.findings[0].pointer;
    ASSERT_EQ(e.positions.size(), e.findings.size());
    EXPECT_GT(e.positions[0].first, 0u) << "located in the graph's text";
  }
}

TEST_F(VerifySelection, ATamperedGraphOrProfileIsRefusedNamingIt) {
  for (const char *file : {"graph.json", "profile.json"}) {
    const fs::path path = suite / "selection" / cases(true).front() / file;
    const std::string original = slurp(path);
    write(path, original + " ");
    try {
      (void)suite::runVerifySelection(settings());
      ADD_FAILURE() << file << ": a changed file was judged";
    } catch (const suite::SuiteError &e) {
      EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    write(path, original);
  }
}

TEST_F(VerifySelection, ASuiteWithoutSelectionIsRefusedWithTheEditionsThatHaveIt) {
  writeSuite(suite = dir / "old", Edition::e2026_08b);
  try {
    (void)suite::runVerifySelection(settings());
    ADD_FAILURE() << "a suite without selection entries was judged";
  } catch (const suite::SuiteError &e) {
    EXPECT_NE(std::string(e.what()).find("/selection: expected an array"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("2026-09"), std::string::npos) << e.what();
  }
}

TEST_F(VerifySelection, TheOraclesPlanRunByVerifyConformsAndItsRefusalsAreKept) {
  fs::remove_all(outputs);
  diff::SuiteRunSettings run;
  run.selection = true;
  run.impl = std::string(LO_ORACLE_BINARY) + " plan {graph} --profile-file {profile} --edition " +
             "2026-10 -o {out}";
  suite::VerifySettings s = settings();
  s.producer = diff::suiteProducer(run);
  report::SelectionSuiteReport r = suite::runVerifySelection(s);
  s.producer = nullptr;
  EXPECT_TRUE(r.conforms());
  EXPECT_EQ(r.entries.size(), kCount);
  // What it wrote is judged again from OUTPUTS alone: the same verdict.
  for (const std::string &number : cases(false))
    EXPECT_TRUE(fs::exists(outputs / ("selection-" + number + ".json.error"))) << number;
  r = suite::runVerifySelection(settings());
  EXPECT_TRUE(r.conforms());
}

TEST_F(VerifySelection, APlannerThatSkipsThePreferenceIsCaughtThroughTheWorker) {
  fs::remove_all(outputs);
  diff::SuiteRunSettings run;
  run.selection = true;
  run.worker = std::string(LO_PYTHON3) + " " + LO_PEERS_DIR + "/planner.py --worker";
  suite::VerifySettings s = settings();
  s.producer = diff::suiteProducer(run);
  EXPECT_TRUE(suite::runVerifySelection(s).conforms()) << "the conforming peer";
  run.worker += " skip-preference";
  s.producer = diff::suiteProducer(run);
  const report::SelectionSuiteReport r = suite::runVerifySelection(s);
  std::size_t ignored = 0, omitted = 0;
  for (const report::SelectionSuiteEntry &e : r.entries) {
    for (const checks::Finding &f : e.findings)
      ignored += f.check == Departure::preferenceIgnored;
    omitted += e.omitted;
  }
  EXPECT_GT(ignored, 1u);
  EXPECT_EQ(omitted, 0u) << "--max-per-check's default keeps these";
  EXPECT_FALSE(r.conforms());
  // --max-per-check 1: one departure of each check an entry, the rest counted.
  s.maxPerCheck = 1;
  const report::SelectionSuiteReport cut = suite::runVerifySelection(s);
  s.producer = nullptr;
  std::size_t kept = 0;
  omitted = 0;
  for (const report::SelectionSuiteEntry &e : cut.entries) {
    std::map<Departure, std::size_t> perCheck;
    for (const checks::Finding &f : e.findings)
      EXPECT_LE(++perCheck[f.check], 1u) << e.caseName;
    kept += e.findings.size();
    omitted += e.omitted;
  }
  EXPECT_GT(omitted, 0u);
  std::size_t all = 0;
  for (const report::SelectionSuiteEntry &e : r.entries)
    all += e.findings.size();
  EXPECT_EQ(kept + omitted, all);
}

TEST_F(VerifySelection, EveryFormatCarriesEveryEntry) {
  fs::rename(outputs / ("selection-" + cases(true).front() + ".json"),
             outputs / ("selection-" + cases(true).front() + ".json.error"));
  fs::remove(outputs / ("selection-" + cases(false).front() + ".json.error"));
  const report::SelectionSuiteReport r = suite::runVerifySelection(settings());
  const auto text = [&](report::ReportFormat f) {
    return io::writtenText([&](io::Sink &out) { report::writeSelectionSuiteReport(out, f, r); });
  };
  const std::string t = text(report::ReportFormat::text);
  EXPECT_NE(t.find("selection.error-where-plan"), std::string::npos) << t;
  EXPECT_NE(t.find(": error: no output: "), std::string::npos) << t;
  EXPECT_NE(t.find("picture: lowering-oracle check-plan "), std::string::npos) << t;
  EXPECT_NE(t.find("verify: 10 selection entries: 8 conform, 1 does not conform, 1 error"),
            std::string::npos)
      << t;

  simdjson::dom::parser parser;
  const std::string json = text(report::ReportFormat::json);
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["format"]), "lowering-oracle/selection-suite-report");
  EXPECT_EQ(int64_t(doc["entries"]), 10);
  EXPECT_EQ(int64_t(doc["failing"]), 1);
  EXPECT_EQ(int64_t(doc["errors"]), 1);
  EXPECT_EQ(simdjson::dom::array(doc["results"]).size(), 10u);

  const std::string junit = text(report::ReportFormat::junit);
  std::size_t testcases = 0;
  for (std::size_t at = junit.find("<testcase "); at != std::string::npos;
       at = junit.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, 10u);
  EXPECT_NE(junit.find("classname=\"lowering-oracle.verify.selection.selection-"),
            std::string::npos);

  const std::string sarif = text(report::ReportFormat::sarif);
  simdjson::dom::element log;
  ASSERT_EQ(parser.parse(sarif).get(log), simdjson::SUCCESS);
  EXPECT_EQ(simdjson::dom::array(log["runs"].at(0)["results"]).size(), 2u)
      << "one departure, one error";

  const std::string html = text(report::ReportFormat::html);
  EXPECT_NE(html.find("does not conform"), std::string::npos);
  EXPECT_NE(html.find("selection.error-where-plan"), std::string::npos);
  EXPECT_EQ(html.find("Candidates of each node"), std::string::npos) << "no picture was drawn";
  // With pictures asked for (--format html, --report html=FILE), each failing entry's picture:
  // its nodes' candidates in registry order and why each is refused.
  suite::VerifySettings s = settings();
  s.pictures = true;
  const report::SelectionSuiteReport drawn = suite::runVerifySelection(s);
  const std::string page = io::writtenText([&](io::Sink &out) {
    report::writeSelectionSuiteReport(out, report::ReportFormat::html, drawn);
  });
  EXPECT_NE(page.find("Candidates of each node"), std::string::npos);
  EXPECT_NE(page.find("selection.error-where-plan"), std::string::npos);
}

} // namespace
} // namespace lo::testing

namespace lo::testing {
namespace {

// The page is laid out and bounded as verify's (docs/spec.md §3.5): at most kHtmlSuiteMaxRows
// rows, the failing entries first, the sections within kHtmlSuiteSectionBytes, the page within
// kHtmlSuitePageBytes whatever the suite.
TEST(VerifySelectionPage, ItIsBoundedAndListsFailuresFirst) {
  report::SelectionSuiteReport r;
  r.suite = "suite";
  r.outputs = "out";
  const std::string sentence(900, 'x');
  for (std::size_t i = 0; i < 1100; ++i) {
    report::SelectionSuiteEntry e;
    e.caseName = "selection-" + suite::caseNumber(i);
    e.output = "out/" + e.caseName + ".json";
    if (i >= 600) // the last 500 fail, each with 10 long departures
      for (int k = 0; k < 10; ++k)
        e.findings.push_back({Departure::notAdmissible, "/kernels/0/capsule", sentence});
    r.entries.push_back(std::move(e));
  }
  const std::string page = io::writtenText([&](io::Sink &out) {
    report::writeSelectionSuiteReport(out, report::ReportFormat::html, r);
  });
  EXPECT_LT(page.size(), report::kHtmlSuitePageBytes);
  EXPECT_NE(page.find("100 more entries are not listed"), std::string::npos);
  EXPECT_NE(page.find("failing or error entries have no section"), std::string::npos);
  // The index starts with the first failing entry, linked to its section.
  const std::size_t table = page.find("<table>");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(page.find("<a href=\"#e600\">selection-0600</a>", table),
            page.find("selection-0000", table));
  EXPECT_NE(page.find("<h2 id=\"e600\">"), std::string::npos);
}

} // namespace
} // namespace lo::testing
