"""The pytest plugin (docs/python.md, "pytest"): a test taking `lowering_oracle_case` runs once per
entry of the suite `--lowering-oracle-suite` names; a conforming implementation passes every one,
a wrong one fails with the text report, which --junitxml carries; a suite smaller than
--lowering-oracle-min-count is refused."""
import json
import os
import re
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
    subprocess.run([oracle_binary, "gen", "--edition", "2026-08", "--out", str(suite), "--count",
                    "12", "--seed", "3"],
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
    assert "the suite's count is 2 and --min-count asks for at least 50" in r.stderr


EMPTY_TEST = '''
import os

def test_empty(lowering_oracle_case):
    c = lowering_oracle_case
    with open(os.environ["LO_PLAN_IDS"], "a") as f:
        f.write(f"{id(c.plan)}\\n")
    c.assert_conforms('{"groups":[],"mode":"%s","equality":"%s"}' % (c.mode, c.equality))
'''


def forged_suite(path, entries, plan=b'{"kernels":[]}', provenance=True):
    """A manifest of `entries` cases all naming one plan, claiming gen's parameters (or not)."""
    path.mkdir()
    (path / "p.json").write_bytes(plan)
    manifest = {"format": "lowering-oracle/conformance-suite", "version": 1,
                "cases": [{"case": f"c{i}", "mode": "coalesced", "equality": "contract",
                           "files": {"plan": "p.json", "expected": "p.json"}}
                          for i in range(entries)]}
    if provenance:
        manifest.update(seed=1, count=entries, maxNodes=24)
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


def run_empty(tmp_path, *args):
    (tmp_path / "test_empty.py").write_text(EMPTY_TEST)
    env = dict(os.environ)
    env["LO_PLAN_IDS"] = str(tmp_path / "ids.txt")
    # pytest in a process that prints its own peak resident size (KiB) at the end.
    peak = ("import resource, sys, pytest; rc = pytest.main(sys.argv[1:]); "
            "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)")
    return subprocess.run([sys.executable, "-c", peak, "-p", "lowering_oracle.pytest_plugin",
                           "-p", "no:cacheprovider", "-q", str(tmp_path / "test_empty.py"),
                           *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_suite_that_claims_gens_parameters_is_verified_as_verify_does(tmp_path):
    # 200 entries of one empty plan, claiming `gen --seed 1 --count 200 --max-nodes 24`: an
    # implementation that always writes an empty lowering must not pass it (docs/spec.md §4.3,
    # "Suite integrity"), with --lowering-oracle-min-count too.
    suite = forged_suite(tmp_path / "forged", 200)
    for extra in ([], ["--lowering-oracle-min-count", "200"]):
        r = run_empty(tmp_path, "--lowering-oracle-suite", str(suite), *extra)
        assert r.returncode == 4, r.stdout + r.stderr
        assert "the suite is not the one `gen --edition" in r.stderr, r.stderr
    # A hand-made suite (no gen parameters) is judged only when asked, as verify's
    # --unverified-suite; --lowering-oracle-min-count refuses it, as verify's --min-count.
    hand = forged_suite(tmp_path / "hand", 3, provenance=False)
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(hand))
    assert r.returncode == 4 and "--unverified-suite" in r.stderr, r.stdout + r.stderr
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(hand), "--lowering-oracle-unverified-suite")
    assert r.returncode == 0 and "3 passed" in r.stdout, r.stdout + r.stderr
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(hand), "--lowering-oracle-unverified-suite",
                  "--lowering-oracle-min-count", "1")
    assert r.returncode == 4 and "a hand-made suite" in r.stderr, r.stdout + r.stderr


def test_a_fifo_plan_is_refused_not_waited_on(oracle_binary, tmp_path):
    suite = tmp_path / "suite"
    subprocess.run([oracle_binary, "gen", "--out", str(suite), "--count", "3"], check=True,
                   capture_output=True, env=binary_env())
    plan = json.loads((suite / "manifest.json").read_text())["cases"][1]["files"]["plan"]
    os.remove(suite / plan)
    os.mkfifo(suite / plan)
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(suite))  # no writer: a read would hang
    assert r.returncode == 4, r.stdout + r.stderr
    assert "FIFO" in r.stderr, r.stderr


