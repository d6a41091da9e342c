#!/usr/bin/python3
"""The JSON Schemas of docs/schema/ (docs/spec.md §9) against the real binary's documents.

    schema_test.py CASE BINARY SOURCE_DIR DUMP [GENERATOR]

CASE is one of the functions named in CASES below; DUMP is lo_editions_dump (tests/docs), which
prints the editions of every vocabulary value as ref/edition.hpp declares them; GENERATOR (the case
`generated`) is lo_schema_gen (tests/schema/schema_gen.cpp), which writes every edition's set. Every document is
validated with python3-jsonschema's Draft202012Validator; the schemas' relative references to
common.schema.json are resolved from the schema directory. There is one set of schemas per edition
(docs/schema/README.md): docs/schema/ for the newest, docs/schema/E/ for an older edition E; a
document under a directory named after an edition (examples/2026-07/) is validated against that
edition's set, every other one against the newest. A case prints what it validated and
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


def older_editions(source):
    """The editions that have a directory of their own under docs/schema/ (all but the newest)."""
    root = os.path.join(source, "docs", "schema")
    return sorted(n for n in os.listdir(root)
                  if re.fullmatch(r"\d{4}-\d{2}[a-z]?", n) and os.path.isdir(os.path.join(root, n)))


def edition_of(source, path):
    """The older edition a document belongs to by its directory, or None for the newest."""
    parts = os.path.relpath(path, source).split(os.sep)
    found = [e for e in older_editions(source) if e in parts[:-1]]
    return found[-1] if found else None


class Schemas:
    """The schemas of one edition's set, with common.schema.json preloaded for `$ref`."""

    def __init__(self, source, edition=None):
        self.edition = edition
        self.dir = os.path.join(source, "docs", "schema", *([edition] if edition else []))
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
    def __init__(self, binary, source, dump):
        self.binary = binary
        self.source = source
        self.dump = dump
        self.schemas = Schemas(source)
        self.older = {e: Schemas(source, e) for e in older_editions(source)}
        self.failures = []
        self.validated = 0
        self.tmp = tempfile.mkdtemp(prefix="lo-schema-")
        # A case about 2026-08's documents (the evidence gate, the singleton lowering) sets this:
        # every command without --edition is run, and every document validated, in that edition.
        self.seed = None

    def fail(self, what):
        self.failures.append(what)

    def tool(self, args, expect, stdin=None):
        """Runs the binary; returns its standard output. `expect` is the exit status wanted."""
        if self.seed and args and not any(a.startswith("--edition") for a in args):
            args = args[:1] + ["--edition", self.seed] + args[1:]
        r = subprocess.run([self.binary] + args, input=stdin, capture_output=True, timeout=600)
        if r.returncode != expect:
            self.fail("lowering-oracle %s: exit %d, expected %d; stderr: %s" % (
                " ".join(args), r.returncode, expect, r.stderr.decode(errors="replace")[:500]))
        return r.stdout

    def has_command(self, name):
        r = subprocess.run([self.binary, "--help"], capture_output=True)
        return re.search(r"^\s+%s\s" % re.escape(name), r.stdout.decode(), re.M) is not None

    def schemas_of(self, edition):
        """The set of an edition: None or the newest's name for docs/schema/."""
        return self.older.get(edition, self.schemas) if edition else self.schemas

    def editions(self):
        """What lo_editions_dump prints: the editions and every vocabulary value's editions."""
        if not hasattr(self, "_editions"):
            self._editions = json.loads(subprocess.run([self.dump], check=True,
                                                       capture_output=True).stdout)
        return self._editions

    def set_for(self, schema, edition):
        """The set that holds `schema` in `edition`: the edition's, or docs/schema/ for a schema
        that is one file for every edition (ONE_SET)."""
        return self.schemas if schema + ".schema.json" in ONE_SET else self.schemas_of(edition)

    def valid(self, schema, doc, what, edition=None):
        edition = edition or self.seed
        self.validated += 1
        for e in self.set_for(schema, edition).errors(schema, doc):
            self.fail("%s is not a valid %s: %s" % (what, schema, e))

    def valid_text(self, schema, text, what, edition=None):
        try:
            doc = json.loads(text)
        except ValueError as e:
            self.fail("%s is not JSON: %s" % (what, e))
            return None
        self.valid(schema, doc, what, edition)
        return doc

    def valid_file(self, schema, path, what=None):
        with open(path, "rb") as f:
            return self.valid_text(schema, f.read(), what or os.path.relpath(path, self.tmp))

    def valid_stream(self, text, record, what, edition=None):
        lines = text.decode().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            self.fail("%s: empty stream" % what)
            return
        self.valid_text("stream-header", lines[0], what + " line 1", edition)
        for i, line in enumerate(lines[1:], start=2):
            self.valid_text(record, line, "%s line %d" % (what, i), edition)

    def example(self, name):
        """A file of examples/, or of examples/2026-08/ in a case about 2026-08."""
        return os.path.join(self.source, "examples", self.seed or "", name)

    def plans(self):
        """The GraphExecutionPlans of examples/ (of examples/2026-08/ in a case about 2026-08)."""
        out = []
        for name in sorted(os.listdir(self.example(""))):
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
           "nn-backend/acceptance-result": "acceptance-result",
           "lowering-oracle/check-report": "check-report",
           "lowering-oracle/conformance-suite": "conformance-suite",
           "lowering-oracle/proofs": "proofs",
           "torchlean.ir.v1": "torchlean-ir-v1",
           "lowering-oracle/capsule-registry": "capsule-registry",
           "lowering-oracle/backend-profile": "backend-profile"}


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
    """Every schema of every edition's set is a valid draft 2020-12 schema, and every reference
    resolves within its set."""
    for schemas in [run.schemas] + list(run.older.values()):
        check_set(run, schemas)


