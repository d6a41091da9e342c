#!/bin/sh
# Runs the real lowering-oracle binary on the bundled examples and checks exit codes and output.
# Usage: run.sh BINARY EXAMPLES_DIR CASE
set -u
BIN=$1
EX=$2
CASE=$3
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lo-examples.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL [$CASE]: $*" >&2; exit 1; }

# run EXPECTED_RC ARGS...: runs the binary, stdout to $WORK/out, stderr to $WORK/err.
run() {
  want=$1
  shift
  "$BIN" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ "$rc" -eq "$want" ] || { cat "$WORK/err" >&2; fail "exit $rc, expected $want: $*"; }
}
has() { grep -qF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "output lacks: $1"; }; }
# usage MESSAGE: the last run failed with one line on stderr, "lowering-oracle: MESSAGE".
usage() {
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || { cat "$WORK/err" >&2; fail "usage error is not one line"; }
  [ "$(cat "$WORK/err")" = "lowering-oracle: $1" ] || { cat "$WORK/err" >&2; fail "usage error is not: $1"; }
}
hasnt() { ! grep -qF -- "$1" "$WORK/out" || fail "output has: $1"; }
groups() {
  n=$(grep -c '"groupingKind"' "$WORK/out")
  [ "$n" -eq "$1" ] || fail "$n groups, expected $1"
}

PLANS="two-relu cpu-mlp cuda-transformer-block identity-trap"

case $CASE in
two-relu-coalesced)
  run 0 lower "$EX/two-relu.json"
  groups 1
  has '{"nodeIds":[1,2],"kinds":["relu","relu"],"op":"relu","capsule":"reference.relu","groupingKind":"sameCapsuleRun"}'
  has '"mode": "coalesced"'
  has '"equality": "contract"'
  has '"format": "nn-backend/graph-lowering-plan"'
  ;;
two-relu-singleton)
  run 0 lower --mode singleton "$EX/two-relu.json"
  groups 2
  has '{"nodeIds":[1],"kinds":["relu"],"op":"relu","capsule":"reference.relu","groupingKind":"singleton"}'
  has '{"nodeIds":[2],"kinds":["relu"],"op":"relu","capsule":"reference.relu","groupingKind":"singleton"}'
  ;;
two-relu-audit)
  run 0 audit "$EX/two-relu.json"
  has '"format": "nn-backend/execution-audit"'
  has '"capsuleNames": ["reference.relu"]'
  has '"trustLevels": ["checked"]'
  has '"hasTrustedExternal": false'
  run 0 audit --format text "$EX/two-relu.json"
  [ "$(wc -l <"$WORK/out")" -eq 2 ] || fail "text audit is not one row and a summary"
  has 'reference.relu'
  has 'provider=reference device=cpu trust=checked vjp=torchlean-tape'
  has 'trusted-external: none'
  run 0 audit --format text --detailed "$EX/two-relu.json"
  [ "$(wc -l <"$WORK/out")" -eq 6 ] || fail "detailed text audit is not a row, its four contract lines and a summary"
  has '    shape: shape safety for relu; '
  has '    vjp: relu torchlean-tape VJP refines '
  run 2 audit --detailed "$EX/two-relu.json"
  usage '--detailed: needs --format text'
  # The audit of the lowering plan equals the audit of the plan's coalesced lowering.
  run 0 lower "$EX/two-relu.json" -o "$WORK/lowered.json"
  run 0 audit "$EX/two-relu.json" -o "$WORK/a1.json"
  run 0 audit "$WORK/lowered.json" -o "$WORK/a2.json"
  cmp -s "$WORK/a1.json" "$WORK/a2.json" || fail "audit of plan and of its lowering differ"
  ;;
all-deterministic)
  for p in $PLANS; do
    for mode in singleton coalesced; do
      for eq in contract identity; do
        run 0 lower --mode $mode --equality $eq --audit "$EX/$p.json" -o "$WORK/a.json"
        run 0 lower --mode $mode --equality $eq --audit "$EX/$p.json" -o "$WORK/b.json"
        cmp -s "$WORK/a.json" "$WORK/b.json" || fail "$p $mode $eq: two runs differ"
      done
    done
    # The output (with its audit) is itself a lowering plan that audit reads.
    run 0 audit "$WORK/a.json"
  done
  ;;
cpu-mlp)
  run 0 lower "$EX/cpu-mlp.json"
  groups 8
  hasnt 'sameCapsuleRun'
  has '"capsule":"reference.mse_loss"'
  has '{"tag":"flatten","s":[1,28,28]}'
  run 0 audit --format text "$EX/cpu-mlp.json"
  has '8 rows; trusted-external: none'
  ;;
cuda-transformer-block)
  run 0 lower "$EX/cuda-transformer-block.json"
  groups 13
  has '{"nodeIds":[3,4,5],"kinds":["linear","linear","linear"],"op":"linear","capsule":"native_cuda.linear","groupingKind":"sameCapsuleRun"}'
  run 0 lower --mode singleton "$EX/cuda-transformer-block.json"
  groups 15
  run 0 audit "$EX/cuda-transformer-block.json"
  has '"hasTrustedExternal": false'
  has '"layout":"flat-row-major"'
  ;;
