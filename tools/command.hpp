// How the subcommands of `lowering-oracle` (docs/spec.md §4) plug into the command line: one file
// per subcommand (tools/cmd_*.cpp), each defining a `setup` function that adds the subcommand and
// its options to the app and returns the action to run once parsed. tools/main.cpp lists them, in
// the order of `--help`, in one explicit table.
#pragma once

#include "ref/vocab.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lo::cli {

/// The action of a parsed subcommand; it returns an ExitCode (tools/exit_codes.hpp).
using Action = std::function<int()>;

/// Adds a subcommand to `app` and returns its action.
using Setup = Action (*)(CLI::App &app);

Action setupLower(CLI::App &app);
Action setupAudit(CLI::App &app);
Action setupGate(CLI::App &app);
Action setupCheck(CLI::App &app);
Action setupExplain(CLI::App &app);
Action setupGen(CLI::App &app);
Action setupVerify(CLI::App &app);
Action setupDiff(CLI::App &app);
Action setupProve(CLI::App &app);

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

} // namespace lo::cli
