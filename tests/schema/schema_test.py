#!/usr/bin/python3
"""The JSON Schemas of docs/schema/ (docs/spec.md §9) against the real binary's documents.

    schema_test.py CASE BINARY SOURCE_DIR

CASE is one of the functions named in CASES below. Every document is validated with
python3-jsonschema's Draft202012Validator; the schemas' relative references to
common.schema.json are resolved from the schema directory. A case prints what it validated and
exits 0, or prints every failure and exits 1; 77 means the binary lacks the command the case
needs (ctest reports the case as skipped).
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from jsonschema import Draft202012Validator, RefResolver

SKIP = 77


class Schemas:
    """The schemas of docs/schema/, with common.schema.json preloaded for `$ref`."""

    def __init__(self, source):
        self.dir = os.path.join(source, "docs", "schema")
        self.docs = {}
        for name in sorted(os.listdir(self.dir)):
            if name.endswith(".schema.json"):
                with open(os.path.join(self.dir, name), encoding="utf-8") as f:
                    self.docs[name] = json.load(f)
        self.store = {self.uri(n): d for n, d in self.docs.items()}

    def uri(self, name):
        return "file://" + os.path.join(self.dir, name)

    def validator(self, name):
        schema = self.docs[name + ".schema.json"]
        resolver = RefResolver(self.uri(name + ".schema.json"), schema, store=self.store)
        return Draft202012Validator(schema, resolver=resolver)

    def errors(self, name, doc):
        return [
            "%s: %s" % ("/" + "/".join(str(p) for p in e.absolute_path), e.message)
            for e in self.validator(name).iter_errors(doc)
        ]


class Run:
    def __init__(self, binary, source):
        self.binary = binary
        self.source = source
        self.schemas = Schemas(source)
        self.failures = []
        self.validated = 0
        self.tmp = tempfile.mkdtemp(prefix="lo-schema-")

    def fail(self, what):
        self.failures.append(what)

    def tool(self, args, expect, stdin=None):
        """Runs the binary; returns its standard output. `expect` is the exit status wanted."""
        r = subprocess.run([self.binary] + args, input=stdin, capture_output=True, timeout=600)
        if r.returncode != expect:
            self.fail("lowering-oracle %s: exit %d, expected %d; stderr: %s" % (
                " ".join(args), r.returncode, expect, r.stderr.decode(errors="replace")[:500]))
        return r.stdout

    def has_command(self, name):
        r = subprocess.run([self.binary, "--help"], capture_output=True)
        return re.search(r"^\s+%s\s" % re.escape(name), r.stdout.decode(), re.M) is not None

    def valid(self, schema, doc, what):
        self.validated += 1
        for e in self.schemas.errors(schema, doc):
            self.fail("%s is not a valid %s: %s" % (what, schema, e))

    def valid_text(self, schema, text, what):
        try:
            doc = json.loads(text)
        except ValueError as e:
            self.fail("%s is not JSON: %s" % (what, e))
            return None
        self.valid(schema, doc, what)
        return doc

    def valid_file(self, schema, path, what=None):
        with open(path, "rb") as f:
            return self.valid_text(schema, f.read(), what or os.path.relpath(path, self.tmp))

    def valid_stream(self, text, record, what):
        lines = text.decode().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            self.fail("%s: empty stream" % what)
            return
        self.valid_text("stream-header", lines[0], what + " line 1")
        for i, line in enumerate(lines[1:], start=2):
            self.valid_text(record, line, "%s line %d" % (what, i))

    def example(self, name):
        return os.path.join(self.source, "examples", name)

    def plans(self):
        """The GraphExecutionPlans of examples/."""
        out = []
        for name in sorted(os.listdir(os.path.join(self.source, "examples"))):
            if name.endswith(".json"):
                with open(self.example(name), encoding="utf-8") as f:
                    if schema_of(json.load(f)) == "graph-execution-plan":
                        out.append(self.example(name))
        return out

    def write(self, name, doc):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def finish(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        for f in self.failures:
            print("FAIL:", f)
        print("%d documents validated, %d failures" % (self.validated, len(self.failures)))
        return 1 if self.failures or self.validated == 0 else 0


# The schema of each `format`; a document without one is a plan or a lowering plan, told apart by
# its fields as the readers tell them (docs/spec.md §4.3, audit).
FORMATS = {"nn-backend/graph-execution-plan": "graph-execution-plan",
           "nn-backend/graph-lowering-plan": "graph-lowering-plan",
           "nn-backend/execution-audit": "execution-audit",
           "nn-backend/gate-result": "gate-result",
           "lowering-oracle/check-report": "check-report",
           "lowering-oracle/conformance-suite": "conformance-suite",
           "lowering-oracle/proofs": "proofs"}


def schema_of(doc):
    if isinstance(doc, dict) and doc.get("format") in FORMATS:
        return FORMATS[doc["format"]]
    if isinstance(doc, dict) and "kernels" in doc and "capsuleNames" not in doc:
        return "graph-execution-plan"
    if isinstance(doc, dict) and "groups" in doc:
        return "graph-lowering-plan"
    return None


# --- Cases ------------------------------------------------------------------------------------


def case_schemas(run):
    """Every schema is a valid draft 2020-12 schema, and every reference resolves."""
    for name, doc in run.schemas.docs.items():
        try:
            Draft202012Validator.check_schema(doc)
        except Exception as e:  # jsonschema.SchemaError
            run.fail("%s is not a valid schema: %s" % (name, e))
        for ref in re.findall(r'"\$ref": "([^"]+)"', json.dumps(doc, indent=1)):
            target, _, pointer = ref.partition("#")
            base = run.schemas.docs[target] if target else doc
            node = base
            for part in pointer.split("/")[1:]:
                node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                run.fail("%s: $ref %s does not resolve" % (name, ref))
        run.validated += 1


def xmacro(text, macro):
    m = re.search(r"#define %s\(X\)(.*?)\n(?!\s*X\()" % macro, text, re.S)
    return re.findall(r'X\(\w+, "([^"]+)"\)', m.group(1)) if m else None


def case_vocabularies(run):
    """The schemas' enumerations are the code's vocabularies (docs/spec.md §1.5, §1.6)."""
    defs = run.schemas.docs["common.schema.json"]["$defs"]
    with open(os.path.join(run.source, "ref", "vocab.hpp"), encoding="utf-8") as f:
        vocab = f.read()
    lists = {"LO_BACKEND_OPS": "BackendOp", "LO_PROVIDERS": "Provider", "LO_DEVICES": "Device",
             "LO_TRUST_LEVELS": "TrustLevel", "LO_VJP_MODES": "VJPMode",
             "LO_TENSOR_LAYOUTS": "TensorLayout", "LO_ROUNDINGS": "Rounding",
             "LO_SUBNORMALS": "Subnormals", "LO_CONTRACTIONS": "Contraction",
             "LO_REDUCTIONS": "Reduction", "LO_GROUPING_KINDS": "GroupingKind", "LO_MODES": "Mode",
             "LO_EQUALITIES": "Equality"}
    for macro, name in lists.items():
        code = xmacro(vocab, macro)
        run.validated += 1
        if code is None:
            run.fail("ref/vocab.hpp has no %s" % macro)
        elif code != defs[name]["enum"]:
            run.fail("%s: schema %s, code %s" % (name, defs[name]["enum"], code))
    # The contract tags (docs/spec.md §2.2), where ref/vocab.hpp declares them as vocabularies.
    for macro, name in (("LO_CLAIM_TAGS", "ContractClaim"), ("LO_EVIDENCE_TAGS", "ContractEvidence"),
                        ("LO_PROVENANCE_TAGS", "ContractProvenance")):
        code = xmacro(vocab, macro)
        if code is not None:
            run.validated += 1
            tags = [b["properties"]["tag"]["const"] for b in defs[name]["oneOf"]]
            if code != tags:
                run.fail("%s tags: schema %s, code %s" % (name, tags, code))
    # The gate's vocabularies (docs/spec.md §6), where the gate is built.
    for header, macro, name in (("recheck.hpp", "LO_CONTRACT_OBLIGATIONS", "Obligation"),
                                ("recheck.hpp", "LO_EVIDENCE_DISPOSITIONS", "Disposition"),
                                ("gate.hpp", "LO_GATE_FAILURE_KINDS", "GateFailureKind")):
        path = os.path.join(run.source, "ref", header)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                code = xmacro(f.read(), macro)
            run.validated += 1
            if code != defs[name]["enum"]:
                run.fail("%s: schema %s, ref/%s %s" % (name, defs[name]["enum"], header, code))
    with open(os.path.join(run.source, "checks", "checks.hpp"), encoding="utf-8") as f:
        checks = xmacro(f.read(), "LO_CHECK_NAMES")
    if not checks or [c for c in checks if c != "gate"] != [c for c in defs["Check"]["enum"]
                                                            if c != "gate"]:
        run.fail("Check: schema %s, code %s" % (defs["Check"]["enum"], checks))
    # The kind table: the schema's branches against ref/opkind.hpp and ref/opkind.cpp.
    with open(os.path.join(run.source, "ref", "opkind.hpp"), encoding="utf-8") as f:
        tags = xmacro(f.read(), "LO_KIND_TAGS")
    with open(os.path.join(run.source, "ref", "opkind.cpp"), encoding="utf-8") as f:
        src = f.read()
    specs = {"none": []}
    for name, body in re.findall(r"constexpr ParamSpec (k\w+)\[\] = \{(.*?)\};", src, re.S):
        specs[name] = re.findall(r'\{"(\w*)", (natural|naturals)\}', body)
    code = {}
    for tag, params, op in re.findall(r"set\(K::(\w+), (\w+), (B::\w+|std::nullopt)\);", src):
        code[tag.rstrip("_")] = [(n, t) for n, t in specs[params]]
    schema = {}
    branches = defs["Kind"]["oneOf"]
    for t in branches[0]["enum"]:
        schema[t] = []
    for b in branches[2:]:
        props = b["properties"]
        schema[props["tag"]["const"]] = [
            (n, "naturals" if p["$ref"].endswith("Naturals") else "natural")
            for n, p in props.items() if n != "tag"]
    run.validated += 1
    if sorted(code) != sorted(tags or []):
        run.fail("could not read the kind table of ref/opkind.cpp")
    for t in sorted(set(code) | set(schema)):
        if code.get(t) != schema.get(t):
            run.fail("kind %s: schema %s, code %s" % (t, schema.get(t), code.get(t)))
    if branches[1]["properties"]["tag"]["enum"] != branches[0]["enum"]:
        run.fail("Kind: the bare tags as string and as {\"tag\"} differ")


def case_examples(run):
    """Every JSON file in examples/, against the schema of its kind, and every NDJSON stream."""
    for root, _, names in os.walk(os.path.join(run.source, "examples")):
        for name in sorted(names):
            path = os.path.join(root, name)
            if name.endswith(".ndjson"):
                with open(path, "rb") as f:
                    text = f.read()
                plan = b"graph-execution-plan-stream" in text.split(b"\n", 1)[0]
                run.valid_stream(text, "stream-kernel" if plan else "stream-group",
                                 os.path.relpath(path, run.source))
                continue
            if not name.endswith(".json"):
                continue
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            what = os.path.relpath(path, run.source)
            schema = schema_of(doc)
            if schema is None:
                run.fail("%s: no schema for this document" % what)
            else:
                run.valid(schema, doc, what)


def case_spec(run):
    """The ```json examples of docs/spec.md: valid against their schema, and read by the binary."""
    with open(os.path.join(run.source, "docs", "spec.md"), encoding="utf-8") as f:
        blocks = re.findall(r"^```json\n(.*?)^```$", f.read(), re.S | re.M)
    if not blocks:
        run.fail("docs/spec.md has no ```json example")
    for i, text in enumerate(blocks):
        doc = json.loads(text)
        schema = schema_of(doc)
        if schema is None:
            run.fail("docs/spec.md example %d: no schema for it" % (i + 1))
            continue
        run.valid(schema, doc, "docs/spec.md example %d" % (i + 1))
        if schema == "graph-execution-plan":
            path = run.write("spec-example-%d.json" % i, text)
            run.valid_text("graph-lowering-plan", run.tool(["lower", path], 0),
                           "the lowering of docs/spec.md example %d" % (i + 1))


