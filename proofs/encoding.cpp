#include "proofs/encoding.hpp"

#include "proofs/sabotage_table.hpp"
#include "ref/opkind.hpp"

#include <array>
#include <optional>

namespace lo::proofs {

namespace {

constexpr auto kSabotages = sabotageTable<Sabotage>(std::array{LO_SABOTAGES(LO_SABOTAGE_ROW)});

z3::expr ifThen(const z3::expr &c, const z3::expr &a, const z3::expr &b) {
  return z3::ite(c, a, b);
}

} // namespace

std::string_view spelling(Sabotage s) { return kSabotages.spelling(s); }
std::string_view describe(Sabotage s) { return kSabotages.describe(s); }
std::vector<Sabotage> allSabotages() { return kSabotages.all(); }

// --- capsules, rows, groups ---------------------------------------------------------------------

z3::expr constant(z3::context &ctx, sorts::Int, const std::string &name) {
  return ctx.int_const(name.c_str());
}
z3::expr constant(z3::context &ctx, sorts::Bool, const std::string &name) {
  return ctx.bool_const(name.c_str());
}
z3::expr defaultValue(z3::context &ctx, sorts::Int) { return ctx.int_val(0); }
z3::expr defaultValue(z3::context &ctx, sorts::Bool) { return ctx.bool_val(true); }

z3::expr sameIdentity(const Capsule &a, const Capsule &b) {
  z3::expr_vector all(a.name.ctx());
#define LO_SAME_IDENTITY(field, sort, part, row, carrier)                                          \
  if (Part::part == Part::identity)                                                                \
    all.push_back(a.field == b.field);
  LO_CAPSULE_FIELDS(LO_SAME_IDENTITY)
#undef LO_SAME_IDENTITY
  return z3::mk_and(all);
}

z3::expr sameContract(const Capsule &a, const Capsule &b) {
  z3::expr_vector all(a.name.ctx());
#define LO_SAME_FIELD(field, sort, part, row, carrier) all.push_back(a.field == b.field);
  LO_CAPSULE_FIELDS(LO_SAME_FIELD)
#undef LO_SAME_FIELD
  return z3::mk_and(all);
}

z3::expr same(Equality equality, const Capsule &a, const Capsule &b) {
  return equality == Equality::contract ? sameContract(a, b) : sameIdentity(a, b);
}

z3::expr sameRow(const AuditRow &a, const AuditRow &b) { return sameContract(a.view, b.view); }

AuditRow auditRow(const z3::expr &op, const Capsule &c) {
  // ref/audit.cpp `auditView`: the capsule with the row's op and the hidden fields at defaults
  AuditRow row{c};
  row.view.op = op;
#define LO_HIDE_FIELD(field, sort, part, row_, carrier)                                            \
  if (Row::row_ == Row::hidden)                                                                    \
    row.view.field = defaultValue(c.field.ctx(), sorts::sort{});
  LO_CAPSULE_FIELDS(LO_HIDE_FIELD)
#undef LO_HIDE_FIELD
  return row;
}

Capsule ite(const z3::expr &c, const Capsule &a, const Capsule &b) {
#define LO_ITE_FIELD(field, sort, part, row, carrier) ifThen(c, a.field, b.field),
  return Capsule{LO_CAPSULE_FIELDS(LO_ITE_FIELD)};
#undef LO_ITE_FIELD
}

Node ite(const z3::expr &c, const Node &a, const Node &b) {
  return Node{ifThen(c, a.nodeId, b.nodeId), ifThen(c, a.kind, b.kind), ifThen(c, a.op, b.op),
              ite(c, a.capsule, b.capsule)};
}

Group ite(const z3::expr &c, const Group &a, const Group &b) {
  Group g{ifThen(c, a.idCount, b.idCount),
          ifThen(c, a.kindCount, b.kindCount),
          {},
          {},
          ifThen(c, a.op, b.op),
          ite(c, a.capsule, b.capsule),
          ifThen(c, a.run, b.run)};
  for (std::size_t p = 0; p < a.nodeIds.size(); ++p) {
    g.nodeIds.push_back(ifThen(c, a.nodeIds[p], b.nodeIds[p]));
    g.kinds.push_back(ifThen(c, a.kinds[p], b.kinds[p]));
  }
  return g;
}

z3::expr isTrustedExternal(const Capsule &c) { return c.trustLevel == kTrustedExternal; }
z3::expr isTrustedExternal(const AuditRow &r) { return isTrustedExternal(r.view); }

z3::expr sameLowering(const Lowering &l, const Lowering &r, bool groupKinds) {
  z3::context &ctx = l.count.ctx();
  z3::expr_vector all(ctx);
  all.push_back(l.count == r.count);
  for (std::size_t j = 0; j < l.groups.size() && j < r.groups.size(); ++j) {
    const Group &a = l.groups[j], &b = r.groups[j];
    z3::expr_vector eq(ctx);
    eq.push_back(a.idCount == b.idCount);
    if (groupKinds)
      eq.push_back(a.kindCount == b.kindCount);
    for (std::size_t p = 0; p < a.nodeIds.size() && p < b.nodeIds.size(); ++p) {
      const int pi = static_cast<int>(p);
      eq.push_back(z3::implies(a.idCount > pi, a.nodeIds[p] == b.nodeIds[p]));
      if (groupKinds)
        eq.push_back(z3::implies(a.kindCount > pi, a.kinds[p] == b.kinds[p]));
    }
    eq.push_back(a.op == b.op);
    eq.push_back(sameContract(a.capsule, b.capsule));
    if (groupKinds)
      eq.push_back(a.run == b.run);
    all.push_back(z3::implies(l.count > static_cast<int>(j), z3::mk_and(eq)));
  }
  // slots beyond the other's capacity must be unused
  for (std::size_t j = r.groups.size(); j < l.groups.size(); ++j)
    all.push_back(l.count <= static_cast<int>(j));
  for (std::size_t j = l.groups.size(); j < r.groups.size(); ++j)
    all.push_back(r.count <= static_cast<int>(j));
  return z3::mk_and(all);
}

// --- the encoder ------------------------------------------------------------------------------

Encoder::Encoder(z3::context &ctx, Edition edition, Equality equality, Sabotage sabotage,
                 SelectionSabotage selectionSabotage)
    : ctx_(ctx), edition_(edition), equality_(equality), sabotage_(sabotage),
      selectionSabotage_(selectionSabotage),
      opOfKind_(ctx.function("opOfKind", ctx.int_sort(), ctx.int_sort())) {}

Capsule Encoder::freshCapsule(const std::string &prefix) {
#define LO_FRESH_FIELD(field, sort, part, row, carrier)                                            \
  constant(ctx_, sorts::sort{}, prefix + "." #field),
  return Capsule{LO_CAPSULE_FIELDS(LO_FRESH_FIELD)};
#undef LO_FRESH_FIELD
}

Node Encoder::freshNode(const std::string &prefix) {
  return Node{ctx_.int_const((prefix + ".nodeId").c_str()),
              ctx_.int_const((prefix + ".kind").c_str()), ctx_.int_const((prefix + ".op").c_str()),
              freshCapsule(prefix + ".capsule")};
}

Plan Encoder::freshPlan(std::size_t n, const std::string &prefix) {
  Plan p;
  for (std::size_t i = 0; i < n; ++i)
    p.nodes.push_back(freshNode(prefix + std::to_string(i)));
  return p;
}

Lowering Encoder::freshLowering(std::size_t capacity, const std::string &prefix) {
  Lowering l{ctx_.int_const((prefix + ".count").c_str()), {}};
  for (std::size_t j = 0; j < capacity; ++j) {
    const std::string g = prefix + ".group" + std::to_string(j);
    Group group{ctx_.int_const((g + ".idCount").c_str()),
                ctx_.int_const((g + ".kindCount").c_str()),
                {},
                {},
                ctx_.int_const((g + ".op").c_str()),
                freshCapsule(g + ".capsule"),
                ctx_.bool_const((g + ".run").c_str())};
    for (std::size_t p = 0; p < capacity; ++p) {
      group.nodeIds.push_back(ctx_.int_const((g + ".nodeIds" + std::to_string(p)).c_str()));
      group.kinds.push_back(ctx_.int_const((g + ".kinds" + std::to_string(p)).c_str()));
    }
    l.groups.push_back(std::move(group));
  }
  return l;
}

namespace {
/// The range constraint of a field: none, or for a field that stands for a vocabulary, the
/// edition's values.
template <class C> std::optional<z3::expr> editionRange(C, const z3::expr &, Edition) {
  return std::nullopt;
}
template <class E>
std::optional<z3::expr> editionRange(carrier::Vocabulary<E>, const z3::expr &x, Edition e) {
  return inEditionOf<E>(x, e);
}
} // namespace

z3::expr Encoder::wellFormed(const Capsule &c) const {
  z3::expr_vector ranges(ctx_); // the vocabularies' fields hold the index of a spelling
#define LO_FIELD_RANGE(field, sort, part, row, carrier)                                            \
  if (const auto range = editionRange(carrier{}, c.field, edition_))                               \
    ranges.push_back(*range);
  LO_CAPSULE_FIELDS(LO_FIELD_RANGE)
#undef LO_FIELD_RANGE
  if (!hasSeedCapsule(edition_)) { // the lineage's capsule (docs/spec.md §1.6)
    ranges.push_back(c.notes == defaultValue(ctx_, sorts::Int{}));
    const auto reductions = static_cast<int>(valuesOf<Reduction>(edition_).size());
    ranges.push_back(c.numericalPolicy >= 0 && c.numericalPolicy < reductions);
  }
  return z3::mk_and(ranges);
}

z3::expr Encoder::wellFormed(const Node &k) {
  // Ops that some kind of the edition maps to: a planned node's op is one of them.
  z3::expr_vector plannable(ctx_);
  for (BackendOp o : valuesOf<BackendOp>(edition_)) {
    bool some = false;
    for (KindTag t : valuesOf<KindTag>(edition_))
      some = some || signature(t).op == o;
    if (some)
      plannable.push_back(k.op == static_cast<int>(o));
  }
  return z3::mk_or(plannable) && k.op == opOfKind_(k.kind) && capsuleForOp(k.op, k.capsule) &&
         wellFormed(k.capsule);
}

z3::expr Encoder::capsuleForOp(const z3::expr &op, const Capsule &capsule) const {
  if (rulesOf(edition_).gate == GateKind::acceptance)
    return ctx_.bool_val(true);
  return capsule.op == op;
}

z3::expr Encoder::valid(const Plan &p) {
  z3::expr_vector all(ctx_);
  const z3::expr limit = ctx_.int_val("9223372036854775808"); // 2^63
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const Node &k = p.nodes[i];
    all.push_back(k.nodeId >= 0 && k.nodeId < limit);
    all.push_back(wellFormed(k));
    for (std::size_t j = 0; j < i; ++j)
      all.push_back(k.nodeId != p.nodes[j].nodeId);
  }
  return z3::mk_and(all);
}

z3::expr Encoder::wellFormed(const Lowering &l) {
  const int cap = static_cast<int>(l.groups.size());
  z3::expr_vector all(ctx_);
  all.push_back(l.count >= 0 && l.count <= cap);
  for (const Group &g : l.groups) {
    all.push_back(g.idCount >= 0 && g.idCount <= cap);
    all.push_back(g.kindCount >= 0 && g.kindCount <= cap);
  }
  return z3::mk_and(all);
}

z3::expr Encoder::specCanAppend(const z3::expr &groupOp, const Capsule &groupCapsule,
                                const Node &k) const {
  return groupOp == k.op && same(equality_, groupCapsule, k.capsule);
}

z3::expr Encoder::algorithmCanAppend(const z3::expr &groupOp, const Capsule &groupCapsule,
                                     const Node &k) const {
  switch (sabotage_) {
  case Sabotage::canAppendIgnoresOp: return same(equality_, groupCapsule, k.capsule);
  case Sabotage::canAppendIgnoresCapsule: return groupOp == k.op;
  case Sabotage::canAppendIdentityOnly:
    return groupOp == k.op && sameIdentity(groupCapsule, k.capsule);
  case Sabotage::foldNeverAppends: return ctx_.bool_val(false);
  case Sabotage::foldAlwaysAppends: return ctx_.bool_val(true);
  default: return specCanAppend(groupOp, groupCapsule, k);
  }
}

Group Encoder::appendNode(const Group &g, const Node &k) const {
  Group out = g;
  const std::size_t cap = g.nodeIds.size();
  // The node's id goes last in nodeIds and its kind last in kinds: cell idCount gets the id.
  for (std::size_t p = 0; p < cap; ++p) {
    const int pi = static_cast<int>(p);
    if (sabotage_ == Sabotage::appendPrepends) {
      out.nodeIds[p] = p == 0 ? k.nodeId : g.nodeIds[p - 1];
      out.kinds[p] = p == 0 ? k.kind : g.kinds[p - 1];
      continue;
    }
    if (sabotage_ != Sabotage::appendDropsId)
      out.nodeIds[p] = z3::ite(g.idCount == pi, k.nodeId, g.nodeIds[p]);
    if (sabotage_ != Sabotage::appendDropsKind)
      out.kinds[p] = z3::ite(g.kindCount == pi, k.kind, g.kinds[p]);
  }
  if (sabotage_ != Sabotage::appendDropsId)
    out.idCount = g.idCount + 1;
  if (sabotage_ != Sabotage::appendDropsKind)
    out.kindCount = g.kindCount + 1;
  const Head head = appendHead(Head{g.op, g.capsule, g.run}, k);
  out.op = head.op;
  out.capsule = head.capsule;
  out.run = head.run;
  return out;
}

Encoder::Head Encoder::appendHead(const Head &g, const Node &k) const {
  Head out = g;
  // The group keeps its op and capsule (its first node's).
  if (sabotage_ == Sabotage::appendTakesNodeCapsule)
    out.capsule = k.capsule;
  // groupingKind becomes sameCapsuleRun.
  if (sabotage_ != Sabotage::appendKeepsSingleton)
    out.run = ctx_.bool_val(true);
  return out;
}

Group Encoder::emptyGroup(std::size_t capacity) const {
  const z3::expr zero = ctx_.int_val(0);
#define LO_DEFAULT_FIELD(field, sort, part, row, carrier) defaultValue(ctx_, sorts::sort{}),
  Capsule c{LO_CAPSULE_FIELDS(LO_DEFAULT_FIELD)};
#undef LO_DEFAULT_FIELD
  return Group{zero,
               zero,
               std::vector<z3::expr>(capacity, zero),
               std::vector<z3::expr>(capacity, zero),
               zero,
               c,
               ctx_.bool_val(false)};
}

Group Encoder::singletonGroup(const Node &k, std::size_t capacity) const {
  Group g = emptyGroup(capacity);
  g.idCount = ctx_.int_val(sabotage_ == Sabotage::singletonGroupDropsId ? 0 : 1);
  g.kindCount = ctx_.int_val(1);
  g.nodeIds[0] = k.nodeId;
  g.kinds[0] = k.kind;
  g.op = k.op;
  g.capsule = k.capsule;
  g.run = ctx_.bool_val(false);
  return g;
}

z3::expr Encoder::singletonGroupIds(const Node &k) const {
  if (sabotage_ == Sabotage::singletonGroupDropsId) {
    z3::sort i = ctx_.int_sort();
    return z3::empty(ctx_.seq_sort(i));
  }
  return k.nodeId.unit();
}

Lowering Encoder::pushKernel(const Lowering &s, const Node &k, std::size_t step) const {
  const std::size_t cap = s.groups.size();
  const std::size_t live = std::min(step + 1, cap); // slots 0..step may be in use afterwards
  // the last group, groups.back(): slot count-1
  Group last = s.groups[0];
  for (std::size_t j = 1; j < live; ++j)
    last = ite(s.count == static_cast<int>(j + 1), s.groups[j], last);
  const z3::expr append = s.count > 0 && algorithmCanAppend(last.op, last.capsule, k);
  const Group appended = appendNode(last, k);
  const Group fresh = singletonGroup(k, cap);
  Lowering out{z3::ite(append, s.count, s.count + 1), s.groups};
  for (std::size_t j = 0; j < live; ++j) {
    const int ji = static_cast<int>(j);
    out.groups[j] = ite(append && s.count == ji + 1, appended,
                        ite(!append && s.count == ji, fresh, s.groups[j]));
  }
  return out;
}

Lowering Encoder::toCoalesced(const Plan &p) const {
  const std::size_t n = p.nodes.size();
  Lowering s{ctx_.int_val(0), std::vector<Group>(n, emptyGroup(n))};
  for (std::size_t i = 0; i < n; ++i)
    s = pushKernel(s, p.nodes[i], i);
  return s;
}

Lowering Encoder::toSingleton(const Plan &p) const {
  const std::size_t n = p.nodes.size();
  Lowering out{ctx_.int_val(static_cast<int>(n)), {}};
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t from = sabotage_ == Sabotage::singletonReversed ? n - 1 - i : i;
    Group g = singletonGroup(p.nodes[from], n);
    if (sabotage_ == Sabotage::singletonShiftsCapsule && i > 0)
      g.capsule = p.nodes[i - 1].capsule;
    out.groups.push_back(std::move(g));
  }
  if (sabotage_ == Sabotage::singletonDropsLast && n > 0)
    out.count = ctx_.int_val(static_cast<int>(n - 1));
  if (sabotage_ == Sabotage::singletonMergesFirstTwo && n >= 2) {
    out.groups[0] = appendNode(out.groups[0], p.nodes[1]);
    out.groups.erase(out.groups.begin() + 1);
    out.groups.push_back(emptyGroup(n));
    out.count = ctx_.int_val(static_cast<int>(n - 1));
  }
  return out;
}

AuditRow Encoder::groupRow(const z3::expr &op, const Capsule &c) const {
  AuditRow row = auditRow(op, c);
  if (sabotage_ == Sabotage::auditDropsTrust)
    row.view.trustLevel = ctx_.int_val(static_cast<int>(TrustLevel::verified));
  return row;
}

AuditRow Encoder::groupRow(const Lowering &l, std::size_t j, const Plan &p) const {
  const Group &g = l.groups[j];
  if (sabotage_ != Sabotage::auditFromLastNode || p.nodes.empty())
    return groupRow(g.op, g.capsule);
  // The row of the node whose id is the group's last id.
  const z3::expr lastId = [&] {
    z3::expr id = g.nodeIds[0];
    for (std::size_t q = 1; q < g.nodeIds.size(); ++q)
      id = z3::ite(g.idCount == static_cast<int>(q + 1), g.nodeIds[q], id);
    return id;
  }();
  Node last = p.nodes[0];
  for (std::size_t i = 1; i < p.nodes.size(); ++i)
    last = ite(lastId == p.nodes[i].nodeId, p.nodes[i], last);
  return auditRow(last.op, last.capsule);
}

} // namespace lo::proofs
