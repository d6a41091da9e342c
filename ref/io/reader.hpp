// Readers for the files of docs/spec.md §2, built on the strict JSON layer
// (ref/io/strict_json.hpp).
//
// A reader accepts exactly the shapes of §2 (docs/spec.md §2.1). Every rejection is an InputError
// carrying the file, the line and column, and a JSON pointer.
#pragma once

#include "ref/audit.hpp"
#include "ref/edition.hpp"
#include "ref/io/document.hpp"
#include "ref/io/error.hpp"
#include "ref/io/source.hpp"
#include "ref/ir.hpp"
#include "ref/lowering.hpp"

#include <memory>
#include <optional>
#include <string>

namespace lo::io {

enum class DocumentKind { executionPlan, loweringPlan };

/// Whether a document is a GraphExecutionPlan or a GraphLoweringPlan: its `format` when it has
/// one, else whether it has `kernels` or `groups`.
DocumentKind detectDocumentKind(const Source &source);

/// Reads a GraphExecutionPlan and checks what makes it valid: unique `nodeId`s below 2^63, `op`
/// equal to the op its kind maps to, and `capsule.op == op`. Every value is read in `edition`
/// (docs/spec.md §1.6): one of another edition is refused with the edition it fits.
/// A plan may declare the edition it was written for (`"edition"`); it is stored in `declared`
/// when given, for the caller to note when it differs, and never chooses `edition`.
GraphExecutionPlan readExecutionPlan(const Source &source, Interner &interner,
                                     Edition edition = kNewestEdition,
                                     std::optional<Edition> *declared = nullptr);

/// Reads a GraphLoweringPlan. Only its shape is checked here: whether its groups are what the
/// spec gives is for the checks (checks/) to say.
LoweringDocument readLoweringPlan(const Source &source, Interner &interner,
                                  Edition edition = kNewestEdition);

/// What a lowering stream's header declares about its groups.
struct StreamDeclaration {
  std::optional<Mode> mode;
  std::optional<Equality> equality;
};

/// Reads the lines of a stream (the NDJSON form of ref/io/stream.hpp), each line one JSON
/// document, with one parser reused for all of them. Messages name `name` and the line number.
class LineReader {
public:
  LineReader(std::string name, Interner &interner, Edition edition = kNewestEdition);
  ~LineReader();
  LineReader(const LineReader &) = delete;
  LineReader &operator=(const LineReader &) = delete;

  /// The header line: `format` (required, must equal `format`), `version` and the capsules
  /// table, kept for the later lines; with `declared`, a lowering stream's header, which may also
  /// declare `mode` and `equality`. Returns the table's keys and capsules in file order.
  const std::vector<std::pair<std::string, CapsuleId>> &
  readHeader(std::string_view line, std::size_t lineNumber, std::string_view format,
             StreamDeclaration *declared = nullptr);

  /// One kernel line, checked as a kernel of a GraphExecutionPlan is (its op, its capsule's op,
  /// its capsule key in the header's table).
  PlannedNodeKernel readKernel(std::string_view line, std::size_t lineNumber);

  /// One group line, checked for its shape only, as a group of a GraphLoweringPlan is.
  LoweredKernelGroup readGroup(std::string_view line, std::size_t lineNumber);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace lo::io
