"""lowering_oracle gives the binary's results (docs/python.md): on a generated suite (on every
example: test_examples.py), lower, audit, gate and check in process equal `lowering-oracle` byte
for byte; dicts keep exact integers; bad input raises InvalidInput with the position and pointer."""
import json
import os
import pickle
import re
import subprocess

import pytest

import lowering_oracle

from conftest import binary_env, read, run

def test_check_equals_the_binary_in_every_format(oracle_binary, examples_dir):
    plan, candidate = (os.path.join(examples_dir, f) for f in ("plan.json", "candidate.json"))
    report = lowering_oracle.check(read(plan), read(candidate), plan_name=plan,
                                   candidate_name=candidate)
    assert not report.conforms
    assert [f.check for f in report.findings] == ["provenance", "capsule", "trust-boundary", "gate"]
    assert report.findings[0].node == 4 and report.findings[0].pointer == "/groups"
    assert report.findings[1].group == 0
    for fmt, method in (("text", report.to_text), ("json", report.to_json),
                        ("sarif", report.to_sarif), ("html", report.to_html)):
        status, expected = run(oracle_binary, "check", plan, candidate, "--format", fmt)
        assert status == 1
        if fmt == "html":  # the whole page, but for the time the run took
            def timeless(page):
                return re.sub(r"\d+\.\d+ s</p>", "s</p>", page)
            assert timeless(method()) == timeless(expected)
        elif fmt == "sarif":
            assert json.loads(method())["runs"][0]["results"] == \
                json.loads(expected)["runs"][0]["results"]
        elif fmt == "json":
            got, want = json.loads(method()), json.loads(expected)
            for doc in (got, want):  # the time the run took
                doc.pop("time", None)
            assert got == want
        else:
            assert method() == expected
    with pytest.raises(AssertionError) as raised:
        lowering_oracle.assert_conforms(read(plan), read(candidate))
    assert "provenance: node 4 (tanh) of the plan is in no group" in str(raised.value)


def test_a_generated_suite_gives_the_binarys_lowerings(oracle_binary, tmp_path):
    suite = tmp_path / "suite"
    status, _ = run(oracle_binary, "gen", "--out", str(suite), "--count", "40", "--seed", "7")
    assert status == 0
    manifest = json.loads(read(suite / "manifest.json"))
    judged = 0
    for entry in manifest["cases"]:
        plan = read(suite / entry["files"]["plan"])
        expected = read(suite / entry["files"]["expected"])
        mode, equality = entry["mode"], entry["equality"]
        # A case that asks for the audit expects the lowering with it (`lower --audit`).
        audit = entry["audit"]
        assert lowering_oracle.lower_json(plan, mode, equality, audit=audit).encode() == expected, \
            entry["case"]
        assert lowering_oracle.check(plan, expected, mode=mode, equality=equality).conforms
        judged += 1
    assert judged == len(manifest["cases"]) >= 2 * 40  # two or three lowerings a case


def test_dicts_keep_exact_integers_and_floats_are_not_naturals(examples_dir):
    plan = json.loads(read(os.path.join(examples_dir, "two-relu.json")))
    plan["kernels"][1]["nodeId"] = 2**63 - 1  # a float would round it to 2^63
    lowered = lowering_oracle.lower(plan)
    assert lowered["groups"][0]["nodeIds"] == [1, 2**63 - 1]
    plan["kernels"][1]["nodeId"] = 2.0
    with pytest.raises(lowering_oracle.InvalidInput) as raised:
        lowering_oracle.lower(plan)
    assert raised.value.pointer == "/kernels/1/nodeId"


def test_bad_input_raises_invalid_input_with_position_and_pointer():
    with pytest.raises(lowering_oracle.InvalidInput) as raised:
        lowering_oracle.lower('{"kernels":\n  {}}', name="p.json")
    e = raised.value
    assert (e.file, e.line, e.column, e.pointer) == ("p.json", 2, 3, "/kernels")
    assert str(e).startswith("p.json:2:3: /kernels: ")
    assert isinstance(e, ValueError)
    # A pickled error (pytest-xdist, multiprocessing) keeps its text and every part.
    again = pickle.loads(pickle.dumps(e))
    assert str(again) == str(e)
    assert all(getattr(again, part) == getattr(e, part) for part in e.PARTS)
    assert again.message and again.message in str(e)
    with pytest.raises(lowering_oracle.InvalidInput):
        lowering_oracle.check(b"\xff", "{}")
    with pytest.raises(ValueError, match="mode diagonal is not one of"):
        lowering_oracle.lower("{\"kernels\": []}", mode="diagonal")
    with pytest.raises(ValueError, match="edition 2025-01"):
        lowering_oracle.lower("{\"kernels\": []}", edition="2025-01")
    with pytest.raises(TypeError):
        lowering_oracle.lower(["not", "a", "plan"])


