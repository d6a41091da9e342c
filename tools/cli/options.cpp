#include "tools/cli/options.hpp"
#include "ref/io/limits.hpp"

#include <charconv>

namespace lo::cli {

std::uint64_t parseNatural(const std::string &option, const std::string &text, std::uint64_t lo,
                           std::uint64_t hi) {
  std::uint64_t value = 0;
  const char *first = text.data(), *last = text.data() + text.size();
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  auto [end, ec] = std::from_chars(first, last, value);
  if (!digits || ec != std::errc() || end != last || value < lo || value > hi) {
    std::string found =
        text.size() > io::kMaxTokenBytes ? text.substr(0, io::kMaxTokenBytes) + "..." : text;
    for (char &c : found)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        c = '?';
    throw CLI::ValidationError(option, "expected a whole number from " + std::to_string(lo) +
                                           " to " + std::to_string(hi) + ", found " + found);
  }
  return value;
}

CLI::Option *addModeOption(CLI::App &sub, Mode &mode) {
  return addVocabularyOption(sub, "--mode", mode,
                             "singleton: one group per node; coalesced: adjacent nodes with the "
                             "same op and the same capsule share a group")
      ->default_str(std::string(spelling(mode)));
}

CLI::Option *addEqualityOption(CLI::App &sub, Equality &equality) {
  return addVocabularyOption(sub, "--equality", equality,
                             "capsule equality for coalescing: contract (every field equal) or "
                             "identity (name, op, provider and device only)")
      ->default_str(std::string(spelling(equality)));
}

void addRunBounds(CLI::App &sub, std::uint64_t &timeoutMs, std::uint64_t &maxOutputBytes,
                  const std::string &scope, const std::string &unit, const std::string &exceeded) {
  addNatural(sub, "--timeout-ms", timeoutMs, 1, kMaxTimeoutMs,
             scope + "time allowed for one " + unit +
                 ": running the implementation, reading its output and checking it; a longer "
                 "run is " +
                 exceeded);
  addNatural(sub, "--max-output-bytes", maxOutputBytes, 1, kMaxOutputBytes,
             scope +
                 "largest output read from the implementation ({out} or standard output, or a "
                 "worker's answer); a larger one is " +
                 exceeded);
}

CLI::Option *addEditionOption(CLI::App &sub, Edition &edition, std::string_view defaultIs) {
  return addVocabularyOption(sub, "--edition", edition,
                             "the upstream vocabulary the inputs are read and judged in "
                             "(docs/spec.md §1.6); default " +
                                 std::string(defaultIs))
      ->default_str(std::string(spelling(edition)));
}

void applyEditionRules(const CLI::App &sub, Edition edition, Mode *mode, Equality *equality) {
  const EditionRules &rules = rulesOf(edition);
  if (equality && sub.get_option("--equality")->count() == 0)
    *equality = rules.equality;
  if (mode && *mode == Mode::singleton && !rules.singletonLowering)
    throw CLI::ValidationError("--mode",
                               "singleton: edition " + std::string(spelling(edition)) +
                                   " has no singleton lowering (its upstream builds coalesced "
                                   "groups only; docs/spec.md §1.6): use --mode coalesced");
}

void requireToolEdition(Edition edition, std::string_view what) {
  if (!(kSeedEditions & editionBit(edition)))
    throw CLI::ValidationError("--edition",
                               std::string(spelling(edition)) + ": " + std::string(what) +
                                   " is not yet implemented in this edition (only in " +
                                   editionNames(kSeedEditions) + ")");
}

} // namespace lo::cli
