#!/usr/bin/env python3
"""How often the random cases of a suite catch each mutant of mutants.py, without the hand-picked
cases: the spelling variety must be frequent enough on its own.

usage: variety.py SUITE MIN

Runs every mutant in this process on the plan of every random case (coalesced, contract, the audit
asked for) and counts the cases where its output differs from the expected one: another grouping,
other kinds or other capsules (compared after filling defaults), another audit than the conforming
peer's, or an error. Exits 1 when a mutant is caught by fewer
than MIN cases.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402
import mutants  # noqa: E402


def canonical(doc):
    """The groups of a lowering plan as comparable values: ids, kinds, capsule records."""
    table = doc.get("capsules", {})
    out = []
    for g in doc["groups"]:
        capsule = table[g["capsule"]] if isinstance(g["capsule"], str) else g["capsule"]
        kinds = [json.dumps({"tag": k} if isinstance(k, str) else k, sort_keys=True)
                 for k in g["kinds"]]
        out.append((g["nodeIds"], kinds, json.dumps(conforming.normalize(capsule), sort_keys=True)))
    return out


def main(suite, minimum):
    manifest = json.load(open(os.path.join(suite, "manifest.json")))
    entries = [e for e in manifest["cases"] if e["case"].endswith("-random")
               and e["mode"] == "coalesced" and e["equality"] == "contract"]
    caught = {}
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out.json")
        for name in mutants.MUTANTS:
            caught[name] = 0
            for e in entries:
                plan = os.path.join(suite, e["files"]["plan"])
                expected = canonical(json.load(open(os.path.join(suite, e["files"]["expected"]))))
                # The audit is asked for too, and compared with the conforming peer's.
                conforming.main(["conforming.py", plan, out, "coalesced", "contract", "true"])
                expected_audit = json.load(open(out, encoding="utf-8"))["audit"]
                try:
                    mutants.main(["mutants.py", "--mutant", name, plan, out, "coalesced",
                                  "contract", "true"])
                    written = json.load(open(out, encoding="utf-8"))
                    differs = (canonical(written) != expected
                               or written.get("audit") != expected_audit)
                except (SystemExit, Exception):  # an error is a finding too
                    differs = True
                caught[name] += differs
        # The control: the conforming peer differs on none.
        wrong = 0
        for e in entries:
            conforming.main(["conforming.py", os.path.join(suite, e["files"]["plan"]), out])
            wrong += canonical(json.load(open(out, encoding="utf-8"))) != canonical(
                json.load(open(os.path.join(suite, e["files"]["expected"]))))
    print("conforming         differs on %3d of %d random cases" % (wrong, len(entries)))
    if wrong or not entries:
        sys.exit("the comparison is wrong: the conforming peer differs, or there is no random case")
    bad = [n for n, k in caught.items() if k < minimum]
    for name, k in caught.items():
        print("%-18s caught by %3d of %d random cases" % (name, k, len(entries)))
    if bad:
        sys.exit("caught by fewer than %d random cases: %s" % (minimum, ", ".join(bad)))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
