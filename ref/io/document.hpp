// The documents of docs/spec.md §2 as they are read, with what a file declares beside its data:
// what the reader produces and the checks (checks/) judge, without the reader itself.
#pragma once

#include "ref/audit.hpp"
#include "ref/edition.hpp"
#include "ref/ir.hpp"
#include "ref/lowering.hpp"

#include <optional>

namespace lo::io {

/// A GraphLoweringPlan file: the groups and what the file declares about them.
struct LoweringDocument {
  std::optional<Mode> mode;
  std::optional<Equality> equality;
  GraphLoweringPlan plan;
  std::optional<AuditDocument> audit;
  /// The edition the file declares, if any: noted, never the standard (docs/spec.md §1.6).
  std::optional<Edition> edition;
};

} // namespace lo::io
