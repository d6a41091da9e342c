// Readers of the contract values of docs/spec.md §2.2 (a claim, evidence, provenance, a contract
// descriptor, a numerical policy), on the strict JSON layer: for the capsules of the documents
// (ref/io/reader.cpp) and for the reports of a gate result (§6.5). Each reads the value `v` of
// `r`'s document and fails through `r` (an InputError at the value, with its JSON pointer).
#pragma once

#include "ref/capsule.hpp"
#include "ref/io/strict_json.hpp"

#include <vector>

namespace lo::io {

/// A claim: its `tag` and exactly the fields the tag has.
ContractClaim readClaim(JsonReader &r, od::value &v);

/// Evidence: its `tag`, and `name` (`reason` for trustedBoundary, nothing for notProvided).
ContractEvidence readEvidence(JsonReader &r, od::value &v);

/// A provenance array, each item with its `tag` and the fields the tag has.
std::vector<ContractProvenance> readProvenance(JsonReader &r, od::value &v);

/// A contract descriptor: `claim`, `summary`, `evidence`, and `provenance` (default []).
ContractDescriptor readDescriptor(JsonReader &r, od::value &v);

/// A numerical policy: every field optional (default "unspecified").
NumericalPolicy readNumericalPolicy(JsonReader &r, od::value &v);

} // namespace lo::io
