"""The complete example of docs/python.md runs as printed: its test file and its commands (from a
directory of their own, with this build as `LO_BUILD` and 20 cases instead of 200). With the
conforming peer of tests/peers as `my_backend` every test passes (the Hypothesis properties and
each case of a generated suite); with the identity peer the property fails with Hypothesis's
falsifying example and the report; with the peer whose audit lists each trusted-external op once,
the property fails too (the strategies ask for the audit as gen does), with one of three
consecutive seeds."""
import os
import re
import subprocess

from conftest import SEED

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
BACKEND = '''
import sys
sys.path.insert(0, {tests!r})
import peers
impl = peers.{impl}


def lower(plan_text, mode, equality, audit=False):
    return impl(plan_text, mode, equality, audit)
'''


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    python = re.findall(r"```python\n(# test_my_lowering.py.*?)```", text, re.S)
    assert len(python) == 1, "docs/python.md has no block starting # test_my_lowering.py"
    shell = re.findall(r"```sh\n(LO_BUILD=.*?)```", text, re.S)
    assert len(shell) == 1, "docs/python.md has no block starting LO_BUILD="
    return python[0], shell[0]


def run(tmp_path, oracle_binary, impl, *pytest_args, seed=SEED):
    test, commands = blocks()
    work = tmp_path / (impl.replace('"', "").replace("(", "-").replace(")", "") + f"-{seed}")
    work.mkdir()
    (work / "test_my_lowering.py").write_text(test)
    (work / "my_backend.py").write_text(BACKEND.format(tests=os.path.dirname(__file__), impl=impl))
    build = os.path.dirname(os.path.abspath(oracle_binary))
    lines = commands.splitlines()
    assert lines[0].startswith("LO_BUILD=/")
    lines[0] = f"LO_BUILD={build}"
    script = "\n".join(lines).replace("--count 200", "--count 20").replace(
        "--lowering-oracle-min-count 200", "--lowering-oracle-min-count 20")
    script = script.replace("-m pytest ", f"-m pytest -p no:cacheprovider -q "
                                         f"--hypothesis-seed={seed} {' '.join(pytest_args)} ")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if "LD_PRELOAD" in env:  # the sanitizer build: the binary has its own runtime linked in
        script = ('lowering-oracle() { env -u LD_PRELOAD "$LO_BUILD/lowering-oracle" "$@"; }\n'
                  + script)
    return subprocess.run(["bash", "-e", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)


def test_the_example_passes_a_conforming_backend_and_fails_a_wrong_one(oracle_binary, tmp_path):
    good = run(tmp_path, oracle_binary, "conforming_impl")
    assert good.returncode == 0, good.stdout + good.stderr
    assert re.search(r"\b62 passed\b", good.stdout), good.stdout  # 2 properties, 60 suite entries
    bad = run(tmp_path, oracle_binary, 'mutant_impl("identity")')
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Falsifying example: test_every_plan_lowers_as_the_spec_gives" in bad.stdout
    assert "does not conform to the coalesced lowering (equality contract)" in bad.stdout


# A seed whose 300 examples catch the deduplicated audit (checked with this file).
KNOWN_CATCHING = 1


def test_the_example_catches_an_audit_that_deduplicates_trusted_external_ops(oracle_binary,
                                                                           tmp_path):
    # The wrong audit needs two trusted-external groups of one op and the audit asked for (one
    # case in four): the documented 300 examples miss it for some seeds (1013 did, and
    # 2770204968 to 2770204970 all three), so the example runs with up to three consecutive seeds
    # of the run's and then with KNOWN_CATCHING, a seed that catches it, and must catch it in one:
    # the assertion is that the documented property can catch it, never a matter of luck.
    for seed in (SEED, SEED + 1, SEED + 2, KNOWN_CATCHING):
        bad = run(tmp_path, oracle_binary, 'mutant_impl("dedup-external-ops")', "-k",
                  "test_every_plan_lowers_as_the_spec_gives", seed=seed)
        if bad.returncode == 1:
            break
        print(f"seed {seed}: the property missed the wrong audit in 300 examples")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Falsifying example: test_every_plan_lowers_as_the_spec_gives" in bad.stdout
    assert "audit=True" in bad.stdout and "trustedExternalOps" in bad.stdout, bad.stdout
