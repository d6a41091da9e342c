// The one escaping module (docs/spec.md §3.5). Checks and readers put text from the input into
// their messages as it is; every renderer (the text, JSON, JUnit XML, SARIF and HTML reports, the
// `audit` and `gate` text, a message on standard error) shows it through this header, so a name
// looks the same in every format and can neither forge nor hide a line, nor make a report invalid.
// The RFC 3629 UTF-8 validator here is also the reader's.
#pragma once

#include "ref/io/limits.hpp"

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace lo::io {

// --- UTF-8 (RFC 3629) ---------------------------------------------------------------------------

/// The length (1 to 4) of the well-formed UTF-8 character that starts at `text[i]`, or 0 when the
/// bytes there are not one: a stray continuation byte, a lead byte that is never used (C0, C1,
/// F5 to FF), a truncated sequence, an overlong form, a surrogate (U+D800 to U+DFFF) or a code
/// point above U+10FFFF.
std::size_t utf8Length(std::string_view text, std::size_t i);

/// The offset of the first byte of `text` that is not well-formed UTF-8, or `text.size()`.
std::size_t firstInvalidUtf8(std::string_view text);

/// `text` cut at `cap` bytes, or fewer so as not to split a UTF-8 character (a cut name, key or
/// echoed value then ends with "..."); `text` itself when it is not longer.
std::string_view utf8Prefix(std::string_view text, std::size_t cap);

// --- The words of a message ---------------------------------------------------------------------

/// `s` quoted for a message as it is, cut after kMaxEchoBytes bytes (at a character boundary) with
/// "..." (a 50 MB key must not make a 50 MB message). The renderer that shows the message escapes
/// it (shownText below, docs/spec.md §3.5).
std::string quote(std::string_view s);

/// `n` and `word`, plural unless n is 1: "1 report", "2 reports", "3 items".
std::string counted(std::size_t n, std::string_view word);

// --- Shown text ---------------------------------------------------------------------------------

// kMaxShownBytes and kUncut: ref/io/limits.hpp.

/// Whether the code point `cp` is shown as `\uXXXX`: the C0 controls and DEL, the C1 controls
/// (U+0085 among them), the line and paragraph separators U+2028 and U+2029, the bidirectional
/// marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
/// U+2069), and the noncharacters U+FDD0 to U+FDEF, U+FFFE and U+FFFF (XML 1.0 forbids the last
/// two).
bool isShownEscaped(char32_t cp);

/// `text` as every report shows it (docs/spec.md §3.5): each code point of isShownEscaped as
/// `\uXXXX`, each byte that is not well-formed UTF-8 (RFC 3629) as `\xNN`, the rest as it is; cut
/// at `cap` bytes with "…". The result is one line of valid UTF-8, valid in XML 1.0, and
/// unchanged when shown again.
std::string shownText(std::string_view text, std::size_t cap = kMaxShownBytes);

/// A text of several lines (a subprocess's standard error, a saved report): each line shown
/// (shownText, cut at `cap` bytes) after `indent` and ended by a newline, so that no line of it
/// can pass for a line of the report around it.
std::string shownLines(std::string_view text, std::size_t cap = kUncut,
                       std::string_view indent = {});

/// `text` with `&`, `<`, `>`, `"` and `'` as character references (`apos` for `'`), and the
/// control characters HTML forbids (below U+0020 but tab, newline and carriage return, and U+007F)
/// as U+FFFD: the one markup rule of xmlText and htmlText.
std::string markupText(std::string_view text, std::string_view apos);

/// `text` shown (shownText, never cut; it leaves no control character) and then as XML 1.0
/// character data or an attribute value: markupText with `&apos;`.
std::string xmlText(std::string_view text);

/// `text` as HTML character data or a quoted attribute value (the HTML report, docs/spec.md
/// §3.5), so that no input can open a tag, an entity or leave an attribute: markupText with
/// `&#39;`.
inline std::string htmlText(std::string_view text) { return markupText(text, "&#39;"); }

/// `text` cut at `cap` bytes (fewer, so as not to split a UTF-8 character) and ended by "...";
/// unchanged when it is not longer.
void cutText(std::string &text, std::size_t cap);

} // namespace lo::io
