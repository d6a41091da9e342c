#!/bin/sh
# `verify`: the suite README's command (verify --impl, no loop of the user's) works as printed (with tests/peers/conforming.py as the
# implementation), every report format, error entries for missing and invalid outputs, exit codes,
# and a 1,002-entry suite (300 outside the campaign tier) judged in one process.
# With --gates: the README's gate loop as printed, with gate.py (conforms) and a gate mutant.
# Usage: verify.sh BINARY PYTHON PEERS_DIR readme-loop | reports | scale | gates
# The peers implement 2026-08 (docs/spec.md §1.6): every command names it.
set -u
BIN=$1 PY=$2 PEERS=$3 WHAT=$4
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lo-verify.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL [verify $WHAT]: $*" >&2; exit 1; }
# instance SMALL FULL: FULL in the campaign tier (LO_CAMPAIGN=1), else SMALL (docs/testing.md,
# "Tiers").
instance() { if [ "${LO_CAMPAIGN:-}" = 1 ]; then echo "$2"; else echo "$1"; fi; }
# The binary as `lowering-oracle` on PATH, as the README calls it.
mkdir "$WORK/bin" && ln -s "$BIN" "$WORK/bin/lowering-oracle"
PATH="$WORK/bin:$PATH"

# readme_loop SUITE IMPL: runs the README's shell block in SUITE with the README's `my-lowering`
# command replaced by IMPL; standard output to $WORK/loop.out, the exit status in $loop_rc.
readme_loop() {
  awk '/^## Running your implementation/ { on = 1 } /^## Judging/ { on = 0 }
       on && /^    / { print substr($0, 5) }' "$1/README.md" >"$WORK/loop.sh"
  grep -q "^lowering-oracle verify . out --impl '" "$WORK/loop.sh" || fail "the README's loop is not verify --impl"
  grep -q "my-lowering {plan} -o {out} --mode {mode} --equality {equality} --audit {audit}" "$WORK/loop.sh" ||
    fail "the README's loop does not name my-lowering"
  sed "s#my-lowering {plan} -o {out} --mode {mode} --equality {equality} --audit {audit}#$2#" "$WORK/loop.sh" >"$WORK/loop2.sh"
  (cd "$1" && sh "$WORK/loop2.sh") >"$WORK/loop.out" 2>"$WORK/loop.err"
  loop_rc=$?
}

# gate_loop SUITE GATE: the same for the README's gate loop (section "The acceptance gate").
gate_loop() {
  awk '/^## The acceptance gate/ { on = 1 } /^`verify --gates`/ { on = 0 }
       on && /^    / { print substr($0, 5) }' "$1/README.md" >"$WORK/gate.sh"
  grep -q "^lowering-oracle verify . out --gates --impl '" "$WORK/gate.sh" ||
    fail "the README's gate loop is not verify --gates --impl"
  sed "s#my-gate {plan} -o {out} --policy {policy} --mode {mode} --equality {equality} $BOOLEANS#$2#" \
    "$WORK/gate.sh" >"$WORK/gate2.sh"
  (cd "$1" && sh "$WORK/gate2.sh") >"$WORK/loop.out" 2>"$WORK/loop.err"
  loop_rc=$?
}

# The six booleans of a policy, as the README's GATE passes them (a custom policy is told by them).
BOOLEANS="--allow-checked {allowChecked} --allow-fuzzed {allowFuzzed} --allow-trusted-external {allowTrustedExternal} --require-evidence {requireEvidence} --allow-runtime-guards {allowRuntimeGuards} --allow-test-evidence {allowTestEvidence}"

