// report.html of a finding (diff_page.hpp): reading, checking and drawing, then the page.
#include "tools/diff/diff_page.hpp"

#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "tools/report/html_report.hpp"

namespace lo::diff {

std::string diffReportPage(const std::string &planText, const std::string &outputText,
                           bool outputIsLowering, Mode mode, Equality equality, Edition edition,
                           const std::string &heading, const std::string &summary) {
  Interner interner;
  report::HtmlDiffPage page{heading, summary, {}, false};
  report::CaseResult &c = page.result;
  c.subject = {"plan.json", "output.json", mode, equality, 0, 0};
  GraphExecutionPlan plan;
  io::LoweringDocument candidate;
  bool havePlan = false;
  try {
    plan = io::readExecutionPlan(io::sourceFromString("plan.json", planText), interner, edition);
    havePlan = true;
    c.subject.nodes = plan.kernels.size();
    if (outputIsLowering) {
      candidate =
          io::readLoweringPlan(io::sourceFromString("output.json", outputText), interner, edition);
      page.judged = true;
      c.subject.groups = candidate.plan.groups.size();
      c.report = checks::check(interner, plan, candidate, {mode, equality});
    }
  } catch (const io::InputError &e) {
    c.error = report::ReportError::from(e);
  }
  if (havePlan) {
    report::HtmlPictureInput in;
    in.interner = &interner;
    in.plan = &plan;
    in.candidate = page.judged ? &candidate : nullptr;
    in.report = page.judged ? &c.report : nullptr;
    c.picture = htmlPicture(in, checks::pictureFacts(interner, plan, in.candidate, mode, equality));
  }
  return io::writtenText([&](io::Sink &out) { writeHtmlDiffPage(out, page); });
}

} // namespace lo::diff