def case_suite(run):
    """A suite written by `gen`: the manifest, every plan, every expected output and every
    expected gate result (docs/spec.md §4.3)."""
    suite = os.path.join(run.tmp, "suite")
    run.tool(["gen", "--out", suite, "--count", "40", "--seed", "7"], 0)
    manifest = run.valid_file("conformance-suite", os.path.join(suite, "manifest.json"))
    if not manifest or len(manifest.get("cases", [])) != 120:
        run.fail("the manifest does not list 40 cases x 3 lowerings")
        return
    if len(manifest.get("gates", [])) != 120:
        run.fail("the manifest does not list 40 cases x 3 policy presets")
        return
    seen = set()
    for entry in manifest["cases"] + manifest["gates"]:
        expected = "gate-result" if "policy" in entry else "graph-lowering-plan"
        for kind, path in entry["files"].items():
            if path in seen or not path.endswith(".json"):
                continue
            seen.add(path)
            with open(os.path.join(suite, path), encoding="utf-8") as f:
                doc = json.load(f)
            schema = {"plan": "graph-execution-plan", "expected": expected}.get(
                kind, schema_of(doc))
            if schema is None:
                run.fail("%s: no schema for this document" % path)
            else:
                run.valid(schema, doc, path)


# The lowerings a suite holds (the equality does not change the singleton lowering).
LOWERINGS = (("singleton", "contract"), ("coalesced", "contract"), ("coalesced", "identity"))


