#!/usr/bin/env python3
"""The reports CI systems ingest, validated by real validators (docs/ci.md, "Reports").

usage: reports_test.py BINARY WORKDIR CASE

CASE is one of
  sarif      `check --format sarif` on a failing, a conforming and an invalid candidate: each report
             validates against the SARIF 2.1.0 JSON Schema (sarif-schema-2.1.0.json, python3-jsonschema),
             results have regions that point at the offending value, uriBaseId and partialFingerprints
  junit      the same with `--format junit`: each report validates against junit.xsd (xmllint),
             class names are unique, and `time` is on every suite and test case
  invalid    an invalid candidate (exit status 2) still writes a json, junit and sarif report with an
             error entry, and its line on standard error
  injection  a capsule name holding a newline, a forged verdict and ESC[8m cannot forge a line or
             reach the terminal in the text, JUnit and SARIF reports; a long name is cut with "…"
  verify-injection
             the same for `verify`: a hand-made suite (--unverified-suite) whose case name holds a
             newline, a forged summary and ESC[8m, judged against an outputs directory whose name
             is not UTF-8: the text report is one line an entry plus the unverified note and the
             summary, the JUnit and SARIF reports validate, and the JSON report is valid UTF-8
             with the names shown escaped
  hostile-utf8
             docs/spec.md §3.5 for every format: a capsule name holding U+FFFF, U+FFFE, U+2028,
             U+0085 and bidirectional controls, and a candidate file name holding a surrogate
             (ED A0 80), an overlong form (E0 80 AF) and a code point above U+10FFFF (F4 90 80 80):
             the text, JSON, JUnit and SARIF reports of `check` (a failing and an invalid
             candidate) and the error line are valid UTF-8 with every one of them escaped (`\\xNN`,
             `\\uXXXX`), the JSON parses, the JUnit validates (xmllint), the SARIF validates; the
             `gate` and `audit` text split into the same lines by a Unicode line splitter as by
             newlines; a case name of `verify` holding the same is shown the same way, and a
             repeated manifest entry still gets a JUnit class name of its own
  saved-text `diff`'s report.txt, when the implementation writes ESC, a Unicode line separator
             and a surrogate to standard error, and `prove --emit-smt2` into a directory that
             cannot be made, named with ESC and a newline: no raw control byte, valid UTF-8
Exit status 0 when every assertion holds; the first failure is printed.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CONTRACT = '{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}}'


def plan(name):
    capsule = {"name": name, "op": "relu", "provider": "reference", "device": "cpu",
               "trustLevel": "verified"}
    for field in ("shapeContract", "layoutContract", "valueContract", "vjpContract"):
        capsule[field] = json.loads(CONTRACT)
    return json.dumps({"format": "nn-backend/graph-execution-plan", "version": 1,
                       "capsules": {"r": capsule},
                       "kernels": [{"nodeId": 1, "kind": "relu", "op": "relu", "capsule": "r"},
                                   {"nodeId": 2, "kind": "relu", "op": "relu", "capsule": "r"}]},
                      indent=1)


class Failed(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise Failed(what)


# The edition of these plans (the seed's capsule: trust level verified, notProvided evidence) and
# of the suites gen writes for them (docs/spec.md §1.6).
EDITION = "2026-08"


def run(binary, command, *args):
    return subprocess.run([binary, command, "--edition", EDITION, *args], capture_output=True)


def prepare(binary, work, name="reference.relu"):
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "plan.json"), "w") as f:
        f.write(plan(name))
    for mode in ("coalesced", "singleton"):
        r = run(binary, "lower", os.path.join(work, "plan.json"), "--mode", mode,
                "-o", os.path.join(work, mode + ".json"))
        expect(r.returncode == 0, "lower: %r" % r.stderr)
    with open(os.path.join(work, "invalid.json"), "w") as f:
        f.write('{"format":"nn-backend/graph-lowering-plan","version":1,\n "groups":[{"nodeIds":"x"}]}\n')


def candidates(work):
    """(candidate, expected exit status) as check is run in `work`."""
    return [("singleton.json", 1), ("coalesced.json", 0), ("invalid.json", 2)]


def report(binary, work, candidate, fmt, out):
    r = subprocess.run([binary, "check", "--edition", EDITION, "plan.json", candidate, "--mode", "coalesced",
                        "--format", fmt, "-o", out], capture_output=True, cwd=work)
    return r


def sarif(binary, work):
    import jsonschema
    with open(os.path.join(HERE, "sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    for candidate, status in candidates(work):
        out = os.path.join(work, candidate + ".sarif")
        r = report(binary, work, candidate, "sarif", out)
        expect(r.returncode == status, "%s: exit %d, not %d" % (candidate, r.returncode, status))
        with open(out) as f:
            log = json.load(f)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        expect(not errors, "%s: not SARIF 2.1.0: %s at %s" % (
            candidate, errors[0].message if errors else "", list(errors[0].path) if errors else ""))
        run0 = log["runs"][0]
        expect("%SRCROOT%" in run0["originalUriBaseIds"], "no %SRCROOT% base")
        results = run0["results"]
        expect((len(results) > 0) == (status != 0), "%s: %d results" % (candidate, len(results)))
        with open(os.path.join(work, candidate), encoding="utf-8") as f:
            lines = f.read().split("\n")
        for res in results:
            loc = res["locations"][0]["physicalLocation"]
            expect(loc["artifactLocation"].get("uriBaseId") == "%SRCROOT%", "no uriBaseId")
            expect(loc["artifactLocation"]["uri"] == candidate, "uri %r" % loc["artifactLocation"])
            expect("loweringOracle/v1" in res["partialFingerprints"], "no partialFingerprints")
            region = loc.get("region")
            expect(region is not None, "%s: a result without a region" % candidate)
            line = lines[region["startLine"] - 1]
            at = line[region["startColumn"] - 1:]
            if res["ruleId"] == "maximal":  # the pointer /groups/1 names the second group object
                expect(at.startswith("{"), "region %r points at %r" % (region, at[:20]))
                expect(res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "/groups/1",
                       "pointer")
            if res["ruleId"] == "invalid-input":  # the reader's position of the bad value
                expect(at.startswith('"x"'), "region %r points at %r" % (region, at[:20]))
        if status == 2:
            expect(run0["invocations"][0]["executionSuccessful"] is False, "executionSuccessful")
            expect(results[0]["ruleId"] == "invalid-input", "ruleId %r" % results[0]["ruleId"])
    # Fingerprints are stable: the same finding, the same fingerprint.
    out2 = os.path.join(work, "again.sarif")
    report(binary, work, "singleton.json", "sarif", out2)
    a = json.load(open(os.path.join(work, "singleton.json.sarif")))["runs"][0]["results"]
    b = json.load(open(out2))["runs"][0]["results"]
    expect([r["partialFingerprints"] for r in a] == [r["partialFingerprints"] for r in b],
           "fingerprints differ between two runs")


def xmllint(path):
    r = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(HERE, "junit.xsd"), path],
                       capture_output=True, text=True)
    expect(r.returncode == 0, "%s: not valid against junit.xsd: %s" % (path, r.stderr.strip()))


def junit(binary, work):
    import xml.etree.ElementTree as ET
    for candidate, status in candidates(work):
        out = os.path.join(work, candidate + ".xml")
        r = report(binary, work, candidate, "junit", out)
        expect(r.returncode == status, "%s: exit %d, not %d" % (candidate, r.returncode, status))
        xmllint(out)
        root = ET.parse(out).getroot()
        suites = root.findall("testsuite")
        expect(len(suites) == 1, "one suite")
        expect(float(suites[0].get("time")) >= 0, "time on the suite")
        cases = suites[0].findall("testcase")
        names = {c.get("classname") for c in cases}
        expect(len(names) == 1 and candidate.replace(".", "_") in names.pop(),
               "%s: class names %r" % (candidate, {c.get("classname") for c in cases}))
        expect(all(c.get("time") is not None for c in cases), "time on every test case")
        if status == 2:
            expect(suites[0].get("errors") == "1" and cases[0].find("error") is not None,
                   "an error entry")
        if status == 1:
            failed = [c.get("name") for c in cases if c.find("failure") is not None]
            expect(failed == ["maximal"], "failed test cases %r" % failed)


def junit_epoch(binary, work):
    """$SOURCE_DATE_EPOCH is the report's time only when gmtime renders it with a four-digit year;
    any other value (too large, negative, not a number) leaves a timestamp the XSD accepts."""
    import xml.etree.ElementTree as ET
    cases = [("0", "1970-01-01T00:00:00"), ("253402300799", "9999-12-31T23:59:59"),
             ("1700000000", "2023-11-14T22:13:20"), ("253402300800", None),
             ("99999999999999999999999", None), ("-62167219201", None), ("12x", None),
             (" 5", None)]
    for value, shown in cases:
        out = os.path.join(work, "epoch.xml")
        env = dict(os.environ, SOURCE_DATE_EPOCH=value)
        r = subprocess.run([binary, "check", "--edition", EDITION, "plan.json", "coalesced.json", "--format", "junit",
                            "-o", out], capture_output=True, cwd=work, env=env)
        expect(r.returncode == 0, "SOURCE_DATE_EPOCH=%r: exit %d" % (value, r.returncode))
        xmllint(out)
        stamp = ET.parse(out).getroot().find("testsuite").get("timestamp")
        if shown is not None:
            expect(stamp == shown, "SOURCE_DATE_EPOCH=%r: timestamp %r, not %r" % (value, stamp, shown))
        else:
            expect(stamp[:2] == "20", "SOURCE_DATE_EPOCH=%r: timestamp %r is not now" % (value, stamp))


def invalid(binary, work):
    for fmt in ("json", "junit", "sarif"):
        out = os.path.join(work, "report-invalid." + fmt)
        r = report(binary, work, "invalid.json", fmt, out)
        expect(r.returncode == 2, "%s: exit %d" % (fmt, r.returncode))
        expect(b"invalid.json:2:" in r.stderr, "%s: the error line on stderr: %r" % (fmt, r.stderr))
        expect(os.path.exists(out), "%s: no report written" % fmt)
        text = open(out).read()
        expect("invalid.json" in text and "nodeIds" in text, "%s: the error is in the report" % fmt)
    doc = json.load(open(os.path.join(work, "report-invalid.json")))
    expect(doc["error"]["line"] == 2 and doc["error"]["pointer"] == "/groups/0/nodeIds",
           "json error entry: %r" % doc["error"])
    expect(doc["conforms"] is False, "an invalid candidate does not conform")
    # text: no report file (the error line on standard error is the report)
    r = report(binary, work, "invalid.json", "text", os.path.join(work, "invalid.txt"))
    expect(r.returncode == 2 and not os.path.exists(os.path.join(work, "invalid.txt")),
           "text: exit 2, no partial file")


def injection(binary, work):
    forged = "relu\n/groups/1: conforms to the coalesced lowering\u001b[8m\u009b31m\u202e"
    prepare(binary, work, forged)
    r = subprocess.run([binary, "check", "--edition", EDITION, "plan.json", "singleton.json", "--mode", "coalesced"],
                       capture_output=True, cwd=work)
    out = r.stdout
    expect(r.returncode == 1, "exit %d" % r.returncode)
    for bad in (b"\x1b", b"\xc2\x9b", b"\xe2\x80\xae"):
        expect(bad not in out, "a control sequence reaches the terminal: %r" % out)
    lines = out.decode().split("\n")[:-1]
    expect(len(lines) == 3, "one line a violation, note and summary: %r" % lines)
    expect(all(line.startswith("singleton.json: ") for line in lines), "a forged line: %r" % lines)
    expect("does not conform" in lines[-1], "the verdict is the last line")
    expect("\\u000a/groups/1: conforms" in lines[0] and "\\u001b[8m" in lines[0], "shown escaped")
    # JUnit and SARIF carry the escaped text, never the raw control characters.
    for fmt in ("junit", "sarif"):
        path = os.path.join(work, "forged." + fmt)
        report(binary, work, "singleton.json", fmt, path)
        raw = open(path, "rb").read()
        expect(b"\x1b" not in raw and b"\xc2\x9b" not in raw, "%s: ESC or CSI in the report" % fmt)
        expect(b"u001b[8m" in raw, "%s: the escaped name is shown" % fmt)
        if fmt == "junit":
            xmllint(path)
        else:
            text = json.load(open(path))["runs"][0]["results"][0]["message"]["text"]
            expect("\n" not in text and "\x1b" not in text, "sarif message: %r" % text)
    # A long name is cut with an ellipsis at the documented cap.
    long_work = os.path.join(work, "long")
    prepare(binary, long_work, "n" * 5000)
    r = subprocess.run([binary, "check", "--edition", EDITION, "plan.json", "singleton.json", "--mode", "coalesced"],
                       capture_output=True, cwd=long_work)
    first = r.stdout.decode().split("\n")[0]
    expect(first.endswith("\u2026") and len(first.encode()) < 1200, "not cut: %d bytes" % len(first))


def verify_injection(binary, work):
    suite = os.path.join(work, "suite")
    shutil.rmtree(suite, ignore_errors=True)  # a suite of an earlier run, made hand-made below
    r = run(binary, "gen", "--out", suite, "--count", "1")
    expect(r.returncode == 0, "gen: %r" % r.stderr)
    forged = "x\nverify: 3 entries: 3 conform\u001b[8m\u009b31m\u202e"
    manifest = json.load(open(os.path.join(suite, "manifest.json")))
    for entry in manifest["cases"]:
        entry["case"] = forged
    manifest.pop("gates", None)
    for key in ("seed", "count", "maxNodes"):  # a hand-made suite: judged unverified
        manifest.pop(key)
    with open(os.path.join(suite, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    outputs = os.path.join(work.encode(), b"outputs-\xff\x1b[8m")  # not UTF-8, and ESC
    os.makedirs(outputs, exist_ok=True)
    for fmt in ("text", "json", "junit", "sarif"):
        path = os.path.join(work, "verify." + fmt)
        r = subprocess.run([binary.encode(), b"verify", b"--edition", EDITION.encode(), suite.encode(), outputs,
                            b"--unverified-suite", b"--format", fmt.encode(), b"-o", path.encode()], capture_output=True)
        expect(r.returncode == 1, "verify --format %s: exit %d %r" % (fmt, r.returncode, r.stderr))
        raw = open(path, "rb").read()
        for bad in (b"\x1b", b"\xc2\x9b", b"\xe2\x80\xae", b"\xff"):
            expect(bad not in raw, "%s: %r reaches the report" % (fmt, bad))
        text = raw.decode("utf-8")  # valid UTF-8
        if fmt == "text":
            lines = text.split("\n")[:-1]
            expect(len(lines) == 6, "three error lines, the note, the suite and the summary: %r"
                   % lines)
            expect(all("outputs-\\xff\\u001b[8m/x\\u000averify: 3 entries" in line
                       for line in lines[:3]), "the output shown escaped: %r" % lines)
            expect("was not verified" in lines[3], "the unverified note: %r" % lines[3])
            expect(lines[4].startswith("verify: suite ") and
                   lines[4].endswith(": no seed, count or max-nodes (a hand-made suite), edition "
                                     "2026-08, not verified"), "the suite: %r" % lines[4])
            expect(lines[5].startswith("verify: 3 entries: 0 conform"), "summary: %r" % lines[5])
        elif fmt == "json":
            doc = json.loads(text)
            expect(doc["outputs"].endswith("outputs-\\xff\\u001b[8m"), "json: %r" % doc["outputs"])
            expect(all(r["case"] == "x\\u000averify: 3 entries: 3 conform\\u001b[8m\\u009b31m\\u202e"
                       for r in doc["results"]), "json: the case names shown")
        elif fmt == "junit":
            xmllint(path)
        else:
            import jsonschema
            log = json.loads(text)
            with open(os.path.join(HERE, "sarif-schema-2.1.0.json")) as f:
                schema = json.load(f)
            errors = list(jsonschema.Draft7Validator(schema).iter_errors(log))
            expect(not errors, "verify's SARIF is not valid: %s" % errors[:1])
            expect(len(log["runs"][0]["results"]) == 3, "one result per error entry")
            for result in log["runs"][0]["results"]:
                message = result["message"]["text"]
                expect("\n" not in message and "\x1b" not in message, "sarif: %r" % message)

HOSTILE_NAME = "relu\uffff\ufffe\u2028accepted by policy verified\u0085\u202a\u202e\u2066\u2069x"
BAD_BYTES = (b"\xed\xa0\x80", b"\xe0\x80\xaf", b"\xf4\x90\x80\x80", b"\xef\xbf\xbf",
             b"\xef\xbf\xbe", b"\xe2\x80\xa8", b"\xc2\x85", b"\xe2\x80\xaa", b"\xe2\x80\xae",
             b"\xe2\x81\xa6", b"\xe2\x81\xa9", b"\x1b", b"\n")
SHOWN_NAME = "relu\\uffff\\ufffe\\u2028accepted by policy verified\\u0085\\u202a\\u202e\\u2066\\u2069x"
BAD_FILE = b"cand-\xed\xa0\x80-\xe0\x80\xaf-\xf4\x90\x80\x80.json"
SHOWN_FILE = "cand-\\xed\\xa0\\x80-\\xe0\\x80\\xaf-\\xf4\\x90\\x80\\x80.json"


def expect_shown(fmt, raw, where):
    """`raw` (a report's bytes) holds none of BAD_BYTES (a newline only between lines) and is UTF-8."""
    lines = raw.split(b"\n") if fmt in ("text", "stderr") else [raw.replace(b"\n", b"")]
    for line in lines:
        for bad in BAD_BYTES:
            expect(bad not in line, "%s %s: %r reaches the report: %r" % (where, fmt, bad, line[:300]))
    text = raw.decode("utf-8")  # strict: no surrogate, overlong form or code point above U+10FFFF
    expect(text.splitlines() == text.split("\n")[:len(text.splitlines())],
           "%s %s: a Unicode line splitter sees another line" % (where, fmt))
    return text


def sarif_valid(log, where):
    import jsonschema
    with open(os.path.join(HERE, "sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(log))
    expect(not errors, "%s: SARIF not valid: %s" % (where, errors[:1]))


def hostile_utf8(binary, work):
    prepare(binary, work, HOSTILE_NAME)
    wb = work.encode()
    with open(os.path.join(wb, BAD_FILE), "wb") as f:
        f.write(open(os.path.join(work, "singleton.json"), "rb").read())
    with open(os.path.join(wb, b"invalid-" + BAD_FILE), "wb") as f:
        f.write(open(os.path.join(work, "invalid.json"), "rb").read())
    for candidate, status in ((BAD_FILE, 1), (b"invalid-" + BAD_FILE, 2)):
        shown = ("invalid-" if status == 2 else "") + SHOWN_FILE
        for fmt in ("text", "json", "junit", "sarif"):
            out = os.path.join(work, "hostile-%d.%s" % (status, fmt))
            r = subprocess.run([binary, "check", "--edition", EDITION, "plan.json", candidate, "--mode", "coalesced",
                                "--format", fmt, "-o", out], capture_output=True, cwd=work)
            where = "check %s (exit %d)" % (candidate, status)
            expect(r.returncode == status, "%s --format %s: exit %d %r"
                   % (where, fmt, r.returncode, r.stderr))
            if status == 2:
                err = expect_shown("stderr", r.stderr, where)
                expect(shown in err, "%s: the file name shown on stderr: %r" % (where, err))
                if fmt == "text":
                    continue  # the error line on standard error is the report
            text = expect_shown(fmt, open(out, "rb").read(), where)
            if fmt == "text":
                expect(shown in text and (status == 2 or SHOWN_NAME in text),
                       "%s text: the names shown: %r" % (where, text))
            elif fmt == "json":
                doc = json.loads(text)
                expect(doc["candidate"] == shown, "%s json: candidate %r" % (where, doc["candidate"]))
                if status == 1:
                    expect(any(SHOWN_NAME in v["message"] for v in doc["violations"]),
                           "%s json: the capsule name shown: %r" % (where, doc["violations"]))
            elif fmt == "junit":
                xmllint(out)
                expect(shown in text, "%s junit: the file name shown" % where)
            else:
                log = json.loads(text)
                sarif_valid(log, where)
                messages = [x["message"]["text"] for x in log["runs"][0]["results"]]
                expect(messages and all(shown in m or SHOWN_NAME in m for m in messages),
                       "%s sarif: %r" % (where, messages))
    # gate and audit text: each report line is one line for any line splitter.
    for args in (["gate", "plan.json"], ["audit", "plan.json", "--format", "text"],
                 ["audit", "plan.json", "--format", "text", "--detailed"]):
        r = subprocess.run([binary, args[0], "--edition", EDITION] + args[1:], capture_output=True,
                           cwd=work)
        expect(r.returncode in (0, 1), "%s: exit %d %r" % (args, r.returncode, r.stderr))
        text = expect_shown("text", r.stdout, " ".join(args))
        expect(SHOWN_NAME in text, "%s: the capsule name shown: %r" % (args, text))
    # verify: a case name holding the same characters, and a lone surrogate escaped in JSON.
    suite = os.path.join(work, "suite")
    r = run(binary, "gen", "--out", suite, "--count", "1", "--force")
    expect(r.returncode == 0, "gen: %r" % r.stderr)
    manifest = json.load(open(os.path.join(suite, "manifest.json")))
    for entry in manifest["cases"]:
        entry["case"] = HOSTILE_NAME
    manifest["cases"].append(dict(manifest["cases"][0]))  # a repeated entry
    manifest.pop("gates", None)
    with open(os.path.join(suite, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    outputs = os.path.join(wb, b"outputs-" + BAD_FILE)
    os.makedirs(outputs, exist_ok=True)
    for fmt in ("text", "json", "junit", "sarif"):
        path = os.path.join(work, "verify-hostile." + fmt)
        r = subprocess.run([binary.encode(), b"verify", b"--edition", EDITION.encode(), suite.encode(), outputs, b"--format",
                            fmt.encode(), b"-o", path.encode()], capture_output=True)
        expect(r.returncode in (1, 2), "verify --format %s: exit %d %r"
               % (fmt, r.returncode, r.stderr))
        expect_shown("stderr", r.stderr, "verify")
        if not os.path.exists(path):
            continue
        text = expect_shown(fmt, open(path, "rb").read(), "verify")
        expect("outputs-" + SHOWN_FILE in text or "outputs-" + SHOWN_FILE.replace("\\", "\\\\")
               in text, "verify %s: the outputs directory shown: %r" % (fmt, text[:400]))
        if fmt == "json":
            json.loads(text)
        elif fmt == "junit":
            xmllint(path)
            import xml.etree.ElementTree as ET
            names = [c.get("classname") for c in ET.parse(path).getroot().iter("testcase")]
            expect(len(names) == len(manifest["cases"]) and len(set(names)) == len(names),
                   "verify junit: class names not unique: %r" % names)
        elif fmt == "sarif":
            sarif_valid(json.loads(text), "verify")


def saved_text(binary, work):
    impl = os.path.join(work, "impl.py")
    with open(impl, "w") as f:
        f.write("import sys\nsys.stderr.buffer.write(b'bad\\x1b[8m\\xe2\\x80\\xa8forged\\xed\\xa0\\x80\\n')\n"
                "sys.exit(3)\n")
    keep = os.path.join(work, "keep")
    r = subprocess.run([binary, "diff", "--impl", "/usr/bin/python3 %s {plan}" % impl, "--count", "1",
                        "--keep", keep], capture_output=True)
    expect(r.returncode == 1, "diff: exit %d %r" % (r.returncode, r.stderr))
    raw = open(os.path.join(keep, "report.txt"), "rb").read()
    for bad in (b"\x1b", b"\xe2\x80\xa8", b"\xed\xa0\x80"):
        expect(bad not in raw, "report.txt: %r reaches it: %r" % (bad, raw))
    text = raw.decode("utf-8")
    expect("bad\\u001b[8m\\u2028forged\\xed\\xa0\\x80" in text, "report.txt: %r" % text)
    expect(b"\x1b" in open(os.path.join(keep, "stderr.txt"), "rb").read(),
           "stderr.txt keeps the implementation's bytes")
    target = os.path.join(work, "plan.json", "x\x1b[8m\ny")  # under a file: cannot be made
    r = subprocess.run([binary, "prove", "--bound", "1", "--emit-smt2", target],
                       capture_output=True)
    expect(r.returncode == 2, "prove --emit-smt2: exit %d %r" % (r.returncode, r.stderr))
    expect(b"\x1b" not in r.stderr and r.stderr.count(b"\n") == 1,
           "prove --emit-smt2's error: %r" % r.stderr)


def selection(binary, work):
    """check-plan's JUnit and SARIF reports (docs/spec.md §10.8): valid, a result per departure,
    and a capsule name forged with a line break and escapes shown escaped in every format."""
    import xml.etree.ElementTree as ET
    graph = os.path.join(REPO, "examples", "graphs", "mlp.json")
    cuda = os.path.join(work, "cuda.json")
    r = subprocess.run([binary, "plan", graph, "--edition", "2026-09", "--profile", "checked_cuda",
                        "-o", cuda], capture_output=True)
    expect(r.returncode == 0, "plan: %r" % r.stderr)
    doc = json.load(open(cuda))
    forged = "native\n/kernels/9/capsule: conforms\u001b[8m\u202e"
    for capsule in doc["capsules"].values():
        capsule["name"] = forged + capsule["name"]
    with open(os.path.join(work, "forged.json"), "w") as f:
        json.dump(doc, f)
    for candidate in ("cuda.json", "forged.json"):
        outputs = {}
        for fmt in ("text", "junit", "sarif"):
            out = os.path.join(work, candidate + "." + fmt)
            r = subprocess.run([binary, "check-plan", graph, candidate, "--edition", "2026-09",
                                "--format", fmt, "-o", out], capture_output=True, cwd=work)
            expect(r.returncode == 1, "%s %s: exit %d %r" % (candidate, fmt, r.returncode, r.stderr))
            outputs[fmt] = open(out, "rb").read()
            for bad in (b"\x1b", b"\xe2\x80\xae"):
                expect(bad not in outputs[fmt], "%s %s: a raw control sequence" % (candidate, fmt))
        lines = outputs["text"].decode().split("\n")[:-1]
        expect(all(line.startswith(candidate + ": ") for line in lines), "a forged line: %r" % lines)
        xmllint(os.path.join(work, candidate + ".junit"))
        root = ET.parse(os.path.join(work, candidate + ".junit")).getroot()
        cases = root.findall("./testsuite/testcase")
        failing = [c.get("name") for c in cases if c.find("failure") is not None]
        expect(failing == ["selection.not-in-registry", "selection.not-admissible"]
               if candidate == "forged.json" else failing == ["selection.not-admissible"],
               "%s: failing cases %r" % (candidate, failing))
        log = json.loads(outputs["sarif"])
        sarif_valid(log, candidate)
        run = log["runs"][0]
        rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
        results = run["results"]
        expect(len(results) == len(lines) - 1, "%s: %d results for %d departures"
               % (candidate, len(results), len(lines) - 1))
        for result in results:
            expect(rules[result["ruleIndex"]] == result["ruleId"], "rule index of %r" % result)
            expect("\n" not in result["message"]["text"], "sarif message: %r" % result)
            expect("region" in result["locations"][0]["physicalLocation"], "no region: %r" % result)


def verify_selection(binary, work):
    """verify --selection's JUnit and SARIF reports (docs/spec.md §4.3, "Selection entries"):
    valid, one test case per entry, a result per departure and per error, and a capsule name
    forged with a line break and escapes shown escaped in every format."""
    import xml.etree.ElementTree as ET
    suite, out = os.path.join(work, "suite"), os.path.join(work, "out")
    for old in (suite, out):  # a run before this one
        shutil.rmtree(old, ignore_errors=True)
    r = subprocess.run([binary, "gen", "--edition", "2026-10", "--count", "6", "--seed", "5",
                        "--out", suite], capture_output=True)
    expect(r.returncode == 0, "gen: %r" % r.stderr)
    r = subprocess.run([binary, "verify", suite, out, "--selection", "--impl",
                        binary + " plan {graph} --profile-file {profile} -o {out}"],
                       capture_output=True)
    expect(r.returncode == 0, "verify --selection --impl: exit %d %r" % (r.returncode, r.stdout))
    plans = sorted(f for f in os.listdir(out) if f.endswith(".json"))
    refusals = sorted(f for f in os.listdir(out) if f.endswith(".error"))
    expect(plans and refusals, "both plans and refusals: %r" % os.listdir(out))
    # One plan's capsules forged, one refusal gone: departures and an error entry.
    forged = "native\n/kernels/9/capsule: conforms\u001b[8m\u202e"
    path = os.path.join(out, plans[0])
    doc = json.load(open(path))
    for capsule in doc["capsules"].values():
        capsule["name"] = forged + capsule["name"]
    with open(path, "w") as f:
        json.dump(doc, f)
    os.remove(os.path.join(out, refusals[0]))
    outputs = {}
    for fmt in ("text", "junit", "sarif"):
        target = os.path.join(work, "verify." + fmt)
        r = subprocess.run([binary, "verify", suite, out, "--selection", "--format", fmt, "-o",
                            target], capture_output=True)
        expect(r.returncode == 1, "verify --selection %s: exit %d %r" % (fmt, r.returncode,
                                                                         r.stderr))
        outputs[fmt] = open(target, "rb").read()
        for bad in (b"\x1b", b"\xe2\x80\xae"):
            expect(bad not in outputs[fmt], "%s: a raw control sequence" % fmt)
    lines = outputs["text"].decode().split("\n")[:-1]
    expect(all(line.startswith((out + "/", "verify: ")) for line in lines),
           "a forged line: %r" % lines)
    departures = [line for line in lines if ": selection." in line]
    expect(departures, "no departure listed: %r" % lines)
    xmllint(os.path.join(work, "verify.junit"))
    cases = ET.parse(os.path.join(work, "verify.junit")).getroot().findall("./testsuite/testcase")
    expect(len(cases) == 6, "%d test cases for 6 entries" % len(cases))
    expect(len([c for c in cases if c.find("failure") is not None]) == 1, "one failing entry")
    expect(len([c for c in cases if c.find("error") is not None]) == 1, "one error entry")
    log = json.loads(outputs["sarif"])
    sarif_valid(log, "verify --selection")
    run = log["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    results = run["results"]
    expect(len(results) == len(departures) + 1, "%d results for %d departures and an error"
           % (len(results), len(departures)))
    for result in results:
        expect(rules[result["ruleIndex"]] == result["ruleId"], "rule index of %r" % result)
        expect("\n" not in result["message"]["text"], "sarif message: %r" % result)


def main():
    binary, work, case = sys.argv[1], sys.argv[2], sys.argv[3]
    prepare(binary, work)
    try:
        {"sarif": sarif, "junit": junit, "junit-epoch": junit_epoch, "invalid": invalid, "injection": injection,
         "verify-injection": verify_injection, "hostile-utf8": hostile_utf8,
         "saved-text": saved_text, "selection": selection,
         "verify-selection": verify_selection}[case](binary, work)
    except Failed as e:
        print("FAILED:", e)
        return 1
    print("ok:", case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
