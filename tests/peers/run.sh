#!/bin/sh
# `diff` at its default count against the Python peers: the conforming peer passes, and each
# mutant of tests/peers/mutants.py (a wrong reading of one spelling docs/spec.md §2 allows, or the
# identity equality) is caught with a shrunk case.
# Usage: run.sh BINARY PYTHON PEERS_DIR conforming | variety | mutant NAME
set -u
BIN=$1 PY=$2 PEERS=$3 WHAT=$4 NAME=${5:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lo-peers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL [$WHAT $NAME]: $*" >&2; exit 1; }

case $WHAT in
conforming)
  "$BIN" diff --impl "$PY $PEERS/conforming.py {plan} {out} {mode} {equality}" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 0"; }
  grep -q '^diff: all 200 cases conform' "$WORK/out" || fail "not 200 conforming cases"
  ;;
mutant)
  "$BIN" diff --impl "$PY $PEERS/mutants.py --mutant $NAME {plan} {out} {mode} {equality}" \
    --keep "$WORK/keep" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 1 (a finding)"; }
  # One summary line naming the case, the minimal case and where it is saved.
  grep -q "^diff: case [0-9]*-.* fails; minimal case [0-9]* nodes\{0,1\}: .*; saved in $WORK/keep\$" \
    "$WORK/out" || fail "no summary line with a minimal case"
  for f in plan.json original-plan.json output.json report.txt; do
    [ -f "$WORK/keep/$f" ] || fail "keep/$f missing"
  done
  grep -q '^shrunk from [0-9]* to [0-9]* nodes' "$WORK/keep/report.txt" || fail "report says nothing of shrinking"
  # The shrunk plan is a valid plan, no larger than the original, and the mutant still fails on it.
  "$BIN" lower "$WORK/keep/plan.json" -o "$WORK/expected.json" || fail "the shrunk plan is not valid"
  shrunk=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$WORK/keep/plan.json")
  original=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$WORK/keep/original-plan.json")
  [ "$shrunk" -le "$original" ] && [ "$shrunk" -le 4 ] || fail "shrunk to $shrunk nodes (from $original)"
  "$PY" "$PEERS/mutants.py" --mutant "$NAME" "$WORK/keep/plan.json" "$WORK/again.json" >/dev/null 2>&1 &&
    "$BIN" check "$WORK/keep/plan.json" "$WORK/again.json" >/dev/null 2>&1 &&
    fail "the mutant conforms on the shrunk plan"
  ;;
variety)
  # Without the hand-picked cases: the random cases of a default suite catch every mutant often.
  "$BIN" gen --out "$WORK/suite" --count 200 >/dev/null || fail "gen failed"
  "$PY" "$PEERS/variety.py" "$WORK/suite" 10 || fail "a mutant is caught too rarely"
  ;;
*) fail "unknown case" ;;
esac
echo "ok [$WHAT $NAME]"
