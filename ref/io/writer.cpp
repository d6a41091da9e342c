#include "ref/io/writer.hpp"

#include "ref/hash.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/recheck.hpp"

#include <algorithm>
#include <unordered_set>

namespace lo::io {

namespace {

template <class E> void enumField(Sink &out, std::string_view name, E value) {
  out << '"' << name << "\":\"" << spelling(value) << '"';
}

void writeClaim(Sink &out, const ContractClaim &c) {
  out << '{';
  enumField(out, "tag", c.tag);
  out << ',';
  enumField(out, "op", c.op);
  using T = ContractClaim::Tag;
  if (c.tag == T::layoutCompatibility) {
    out << ',';
    enumField(out, "layout", c.layout);
  }
  if (c.tag == T::valueRefinement || c.tag == T::vjpRefinement) {
    out << ",\"spec\":";
    out.jsonString(c.spec);
  }
  if (c.tag == T::vjpRefinement) {
    out << ',';
    enumField(out, "mode", c.mode);
  }
  out << '}';
}

void writeEvidence(Sink &out, const ContractEvidence &e) {
  using T = ContractEvidence::Tag;
  out << '{';
  enumField(out, "tag", e.tag);
  if (e.tag == T::trustedBoundary) {
    out << ",\"reason\":";
    out.jsonString(e.text);
  } else if (e.tag != T::notProvided) {
    out << ",\"name\":";
    out.jsonString(e.text);
  }
  out << '}';
}

} // namespace

void writeContractClaim(Sink &out, const ContractClaim &c) { writeClaim(out, c); }
void writeContractEvidence(Sink &out, const ContractEvidence &e) { writeEvidence(out, e); }

namespace {

void writeDescriptor(Sink &out, const ContractDescriptor &d) {
  out << "{\"claim\":";
  writeClaim(out, d.claim);
  out << ",\"summary\":";
  out.jsonString(d.summary);
  out << ",\"evidence\":";
  writeEvidence(out, d.evidence);
  out << ",\"provenance\":[";
  for (std::size_t i = 0; i < d.provenance.size(); ++i) {
    const auto &p = d.provenance[i];
    if (i)
      out << ',';
    out << '{';
    enumField(out, "tag", p.tag);
    using T = ContractProvenance::Tag;
    if (p.tag == T::note) {
      out << ",\"text\":";
      out.jsonString(p.path);
    } else {
      out << ",\"path\":";
      out.jsonString(p.path);
    }
    if (p.tag == T::nativeSymbol) {
      out << ",\"symbol\":";
      out.jsonString(p.symbol);
      if (p.buildTarget) {
        out << ",\"buildTarget\":";
        out.jsonString(*p.buildTarget);
      }
    }
    out << '}';
  }
  out << "]}";
}

void writePolicy(Sink &out, const NumericalPolicy &p) {
  out << '{';
  enumField(out, "rounding", p.rounding);
  out << ',';
  enumField(out, "subnormals", p.subnormals);
  out << ',';
  enumField(out, "contraction", p.contraction);
  out << ',';
  enumField(out, "reduction", p.reduction);
  out << '}';
}

/// The audited fields of a capsule, shared by a capsule and an audit row.
void writeContractsAndPolicy(Sink &out, const KernelCapsule &c) {
  out << ",\"shapeContract\":";
  writeDescriptor(out, c.shapeContract);
  out << ",\"layoutContract\":";
  writeDescriptor(out, c.layoutContract);
  out << ",\"valueContract\":";
  writeDescriptor(out, c.valueContract);
  out << ",\"vjpContract\":";
  writeDescriptor(out, c.vjpContract);
  out << ",\"numericalPolicy\":";
  writePolicy(out, c.numericalPolicy);
}

void writeAuditRow(Sink &out, const KernelCapsule &view) {
  out << '{';
  enumField(out, "op", view.op);
  out << ",\"capsuleName\":";
  out.jsonString(view.name);
  out << ',';
  enumField(out, "provider", view.provider);
  out << ',';
  enumField(out, "device", view.device);
  out << ',';
  enumField(out, "trustLevel", view.trustLevel);
  out << ',';
  enumField(out, "vjpMode", view.vjpMode);
  writeContractsAndPolicy(out, view);
  out << '}';
}

void writeCapsuleTable(Sink &out, const Interner &interner, const CapsuleKeys &keys) {
  out << "  \"capsules\": {";
  bool first = true;
  for (CapsuleId id : keys.order()) {
    out << (first ? "\n    " : ",\n    ");
    first = false;
    out.jsonString(keys.key(id));
    out << ": ";
    writeCapsule(out, interner.capsule(id));
  }
  out << (first ? "},\n" : "\n  },\n");
}

} // namespace

CapsuleKeys::CapsuleKeys(const Interner &interner, std::span<const CapsuleId> inOrderOfUse) {
  // Names come from the input: keyed hashing (ref/hash.hpp).
  std::unordered_map<std::string, std::size_t, KeyedHash> seenNames; // name -> capsules so far
  std::unordered_set<std::string, KeyedHash> taken;
  for (CapsuleId id : inOrderOfUse) {
    if (keys_.count(id))
      continue;
    const std::string &name = interner.capsule(id).name;
    std::size_t &n = seenNames[name];
    std::string key;
    do {
      ++n;
      key = n == 1 ? name : name + "#" + std::to_string(n);
    } while (taken.count(key));
    taken.insert(key);
    keys_.emplace(id, key);
    order_.push_back(id);
  }
}

void writeCapsule(Sink &out, const KernelCapsule &c) {
  out << "{\"name\":";
  out.jsonString(c.name);
  out << ',';
  enumField(out, "op", c.op);
  out << ',';
  enumField(out, "provider", c.provider);
  out << ',';
  enumField(out, "device", c.device);
  out << ',';
  enumField(out, "trustLevel", c.trustLevel);
  out << ",\"supportsForward\":" << (c.supportsForward ? "true" : "false") << ',';
  enumField(out, "vjpMode", c.vjpMode);
  writeContractsAndPolicy(out, c);
  out << ",\"notes\":";
  out.jsonString(c.notes);
  out << '}';
}

void writeKind(Sink &out, const OpKind &kind) {
  if (isBare(kind.tag)) {
    out << '"' << spelling(kind.tag) << '"';
    return;
  }
  const KindSignature &sig = signature(kind.tag);
  out << "{\"tag\":\"" << spelling(kind.tag) << '"';
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    out << ",\"" << sig.params[i].name << "\":";
    const auto &values = kind.params[i];
    if (sig.params[i].type == ParamType::natural) {
      out << (values.empty() ? std::uint64_t{0} : values.front());
    } else {
      out << '[';
      for (std::size_t j = 0; j < values.size(); ++j) {
        if (j)
          out << ',';
        out << values[j];
      }
      out << ']';
    }
  }
  out << '}';
}