def test_a_plan_named_by_many_entries_is_read_once_and_shared(tmp_path):
    # 8 entries naming one 96 MiB plan (sparse): read once, bounded, one bytes object for all;
    # read once per entry it would cost 8 times that (measured: the collection's peak RSS).
    size = 96 << 20
    suite = forged_suite(tmp_path / "big", 8, plan=b"", provenance=False)
    with open(suite / "p.json", "r+b") as f:
        f.truncate(size)
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(suite),
                  "--lowering-oracle-unverified-suite", "--collect-only")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "8 tests collected" in r.stdout, r.stdout
    peak = int(re.search(r"^PEAK (\d+)$", r.stdout, re.M).group(1)) * 1024
    print(f"collecting 8 entries of one {size >> 20} MiB plan peaked at {peak >> 20} MiB")
    assert peak < 5 * size, f"collection peaked at {peak >> 20} MiB"
    # The cases share one bytes object.
    small = forged_suite(tmp_path / "small", 8, provenance=False)
    r = run_empty(tmp_path, "--lowering-oracle-suite", str(small),
                  "--lowering-oracle-unverified-suite")
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(set((tmp_path / "ids.txt").read_text().split())) == 1


SELECTION_TEST = '''
import json
import planner

def plan_or_refuse(case, mutant=None):
    try:
        return planner.plan(json.loads(case.graph), json.loads(case.profile), mutant), None
    except planner.PlanningError as e:
        return None, str(e)

def test_planner(lowering_oracle_selection_case):
    c = lowering_oracle_selection_case
    plan, failed = plan_or_refuse(c)
    c.assert_conforms(plan, failed)

def test_skip_preference(lowering_oracle_selection_case):
    c = lowering_oracle_selection_case
    plan, failed = plan_or_refuse(c, "skip-preference")
    c.assert_conforms(plan, failed)
'''


def selection_run(tmp_path, *args):
    test = tmp_path / "test_planner.py"
    test.write_text(SELECTION_TEST)
    env = dict(os.environ)
    peers_dir = os.environ["LO_PEERS_DIR"]
    env["PYTHONPATH"] = os.pathsep.join([peers_dir, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "lowering_oracle.pytest_plugin",
                           "-p", "no:cacheprovider", "-q", str(test), *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)


def test_a_suites_selection_entries_run_as_parametrised_tests(oracle_binary, tmp_path):
    """`lowering_oracle_selection_case`: one test per selection entry (docs/spec.md §4.3,
    "Selection entries"), judged as `verify --selection` judges it: the conforming planner passes
    every one, its `skip-preference` mutant fails with the departure; in an edition without
    selection the test is skipped, saying so."""
    suite = tmp_path / "suite"
    subprocess.run([oracle_binary, "gen", "--edition", "2026-10", "--out", str(suite), "--count",
                    "10", "--seed", "5"], check=True, capture_output=True, env=binary_env())
    junit = tmp_path / "junit.xml"
    r = selection_run(tmp_path, "--lowering-oracle-suite", str(suite), f"--junitxml={junit}")
    assert r.returncode == 1, r.stdout + r.stderr
    outcomes = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        failed = case.find("failure")
        outcomes[case.get("name")] = None if failed is None else failed.get("message")
    planner = [n for n in outcomes if n.startswith("test_planner[")]
    mutant = [n for n in outcomes if n.startswith("test_skip_preference[")]
    assert len(planner) == len(mutant) == 10, outcomes
    assert all(outcomes[n] is None for n in planner), outcomes
    failures = [outcomes[n] for n in mutant if outcomes[n]]
    assert failures and all("selection.preference-ignored" in f for f in failures), failures

    old = tmp_path / "old"
    subprocess.run([oracle_binary, "gen", "--edition", "2026-08", "--out", str(old), "--count",
                    "2"], check=True, capture_output=True, env=binary_env())
    r = selection_run(tmp_path, "--lowering-oracle-suite", str(old), "-rs")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 skipped" in r.stdout and "edition 2026-08 has no selection" in r.stdout, r.stdout