case $WHAT in
gates)
  "$BIN" gen --edition 2026-08 --out "$WORK/suite" --count 16 >/dev/null || fail "gen"
  # gate.py through the singleton lowering: other multiplicities, the same sets of reports.
  gate_loop "$WORK/suite" "$PY $PEERS/gate.py {plan} -o {out} --policy {policy} --mode singleton --equality {equality} $BOOLEANS"
  cat "$WORK/loop.out"
  [ "$loop_rc" -eq 0 ] || { cat "$WORK/loop.err" >&2; fail "gate loop + verify --gates exit $loop_rc, expected 0"; }
  grep -qx "verify: 64 entries: 64 conform, 0 do not conform, 0 errors (missing or invalid output); gate entries by policy: verified 16 (16 conform), checked 16 (16 conform), external 16 (16 conform), custom 16 (16 conform); judged in edition 2026-08" \
    "$WORK/loop.out" || fail "not 64 conforming gate entries, 16 of each policy, named in the summary"
  [ "$(ls "$WORK/suite/out" | wc -l)" -eq 64 ] || fail "the gate loop did not write 64 results"
  # A gate that drops the trusted boundary: the identity trap under checked, in words, at /verdict.
  rm -rf "$WORK/suite/out"
  gate_loop "$WORK/suite" "$PY $PEERS/gate_mutants.py --mutant drops-trusted-boundary {plan} -o {out} --policy {policy} --mode {mode} --equality {equality} $BOOLEANS"
  [ "$loop_rc" -eq 1 ] || { cat "$WORK/loop.out" "$WORK/loop.err" >&2; fail "mutant: exit $loop_rc, expected 1"; }
  grep -q "^0011-gate-identity-trap-gate-checked.json: /verdict: gate: under policy checked the implementation accepts, the reference rejects: trustedBoundary" \
    "$WORK/loop.out" || { cat "$WORK/loop.out" >&2; fail "no verdict difference of the identity trap"; }
  grep -q "^verify: 64 entries: [0-9]* conform, [1-9][0-9]* do not conform, 0 errors" "$WORK/loop.out" ||
    fail "no summary of 64 gate entries with failing ones"
  # Every report format names the policy (the outputs of the mutant above): json per result, JUnit
  # in unique class names, SARIF in the properties and a `gate` rule.
  for f in json junit sarif; do
    "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/suite/out" --gates --format $f -o "$WORK/report.$f"
    [ $? -eq 1 ] || fail "$f: exit status, expected 1"
  done
  xmllint --noout --schema "$PEERS/../ci-schemas/junit.xsd" "$WORK/report.junit" ||
    fail "junit (gates): not valid against junit.xsd"
  "$PY" - "$WORK/report.json" "$WORK/report.junit" "$WORK/report.sarif" <<'PYEOF' || fail "the reports do not name the policies"
import json, re, sys
report = json.load(open(sys.argv[1]))
policies = [r["policy"] for r in report["results"]]
assert len(policies) == 64 and set(policies) == {"verified", "checked", "external", "custom"}, policies
failing = [r for r in report["results"] if r["status"] == "fails"]
assert any(r["case"] == "0011-gate-identity-trap" and r["policy"] == "checked" for r in failing)
assert all(v["check"] == "gate" for r in failing for v in r["report"]["violations"])
names = re.findall(r'classname="([^"]*)"', open(sys.argv[2]).read())
assert len(names) == 64 and len(set(names)) == 64, names
assert "lowering-oracle.verify.0011-gate-identity-trap.coalesced-contract-gate-checked" in names
results = json.load(open(sys.argv[3]))["runs"][0]["results"]
assert results and all(r["ruleId"] == "gate" and r["properties"]["policy"] for r in results)
PYEOF
  # A gate that ignores requireEvidence: only the custom policies without it tell.
  rm -rf "$WORK/suite/out"
  gate_loop "$WORK/suite" "$PY $PEERS/gate_mutants.py --mutant ignores-require-evidence {plan} -o {out} --policy {policy} --mode {mode} --equality {equality} $BOOLEANS"
  [ "$loop_rc" -eq 1 ] || { cat "$WORK/loop.out" "$WORK/loop.err" >&2; fail "ignores-require-evidence: exit $loop_rc, expected 1"; }
  grep -q "^[0-9]*-[a-z-]*-gate-custom.json: /failures/0/kind: gate: under policy custom " "$WORK/loop.out" ||
    grep -q "^[0-9]*-[a-z-]*-gate-custom.json: /verdict: gate: under policy custom " "$WORK/loop.out" ||
    { cat "$WORK/loop.out" >&2; fail "ignores-require-evidence: no custom-policy difference"; }
  grep "^[0-9]*-[a-z-]*-gate-[a-z]*.json: " "$WORK/loop.out" | grep -v -- "-gate-custom.json: " &&
    fail "ignores-require-evidence: a preset's entry fails"
  ;;