def test_custom_policies_are_the_binarys(oracle_binary, examples_dir):
    # The evidence gate's policies: a 2026-08 plan, judged in 2026-08 (docs/spec.md §1.6).
    path = os.path.join(examples_dir, "2026-08", "identity-trap.json")
    for flags in ({"requireEvidence": False}, {"preset": "verified", "allowTrustedExternal": True},
                  {"preset": "external", "allowRuntimeGuards": False, "allowTestEvidence": False}):
        args = []
        for k, v in flags.items():
            if k == "preset":
                args += ["--policy", v]
            else:
                args += ["--" + "".join("-" + c.lower() if c.isupper() else c for c in k),
                         "true" if v else "false"]
        _, expected = run(oracle_binary, "gate", "--edition", "2026-08", path, "--format", "json", *args)
        assert lowering_oracle.gate(read(path), flags, edition="2026-08") == json.loads(expected), flags
    with pytest.raises(ValueError, match="allowEverything"):
        lowering_oracle.gate(read(path), {"allowEverything": True}, edition="2026-08")


def test_the_vocabulary_is_the_binarys(oracle_binary):
    vocab = lowering_oracle.vocabulary()
    assert vocab["newest"] in vocab["editions"]
    status, text = run(oracle_binary, "explain", "maximal")
    assert status == 0
    assert "maximal" in vocab["Check"]
    assert vocab["kinds"]["relu"]["op"] == "relu" and vocab["kinds"]["relu"]["params"] == []
    assert ("inC", "natural") in [tuple(p) for p in vocab["kinds"]["conv2d"]["params"]]
    # Every vocabulary, value by value with its editions, as ref/edition.hpp declares it
    # (tests/docs' lo_editions_dump prints the same declaration).
    dump = json.loads(subprocess.run([os.environ["LO_EDITIONS_DUMP"]], capture_output=True,
                                     check=True, text=True, env=binary_env()).stdout)
    assert vocab["editions"] == dump["editions"] and vocab["newest"] == dump["newest"]
    names = {"claim tag": "ClaimTag", "evidence tag": "EvidenceTag",
             "provenance tag": "ProvenanceTag", "check": "Check"}
    for name, values in dump["vocabularies"].items():
        ours = names.get(name, name)
        if ours in vocab:
            assert vocab[ours] == values, name
    assert {k: v["editions"] for k, v in vocab["kinds"].items()} == dump["vocabularies"]["kind"]


def test_a_lone_surrogate_and_a_negative_bound_raise_what_the_docs_say():
    # docs/python.md, "Errors": a document the oracle cannot read is InvalidInput (a ValueError),
    # never pybind11's argument-list TypeError; a bound out of range is a ValueError.
    with pytest.raises(lowering_oracle.InvalidInput) as e:
        lowering_oracle.lower('{"kernels":[],"format":"\ud800"}')
    assert e.value.line == 1 and e.value.column > 1
    plan = '{"kernels":[]}'
    with pytest.raises(lowering_oracle.InvalidInput):
        lowering_oracle.check(plan, '{"groups":[],"mode":"\udfff"}')
    with pytest.raises(ValueError) as e:
        lowering_oracle.check(plan, lowering_oracle.lower_json(plan), max_per_check=-1)
    assert not isinstance(e.value, TypeError) and "max_per_check" in str(e.value)
    with pytest.raises(ValueError):
        lowering_oracle.lower(plan, mode="\ud800")


def test_assert_conforms_on_an_unreadable_candidate_is_an_assertion_error(examples_dir):
    # The candidate is the implementation's output: an unreadable one does not conform
    # (AssertionError with the reader's line); an unreadable plan is the caller's (InvalidInput).
    plan = read(os.path.join(examples_dir, "two-relu.json"))
    with pytest.raises(AssertionError) as e:
        lowering_oracle.assert_conforms(plan, '{"groups":', candidate_name="out.json")
    assert str(e.value).startswith("out.json:1:")
    with pytest.raises(lowering_oracle.InvalidInput) as e:
        lowering_oracle.check(plan, '{"groups":')
    assert e.value.document == "candidate"
    with pytest.raises(lowering_oracle.InvalidInput) as e:
        lowering_oracle.assert_conforms('{"kernels":', lowering_oracle.lower_json(plan))
    assert e.value.document == ""


