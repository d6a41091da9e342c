"""Hypothesis strategies for lowering plans and policies (docs/python.md, "Strategies").

    plans(min_nodes=0, max_nodes=6, edition=None, exotic=True)     -> JSON text of a plan
    plan_data(...) / spellings(n)                                   -> the two halves of plans()
    lowerings()                                                     -> (mode, equality)
    audits()                                                        -> whether the audit is asked
    policies()                                                      -> a gate policy dict
    selection_cases(max_nodes=12, edition=None)                     -> (graph, profile) dicts

Every value comes from the oracle's own vocabularies (lowering_oracle.vocabulary(): ref/ as
data), in the edition asked for: one of DRAWN, every edition (default DEFAULT, 2026-08), with its
capsule (the lean-dojo lineage's has no notes and a numerical policy of its reduction alone) and
its kinds (windows of `spatialRank` values, custom computations). The plans are made to find
mistakes: few
capsules per op, with near collisions (the same identity with another contract, the same name
with another provider), every kind with its parameters, large node ids; and every spelling of
docs/spec.md §2 (lowering_oracle.spelling). Each choice's first value is the plain one, so that
Hypothesis shrinks a failure to a small plan spelled plainly except where the spelling is the
cause.
"""
import json

from hypothesis import strategies as st

from . import POLICY_FIELDS, _native, vocabulary
from .spelling import Spelling, spell

__all__ = ["plans", "plan_data", "spellings", "lowerings", "policies", "selection_cases",
           "VARIANTS", "variant", "DRAWN", "DEFAULT"]

# The editions drawn, oldest first: every edition of the oracle.
DRAWN = tuple(vocabulary()["editions"])
# The edition drawn when none is asked for (the peers of tests/peers implement it).
DEFAULT = "2026-08"


def _values(vocab, name, edition):
    return [v for v, editions in vocab[name].items() if edition in editions]


def _edition(edition):
    vocab = vocabulary()
    edition = edition or DEFAULT
    if edition not in DRAWN:
        raise ValueError(f"edition {edition}: the strategies draw {', '.join(DRAWN)} only")
    return vocab, edition


def _descriptor(claim, summary, evidence):
    return {"claim": claim, "summary": summary, "evidence": evidence, "provenance": []}


def _seed_capsule(vocab, edition):
    return edition in vocab["seedEditions"]


def base_capsule(op, edition):
    """The plain capsule of `op`: the reference provider on the CPU, checked, every default
    written, in the writer's field order (docs/spec.md §2.2); in the lineage without notes, its
    numerical policy the edition's first reduction."""
    vocab, edition = _edition(edition)
    spec = edition in vocab["claimsHaveSpec"]
    value = {"tag": "valueRefinement", "op": op}
    if spec:
        value["spec"] = f"NN.Spec.{op}"
    evidence = _values(vocab, "EvidenceTag", edition)
    if "vjpUnavailable" in _values(vocab, "ClaimTag", edition):
        vjp = _descriptor({"tag": "vjpUnavailable", "op": op}, "No VJP.",
                          {"tag": "notApplicable"} if "notApplicable" in evidence
                          else {"tag": "notProvided"})
    else:
        claim = {"tag": "vjpRefinement", "op": op, "mode": "none"}
        if spec:
            claim = {"tag": "vjpRefinement", "op": op, "spec": f"NN.Spec.{op}.vjp", "mode": "none"}
        vjp = _descriptor(claim, "No VJP.", {"tag": "notProvided"})
    layouts = _values(vocab, "TensorLayout", edition)
    capsule = {
        "name": f"reference.{op}", "op": op, "provider": "reference", "device": "cpu",
        "trustLevel": "checked", "supportsForward": True, "vjpMode": "none",
        "shapeContract": _descriptor({"tag": "shapeSafety", "op": op},
                                     "Shapes checked in NN/Runtime.", {"tag": "runtimeGuard",
                                                                       "name": "shape_ok"}),
        "layoutContract": _descriptor({"tag": "layoutCompatibility", "op": op,
                                       "layout": layouts[0]}, "Canonical tensors.",
                                      {"tag": "runtimeGuard", "name": "layout_ok"}),
        "valueContract": _descriptor(value, f"Refines {op} (café/ü).",
                                     {"tag": "testSuite", "name": "NN/Tests/Runtime"}),
        "vjpContract": vjp,
        "numericalPolicy": {"rounding": "unspecified", "subnormals": "unspecified",
                            "contraction": "unspecified", "reduction": "unspecified"},
        "notes": "",
    }
    if not _seed_capsule(vocab, edition):
        del capsule["notes"]
        capsule["numericalPolicy"] = {"reduction": _values(vocab, "Reduction", edition)[0]}
    return capsule


