"""lowering_oracle gives the binary's results on every example (docs/python.md): lower, audit and
gate in process equal `lowering-oracle` byte for byte, under every mode, equality and preset, and
the acceptance gate of an edition that has it. The rest of the module's tests: test_module.py."""
import json
import os

import pytest

import lowering_oracle

from conftest import read, run

# examples/2026-08/ holds 2026-08's plans (the evidence gate's presets, the singleton lowering);
# examples/ the newest edition's (coalesced lowerings, the acceptance gate's profiles).
SEED_PLANS = ["two-relu.json", "cpu-mlp.json", "cuda-transformer-block.json",
              "identity-trap.json", "plan.json"]
NEWEST_PLANS = ["two-relu.json", "cpu-mlp.json", "cpu-transformer-block.json",
                "identity-trap.json", "plan.json", "custom-div-attention.json"]


@pytest.mark.parametrize("name", SEED_PLANS)
def test_every_command_equals_the_binary_on_the_2026_08_examples(oracle_binary, examples_dir,
                                                                   name):
    path = os.path.join(examples_dir, "2026-08", name)
    text = read(path)
    e = ["--edition", "2026-08"]
    for mode in ("coalesced", "singleton"):
        for equality in ("contract", "identity"):
            _, expected = run(oracle_binary, "lower", *e, path, "--mode", mode, "--equality",
                              equality, "--audit")
            assert lowering_oracle.lower_json(text, mode, equality, "2026-08", True) == expected
            for policy in ("verified", "checked", "external"):
                status, expected = run(oracle_binary, "gate", *e, path, "--policy", policy,
                                       "--mode", mode, "--equality", equality, "--format", "json")
                got = lowering_oracle.gate(text, policy, mode, equality, edition="2026-08")
                assert got == json.loads(expected)
                assert (got["verdict"] == "accepted") == (status == 0)
    _, expected = run(oracle_binary, "audit", *e, path, "--equality", "identity")
    assert lowering_oracle.audit(text, "identity", "2026-08") == json.loads(expected)


@pytest.mark.parametrize("name", NEWEST_PLANS)
def test_every_command_equals_the_binary_on_the_examples(oracle_binary, examples_dir, name):
    path = os.path.join(examples_dir, name)
    text = read(path)
    for equality in ("contract", "identity"):
        _, expected = run(oracle_binary, "lower", path, "--equality", equality, "--audit")
        assert lowering_oracle.lower_json(text, "coalesced", equality, audit=True) == expected
    vocabulary = lowering_oracle.vocabulary()
    for profile in vocabulary["AcceptanceProfiles"][vocabulary["newest"]]:
        status, expected = run(oracle_binary, "gate", path, "--profile", profile, "--format",
                               "json")
        got = lowering_oracle.gate(text, profile)
        assert got == json.loads(expected), profile
        assert (got["verdict"] == "accepted") == (status == 0)
    _, expected = run(oracle_binary, "audit", path, "--equality", "identity")
    assert lowering_oracle.audit(text, "identity") == json.loads(expected)


def test_the_acceptance_gate_is_the_binarys(oracle_binary, examples_dir):
    """In an edition with upstream's acceptance gate (docs/spec.md §6.10), gate() is what
    `gate --edition E --format json` writes, for a profile and for overridden fields."""
    upstream = os.path.join(examples_dir, "upstream", "2026-09")
    cases = [(None, []), ("checkedCuda", ["--profile", "checkedCuda"]),
             ({"profile": "checked_cpu", "device": "cuda", "provider": "only:libtorch",
               "vjpMode": "backend-vjp", "allowTrustedExternal": True},
              ["--device", "cuda", "--provider", "only:libtorch", "--vjp", "backend-vjp",
               "--allow-trusted-external", "true"])]
    for name in sorted(os.listdir(upstream)):
        if not name.endswith(".plan.json"):
            continue
        path = os.path.join(upstream, name)
        for policy, args in cases:
            code, expected = run(oracle_binary, "gate", path, "--edition", "2026-09", "--format",
                                 "json", *args)
            got = lowering_oracle.gate(read(path), policy, edition="2026-09")
            assert got == json.loads(expected), (name, policy)
            assert (got["verdict"] == "accepted") == (code == 0)
    with pytest.raises(ValueError, match="mode and equality"):
        lowering_oracle.gate(read(os.path.join(upstream, "tiny-relu.plan.json")), None,
                             "singleton", edition="2026-09")
    with pytest.raises(ValueError, match="libtorch_forward_cuda"):
        lowering_oracle.gate(read(os.path.join(upstream, "tiny-relu.plan.json")),
                             "libtorch_forward_cuda", edition="2026-10")
