// What the two paths of the document readers share (ref/io/reader.cpp and ref/io/graph_reader.cpp,
// the strict readers on simdjson's index; ref/io/direct_reader.cpp and ref/io/direct_scanner.hpp,
// the direct path of docs/performance.md, "The direct path"): the documents' formats and root
// fields, the capsule key table, the strict reader's entry points for a value on its own, and
// each path's entry points. Internal to the readers: their public faces are ref/io/reader.hpp and
// ref/io/graph_reader.hpp.
#pragma once

#include "ref/hash.hpp"
#include "ref/io/document.hpp"
#include "ref/io/source.hpp"
#include "ref/ir.hpp"
#include "ref/selection.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lo::io::detail {

inline constexpr std::string_view kPlanFormat = "nn-backend/graph-execution-plan";
inline constexpr std::string_view kLoweringFormat = "nn-backend/graph-lowering-plan";
inline constexpr std::string_view kAuditFormat = "nn-backend/execution-audit";

/// Capsule keys come from the input: keyed hashing (ref/hash.hpp), searched by string_view.
using KeyTable = std::unordered_map<std::string, CapsuleId, KeyedHash, std::equal_to<>>;

// An array of kernels, groups or capsule names is reserved once for the most elements the
// document can hold, none shorter than its shortest spelling below: the pages never written are
// never resident, and the vector never regrows while it is read (docs/performance.md, "Hostile
// inputs").

/// The fewest bytes a value of `E` is spelled in, in any edition.
template <class E> constexpr std::size_t shortestSpelling() {
  std::size_t n = SIZE_MAX;
  for (std::string_view s : Vocabulary<E>::spellings)
    n = std::min(n, s.size());
  return n;
}
/// `{"nodeId":0,"kind":"K","op":"O","capsule":""},`
inline constexpr std::size_t kShortestKernel =
    std::string_view(R"({"nodeId":0,"kind":"","op":"","capsule":""},)").size() +
    shortestSpelling<KindTag>() + shortestSpelling<BackendOp>();
/// `{"nodeIds":[],"op":"O","capsule":""},`
inline constexpr std::size_t kShortestGroup =
    std::string_view(R"({"nodeIds":[],"op":"","capsule":""},)").size() +
    shortestSpelling<BackendOp>();
/// `"",`
inline constexpr std::size_t kShortestName = std::string_view(R"("",)").size();

/// What texts read before gave (a capsule key's capsule, a kind's id), remembered in front of a
/// keyed table: 64 slots, each chosen from the text's length and its first and last 8 bytes. A hit
/// costs one comparison; a miss, or a collision (which input can force), costs the table's lookup
/// it would have cost anyway. The texts are views that outlive the memo (a table's keys, the
/// document's text).
template <class V> class RecentTexts {
public:
  const V *find(std::string_view text) const {
    const Slot &s = slots_[slot(text)];
    return s.text.size() == text.size() && s.text.data() &&
                   std::memcmp(s.text.data(), text.data(), text.size()) == 0
               ? &s.value
               : nullptr;
  }
  void remember(std::string_view text, V value) { slots_[slot(text)] = {text, value}; }
  void clear() { slots_ = {}; }

private:
  static std::size_t slot(std::string_view t) {
    std::uint64_t head = 0, tail = 0;
    if (!t.empty())
      std::memcpy(&head, t.data(), std::min<std::size_t>(8, t.size()));
    if (t.size() > 8)
      std::memcpy(&tail, t.data() + t.size() - 8, 8);
    return memoSlot(6, head, tail, t.size());
  }
  struct Slot {
    std::string_view text;
    V value{};
  };
  std::array<Slot, 64> slots_{};
};

/// Kind objects whose texts a reader keeps with their ids (the strict reader's kind cache, the
/// direct path's kinds read on their own): at most kMostKindTexts of them, each at most
/// kLongestKindText bytes.
inline constexpr std::size_t kLongestKindText = 512;
inline constexpr std::size_t kMostKindTexts = 4096;

/// The text of the object or array that starts at `start` (before `end`), found by matching
/// brackets outside strings; empty when none starts there, or it is longer than `longest` bytes or
/// not closed. Whether it is valid JSON is not judged.
inline std::string_view bracketedText(const char *start, const char *end, std::size_t longest) {
  if (start >= end || (*start != '{' && *start != '['))
    return {};
  std::size_t depth = 0;
  bool inString = false;
  for (const char *p = start; p < end && static_cast<std::size_t>(p - start) < longest; ++p) {
    const char c = *p;
    if (inString) {
      if (c == '\\')
        ++p;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return std::string_view(start, static_cast<std::size_t>(p + 1 - start));
    }
  }
  return {};
}

/// Whether a kernel whose capsule implements another op than its own makes the plan invalid
/// input in `edition` (docs/spec.md §2.4); under upstream's acceptance gate it is the gate's
/// operationMismatch instead (docs/spec.md §6.10).
inline bool capsuleOpMustMatch(Edition edition) {
  return rulesOf(edition).gate != GateKind::acceptance;
}

/// The root fields of a GraphExecutionPlan and of a GraphLoweringPlan (docs/spec.md §2.4, §2.5).
inline constexpr std::string_view kPlanFields[] = {"format", "version", "capsules", "kernels",
                                                   "edition"};
inline constexpr std::string_view kLoweringFields[] = {"format",   "version", "mode",  "equality",
                                                       "capsules", "groups",  "audit", "edition"};

/// The first node id of `kernels` that repeats an earlier one, as (index of the earlier, index of
/// the later) with the earliest later; none when the ids are unique (docs/spec.md §2.4).
std::optional<std::pair<std::size_t, std::size_t>>
firstRepeatedNodeId(const std::vector<PlannedNodeKernel> &kernels);

// --- The strict reader, for a value on its own
// ----------------------------------------------------

/// The capsules table that is the whole of `source`, read as a document's `capsules` field is;
/// `parser` is reused. Fails as the strict reader fails (an InputError).
KeyTable readCapsuleTableDocument(const Source &source, Interner &interner, Edition edition,
                                  simdjson::ondemand::parser &parser);

/// The kind that is the whole of `source` (an object), read as a kernel's `kind` is.
KindId readKindDocument(const Source &source, Interner &interner, Edition edition,
                        simdjson::ondemand::parser &parser);

/// The strict readers alone (ref/io/reader.hpp's readers try the direct path first).
GraphExecutionPlan readExecutionPlanStrict(const Source &source, Interner &interner,
                                           Edition edition, std::optional<Edition> *declared);
LoweringDocument readLoweringPlanStrict(const Source &source, Interner &interner, Edition edition);

// --- The direct path (ref/io/direct_reader.cpp)
// ---------------------------------------------------

/// The plan `source` holds, when its text is in the form the direct path reads; else nothing, and
/// the strict reader judges it. Never a plan the strict reader would not give.
std::optional<GraphExecutionPlan> readExecutionPlanDirect(const Source &source, Interner &interner,
                                                          Edition edition,
                                                          std::optional<Edition> *declared);
/// The same for a lowering.
std::optional<LoweringDocument> readLoweringPlanDirect(const Source &source, Interner &interner,
                                                       Edition edition);
/// The same for a torchlean.ir.v1 graph (ref/io/graph_reader.cpp), and the strict graph reader.
std::optional<selection::Graph> readGraphDirect(const Source &source, Interner &interner,
                                                Edition edition);
selection::Graph readGraphStrict(const Source &source, Interner &interner, Edition edition);

} // namespace lo::io::detail