def check_set(run, schemas):
    for name, doc in schemas.docs.items():
        try:
            Draft202012Validator.check_schema(doc)
        except Exception as e:  # jsonschema.SchemaError
            run.fail("%s is not a valid schema: %s" % (name, e))
        for ref in re.findall(r'"\$ref": "([^"]+)"', json.dumps(doc, indent=1)):
            target, _, pointer = ref.partition("#")
            base = schemas.docs.get(target) if target else doc
            if base is None:
                run.fail("%s: $ref %s names no schema of its set" % (name, ref))
                continue
            node = base
            for part in pointer.split("/")[1:]:
                node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                run.fail("%s/%s: $ref %s does not resolve" % (schemas.edition or "", name, ref))
        run.validated += 1


def xmacro(text, macro):
    m = re.search(r"#define %s\(X\)(.*?)\n(?!\s*X\()" % macro, text, re.S)
    return re.findall(r'X\(\w+, "([^"]+)"\)', m.group(1)) if m else None


# The definitions of common.schema.json that are a vocabulary, by the name lo_editions_dump gives it.
ENUMS = {"BackendOp": "BackendOp", "Provider": "Provider", "Device": "Device",
         "TrustLevel": "TrustLevel", "VJPMode": "VJPMode", "TensorLayout": "TensorLayout",
         "Rounding": "Rounding", "Subnormals": "Subnormals", "Contraction": "Contraction",
         "Reduction": "Reduction", "GroupingKind": "GroupingKind", "Mode": "mode",
         "Equality": "equality", "Obligation": "obligation", "Disposition": "disposition",
         "GateFailureKind": "gate failure kind"}
TAGGED = {"ContractClaim": "claim tag", "ContractEvidence": "evidence tag",
          "ContractProvenance": "provenance tag"}
# The definitions an edition changes (docs/schema/README.md); the rest is the same in every set.
SCHEMA_PENDING = set()
EDITION_DEFS = {"BackendOp", "Disposition", "ContractClaim", "ContractEvidence", "ObligationReport",
                "Kind", "PlannedKind", "HardMask", "Provider", "TrustLevel", "Reduction",
                "ContractProvenance", "NumericalPolicy", "KernelCapsule", "KernelAudit",
                "LoweredKernelGroup", "ExecutionAudit"}