def test_a_gate_result_is_judged_in_process_as_verify_gates_judges_it(examples_dir):
    # assert_gate_conforms: the comparison of `verify --gates` (tools/suite/judge.cpp), in process.
    # The evidence gate: a 2026-08 plan, judged in 2026-08.
    plan = read(os.path.join(examples_dir, "2026-08", "identity-trap.json"))
    e = "2026-08"
    for policy in ("verified", "checked", "external", {"preset": "verified", "allowFuzzed": True}):
        for mode in ("coalesced", "singleton"):
            result = lowering_oracle.gate(plan, policy, mode, edition=e)
            assert lowering_oracle.gate_findings(plan, result, policy, mode=mode, edition=e) == []
            lowering_oracle.assert_gate_conforms(plan, result, policy, mode=mode, edition=e)
            code = 0 if result["verdict"] == "accepted" else 1
            lowering_oracle.assert_gate_conforms(plan, result, policy, mode=mode, exit_code=code,
                                                 edition=e)
            # The exit status held to the verdict, as `diff --gate` and `verify --gates --impl`.
            with pytest.raises(AssertionError, match="the gate exited with status"):
                lowering_oracle.assert_gate_conforms(plan, result, policy, mode=mode,
                                                     exit_code=1 - code, edition=e)
    result = lowering_oracle.gate(plan, "checked", edition=e)
    assert result["verdict"] == "rejected"
    flipped = dict(result, verdict="accepted", failures=[])
    findings = lowering_oracle.gate_findings(plan, flipped, "checked", edition=e)
    assert [(f.check, f.pointer) for f in findings] == [("gate", "/verdict")]
    with pytest.raises(AssertionError, match="/verdict: gate: "):
        lowering_oracle.assert_gate_conforms(plan, flipped, "checked", edition=e)
    with pytest.raises(AssertionError, match="<result>:1:"):
        lowering_oracle.assert_gate_conforms(plan, "{", "checked", edition=e)


def test_an_acceptance_result_is_judged_in_process_as_verify_gates_judges_it(examples_dir):
    # In an edition with upstream's acceptance gate (docs/spec.md §6.10) the result is an
    # acceptance result, judged under a maintained profile (default checked_cpu).
    plan = read(os.path.join(examples_dir, "upstream", "2026-09", "contract-trust-level.plan.json"))
    for profile in (None, "checked_cpu", "checked_cuda"):
        result = lowering_oracle.gate(plan, profile, edition="2026-09")
        assert result["policy"]["profile"] == (profile or "checked_cpu")
        assert lowering_oracle.gate_findings(plan, result, profile, edition="2026-09") == []
        code = 0 if result["verdict"] == "accepted" else 1
        lowering_oracle.assert_gate_conforms(plan, result, profile, edition="2026-09",
                                             exit_code=code)
        with pytest.raises(AssertionError, match="the gate exited with status"):
            lowering_oracle.assert_gate_conforms(plan, result, profile, edition="2026-09",
                                                 exit_code=1 - code)
    result = lowering_oracle.gate(plan, "checked_cpu", edition="2026-09")
    assert result["verdict"] == "rejected"
    flipped = dict(result, verdict="accepted", failures=[])
    findings = lowering_oracle.gate_findings(plan, flipped, edition="2026-09")
    assert [(f.check, f.pointer) for f in findings] == [("gate", "/verdict")]
    # Another profile's result is a finding at /policy or where the gates differ.
    other = lowering_oracle.gate(plan, "checked_cuda", edition="2026-09")
    with pytest.raises(AssertionError, match="gate: under profile checked_cpu"):
        lowering_oracle.assert_gate_conforms(plan, other, edition="2026-09")
    with pytest.raises(ValueError, match="profile checked is not one of"):
        lowering_oracle.gate_findings(plan, result, "checked", edition="2026-09")
    with pytest.raises(ValueError, match="mode and equality do not apply"):
        lowering_oracle.gate_findings(plan, result, mode="singleton", edition="2026-09")


