// What `verify` keeps of a judged entry until the report is written (tools/suite/judge.hpp): a
// finding's texts only as far as a report shows them, whatever the output quotes.
#include "ref/io/escape.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/reader.hpp"
#include "tests/seed.hpp"
#include "tests/unit/support.hpp"
#include "tools/suite/judge.hpp"

#include <gtest/gtest.h>

namespace lo::testing {
namespace {

TEST(Judge, AFindingKeepsOnlyWhatAReportShowsOfAHugeCapsuleName) {
  const std::string name((std::size_t{1} << 20) - 1, 'n'); // a capsule name of 1 MiB
  const std::string planText = "{\"capsules\":{\"r\":" + test::capsuleJson(name, "relu") +
                               "},\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\","
                               "\"capsule\":\"r\"},{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\","
                               "\"capsule\":\"r\"}]}";
  // The same capsule but another name (one byte more: 1 MiB, the longest string): a capsule finding
  // that quotes both.
  const std::string output = "{\"capsules\":{\"r\":" + test::capsuleJson(name + "m", "relu") +
                             "},\"groups\":[{\"nodeIds\":[1,2],\"kinds\":[\"relu\",\"relu\"],"
                             "\"op\":\"relu\",\"capsule\":\"r\",\"groupingKind\":"
                             "\"sameCapsuleRun\"}]}";
  suite::JudgeOptions seedJudge;
  seedJudge.edition = test::seed::kEdition; // the capsules of capsuleJson
  Interner interner;
  const GraphExecutionPlan plan = io::readExecutionPlan(io::sourceFromString("plan.json", planText),
                                                        interner, test::seed::kEdition);
  suite::SuiteManifest::Entry m;
  m.caseName = "0000-huge-name";
  m.plan = "cases/0000-huge-name/plan.json";
  const report::SuiteEntry entry =
      suite::judgeOutputText(interner, plan, m, "out.json", "outputs/out.json", output, seedJudge);
  ASSERT_EQ(entry.status(), report::SuiteEntry::Status::fails);
  std::size_t kept = 0, longest = 0;
  for (const checks::Violation &v : entry.result.report.violations)
    for (const std::string *text : {&v.pointer, &v.message, &v.field, &v.expected, &v.actual}) {
      kept += text->size();
      longest = std::max(longest, text->size());
    }
  std::printf("%zu findings keep %zu bytes of text, the longest %zu\n",
              entry.result.report.violations.size(), kept, longest);
  EXPECT_LE(longest, io::kMaxShownBytes + 4);
  EXPECT_GE(longest, io::kMaxShownBytes) << "the finding quotes the name (the test's premise)";
}

} // namespace
} // namespace lo::testing
