#!/bin/sh
# `check --stream` on two FIFOs (docs/formats.md, "Feeding check --stream"): a producer that writes
# PLAN whole before CANDIDATE deadlocks with it, which must end in exit status 2 with a message
# saying what happened and what to do, within about --stall-ms, never a silent hang; a producer
# that interleaves the streams (tee into lower --stream) still works, and so does one producer that
# opens both FIFOs before it writes either.
# Usage: stream_stall.sh BINARY
set -u
BIN=$1
W=$(mktemp -d "${TMPDIR:-/tmp}/lo-stall.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A plan stream of 20000 kernels (about 1 MB: far more than a pipe's buffer), and its lowering.
CAPSULE='{"name":"reference.relu","op":"relu","provider":"reference","device":"cpu","trustLevel":"verified","shapeContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"layoutContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"valueContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},"vjpContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}}}'
{
  echo "{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1,\"capsules\":{\"r\":$CAPSULE}}"
  awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "{\"nodeId\":%d,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":\"r\"}\n", i }'
} >"$W/plan.ndjson"
"$BIN" lower --stream --mode singleton "$W/plan.ndjson" -o "$W/lowering.ndjson" || fail "lower --stream"
[ "$(wc -c <"$W/plan.ndjson")" -gt 200000 ] || fail "the plan stream is too small to fill a pipe"

# 1. PLAN whole, then CANDIDATE: a deadlock, detected.
mkfifo "$W/A" "$W/B"
(cat "$W/plan.ndjson" >"$W/A"; cat "$W/lowering.ndjson" >"$W/B") 2>/dev/null &
producer=$!
start=$(date +%s)
timeout 60 "$BIN" check --stream --mode singleton --stall-ms 1000 "$W/A" "$W/B" >"$W/out" 2>"$W/err"
rc=$?
elapsed=$(($(date +%s) - start))
# Release the producer: its write to A failed with the reader gone; it now waits to open B.
timeout 10 cat "$W/B" >/dev/null 2>&1
wait "$producer" 2>/dev/null
[ "$rc" -eq 2 ] || { cat "$W/err" >&2; fail "exit $rc, expected 2 (124: timed out, a hang)"; }
[ "$elapsed" -lt 30 ] || fail "the stall took $elapsed s to detect"
[ "$(wc -l <"$W/err")" -eq 1 ] || { cat "$W/err" >&2; fail "the message is not one line"; }
grep -q "^lowering-oracle: $W/B: stalled: waiting for input here, no byte arrived on any input for 1000 ms; $W/A has [0-9]* bytes unread" "$W/err" ||
  { cat "$W/err" >&2; fail "the message does not say what happened"; }
grep -q "Write the two streams to files first" "$W/err" || { cat "$W/err" >&2; fail "the message does not say what to do"; }

# 2. An interleaving producer (tee into lower --stream) is not a stall.
rm -f "$W/A" "$W/B"
mkfifo "$W/A" "$W/B"
(tee "$W/A" <"$W/plan.ndjson" | "$BIN" lower --stream --mode singleton - -o "$W/B") &
producer=$!
timeout 120 "$BIN" check --stream --mode singleton --stall-ms 1000 "$W/A" "$W/B" >"$W/out" 2>"$W/err"
rc=$?
wait "$producer"
[ "$rc" -eq 0 ] || { cat "$W/err" "$W/out" >&2; fail "interleaved producer: exit $rc, expected 0"; }
grep -q "conforms to the singleton lowering" "$W/out" || fail "interleaved producer: no verdict"
# 3. One producer that opens both FIFOs before it writes either (`impl >A 3>B`: the shell opens A,
# then B, before impl runs), each stream under a pipe's buffer, PLAN whole first: check opens both
# inputs before it waits on either (docs/spec.md §3.6), so this is no stall.
head -n 101 "$W/plan.ndjson" >"$W/small-plan.ndjson"
"$BIN" lower --stream --mode singleton "$W/small-plan.ndjson" -o "$W/small-lowering.ndjson" ||
  fail "lower --stream (small)"
[ "$(wc -c <"$W/small-plan.ndjson")" -lt 16384 ] && [ "$(wc -c <"$W/small-lowering.ndjson")" -lt 16384 ] ||
  fail "the small streams do not fit a pipe's buffer"
rm -f "$W/A" "$W/B"
mkfifo "$W/A" "$W/B"
(sh -c 'cat "$1"; cat "$2" >&3' sh "$W/small-plan.ndjson" "$W/small-lowering.ndjson" >"$W/A" 3>"$W/B") 2>/dev/null &
producer=$!
timeout 60 "$BIN" check --stream --mode singleton --stall-ms 3000 "$W/A" "$W/B" >"$W/out" 2>"$W/err"
rc=$?
# Release the producer if check left without opening B (the bug): its open of B waits for a reader.
[ "$rc" -eq 0 ] || timeout 10 cat "$W/B" >/dev/null 2>&1
wait "$producer" 2>/dev/null
[ "$rc" -eq 0 ] || { cat "$W/err" "$W/out" >&2; fail "a producer that opens both FIFOs first: exit $rc, expected 0"; }
grep -q "conforms to the singleton lowering" "$W/out" || fail "a producer that opens both FIFOs first: no verdict"
echo "ok"
