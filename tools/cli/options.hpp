// Numeric options, validated alike in every command: a whole number written in decimal digits
// only (no sign: `--count -1` is an error, not 2^64 - 1), within a range stated in plain numbers
// in the one-line error and in --help. The ranges of `gen` and `diff`'s shared generator options
// are gen's (tools/suite/gen_ranges.hpp, which a suite's manifest is judged by too), so that both
// commands agree (README, "Commands").
#pragma once

#include "ref/edition.hpp"
#include "ref/io/source.hpp"
#include "ref/vocab.hpp"
#include "tools/suite/gen_ranges.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lo::cli {

/// --count and --max-nodes of gen and diff: gen's ranges.
using suite::kMaxCount;
using suite::kMaxNodes;
/// --timeout-ms of diff and verify (and --stall-ms of check): at most a day, so that a deadline
/// never overflows. prove's --timeout-ms is its own (at most an hour, tools/cmd_prove.cpp).
inline constexpr std::uint64_t kMaxTimeoutMs = 86400000;
inline constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
/// --max-output-bytes of diff: from 1 (an empty output is no document) to 4 GiB, the largest
/// document the reader reads (docs/errors.md, "Limits").
inline constexpr std::uint64_t kMaxOutputBytes = io::kMaxDocumentBytes;

/// `text` as a whole number in [lo, hi]; else throws CLI::ValidationError, one line:
/// "--count: expected a whole number from 0 to 1000000, found -1".
std::uint64_t parseNatural(const std::string &option, const std::string &text, std::uint64_t lo,
                           std::uint64_t hi);

/// Adds `name` to `sub`: a whole number in [lo, hi] stored in `target` (any integer type that
/// holds hi); --help shows the range and the default.
template <class T>
CLI::Option *addNatural(CLI::App &sub, const std::string &name, T &target, std::uint64_t lo,
                        std::uint64_t hi, const std::string &description) {
  static_assert(std::is_integral_v<T>);
  const std::string shown = name.substr(0, name.find(','));
  auto *option = sub.add_option_function<std::string>(
      name,
      [&target, shown, lo, hi](const std::string &text) {
        target = static_cast<T>(parseNatural(shown, text, lo, hi));
      },
      description + " (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
  option->type_name("N")->default_str(std::to_string(target));
  return option;
}

/// Turns an option's text into a value of `E`: `table`'s spellings become their values, and any
/// other text is refused with CLI::IsMember's message ("--mode: fused not in
/// {singleton,coalesced}"). `--help` shows the spellings, `{singleton,coalesced}`.
template <class E> CLI::Validator spellingsOf(const std::vector<std::pair<std::string, E>> &table) {
  std::vector<std::string> names;
  for (const auto &entry : table)
    names.push_back(entry.first);
  const CLI::IsMember member(names);
  std::string shown = member.get_description();
  return (member & CLI::Transformer(table)).description(std::move(shown));
}

/// `spellingsOf` for a vocabulary of ref/vocab.hpp: its stable spellings.
template <class E> CLI::Validator vocabularyOf() {
  std::vector<std::pair<std::string, E>> table;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i)
    table.emplace_back(std::string(Vocabulary<E>::spellings[i]), static_cast<E>(i));
  return spellingsOf(table);
}

/// An option (or positional) whose value is a spelling of vocabulary `E`, received as an `E`.
template <class E>
CLI::Option *addVocabularyOption(CLI::App &sub, std::string name, E &value,
                                 std::string description) {
  return sub.add_option(std::move(name), value, std::move(description))
      ->type_name("TEXT")
      ->transform(vocabularyOf<E>());
}

/// The `--mode` and `--equality` options, shared by several subcommands (default coalesced and
/// contract, as the option's variable holds them).
CLI::Option *addModeOption(CLI::App &sub, Mode &mode);
CLI::Option *addEqualityOption(CLI::App &sub, Equality &equality);

/// `--timeout-ms` and `--max-output-bytes`, the bounds of one run of an implementation under test,
/// alike in `diff` and `verify --impl`/`--worker` (docs/spec.md §4.3): `scope` says when they
/// apply ("" always), `unit` what one run is for ("case", "entry") and `exceeded` what a run
/// beyond either bound is ("a finding, not judged", "an error entry").
void addRunBounds(CLI::App &sub, std::uint64_t &timeoutMs, std::uint64_t &maxOutputBytes,
                  const std::string &scope, const std::string &unit, const std::string &exceeded);

/// The `--edition` option of every command that reads or judges (docs/spec.md §1.6): the
/// vocabulary its inputs are read in; default the newest edition. A file never chooses it.
CLI::Option *addEditionOption(CLI::App &sub, Edition &edition,
                              std::string_view defaultIs = "the newest");

/// The rules of `edition` applied to a command's options (`EditionRules`, ref/edition.hpp;
/// docs/spec.md §1.6): `--equality`, when not given, is the edition's; `--mode singleton` is
/// refused (a usage error, exit status 2) in an edition without a singleton lowering.
void applyEditionRules(const CLI::App &sub, Edition edition, Mode *mode, Equality *equality);

/// Refuses an edition a command is not yet implemented for, a usage error naming `what`, rather
/// than judging it wrongly (docs/spec.md §4.2): `prove`'s encoding holds the seed's capsules
/// (kSeedEditions).
void requireToolEdition(Edition edition, std::string_view what);

} // namespace lo::cli
