"""lowering_oracle: the conformance oracle of backend lowering plans, in process (docs/python.md).

The functions run the same C++ libraries as the ``lowering-oracle`` command line (docs/spec.md:
§1 the lowering, §3 the checks, §6 the gate), with the GIL released while they work:

    plan(graph, profile=None, registry=None, edition=None)              -> str, the GraphExecutionPlan
    check_plan(graph, candidate, profile=None, registry=None, edition=None, failed=None)
                                             -> [dict]: the departures of another selection
    lower(plan, mode="coalesced", equality="contract", edition=None, audit=False) -> dict
    lower_json(...)                          -> str, the bytes `lowering-oracle lower` writes
    audit(document, equality="contract", edition=None)                      -> dict
    gate(document, policy="checked", mode=..., equality=..., edition=None)  -> dict
    check(plan, candidate, mode="coalesced", equality="contract", edition=None,
          max_per_check=DEFAULT_MAX_PER_CHECK, audit=False)                 -> Report
    assert_conforms(plan, candidate, ...)    -> Report, or AssertionError with the text report
    gate_findings(plan, result, policy="checked", mode=..., equality=..., edition=None,
                  exit_code=None)            -> [Finding]: a gate result judged as `verify --gates`
    assert_gate_conforms(plan, result, ...)  -> None, or AssertionError naming the difference
    vocabulary()                             -> dict: every vocabulary with its editions

A document is JSON text (``str`` or ``bytes``, read exactly as a file is) or a ``dict`` (written
with Python's exact integers; a float is never a natural). The mode, equality and edition judged
are always the caller's (default coalesced, contract and the newest edition), never the file's.
An unreadable document raises ``InvalidInput`` (lowering_oracle.errors) with its position and
JSON pointer.
"""
import json
from typing import NamedTuple, Optional

from .errors import InvalidInput, PlanningError
from . import _native

__all__ = ["InvalidInput", "PlanningError", "Finding", "Report", "plan", "check_plan", "lower",
           "lower_json", "audit", "gate", "check",
           "assert_conforms", "gate_findings", "assert_gate_conforms", "vocabulary"]

# check's default of findings per check, as the command line's (ref/io/limits.hpp).
DEFAULT_MAX_PER_CHECK = _native.DEFAULT_MAX_PER_CHECK

# gate()'s preset when none is named, as the command line's (ref/gate.hpp).
DEFAULT_POLICY = _native.DEFAULT_POLICY

# The six booleans of a policy (docs/spec.md §6.2), in order, as ref/gate.hpp declares them.
POLICY_FIELDS = tuple(_native.vocabulary()["PolicyFlags"])


def _text(document, what):
    """The bytes the readers take: str as its UTF-8 (a lone surrogate kept as the bytes the reader
    refuses, InvalidInput: docs/python.md), bytes as given, a dict as exact JSON."""
    if isinstance(document, str):
        return document.encode("utf-8", "surrogatepass")
    if isinstance(document, bytes):
        return document
    if isinstance(document, dict):
        return json.dumps(document, ensure_ascii=False, allow_nan=False).encode(
            "utf-8", "surrogatepass")
    raise TypeError(f"{what} must be JSON text (str or bytes) or a dict, not "
                    f"{type(document).__name__}")


def _name(name):
    """A document's name in messages: its UTF-8 (a lone surrogate kept, shown escaped)."""
    if not isinstance(name, str):
        raise TypeError(f"a document's name must be a str, not {type(name).__name__}")
    return name.encode("utf-8", "surrogatepass")


def _choice(value, what):
    """A mode, equality, edition or preset: a str (one of the spec's spellings is checked by the
    oracle, ValueError naming the choices)."""
    if value is None and what == "edition":
        return None
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    return value.encode("utf-8", "surrogatepass")


def plan(graph, profile=None, registry=None, edition=None, name="<graph>"):
    """The GraphExecutionPlan of a ``torchlean.ir.v1`` graph (docs/spec.md §10) as JSON text,
    byte for byte what ``lowering-oracle plan`` writes: under a maintained profile by name
    (default ``checked_cpu``) or a profile document (a dict or JSON text, as ``--profile-file``),
    its modules replaced by a registry document's (``--registry``). A graph the profile cannot
    plan raises PlanningError with upstream's message (docs/spec.md §10.7)."""
    named, document = None, None
    if isinstance(profile, str):
        named = _choice(profile, "profile")
    elif profile is not None:
        document = _text(profile, "profile")
    ok, text = _native.plan(_text(graph, "graph"), _name(name), named, document,
                            None if registry is None else _text(registry, "registry"),
                            _choice(edition, "edition"))
    if not ok:
        raise PlanningError(text)
    return text