def variant(capsule, name, edition=None):
    """The capsule variant `name` (one of VARIANTS) of `capsule` (a dict) in `edition`: the
    capsule itself, a near collision made by the oracle's one maker (tools/plans/capsules.hpp,
    through lowering_oracle._native.near_collision), or the capsule under another name."""
    if name == "plain":
        return capsule
    if name == "renamed":
        return dict(capsule, name=capsule["name"] + ".fast")
    _, edition = _edition(edition)
    return json.loads(_native.near_collision(json.dumps(capsule), name, edition))


# The capsule variants of an op, the plain one first: the near collisions (the same identity with
# another contract, then another provider or device under the same name), then another name.
VARIANTS = ("plain",) + tuple(_native.COLLISIONS) + ("renamed",)


def _kinds(vocab, edition):
    """The kinds that are planned (they have an op) in the edition, those without parameters
    first and relu the very first."""
    kinds = [(tag, k) for tag, k in vocab["kinds"].items()
             if k["op"] is not None and edition in k["editions"]]
    return sorted(kinds, key=lambda tk: (tk[0] != "relu", len(tk[1]["params"]), tk[0]))


REFS = ("key", "inline", "alias")
OMITS = ("none", "top", "nested", "all")


# How a kernel names its capsule and which defaults an inline record leaves out, as one choice
# (so that a kernel is few draws, which Hypothesis deletes together): ("key", "none") first.
NAMINGS = tuple((ref, omit) for ref in REFS for omit in (OMITS if ref == "inline" else OMITS[:1]))


@st.composite
def _palette_entry(draw, kinds, large_params, edition):
    """A kind of the plan's palette with its parameters (its kernels share them), drawn by the
    oracle's own generator (tools/plans/kinds.hpp, through lowering_oracle._native.kind) from the
    words Hypothesis draws (none: the simplest parameters), wild ones with `large_params`."""
    tag, kind = draw(st.sampled_from(kinds))
    words = draw(st.lists(st.integers(0, 2**64 - 1), max_size=12))
    written = json.loads(_native.kind(tag, words, edition, large_params))
    params = {} if isinstance(written, str) else {k: v for k, v in written.items() if k != "tag"}
    return tag, kind, params


@st.composite
def _kernel(draw, palette, variants):
    """One kernel's choices, three draws (Hypothesis deletes at most five blocks at once, a
    kernel's with the list's own): its kind (one of the plan's palette), how it names its
    capsule, and its capsule variant (one of the plan's variants)."""
    tag, kind, params = palette[draw(st.integers(0, len(palette) - 1))]
    ref, omit = draw(st.sampled_from(NAMINGS))
    return {"kind": tag, "params": params, "op": kind["op"],
            "variant": variants[draw(st.integers(0, len(variants) - 1))], "ref": ref,
            "omit": omit}


@st.composite
def plan_data(draw, min_nodes=0, max_nodes=6, edition=None):
    """A plan as data (lowering_oracle.spelling's form): `capsules` and `kernels`; each kernel
    also carries the `ref` and `omit` choices that plans() spells it with."""
    if not 0 <= min_nodes <= max_nodes <= 64:
        raise ValueError("0 <= min_nodes <= max_nodes <= 64")
    vocab, edition = _edition(edition)
    kinds = _kinds(vocab, edition)
    large_ids = draw(st.booleans())
    large_params = draw(st.booleans())
    # A palette of one to three kinds (with their parameters) per plan, so that runs of one op
    # (and so the near-collision capsules side by side) are common; relu first.
    palette = draw(st.lists(_palette_entry(kinds, large_params, edition), min_size=1,
                            max_size=3))
    # Likewise the capsule variants a plan uses: often few, so that one variant (a
    # trusted-external capsule, say) recurs across groups; any combination stays reachable.
    variants = draw(st.lists(st.integers(0, len(VARIANTS) - 1), min_size=1,
                             max_size=len(VARIANTS)))
    drawn = draw(st.lists(_kernel(palette, variants), min_size=min_nodes, max_size=max_nodes))
    capsules, pool, kernels = [], {}, []
    for i, k in enumerate(drawn):
        key = (k["op"], k["variant"])
        if key not in pool:
            pool[key] = len(capsules)
            capsules.append(variant(base_capsule(k["op"], edition), VARIANTS[k["variant"]],
                                    edition))
        # Distinct ids: small ones in order, or large ones (just below 2^63) in descending order.
        node_id = (2**63 - 1 - 7919 * i) if large_ids else i + 1
        kernels.append({"nodeId": node_id, "kind": k["kind"], "params": k["params"],
                        "op": k["op"], "capsule": pool[key], "ref": k["ref"],
                        "omit": k["omit"]})
    return {"capsules": capsules, "kernels": kernels}


