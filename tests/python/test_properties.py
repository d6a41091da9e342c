"""Hypothesis properties over lowering_oracle.strategies (docs/python.md): the conforming peer of
tests/peers passes 1,000 generated cases (200 outside the campaign tier, tests/campaign.py); each
mutant of tests/peers/mutants.py fails, and Hypothesis shrinks the failing plan to at most 2
nodes; in every edition the strategies draw plans the oracle reads, lowers and gates in that
edition; and on the selection cases, the oracle's plan and tests/peers/planner.py's pass
check_plan, and Hypothesis finds each of the planner's mutants (which diff catches and shrinks:
tests/gen/diff_planner_test.cpp)."""
import json
import os
import random
import sys

import pytest
from hypothesis import HealthCheck, Phase, find, given, seed as hypothesis_seed, settings
from hypothesis import strategies as st

import lowering_oracle
from lowering_oracle import strategies

from conftest import SEED
from peers import MUTANTS, conforming_impl, mutant_impl

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from campaign import instance  # noqa: E402



# The strategies' default edition, in which their plans are judged (the peers implement it).
EDITION = strategies.DEFAULT


def conforms(impl, plan, mode, equality, audit=False):
    """Whether the implementation's lowering of `plan` conforms (an unreadable one does not)."""
    try:
        return lowering_oracle.check(plan, impl(plan, mode, equality, audit), mode=mode,
                                     equality=equality, audit=audit, edition=EDITION).conforms
    except lowering_oracle.InvalidInput:
        return False


@hypothesis_seed(SEED)
@settings(max_examples=instance(100, 1000), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=strategies.plans(), lowering=strategies.lowerings(), audit=strategies.audits())
def test_the_conforming_peer_passes(plan, lowering, audit):
    mode, equality = lowering
    lowering_oracle.assert_conforms(plan, conforming_impl(plan, mode, equality, audit), mode=mode,
                                    equality=equality, audit=audit, edition=EDITION)


@pytest.mark.parametrize("name", MUTANTS)
def test_each_mutant_fails_and_shrinks_to_two_nodes(name):
    impl = mutant_impl(name)
    # The others' mistakes show under the default coalesced/contract; an audit that lists each
    # trusted-external op once shows in two groups of one op, as the singleton lowering of two
    # nodes has (coalesced needs a third between them).
    mode = "singleton" if name == "dedup-external-ops" else "coalesced"
    equality = "contract"
    # The audit is asked as gen asks it (strategies.audits()): a mistake in the audit shows.
    found, audit = find(st.tuples(strategies.plans(), strategies.audits()),
                        lambda d: not conforms(impl, d[0], mode, equality, d[1]),
                        settings=settings(max_examples=5000, deadline=None, database=None,
                                          phases=[Phase.generate, Phase.shrink],
                                          suppress_health_check=list(HealthCheck)),
                        random=random.Random(SEED))
    nodes = len(json.loads(found)["kernels"])
    print(f"{name}: shrunk to {nodes} nodes (audit asked: {audit}):\n{found}")
    kernels = json.dumps(json.loads(found)["kernels"])
    assert nodes <= 2, f"{name} shrank to {nodes} nodes: {kernels}"
    assert not conforms(impl, found, mode, equality, audit)


# The editions without a singleton lowering (docs/spec.md §1.6): their gate is upstream's
# acceptance gate.
LINEAGE = [e for e in strategies.DRAWN if e not in lowering_oracle.vocabulary()["seedEditions"]]