def check_plan(graph, candidate=None, profile=None, registry=None, edition=None, failed=None,
               graph_name="<graph>", candidate_name="<candidate>"):
    """Another implementation's selection judged as ``lowering-oracle check-plan`` judges it
    (docs/spec.md §10.8): its GraphExecutionPlan ``candidate`` for ``graph``, or, with
    ``failed`` (its message) instead of a candidate, its failure to plan; ``profile`` and
    ``registry`` as for plan(). The departures, each a dict of ``check``, ``document``
    (``"candidate"``, or ``"graph"`` for a missing node), ``pointer`` and ``sentence``; empty
    when the candidate conforms."""
    if (candidate is None) == (failed is None):
        raise TypeError("check_plan takes a candidate or failed, not both")
    named, document = None, None
    if isinstance(profile, str):
        named = _choice(profile, "profile")
    elif profile is not None:
        document = _text(profile, "profile")
    found = _native.check_plan(
        _text(graph, "graph"), _name(graph_name),
        None if candidate is None else _text(candidate, "candidate"), _name(candidate_name),
        None if failed is None else _choice(failed, "failed"), named, document,
        None if registry is None else _text(registry, "registry"), _choice(edition, "edition"))
    return [dict(zip(("check", "document", "pointer", "sentence"), f)) for f in found]


def lower_json(plan, mode="coalesced", equality="contract", edition=None, audit=False,
               name="<plan>"):
    """The GraphLoweringPlan of ``plan`` as JSON text, byte for byte what ``lowering-oracle lower
    [--audit]`` writes (docs/spec.md §1.2, §2.5)."""
    return _native.lower(_text(plan, "plan"), _name(name), _choice(mode, "mode"),
                         _choice(equality, "equality"), _choice(edition, "edition"), bool(audit))


def lower(plan, mode="coalesced", equality="contract", edition=None, audit=False,
          name="<plan>"):
    """The GraphLoweringPlan of ``plan`` (docs/spec.md §1.2) as a dict."""
    return json.loads(lower_json(plan, mode, equality, edition, audit, name))


def audit(document, equality="contract", edition=None, name="<document>"):
    """The ExecutionAudit (docs/spec.md §2.6) of a GraphLoweringPlan's groups, or of the coalesced
    lowering of a GraphExecutionPlan under ``equality``, as ``lowering-oracle audit`` writes it."""
    return json.loads(_native.audit(_text(document, "document"), _name(name),
                                    _choice(equality, "equality"), _choice(edition, "edition")))


def _policy(policy):
    if isinstance(policy, str):
        return _choice(policy, "policy"), {}
    if isinstance(policy, dict):
        fields = dict(policy)
        preset = fields.pop("preset", DEFAULT_POLICY)
        for k, v in fields.items():
            if k not in POLICY_FIELDS:
                raise ValueError(f"policy field {k} is not one of {', '.join(POLICY_FIELDS)}")
            if not isinstance(v, bool):
                raise TypeError(f"policy field {k} must be a bool")
        return _choice(preset, "policy"), fields
    raise TypeError("policy must be a preset name or a dict of the six booleans")


def _kernel_policy(policy):
    """A profile name, or a dict of ``profile`` and some of ``device``, ``provider``,
    ``vjpMode`` (spellings) and ``allowTrustedExternal`` (a bool) (docs/spec.md §6.10)."""
    if policy is None or isinstance(policy, str):
        return policy, {}, None
    if isinstance(policy, dict):
        fields = dict(policy)
        profile = fields.pop("profile", None)
        allow = fields.pop("allowTrustedExternal", None)
        if allow is not None and not isinstance(allow, bool):
            raise TypeError("policy field allowTrustedExternal must be a bool")
        for k, v in fields.items():
            if not isinstance(v, str):
                raise TypeError(f"policy field {k} must be a string")
        return profile, fields, allow
    raise TypeError("policy must be a profile name or a dict of its fields")


def gate(document, policy=None, mode="coalesced", equality="contract", edition=None,
         name="<document>"):
    """The gate result (docs/spec.md §6.5) of ``document`` under ``policy``: a preset
    (``"verified"``, ``"checked"``, ``"external"``; default checked) or a dict of some of the six
    booleans over ``"preset"`` (default checked), e.g. ``{"preset": "verified", "allowFuzzed":
    True}``; as ``lowering-oracle gate --format json`` writes it (``result["verdict"]`` is
    ``"accepted"`` or ``"rejected"``). In an edition with upstream's acceptance gate
    (docs/spec.md §6.10) ``policy`` is a profile name (default ``checked_cpu``) or a dict of
    ``profile`` and some of ``device``, ``provider``, ``vjpMode`` and ``allowTrustedExternal``,
    ``mode`` and ``equality`` must keep their defaults, and the result is the
    ``nn-backend/acceptance-result`` document ``gate --format json`` writes there."""
    if _native.gate_kind(_choice(edition, "edition")) == "acceptance":
        if mode != "coalesced" or equality != "contract":
            raise ValueError("the acceptance gate derives its groups itself: mode and equality "
                             "do not apply (docs/spec.md §6.10)")
        profile, fields, allow = _kernel_policy(policy)
        _, text = _native.acceptance_gate(_text(document, "document"), _name(name), profile,
                                          fields, allow, _choice(edition, "edition"))
        return json.loads(text)
    preset, overrides = _policy(DEFAULT_POLICY if policy is None else policy)
    _, text = _native.gate(_text(document, "document"), _name(name), preset, overrides,
                           _choice(mode, "mode"), _choice(equality, "equality"),
                           _choice(edition, "edition"))
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


