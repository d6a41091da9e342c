// Readers of selection's inputs (docs/spec.md §10.6): a graph in upstream's `torchlean.ir.v1`, a
// capsule registry, a backend profile; on the strict JSON layer (ref/io/strict_json.hpp), with the
// same positions and JSON pointers as every other document.
#pragma once

#include "ref/interner.hpp"
#include "ref/io/source.hpp"
#include "ref/profile.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lo::io {

/// The wire name of a kind parameter (docs/spec.md §10.6): its name in ref/opkind.cpp in
/// snake_case, but for the few upstream's importer spells otherwise.
std::string wireParamName(KindTag tag, std::string_view name);

/// Whether a `torchlean.ir.v1` node carries a kind parameter of type `t`: a natural or naturals
/// (the reader refuses the others, the writer cannot write them).
constexpr bool graphCarries(ParamType t) {
  return t == ParamType::natural || t == ParamType::naturals;
}
/// Whether it carries every parameter of kind `tag`.
bool graphCarries(KindTag tag);

/// Reads a `torchlean.ir.v1` graph; each node's kind is interned in `interner`, in `edition`.
selection::Graph readGraph(const Source &source, Interner &interner,
                           Edition edition = kNewestEdition);

/// Reads a registry document: `{"modules": [{"name", "capsules"}]}`.
std::vector<selection::CapsuleModule> readRegistry(const Source &source,
                                                   Edition edition = kNewestEdition);

/// Reads a profile document: `{"name", "policy", "availability", "modules"?}` (without `modules`,
/// the maintained modules, or none when `modulesReplaced`: a registry document gives them).
selection::BackendProfile readProfile(const Source &source, Edition edition = kNewestEdition,
                                      bool modulesReplaced = false);

} // namespace lo::io
