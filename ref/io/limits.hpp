// Every bound on what the oracle reads, and every cut of a text it echoes or writes, each with
// the section that states it; the cuts of what a message echoes are listed in docs/errors.md,
// "Limits" ("Echoed text"). The HTML page's bounds on counts (windows, findings, foreign ids) are
// tools/report/html_report.hpp's, where spec §3.5's `html` states them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace lo::io {

// --- What is read (docs/errors.md, "Limits") ----------------------------------------------------

/// The largest document a reader reads: 4 GiB.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 32;
/// The longest string of a document, after unescaping: 1 MiB.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;
/// The deepest nesting the parser accepts (the formats need at most 8 levels).
inline constexpr std::size_t kMaxDepth = 64;
/// A document longer than this many bytes (1 MiB) holds at most kMaxTokensPerEightBytes JSON
/// tokens in every 8 bytes (io::jsonTokens, counted before the parser indexes the document at 4
/// bytes a token): so the index costs at most 1.5 times the document. A shorter document is not
/// counted (its index is at most 4 MiB).
inline constexpr std::size_t kDenseFloorBytes = std::size_t{1} << 20;
static_assert(kDenseFloorBytes % (std::size_t{1} << 20) == 0, "named in whole MiB");
inline constexpr std::size_t kMaxTokensPerEightBytes = 3;
/// The reader gives the pages of the parser's index that an array's loop has left behind back to
/// the system in steps of at least this many bytes (JsonReader::elements; docs/performance.md,
/// "Hostile inputs"): what a document keeps grows as its index shrinks.
inline constexpr std::size_t kIndexReleaseBytes = std::size_t{2} << 20;

// --- What a message echoes (docs/spec.md §3.5; docs/errors.md, "Limits", "Echoed text") --------

/// A JSON token found where another was expected (`found 1.0`), a numeric option's text
/// (`found -1`): cut after this many bytes with "...".
inline constexpr std::size_t kMaxTokenBytes = 40;
/// An unknown subcommand named in the usage error.
inline constexpr std::size_t kMaxSubcommandBytes = 64;
/// A string of the input quoted in an input error (io::quote), each reference token of the JSON
/// pointer it names, a worker's wrong line quoted in a `diff` finding and a solver's answer
/// quoted by `prove` are cut after this many bytes (at a character boundary) with "..."
/// (docs/spec.md §3.5: "cut after 200 bytes").
inline constexpr std::size_t kMaxEchoBytes = 200;
/// The longest text from the input shown in a report, in bytes: longer texts are cut there (at a
/// character boundary) and end with "…" (io::shownText).
inline constexpr std::size_t kMaxShownBytes = 1024;
/// A cap that never cuts (a name that is a JSON report's value).
inline constexpr std::size_t kUncut = std::numeric_limits<std::size_t>::max();
/// An obligation report named in a sentence of a gate comparison (`diff --gate`, `verify
/// --gates`): its line, or its JSON, cut at this many bytes.
inline constexpr std::size_t kMaxReportWordsBytes = 400;
/// A policy name another implementation wrote, quoted in a gate comparison.
inline constexpr std::size_t kMaxPolicyNameBytes = 40;
/// The most of an output's error message a `verify` report shows: the reader's message may quote
/// the output, and a report echoes no more of a file than a short, escaped excerpt.
inline constexpr std::size_t kMaxExcerptBytes = 160;
/// An unchanged field in the HTML page's field-by-field capsule comparison.
inline constexpr std::size_t kMaxHtmlSameFieldBytes = 160;
/// The most of a finding's report that `diff`'s report.txt shows (`--keep`); the
/// implementation's standard error there is cut at kMaxShownBytes.
inline constexpr std::size_t kMaxKeptReportBytes = 65536;
/// A case or file name made a JUnit class name: at most this many bytes of it.
inline constexpr std::size_t kMaxJunitNameBytes = 200;
/// Texts in the cells of the HTML picture's strip (kinds, capsule keys) are cut at this many
/// bytes.
inline constexpr std::size_t kMaxHtmlCellBytes = 48;
/// A name in the index of verify's HTML page (case, policy, output) is cut at this many bytes.
inline constexpr std::size_t kMaxHtmlIndexCellBytes = 120;
/// A solver's answer to a self-test query, quoted when it is not the expected one (`prove
/// --solver`).
inline constexpr std::size_t kMaxSolverAnswerBytes = 80;
/// The version a solver prints, as `prove` reports it (`prove --solver`).
inline constexpr std::size_t kMaxSolverVersionBytes = 64;

// --- The options' defaults (each command's --help shows them; docs.defaults holds the docs) ----

/// `--max-per-check`: the findings a report lists per check (docs/spec.md §3.5).
inline constexpr std::size_t kDefaultMaxPerCheck = 20;
/// `verify --max-file-bytes`: the largest output or plan file verify reads (docs/spec.md §4.3).
inline constexpr std::size_t kDefaultMaxFileBytes = std::size_t{256} << 20;
/// `--timeout-ms`: one run of an implementation, a worker's answer or a solver's query (`diff`,
/// `verify --impl`/`--worker`, docs/spec.md §4.3).
inline constexpr std::uint64_t kDefaultTimeoutMs = 10000;
/// `--max-output-bytes`: what one run of an implementation may write (docs/spec.md §4.3).
inline constexpr std::uint64_t kDefaultMaxOutputBytes = std::uint64_t{64} << 20;

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
