// The HTML report (`check --format html`, `verify --format html`, `diff`'s report.html;
// docs/spec.md §3.5), written by html_page.cpp (the pages), html_picture.cpp (a candidate's
// picture) and html_parts.cpp (their pieces): one self-contained page, inline CSS and SVG, no
// script and no network access. It shows a lowering as a picture: the plan's nodes in order as a
// strip, under it the reference lowering's groups and the candidate's groups aligned to the same
// nodes, each finding pinned to its group and node, a capsule finding's field-by-field difference,
// and the gate verdict under each policy preset for both lowerings.
//
// Every text from the input is shown (shownText: escaped controls, cut) and then HTML-escaped
// (io::htmlText); element ids are made from indices only. A large plan shows only the
// neighbourhood of its findings, with counts of what is elided: the page is bounded whatever the
// plan's size (the bounds below).
#pragma once

#include "checks/picture_facts.hpp"

#include "ref/io/document.hpp"
#include "tools/report/report.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lo::report {

struct SuiteReport;

/// A plan of at most this many nodes is shown whole; a larger one only around its findings.
inline constexpr std::size_t kHtmlWholePlan = 200;
/// In a larger plan, the nodes shown on either side of a finding's node.
inline constexpr std::size_t kHtmlContext = 6;
/// In a larger plan, at most this many findings get a window of the strip; the others are listed.
inline constexpr std::size_t kHtmlMaxWindows = 24;
/// At most this many capsule findings show the two capsules field by field.
inline constexpr std::size_t kHtmlMaxCapsuleDiffs = 24;
/// At most this many findings are listed in one picture (the report caps them per check first).
inline constexpr std::size_t kHtmlMaxFindings = 200;
/// Candidate node ids that are not in the plan: at most this many are listed.
inline constexpr std::size_t kHtmlMaxForeign = 16;

/// verify's page (writeSuiteHtml, docs/spec.md §3.5): its index lists at most this many entries,
/// the failing and error entries first, then the passing ones.
inline constexpr std::size_t kHtmlSuiteMaxRows = 1000;
/// verify's page: the sections of failing and error entries (their pictures included) fill at most
/// this many bytes, in the manifest's order; the others are in the index only, counted.
inline constexpr std::size_t kHtmlSuiteSectionBytes = std::size_t{4} << 20;
/// verify's page is at most this many bytes whatever the suite: the head (its names cut at 1024
/// bytes), kHtmlSuiteMaxRows rows of at most two names of io::kMaxHtmlIndexCellBytes (escaped: 6
/// bytes a byte at most), kHtmlSuiteSectionBytes of sections (tested in tests/gen, Verify).
inline constexpr std::size_t kHtmlSuitePageBytes = std::size_t{8} << 20;

/// verify's pictures of failing entries, kept while they fit in kHtmlSuiteSectionBytes: once they
/// do not, that picture and every later one is dropped (the entry's findings are listed instead).
class PictureBudget {
public:
  /// `drawing`: pictures are asked for (an html report among those written).
  explicit PictureBudget(bool drawing) : drawing_(drawing) {}
  bool drawing() const { return drawing_; }
  /// Counts `picture` against the bound, or clears it when it is past it.
  void admit(std::string &picture) {
    bytes_ += picture.size();
    if (bytes_ > kHtmlSuiteSectionBytes) {
      picture.clear();
      drawing_ = false;
    }
  }

private:
  bool drawing_;
  std::size_t bytes_ = 0;
};

/// What a picture shows beside the report: the plan, and the candidate when it could be read.
struct HtmlPictureInput {
  Interner *interner = nullptr;
  const GraphExecutionPlan *plan = nullptr;
  const io::LoweringDocument *candidate = nullptr; // null: only the reference lowering is shown
  const checks::Report *report = nullptr;          // null: no findings
  /// Prefix of the element ids (letters, digits and '-', made by the caller, never from input),
  /// unique in the page.
  std::string idPrefix = "c0-";
};

/// The picture of one candidate (an HTML fragment): the gate verdicts, an overview of the whole
/// plan (SVG), the strip with both lowerings and the pinned findings, and the findings list with
/// each capsule finding's field-by-field difference. Put into CaseResult::picture or
/// SuiteEntry::picture. It draws what it is given: the reference lowering and the gates are
/// `facts` (checks::pictureFacts, computed by the caller), never computed here.
std::string htmlPicture(const HtmlPictureInput &in, const checks::PictureFacts &facts);

/// The findings of a report as a list without a picture (when the plan is not at hand, as with
/// `check --stream`).
std::string htmlFindings(const checks::Report &report, std::string_view idPrefix);

/// What the page `diff` saves beside a finding (report.html) shows, computed by its caller
/// (diffReportPage, tools/diff/diff_page.hpp): a heading and a summary (shown as text), and the
/// implementation's output as one candidate, `output.json` against `plan.json`, with its report,
/// its input error, or its picture.
struct HtmlDiffPage {
  std::string heading, summary;
  CaseResult result;
  /// Whether the output was read as a lowering and checked: when not (a gate result, a crash,
  /// invalid JSON, or an input error), no verdict but an error is shown, and without an error the
  /// page says that the reference lowering alone is drawn.
  bool judged = false;
};

/// The page of `diff`'s report.html: the heading, the summary, and the candidate's section.
void writeHtmlDiffPage(io::Sink &out, const HtmlDiffPage &page);

} // namespace lo::report