def case_lower(run):
    """`lower` in both modes and both equalities, with and without --audit, and `audit`."""
    for plan in run.plans():
        name = os.path.basename(plan)
        for mode, equality in LOWERINGS:
            for audit in ([], ["--audit"]):
                args = ["lower", plan, "--mode", mode, "--equality", equality] + audit
                doc = run.valid_text("graph-lowering-plan", run.tool(args, 0),
                                     " ".join(["lower", name, mode, equality] + audit))
                if audit and doc is not None and "audit" not in doc:
                    run.fail("lower --audit %s wrote no audit" % name)
        for equality in ("contract", "identity"):
            run.valid_text("execution-audit",
                           run.tool(["audit", plan, "--format", "json", "--equality", equality], 0),
                           "audit %s --equality %s" % (name, equality))
    lowering = run.example("cuda-transformer-block.libtorch-sdpa.lowering.json")
    run.valid_text("execution-audit", run.tool(["audit", lowering, "--format", "json"], 0),
                   "audit of a lowering plan")


def case_check(run):
    """`check --format json`, conforming and not, with notes and omitted violations."""
    n = 0
    for plan in run.plans():
        for mode, equality in LOWERINGS:
            out = run.write("ref-%d.json" % n, run.tool(
                ["lower", plan, "--mode", mode, "--equality", equality, "--audit"], 0).decode())
            n += 1
            report = run.valid_text("check-report", run.tool(
                ["check", plan, out, "--mode", mode, "--equality", equality, "--format", "json"], 0),
                "check of the reference")
            if report is not None and report.get("conforms") is not True:
                run.fail("the reference lowering of %s does not conform" % plan)
    # Not conforming: the identity lowering checked under contract (capsule, trust-boundary,
    # a note on the declared equality), and a candidate with every other group dropped.
    trap = run.example("identity-trap.json")
    lowered = run.write("identity.json",
                        run.tool(["lower", trap, "--equality", "identity", "--audit"], 0).decode())
    report = run.valid_text("check-report", run.tool(
        ["check", trap, lowered, "--equality", "contract", "--format", "json"], 1),
        "check of the identity lowering under contract")
    if report is not None and not (report["violations"] and report["notes"]):
        run.fail("expected violations and a note, got %s" % report)
    plan = run.example("cuda-transformer-block.json")
    candidate = json.loads(run.tool(["lower", plan, "--mode", "singleton"], 0))
    candidate["groups"] = candidate["groups"][::2]
    path = run.write("dropped.json", candidate)
    report = run.valid_text("check-report", run.tool(
        ["check", plan, path, "--format", "json", "--max-per-check", "1"], 1),
        "check of a candidate that drops nodes")
    if report is not None and not report["omitted"]:
        run.fail("expected omitted violations, got %s" % report)