def kind_params(run):
    """The parameters of every kind of ref/opkind.cpp: {tag: [(name, type)]}."""
    with open(os.path.join(run.source, "ref", "opkind.cpp"), encoding="utf-8") as f:
        src = f.read()
    specs = {"none": []}
    for name, body in re.findall(r"constexpr ParamSpec (k\w+)\[\] = \{(.*?)\};", src, re.S):
        specs[name] = re.findall(r'\{"(\w*)", (natural|naturals|hardMask|text|shapes)\}', body)
    return {tag.rstrip("_"): list(specs[params]) for tag, params, _ in
            re.findall(r"set\(K::(\w+), (\w+), (B::\w+|std::nullopt)\);", src)}


def runtime_kinds(run):
    """The kinds of ref/opkind.cpp that map to an op (do runtime work)."""
    with open(os.path.join(run.source, "ref", "opkind.cpp"), encoding="utf-8") as f:
        src = f.read()
    return {tag.rstrip("_") for tag, _, op in
            re.findall(r"set\(K::(\w+), (\w+), (B::\w+|std::nullopt)\);", src)
            if op != "std::nullopt"}


def param_type(p):
    """A kind parameter's type (ref/opkind.hpp's ParamType) from its schema."""
    if "$ref" not in p:
        return "text" if p.get("type") == "string" else "shapes"
    return {"Naturals": "naturals", "HardMask": "hardMask"}.get(p["$ref"].split("/")[-1], "natural")


def schema_kinds(defs, name="Kind"):
    """The kinds of a set's Kind (or PlannedKind) definition: {tag: [(name, type)]}."""
    branches = defs[name]["oneOf"]
    kinds = {t: [] for t in branches[0]["enum"]}
    for b in branches[2:]:
        props = b["properties"]
        kinds[props["tag"]["const"]] = [(n, param_type(p)) for n, p in props.items() if n != "tag"]
    return kinds, branches


def case_vocabularies(run):
    """Each edition's schemas enumerate exactly that edition's values of every vocabulary, in the
    code's order, and its kinds with their parameters (docs/spec.md §1.5, §1.6, §1.7)."""
    code = run.editions()
    newest = code["newest"]
    params = kind_params(run)
    for edition in [e for e in code["editions"] if e not in SCHEMA_PENDING]:
        schemas = run.schemas_of(None if edition == newest else edition)
        if schemas is run.schemas and edition != newest:
            run.fail("edition %s has no directory docs/schema/%s/" % (edition, edition))
            continue
        defs = schemas.docs["common.schema.json"]["$defs"]

        def values(name):
            return [v for v, eds in code["vocabularies"][name].items() if edition in eds]

        for schema_name, name in ENUMS.items():
            run.validated += 1
            if values(name) != defs[schema_name]["enum"]:
                run.fail("%s %s: schema %s, code %s" % (edition, schema_name,
                                                        defs[schema_name]["enum"], values(name)))
        for schema_name, name in TAGGED.items():
            run.validated += 1
            tags = [b["properties"]["tag"]["const"] for b in defs[schema_name]["oneOf"]]
            if tags != values(name):
                run.fail("%s %s tags: schema %s, code %s" % (edition, schema_name, tags,
                                                             values(name)))
        run.validated += 1
        if defs["Edition"]["enum"] != code["editions"]:
            run.fail("%s Edition: schema %s, code %s" % (edition, defs["Edition"]["enum"],
                                                         code["editions"]))
        checks = values("check")
        if [c for c in checks if c != "gate"] != [c for c in defs["Check"]["enum"] if c != "gate"]:
            run.fail("%s Check: schema %s, code %s" % (edition, defs["Check"]["enum"], checks))
        kinds, branches = schema_kinds(defs)
        run.validated += 1
        if not params or sorted(params) != sorted(code["vocabularies"]["kind"]):
            run.fail("could not read the kind table of ref/opkind.cpp")
        want = {t: params.get(t) for t in values("kind")}
        for t in sorted(set(want) | set(kinds)):
            if want.get(t) != kinds.get(t):
                run.fail("%s kind %s: schema %s, code %s" % (edition, t, kinds.get(t), want.get(t)))
        if branches[1]["properties"]["tag"]["enum"] != branches[0]["enum"]:
            run.fail("%s Kind: the bare tags as string and as {\"tag\"} differ" % edition)
        planned, branches = schema_kinds(defs, "PlannedKind")
        run.validated += 1
        runtime = {t: p for t, p in want.items() if t in runtime_kinds(run)}
        if planned != runtime:
            run.fail("%s PlannedKind: schema %s, the edition's kinds with an op %s" % (
                edition, sorted(planned), sorted(runtime)))
        if branches[1]["properties"]["tag"]["enum"] != branches[0]["enum"]:
            run.fail("%s PlannedKind: the bare tags as string and as {\"tag\"} differ" % edition)


