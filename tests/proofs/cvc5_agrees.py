#!/usr/bin/python3
"""A second solver (docs/proofs.md, "Two solvers"): cvc5 must give Z3's answer on every query.

    cvc5_agrees.py ORACLE CVC5 WORKDIR TIMEOUT_SECONDS EDITION:BOUND[,FULL][:CONTRACT_DIR]...

For each edition (docs/spec.md §1.6) at its bound (FULL in the campaign tier, LO_CAMPAIGN=1:
tests/campaign.py; BOUND otherwise), runs `ORACLE prove --edition EDITION --bound
BOUND --emit-smt2` under contract equality (every obligation proved: each query unsat) and under
identity equality (the audit and refinement obligations refuted: their query sat at the
counterexample's length), then CVC5 on every emitted file, with a timeout per file. With
CONTRACT_DIR, the contract queries are those a `prove --emit-smt2 CONTRACT_DIR` of the edition
under contract equality at a bound of at least BOUND already wrote and Z3 answered (the
proofs.prove-default test's), up to length BOUND, instead of a second run of Z3 on them. Fails when
cvc5 gives another answer than Z3 on any file, when either answers unknown (or cvc5 times out or
errs), when a run emits nothing or its manifest names another edition, or when an edition has no
sat query. Every bound must be at least 2 (the length of the identity counterexamples). Prints one line per file: the edition, the equality, the obligation,
the length, the logic, each solver's answer and seconds.
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from campaign import instance  # noqa: E402


def emit(oracle, edition, bound, equality, directory):
    shutil.rmtree(directory, ignore_errors=True)
    run = subprocess.run([oracle, "prove", "--edition", edition, "--bound", str(bound),
                          "--equality", equality, "--emit-smt2", directory],
                         capture_output=True, text=True)
    expected_exit = 0 if equality == "contract" else 1
    if run.returncode != expected_exit:
        sys.exit(f"prove --edition {edition} --equality {equality}: exit {run.returncode}, "
                 f"expected {expected_exit}\n"
                 f"{run.stdout}{run.stderr}")
    with open(os.path.join(directory, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    if manifest.get("format") != "lowering-oracle/smt2-queries" or not manifest["queries"]:
        sys.exit(f"{directory}/manifest.json: no queries")
    if manifest.get("edition") != edition:
        sys.exit(f"{directory}/manifest.json: edition {manifest.get('edition')}, not {edition}")
    return manifest


def given(edition, bound, directory):
    """The contract queries that an earlier `prove --emit-smt2 DIRECTORY` wrote, up to BOUND."""
    path = os.path.join(directory, "manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: {e} (the contract queries are written by proofs.prove-default)")
    if manifest.get("format") != "lowering-oracle/smt2-queries" or not manifest.get("queries"):
        sys.exit(f"{path}: no queries")
    for field, want in (("edition", edition), ("equality", "contract")):
        if manifest.get(field) != want:
            sys.exit(f"{path}: {field} {manifest.get(field)}, not {want}")
    if not isinstance(manifest.get("bound"), int) or manifest["bound"] < bound:
        sys.exit(f"{path}: bound {manifest.get('bound')}, below {bound}")
    manifest["queries"] = [q for q in manifest["queries"]
                           if q["length"] == "all" or q["length"] <= bound]
    # As emit() asks prove's exit status: under contract every obligation is proved.
    refuted = [q["file"] for q in manifest["queries"] if q.get("expected") != "unsat"]
    if refuted:
        sys.exit(f"{path}: Z3 did not prove {', '.join(refuted)}")
    return manifest


def cvc5_answer(cvc5, path, timeout):
    start = time.monotonic()
    try:
        run = subprocess.run([cvc5, path], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start
    seconds = time.monotonic() - start
    out = run.stdout.strip()
    if run.returncode != 0 or out not in ("sat", "unsat", "unknown"):
        return "error: " + (out + run.stderr.strip())[:200], seconds
    return out, seconds


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    oracle, cvc5, work, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    editions = []
    for arg in sys.argv[5:]:
        edition, bounds, *contract = arg.split(":", 2)
        small, full = (bounds + "," + bounds).split(",")[:2]
        bound = instance(int(small), int(full))
        editions.append((edition, bound, contract[0] if contract else None))
    if any(bound < 2 for _, bound, _ in editions):
        sys.exit("every bound must be at least 2")
    failures, total_sats, total_unsats = [], 0, 0
    print(f"{'edition':8} {'equality':9} {'obligation':28} {'length':>6} {'logic':11} {'z3':6} "
          f"{'z3 s':>7} {'cvc5':6} {'cvc5 s':>7}")
    for edition, bound, contract in editions:
        sats = 0
        for equality in ("contract", "identity"):
            if equality == "contract" and contract:
                directory = contract
                manifest = given(edition, bound, directory)
            else:
                directory = os.path.join(work, edition, equality)
                manifest = emit(oracle, edition, bound, equality, directory)
            for q in manifest["queries"]:
                path = os.path.join(directory, q["file"])
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if "(check-sat)" not in text or f"(set-logic {q['logic']})" not in text:
                    failures.append(f"{edition}/{q['file']}: not a self-contained script")
                answer, seconds = cvc5_answer(cvc5, path, timeout)
                print(f"{edition:8} {equality:9} {q['obligation']:28} {str(q['length']):>6} "
                      f"{q['logic']:11} {q['expected']:6} {q['z3Seconds']:7.3f} {answer:6} "
                      f"{seconds:7.3f}", flush=True)
                where = f"{edition}/{equality}/{q['file']}"
                if q["expected"] not in ("sat", "unsat"):
                    failures.append(f"{where}: Z3 answered {q['expected']}")
                elif answer != q["expected"]:
                    failures.append(f"{where}: Z3 {q['expected']}, cvc5 {answer}")
                elif answer == "sat":
                    sats += 1
                else:
                    total_unsats += 1
        if sats == 0:
            failures.append(f"{edition}: no refuted query under identity: the run cannot show "
                            "disagreement on sat")
        total_sats += sats
    print(f"{total_unsats} unsat and {total_sats} sat queries on which cvc5 agrees with Z3, "
          f"editions {', '.join(f'{e} (bound {b})' for e, b, _ in editions)}")
    if failures:
        print("\n".join(["DISAGREEMENT OR FAILURE:"] + failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
