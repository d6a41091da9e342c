// Every spelling the plan format allows (docs/spec.md §2), drawn at random for generated plans
// or chosen by the caller.
//
// One GraphExecutionPlan has many texts (docs/spec.md §2.1 to §2.4): `format` and `version` may be
// left out, supportsForward, vjpMode, each numericalPolicy field, notes and a descriptor's
// provenance have defaults that may be written out or left out, a kernel's capsule is a key into
// `capsules` or an inline object, under any key (so one capsule may have two keys), a kind without
// parameters is a bare string or an object, the members of an object come in any order, and a
// string may spell a character with an escape (`\u0041`,
// `\/`). An implementation that reads only some of these texts is wrong, and `gen` and `diff` can
// only show it if their plans use them: the spelling varies within one plan, so the same capsule
// appears spelled two ways in adjacent kernels and an implementation that compares what is written
// splits a run that must coalesce.
//
// Every choice comes from the portable generator (plans::Rng): the same plan and seed give the same
// bytes. A caller that chooses the spelling itself (the property tests, which shrink it) names
// its choices in a PlanText, and the same printer writes them (chosenPlanJson).
#pragma once

#include "ref/interner.hpp"
#include "ref/io/writer.hpp"
#include "ref/ir.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lo::plans {

using Placement = io::Placement;

/// The plan as GraphExecutionPlan text with spellings drawn from `seed`: capsules placed mostly as
/// `placement` says (with strays), defaults left out or written, members shuffled, escapes, kinds
/// in either form, format and version present or not, some capsules under two keys, white space.
/// Only the fields edition `edition` has are written (docs/spec.md §2.2), and the text always
/// reads back to `plan` in that edition.
std::string spelledPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                            Placement placement, std::uint64_t seed, Edition edition);

/// Which fields at their defaults a chosen spelling leaves out of a capsule: none, the capsule's
/// own (`top`), those of the records inside it (`nested`: a numerical policy's, a descriptor's
/// empty provenance), or both. A required field is never left out (docs/spec.md §2.2).
enum class Omit : std::uint8_t { none, top, nested, all };
/// Which characters a chosen spelling escapes beyond those JSON must: none, `/` as `\/`
/// (`solidus`), or also every letter and every character above `~` as `\uXXXX` (`unicode`).
enum class Escapes : std::uint8_t { none, solidus, unicode };
/// Their names, in their order (the Python module's Spelling names them so).
inline constexpr std::string_view kOmitNames[] = {"none", "top", "nested", "all"};
inline constexpr std::string_view kEscapesNames[] = {"none", "solidus", "unicode"};

/// A spelling chosen, not drawn: the capsule table's entries, how each kernel names its capsule,
/// and how the whole text is written.
struct PlanText {
  /// A table entry: its key (distinct), its capsule, the defaults it leaves out.
  struct Entry {
    std::string key;
    CapsuleId capsule{};
    Omit omit = Omit::none;
  };
  /// A kernel: the table entry that names its capsule (none: the capsule inline, leaving out
  /// `omit`'s defaults), and whether a kind without parameters is an object.
  struct Kernel {
    std::optional<std::size_t> entry;
    Omit omit = Omit::none;
    bool kindObject = false;
  };
  std::vector<Entry> table;    // written when not empty
  std::vector<Kernel> kernels; // one per kernel of the plan
  bool header = true;          // "format" and "version"
  bool tableFirst = true;      // the table before "kernels"
  bool reverseFields = false;  // every object's members in reverse order
  bool reverseParams = false;  // a kind's parameters in reverse order (after its tag)
  bool pretty = false;         // two spaces a level, a member a line; else no white space
  Escapes escapes = Escapes::none;
  std::optional<std::string> edition; // written as the document's `edition` when given
};

/// The plan as GraphExecutionPlan text spelled as `text` says, the capsules' fields those of
/// edition `edition`; it reads back to `plan` in that edition. A kernel's entry must hold the
/// kernel's capsule.
std::string chosenPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                           const PlanText &text, Edition edition);

} // namespace lo::plans
