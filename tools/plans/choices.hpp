// Where the generated plans' random choices come from (docs/conformance.md, "What is
// generated"). The one plan generator (tools/plans/plans.hpp) and its parts (kinds, capsules) ask
// a Choices for every choice, as a value below a bound; what answers decides what the plans are
// for:
//
//   Rng            `gen` and `diff`, the suite: SplitMix64
//   FuzzedChoices  the structured fuzzer: the fuzzer's bytes (tests/fuzz/plan_generator.hpp)
//   BitsChoices    the property tests: RapidCheck's seed words, so that a seed shrunk towards
//                  zero is a simpler choice (tests/property/generators.cpp)
//   Mt19937Choices the benchmarks: std::mt19937_64 (tests/bench/plan_gen.cpp)
//   WordsChoices   Hypothesis (the Python module's selection cases and kinds): a list of
//                  words, so that words shrunk towards zero are simpler choices
//
// A suite is deterministic on every machine (docs/spec.md §4.3, "gen"): Rng is a fixed integer
// recurrence, turned into a bounded value by integer arithmetic only (no <random> distributions,
// whose output differs between standard libraries), so the same seed gives the same plans on every
// platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace lo::plans {

/// A source of choices. Every helper is below(), so that a source answers one question only.
class Choices {
public:
  virtual ~Choices() = default;
  /// A value in [0, n) (n > 0).
  virtual std::uint64_t below(std::uint64_t n) = 0;
  /// True with probability num/den.
  bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }
  /// A value in [lo, hi].
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
  template <class T> const T &pick(const std::vector<T> &v) { return v[below(v.size())]; }
  template <class T> T pick(std::initializer_list<T> options) {
    return *(options.begin() + below(options.size()));
  }
};

/// SplitMix64 (Steele, Lea, Flood 2014): a portable 64-bit generator with a fixed output sequence.
class Rng final : public Choices {
public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// A uniform value in [0, n) (n > 0), by rejection so that it is unbiased and portable.
  std::uint64_t below(std::uint64_t n) override;

private:
  std::uint64_t state_;
};

/// Each choice is the next word, stretched by one SplitMix64 step unless it is zero, modulo the
/// bound; a zero word, and every choice past the last word, is 0, the simplest (a list Hypothesis
/// shrinks towards zeros and shorter is a simpler case; the stretch gives every answer its share
/// from the small numbers Hypothesis favours).
class WordsChoices final : public Choices {
public:
  explicit WordsChoices(std::vector<std::uint64_t> words) : words_(std::move(words)) {}
  std::uint64_t below(std::uint64_t n) override;

private:
  std::vector<std::uint64_t> words_;
  std::size_t at_ = 0;
};

} // namespace lo::plans