libtorch-sdpa-candidate)
  run 0 audit --format text "$EX/cuda-transformer-block.libtorch-sdpa.lowering.json"
  has 'libtorch.sdpa_forward'
  has 'provider=libtorch device=cuda trust=trusted-external vjp=torchlean-tape'
  has '10 rows; trusted-external: scaled_dot_product_attention'
  run 0 audit "$EX/cuda-transformer-block.libtorch-sdpa.lowering.json"
  has '"trustedExternalOps": ["scaled_dot_product_attention"]'
  has '"hasTrustedExternal": true'
  has '"symbol":"torchlean_libtorch_sdpa_fwd","buildTarget":"torchlean_libtorch_sdpa_so"'
  ;;
identity-trap)
  run 0 lower --audit "$EX/identity-trap.json"
  groups 2
  has '"capsule":"native_cuda.relu","groupingKind":"singleton"'
  has '"capsule":"native_cuda.relu#2","groupingKind":"singleton"'
  has '"hasTrustedExternal": true'
  run 0 lower --equality identity --audit "$EX/identity-trap.json"
  groups 1
  has '{"nodeIds":[1,2],"kinds":["relu","relu"],"op":"relu","capsule":"native_cuda.relu","groupingKind":"sameCapsuleRun"}'
  has '"trustedExternalOps": []'
  has '"hasTrustedExternal": false'
  hasnt 'trusted-external'
  run 0 lower --mode singleton --audit "$EX/identity-trap.json"
  has '"trustedExternalOps": ["relu"]'
  # audit of a plan audits its coalesced lowering under the chosen equality.
  run 0 audit "$EX/identity-trap.json"
  has '"trustLevels": ["checked","trusted-external"]'
  run 0 audit --equality identity --format text "$EX/identity-trap.json"
  has '1 row; trusted-external: none'
  ;;
stdin-and-output-file)
  run 0 lower "$EX/two-relu.json"
  cp "$WORK/out" "$WORK/expected.json"
  "$BIN" lower - <"$EX/two-relu.json" >"$WORK/out" 2>"$WORK/err" || fail "lower - failed"
  cmp -s "$WORK/out" "$WORK/expected.json" || fail "stdin output differs"
  run 0 lower "$EX/two-relu.json" -o "$WORK/o.json"
  [ ! -s "$WORK/out" ] || fail "-o also wrote to stdout"
  cmp -s "$WORK/o.json" "$WORK/expected.json" || fail "-o output differs"
  run 0 lower "$EX/two-relu.json" -o /dev/null
  [ -c /dev/null ] || fail "/dev/null was replaced"
  [ "$(ls "$WORK" | grep -c tmp)" -eq 0 ] || fail "temporary file left behind"
  ;;
invalid-input)
  # A kind whose op is not the kernel's op: exit 2, one line, position and pointer, no output file.
  awk 'done == 0 && prev ~ /"kind": "relu"/ && /"op": "relu"/ { sub(/"relu"/, "\"add\""); done = 1 }
       { print; prev = $0 }' "$EX/two-relu.json" >"$WORK/bad.json"
  grep -q '"op": "add"' "$WORK/bad.json" || fail "could not build the invalid plan"
  line=$(grep -n '"op": "add"' "$WORK/bad.json" | cut -d: -f1)
  col=$(grep '"op": "add"' "$WORK/bad.json" | awk '{ print index($0, "\"add\"") }')
  run 2 lower "$WORK/bad.json" -o "$WORK/out.json"
  [ ! -e "$WORK/out.json" ] || fail "-o OUT left behind after invalid input"
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "error is not one line"
  grep -qF "lowering-oracle: $WORK/bad.json:$line:$col: /kernels/0/op: " "$WORK/err" ||
    { cat "$WORK/err" >&2; fail "error lacks position $line:$col and pointer"; }
  ls "$WORK" | grep -q 'out.json' && fail "temporary output left behind"
  # An existing output file is kept as it was.
  echo old >"$WORK/keep.json"
  run 2 lower "$WORK/bad.json" -o "$WORK/keep.json"
  [ "$(cat "$WORK/keep.json")" = old ] || fail "existing OUT was changed"
  # Trailing data, a missing file, bad usage.
  { cat "$EX/two-relu.json"; echo '{}'; } >"$WORK/trailing.json"
  run 2 lower "$WORK/trailing.json"
  grep -q 'trailing data' "$WORK/err" || fail "no trailing-data message"
  run 2 lower "$WORK/missing.json"
  grep -q "^lowering-oracle: $WORK/missing.json:1:1: /: cannot open" "$WORK/err" || fail "missing file message"
  run 2 lower --mode fused "$EX/two-relu.json"
  usage "--mode: fused not in {singleton,coalesced}"
  run 2 audit --format xml "$EX/two-relu.json"
  usage "--format: xml not in {json,text}"
  run 2 bogus
  usage 'unknown subcommand "bogus": the subcommands are lower, audit, gate, check, explain, gen, verify, diff, prove (see lowering-oracle --help)'
  run 2 chek examples/plan.json
  usage 'unknown subcommand "chek": the subcommands are lower, audit, gate, check, explain, gen, verify, diff, prove (see lowering-oracle --help)'
  run 2 audit "$WORK/bad.json" -o "$WORK/audit.json"
  [ ! -e "$WORK/audit.json" ] || fail "audit -o OUT left behind"
  ;;
help-and-version)
  run 0 --help
  has 'lower'
  has 'audit'
  run 0 lower --help
  has '--mode'
  has '--equality'
  run 0 audit --help
  has '--format'
  run 0 --version
  has 'lowering-oracle'
  run 2
  usage "A subcommand is required: one of lower, audit, gate, check, explain, gen, verify, diff, prove (see lowering-oracle --help)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok [$CASE]"
