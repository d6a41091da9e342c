// Reading another implementation's acceptance result (docs/spec.md §6.10), for `verify --gates`
// in the editions whose gate is upstream's acceptance gate, beside its writer
// (ref/io/acceptance_writer.hpp).
//
// The result is read strictly (ref/io/strict_json.hpp), as
// docs/schema/acceptance-result.schema.json describes it: an unknown or repeated field, a wrong
// type, an unknown spelling, a field its failure kind does not carry (or a missing one), a message
// that is not its failure's
// (`AcceptanceFailure.message`) or a verdict its failures contradict is an input error, not a
// difference.
#pragma once

#include "ref/acceptance.hpp"
#include "ref/edition.hpp"
#include "ref/io/source.hpp"

#include <string>
#include <vector>

namespace lo::io {

/// An acceptance result as another implementation wrote it.
struct ReadAcceptanceResult {
  struct Group {
    std::vector<NodeId> nodeIds;
    BackendOp op = BackendOp::relu;
    std::string capsuleName;
    bool operator==(const Group &) const = default;
  };
  std::string profile;
  acceptance::KernelPolicy policy;
  bool accepted = true;
  std::vector<Group> groups;
  std::vector<acceptance::AcceptanceFailure> failures;
  std::vector<std::size_t> failureGroups; // the `group` of each failure
};

/// Reads `source` as an acceptance result: `format` ("nn-backend/acceptance-result") and
/// `version` (1) optional, as on every input; `policy` (profile, device, provider,
/// allowTrustedExternal, vjpMode), `verdict`, `groups` and `failures` required, `accepted`
/// exactly when there is no failure, every failure's `group` one of `groups`. Every value is read
/// in `edition` (docs/spec.md §1.6). Throws io::InputError (the source's name, line, column and
/// JSON pointer).
ReadAcceptanceResult readAcceptanceResult(const Source &source, Edition edition);

} // namespace lo::io