def to_stream(plan):
    """A plan in the stream form (docs/spec.md §7): header, then the kernels by node id."""
    header = {"format": "nn-backend/graph-execution-plan-stream", "version": 1}
    if "capsules" in plan:
        header["capsules"] = plan["capsules"]
    kernels = sorted(plan["kernels"], key=lambda k: k["nodeId"])
    return "\n".join(json.dumps(x) for x in [header] + kernels) + "\n"


def case_stream(run):
    """`lower --stream`: the plan stream it reads and the lowering stream it writes; the report of
    `check --stream` on them."""
    for plan in run.plans():
        name = os.path.basename(plan)
        with open(plan, encoding="utf-8") as f:
            text = to_stream(json.load(f))
        run.valid_stream(text.encode(), "stream-kernel", "plan stream of " + name)
        path = run.write(name + ".ndjson", text)
        for mode, equality in LOWERINGS:
            out = run.tool(["lower", "--stream", path, "--mode", mode, "--equality", equality], 0)
            what = "lower --stream %s %s %s" % (name, mode, equality)
            run.valid_stream(out, "stream-group", what)
        # `check --stream` reports in the same JSON as `check` (here on the last lowering).
        lowered = run.write(name + ".lowering.ndjson", out.decode())
        report = run.valid_text("check-report", run.tool(
            ["check", "--stream", path, lowered, "--mode", mode, "--equality", equality,
             "--format", "json"], 0), "check --stream of " + what)
        if report is not None and report.get("conforms") is not True:
            run.fail("check --stream: %s does not conform" % what)