def check(plan, candidate, mode="coalesced", equality="contract", edition=None,
          max_per_check=_native.DEFAULT_MAX_PER_CHECK, audit=False, plan_name="<plan>", candidate_name="<candidate>"):
    """Whether ``candidate`` (a GraphLoweringPlan) is exactly the lowering the spec gives for
    ``plan`` under ``mode`` and ``equality`` (docs/spec.md §3), as ``lowering-oracle check``;
    with ``audit``, the audit was asked for and a candidate without one violates ``audit``
    (``check --audit``)."""
    if isinstance(max_per_check, bool) or not isinstance(max_per_check, int):
        raise TypeError(f"max_per_check must be an int, not {type(max_per_check).__name__}")
    if not 0 <= max_per_check < 2**64:
        raise ValueError(f"max_per_check {max_per_check} is not a whole number below 2^64")
    return Report(_native.check(_text(plan, "plan"), _text(candidate, "candidate"),
                                _name(plan_name), _name(candidate_name), _choice(mode, "mode"),
                                _choice(equality, "equality"), _choice(edition, "edition"),
                                max_per_check, bool(audit)))


def assert_conforms(plan, candidate, **options):
    """check(), raising AssertionError whose message is the text report when it does not
    conform, or the reader's error line when the candidate cannot be read (the candidate is the
    implementation's: an unreadable one does not conform); returns the Report otherwise. An
    unreadable plan is InvalidInput."""
    try:
        report = check(plan, candidate, **options)
    except InvalidInput as e:
        if e.document != "candidate":
            raise
        raise AssertionError(str(e)) from e
    if not report.conforms:
        raise AssertionError(report.to_text())
    return report


def gate_findings(plan, result, policy=None, mode="coalesced", equality="contract",
                  edition=None, exit_code=None, plan_name="<plan>", result_name="<result>"):
    """A gate implementation's result (JSON text or dict, docs/spec.md §6.5) for ``plan`` (a
    GraphExecutionPlan) under ``policy`` (default checked), judged exactly as ``lowering-oracle
    verify --gates`` judges a gate entry: against the reference gate of the plan's lowering under
    ``mode`` and ``equality`` (docs/spec.md §6.7). In an edition with upstream's acceptance gate
    (docs/spec.md §6.10) the result is an acceptance result, ``policy`` a maintained profile's
    name (default ``checked_cpu``), and ``mode`` and ``equality`` keep their defaults.
    ``exit_code``: the gate's exit status, when it has one (0 accepts, 1 rejects, docs/spec.md
    §6.6); one that contradicts the result is a finding. Returns the findings (empty: it
    conforms); an unreadable result raises InvalidInput with ``document`` "candidate", an
    unreadable plan InvalidInput."""
    if _native.gate_kind(_choice(edition, "edition")) == "acceptance":
        if mode != "coalesced" or equality != "contract":
            raise ValueError("the acceptance gate derives its groups itself: mode and equality "
                             "do not apply (docs/spec.md §6.10)")
        if policy is not None and not isinstance(policy, str):
            raise TypeError("policy must be a maintained profile's name")
        preset, overrides = policy or "", {}  # "": the default profile
    else:
        preset, overrides = _policy(DEFAULT_POLICY if policy is None else policy)
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)):
        raise TypeError("exit_code must be an int or None")
    code = -1 if exit_code is None or not 0 <= exit_code <= 255 else exit_code
    findings, error = _native.gate_conforms(
        _text(plan, "plan"), _text(result, "result"), _name(plan_name), _name(result_name), preset,
        overrides, _choice(mode, "mode"), _choice(equality, "equality"),
        _choice(edition, "edition"), code)
    if error is not None:
        raise InvalidInput(error, document="candidate")
    return [Finding(*f) for f in findings]


def assert_gate_conforms(plan, result, policy=None, **options):
    """gate_findings(), raising AssertionError that names each difference (or the reader's error
    line for an unreadable result) when the result is not the reference's."""
    try:
        findings = gate_findings(plan, result, policy, **options)
    except InvalidInput as e:
        if e.document != "candidate":
            raise
        raise AssertionError(str(e)) from e
    if findings:
        raise AssertionError("\n".join(f"{options.get('result_name', '<result>')}: "
                                        f"{f.pointer}: {f.check}: {f.sentence}"
                                        for f in findings))


_VOCABULARY = None


def vocabulary():
    """Every vocabulary of docs/spec.md §1.5 and §1.7 with the editions that have each value, as
    ref/edition.hpp declares them: {"editions", "newest", "seedEditions", "claimsHaveSpec",
    "BackendOp", ...,
    "kinds": {tag: {"editions", "params": [(name, type)], "op"}}, "PolicyPresets",
    "PolicyFlags", "AcceptanceProfiles": {edition: [profile names]}}."""
    global _VOCABULARY
    if _VOCABULARY is None:
        _VOCABULARY = _native.vocabulary()
    return _VOCABULARY
