#!/usr/bin/env python3
"""Wrong implementations that `diff` must catch, each derived from conforming.py by one mistake in
reading the spellings docs/spec.md §2 allows (and one in the equality).

usage: mutants.py --mutant NAME PLAN OUT [MODE [EQUALITY [AUDIT]]]
       mutants.py --list

Every mutant lowers a canonically spelled plan (what `lowering-oracle lower` writes: defaults
written out, fields in the writer's order, no escapes, kinds without parameters as bare strings,
one key per capsule) exactly as conforming.py does; each goes wrong only on another spelling of
the same plan:

  as-written         compares capsules as written: no default filling, so "supportsForward": true
                     written out and left out are different capsules to it
  top-defaults-only  fills the capsule's own defaults (supportsForward, vjpMode, notes) but not the
                     nested ones (each numericalPolicy field, a descriptor's provenance)
  key-compare        ignores the table key's target: two kernels that name capsules by key are
                     compared by key (a key and an inline capsule never compare equal)
  text-compare       compares the JSON text of the default-filled capsules, so field order counts
  bare-kinds-only    reads a kind without parameters only as a bare string: {"tag": "relu"} is
                     rejected
  positional-params  reads an object kind's parameters in the order written, not by name
  raw-strings        ignores escapes: string values are kept as written ("\\u0041" is not "A")
  requires-format    rejects a plan without "format" or "version"
  identity           the equality `identity` whatever it is asked (identity.py)
  dedup-external-ops an audit whose trustedExternalOps lists each op once (docs/spec.md §2.6 lists
                     one per trusted-external row): seen only when the audit is asked
"""
import json
import json.scanner
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402

# The parameters of the kinds with more than one, by name, in the spec's order.
PARAMS = {
    "conv2d": ["inC", "outC", "kH", "kW", "stride", "padding"],
    "max_pool2d": ["kH", "kW", "stride"], "avg_pool2d": ["kH", "kW", "stride"],
    "max_pool2d_pad": ["kH", "kW", "stride", "padding"],
    "avg_pool2d_pad": ["kH", "kW", "stride", "padding"],
    "broadcastTo": ["s1", "s2"], "reshape": ["inShape", "outShape"],
}


def normalize_top_only(capsule):
    c = dict(capsule)
    c.setdefault("supportsForward", True)
    c.setdefault("vjpMode", "none")
    c.setdefault("notes", "")
    c.setdefault("numericalPolicy", dict(conforming.POLICY_DEFAULTS))  # only when absent as a whole
    return c


def lower_by_reference(plan, mode, same):
    """conforming.lower, but a kernel that names its capsule by key is compared by that key."""
    table = plan.get("capsules", {})
    groups, refs = [], []
    for k in plan["kernels"]:
        by_key = isinstance(k["capsule"], str)
        capsule = conforming.normalize(table[k["capsule"]] if by_key else k["capsule"])
        ref = ("key", k["capsule"]) if by_key else ("inline", capsule)
        last = groups[-1] if groups else None
        if mode == "coalesced" and last and last["op"] == k["op"] and \
                (refs[-1] == ref if by_key or refs[-1][0] == "key" else same(last["capsule"], capsule)):
            last["nodeIds"].append(k["nodeId"])
            last["kinds"].append(k["kind"])
            last["groupingKind"] = "sameCapsuleRun"
        else:
            groups.append({"nodeIds": [k["nodeId"]], "kinds": [k["kind"]], "op": k["op"],
                           "capsule": capsule, "groupingKind": "singleton"})
            refs.append(ref)
    return groups


def bare_kinds_only(plan):
    for k in plan["kernels"]:
        if isinstance(k["kind"], dict) and len(k["kind"]) == 1:
            sys.exit("mutant: kind %r has no parameters: expected a bare string" % k["kind"]["tag"])
    return plan


def positional_params(plan):
    for k in plan["kernels"]:
        kind = k["kind"]
        if isinstance(kind, dict) and kind["tag"] in PARAMS:
            values = [v for name, v in kind.items() if name != "tag"]
            k["kind"] = {"tag": kind["tag"], **dict(zip(PARAMS[kind["tag"]], values))}
    return plan


def requires_format(plan):
    if plan.get("format") != "nn-backend/graph-execution-plan" or plan.get("version") != 1:
        sys.exit("mutant: not a graph-execution-plan (format and version are required)")
    return plan


def load_raw(f):
    """json.load, except that string values keep their escapes undecoded."""
    def raw_string(s, end, strict=True):
        i = end
        while s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        return s[end:i], i + 1
    decoder = json.JSONDecoder()
    decoder.parse_string = raw_string
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    return decoder.decode(f.read())


def main(argv):
    if argv[1:2] == ["--list"]:
        print("\n".join(MUTANTS))
        return
    if len(argv) < 5 or argv[1] != "--mutant" or argv[2] not in MUTANTS:
        sys.exit(__doc__)
    name, args = argv[2], [argv[0]] + argv[3:]
    plan_path, out = args[1], args[2]
    mode = args[3] if len(args) > 3 else "coalesced"
    equality = args[4] if len(args) > 4 else "contract"
    audit = len(args) > 5 and args[5] == "true"  # the audit asked for, as conforming.py writes it
    same = conforming.same_identity if equality == "identity" else conforming.same_contract
    with open(plan_path, encoding="utf-8") as f:
        plan = load_raw(f) if name == "raw-strings" else json.load(f)
    normalize = conforming.normalize
    if name == "as-written":
        conforming.normalize = dict
    elif name == "top-defaults-only":
        conforming.normalize = normalize_top_only
    elif name == "text-compare":
        def same(a, b):  # noqa: F811 (the mutant's equality)
            return json.dumps(a) == json.dumps(b)
    elif name == "identity":
        same = conforming.same_identity
    audit_of = conforming.audit_of
    if name == "dedup-external-ops":
        def dedup(groups):
            a = audit_of(groups)
            a["trustedExternalOps"] = list(dict.fromkeys(a["trustedExternalOps"]))
            return a
        conforming.audit_of = dedup
    try:
        plan = MUTANTS[name](plan)
        lower = lower_by_reference if name == "key-compare" else conforming.lower
        groups = lower(plan, mode, same)
        conforming.write(groups, mode, equality, out, audit)
    finally:
        conforming.normalize = normalize
        conforming.audit_of = audit_of


MUTANTS = {
    "as-written": lambda p: p, "top-defaults-only": lambda p: p, "key-compare": lambda p: p,
    "text-compare": lambda p: p, "bare-kinds-only": bare_kinds_only,
    "positional-params": positional_params, "raw-strings": lambda p: p,
    "requires-format": requires_format, "identity": lambda p: p,
    "dedup-external-ops": lambda p: p,
}

if __name__ == "__main__":
    main(sys.argv)