void writeKernel(Sink &out, const Interner &interner, const PlannedNodeKernel &k,
                 const std::string *key) {
  out << "{\"nodeId\":" << k.nodeId << ",\"kind\":";
  writeKind(out, interner.kind(k.kind));
  out << ",\"op\":\"" << spelling(k.op) << "\",\"capsule\":";
  if (key)
    out.jsonString(*key);
  else
    writeCapsule(out, interner.capsule(k.capsule));
  out << '}';
}

namespace {

/// A group on one line; `kind(id)` writes a kind, `capsule()` the group's capsule reference.
template <class WriteKind, class WriteCapsule>
void groupJson(Sink &out, const LoweredKernelGroup &g, WriteKind &&kind, WriteCapsule &&capsule) {
  out << "{\"nodeIds\":[";
  for (std::size_t j = 0; j < g.nodeIds.size(); ++j) {
    if (j)
      out << ',';
    out << g.nodeIds[j];
  }
  out << "],\"kinds\":[";
  for (std::size_t j = 0; j < g.kinds.size(); ++j) {
    if (j)
      out << ',';
    kind(g.kinds[j]);
  }
  out << "],\"op\":\"" << spelling(g.op) << "\",\"capsule\":";
  capsule();
  out << ",\"groupingKind\":\"" << spelling(g.groupingKind) << "\"}";
}

} // namespace