def case_prove(run):
    """`prove --format json`: the step lemmas under both equalities (refuted ones under identity)."""
    r = subprocess.run([run.binary, "prove", "--help"], capture_output=True)
    if r.returncode != 0 or b"--format" not in r.stdout:
        print("this binary's prove is not built (no Z3)")
        return SKIP
    for edition, equality, expect in (("2026-08", "contract", 0), ("2026-08", "identity", 1),
                                      ("2026-07", "contract", 0)):
        doc = run.valid_text("proofs", run.tool(
            ["prove", "--only", "step", "--edition", edition, "--equality", equality, "--format",
             "json"], expect), "prove --only step --edition %s --equality %s" % (edition, equality))
        if doc is not None and not doc["obligations"]:
            run.fail("prove --only step listed no obligation")
        if doc is not None and doc["edition"] != edition:
            run.fail("prove --edition %s reported edition %s" % (edition, doc["edition"]))
    return None


def case_gate(run):
    """`gate --format json` under each preset, on a plan and on a lowering."""
    if not run.has_command("gate"):
        print("this binary has no gate command")
        return SKIP
    inputs = run.plans() + [run.example("cuda-transformer-block.libtorch-sdpa.lowering.json")]
    for path in inputs:
        for policy in ("verified", "checked", "external"):
            r = subprocess.run([run.binary, "gate", path, "--policy", policy, "--format", "json"],
                               capture_output=True, timeout=600)
            if r.returncode not in (0, 1):
                run.fail("gate %s --policy %s: exit %d: %s" % (path, policy, r.returncode,
                                                               r.stderr.decode()[:300]))
                continue
            doc = run.valid_text("gate-result", r.stdout, "gate %s --policy %s" % (path, policy))
            if doc is not None and (doc["verdict"] == "accepted") != (r.returncode == 0):
                run.fail("gate %s --policy %s: verdict %s, exit %d" % (path, policy,
                                                                     doc["verdict"], r.returncode))
    return None


# --- Invalid documents ------------------------------------------------------------------------


def pointer_parent(doc, pointer):
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node = doc
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    return node, (int(last) if isinstance(node, list) else last)


def mutate(doc, op, pointer, value=None):
    doc = copy.deepcopy(doc)
    parent, key = pointer_parent(doc, pointer)
    if op == "remove":
        del parent[key]
    else:  # "set": replace a value or add a field
        parent[key] = value
    return doc


