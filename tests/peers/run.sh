#!/bin/sh
# `diff` at its default count against the Python peers: the conforming peer passes, and each
# mutant of tests/peers/mutants.py (a wrong reading of one spelling docs/spec.md §2 allows, or the
# identity equality) is caught with a shrunk case.
# With --gate: gate.py passes, and each mutant of gate_mutants.py is caught and shrunk.
# With --worker: worker.py's mutants (a request read without its escapes, an audit without its
# trusted-external ops) are caught at diff's defaults. With --gate-worker: one gate process.
# Usage: run.sh BINARY PYTHON PEERS_DIR conforming | variety | mutant NAME | gate-conforming |
#        gate-mutant NAME POLICY EXPECTED | worker-mutant NAME EXPECTED |
#        gate-default NAME EXPECTED | gate-worker
# The peers implement 2026-08 (docs/spec.md §1.6): every command names it.
set -u
BIN=$1 PY=$2 PEERS=$3 WHAT=$4 NAME=${5:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lo-peers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL [$WHAT $NAME]: $*" >&2; exit 1; }
# instance SMALL FULL: FULL in the campaign tier (LO_CAMPAIGN=1), else SMALL (docs/testing.md,
# "Tiers"; tests/campaign.hpp).
instance() { if [ "${LO_CAMPAIGN:-}" = 1 ]; then echo "$2"; else echo "$1"; fi; }

case $WHAT in
conforming)
  # diff's default count (200) in the campaign tier, 25 cases otherwise.
  COUNT=$(instance 25 "")
  "$BIN" diff --edition 2026-08 --impl "$PY $PEERS/conforming.py {plan} {out} {mode} {equality} {audit}" \
    ${COUNT:+--count "$COUNT"} >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 0"; }
  grep -q "^diff: all ${COUNT:-200} cases conform" "$WORK/out" || fail "not ${COUNT:-200} conforming cases"
  ;;
mutant)
  "$BIN" diff --edition 2026-08 --impl "$PY $PEERS/mutants.py --mutant $NAME {plan} {out} {mode} {equality}" \
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
  "$BIN" lower --edition 2026-08 "$WORK/keep/plan.json" -o "$WORK/expected.json" || fail "the shrunk plan is not valid"
  shrunk=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$WORK/keep/plan.json")
  original=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$WORK/keep/original-plan.json")
  [ "$shrunk" -le "$original" ] && [ "$shrunk" -le 4 ] || fail "shrunk to $shrunk nodes (from $original)"
  "$PY" "$PEERS/mutants.py" --mutant "$NAME" "$WORK/keep/plan.json" "$WORK/again.json" >/dev/null 2>&1 &&
    "$BIN" check --edition 2026-08 "$WORK/keep/plan.json" "$WORK/again.json" >/dev/null 2>&1 &&
    fail "the mutant conforms on the shrunk plan"
  ;;
gate-conforming)
  # `diff --gate` against gate.py, the independent gate: every preset, two lowerings.
  GATE="$PY $PEERS/gate.py {plan} --policy {policy} --mode {mode} --equality {equality}"
  COUNT=$(instance 16 40)
  "$BIN" diff --edition 2026-08 --gate "$GATE" --count "$COUNT" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 0"; }
  grep -q "^diff: all $COUNT cases conform (lowerings singleton/contract, singleton/identity, coalesced/contract, coalesced/identity, one per case in turn, gates of policies verified, checked, external, seed 1, $((COUNT * 3)) runs" \
    "$WORK/out" || fail "not $COUNT conforming cases x 3 presets"
  "$BIN" diff --edition 2026-08 --gate "$GATE" --count 13 --mode singleton --equality identity >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "singleton/identity: exit $rc, expected 0"; }
  ;;
gate-mutant)
  # NAME POLICY EXPECTED [NODES]: the mutant of gate_mutants.py, asked for the gate of POLICY
  # over the hand-picked cases with --keep-going; one saved failure must be the difference
  # EXPECTED says, shrunk to NODES nodes (default 1), and the mutant must still differ from `gate`
  # on the saved plan.
  POLICY=$6 EXPECTED=$7 NODES=${8:-1}
  "$BIN" diff --edition 2026-08 --gate "$PY $PEERS/gate_mutants.py --mutant $NAME {plan} --policy {policy} --mode {mode} --equality {equality}" \
    --count 12 --mode coalesced --equality contract --policy "$POLICY" --keep-going --keep "$WORK/keep" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 1 (a finding)"; }
  line=$(grep "^diff: case [0-9]*-[a-z-]* (seed 1, mode coalesced, equality contract, policy $POLICY) fails; minimal case $NODES nodes\{0,1\}: under policy $POLICY $EXPECTED.*; saved in $WORK/keep/" "$WORK/out" | head -1)
  [ -n "$line" ] || fail "no shrunk failure 'under policy $POLICY $EXPECTED'"
  dir=${line##*; saved in }
  for f in plan.json original-plan.json output.json expected.json report.txt; do
    [ -f "$dir/$f" ] || fail "$dir/$f missing"
  done
  grep -q "^shrunk from [0-9]* to $NODES nodes" "$dir/report.txt" || fail "report says nothing of shrinking"
  # The saved expectation is the `gate` command's, and the mutant still differs on the saved plan.
  "$BIN" gate --edition 2026-08 "$dir/plan.json" --policy "$POLICY" --format json -o "$WORK/ref.json"
  [ $? -le 1 ] || fail "gate failed on the shrunk plan"
  cmp -s "$WORK/ref.json" "$dir/expected.json" || fail "expected.json is not what gate writes"
  "$PY" "$PEERS/gate_mutants.py" --mutant "$NAME" "$dir/plan.json" --policy "$POLICY" >"$WORK/again.json"
  "$PY" -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); sys.exit(a!=b)' \
    "$WORK/ref.json" "$WORK/again.json" && fail "the mutant agrees with gate on the shrunk plan"
  ;;
