#!/usr/bin/env python3
"""An independent implementation of the acceptance gate (docs/spec.md §6), written from the spec.

usage: gate.py FILE [--policy verified|checked|external|custom] [--allow-checked B]
               [--allow-fuzzed B] [--allow-trusted-external B] [--require-evidence B]
               [--allow-runtime-guards B] [--allow-test-evidence B]
               [--mode singleton|coalesced] [--equality contract|identity] [-o OUT]

FILE is a GraphExecutionPlan (gated through its lowering under MODE and EQUALITY, lowered by
conforming.py, defaults coalesced and contract) or a GraphLoweringPlan (its groups as written).
Each boolean option (`true` or `false`) overrides that boolean of the preset (docs/spec.md §6.6);
`custom` is `verified` with its overrides (what `diff --gate` passes with the six placeholders).
Prints the gate result (docs/spec.md §6.5) as JSON (to OUT with -o); exit 0 accepted, 1 rejected.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402  (the lowering of docs/spec.md §1.2, both modes, both equalities)

# docs/spec.md §6.1: the four obligations of an audit row, in this order, and their contracts.
OBLIGATIONS = (("shape", "shapeContract"), ("layout", "layoutContract"),
               ("value", "valueContract"), ("vjp", "vjpContract"))

# docs/spec.md §6.1: the disposition is a function of the evidence tag. theorem and checker are
# edition 2026-07's, notApplicable 2026-08's (docs/spec.md §1.6); no rule of the gate lists
# notApplicable, so every policy accepts it.
DISPOSITION = {"theorem": "proved", "checker": "checked", "runtimeGuard": "guarded",
               "testSuite": "tested", "fuzzOracle": "fuzzed", "trustedBoundary": "trusted",
               "notProvided": "missing", "notApplicable": "notApplicable"}

BOOLEANS = ("allowChecked", "allowFuzzed", "allowTrustedExternal", "requireEvidence",
            "allowRuntimeGuards", "allowTestEvidence")

# docs/spec.md §6.2: the presets.
PRESETS = {
    "verified": dict(allowChecked=False, allowFuzzed=False, allowTrustedExternal=False,
                     requireEvidence=True, allowRuntimeGuards=False, allowTestEvidence=False),
    "checked": dict(allowChecked=True, allowFuzzed=True, allowTrustedExternal=False,
                    requireEvidence=True, allowRuntimeGuards=True, allowTestEvidence=True),
    "external": dict(allowChecked=True, allowFuzzed=True, allowTrustedExternal=True,
                     requireEvidence=True, allowRuntimeGuards=True, allowTestEvidence=True),
}


def policy_name(policy):
    """docs/spec.md §6.2: a policy is named after the preset it equals, else `custom`."""
    for name, preset in PRESETS.items():
        if all(policy[b] == preset[b] for b in BOOLEANS):
            return name
    return "custom"


def audit_rows(doc, mode, equality):
    """docs/spec.md §6.4 and §1.4: one (op, capsule) row per group of the lowering, in order."""
    # docs/spec.md §2.1: `format` is optional on input; a lowering plan has groups, a plan kernels.
    fmt = doc.get("format") or ("nn-backend/graph-lowering-plan" if "groups" in doc
                                else "nn-backend/graph-execution-plan")
    if fmt == "nn-backend/graph-lowering-plan":
        table = doc.get("capsules", {})
        return [(g["op"], conforming.normalize(table[g["capsule"]] if isinstance(g["capsule"], str)
                                               else g["capsule"]))
                for g in doc["groups"]]
    if fmt != "nn-backend/graph-execution-plan":
        raise ValueError("neither a graph-execution-plan nor a graph-lowering-plan")
    same = conforming.same_identity if equality == "identity" else conforming.same_contract
    return [(g["op"], g["capsule"]) for g in conforming.lower(doc, mode, same)]


def bounded(text):
    """`text` bounded as docs/spec.md §6.5, "Bound", says, written from the spec."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= 1024:
        return text
    cut = 1024
    while cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return data[:cut].decode("utf-8", "surrogatepass") + "..."


def bounded_fields(obj, names):
    """`obj` with each of `names` it has bounded."""
    return {k: bounded(v) if k in names and isinstance(v, str) else v for k, v in obj.items()}


def obligation_reports(rows):
    """docs/spec.md §6.1: per row, in row order, four reports: shape, layout, value, vjp; their
    capsule name, claim spec and evidence text bounded (§6.5)."""
    reports = []
    for op, capsule in rows:
        for obligation, field in OBLIGATIONS:
            contract = capsule[field]
            reports.append({"op": op, "capsuleName": bounded(capsule["name"]),
                            "obligation": obligation,
                            "claim": bounded_fields(contract["claim"], ("spec",)),
                            "evidence": bounded_fields(contract["evidence"], ("name", "reason")),
                            "disposition": DISPOSITION[contract["evidence"]["tag"]]})
    return reports


def gate_failures(policy, reports):
    """docs/spec.md §6.3: the failures, in exactly this order, each only when non-empty."""
    rules = (("missingEvidence", "missing", policy["requireEvidence"]),
             ("runtimeGuardEvidence", "guarded", not policy["allowRuntimeGuards"]),
             ("testEvidence", "tested", not policy["allowTestEvidence"]),
             ("trustedBoundary", "trusted", not policy["allowTrustedExternal"]),
             ("fuzzEvidence", "fuzzed", not policy["allowFuzzed"]))
    failures = []
    for kind, disposition, applies in rules:
        if applies:
            listed = [r for r in reports if r["disposition"] == disposition]
            if listed:
                failures.append({"kind": kind, "reports": listed})
    return failures


def gate_result(doc, policy, mode="coalesced", equality="contract"):
    """docs/spec.md §6.5: the gate result of a plan or lowering plan."""
    failures = gate_failures(policy, obligation_reports(audit_rows(doc, mode, equality)))
    return {"format": "nn-backend/gate-result", "version": 1,
            "policy": {"name": policy_name(policy), **{b: policy[b] for b in BOOLEANS}},
            "verdict": "rejected" if failures else "accepted", "failures": failures}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--policy", choices=sorted(PRESETS) + ["custom"], default="checked")
    for b in BOOLEANS:  # --allow-checked ... --allow-test-evidence
        ap.add_argument("--" + "".join("-" + c.lower() if c.isupper() else c for c in b),
                        dest=b, choices=("true", "false"))
    ap.add_argument("--mode", choices=("singleton", "coalesced"), default="coalesced")
    ap.add_argument("--equality", choices=("contract", "identity"), default="contract")
    ap.add_argument("-o", dest="out", default="-")
    args = ap.parse_args(argv[1:])
    with open(args.file, encoding="utf-8") as f:
        doc = json.load(f)
    policy = dict(PRESETS["verified" if args.policy == "custom" else args.policy])
    policy.update({b: getattr(args, b) == "true" for b in BOOLEANS if getattr(args, b)})
    result = gate_result(doc, policy, args.mode, args.equality)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    json.dump(result, out, ensure_ascii=False)
    out.write("\n")
    out.close() if out is not sys.stdout else out.flush()
    return 0 if result["verdict"] == "accepted" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
