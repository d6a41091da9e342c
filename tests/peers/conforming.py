#!/usr/bin/env python3
"""A small conforming implementation of the two lowerings (docs/spec.md §1.2 and §1.3), for `diff` tests.

usage: conforming.py PLAN OUT [MODE [EQUALITY [AUDIT]]]

Reads a GraphExecutionPlan (capsules by key or inline) and writes the GraphLoweringPlan of MODE
(singleton | coalesced, default coalesced) under EQUALITY (contract | identity, default contract),
with its ExecutionAudit (docs/spec.md §2.6) when AUDIT is `true` (`diff`'s `{audit}`).
"""
import json
import sys

POLICY_DEFAULTS = {"rounding": "unspecified", "subnormals": "unspecified",
                   "contraction": "unspecified", "reduction": "unspecified"}


def normalize(capsule, lineage=False):
    """The capsule record with its defaults filled in, so that equal records compare equal. In the
    lean-dojo lineage (docs/spec.md §1.6) a capsule has no notes and its numerical policy is its
    required reduction alone."""
    c = dict(capsule)
    c.setdefault("supportsForward", True)
    c.setdefault("vjpMode", "none")
    if not lineage:
        c.setdefault("notes", "")
        c["numericalPolicy"] = {**POLICY_DEFAULTS, **c.get("numericalPolicy", {})}
    for field in ("shapeContract", "layoutContract", "valueContract", "vjpContract"):
        c[field] = {"provenance": [], **c[field]}
    return c


# The filling the audit uses: a mutant that compares capsules as written keeps a full audit.
_fill_defaults = normalize


def same_contract(a, b):
    """Equality `contract`: the two capsule records are equal in every field."""
    return a == b


def same_identity(a, b):
    """Equality `identity`: equal name, op, provider and device only."""
    return all(a[f] == b[f] for f in ("name", "op", "provider", "device"))


def lower(plan, mode, same, lineage=False):
    """The groups; in the lean-dojo lineage without `kinds` and `groupingKind`."""
    table = plan.get("capsules", {})
    groups = []
    for k in plan["kernels"]:
        written = table[k["capsule"]] if isinstance(k["capsule"], str) else k["capsule"]
        # (a mutant's normalize takes the capsule alone: tests/peers/mutants.py)
        capsule = normalize(written, lineage) if lineage else normalize(written)
        last = groups[-1] if groups else None
        # canAppend(g, k) = g.op == k.op && same(g.capsule, k.capsule)
        if mode == "coalesced" and last and last["op"] == k["op"] and same(last["capsule"], capsule):
            last["nodeIds"].append(k["nodeId"])
            last["kinds"].append(k["kind"])
            last["groupingKind"] = "sameCapsuleRun"
        else:
            groups.append({"nodeIds": [k["nodeId"]], "kinds": [k["kind"]], "op": k["op"],
                           "capsule": capsule, "groupingKind": "singleton"})
    if lineage:
        for g in groups:
            del g["kinds"], g["groupingKind"]
    return groups


def key_name(name):
    # docs/spec.md §2.5: a name longer than 128 bytes is cut (not inside a character) with "...".
    raw = name.encode("utf-8")
    if len(raw) <= 128:
        return name
    n = 128
    while n > 0 and raw[n] & 0xC0 == 0x80:
        n -= 1
    return raw[:n].decode("utf-8") + "..."


# docs/spec.md §1.4, §2.6: the fields of an audit row, in order, taken from the group's capsule.
ROW_FIELDS = ("provider", "device", "trustLevel", "vjpMode", "shapeContract", "layoutContract",
              "valueContract", "vjpContract", "numericalPolicy")


def audit_of(groups, lineage=False):
    """The ExecutionAudit of the groups (docs/spec.md §1.4): one row per group, then the views (in
    the lean-dojo lineage without `trustLevels`)."""
    # The row's fields with their defaults filled in, whatever equality the lowering used.
    filled = [_fill_defaults(g["capsule"], lineage) for g in groups]
    rows = [{"op": g["op"], "capsuleName": c["name"], **{f: c[f] for f in ROW_FIELDS}}
            for g, c in zip(groups, filled)]
    audit = {"format": "nn-backend/execution-audit", "version": 1, "kernels": rows,
             "capsuleNames": [r["capsuleName"] for r in rows],
             "trustLevels": [r["trustLevel"] for r in rows],
             "trustedExternalOps": [r["op"] for r in rows if r["trustLevel"] == "trusted-external"],
             "hasTrustedExternal": any(r["trustLevel"] == "trusted-external" for r in rows)}
    if lineage:
        del audit["trustLevels"]
    return audit


def write(groups, mode, equality, out, audit=False, lineage=False):
    # (a mutant's audit_of takes the groups alone: tests/peers/mutants.py)
    audited = None if not audit else audit_of(groups, lineage) if lineage else audit_of(groups)
    # Keys: the capsule's name, then name#2, name#3, ... for later distinct capsules of that name.
    keys, capsules = [], {}
    for g in groups:
        for key, c in keys:
            if c == g["capsule"]:
                g["capsule"] = key
                break
        else:
            name = key_name(g["capsule"]["name"])
            n, key = 1, name
            while key in capsules:
                n += 1
                key = "%s#%d" % (name, n)
            keys.append((key, g["capsule"]))
            capsules[key] = g["capsule"]
            g["capsule"] = key
    doc = {"format": "nn-backend/graph-lowering-plan", "version": 1, "mode": mode,
           "equality": equality, "capsules": capsules, "groups": groups}
    if audited is not None:
        doc["audit"] = audited
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False)


def main(argv, same_for=None):
    plan_path, out = argv[1], argv[2]
    mode = argv[3] if len(argv) > 3 else "coalesced"
    equality = argv[4] if len(argv) > 4 else "contract"
    audit = len(argv) > 5 and argv[5] == "true"
    same = same_for or (same_identity if equality == "identity" else same_contract)
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    write(lower(plan, mode, same), mode, equality, out, audit)


if __name__ == "__main__":
    main(sys.argv)
