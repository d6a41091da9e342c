// The audit/execution-plan view: `PlannedKernel`, `ExecutionPlan`, `KernelAudit`,
// `ExecutionAudit` (docs/spec.md §1.4, Audit.lean in the original): what the chosen capsules
// mean for trust, one row per kernel or group (provider, device, trust level, evidence), and the
// plan's trusted-external boundary.
#pragma once

#include "ref/interner.hpp"
#include "ref/text_list.hpp"

#include <string>
#include <vector>

namespace lo {

/// A row of the execution-plan view: an op and the capsule selected for it.
struct PlannedKernel {
  BackendOp op = BackendOp::relu;
  CapsuleId capsule{};
  bool operator==(const PlannedKernel &) const = default;
};

struct ExecutionPlan {
  std::vector<PlannedKernel> kernels;
  bool operator==(const ExecutionPlan &) const = default;
};

/// One audit row (docs/spec.md §1.4): `op` from the group, the other fields (`capsuleName`,
/// `provider`, `device`, `trustLevel`, `vjpMode`, the contracts, `numericalPolicy`) from its
/// capsule.
///
/// The row's fields other than `op` are held as an interned capsule, `view`, whose `name` is the
/// row's capsuleName, whose `op` is the row's op, and whose fields the audit does not show
/// (`supportsForward`, `notes`) are at their defaults. Two rows are equal exactly when their views
/// are, so comparing rows is O(1).
struct KernelAudit {
  CapsuleId view{};
  bool operator==(const KernelAudit &) const = default;
};

/// The audit row as a record (ref/record.hpp): the fields of its view, in the order of
/// docs/spec.md §2.6, `capsuleName` for the capsule's `name`.
struct AuditRow;
template <> struct RecordTable<AuditRow> {
  using Value = KernelCapsule;
  using K = KernelCapsule;
  static constexpr std::string_view what = "an audit row";
  static constexpr auto fields =
      std::tuple{field("op", &K::op),
                 field("capsuleName", &K::name).says("a capsule name").with(kFieldVerbatim),
                 field("provider", &K::provider),
                 field("device", &K::device),
                 field("trustLevel", &K::trustLevel),
                 field("vjpMode", &K::vjpMode).defaulted(),
                 field("shapeContract", &K::shapeContract),
                 field("layoutContract", &K::layoutContract),
                 field("valueContract", &K::valueContract),
                 field("vjpContract", &K::vjpContract),
                 field("numericalPolicy", &K::numericalPolicy).requiredOnlyIn(kLineageEditions)};
};

/// The audit projection of a capsule selected for `op` (see KernelAudit).
KernelCapsule auditView(BackendOp op, const KernelCapsule &capsule);

/// `KernelAudit.ofPlannedKernel`: build an audit row from a selected planner kernel.
KernelAudit ofPlannedKernel(Interner &interner, const PlannedKernel &k);

/// `KernelAudit.isTrustedExternal`.
bool isTrustedExternal(const Interner &interner, const KernelAudit &row);

struct ExecutionAudit {
  std::vector<KernelAudit> kernels;
  bool operator==(const ExecutionAudit &) const = default;
};

/// `ExecutionPlan.audit`: one row per planned kernel.
ExecutionAudit audit(Interner &interner, const ExecutionPlan &p);

/// The selected capsules' names, in plan order.
std::vector<std::string> capsuleNames(const Interner &interner, const ExecutionAudit &a);
/// The selected capsules' trust levels, in plan order.
std::vector<TrustLevel> trustLevels(const Interner &interner, const ExecutionAudit &a);
/// The ops whose selected capsule is trusted-external.
std::vector<BackendOp> trustedExternalOps(const Interner &interner, const ExecutionAudit &a);
/// Whether some selected capsule is trusted-external.
bool hasTrustedExternal(const Interner &interner, const ExecutionAudit &a);

/// An ExecutionAudit as a file carries it: the rows and the four derived views, each as written.
/// A candidate's file may state views that do not follow from its rows; the `audit` check says so.
struct AuditDocument {
  ExecutionAudit audit;
  TextList capsuleNames;
  std::vector<TrustLevel> trustLevels;
  std::vector<BackendOp> trustedExternalOps;
  bool hasTrustedExternal = false;
  bool operator==(const AuditDocument &) const = default;
};

/// The document for an audit, with every view derived from its rows.
AuditDocument toDocument(const Interner &interner, ExecutionAudit a);

} // namespace lo
