// Judging another implementation's acceptance result (docs/spec.md §6.10, read by
// ref/io/acceptance_reader.hpp) against the reference acceptance gate, for `verify --gates` in the
// editions whose gate is upstream's acceptance gate (docs/spec.md §4.3).
#pragma once

#include "checks/gate_result.hpp"
#include "ref/acceptance.hpp"
#include "ref/io/acceptance_reader.hpp"

#include <string_view>

namespace lo::checks {

/// The first difference between `actual` and `expected` (the reference's result of the plan's
/// coalesced groups under contract, `acceptGraphKernelPlan`), both under the maintained profile
/// `profile` whose policy is `policy`, in this order: the verdict, the groups, the failures (each
/// with its group, in upstream's order: docs/spec.md §6.10), the policy the result names. Capsule
/// names and evidence texts are compared as the writer cuts them (io::boundedFailure).
GateComparison compareAcceptanceResult(const Interner &interner, std::string_view profile,
                                       const acceptance::KernelPolicy &policy,
                                       const acceptance::GraphAcceptance &expected,
                                       const io::ReadAcceptanceResult &actual);

} // namespace lo::checks
