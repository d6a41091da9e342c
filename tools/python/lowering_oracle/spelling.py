"""Writing a plan as JSON text in the spellings docs/spec.md §2 allows (docs/python.md,
"Strategies"): what lowering_oracle.strategies draws, kept apart so that a failing example can be
re-spelled plainly.

A plan is given as data: ``capsules`` (a list of full capsule records, every field with its
default written, in the writer's field order) and ``kernels`` (nodeId, kind, op, and the index of
its capsule). ``spell(plan, Spelling(...))`` writes it; ``Spelling()`` is the plain spelling that
``lowering-oracle lower`` itself would use for the capsule table: one key per capsule, every
default written, the writer's field order, no escapes, bare kinds, ``format`` and ``version``.
The choices are this module's; the text is written by the oracle's one plan speller
(tools/plans/spelling.hpp, through lowering_oracle._native.spell_plan), the one that writes the
spellings of ``gen``'s plans.
"""
import json
from typing import NamedTuple, Tuple

from . import _native

# The edition whose fields and defaults a plan is spelled with when none is given: the newest of
# the seed's capsule (the strategies' default draws one of its plans).
_SEED = _native.vocabulary()["seedEditions"][-1]


class Spelling(NamedTuple):
    """How one plan is written. Each field's first value is the plain one (what Hypothesis
    shrinks to)."""
    # Per kernel: how it names its capsule: "key" (the capsule's key), "inline" (the record in
    # the kernel) or "alias" (a second table key for the same record).
    refs: Tuple[str, ...] = ()
    # Per kernel: which defaults an inline record leaves out: "none", "top" (supportsForward,
    # vjpMode, notes), "nested" (numericalPolicy's fields, a descriptor's empty provenance), "all".
    omit: Tuple[str, ...] = ()
    alias_omit: str = "none"       # the same for the alias entries of the table
    reverse_fields: bool = False   # every object's fields in reverse order
    escapes: str = "none"          # "none" | "solidus" (\/) | "unicode" (\u00XX for letters too)
    kind_objects: bool = False     # a kind without parameters as {"tag": ...}
    reverse_params: bool = False   # a kind object's parameters in reverse order
    no_header: bool = False        # "format" and "version" left out
    table_last: bool = False       # the capsule table after the kernels
    pretty: bool = False           # indented, one field per line


def key_of(capsule, taken):
    """The capsule's key as the writer makes it: its name, then NAME#2, NAME#3, ..."""
    name, n, key = capsule["name"], 1, capsule["name"]
    while key in taken:
        n += 1
        key = f"{name}#{n}"
    return key


def spell(plan, spelling=Spelling(), edition=None):
    """The plan as JSON text (a GraphExecutionPlan, docs/spec.md §2.4), its defaults left out as
    `edition` defaults them (default the newest edition of the seed's capsule)."""
    capsules = plan["capsules"]
    keys, taken = [], set()
    for c in capsules:
        keys.append(key_of(c, taken))
        taken.add(keys[-1])
    refs = [spelling.refs[i] if i < len(spelling.refs) else "key"
            for i in range(len(plan["kernels"]))]
    # The table: the keys a kernel names, in the capsules' order, then the aliases as they come.
    entry = {c: None for c in sorted({k["capsule"] for k, r in zip(plan["kernels"], refs)
                                      if r == "key"})}
    table = [(keys[c], c, "none") for c in entry]
    for i, c in enumerate(entry):
        entry[c] = i
    aliases, kernels = {}, []
    for i, (k, ref) in enumerate(zip(plan["kernels"], refs)):
        c = k["capsule"]
        if ref == "inline":
            kernels.append((-1, spelling.omit[i] if i < len(spelling.omit) else "none"))
        elif ref == "alias":
            if c not in aliases:
                alias = key_of({"name": keys[c] + " (alias)"}, taken)
                taken.add(alias)
                aliases[c] = len(table)
                table.append((alias, c, spelling.alias_omit))
            kernels.append((aliases[c], "none"))
        else:
            kernels.append((entry[c], "none"))
    plain = {"capsules": {"c%d" % i: c for i, c in enumerate(capsules)},
             "kernels": [{"nodeId": k["nodeId"],
                          "kind": {"tag": k["kind"], **k["params"]} if k.get("params")
                          else k["kind"],
                          "op": k["op"], "capsule": "c%d" % k["capsule"]}
                         for k in plan["kernels"]]}
    how = {"table": table, "kernels": kernels, "kind_objects": spelling.kind_objects,
           "reverse_fields": spelling.reverse_fields, "reverse_params": spelling.reverse_params,
           "escapes": spelling.escapes, "header": not spelling.no_header,
           "table_first": not spelling.table_last, "pretty": spelling.pretty,
           "edition": plan.get("edition")}
    return _native.spell_plan(json.dumps(plain), [k["capsule"] for k in plan["kernels"]], how,
                              edition or _SEED)