def test_checks_default_cap_is_the_binarys(oracle_binary):
    """check's max_per_check defaults to what `lowering-oracle check --help` shows (one
    declaration, ref/io/limits.hpp)."""
    code, text = run(oracle_binary, "check", "--help")
    assert code == 0
    shown = re.search(r"--max-per-check [A-Z]+(?::\S+)?=(\d+)", text)
    assert shown, text
    assert lowering_oracle.DEFAULT_MAX_PER_CHECK == int(shown.group(1))
    import inspect
    default = inspect.signature(lowering_oracle.check).parameters["max_per_check"].default
    assert default == lowering_oracle.DEFAULT_MAX_PER_CHECK


def test_gates_default_policy_is_the_binarys(oracle_binary, examples_dir):
    """gate() applies the preset `lowering-oracle gate --help` shows as --policy's default (one
    declaration, ref/gate.hpp), and so does a policy dict that names no preset."""
    code, text = run(oracle_binary, "gate", "--help")
    assert code == 0
    shown = re.search(r"--policy TEXT:\{[^}]*\}=(\w+)", text)
    assert shown, text
    assert lowering_oracle.DEFAULT_POLICY == shown.group(1)
    plan = read(os.path.join(examples_dir, "plan.json"))
    edition = "2026-08b"  # an edition of the assurance gate (docs/spec.md §6.4)
    unnamed = lowering_oracle.gate(plan, edition=edition)
    assert unnamed == lowering_oracle.gate(plan, policy=shown.group(1), edition=edition)
    assert unnamed["policy"]["name"] == shown.group(1)
    assert unnamed != lowering_oracle.gate(plan, policy="verified", edition=edition)
    assert lowering_oracle.gate(plan, policy={"allowFuzzed": False}, edition=edition) == \
        lowering_oracle.gate(plan, policy={"preset": shown.group(1), "allowFuzzed": False},
                             edition=edition)


GRAPH = {"format": "torchlean.ir.v1", "nodes": [
    {"id": 0, "kind": "input", "parents": [], "shape": [1, 4]},
    {"id": 1, "kind": "linear", "parents": [0], "shape": [1, 4]}]}
REFERENCE_ONLY = {"modules": [{"name": "reference", "maintained": True}]}


@pytest.mark.parametrize("name", ["mlp.json", "cnn.json", "transformer-block.json"])
def test_plan_equals_the_binary_on_the_real_graphs(oracle_binary, examples_dir, name):
    path = os.path.join(examples_dir, "graphs", name)
    for profile in ("checked_cpu", "checked_cuda", "libtorch_forward_cuda"):
        status, expected = run(oracle_binary, "plan", path, "--profile", profile, "--edition",
                               "2026-09")
        if status == 0:
            assert lowering_oracle.plan(read(path), profile, edition="2026-09") == expected
        else:
            with pytest.raises(lowering_oracle.PlanningError):
                lowering_oracle.plan(read(path), profile, edition="2026-09")


def test_plan_takes_a_registry_and_a_profile_document(oracle_binary, tmp_path):
    graph, registry = tmp_path / "g.json", tmp_path / "r.json"
    graph.write_text(json.dumps(GRAPH))
    registry.write_text(json.dumps(REFERENCE_ONLY))
    _, expected = run(oracle_binary, "plan", str(graph), "--registry", str(registry),
                      "--edition", "2026-09")
    assert '"capsule":"reference.linear"' in expected
    assert lowering_oracle.plan(GRAPH, registry=REFERENCE_ONLY, edition="2026-09") == expected
    # A graph the profile cannot plan: upstream's message, as `plan` prints it with exit 2.
    status, _ = run(oracle_binary, "plan", str(graph), "--profile", "checked_cuda", "--registry",
                    str(registry))
    assert status == 2
    with pytest.raises(lowering_oracle.PlanningError,
                       match="^no admissible kernel capsule for op linear on device cuda$"):
        lowering_oracle.plan(GRAPH, "checked_cuda", registry=REFERENCE_ONLY)


def test_plan_refuses_an_unknown_profile_and_an_unreadable_graph():
    with pytest.raises(ValueError, match="checked_cpu, checked_cuda"):
        lowering_oracle.plan(GRAPH, "nope")
    # The maintained profiles are 2026-09's (docs/spec.md §10.5), plan's default edition.
    assert lowering_oracle.plan(GRAPH) == lowering_oracle.plan(GRAPH, edition="2026-09")
    with pytest.raises(ValueError, match="edition 2026-10's are not transcribed"):
        lowering_oracle.plan(GRAPH, edition="2026-10")
    bad = dict(GRAPH, nodes=[dict(GRAPH["nodes"][0], id="zero")])
    with pytest.raises(lowering_oracle.InvalidInput) as e:
        lowering_oracle.plan(bad, name="g.json")
    assert e.value.pointer == "/nodes/0/id" and e.value.file == "g.json", str(e.value)


