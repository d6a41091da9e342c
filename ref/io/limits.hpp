// Every bound on what the oracle reads, echoes and writes, each with the section that states it.
// Readers, writers, checks and reports cut text only with these constants; a cut elsewhere is a
// second source for one fact (docs/errors.md, "Limits").
#pragma once

#include <cstddef>
#include <limits>

namespace lo::io {

// --- What is read (docs/errors.md, "Limits") ----------------------------------------------------

/// The largest document a reader reads: 4 GiB.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 32;
/// The longest string of a document, after unescaping: 1 MiB.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;
/// The deepest nesting the parser accepts (the formats need at most 8 levels).
inline constexpr std::size_t kMaxDepth = 64;

// --- What a message echoes (docs/spec.md §3.5, §4.5) --------------------------------------------

/// A JSON token found where another was expected (`found 1.0`), a numeric option's text
/// (`found -1`): cut after this many bytes with "..." (docs/errors.md).
inline constexpr std::size_t kMaxTokenBytes = 40;
/// An unknown subcommand named in the usage error (docs/spec.md §4.5).
inline constexpr std::size_t kMaxSubcommandBytes = 64;
/// A string of the input quoted in an input error, and each reference token of the JSON pointer
/// it names, is cut after this many bytes (at a character boundary) with "...".
inline constexpr std::size_t kMaxEchoBytes = 200;
/// The longest text from the input shown in a report, in bytes: longer texts are cut there (at a
/// character boundary) and end with "…" (io::shownText).
inline constexpr std::size_t kMaxShownBytes = 1024;
/// A cap that never cuts (a name that is a JSON report's value).
inline constexpr std::size_t kUncut = std::numeric_limits<std::size_t>::max();
/// An obligation report named in a sentence of a gate comparison (docs/spec.md §4.3, `diff
/// --gate`): its line, or its JSON, cut at this many bytes.
inline constexpr std::size_t kMaxReportWordsBytes = 400;
/// A policy name another implementation wrote, quoted in a gate comparison.
inline constexpr std::size_t kMaxPolicyNameBytes = 40;
/// The most of an output's error message a `verify` report shows: the reader's message may quote
/// the output, and a report echoes no more of a file than a short, escaped excerpt (docs/spec.md
/// §4.3). Also the cap of an unchanged field in an HTML capsule comparison (docs/spec.md §3.5).
inline constexpr std::size_t kMaxExcerptBytes = 160;
/// The most of a worker's wrong line quoted in a `diff` finding (docs/spec.md §4.3, the worker
/// protocol).
inline constexpr std::size_t kMaxQuotedLineBytes = 200;
/// The most of a finding's report, and of an implementation's standard error, that `diff`'s
/// report.txt shows (docs/spec.md §4.3, `--keep`).
inline constexpr std::size_t kMaxKeptReportBytes = 64 * kMaxShownBytes;
inline constexpr std::size_t kMaxKeptStderrBytes = kMaxShownBytes;
/// A case or file name made a JUnit class name: at most this many bytes of it (docs/ci.md).
inline constexpr std::size_t kMaxJunitNameBytes = 200;
/// Texts in the cells of the HTML picture's strip (kinds, capsule keys) are cut at this many bytes
/// (docs/spec.md §3.5, `html`).
inline constexpr std::size_t kMaxHtmlCellBytes = 48;
/// A solver's answer to a self-test query, quoted when it is not the expected one (docs/spec.md
/// §5, `prove --solver`).
inline constexpr std::size_t kMaxSolverAnswerBytes = 80;

// --- What is written ----------------------------------------------------------------------------

/// A written key holds at most this many bytes of the capsule's name (docs/spec.md §2.5): a group
/// names its capsule by key, so a longer key would be copied onto every group (a 1 MiB name and
/// 100 groups made 100 MiB of output).
inline constexpr std::size_t kMaxKeyNameBytes = 128;
/// The longest capsule name, claim spec or evidence text a report of `gate` writes, in bytes: a
/// longer one is cut there (fewer, so as not to split a UTF-8 character) and ends with "..." (as
/// a key is cut, docs/spec.md §2.5), so that `gate`'s output is bounded by its audit rows, not
/// by rows times string length (docs/spec.md §6.6).
inline constexpr std::size_t kMaxGateTextBytes = 1024;

} // namespace lo::io