const std::string &GroupWriter::kindText(KindId id) {
  const auto i = static_cast<std::size_t>(id);
  if (i >= kinds_.size())
    kinds_.resize(i + 1);
  if (kinds_[i].empty()) {
    Sink s(kinds_[i]);
    writeKind(s, interner_.kind(id));
    s.flush();
  }
  return kinds_[i];
}

const std::string &GroupWriter::capsuleText(CapsuleId id, const std::string *key) {
  const auto i = static_cast<std::size_t>(id);
  if (i >= capsules_.size())
    capsules_.resize(i + 1);
  if (capsules_[i].empty()) {
    Sink s(capsules_[i]);
    if (key)
      s.jsonString(*key);
    else
      writeCapsule(s, interner_.capsule(id));
    s.flush();
  }
  return capsules_[i];
}

void GroupWriter::write(Sink &out, const LoweredKernelGroup &g, const std::string *key) {
  groupJson(
      out, g, [&](KindId id) { out << std::string_view(kindText(id)); },
      [&] { out << std::string_view(capsuleText(g.capsule, key)); });
}

void writeExecutionPlan(Sink &out, const Interner &interner, const GraphExecutionPlan &plan) {
  const CapsuleKeys keys = capsuleKeysOf(interner, plan.kernels);
  out << "{\n  \"format\": \"nn-backend/graph-execution-plan\",\n  \"version\": 1,\n";
  writeCapsuleTable(out, interner, keys);
  out << "  \"kernels\": [";
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    out << (i ? ",\n    " : "\n    ");
    writeKernel(out, interner, plan.kernels[i], &keys.key(plan.kernels[i].capsule));
  }
  out << (plan.kernels.empty() ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
}

void writeAudit(Sink &out, const Interner &interner, const AuditDocument &audit,
                std::string_view indent) {
  const std::string in(indent);
  out << "{\n"
      << in << "  \"format\": \"nn-backend/execution-audit\",\n"
      << in << "  \"version\": 1,\n"
      << in << "  \"kernels\": [";
  std::vector<std::string> rowText; // by the row's view id: a plan repeats a few rows
  for (std::size_t i = 0; i < audit.audit.kernels.size(); ++i) {
    out << (i ? ",\n" : "\n") << in << "    ";
    const auto view = static_cast<std::size_t>(audit.audit.kernels[i].view);
    if (view >= rowText.size())
      rowText.resize(view + 1);
    if (rowText[view].empty()) {
      Sink s(rowText[view]);
      writeAuditRow(s, interner.capsule(audit.audit.kernels[i].view));
      s.flush();
    }
    out << std::string_view(rowText[view]);
  }
  out << (audit.audit.kernels.empty() ? "],\n" : "\n" + in + "  ],\n");
  out << in << "  \"capsuleNames\": [";
  for (std::size_t i = 0; i < audit.capsuleNames.size(); ++i) {
    if (i)
      out << ',';
    out.jsonString(audit.capsuleNames[i]);
  }
  out << "],\n" << in << "  \"trustLevels\": [";
  for (std::size_t i = 0; i < audit.trustLevels.size(); ++i)
    out << (i ? ",\"" : "\"") << spelling(audit.trustLevels[i]) << '"';
  out << "],\n" << in << "  \"trustedExternalOps\": [";
  for (std::size_t i = 0; i < audit.trustedExternalOps.size(); ++i)
    out << (i ? ",\"" : "\"") << spelling(audit.trustedExternalOps[i]) << '"';
  out << "],\n"
      << in << "  \"hasTrustedExternal\": " << (audit.hasTrustedExternal ? "true" : "false") << '\n'
      << in << '}';
}