@pytest.mark.parametrize("edition", strategies.DRAWN)
def test_every_edition_draws_plans_of_that_edition(edition):
    """Every spelling, capsule variant and kind (windows and custom computations included) of the
    edition's plans is read in it; the reference lowering conforms, and the gate judges it."""
    drawn = {"kernels": 0, "kinds": set()}

    @hypothesis_seed(SEED)
    @settings(max_examples=instance(60, 300), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(plan=strategies.plans(edition=edition), lowering=strategies.lowerings())
    def run(plan, lowering):
        mode, equality = lowering
        if edition in LINEAGE:
            mode = "coalesced"
        lowered = lowering_oracle.lower_json(plan, mode, equality, edition=edition)
        lowering_oracle.assert_conforms(plan, lowered, mode=mode, equality=equality,
                                        edition=edition)
        result = lowering_oracle.gate(plan, edition=edition)
        assert result["verdict"] in ("accepted", "rejected")
        kernels = json.loads(plan)["kernels"]
        drawn["kernels"] += len(kernels)
        drawn["kinds"].update(k["kind"] if isinstance(k["kind"], str) else k["kind"]["tag"]
                              for k in kernels)

    run()
    assert drawn["kernels"] > 0
    if edition == "2026-10":  # its own kinds (those 2026-08 lacks) are drawn too
        kinds = lowering_oracle.vocabulary()["kinds"]
        own = {t for t, k in kinds.items() if edition in k["editions"]
               and EDITION not in k["editions"] and k["op"] is not None}
        assert own & drawn["kinds"], sorted(drawn["kinds"])


# Selection (docs/spec.md §10): the cases of `diff --planner`, drawn by strategies.selection_cases.
SELECTION_EDITION = "2026-10"


def planned(planner, graph, profile):
    """(candidate, failed) of a planner: its plan, or its failure's message."""
    try:
        return planner(graph, profile), None
    except Exception as e:  # noqa: BLE001 - PlanningError, or the peer's own
        return None, str(e) or "failed"


def departures(planner, graph, profile):
    candidate, failed = planned(planner, graph, profile)
    return lowering_oracle.check_plan(graph, candidate=candidate, failed=failed, profile=profile,
                                      edition=SELECTION_EDITION)


def oracle_planner(graph, profile):
    return lowering_oracle.plan(graph, profile=profile, edition=SELECTION_EDITION)


def planner_mutants():
    import planner  # tests/peers/planner.py, on the path peers.py sets
    return planner.MUTANTS


def peer_planner(graph, profile):
    import planner  # tests/peers/planner.py, on the path peers.py sets
    return json.dumps(planner.plan(graph, profile))


@hypothesis_seed(SEED)
@settings(max_examples=instance(100, 1000), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=strategies.selection_cases(edition=SELECTION_EDITION))
def test_the_oracles_and_the_peers_selection_pass_the_selection_checks(case):
    graph, profile = case
    assert departures(oracle_planner, graph, profile) == []
    assert departures(peer_planner, graph, profile) == []


@pytest.mark.parametrize("mutant", planner_mutants())
def test_each_planner_mutant_is_found(mutant):
    """Hypothesis finds each wrong planner of tests/peers/planner.py among the selection cases
    (generation only: the words are read in order, so deleting one shifts every later choice and
    a failure shrinks poorly; `diff --planner` shrinks them: tests/gen/diff_planner_test.cpp)."""
    import planner

    def wrong(graph, profile):
        return json.dumps(planner.plan(graph, profile, mutant))

    def caught(case):
        try:
            return departures(wrong, *case) != []
        except lowering_oracle.InvalidInput:  # a plan the reader refuses (plans-input)
            return True

    graph, profile = find(strategies.selection_cases(edition=SELECTION_EDITION), caught,
                          settings=settings(max_examples=500, deadline=None, database=None,
                                            phases=[Phase.generate],
                                            suppress_health_check=list(HealthCheck)),
                          random=random.Random(SEED))
    capsules = sum(len(m["capsules"]) for m in profile["modules"])
    print(f"{mutant}: found on {len(graph['nodes'])} nodes and {capsules} capsules")
    assert caught((graph, profile))
    assert departures(oracle_planner, graph, profile) == []


def test_selection_cases_refuse_a_seed_edition():
    with pytest.raises(ValueError, match="has no selection"):
        strategies.selection_cases(edition="2026-08")