def case_examples(run):
    """Every JSON file in examples/, against the schema of its kind in the edition of its
    directory (examples/2026-07/: 2026-07; elsewhere the newest), and every NDJSON stream."""
    for root, _, names in os.walk(os.path.join(run.source, "examples")):
        for name in sorted(names):
            path = os.path.join(root, name)
            if set(os.path.relpath(path, run.source).split(os.sep)) & SCHEMA_PENDING:
                continue  # an edition whose schema set is not written yet
            edition = edition_of(run.source, path)
            if name.endswith(".ndjson"):
                with open(path, "rb") as f:
                    text = f.read()
                plan = b"graph-execution-plan-stream" in text.split(b"\n", 1)[0]
                run.valid_stream(text, "stream-kernel" if plan else "stream-group",
                                 os.path.relpath(path, run.source), edition)
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
                run.valid(schema, doc, "%s (edition %s)" % (what, edition or "newest"), edition)


def set_at(doc, pointer, value):
    node = doc
    parts = pointer.split("/")[1:]
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[parts[-1]] = value


# The schemas that are one file for every edition (docs/schema/README.md), and the one that only
# the sets of the editions with upstream's acceptance gate hold (their values are theirs).
ONE_SET = ("proofs.schema.json",)
ACCEPTANCE_SET = "acceptance-result.schema.json"
# What `plan` reads (docs/spec.md §10): in the sets of the editions with selection only.
SELECTION_SETS = ("torchlean-ir-v1.schema.json", "capsule-registry.schema.json",
                  "backend-profile.schema.json")
# The manifest's entries an edition has only with the acceptance gate, with selection.
MANIFEST_ONLY_IN = {"acceptance": "acceptanceGate", "selection": "selection"}