def _globals(draw):
    return dict(alias_omit=draw(st.sampled_from(OMITS)), reverse_fields=draw(st.booleans()),
                escapes=draw(st.sampled_from(["none", "solidus", "unicode"])),
                kind_objects=draw(st.booleans()), reverse_params=draw(st.booleans()),
                no_header=draw(st.booleans()), table_last=draw(st.booleans()),
                pretty=draw(st.booleans()))


@st.composite
def spellings(draw, n):
    """A Spelling for a plan of `n` kernels (lowering_oracle.spelling)."""
    refs = tuple(draw(st.lists(st.sampled_from(REFS), min_size=n, max_size=n)))
    omit = tuple(draw(st.lists(st.sampled_from(OMITS), min_size=n, max_size=n)))
    return Spelling(refs=refs, omit=omit, **_globals(draw))


@st.composite
def plans(draw, min_nodes=0, max_nodes=6, edition=None, exotic=True):
    """The JSON text of a GraphExecutionPlan (docs/spec.md §2.4) in `edition`: every spelling of
    docs/spec.md §2 with `exotic`, else the plain one."""
    data = draw(plan_data(min_nodes, max_nodes, edition))
    if not exotic:
        return spell(data, Spelling(), edition or DEFAULT)
    spelling = Spelling(refs=tuple(k["ref"] for k in data["kernels"]),
                        omit=tuple(k["omit"] for k in data["kernels"]), **_globals(draw))
    return spell(data, spelling, edition or DEFAULT)


def lowerings():
    """A lowering of docs/spec.md §1.2: (mode, equality), coalesced/contract first."""
    return st.sampled_from([("coalesced", "contract"), ("singleton", "contract"),
                            ("coalesced", "identity"), ("singleton", "identity")])


def audits():
    """Whether the audit is asked for (docs/spec.md §4.3: the lowering must then carry its
    ExecutionAudit), as `gen` asks: one case in lowering_oracle._native.AUDIT_SHARE; False first,
    so a failure shrinks to the plain ask."""
    share = _native.AUDIT_SHARE
    return st.integers(0, share - 1).map(lambda k: k == share - 1)


def policies():
    """A gate policy (docs/spec.md §6.2): a preset, or a preset with any of its six booleans set
    either way (requireEvidence included), as lowering_oracle.gate takes it."""
    # checked first: the default preset of `gate` (docs/spec.md §4.2).
    presets = vocabulary()["PolicyPresets"]
    preset = st.sampled_from(["checked"] + [p for p in presets if p != "checked"])
    custom = st.fixed_dictionaries({"preset": preset},
                                   optional={f: st.booleans() for f in POLICY_FIELDS})
    return st.one_of(preset, custom)


def selection_cases(max_nodes=12, edition=None):
    """A torchlean.ir.v1 graph and a backend profile with its own modules, as dicts: a case
    of `diff --planner` (docs/spec.md §4.3), drawn by the oracle's own generator from a list of
    words Hypothesis draws (an empty list, or zeros, is the simplest case), in `edition` (any of
    the lean-dojo lineage's; default the newest). Plan it with plan(graph, profile=profile,
    edition=...) and judge another planner's answer with check_plan."""
    # At least 128 words: the profile's choices come after the graph's, and a choice past the end
    # of the list is the plain one (a zero), so with fewer words `prefer P` and the decoys beside
    # a preferred capsule would be rare.
    # An edition without selection, or a bad max_nodes, raises ValueError here, not at a draw.
    _native.selection_case([], edition, max_nodes)
    words = st.lists(st.integers(0, 2**64 - 1), min_size=128, max_size=400)
    return words.map(lambda w: tuple(json.loads(t) for t in
                                     _native.selection_case(w, edition, max_nodes)))