void writeLoweringPlan(Sink &out, const Interner &interner, const GraphLoweringPlan &plan,
                       Mode mode, Equality equality, const AuditDocument *audit) {
  const CapsuleKeys keys = capsuleKeysOf(interner, plan.groups);
  out << "{\n  \"format\": \"nn-backend/graph-lowering-plan\",\n  \"version\": 1,\n"
      << "  \"mode\": \"" << spelling(mode) << "\",\n  \"equality\": \"" << spelling(equality)
      << "\",\n";
  writeCapsuleTable(out, interner, keys);
  out << "  \"groups\": [";
  GroupWriter groups(interner);
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    out << (i ? ",\n    " : "\n    ");
    groups.write(out, plan.groups[i], &keys.key(plan.groups[i].capsule));
  }
  out << (plan.groups.empty() ? "]" : "\n  ]");
  if (audit) {
    out << ",\n  \"audit\": ";
    writeAudit(out, interner, *audit, "  ");
  }
  out << "\n}\n";
  out.flush();
}

void writeAuditText(Sink &out, const Interner &interner, const ExecutionAudit &audit,
                    bool detailed) {
  std::size_t opWidth = 2, nameWidth = 7;
  const std::size_t indexWidth =
      1 + std::to_string(audit.kernels.empty() ? 0 : audit.kernels.size() - 1).size();
  for (const auto &row : audit.kernels) {
    const auto &v = interner.capsule(row.view);
    opWidth = std::max(opWidth, spelling(v.op).size());
    nameWidth = std::max(nameWidth, printable(v.name).size());
  }
  auto pad = [&](std::string_view s, std::size_t w) {
    out << s;
    for (std::size_t i = s.size(); i < w; ++i)
      out << ' ';
  };
  std::size_t trusted = 0;
  for (std::size_t i = 0; i < audit.kernels.size(); ++i) {
    const auto &v = interner.capsule(audit.kernels[i].view);
    if (isTrustedExternal(v))
      ++trusted;
    const std::string index = "#" + std::to_string(i);
    pad(index, indexWidth);
    out << "  ";
    pad(spelling(v.op), opWidth);
    out << "  ";
    pad(printable(v.name), nameWidth);
    out << "  provider=" << spelling(v.provider) << " device=" << spelling(v.device)
        << " trust=" << spelling(v.trustLevel) << " vjp=" << spelling(v.vjpMode)
        << " numerics=" << spelling(v.numericalPolicy.rounding) << '/'
        << spelling(v.numericalPolicy.subnormals) << '/' << spelling(v.numericalPolicy.contraction)
        << '/' << spelling(v.numericalPolicy.reduction) << '\n';
    if (detailed)
      for (const ObligationReport &r : obligationReports(interner, audit.kernels[i]))
        out << "    " << spelling(r.obligation) << ": " << claimLabel(r.claim) << "; "
            << evidenceLabel(r.evidence) << '\n';
  }
  out << std::uint64_t{audit.kernels.size()} << (audit.kernels.size() == 1 ? " row" : " rows")
      << "; trusted-external: ";
  if (trusted == 0)
    out << "none";
  bool first = true;
  for (BackendOp op : trustedExternalOps(interner, audit)) {
    out << (first ? "" : ", ") << spelling(op);
    first = false;
  }
  out << '\n';
  out.flush();
}

std::string executionPlanJson(const Interner &interner, const GraphExecutionPlan &plan) {
  std::string s;
  Sink out(s);
  writeExecutionPlan(out, interner, plan);
  return s;
}

std::string loweringPlanJson(const Interner &interner, const GraphLoweringPlan &plan, Mode mode,
                             Equality equality, const AuditDocument *audit) {
  std::string s;
  Sink out(s);
  writeLoweringPlan(out, interner, plan, mode, equality, audit);
  return s;
}

} // namespace lo::io
