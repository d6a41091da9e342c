// The pieces every HTML page of tools/report is made of (html_parts.cpp): the page's frame (its
// head with the inline style, its foot), text from the input as the page shows it, a finding as a
// list item, and a capsule finding's field-by-field difference. For html_page.cpp and
// html_picture.cpp and html_selection.cpp only.
#pragma once

#include "tools/report/report.hpp"

#include <limits>
#include <string>
#include <string_view>

namespace lo::report::html {

/// "No plan position".
inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

/// Text from the input as the page shows it: shown (shownText, cut at `cap`) and HTML-escaped.
std::string esc(std::string_view text, std::size_t cap = io::kMaxShownBytes);

std::string num(std::size_t n);

/// The page's head (title, the inline style, no script and no network) and `<body>`.
void pageStart(io::Sink &out, std::string_view title);
/// The page's last line and its end.
void pageEnd(io::Sink &out);

/// A kind as the strip shows it: its tag, or its JSON when it has fields.
std::string kindText(const Interner &in, KindId id);

/// A capsule finding's field-by-field difference: the reference's capsule against the
/// candidate's, the differing rows marked.
void capsuleDiff(io::Sink &out, const KernelCapsule &reference, const KernelCapsule &candidate);

/// One finding as an open list item (the caller closes it): check, group, node, pointer,
/// message, the field found wrong.
void findingItem(io::Sink &out, const checks::Violation &v, std::string_view idPrefix,
                 std::size_t j);

/// The findings not listed (over kHtmlMaxFindings) and those the report omitted, counted.
void omittedAndRest(io::Sink &out, const checks::Report &report, std::size_t listed);

} // namespace lo::report::html