worker-mutant)
  # NAME EXPECTED: worker.py --mutant NAME under `diff --worker` at its defaults is a finding whose
  # summary line matches EXPECTED, shrunk and saved.
  EXPECTED=$6
  "$BIN" diff --edition 2026-08 --worker "$PY $PEERS/worker.py --mutant $NAME" --keep "$WORK/keep" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 1 (a finding)"; }
  grep -q "^diff: case [0-9]*-.* fails; minimal case [0-9]* nodes\{0,1\}: $EXPECTED.*; saved in $WORK/keep\$" \
    "$WORK/out" || fail "no shrunk finding '$EXPECTED'"
  [ -f "$WORK/keep/plan.json" ] || fail "keep/plan.json missing"
  ;;
gate-default)
  # NAME EXPECTED: the mutant of gate_mutants.py, told every policy by the six booleans'
  # placeholders, under `diff --gate` at its defaults: a finding matching EXPECTED.
  EXPECTED=$6
  B="--allow-checked {allowChecked} --allow-fuzzed {allowFuzzed} --allow-trusted-external {allowTrustedExternal} --require-evidence {requireEvidence} --allow-runtime-guards {allowRuntimeGuards} --allow-test-evidence {allowTestEvidence}"
  "$BIN" diff --edition 2026-08 --gate "$PY $PEERS/gate_mutants.py --mutant $NAME {plan} --policy {policy} $B --mode {mode} --equality {equality}" \
    --keep "$WORK/keep" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 1 (a finding)"; }
  grep -q "^diff: case [0-9]*-.* fails; minimal case [0-9]* nodes\{0,1\}: $EXPECTED.*; saved in $WORK/keep\$" \
    "$WORK/out" || fail "no shrunk finding '$EXPECTED'"
  # The same gate, told the same custom policies, agrees with the reference once it is right.
  "$BIN" diff --edition 2026-08 --gate "$PY $PEERS/gate.py {plan} --policy {policy} $B --mode {mode} --equality {equality}" \
    --count 12 >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "gate.py: exit $rc, expected 0"; }
  grep -q '^diff: all 12 cases conform (.*gates of policies verified, checked, external, custom, seed 1, 48 runs' \
    "$WORK/out" || fail "not 12 cases x 4 policies"
  ;;
gate-worker)
  # `diff --gate-worker`: gate_worker.py conforms from one process under every preset and each
  # case's custom policy; its mutant that ignores requireEvidence is caught at the defaults.
  "$BIN" diff --edition 2026-08 --gate-worker "$PY $PEERS/gate_worker.py" --count 60 >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 0 ] || { cat "$WORK/err" >&2; fail "exit $rc, expected 0"; }
  grep -q '^diff: all 60 cases conform (.*gates of policies verified, checked, external, custom, seed 1, 240 runs in [0-9]* ms, 1 start of the implementation)' \
    "$WORK/out" || fail "not 60 cases x 4 policies from one start"
  "$BIN" diff --edition 2026-08 --gate-worker "$PY $PEERS/gate_worker.py --mutant ignores-require-evidence" \
    --keep "$WORK/keep" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  cat "$WORK/out"
  [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "mutant: exit $rc, expected 1"; }
  grep -q "policy custom (.*) fails; minimal case 1 node: under policy custom .*missingEvidence" \
    "$WORK/out" || fail "the mutant's custom-policy finding is not named"
  ;;
variety)
  # Without the hand-picked cases: the random cases of a default suite catch every mutant often.
  "$BIN" gen --edition 2026-08 --out "$WORK/suite" --count 200 >/dev/null || fail "gen failed"
  "$PY" "$PEERS/variety.py" "$WORK/suite" 10 || fail "a mutant is caught too rarely"
  ;;
*) fail "unknown case" ;;
esac
echo "ok [$WHAT $NAME]"