# Valid documents of each schema, and one document for each rule a schema enforces: (schema,
# rule, op, pointer, value). Plans, lowerings and stream headers are also given to the binary,
# whose reader must reject them too (exit 2).
MUTATIONS = [
    ("graph-execution-plan", "wrong enum: BackendOp", "set", "/kernels/0/op", "Relu"),
    ("graph-execution-plan", "wrong enum: Provider", "set", "/capsules/C/provider", "cuda"),
    ("graph-execution-plan", "wrong enum: TrustLevel", "set", "/capsules/C/trustLevel",
     "trustedExternal"),
    ("graph-execution-plan", "wrong enum: numerical policy", "set",
     "/capsules/C/numericalPolicy/contraction", "none"),
    ("graph-execution-plan", "wrong enum: kind", "set", "/kernels/0/kind", "Relu"),
    ("graph-execution-plan", "wrong enum: evidence tag", "set",
     "/capsules/C/valueContract/evidence/tag", "proof"),
    ("graph-execution-plan", "wrong const: format", "set", "/format",
     "nn-backend/graph-lowering-plan"),
    ("graph-execution-plan", "wrong const: version", "set", "/version", 2),
    ("graph-execution-plan", "missing field: kernels", "remove", "/kernels", None),
    ("graph-execution-plan", "missing field: capsule name", "remove", "/capsules/C/name", None),
    ("graph-execution-plan", "missing field: kernel capsule", "remove", "/kernels/1/capsule", None),
    ("graph-execution-plan", "missing field: claim spec", "remove",
     "/capsules/C/valueContract/claim/spec", None),
    ("graph-execution-plan", "missing field: kind parameter", "set", "/kernels/0/kind",
     {"tag": "softmax"}),
    ("graph-execution-plan", "extra field: plan", "set", "/comment", "x"),
    ("graph-execution-plan", "extra field: kernel", "set", "/kernels/0/nodeid", 1),
    ("graph-execution-plan", "extra field: capsule", "set", "/capsules/C/specName", "x"),
    ("graph-execution-plan", "extra field: claim of another tag", "set",
     "/capsules/C/shapeContract/claim/layout", "canonical-tensor"),
    ("graph-execution-plan", "extra field: kind parameter", "set", "/kernels/0/kind",
     {"tag": "relu", "axis": 1}),
    ("graph-execution-plan", "wrong type: nodeId string", "set", "/kernels/0/nodeId", "1"),
    ("graph-execution-plan", "wrong type: nodeId negative", "set", "/kernels/0/nodeId", -1),
    ("graph-execution-plan", "wrong type: nodeId 2^63", "set", "/kernels/0/nodeId", 2**63),
    ("graph-execution-plan", "wrong type: supportsForward", "set", "/capsules/C/supportsForward",
     "true"),
    ("graph-execution-plan", "wrong type: kernels", "set", "/kernels", {}),
    ("graph-execution-plan", "wrong type: shape parameter", "set", "/kernels/0/kind",
     {"tag": "flatten", "s": 6}),
    ("graph-execution-plan", "wrong type: parameter kind as string", "set", "/kernels/0/kind",
     "softmax"),
    ("graph-execution-plan", "wrong type: provenance", "set",
     "/capsules/C/valueContract/provenance", {"tag": "note", "text": "x"}),
    ("graph-lowering-plan", "wrong enum: groupingKind", "set", "/groups/0/groupingKind",
     "same-capsule-run"),
    ("graph-lowering-plan", "wrong enum: mode", "set", "/mode", "coalesce"),
    ("graph-lowering-plan", "wrong enum: audit trustLevels", "set", "/audit/trustLevels/0",
     "Checked"),
    ("graph-lowering-plan", "missing field: groups", "remove", "/groups", None),
    ("graph-lowering-plan", "missing field: groupingKind", "remove", "/groups/0/groupingKind",
     None),
    ("graph-lowering-plan", "missing field: audit row capsuleName", "remove",
     "/audit/kernels/0/capsuleName", None),
    ("graph-lowering-plan", "missing field: audit hasTrustedExternal", "remove",
     "/audit/hasTrustedExternal", None),
    ("graph-lowering-plan", "extra field: group", "set", "/groups/0/fused", True),
    ("graph-lowering-plan", "extra field: audit row supportsForward", "set",
     "/audit/kernels/0/supportsForward", True),
    ("graph-lowering-plan", "wrong type: nodeIds", "set", "/groups/0/nodeIds", 1),
    ("graph-lowering-plan", "wrong type: kinds", "set", "/groups/0/kinds", "relu"),
    ("graph-lowering-plan", "wrong type: hasTrustedExternal", "set", "/audit/hasTrustedExternal",
     0),
    ("check-report", "wrong enum: check", "set", "/violations/0/check", "capsules"),
    ("check-report", "wrong enum: status", "set", "/checks/0/status", "ok"),
    ("check-report", "missing field: message", "remove", "/violations/0/message", None),
    ("check-report", "missing field: checks", "remove", "/checks", None),
    ("check-report", "extra field: violation", "set", "/violations/0/severity", "error"),
    ("check-report", "wrong type: group", "set", "/violations/0/group", "0"),
    ("check-report", "wrong type: conforms", "set", "/conforms", "false"),
    ("check-report", "wrong type: error", "set", "/error", "bad input"),
    ("check-report", "field without expected and actual", "set", "/violations/0/field",
     "trustLevel"),
    ("gate-result", "wrong enum: verdict", "set", "/verdict", "passed"),
    ("gate-result", "wrong enum: failure kind", "set", "/failures/0/kind", "trustedExternal"),
    ("gate-result", "wrong enum: disposition", "set", "/failures/0/reports/0/disposition",
     "trusted-external"),
    ("gate-result", "wrong enum: policy name", "set", "/policy/name", "strict"),
    ("gate-result", "disposition not that of the evidence", "set",
     "/failures/0/reports/0/disposition", "proved"),
    ("gate-result", "rejected without failures", "set", "/failures", []),
    ("gate-result", "missing field: policy boolean", "remove", "/policy/allowChecked", None),
    ("gate-result", "missing field: report obligation", "remove",
     "/failures/0/reports/0/obligation", None),
    ("gate-result", "extra field: policy", "set", "/policy/acceptsTrust", True),
    ("gate-result", "wrong type: allowFuzzed", "set", "/policy/allowFuzzed", 1),
    ("conformance-suite", "wrong enum: equality", "set", "/cases/0/equality", "identical"),
    ("conformance-suite", "missing field: expected", "remove", "/cases/0/files/expected", None),
    ("conformance-suite", "extra field: entry", "set", "/cases/0/expectedExit", 0),
    ("conformance-suite", "wrong type: seed", "set", "/seed", "1"),
    ("conformance-suite", "wrong enum: gate policy", "set", "/gates/0/policy", "custom"),
    ("conformance-suite", "missing field: gate expected", "remove", "/gates/0/files/expected",
     None),
    ("conformance-suite", "extra field: gate files", "set", "/gates/0/files/text", "gate.txt"),
    ("conformance-suite", "missing field: gates", "remove", "/gates", None),
    ("proofs", "wrong enum: status", "set", "/obligations/0/status", "sat"),
    ("proofs", "missing field: seconds", "remove", "/obligations/0/seconds", None),
    ("proofs", "extra field: obligation", "set", "/obligations/0/model", {}),
    ("proofs", "wrong type: bound", "set", "/obligations/0/bound", "every"),
    ("stream-header", "wrong const: format", "set", "/format", "nn-backend/graph-execution-plan"),
    ("stream-header", "extra field: kernels", "set", "/kernels", []),
    ("stream-header", "missing field: format", "remove", "/format", None),
    ("stream-header", "wrong type: capsules", "set", "/capsules", []),
]