def case_editions(run):
    """The sets of docs/schema/ are one per edition (docs/schema/README.md): outside the
    definitions an edition changes they are equal; the claims carry `spec` exactly in the editions
    of claimsHaveSpec; and a document with a value of one edition only is valid in that edition's
    set and read by `lower --edition` of it, and invalid in every other set and refused by `lower`
    with the edition it fits (docs/spec.md §1.6)."""
    code = run.editions()
    newest = code["newest"]
    schemed = [e for e in code["editions"] if e not in SCHEMA_PENDING]
    if sorted(run.older) != sorted(e for e in schemed if e != newest):
        run.fail("docs/schema/ has sets for %s; ref/edition.hpp's older editions are %s" % (
            sorted(run.older), [e for e in schemed if e != newest]))
    for edition, schemas in run.older.items():
        run.validated += 1
        expected = {n for n in run.schemas.docs
                    if n not in ONE_SET and n != ACCEPTANCE_SET and n not in SELECTION_SETS}
        if edition in code["acceptanceGate"]:
            expected.add(ACCEPTANCE_SET)
        if edition in code["selection"]:
            expected.update(SELECTION_SETS)
        if sorted(schemas.docs) != sorted(expected):
            run.fail("docs/schema/%s/ holds %s" % (edition, sorted(schemas.docs)))
        if (ACCEPTANCE_SET in run.schemas.docs) != (newest in code["acceptanceGate"]):
            run.fail("docs/schema/ holds %s exactly when the newest edition has the acceptance "
                     "gate" % ACCEPTANCE_SET)
        for name, doc in schemas.docs.items():
            newer = run.schemas.docs.get(name)
            if newer is None:  # the acceptance gate's, against the other editions' sets of it
                newer = next(s.docs[name] for e, s in run.older.items() if name in s.docs)
            if name == "common.schema.json":
                a = {k: v for k, v in doc["$defs"].items() if k not in EDITION_DEFS}
                b = {k: v for k, v in newer["$defs"].items() if k not in EDITION_DEFS}
                if a != b:
                    run.fail("docs/schema/%s/common.schema.json differs from the newest outside "
                             "the edition definitions: %s" % (edition, sorted(
                                 k for k in set(a) | set(b) if a.get(k) != b.get(k))))
            elif name == "conformance-suite.schema.json":
                # The newest's, less the entries this edition lacks, and no more.
                newer = copy.deepcopy(newer)
                for entry, editions in MANIFEST_ONLY_IN.items():
                    if edition not in code[editions]:
                        del newer["properties"][entry]
                if without_notes(doc) != without_notes(newer):
                    run.fail("docs/schema/%s/%s differs from docs/schema/%s but for the entries "
                             "the edition lacks" % (edition, name, name))
            elif without_notes(doc) != without_notes(newer):
                run.fail("docs/schema/%s/%s differs from docs/schema/%s" % (edition, name, name))
    for edition in schemed:
        defs = run.schemas_of(None if edition == newest else edition).docs[
            "common.schema.json"]["$defs"]
        for b in defs["ContractClaim"]["oneOf"]:
            tag = b["properties"]["tag"]["const"]
            if tag in ("valueRefinement", "vjpRefinement"):
                run.validated += 1
                has = "spec" in b["properties"] and "spec" in b.get("required", [])
                if has != (edition in code["claimsHaveSpec"]):
                    run.fail("%s %s claim: spec %s in the schema, claimsHaveSpec is %s" % (
                        edition, tag, "required" if has else "absent", code["claimsHaveSpec"]))
    # Documents of one edition only: (edition, what, plan).
    with open(run.example("two-relu.json"), encoding="utf-8") as f:
        august = json.load(f)
    with open(os.path.join(run.source, "examples", "2026-07", "two-relu.json"),
              encoding="utf-8") as f:
        july = json.load(f)
    cases = [("2026-08", "claims without spec (examples/two-relu.json)", august),
             ("2026-07", "claims with spec (examples/2026-07/two-relu.json)", july)]
    # A capsule of every edition: no refinement claim (a descriptor's claim need not be its
    # obligation's, docs/spec.md §2.2), so each value below is the document's only one of one
    # edition.
    neutral = copy.deepcopy(august)
    set_at(neutral, "/capsules/reference.relu/valueContract/claim", {"tag": "shapeSafety",
                                                                    "op": "relu"})
    set_at(neutral, "/capsules/reference.relu/vjpContract/claim",
           {"tag": "layoutCompatibility", "op": "relu", "layout": "canonical-tensor"})
    cases.append((None, "a capsule without refinement claims", neutral))

    def variant(edition, what, pointer, value):
        doc = copy.deepcopy(neutral)
        set_at(doc, pointer, value)
        cases.append((edition, what, doc))

    variant("2026-07", "evidence theorem", "/capsules/reference.relu/valueContract/evidence",
            {"tag": "theorem", "name": "NN.Proofs.relu_refines"})
    variant("2026-07", "evidence checker", "/capsules/reference.relu/shapeContract/evidence",
            {"tag": "checker", "name": "shape checker"})
    variant("2026-08", "evidence notApplicable", "/capsules/reference.relu/vjpContract/evidence",
            {"tag": "notApplicable"})
    variant("2026-08", "claim vjpUnavailable", "/capsules/reference.relu/vjpContract/claim",
            {"tag": "vjpUnavailable", "op": "relu"})
    masked = copy.deepcopy(neutral)
    capsule = masked["capsules"].pop("reference.relu")
    capsule["name"] = "reference.hard_masked_softmax"
    capsule["op"] = "hard_masked_softmax"
    for contract in ("shapeContract", "layoutContract", "valueContract", "vjpContract"):
        capsule[contract]["claim"]["op"] = "hard_masked_softmax"
    masked["capsules"][capsule["name"]] = capsule
    masked["kernels"] = [{"nodeId": 1, "op": "hard_masked_softmax", "capsule": capsule["name"],
                          "kind": {"tag": "hardMaskedSoftmax",
                                   "mask": {"shape": [2, 2],
                                            "allowed": [True, False, True, True]}}}]
    cases.append(("2026-08", "kind hardMaskedSoftmax, op hard_masked_softmax", masked))
    # These documents are of 2026-07's and 2026-08's vocabulary (a capsule with `notes` and four
    # policy fields): they are judged between those two sets; the lineage editions' own documents
    # are examples/2026-10/ (schema.examples, examples.lineage).
    for i, (edition, what, doc) in enumerate(cases):
        path = run.write("edition-%d.json" % i, doc)
        for other in [e for e in schemed if e in ("2026-07", "2026-08")]:
            errors = run.schemas_of(None if other == newest else other).errors(
                "graph-execution-plan", doc)
            run.validated += 1
            r = subprocess.run([run.binary, "lower", "--edition", other, path],
                               capture_output=True, timeout=120)
            err = r.stderr.decode(errors="replace")
            if edition is None or other == edition:
                if errors:
                    run.fail("%s: invalid in the schemas of edition %s: %s" % (
                        what, other, errors[:3]))
                if r.returncode != 0:
                    run.fail("%s: lower --edition %s exits %d: %s" % (what, other,
                                                                       r.returncode, err[:300]))
                else:
                    run.valid_text("graph-lowering-plan", r.stdout,
                                   "lower --edition %s of %s" % (other, what),
                                   None if other == newest else other)
            else:
                if not errors:
                    run.fail("%s (edition %s only) is valid in the schemas of %s" % (
                        what, edition, other))
                if r.returncode != 2 or ("use --edition %s" % edition) not in err:
                    run.fail("%s (edition %s only): lower --edition %s exits %d, stderr %s; "
                             "expected 2 naming --edition %s" % (what, edition, other,
                                                                 r.returncode, err[:300], edition))


