"""The pytest plugin of lowering_oracle (entry point ``pytest11``; docs/python.md, "pytest").

Fixtures:
  ``lowering_oracle``       the lowering_oracle module;
  ``lowering_oracle_case``  one entry of the suite named by ``--lowering-oracle-suite DIR`` (a
                            directory `lowering-oracle gen` wrote): a test that takes it runs once
                            per entry, named by the entry's case, mode and equality.

Options:
  --lowering-oracle-suite DIR      the suite;
  --lowering-oracle-edition E      the edition it is judged in (default the newest; never the
                                   manifest's);
  --lowering-oracle-min-count N    refuse a suite of fewer than N cases (a tiny suite proves
                                   little; default 1).

A failing case is an AssertionError whose message is the text report, so pytest's --junitxml
carries it.
"""
import json
import os

import pytest

import lowering_oracle


class SuiteCase:
    """One manifest entry: the case name, the lowering asked for, whether the audit is asked for
    (``audit``: then a lowering without one fails), and the plan's exact bytes."""

    def __init__(self, suite, entry, edition):
        self.name = entry["case"]
        self.mode = entry["mode"]
        self.equality = entry["equality"]
        self.audit = bool(entry.get("audit", False))  # the entry asks for the audit
        self.edition = edition
        self.plan_path = _inside(suite, entry["files"]["plan"])
        with open(self.plan_path, "rb") as f:
            self.plan = f.read()

    @property
    def id(self):
        return f"{self.name}-{self.mode}-{self.equality}"

    def check(self, candidate):
        """lowering_oracle.check of `candidate` (text, bytes or dict) for this case."""
        return lowering_oracle.check(self.plan, candidate, mode=self.mode,
                                     equality=self.equality, edition=self.edition,
                                     audit=self.audit,
                                     plan_name=self.plan_path, candidate_name=self.id)

    def assert_conforms(self, candidate):
        report = self.check(candidate)
        if not report.conforms:
            raise AssertionError(report.to_text())
        return report


def _inside(suite, relative):
    """A suite file's path, refused when it leaves the suite (the manifest is not trusted)."""
    root = os.path.realpath(suite)
    path = os.path.realpath(os.path.join(root, relative))
    if os.path.commonpath([root, path]) != root:
        raise pytest.UsageError(f"{suite}/manifest.json names {relative}, outside the suite")
    return path


def pytest_addoption(parser):
    group = parser.getgroup("lowering-oracle")
    group.addoption("--lowering-oracle-suite", metavar="DIR",
                    help="run each test taking lowering_oracle_case over this generated suite")
    group.addoption("--lowering-oracle-edition", metavar="EDITION",
                    help="the edition the suite is judged in (default the newest)")
    group.addoption("--lowering-oracle-min-count", metavar="N", type=int, default=1,
                    help="refuse a suite of fewer than N cases (default 1)")


def _cases(config):
    suite = config.getoption("--lowering-oracle-suite")
    if not suite:
        return None
    try:
        with open(os.path.join(suite, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise pytest.UsageError(f"--lowering-oracle-suite {suite}: {e}")
    if manifest.get("format") != "lowering-oracle/conformance-suite":
        raise pytest.UsageError(f"{suite}/manifest.json is not a lowering-oracle suite")
    edition = config.getoption("--lowering-oracle-edition")
    cases = [SuiteCase(suite, e, edition) for e in manifest["cases"]]
    names = {c.name for c in cases}
    minimum = config.getoption("--lowering-oracle-min-count")
    if len(names) < minimum:
        raise pytest.UsageError(f"{suite} holds {len(names)} cases, fewer than "
                                f"--lowering-oracle-min-count {minimum}")
    return cases


def pytest_configure(config):
    # The suite is read, and refused, before any test is collected (a usage error, exit 4).
    config._lowering_oracle_cases = _cases(config)


def pytest_generate_tests(metafunc):
    if "lowering_oracle_case" in metafunc.fixturenames:
        cases = metafunc.config._lowering_oracle_cases
        if cases is None:
            metafunc.parametrize("lowering_oracle_case", [pytest.param(
                None, marks=pytest.mark.skip(reason="no --lowering-oracle-suite DIR"))])
        else:
            metafunc.parametrize("lowering_oracle_case", cases, ids=[c.id for c in cases])


def pytest_report_header(config):
    suite = config.getoption("--lowering-oracle-suite")
    if suite:
        return f"lowering-oracle suite: {suite}"
    return None


@pytest.fixture(name="lowering_oracle")
def _lowering_oracle():
    """The lowering_oracle module."""
    return lowering_oracle