def gate_result_sample(capsule):
    """A rejected gate result written from docs/spec.md §6.5 (a trusted value contract)."""
    evidence = {"tag": "trustedBoundary", "reason": "vendor kernel"}
    return {"format": "nn-backend/gate-result", "version": 1,
            "policy": {"name": "checked", "allowChecked": True, "allowFuzzed": True,
                       "allowTrustedExternal": False, "requireEvidence": True,
                       "allowRuntimeGuards": True, "allowTestEvidence": True},
            "verdict": "rejected",
            "failures": [{"kind": "trustedBoundary", "reports": [
                {"op": capsule["op"], "capsuleName": capsule["name"], "obligation": "value",
                 "claim": capsule["valueContract"]["claim"], "evidence": evidence,
                 "disposition": "trusted"}]}]}


def verify_gate_status(run, suite, doc, i):
    """The status of `doc` as verify --gates judges it: case 0's gate result under verified."""
    out = os.path.join(run.tmp, "gate-out-%d" % i)
    os.makedirs(out)
    with open(os.path.join(out, "0000-empty-plan-gate-verified.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f)
    r = subprocess.run([run.binary, "verify", suite, out, "--gates", "--format", "json"],
                       capture_output=True, timeout=120)
    for e in json.loads(r.stdout)["results"]:
        if e["output"] == "0000-empty-plan-gate-verified.json":
            return e["status"]
    return "missing"


def verify_manifest(run, suite, manifest, i):
    """verify --gates on a copy of `suite` whose manifest is `manifest`."""
    where = os.path.join(run.tmp, "suite-%d" % i)
    shutil.copytree(suite, where)
    with open(os.path.join(where, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f)
    out = os.path.join(run.tmp, "manifest-out-%d" % i)
    os.makedirs(out, exist_ok=True)
    return subprocess.run([run.binary, "verify", where, out, "--gates"], capture_output=True,
                          timeout=120)


def case_invalid(run):
    """One invalid document per rule, each rejected by its schema, and by the reader: plans, stream
    headers, gate results (verify --gates) and suite manifests (verify)."""
    with open(run.example("two-relu.json"), encoding="utf-8") as f:
        plan = json.load(f)
    # One capsule under the key "C", with every optional field written, and a kind with
    # parameters, so that every pointer above exists.
    key = next(iter(plan["capsules"]))
    capsule = plan["capsules"].pop(key)
    capsule["numericalPolicy"] = {"rounding": "nearest-even", "subnormals": "unspecified",
                                  "contraction": "separate", "reduction": "unspecified"}
    capsule["valueContract"]["provenance"] = [{"tag": "note", "text": "n"}]
    plan["capsules"]["C"] = capsule
    for k in plan["kernels"]:
        k["capsule"] = "C"
    plan_path = run.write("base-plan.json", plan)
    lowering = json.loads(run.tool(["lower", plan_path, "--mode", "singleton", "--audit"], 0))
    dropped = {"groups": lowering["groups"][:1], "capsules": lowering["capsules"]}
    report = json.loads(run.tool(["check", plan_path, run.write("dropped.json", dropped),
                                  "--format", "json"], 1))
    suite = os.path.join(run.tmp, "suite")
    run.tool(["gen", "--out", suite, "--count", "1"], 0)
    with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    bases = {"graph-execution-plan": plan, "graph-lowering-plan": lowering,
             "check-report": report, "gate-result": gate_result_sample(capsule),
             "conformance-suite": manifest,
             "proofs": {"format": "lowering-oracle/proofs", "version": 1, "edition": "2026-08",
                        "equality": "identity",
                        "bound": 8, "timeoutMs": 20000, "obligations": [
                            {"name": "step.audit", "status": "refuted", "bound": "all",
                             "seconds": 0.4},
                            {"name": "coalesced.audit", "status": "refuted", "bound": 2,
                             "seconds": 1.2}]},
             "stream-header": {"format": "nn-backend/graph-execution-plan-stream", "version": 1,
                               "capsules": plan["capsules"]}}
    for schema, doc in bases.items():
        run.valid(schema, doc, "the valid base " + schema)
    # The reader accepts the valid stream header (so that its rejections below are the rules').
    run.tool(["lower", "--stream", run.write("base-header.ndjson",
                                             json.dumps(bases["stream-header"]) + "\n"),
              "-o", os.devnull], 0)
    rules = {}
    for i, (schema, rule, op, pointer, value) in enumerate(MUTATIONS):
        rules.setdefault(schema, set()).add(rule.split(":")[0])
        bad = mutate(bases[schema], op, pointer, value)
        run.validated += 1
        if not run.schemas.errors(schema, bad):
            run.fail("%s accepts a document with %s (%s %s)" % (schema, rule, op, pointer))
        if schema in ("graph-execution-plan", "graph-lowering-plan", "stream-header"):
            # The reader agrees: the same document is invalid input.
            command = {"graph-execution-plan": ["lower"], "graph-lowering-plan": ["audit"],
                       "stream-header": ["lower", "--stream"]}[schema]
            path = run.write("invalid-%d.json" % i, json.dumps(bad) + "\n")
            r = subprocess.run([run.binary] + command + [path, "-o", os.devnull],
                               capture_output=True, timeout=60)
            if r.returncode != 2:
                run.fail("%s: the reader does not reject a %s with %s (exit %d)" % (
                    " ".join(command), schema, rule, r.returncode))
        elif schema == "gate-result":
            # verify --gates reads it as the implementation's gate result of case 0 under verified:
            # an error entry (not a result that differs from the reference's).
            status = verify_gate_status(run, suite, bad, i)
            if status != "error":
                run.fail("verify --gates: a gate result with %s is %s, not an error entry" % (
                    rule, status))
        elif schema == "conformance-suite":
            # verify reads it as the suite's manifest: a bad suite (exit 2), refused by the reader
            # before the suite is compared with what gen writes.
            r = verify_manifest(run, suite, bad, i)
            err = r.stderr.decode(errors="replace")
            if r.returncode != 2 or "differs from the file" in err:
                run.fail("verify: a manifest with %s is not refused by the reader (exit %d: %s)" % (
                    rule, r.returncode, err[:300]))
    # Every schema has an invalid document for each rule: a wrong enumeration value (or constant),
    # a missing required field, an extra field, a wrong type.
    for schema in bases:
        have = {r.replace("wrong const", "wrong enum") for r in rules.get(schema, set())}
        if not {"wrong enum", "missing field", "extra field", "wrong type"} <= have:
            run.fail("%s: invalid documents cover only %s" % (schema, sorted(have)))


CASES = {"schemas": case_schemas, "vocabularies": case_vocabularies, "examples": case_examples,
         "spec": case_spec,
         "suite": case_suite, "lower": case_lower, "check": case_check, "stream": case_stream,
         "prove": case_prove, "gate": case_gate, "invalid": case_invalid}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in CASES:
        print(__doc__)
        return 2
    run = Run(sys.argv[2], sys.argv[3])
    try:
        if CASES[sys.argv[1]](run) == SKIP:
            shutil.rmtree(run.tmp, ignore_errors=True)
            return SKIP
    except Exception:
        shutil.rmtree(run.tmp, ignore_errors=True)
        raise
    return run.finish()


if __name__ == "__main__":
    sys.exit(main())