def case_spec(run):
    """The ```json examples of docs/spec.md, in 2026-08's vocabulary (its §2): valid against their
    schema, and read by the binary."""
    run.seed = "2026-08"
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
    run.seed = "2026-08"  # the seed's suite: three lowerings a case and the evidence gate's results
    suite = os.path.join(run.tmp, "suite")
    run.tool(["gen", "--out", suite, "--count", "40", "--seed", "7"], 0)
    manifest = run.valid_file("conformance-suite", os.path.join(suite, "manifest.json"))
    if not manifest or len(manifest.get("cases", [])) != 120:
        run.fail("the manifest does not list 40 cases x 3 lowerings")
        return
    if len(manifest.get("gates", [])) != 160:
        run.fail("the manifest does not list 40 cases x 4 policies (3 presets, 1 custom)")
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
    # A suite of the lean-dojo lineage (docs/spec.md §4.2): two lowerings a case, no `gates`, and
    # an acceptance result per case and maintained profile, each valid in its edition's set.
    run.seed = None
    lineage = os.path.join(run.tmp, "suite-2026-10")
    run.tool(["gen", "--out", lineage, "--count", "20", "--seed", "7", "--edition", "2026-10"], 0)
    with open(os.path.join(lineage, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    run.valid("conformance-suite", manifest, "the 2026-10 manifest", "2026-10")
    if len(manifest["cases"]) != 40 or "gates" in manifest or len(manifest["acceptance"]) != 40:
        run.fail("the 2026-10 manifest does not list 20 cases x 2 lowerings and 20 x 2 profiles")
        return
    for entry in manifest["cases"] + manifest["acceptance"]:
        expected = "acceptance-result" if "profile" in entry else "graph-lowering-plan"
        with open(os.path.join(lineage, entry["files"]["expected"]), encoding="utf-8") as f:
            run.valid(expected, json.load(f), entry["files"]["expected"], "2026-10")


# The lowerings a suite holds (the equality does not change the singleton lowering).
LOWERINGS = (("singleton", "contract"), ("coalesced", "contract"), ("coalesced", "identity"))


def in_both(case):
    """`case` on the newest edition's examples in their coalesced lowerings (it has no singleton
    lowering, docs/spec.md §1.6), then on examples/2026-08/ in the singleton lowering."""
    def both(run):
        case(run, LOWERINGS[1:])
        run.seed = "2026-08"
        case(run, LOWERINGS[:1])
        run.seed = None
    both.__doc__ = case.__doc__
    return both


@in_both
def case_lower(run, lowerings):
    """`lower` in both modes and both equalities, with and without --audit, and `audit`."""
    for plan in run.plans():
        name = os.path.basename(plan)
        for mode, equality in lowerings:
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
    if run.seed:
        lowering = run.example("cuda-transformer-block.libtorch-sdpa.lowering.json")
        run.valid_text("execution-audit", run.tool(["audit", lowering, "--format", "json"], 0),
                       "audit of a lowering plan")


@in_both
def case_check(run, lowerings):
    """`check --format json`, conforming and not, with notes and omitted violations."""
    n = 0 if not run.seed else 1000
    for plan in run.plans():
        for mode, equality in lowerings:
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
    if not run.seed:
        return
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


@in_both
def case_stream(run, lowerings):
    """`lower --stream`: the plan stream it reads and the lowering stream it writes; the report of
    `check --stream` on them."""
    for plan in run.plans():
        name = os.path.basename(plan)
        with open(plan, encoding="utf-8") as f:
            text = to_stream(json.load(f))
        run.valid_stream(text.encode(), "stream-kernel", "plan stream of " + name)
        path = run.write((run.seed or "") + name + ".ndjson", text)
        for mode, equality in lowerings:
            out = run.tool(["lower", "--stream", path, "--mode", mode, "--equality", equality], 0)
            what = "lower --stream %s %s %s" % (name, mode, equality)
            run.valid_stream(out, "stream-group", what)
        # `check --stream` reports in the same JSON as `check` (here on the last lowering).
        lowered = run.write((run.seed or "") + name + ".lowering.ndjson", out.decode())
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
    # The acceptance result's failures are ref/acceptance.hpp's kinds, in its order.
    with open(os.path.join(run.source, "ref", "acceptance.hpp"), encoding="utf-8") as f:
        kinds = xmacro(f.read(), "LO_ACCEPTANCE_FAILURE_KINDS")
    lineage = run.editions()["acceptanceGate"][-1]
    branches = run.schemas_of(lineage).docs[ACCEPTANCE_SET]["$defs"]["AcceptanceFailure"]
    run.validated += 1
    if [b["properties"]["kind"]["const"] for b in branches["oneOf"]] != kinds:
        run.fail("acceptance-result.schema.json: the failure kinds are not %s" % kinds)
    run.seed = "2026-08"  # the evidence gate's presets
    inputs = run.plans() + [run.example("cuda-transformer-block.libtorch-sdpa.lowering.json")]
    for path in inputs:
        for policy in ("verified", "checked", "external"):
            r = subprocess.run([run.binary, "gate", "--edition", run.seed, path, "--policy", policy,
                                "--format", "json"],
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
    ("graph-execution-plan", "missing field: claim mode", "remove",
     "/capsules/C/vjpContract/claim/mode", None),
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
    ("conformance-suite", "wrong enum: gate policy", "set", "/gates/0/policy", "trusted"),
    ("conformance-suite", "wrong type: audit", "set", "/cases/0/audit", 1),
    ("conformance-suite", "missing field: a custom policy's booleans", "remove",
     "/gates/3/booleans", None),
    ("conformance-suite", "missing field: a boolean", "remove",
     "/gates/0/booleans/requireEvidence", None),
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
    r = subprocess.run([run.binary, "verify", "--edition", "2026-08", suite, out, "--gates",
                        "--format", "json"],
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
    return subprocess.run([run.binary, "verify", "--edition", "2026-08", where, out, "--gates"],
                          capture_output=True, timeout=120)


def case_invalid(run):
    """One invalid document per rule, each rejected by its schema, and by the reader: plans, stream
    headers, gate results (verify --gates) and suite manifests (verify), in 2026-08 (every
    optional field of the seed's capsule, the evidence gate)."""
    run.seed = "2026-08"
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
        if not run.set_for(schema, run.seed).errors(schema, bad):
            run.fail("%s accepts a document with %s (%s %s)" % (schema, rule, op, pointer))
        if schema in ("graph-execution-plan", "graph-lowering-plan", "stream-header"):
            # The reader agrees: the same document is invalid input.
            command = {"graph-execution-plan": ["lower"], "graph-lowering-plan": ["audit"],
                       "stream-header": ["lower", "--stream"]}[schema]
            path = run.write("invalid-%d.json" % i, json.dumps(bad) + "\n")
            r = subprocess.run([run.binary] + command + ["--edition", run.seed, path, "-o",
                                                         os.devnull],
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


def case_generated(run):
    """docs/schema/ is exactly what lo_schema_gen writes from tests/schema/template/ and ref/'s
    declarations (docs/schema/README.md gives the command that regenerates it), and no file of
    docs/schema/ is a byte copy of another."""
    if not run.generator:
        run.fail("the case needs lo_schema_gen as its fifth argument")
        return
    out = os.path.join(run.tmp, "generated")
    r = subprocess.run([run.generator, os.path.join(run.source, "tests", "schema", "template"), out],
                       capture_output=True, timeout=120)
    if r.returncode != 0:
        run.fail("lo_schema_gen exits %d: %s" % (r.returncode, r.stderr.decode(errors="replace")))
        return
    docs = os.path.join(run.source, "docs", "schema")

    def files(root):
        found = {}
        for d, _, names in os.walk(root):
            for n in names:
                if n.endswith(".schema.json"):
                    with open(os.path.join(d, n), "rb") as f:
                        found[os.path.relpath(os.path.join(d, n), root)] = f.read()
        return found

    want, have = files(out), files(docs)
    for name in sorted(set(want) | set(have)):
        run.validated += 1
        if name not in have:
            run.fail("docs/schema/%s is missing: regenerate docs/schema/ (docs/schema/README.md)"
                     % name)
        elif name not in want:
            run.fail("docs/schema/%s is not generated by lo_schema_gen" % name)
        elif want[name] != have[name]:
            run.fail("docs/schema/%s differs from lo_schema_gen's output: regenerate docs/schema/ "
                     "(docs/schema/README.md)" % name)
    seen = {}
    for root, _, names in os.walk(docs):
        for n in sorted(names):
            path = os.path.join(root, n)
            with open(path, "rb") as f:
                text = f.read()
            rel = os.path.relpath(path, docs)
            run.validated += 1
            if text in seen:
                run.fail("docs/schema/%s is a byte copy of docs/schema/%s" % (rel, seen[text]))
            seen.setdefault(text, rel)


def without_notes(doc):
    """A schema without the members that name its edition (`$comment`, the top description)."""
    return {k: v for k, v in doc.items() if k not in ("$comment", "description")}


CASES = {"generated": case_generated, "schemas": case_schemas, "vocabularies": case_vocabularies, "examples": case_examples,
         "editions": case_editions,
         "spec": case_spec,
         "suite": case_suite, "lower": case_lower, "check": case_check, "stream": case_stream,
         "prove": case_prove, "gate": case_gate, "invalid": case_invalid}


def main():
    if len(sys.argv) not in (5, 6) or sys.argv[1] not in CASES:
        print(__doc__)
        return 2
    run = Run(sys.argv[2], sys.argv[3], sys.argv[4])
    run.generator = sys.argv[5] if len(sys.argv) == 6 else None
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
