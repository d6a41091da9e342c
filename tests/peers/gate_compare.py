#!/usr/bin/env python3
"""Compares `lowering-oracle gate` with the independent Python gate of gate.py (docs/spec.md §6).

usage: gate_compare.py LOWERING_ORACLE EXAMPLES_DIR [SEED]

Generates a suite with `gen --edition EDITION --count COUNT --seed SEED` (SEED random unless given;
it is printed), adds one copy of every fifth plan with its capsules' evidence tags redrawn from all
the edition's tags
(deterministically from SEED, so that every disposition and every failure kind is reached), and
gates every plan under each preset x mode x equality, every reference lowering of the suite and
every example under each preset, with both implementations. The parsed results must agree: policy,
verdict, failure kinds in order, and per kind the list of reports (row order, four per row: shape,
layout, value, vjp, docs/spec.md §6.1 and §6.3). Exits 1 at the first difference, shown.
"""
import concurrent.futures
import copy
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from campaign import instance  # noqa: E402

MODES = ("singleton", "coalesced")
EQUALITIES = ("contract", "identity")
KINDS = ("missingEvidence", "runtimeGuardEvidence", "testEvidence", "trustedBoundary",
         "fuzzEvidence")
# Generated plans, each case of `gen` one plan: 24 in the campaign tier, 12 otherwise.
COUNT = instance(12, 24)
# The edition compared (docs/spec.md §1.6): 2026-08, the newest with the evidence gate, whose
# examples are examples/2026-08/.
EDITION = "2026-08"
# The evidence tags of each edition (docs/spec.md §1.6).
EVIDENCE_TAGS = {
    "2026-07": ("theorem", "checker", "runtimeGuard", "testSuite", "fuzzOracle", "trustedBoundary",
                "notProvided"),
    "2026-08": ("runtimeGuard", "testSuite", "fuzzOracle", "trustedBoundary", "notProvided",
                "notApplicable"),
}[EDITION]


def redraw_evidence(plan, rng):
    """The plan with every capsule's four evidence tags drawn again from the edition's tags."""
    plan = copy.deepcopy(plan)
    capsules = list(plan.get("capsules", {}).values())
    capsules += [k["capsule"] for k in plan["kernels"] if isinstance(k["capsule"], dict)]
    for c in capsules:
        for _, field in gate.OBLIGATIONS:
            tag = rng.choice(EVIDENCE_TAGS)
            if tag in ("notProvided", "notApplicable"):
                evidence = {"tag": tag}
            elif tag == "trustedBoundary":
                evidence = {"tag": tag, "reason": "redrawn boundary %d" % rng.randrange(3)}
            else:
                evidence = {"tag": tag, "name": "redrawn %s %d" % (tag, rng.randrange(3))}
            c[field]["evidence"] = evidence
    return plan


def run_cpp(binary, path, policy, mode, equality):
    args = [binary, "gate", path, "--policy", policy, "--format", "json", "--edition", EDITION]
    if mode:
        args += ["--mode", mode, "--equality", equality]
    proc = subprocess.run(args, capture_output=True, timeout=120, check=False)
    if proc.returncode not in (0, 1):
        return None, "exit %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace")[:2000])
    result = json.loads(proc.stdout)
    want = 0 if result.get("verdict") == "accepted" else 1
    if proc.returncode != want:
        return None, "exit %d with verdict %r" % (proc.returncode, result.get("verdict"))
    return result, None


def first_difference(cpp, py):
    """The first difference between two gate results, or None."""
    for field in ("format", "version", "policy", "verdict"):
        if cpp.get(field) != py[field]:
            return "%s: C++ %s, Python %s" % (field, json.dumps(cpp.get(field)),
                                               json.dumps(py[field]))
    ck = [f["kind"] for f in cpp.get("failures", [])]
    pk = [f["kind"] for f in py["failures"]]
    if ck != pk:
        return "failure kinds: C++ %s, Python %s" % (ck, pk)
    for cf, pf in zip(cpp["failures"], py["failures"]):
        cr, pr = cf["reports"], pf["reports"]
        if len(cr) != len(pr):
            return "%s: C++ %d reports, Python %d" % (cf["kind"], len(cr), len(pr))
        for i, (a, b) in enumerate(zip(cr, pr)):
            if a != b:
                return "%s report %d: C++ %s, Python %s" % (cf["kind"], i, json.dumps(a),
                                                             json.dumps(b))
    return None