readme-loop)
  "$BIN" gen --edition 2026-08 --out "$WORK/suite" --count 16 >/dev/null || fail "gen"
  readme_loop "$WORK/suite" "$PY $PEERS/conforming.py {plan} {out} {mode} {equality} {audit}"
  cat "$WORK/loop.out"
  [ "$loop_rc" -eq 0 ] || { cat "$WORK/loop.err" >&2; fail "loop + verify exit $loop_rc, expected 0"; }
  grep -qx "verify: 48 entries: 48 conform, 0 do not conform, 0 errors (missing or invalid output); judged in edition 2026-08" \
    "$WORK/loop.out" || fail "not 48 conforming entries"
  [ "$(ls "$WORK/suite/out" | wc -l)" -eq 48 ] || fail "the loop did not write 48 outputs"
  # The same loop with the identity peer: verify finds it (exit 1), and names the entries.
  rm -rf "$WORK/suite/out"
  readme_loop "$WORK/suite" "$PY $PEERS/identity.py {plan} {out} {mode} {equality} {audit}"
  [ "$loop_rc" -eq 1 ] || fail "identity peer: exit $loop_rc, expected 1"
  grep -q "^0003-trusted-external-in-checked-run-coalesced-contract.json: /groups/[0-9]*/capsule: capsule: " \
    "$WORK/loop.out" || { cat "$WORK/loop.out" >&2; fail "no capsule violation of case 3"; }
  grep -q "^verify: 48 entries: [0-9]* conform, [1-9][0-9]* do not conform, 0 errors" "$WORK/loop.out" ||
    fail "no summary with failing entries"
  ;;
reports)
  "$BIN" gen --edition 2026-08 --out "$WORK/suite" --count 12 >/dev/null || fail "gen"
  mkdir "$WORK/out"
  # Every output is the expected one, except: one missing, one invalid JSON, one wrong, one
  # unreadable (a directory).
  "$PY" - "$WORK/suite" "$WORK/out" <<'PYEOF' || fail "could not prepare the outputs"
import json, shutil, sys
suite, out = sys.argv[1:]
for e in json.load(open(suite + "/manifest.json"))["cases"]:
    shutil.copy(suite + "/" + e["files"]["expected"], "%s/%s-%s-%s.json" % (out, e["case"], e["mode"], e["equality"]))
PYEOF
  rm "$WORK/out/0001-one-node-singleton-contract.json"
  printf '{"groups": [\n  {"nodeIds": }]}' >"$WORK/out/0002-long-run-singleton-contract.json"
  cp "$WORK/suite/cases/0003-trusted-external-in-checked-run/coalesced-identity.json" \
     "$WORK/out/0003-trusted-external-in-checked-run-coalesced-contract.json"
  rm "$WORK/out/0004-alternating-capsules-coalesced-identity.json"
  mkdir "$WORK/out/0004-alternating-capsules-coalesced-identity.json"
  for f in text json junit sarif; do
    "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/out" --format $f -o "$WORK/report.$f" 2>"$WORK/err"
    rc=$?
    [ "$rc" -eq 1 ] || { cat "$WORK/err" >&2; fail "$f: exit $rc, expected 1"; }
    [ -s "$WORK/report.$f" ] || fail "$f: no report"
  done
  cat "$WORK/report.text"
  grep -qx "verify: 36 entries: 32 conform, 1 does not conform, 3 errors (missing or invalid output); judged in edition 2026-08" \
    "$WORK/report.text" || fail "text summary"
  grep -q "^0001-one-node-singleton-contract.json: error: no output: .* does not exist (case 0001-one-node, mode singleton, equality contract)\$" \
    "$WORK/report.text" || fail "text: missing output"
  grep -q "^0002-long-run-singleton-contract.json:2:15: /groups/0/nodeIds: error: " "$WORK/report.text" ||
    fail "text: invalid output with its position"
  grep -q "^0004-alternating-capsules-coalesced-identity.json: error: no output: .* is a directory, not a regular file " "$WORK/report.text" ||
    fail "text: unreadable output"
  grep -q "^0003-trusted-external-in-checked-run-coalesced-contract.json: /groups/[0-9]*/capsule: capsule: " \
    "$WORK/report.text" || fail "text: the violation"
  # JUnit: well-formed, one test case per entry, unique classnames, failures and errors counted.
  # The strict JUnit schema that check's reports are held to (tests/ci-schemas/junit.xsd).
  xmllint --noout --schema "$PEERS/../ci-schemas/junit.xsd" "$WORK/report.junit" ||
    fail "junit: not valid against junit.xsd"
  LO_SARIF_SCHEMA="$PEERS/../ci-schemas/sarif-schema-2.1.0.json" \
  "$PY" - "$WORK/report.json" "$WORK/report.junit" "$WORK/report.sarif" <<'PYEOF' || fail "json, junit or sarif content"
