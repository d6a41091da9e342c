// The readers in the edition of the tests' hand-written documents, whose capsules are the seed's
// (`notes`, a numerical policy of four fields, the trust levels `verified` and `fuzzed`) and
// their kinds 2026-08's: seed::kEdition (docs/spec.md §1.6). A test of such a document calls
// `seed::readExecutionPlan` where it would call `io::readExecutionPlan`; a test of another edition
// names it.
#pragma once

#include "checks/checks.hpp"
#include "ref/edition.hpp"
#include "ref/io/reader.hpp"

#include <optional>

namespace lo::test::seed {

inline constexpr Edition kEdition = Edition::e2026_08;

inline GraphExecutionPlan readExecutionPlan(const io::Source &source, Interner &interner,
                                            Edition edition = kEdition,
                                            std::optional<Edition> *declared = nullptr) {
  return io::readExecutionPlan(source, interner, edition, declared);
}

inline io::LoweringDocument readLoweringPlan(const io::Source &source, Interner &interner,
                                             Edition edition = kEdition) {
  return io::readLoweringPlan(source, interner, edition);
}

/// The options of `check` for such documents: read in kEdition.
inline checks::Options options(Mode mode = Mode::coalesced, Equality equality = Equality::contract,
                               std::size_t maxPerCheck = io::kDefaultMaxPerCheck) {
  return checks::Options{mode, equality, maxPerCheck, kEdition};
}

} // namespace lo::test::seed
