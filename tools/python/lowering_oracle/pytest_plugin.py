"""The pytest plugin of lowering_oracle (entry point ``pytest11``; docs/python.md, "pytest").

Fixtures:
  ``lowering_oracle``       the lowering_oracle module;
  ``lowering_oracle_case``  one entry of the suite named by ``--lowering-oracle-suite DIR`` (a
                            directory `lowering-oracle gen` wrote): a test that takes it runs once
                            per entry, named by the entry's case, mode and equality;
  ``lowering_oracle_selection_case``  one selection entry of that suite (an edition with
                            selection, docs/spec.md §4.3 "Selection entries"): a test that takes it
                            runs once per selection case, named by its case (in an edition without
                            selection, once, skipped, saying so).

Options:
  --lowering-oracle-suite DIR      the suite;
  --lowering-oracle-edition E      the edition it is judged in (verify's --edition: default the
                                   manifest's; another is refused);
  --lowering-oracle-min-count N    refuse a suite whose manifest's count is below N (verify's
                                   --min-count);
  --lowering-oracle-unverified-suite  judge a hand-made suite (verify's --unverified-suite).

The suite is read and verified by the rule `lowering-oracle verify` applies (docs/spec.md §4.3,
the same C++ code through lowering_oracle._native.suite): a suite that claims gen's parameters is
regenerated and compared byte for byte, every file is read bounded (a FIFO or a device is refused,
never opened for a blocking read), and each plan is read once and shared by its entries.

A failing case is an AssertionError whose message is the text report, so pytest's --junitxml
carries it.
"""
import os

import pytest

import lowering_oracle
from lowering_oracle import _native


class SuiteCase:
    """One manifest entry: the case name, the lowering asked for, whether the audit is asked for
    (``audit``: then a lowering without one fails), and the plan's exact bytes (one bytes object
    per plan file, shared by the entries that name it)."""

    def __init__(self, suite, entry, plans, edition):
        self.name, self.mode, self.equality, self.audit, plan = entry
        self.edition = edition
        self.plan_path = os.path.join(suite, plan)
        self.plan = plans[plan]

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


class SelectionCase:
    """One selection entry: the case name, the graph's and the profile's exact bytes; a planner's
    GraphExecutionPlan (or its failure to plan) is judged by the selection checks, as `verify
    --selection` judges it."""

    def __init__(self, suite, entry, files, edition):
        self.name, graph, profile = entry
        self.edition = edition
        self.graph_path = os.path.join(suite, graph)
        self.profile_path = os.path.join(suite, profile)
        self.graph = files[graph]
        self.profile = files[profile]

    @property
    def id(self):
        return self.name

    def check(self, candidate=None, failed=None):
        """lowering_oracle.check_plan of `candidate` (text, bytes or dict), or of the planner's
        failure `failed` (its message), for this case: the departures, empty when it conforms."""
        return lowering_oracle.check_plan(self.graph, candidate, profile=self.profile,
                                          edition=self.edition, failed=failed,
                                          graph_name=self.graph_path, candidate_name=self.id)

    def assert_conforms(self, candidate=None, failed=None):
        departures = self.check(candidate, failed)
        if departures:
            raise AssertionError("\n".join(
                f"{self.id}: {d['pointer']}: {d['check']}: {d['sentence']}" for d in departures))
        return departures


def pytest_addoption(parser):
    group = parser.getgroup("lowering-oracle")
    group.addoption("--lowering-oracle-suite", metavar="DIR",
                    help="run each test taking lowering_oracle_case over this generated suite")
    group.addoption("--lowering-oracle-edition", metavar="EDITION",
                    help="the edition the suite is judged in (default the manifest's)")
    group.addoption("--lowering-oracle-min-count", metavar="N", type=int, default=None,
                    help="refuse a suite whose manifest's count is below N (verify's --min-count)")
    group.addoption("--lowering-oracle-unverified-suite", action="store_true", default=False,
                    help="judge a hand-made suite, which cannot be verified (verify's "
                         "--unverified-suite)")


def _cases(config):
    suite = config.getoption("--lowering-oracle-suite")
    if not suite:
        return None
    minimum = config.getoption("--lowering-oracle-min-count")
    if minimum is not None and minimum < 0:
        raise pytest.UsageError(f"--lowering-oracle-min-count {minimum}: not a whole number")
    try:
        edition, _, entries, plans = _native.suite(
            suite, config.getoption("--lowering-oracle-edition"), minimum, None, None, None,
            config.getoption("--lowering-oracle-unverified-suite"), None)
    except ValueError as e:
        raise pytest.UsageError(f"--lowering-oracle-suite {suite}: {e}")
    return [SuiteCase(suite, e, plans, edition) for e in entries]


def _selection_cases(config):
    """The suite's selection entries, read and verified as `verify --selection` does; a list of one
    skipped parameter in an edition without selection."""
    suite = config.getoption("--lowering-oracle-suite")
    edition = config._lowering_oracle_cases[0].edition if config._lowering_oracle_cases else None
    if edition is not None and not _native.has_selection(edition):
        return None, f"edition {edition} has no selection (docs/spec.md §10)"
    try:
        edition, _, entries, files = _native.suite(
            suite, config.getoption("--lowering-oracle-edition"),
            config.getoption("--lowering-oracle-min-count"), None, None, None,
            config.getoption("--lowering-oracle-unverified-suite"), None, selection=True)
    except ValueError as e:
        raise pytest.UsageError(f"--lowering-oracle-suite {suite}: {e}")
    return [SelectionCase(suite, e, files, edition) for e in entries], None


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
    if "lowering_oracle_selection_case" in metafunc.fixturenames:
        config = metafunc.config
        if config._lowering_oracle_cases is None:
            cases, why = None, "no --lowering-oracle-suite DIR"
        else:
            if not hasattr(config, "_lowering_oracle_selection"):
                config._lowering_oracle_selection = _selection_cases(config)
            cases, why = config._lowering_oracle_selection
        if cases is None:
            metafunc.parametrize("lowering_oracle_selection_case", [pytest.param(
                None, marks=pytest.mark.skip(reason=why))])
        else:
            metafunc.parametrize("lowering_oracle_selection_case", cases,
                                 ids=[c.id for c in cases])


def pytest_report_header(config):
    suite = config.getoption("--lowering-oracle-suite")
    if suite:
        return f"lowering-oracle suite: {suite}"
    return None


@pytest.fixture(name="lowering_oracle")
def _lowering_oracle():
    """The lowering_oracle module."""
    return lowering_oracle
