"""The pytest plugin (docs/python.md, "pytest"): a test taking `lowering_oracle_case` runs once per
entry of the suite `--lowering-oracle-suite` names; a conforming implementation passes every one,
a wrong one fails with the text report, which --junitxml carries; a suite smaller than
--lowering-oracle-min-count is refused."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import binary_env

USER_TEST = '''
import peers

def test_conforming(lowering_oracle_case):
    c = lowering_oracle_case
    c.assert_conforms(peers.conforming_impl(c.plan.decode(), c.mode, c.equality, c.audit))

def test_identity(lowering_oracle_case):
    c = lowering_oracle_case
    c.assert_conforms(peers.mutant_impl("identity")(c.plan.decode(), c.mode, c.equality, c.audit))

def test_audit_left_out(lowering_oracle_case):
    c = lowering_oracle_case
    c.assert_conforms(peers.conforming_impl(c.plan.decode(), c.mode, c.equality))
'''


def pytest_run(tmp_path, *args):
    test = tmp_path / "test_user.py"
    test.write_text(USER_TEST)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "lowering_oracle.pytest_plugin",
                           "-p", "no:cacheprovider", "-q", str(test), *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)


def test_a_suite_runs_as_parametrised_tests(oracle_binary, tmp_path):
    suite = tmp_path / "suite"
    subprocess.run([oracle_binary, "gen", "--out", str(suite), "--count", "12", "--seed", "3"],
                   check=True, capture_output=True, env=binary_env())
    junit = tmp_path / "junit.xml"
    r = pytest_run(tmp_path, "--lowering-oracle-suite", str(suite), f"--junitxml={junit}")
    assert r.returncode == 1, r.stdout + r.stderr
    cases = ET.parse(junit).getroot().iter("testcase")
    outcomes = {}
    for case in cases:
        failed = case.find("failure")
        outcomes[case.get("name")] = failed.get("message") + failed.text if failed is not None \
            else None
    conforming = [n for n in outcomes if n.startswith("test_conforming[")]
    identity = [n for n in outcomes if n.startswith("test_identity[")]
    left_out = [n for n in outcomes if n.startswith("test_audit_left_out[")]
    assert len(conforming) == len(identity) == len(left_out) == 36  # 12 cases, 3 lowerings each
    assert all(outcomes[n] is None for n in conforming)
    # The entries that ask for the audit fail a lowering without it, at /audit, and only those.
    asked = [n for n in left_out if outcomes[n]]
    assert asked and len(asked) < len(left_out)
    assert all("/audit" in outcomes[n] for n in asked)
    failures = [outcomes[n] for n in identity if outcomes[n]]
    # The identity peer fails where the suite has capsules of one identity and two contracts,
    # only under coalesced/contract, with the text report as the message.
    assert failures and all("-coalesced-contract]" in n for n in identity if outcomes[n])
    assert any("does not conform to the coalesced lowering (equality contract)" in f
               for f in failures)


def test_without_a_suite_the_case_tests_are_skipped(tmp_path):
    r = pytest_run(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 skipped" in r.stdout


def test_a_suite_smaller_than_asked_is_refused(oracle_binary, tmp_path):
    suite = tmp_path / "suite"
    subprocess.run([oracle_binary, "gen", "--out", str(suite), "--count", "2"], check=True,
                   capture_output=True, env=binary_env())
    r = pytest_run(tmp_path, "--lowering-oracle-suite", str(suite),
                   "--lowering-oracle-min-count", "50")
    assert r.returncode == 4, r.stdout + r.stderr  # pytest's usage error
    assert "holds 2 cases, fewer than --lowering-oracle-min-count 50" in r.stderr