import json, sys
import xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
assert j["format"] == "lowering-oracle/verify-report", j["format"]
assert (j["entries"], j["conforming"], j["failing"], j["errors"], j["conforms"]) == (36, 32, 1, 3, False), j
status = {(r["case"], r["mode"], r["equality"]): r for r in j["results"]}
assert len(status) == 36
bad = status[("0003-trusted-external-in-checked-run", "coalesced", "contract")]
assert bad["status"] == "fails" and bad["report"]["violations"][0]["check"] == "capsule", bad
err = status[("0002-long-run", "singleton", "contract")]
assert err["status"] == "error" and err["error"]["line"] == 2 and err["error"]["column"] == 15, err
suites = ET.parse(sys.argv[2]).getroot().findall("testsuite")
assert len(suites) == 1, len(suites)
suite = suites[0]
cases = suite.findall("testcase")
assert len(cases) == 36 and suite.get("tests") == "36", len(cases)
assert len({c.get("classname") for c in cases}) == 36, "classnames are not unique"
assert all(c.get("time") is not None for c in cases)
assert len([c for c in cases if c.find("failure") is not None]) == 1 == int(suite.get("failures"))
assert len([c for c in cases if c.find("error") is not None]) == 3 == int(suite.get("errors"))
s = json.load(open(sys.argv[3]))
assert s["version"] == "2.1.0"
import jsonschema, os
schema = json.load(open(os.environ["LO_SARIF_SCHEMA"]))
errors = list(jsonschema.Draft7Validator(schema).iter_errors(s))
assert not errors, errors[:1]
run = s["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert "output-error" in rules and "capsule" in rules
kinds = sorted(r["ruleId"] for r in run["results"])
assert kinds.count("output-error") == 3 and "capsule" in kinds, kinds
# Located as check's SARIF is (docs/ci.md, "Reports"): a relative URI against %SRCROOT% or an
# absolute file URI, a region and partialFingerprints on every result.
import urllib.parse
def path_of(artifact):
    uri = artifact["uri"]
    if uri.startswith("file://"):
        return urllib.parse.unquote(uri[len("file://"):])
    assert artifact["uriBaseId"] == "%SRCROOT%", artifact
    return os.path.join(os.getcwd(), urllib.parse.unquote(uri))
assert "%SRCROOT%" in run["originalUriBaseIds"]
for r in run["results"]:
    assert rules[r["ruleIndex"]] == r["ruleId"]
    loc = r["locations"][0]["physicalLocation"]
    assert path_of(loc["artifactLocation"]).startswith(sys.argv[2].rsplit("/", 1)[0] + "/out/"), loc
    assert loc["region"]["startLine"] >= 1, r
    assert r["partialFingerprints"]["loweringOracle/v1"], r
assert len({r["partialFingerprints"]["loweringOracle/v1"] for r in run["results"]}) == len(run["results"])
invalid = [r for r in run["results"] if "0002-long-run" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]]
assert invalid[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 15}, invalid
# A violation's region is where the value its pointer names starts in the output.
located = 0
for r in run["results"]:
    if r["ruleId"] == "output-error":
        continue
    loc = r["locations"][0]
    region = loc["physicalLocation"]["region"]
    text = open(path_of(loc["physicalLocation"]["artifactLocation"]), encoding="utf-8").read()
    lines = text.split("\n")
    offset = sum(len(l) + 1 for l in lines[:region["startLine"] - 1]) + region["startColumn"] - 1
    value = json.loads(text)
    for token in loc["logicalLocations"][0]["fullyQualifiedName"].split("/")[1:]:
        value = value[int(token)] if isinstance(value, list) else value[token]
    assert json.JSONDecoder().raw_decode(text[offset:])[0] == value, (r, text[offset:offset + 40])
    located += 1