def main(argv):
    binary, examples = argv[1], argv[2]
    seed = int(argv[3]) if len(argv) > 3 else random.SystemRandom().randrange(1, 2**31)
    print("gate_compare: seed %d (rerun: gate_compare.py %s %s %d)" % (seed, binary, examples,
                                                                        seed), flush=True)
    tmp = tempfile.mkdtemp(prefix="gate_compare.")
    try:
        return compare_all(binary, examples, seed, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare_all(binary, examples, seed, tmp):
    suite = os.path.join(tmp, "suite")
    subprocess.run([binary, "gen", "--out", suite, "--count", str(COUNT), "--seed", str(seed),
                    "--edition", EDITION],
                   check=True, stdout=subprocess.DEVNULL, timeout=300)
    plans = sorted(glob.glob(os.path.join(suite, "cases", "*", "plan.json")))
    lowerings = sorted(p for case in glob.glob(os.path.join(suite, "cases", "*"))
                       for p in glob.glob(os.path.join(case, "*.json"))
                       if p.endswith("coalesced-identity.json"))
    if len(plans) != COUNT or not lowerings:
        print("gate_compare: gen wrote %d plans, %d lowerings" % (len(plans), len(lowerings)))
        return 1
    rng = random.Random(seed)
    redrawn = []
    for i, path in enumerate(plans[::5]):
        with open(path, encoding="utf-8") as f:
            plan = json.load(f)
        out = os.path.join(tmp, "redrawn-%02d.json" % i)
        with open(out, "w", encoding="utf-8") as f:
            json.dump(redraw_evidence(plan, rng), f)
        redrawn.append(out)
    example_files = sorted(glob.glob(os.path.join(examples, "2026-08", "*.json")) +
                           glob.glob(os.path.join(examples, "2026-08", "gate", "*.json")))
    example_plans, example_lowerings = [], []
    for path in example_files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        fmt = doc.get("format") or ("nn-backend/graph-lowering-plan" if "groups" in doc
                                    else "nn-backend/graph-execution-plan")
        if fmt == "nn-backend/graph-execution-plan":
            example_plans.append(path)
        elif fmt == "nn-backend/graph-lowering-plan":
            example_lowerings.append(path)

    # (file, policy, mode, equality); mode None: a lowering plan, gated as written.
    cases = [(p, pol, m, e) for p in plans + redrawn + example_plans for pol in gate.PRESETS
             for m in MODES for e in EQUALITIES]
    cases += [(p, pol, None, None) for p in lowerings + example_lowerings for pol in gate.PRESETS]

    summary = ("%d comparisons agree: %d plans (%d generated, %d with redrawn evidence, %d "
               "examples) x 3 policies x 2 modes x 2 equalities, and %d lowering plans (%d of the "
               "suite, %d examples) x 3 policies" % (
                   len(cases), len(plans) + len(redrawn) + len(example_plans), len(plans), len(redrawn),
                   len(example_plans), len(lowerings) + len(example_lowerings), len(lowerings),
                   len(example_lowerings)))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    try:
        return compare_cases(binary, cases, pool, summary)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def compare_cases(binary, cases, pool, summary):
    """Runs the C++ gate on every case (two at a time) and compares each result with gate.py's."""
    docs = {}
    kinds_seen = {k: 0 for k in KINDS}
    futures = [pool.submit(run_cpp, binary, *c) for c in cases]
    for case, future in zip(cases, futures):
        path, policy, mode, equality = case
        cpp, error = future.result()
        where = "%s --policy %s%s" % (path, policy, " --mode %s --equality %s" % (
            mode, equality) if mode else "")
        if error:
            print("gate_compare: FAIL: lowering-oracle gate %s: %s" % (where, error))
            return 1
        if path not in docs:
            with open(path, encoding="utf-8") as f:
                docs[path] = json.load(f)
        py = gate.gate_result(docs[path], dict(gate.PRESETS[policy]), mode or "coalesced",
                              equality or "contract")
        diff = first_difference(cpp, py)
        if diff:
            print("gate_compare: FAIL: %s: %s" % (where, diff))
            return 1
        for f in py["failures"]:
            kinds_seen[f["kind"]] += 1
    print("gate_compare: " + summary)
    print("gate_compare: failures of each kind: %s" % json.dumps(kinds_seen))
    missing = [k for k, n in kinds_seen.items() if n == 0]
    if missing:
        print("gate_compare: FAIL: no compared case has a failure of kind %s" % ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
