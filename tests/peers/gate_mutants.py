#!/usr/bin/env python3
"""Wrong acceptance gates that `diff --gate` must catch, each derived from gate.py (the
independent gate of docs/spec.md §6) by one mistake.

usage: gate_mutants.py --mutant NAME FILE [--policy P] [--mode M] [--equality E]
       gate_mutants.py --list

  ignores-allow-fuzzed    reads fuzz-oracle evidence as if allowFuzzed were false under every
                          policy: `checked` and `external` report fuzzEvidence failures
  drops-trusted-boundary  never reports a trustedBoundary failure (allowTrustedExternal read as
                          true): `checked` accepts a trusted value contract
  ignores-require-evidence
                          reads requireEvidence as true under every policy: a custom policy
                          without it still reports missingEvidence failures
  dedup-reports           lists each report once per failure kind, as a set: a capsule on two
                          groups (or two nodes of a singleton lowering) is listed once, where the
                          gate of one lowering lists it once per audit row (docs/spec.md §6.3)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402

CORRECT_FAILURES = gate.gate_failures


def ignores_allow_fuzzed(policy, reports):
    return CORRECT_FAILURES(dict(policy, allowFuzzed=False), reports)


def drops_trusted_boundary(policy, reports):
    return CORRECT_FAILURES(dict(policy, allowTrustedExternal=True), reports)


def ignores_require_evidence(policy, reports):
    return CORRECT_FAILURES(dict(policy, requireEvidence=True), reports)


def dedup_reports(policy, reports):
    failures = CORRECT_FAILURES(policy, reports)
    for f in failures:
        seen, kept = set(), []
        for r in f["reports"]:
            key = repr(sorted(r.items()))
            if key not in seen:
                seen.add(key)
                kept.append(r)
        f["reports"] = kept
    return failures


MUTANTS = {"ignores-allow-fuzzed": ignores_allow_fuzzed,
           "drops-trusted-boundary": drops_trusted_boundary,
           "ignores-require-evidence": ignores_require_evidence,
           "dedup-reports": dedup_reports}


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(MUTANTS))
        return 0
    if len(argv) < 3 or argv[1] != "--mutant" or argv[2] not in MUTANTS:
        sys.stderr.write(__doc__)
        return 2
    gate.gate_failures = MUTANTS[argv[2]]
    return gate.main([argv[0]] + argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
