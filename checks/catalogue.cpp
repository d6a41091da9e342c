#include "checks/catalogue.hpp"

#include <array>

namespace lo::checks {

namespace {

constexpr std::array<CheckInfo, vocabularySize<Check>()> kInfo{{
    {Check::provenance,
     "the groups' ids, concatenated, are not the plan's ids as a multiset (missing, extra, "
     "repeated)",
     "Every planned node must be lowered exactly once: a node of the plan that is in no group is "
     "missing, an id the plan does not have is extra, and an id listed twice is repeated. Each "
     "such id is one finding; a dropped node is not also reported as an order problem.",
     std::nullopt},
    {Check::order, "same multiset, different sequence",
     "The groups, read in order, must list the nodes in graph order. Judged only when provenance "
     "holds. The nodes that keep their relative order are taken as a longest increasing "
     "subsequence; each run of displaced nodes is one finding, so two swapped groups are one "
     "finding.",
     std::nullopt},
    {Check::emptyGroup, "a group has no nodes",
     "A group is one backend call for at least one planned node; a group with an empty `nodeIds` "
     "is reported once and not judged by the other per-group checks.",
     std::nullopt},
    {Check::kinds, "`kinds` is not, position by position, the kinds of the group's nodes",
     "`kinds[i]` must be the plan kind of `nodeIds[i]`, parameters included; a group is one "
     "finding whether one or several positions differ, or the two lists differ in length.",
     std::nullopt, true},
    {Check::op, "the group's op differs from a member's op",
     "A group's `op` must be the op of every node in it (a lowering only coalesces nodes of one "
     "op). One finding per group, naming the first node that differs.",
     std::nullopt},
    {Check::capsule,
     "contract: the group's capsule is not equal to every member's; identity: not equal to the "
     "first member's, or a member's capsule differs in identity",
     "Under equality contract the group's capsule must equal, field for field, the capsule the "
     "plan chose for each of its nodes; under identity it must be exactly its first node's, and "
     "the others must share name, op, provider and device with it. The message names the first "
     "field that differs and says when the group hides a trusted-external node.",
     std::nullopt},
    {Check::groupingKind, "not `singleton` for one node and `sameCapsuleRun` for two or more",
     "`groupingKind` records why nodes share a group: `singleton` for a group of one node, "
     "`sameCapsuleRun` for a coalesced run of two or more.",
     std::nullopt, true},
    {Check::singleton, "mode singleton and a group holds more than one node",
     "The singleton lowering gives one group per planned node; a group of several nodes is one "
     "finding.",
     Mode::singleton, true},
    {Check::maximal,
     "mode coalesced and two adjacent groups could be one (`canAppend` across the boundary)",
     "The coalesced lowering appends a node to the previous group whenever `canAppend` holds "
     "(same op, same capsule under the checked equality), so no two adjacent groups of plan-"
     "adjacent nodes may be joinable.",
     Mode::coalesced},
    {Check::audit,
     "an audit in the candidate differs from the audit derived from its groups, or a group's "
     "audit row differs from the singleton audit row of one of its nodes, or the audit was asked "
     "for and the candidate carries none (`diff` asks it of some cases and with `--audit` of "
     "all, a suite entry with `\"audit\": true`)",
     "A carried audit must have one row per group, derived from the group's op and capsule, and "
     "views (capsuleNames, trustLevels, trustedExternalOps, hasTrustedExternal) that follow from "
     "its rows. A group's row must equal the singleton row of its nodes; under equality identity "
     "a later node whose row differs (trust level, evidence) is what the identity lowering gives, "
     "and is told as a note, not a violation. Differences that hide a trusted-external boundary "
     "are reported by trust-boundary instead. When the audit is asked for (diff, a suite "
     "entry), a candidate without one violates audit at /audit.",
     std::nullopt},
    {Check::trustBoundary,
     "the candidate's audit hides a trusted-external boundary that the singleton lowering shows",
     "A row, or a view, of the audit shows a node's capsule as not trusted-external where the "
     "groups (and the singleton lowering) say it is trusted-external. Such a forged or lossy "
     "audit is the most serious audit finding and is reported here, once, not also as audit.",
     std::nullopt},
    {Check::gate,
     "under one of the policies `verified`, `checked`, `external`, the gate of the candidate's "
     "groups differs from the gate of the plan's singleton lowering: another verdict, other "
     "failure kinds, or another set of reports for a kind",
     "The gate (docs/spec.md §6) decides from the evidence of the audit's contracts whether a "
     "plan may run; coalescing must never change that decision. This check gates the "
     "candidate's groups as written and the plan one row per node under each preset, and tells "
     "the most severe difference in one finding: the policy, the two verdicts, the failure kind "
     "and one report the candidate loses (with the plan node that has it and the group that "
     "lists the node) or adds. It names the consequence of a mistake another check names (a "
     "wrong capsule, op or membership): how it changes a deployment decision. Under equality "
     "identity, a gate that differs only by the later members of a group is what the identity "
     "lowering gives, and is told as a note.",
     std::nullopt},
}};

LoweredKernelGroup group(std::vector<const PlannedNodeKernel *> nodes) {
  LoweredKernelGroup g = toSingletonLoweredGroup(*nodes.front());
  for (std::size_t i = 1; i < nodes.size(); ++i)
    appendNode(g, *nodes[i]);
  return g;
}

} // namespace

const CheckInfo &info(Check check) { return kInfo[static_cast<std::size_t>(check)]; }

bool appliesIn(Check check, Mode mode, Edition edition) {
  const CheckInfo &i = info(check);
  return (!i.onlyIn || *i.onlyIn == mode) && (!i.needsGroupKinds || rulesOf(edition).groupKinds);
}

std::optional<std::string> notRunNote(Edition edition) {
  if (rulesOf(edition).groupKinds)
    return std::nullopt;
  std::string names;
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c)
    if (info(static_cast<Check>(c)).needsGroupKinds)
      names += (names.empty() ? "" : ", ") + std::string(spelling(static_cast<Check>(c)));
  return "not run in edition " + std::string(spelling(edition)) + ": " + names +
         " (its groups have no kinds and no groupingKind, and it has no singleton lowering)";
}