assert located >= 2, located
print("json, junit and sarif: 36 entries, 1 failing, 3 errors; %d violations located" % located)
PYEOF
  # Every output conforms: exit 0.
  rm -rf "$WORK/out/0004-alternating-capsules-coalesced-identity.json"
  cp "$WORK/suite/cases/0001-one-node/singleton.json" "$WORK/out/0001-one-node-singleton-contract.json"
  cp "$WORK/suite/cases/0002-long-run/singleton.json" "$WORK/out/0002-long-run-singleton-contract.json"
  cp "$WORK/suite/cases/0003-trusted-external-in-checked-run/coalesced-contract.json" \
     "$WORK/out/0003-trusted-external-in-checked-run-coalesced-contract.json"
  cp "$WORK/suite/cases/0004-alternating-capsules/coalesced-identity.json" \
     "$WORK/out/0004-alternating-capsules-coalesced-identity.json"
  "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/out" >"$WORK/ok" || { cat "$WORK/ok"; fail "conforming outputs: not exit 0"; }
  grep -qx "verify: 36 entries: 36 conform, 0 do not conform, 0 errors (missing or invalid output); judged in edition 2026-08" "$WORK/ok" ||
    fail "conforming summary"
  # Bad usage and a bad suite: exit 2, no report file.
  "$BIN" verify --edition 2026-08 "$WORK/nosuite" "$WORK/out" -o "$WORK/r2" 2>/dev/null; [ $? -eq 2 ] || fail "no suite: not exit 2"
  [ ! -e "$WORK/r2" ] || fail "a report was written for a bad suite"
  "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/none" 2>/dev/null; [ $? -eq 2 ] || fail "no outputs dir: not exit 2"
  "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/out" --format xml 2>/dev/null; [ $? -eq 2 ] || fail "bad format: not exit 2"
  sed 's#"cases/0000-empty-plan/plan.json"#"../../etc/passwd"#' "$WORK/suite/manifest.json" >"$WORK/m" &&
    mv "$WORK/m" "$WORK/suite/manifest.json"
  "$BIN" verify --edition 2026-08 "$WORK/suite" "$WORK/out" 2>"$WORK/err"; [ $? -eq 2 ] || fail "path outside the suite: not exit 2"
  grep -q "not a relative path inside the suite" "$WORK/err" || fail "no message for a path outside the suite"
  ;;
scale)
  # 334 cases (100 outside the campaign tier): 1,002 entries (300), every output the expected one;
  # judged in one process.
  cases=$(instance 100 334)
  sh "$PEERS/../../tools/verify-scale" "$BIN" "$cases" "$WORK" >"$WORK/scale" || { cat "$WORK/scale"; fail "verify-scale"; }
  cat "$WORK/scale"
  grep -q "^verify-scale: $((cases * 3)) entries judged in one process in [0-9.]* s\$" "$WORK/scale" ||
    fail "not $((cases * 3)) entries"
  ;;
*) fail "unknown case" ;;
esac
echo "ok [verify $WHAT]"
