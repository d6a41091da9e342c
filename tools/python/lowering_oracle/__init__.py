"""lowering_oracle: the conformance oracle of backend lowering plans, in process (docs/python.md).

The functions run the same C++ libraries as the ``lowering-oracle`` command line (docs/spec.md:
§1 the lowering, §3 the checks, §6 the gate), with the GIL released while they work:

    lower(plan, mode="coalesced", equality="contract", edition=None, audit=False) -> dict
    lower_json(...)                          -> str, the bytes `lowering-oracle lower` writes
    audit(document, equality="contract", edition=None)                      -> dict
    gate(document, policy="checked", mode=..., equality=..., edition=None)  -> dict
    check(plan, candidate, mode="coalesced", equality="contract", edition=None,
          max_per_check=20, audit=False)                                    -> Report
    assert_conforms(plan, candidate, ...)    -> Report, or AssertionError with the text report
    vocabulary()                             -> dict: every vocabulary with its editions

A document is JSON text (``str`` or ``bytes``, read exactly as a file is) or a ``dict`` (written
with Python's exact integers; a float is never a natural). The mode, equality and edition judged
are always the caller's (default coalesced, contract and the newest edition), never the file's.
An unreadable document raises ``InvalidInput`` (lowering_oracle.errors) with its position and
JSON pointer.
"""
import json
from typing import NamedTuple, Optional

from .errors import InvalidInput
from . import _native

__all__ = ["InvalidInput", "Finding", "Report", "lower", "lower_json", "audit", "gate", "check",
           "assert_conforms", "vocabulary"]

# The six booleans of a policy (docs/spec.md §6), in order, as ref/gate.hpp declares them.
POLICY_FIELDS = tuple(_native.vocabulary()["PolicyFlags"])


def _text(document, what):
    """The bytes the readers take: str and bytes as given, a dict as exact JSON."""
    if isinstance(document, (str, bytes)):
        return document
    if isinstance(document, dict):
        return json.dumps(document, ensure_ascii=False, allow_nan=False)
    raise TypeError(f"{what} must be JSON text (str or bytes) or a dict, not "
                    f"{type(document).__name__}")


def lower_json(plan, mode="coalesced", equality="contract", edition=None, audit=False,
               name="<plan>"):
    """The GraphLoweringPlan of ``plan`` as JSON text, byte for byte what ``lowering-oracle lower
    [--audit]`` writes (docs/spec.md §1, §2.5)."""
    return _native.lower(_text(plan, "plan"), name, mode, equality, edition, audit)


def lower(plan, mode="coalesced", equality="contract", edition=None, audit=False,
          name="<plan>"):
    """The GraphLoweringPlan of ``plan`` (docs/spec.md §1) as a dict."""
    return json.loads(lower_json(plan, mode, equality, edition, audit, name))


def audit(document, equality="contract", edition=None, name="<document>"):
    """The ExecutionAudit (docs/spec.md §2.6) of a GraphLoweringPlan's groups, or of the coalesced
    lowering of a GraphExecutionPlan under ``equality``, as ``lowering-oracle audit`` writes it."""
    return json.loads(_native.audit(_text(document, "document"), name, equality, edition))


def _policy(policy):
    if isinstance(policy, str):
        return policy, {}
    if isinstance(policy, dict):
        fields = dict(policy)
        preset = fields.pop("preset", "checked")
        for k, v in fields.items():
            if k not in POLICY_FIELDS:
                raise ValueError(f"policy field {k} is not one of {', '.join(POLICY_FIELDS)}")
            if not isinstance(v, bool):
                raise TypeError(f"policy field {k} must be a bool")
        return preset, fields
    raise TypeError("policy must be a preset name or a dict of the six booleans")


def gate(document, policy="checked", mode="coalesced", equality="contract", edition=None,
         name="<document>"):
    """The gate result (docs/spec.md §6.5) of ``document`` under ``policy``: a preset
    (``"verified"``, ``"checked"``, ``"external"``) or a dict of some of the six booleans over
    ``"preset"`` (default checked), e.g. ``{"preset": "verified", "allowFuzzed": True}``; as
    ``lowering-oracle gate --format json`` writes it (``result["verdict"]`` is ``"accepted"`` or
    ``"rejected"``)."""
    preset, overrides = _policy(policy)
    _, text = _native.gate(_text(document, "document"), name, preset, overrides, mode, equality,
                           edition)
    return json.loads(text)


class Finding(NamedTuple):
    """One violation (docs/spec.md §3): the check, the candidate's group index and node id when
    they apply, the JSON pointer into the candidate, the sentence, and for a single wrong field
    its name, what the spec gives and what the candidate has ("" when not about one field)."""
    check: str
    group: Optional[int]
    node: Optional[int]
    pointer: str
    sentence: str
    field: str = ""
    expected: str = ""
    actual: str = ""


class Report:
    """The result of check(): ``conforms``, ``findings``, ``omitted`` (check, count past
    max_per_check), ``notes``, and the report in each format of ``check --format``."""

    def __init__(self, run):
        self._run = run
        self.conforms = run.conforms
        self.findings = [Finding(*f) for f in run.findings()]
        self.omitted = list(run.omitted())
        self.notes = list(run.notes())

    def to_text(self):
        return self._run.report("text")

    def to_json(self):
        return self._run.report("json")

    def to_dict(self):
        return json.loads(self.to_json())

    def to_junit(self):
        return self._run.report("junit")

    def to_sarif(self):
        return self._run.report("sarif")

    def to_html(self):
        return self._run.report("html")

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        return (f"<lowering_oracle.Report conforms={self.conforms} "
                f"findings={len(self.findings)}>")


def check(plan, candidate, mode="coalesced", equality="contract", edition=None, max_per_check=20,
          audit=False, plan_name="<plan>", candidate_name="<candidate>"):
    """Whether ``candidate`` (a GraphLoweringPlan) is exactly the lowering the spec gives for
    ``plan`` under ``mode`` and ``equality`` (docs/spec.md §3), as ``lowering-oracle check``;
    with ``audit``, the audit was asked for and a candidate without one violates ``audit``
    (``check --audit``)."""
    return Report(_native.check(_text(plan, "plan"), _text(candidate, "candidate"), plan_name,
                                candidate_name, mode, equality, edition, max_per_check, audit))


def assert_conforms(plan, candidate, **options):
    """check(), raising AssertionError whose message is the text report when it does not
    conform; returns the Report otherwise."""
    report = check(plan, candidate, **options)
    if not report.conforms:
        raise AssertionError(report.to_text())
    return report


_VOCABULARY = None


def vocabulary():
    """Every vocabulary of docs/spec.md §1.5 and §1.7 with the editions that have each value, as
    ref/edition.hpp declares them: {"editions", "newest", "claimsHaveSpec", "BackendOp", ...,
    "kinds": {tag: {"editions", "params": [(name, type)], "op"}}, "PolicyPresets",
    "PolicyFlags"}."""
    global _VOCABULARY
    if _VOCABULARY is None:
        _VOCABULARY = _native.vocabulary()
    return _VOCABULARY
