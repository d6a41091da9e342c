// RapidCheck generators of GraphExecutionPlans, used by the property suite and by
// tests/proofs/test_encoding_is_code.cpp.
//
// What is shared: `gen`, `diff`, the structured fuzzer and the benchmarks draw their plans from the
// suite's one plan generator (tools/plans/plans.hpp), each through a plans::Choices of its own;
// this file takes from it the kind table (plannableOps, kindsOf), every capsule
// (plans::randomCapsule), near-collision (plans::variant, plans::nearCollision) and kind
// (plans::randomKind), whose choices it reads from RapidCheck's seed words (BitsChoices in
// generators.cpp). The pools, the node ids and the choices of how each plan is written (keys,
// defaults spelled, inline or not, kinds as objects) are this file's own, so that RapidCheck
// shrinks them; the text itself is written by the one plan speller (plans::chosenPlanJson,
// tools/plans/spelling.hpp), which also writes the suite's drawn spellings.
//
// A generated plan is a PlanSpec: plain data (a capsule pool, the kernels, how to encode them) that
// is valid by construction. Every generator maps shrinkable raw choices through a function that
// repairs them into a valid plan, so each shrink RapidCheck tries is a valid plan too ("Shrinking
// keeps plans valid"). A PlanSpec is turned into JSON text (planJson, in either the capsule-table
// or the inline encoding) or built directly into an Interner (buildPlan).
#pragma once

#include "ref/capsule.hpp"
#include "ref/edition.hpp"
#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "ref/opkind.hpp"
#include "tests/seed.hpp"
#include "tools/plans/capsules.hpp"

#include <rapidcheck.h>

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace lo::prop {

/// How kernels refer to their capsules in the JSON text.
enum class Encoding : std::uint8_t { table, inline_, mixed };

/// One planned node: its id, kind and op, and the index of its capsule in the pool.
struct KernelSpec {
  NodeId nodeId = 0;
  OpKind kind;
  BackendOp op = BackendOp::relu;
  std::size_t capsule = 0;
  bool operator==(const KernelSpec &) const = default;
};

/// A valid GraphExecutionPlan as plain data, with the choices of how to write it.
struct PlanSpec {
  std::vector<KernelCapsule> pool;
  std::vector<std::string> keys;   // per pool entry: its key in the capsule table (distinct)
  std::vector<bool> spellDefaults; // per pool entry: write fields at their default values
  std::vector<KernelSpec> kernels;
  Encoding encoding = Encoding::table;
  // Per kernel i, bit i%64 (inline when mixed) and bit (i+13)%64 (a kind as an object); bit 7
  // (a table even when inline), 21 (every object's members reversed), 22 (a kind's parameters
  // reversed).
  std::uint64_t styleBits = 0;
  bool header = true;        // write "format" and "version"
  bool capsulesFirst = true; // the table before "kernels"
  Edition edition =
      test::seed::kEdition; // the edition whose vocabulary it uses (docs/spec.md §1.6)
};

/// Limits of a generated plan. The number of runs grows with RapidCheck's size parameter.
struct PlanShape {
  std::size_t maxRuns = 40;
  int maxRunLength = 24; // a run's length is geometric (mean 2), capped here
};

// --- Vocabulary helpers -------------------------------------------------------------------------

/// The BackendOps some kind of seed::kEdition maps to (the only ops a valid plan can hold).
const std::vector<BackendOp> &plannableOps();
/// The kind tags of seed::kEdition that map to `op`.
const std::vector<KindTag> &kindsOf(BackendOp op);

// --- Generators ---------------------------------------------------------------------------------

rc::Gen<Mode> genMode();
rc::Gen<Equality> genEquality();
/// A capsule for `op` (plans::randomCapsule).
rc::Gen<KernelCapsule> genCapsule(BackendOp op, Edition edition = test::seed::kEdition);
/// A kind of `op` with valid parameters (plans::randomKind).
rc::Gen<OpKind> genKind(BackendOp op);
/// A valid plan: runs of geometric length over a small pool with deliberate near-collisions.
rc::Gen<PlanSpec> genPlan(PlanShape shape = {});
/// The same in `edition` (its capsule, kinds and values; docs/spec.md §1.6).
rc::Gen<PlanSpec> genPlanIn(Edition edition, PlanShape shape = {});
/// A valid plan in which no two neighbours could share a group under `equality`.
rc::Gen<PlanSpec> genPlanWithoutSharedNeighbours(Equality equality, PlanShape shape = {});

/// One plan drawn from `seed` (for callers that do not run under RapidCheck, e.g. corpus seeding).
PlanSpec samplePlan(std::uint64_t seed, int size = 50, PlanShape shape = {});

// --- Using a PlanSpec ---------------------------------------------------------------------------

/// The plan as GraphExecutionPlan JSON text, as `encoding`, `keys`, `spellDefaults` and the style
/// bits say. io::readExecutionPlan accepts it and reads buildPlan's plan.
std::string planJson(const PlanSpec &spec);
/// The plan built directly, without JSON.
GraphExecutionPlan buildPlan(const PlanSpec &spec, Interner &interner);
/// The plan read from planJson(spec) with io::readExecutionPlan, in the plan's edition.
GraphExecutionPlan readPlan(const PlanSpec &spec, Interner &interner);

/// Kernels [begin, end) of the plan (same pool and style).
PlanSpec slice(const PlanSpec &spec, std::size_t begin, std::size_t end);
/// Drops every kernel that could join its (kept) predecessor's group under `equality`.
PlanSpec withoutSharedNeighbours(PlanSpec spec, Equality equality);

/// Whether two capsules are `same` under `equality` (docs/spec.md §1.3), on values.
bool sameCapsule(Equality equality, const KernelCapsule &a, const KernelCapsule &b);

/// A near-collision of `c` that keeps its identity (so it is a contract-different,
/// identity-equal twin), in the values of `edition`: `salt` picks the collision and its values.
KernelCapsule contractTwin(const KernelCapsule &c, std::uint64_t salt, Edition edition);
/// The same of `collision`, one that keeps the identity (before plans::Collision::provider).
KernelCapsule contractTwin(const KernelCapsule &c, plans::Collision collision, std::uint64_t salt,
                           Edition edition);

/// RapidCheck prints a counterexample with this: the plan's JSON text, which `lowering-oracle
/// lower` and `check` accept as it is.
void showValue(const PlanSpec &spec, std::ostream &os);

} // namespace lo::prop
