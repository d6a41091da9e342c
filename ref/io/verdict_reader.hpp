// The verdict of a gate result (docs/spec.md §6.5) and of an acceptance result (§6.10): its
// spelling, and its agreement with the failures listed.
#pragma once

#include "ref/io/escape.hpp"
#include "ref/io/strict_json.hpp"

#include <cstddef>
#include <string_view>

namespace lo::io {

/// `v`, "accepted" or "rejected": whether it is "accepted".
inline bool readVerdict(JsonReader &r, od::value &v) {
  const char *at = r.location(v);
  const std::string_view verdict = r.string(v, "a verdict");
  if (verdict != "accepted" && verdict != "rejected")
    r.fail(at, "unknown verdict " + quote(verdict) + "; expected one of: accepted, rejected");
  return verdict == "accepted";
}

/// Fails at /verdict unless the result accepts exactly when it lists no failure.
inline void checkVerdictAgrees(JsonReader &r, bool accepted, std::size_t failures) {
  if (accepted != (failures == 0))
    r.failAtPointer("/verdict",
                    accepted ? "\"accepted\", but /failures lists " + counted(failures, "failure")
                             : "\"rejected\", but /failures is empty");
}

} // namespace lo::io