Example example(Interner &in, Check check) {
  const CapsuleId relu = in.intern(sampleCapsule("reference.relu", BackendOp::relu));
  const CapsuleId tanh = in.intern(sampleCapsule("reference.tanh", BackendOp::tanh));
  const CapsuleId external =
      in.intern(sampleCapsule("vendor.relu", BackendOp::relu, TrustLevel::trusted_external,
                              Provider::external, Device::external));
  const KindId reluKind = Interner::bareKind(KindTag::relu);
  const KindId tanhKind = Interner::bareKind(KindTag::tanh);

  Example ex;
  ex.options = Options{};
  ex.options.edition = kNewestSeedEdition;
  auto &plan = ex.plan.kernels;
  auto &groups = ex.candidate.plan.groups;
  ex.candidate.mode = Mode::coalesced;
  ex.candidate.equality = Equality::contract;
  // The plans most examples start from: one relu node with `capsule` in its own group, or two relu
  // nodes of reference.relu.
  auto oneRelu = [&](CapsuleId capsule) {
    plan = {{1, reluKind, BackendOp::relu, capsule}};
    groups = {group({&plan[0]})};
  };
  auto twoRelus = [&] {
    plan = {{1, reluKind, BackendOp::relu, relu}, {2, reluKind, BackendOp::relu, relu}};
  };
  // The candidate's audit: the row of its one group, changed by `edit`.
  auto auditWithRow = [&](auto &&edit) {
    KernelCapsule row = in.capsule(ofPlannedKernel(in, toPlannedKernel(groups[0])).view);
    edit(row);
    ex.candidate.audit = toDocument(in, ExecutionAudit{{KernelAudit{in.intern(row)}}});
  };
  switch (check) {
  case Check::provenance:
    plan = {{1, reluKind, BackendOp::relu, relu},
            {2, reluKind, BackendOp::relu, relu},
            {3, tanhKind, BackendOp::tanh, tanh}};
    groups = {group({&plan[0], &plan[1]})};
    ex.story = "node 3 was dropped";
    ex.alongside = Check::gate; // node 3's obligation reports are lost with it
    break;
  case Check::order:
    plan = {{1, reluKind, BackendOp::relu, relu}, {2, tanhKind, BackendOp::tanh, tanh}};
    groups = {group({&plan[1]}), group({&plan[0]})};
    ex.story = "the two groups are swapped";
    break;
  case Check::emptyGroup:
    plan = {{1, reluKind, BackendOp::relu, relu}, {2, tanhKind, BackendOp::tanh, tanh}};
    groups = {group({&plan[0]}),
              LoweredKernelGroup{{}, {}, BackendOp::tanh, tanh, GroupingKind::singleton},
              group({&plan[1]})};
    ex.story = "an empty group was inserted between the two groups";
    break;
  case Check::kinds:
    oneRelu(relu);
    groups[0].kinds = {tanhKind};
    ex.story = "the group lists kind tanh for a relu node";
    break;
  case Check::op:
    oneRelu(relu);
    groups[0].op = BackendOp::tanh;
    ex.story = "the group's op is tanh, but its node's op is relu";
    ex.alongside = Check::gate; // the group's reports name op tanh, the node's op relu
    break;
  case Check::capsule:
    // cudnn.relu, but with reference.relu's name: its reports (and so the gate) are the same.
    plan = {{1, reluKind, BackendOp::relu, relu},
            {2, reluKind, BackendOp::relu,
             in.intern(sampleCapsule("reference.relu", BackendOp::relu, TrustLevel::checked,
                                     Provider::cudnn, Device::cuda))}};
    groups = {group({&plan[0], &plan[1]})};
    ex.story = "two nodes with different capsules were merged into one group";
    break;
  case Check::groupingKind:
    oneRelu(relu);
    groups[0].groupingKind = GroupingKind::sameCapsuleRun;
    ex.story = "a group of one node says sameCapsuleRun";
    break;
  case Check::singleton:
    twoRelus();
    groups = {group({&plan[0], &plan[1]})};
    ex.options.mode = Mode::singleton;
    ex.candidate.mode = Mode::singleton;
    ex.story = "in mode singleton, two nodes share a group";
    break;
  case Check::maximal:
    twoRelus();
    groups = {group({&plan[0]}), group({&plan[1]})};
    ex.story = "in mode coalesced, two nodes with the same op and capsule were not coalesced";
    break;
  case Check::audit:
    oneRelu(relu);
    auditWithRow([](KernelCapsule &row) { row.vjpMode = VJPMode::backend_vjp; });
    ex.story = "the audit row says vjpMode backend-vjp, but the group's capsule says none";
    break;
  case Check::trustBoundary:
    oneRelu(external);
    auditWithRow([](KernelCapsule &row) { row.trustLevel = TrustLevel::checked; });
    ex.story = "the audit relabels the trusted-external row as checked";
    break;
  case Check::gate: {
    // Two capsules of one identity, runtime-guarded; the second's value contract rests on a
    // trusted boundary. Policy checked rejects the plan and accepts the merged group.
    KernelCapsule guarded = sampleCapsule("native_cuda.relu", BackendOp::relu, TrustLevel::checked,
                                          Provider::native_cuda, Device::cuda);
    for (auto *d : {&guarded.shapeContract, &guarded.layoutContract, &guarded.valueContract,
                    &guarded.vjpContract})
      d->evidence = {ContractEvidence::Tag::runtimeGuard, "CUDA FFI checks"};
    KernelCapsule vendor = guarded;
    vendor.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
    const CapsuleId first = in.intern(guarded), second = in.intern(vendor);
    plan = {{1, reluKind, BackendOp::relu, first}, {2, reluKind, BackendOp::relu, second}};
    groups = {group({&plan[0], &plan[1]})};
    ex.alongside = Check::capsule;
    ex.story = "two capsules of one identity were merged, and the trusted boundary of the "
               "second's value contract is lost: policy checked accepts what it must reject";
    break;
  }
  }
  return ex;
}

} // namespace lo::checks
