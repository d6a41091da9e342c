"""lowering_oracle gives the binary's results on every example (docs/python.md): lower, audit and
gate in process equal `lowering-oracle` byte for byte, under every mode, equality and preset, and
the acceptance gate of an edition that has it. The rest of the module's tests: test_module.py."""
import json
import os

import pytest

import lowering_oracle

from conftest import read, run

EXAMPLE_PLANS = ["two-relu.json", "cpu-mlp.json", "cuda-transformer-block.json",
                 "identity-trap.json", "plan.json"]


@pytest.mark.parametrize("name", EXAMPLE_PLANS)
def test_every_command_equals_the_binary_on_the_examples(oracle_binary, examples_dir, name):
    path = os.path.join(examples_dir, name)
    text = read(path)
    for mode in ("coalesced", "singleton"):
        for equality in ("contract", "identity"):
            _, expected = run(oracle_binary, "lower", path, "--mode", mode, "--equality", equality,
                              "--audit")
            assert lowering_oracle.lower_json(text, mode, equality, audit=True) == expected
            for policy in ("verified", "checked", "external"):
                status, expected = run(oracle_binary, "gate", path, "--policy", policy, "--mode",
                                       mode, "--equality", equality, "--format", "json")
                got = lowering_oracle.gate(text, policy, mode, equality)
                assert got == json.loads(expected)
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
