"""The complete example of docs/python.md runs as printed: with the conforming peer of tests/peers
as `my_backend` every test passes (the Hypothesis properties and each case of a generated suite);
with the identity peer the property fails with Hypothesis's falsifying example and the report."""
import os
import re
import subprocess
import sys

from conftest import SEED, binary_env

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
BACKEND = '''
import peers
impl = peers.{impl}


def lower(plan_text, mode, equality, audit=False):
    return impl(plan_text, mode, equality, audit)
'''


def example():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"```python\n(# test_my_lowering.py.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/python.md has no block starting # test_my_lowering.py"
    return blocks[0]


def run(tmp_path, impl, suite):
    (tmp_path / "test_my_lowering.py").write_text(example())
    (tmp_path / "my_backend.py").write_text(BACKEND.format(impl=impl))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), os.path.dirname(__file__),
                                         env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "lowering_oracle.pytest_plugin",
                           "-p", "no:cacheprovider", "-q", f"--hypothesis-seed={SEED}",
                           "test_my_lowering.py", "--lowering-oracle-suite", str(suite),
                           "--lowering-oracle-min-count", "20"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_example_passes_a_conforming_backend_and_fails_a_wrong_one(oracle_binary, tmp_path):
    suite = tmp_path / "suite"
    subprocess.run([oracle_binary, "gen", "--out", str(suite), "--count", "20", "--seed", "1"],
                   check=True, capture_output=True, env=binary_env())
    good = run(tmp_path, "conforming_impl", suite)
    assert good.returncode == 0, good.stdout + good.stderr
    assert re.search(r"\b62 passed\b", good.stdout), good.stdout  # 2 properties, 60 suite entries
    bad = run(tmp_path, 'mutant_impl("identity")', suite)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Falsifying example: test_every_plan_lowers_as_the_spec_gives" in bad.stdout
    assert "does not conform to the coalesced lowering (equality contract)" in bad.stdout