def test_check_plan_finds_what_the_binary_finds(oracle_binary, tmp_path):
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps(GRAPH))
    good = lowering_oracle.plan(GRAPH, edition="2026-09")
    assert lowering_oracle.check_plan(GRAPH, good, edition="2026-09") == []
    cuda = lowering_oracle.plan(GRAPH, "checked_cuda", edition="2026-09")
    (tmp_path / "cuda.json").write_text(cuda)
    status, text = run(oracle_binary, "check-plan", str(graph), str(tmp_path / "cuda.json"),
                       "--edition", "2026-09", "--format", "json")
    assert status == 1
    found = lowering_oracle.check_plan(GRAPH, cuda, edition="2026-09")
    assert found == [{k: f[k] for k in ("check", "document", "pointer", "sentence")}
                     for f in json.loads(text)["findings"]]
    assert [f["check"] for f in found] == ["selection.not-admissible"]
    assert lowering_oracle.check_plan(GRAPH, cuda, "checked_cuda", edition="2026-09") == []
    failed = lowering_oracle.check_plan(GRAPH, failed="no capsule", edition="2026-09")
    assert [f["check"] for f in failed] == ["selection.error-where-plan"]


def test_check_plan_refuses_an_unreadable_candidate_as_the_candidates():
    with pytest.raises(lowering_oracle.InvalidInput) as e:
        lowering_oracle.check_plan(GRAPH, '{"kernels": 1}', edition="2026-09")
    assert e.value.document == "candidate" and e.value.pointer == "/kernels", str(e.value)
    with pytest.raises(TypeError):
        lowering_oracle.check_plan(GRAPH)


@pytest.mark.parametrize("edition", ["2026-08", "2026-10"])
def test_each_variant_is_the_near_collision_it_names(edition):
    """strategies.variant: the plain capsule, each near collision of the oracle's one maker (the
    identity kept but for provider and device, the contract always changed), another name."""
    from lowering_oracle import strategies
    base = strategies.base_capsule("relu", edition)
    identity = ("name", "op", "provider", "device")
    assert strategies.variant(base, "plain", edition) is base
    changed = set()
    for name in strategies.VARIANTS[1:-1]:
        near = strategies.variant(base, name, edition)
        assert near != base, name
        assert list(near) == list(base), name  # the writer's fields, in its order
        moved = {f for f in identity if near[f] != base[f]}
        assert moved == ({name} if name in ("provider", "device") else set()), (name, moved)
        # Read back in the edition it was made in: a capsule of that edition's values.
        lowering_oracle.lower(json.dumps({"kernels": [
            {"nodeId": 1, "kind": "relu", "op": "relu", "capsule": near}]}),
            "coalesced", "contract", edition=edition)
        changed.add(json.dumps(near, sort_keys=True))
    assert len(changed) == len(strategies.VARIANTS) - 2  # no two collisions alike
    assert strategies.variant(base, "renamed", edition)["name"] == base["name"] + ".fast"
    with pytest.raises(ValueError, match="is not one of"):
        strategies.variant(base, "typo", edition)


def test_the_strategies_kinds_are_the_generators_and_read_back():
    """_native.kind: every planned kind of 2026-10, with the suite generator's parameters (no
    words: the simplest; words: drawn; wild), is a kind the reader takes in a plan of its op."""
    from lowering_oracle import _native, strategies
    kinds = lowering_oracle.vocabulary()["kinds"]
    planned = [t for t, k in kinds.items() if k["op"] is not None and "2026-10" in k["editions"]]
    assert planned
    for tag in planned:
        op = kinds[tag]["op"]
        for words, wild in (([], False), ([7, 2**63, 5, 1], False), ([9, 4, 2**40], True)):
            kind = json.loads(_native.kind(tag, words, "2026-10", wild))
            assert (kind if isinstance(kind, str) else kind["tag"]) == tag
            capsule = strategies.base_capsule(op, "2026-10")
            lowering_oracle.lower(json.dumps({"kernels": [
                {"nodeId": 1, "kind": kind, "op": op, "capsule": capsule}]}), edition="2026-10")
    with pytest.raises(ValueError, match="not in edition"):
        _native.kind("transpose", [], "2026-07", False)
