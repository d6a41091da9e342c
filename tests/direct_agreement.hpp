// Whether the direct path of the readers (ref/io/direct_reader.cpp) agrees with the strict reader
// on one text: when it gives a value, the strict reader gives the same value (compared by value:
// each reads into its own interner), and the readers' face (ref/io/reader.hpp) gives what the
// strict reader gives, a value or the same error. For plans, lowerings and torchlean.ir.v1 graphs;
// shared by the plan reader's fuzz harness and tests/unit/direct_reader_test.cpp.
#pragma once

#include "ref/io/graph_reader.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/reader_detail.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace lo::test {

/// What the direct path did with a text.
enum class Direct { declined, agreed };

/// The outcome of one reading: a value, or the error's text.
template <class V> struct Reading {
  std::optional<V> value;
  std::string error;
  std::optional<Edition> declared;
};

namespace detail {

inline bool sameKernel(const Interner &a, const PlannedNodeKernel &x, const Interner &b,
                       const PlannedNodeKernel &y) {
  return x.nodeId == y.nodeId && x.op == y.op && a.kind(x.kind) == b.kind(y.kind) &&
         a.capsule(x.capsule) == b.capsule(y.capsule);
}

inline bool sameValue(const Interner &a, const GraphExecutionPlan &p, const Interner &b,
                      const GraphExecutionPlan &q) {
  if (p.kernels.size() != q.kernels.size())
    return false;
  for (std::size_t i = 0; i < p.kernels.size(); ++i)
    if (!sameKernel(a, p.kernels[i], b, q.kernels[i]))
      return false;
  return true;
}

inline bool sameValue(const Interner &a, const selection::Graph &p, const Interner &b,
                      const selection::Graph &q) {
  if (p.nodes.size() != q.nodes.size())
    return false;
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const auto &x = p.nodes[i];
    const auto &y = q.nodes[i];
    if (x.id != y.id || x.parents != y.parents || x.op != y.op || a.kind(x.kind) != b.kind(y.kind))
      return false;
  }
  return true;
}

inline bool sameValue(const Interner &a, const io::LoweringDocument &p, const Interner &b,
                      const io::LoweringDocument &q) {
  if (p.mode != q.mode || p.equality != q.equality || p.edition != q.edition ||
      p.audit.has_value() != q.audit.has_value() || p.plan.groups.size() != q.plan.groups.size())
    return false;
  for (std::size_t i = 0; i < p.plan.groups.size(); ++i) {
    const auto &x = p.plan.groups[i];
    const auto &y = q.plan.groups[i];
    if (x.nodeIds != y.nodeIds || x.op != y.op || x.groupingKind != y.groupingKind ||
        x.kinds.size() != y.kinds.size() || a.capsule(x.capsule) != b.capsule(y.capsule))
      return false;
    for (std::size_t k = 0; k < x.kinds.size(); ++k)
      if (a.kind(x.kinds[k]) != b.kind(y.kinds[k]))
        return false;
  }
  return true;
}

template <class V, class Read> Reading<V> reading(Read &&read) {
  Reading<V> out;
  try {
    out.value = read(out.declared);
  } catch (const io::InputError &e) {
    out.error = e.what();
  }
  return out;
}

} // namespace detail

/// The documents the direct path reads.
enum class Document { plan, lowering, graph };

/// The disagreement of the direct path with the strict reader on `text` read as `document` in
/// `edition`, in words; empty when they agree. `direct` receives what the direct path did.
inline std::string directDisagreement(std::string_view text, Document document, Edition edition,
                                      Direct &direct) {
  const io::Source source = io::sourceFromString("input.json", text);
  Interner di, si, fi;
  direct = Direct::declined;
  auto check = [&]<class V>(const std::optional<V> &directValue, const std::optional<Edition> &dd,
                            const Reading<V> &strict, const Reading<V> &face) -> std::string {
    if (face.error != strict.error)
      return "the readers' face says \"" + face.error + "\", the strict reader \"" + strict.error +
             "\"";
    if (face.value.has_value() != strict.value.has_value() || face.declared != strict.declared ||
        (face.value && !detail::sameValue(fi, *face.value, si, *strict.value)))
      return "the readers' face gives another value than the strict reader";
    if (!directValue)
      return {};
    direct = Direct::agreed;
    if (!strict.value)
      return "the direct path takes a text the strict reader refuses: " + strict.error;
    if (dd != strict.declared || !detail::sameValue(di, *directValue, si, *strict.value))
      return "the direct path gives another value than the strict reader";
    return {};
  };
  if (document == Document::graph) {
    const auto d = io::detail::readGraphDirect(source, di, edition);
    const auto s = detail::reading<selection::Graph>(
        [&](std::optional<Edition> &) { return io::detail::readGraphStrict(source, si, edition); });
    const auto f = detail::reading<selection::Graph>(
        [&](std::optional<Edition> &) { return io::readGraph(source, fi, edition); });
    return check(d, std::nullopt, s, f);
  }
  if (document == Document::plan) {
    std::optional<Edition> dd;
    const auto d = io::detail::readExecutionPlanDirect(source, di, edition, &dd);
    const auto s = detail::reading<GraphExecutionPlan>([&](std::optional<Edition> &declared) {
      return io::detail::readExecutionPlanStrict(source, si, edition, &declared);
    });
    const auto f = detail::reading<GraphExecutionPlan>([&](std::optional<Edition> &declared) {
      return io::readExecutionPlan(source, fi, edition, &declared);
    });
    return check(d, dd, s, f);
  }
  const auto d = io::detail::readLoweringPlanDirect(source, di, edition);
  const auto s = detail::reading<io::LoweringDocument>([&](std::optional<Edition> &) {
    return io::detail::readLoweringPlanStrict(source, si, edition);
  });
  const auto f = detail::reading<io::LoweringDocument>(
      [&](std::optional<Edition> &) { return io::readLoweringPlan(source, fi, edition); });
  return check(d, std::nullopt, s, f);
}

} // namespace lo::test
