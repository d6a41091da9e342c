"""Writing a plan as JSON text in the spellings docs/spec.md §2 allows (docs/python.md,
"Strategies"): what lowering_oracle.strategies draws, kept apart so that a failing example can be
re-spelled plainly.

A plan is given as data: ``capsules`` (a list of full capsule records, every field with its
default written, in the writer's field order) and ``kernels`` (nodeId, kind, op, and the index of
its capsule). ``spell(plan, Spelling(...))`` writes it; ``Spelling()`` is the plain spelling that
``lowering-oracle lower`` itself would use for the capsule table: one key per capsule, every
default written, the writer's field order, no escapes, bare kinds, ``format`` and ``version``.
"""
from typing import NamedTuple, Tuple

from . import _native

# The fields a reader fills in when they are left out (docs/spec.md §2.2), from the records'
# tables (vocabulary()["records"]): never a list of their own.
_RECORDS = _native.vocabulary()["records"]
# The edition whose fields and defaults a plan is spelled with when none is given: the newest of
# the seed's capsule (the strategies' default draws one of its plans).
_SEED = _native.vocabulary()["seedEditions"][-1]


def _defaulted(record, edition=_SEED):
    return {f["name"]: f["default"] for f in _RECORDS[record]
            if edition in f["editions"] and edition not in f["required"]
            and f["record"] is None and f["default"] is not None}


TOP_DEFAULTS = _defaulted("a capsule")
POLICY_DEFAULTS = _defaulted("a numerical policy")
CONTRACTS = tuple(f["name"] for f in _RECORDS["a capsule"]
                  if f["record"] == "a contract descriptor")
# A descriptor's fields whose default is an empty array (its provenance).
EMPTY_IN_DESCRIPTOR = tuple(f["name"] for f in _RECORDS["a contract descriptor"]
                            if f["default"] == [])


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


def omitted(capsule, which, edition=None):
    """The capsule record with the defaults `which` names left out, as `edition` (default the
    newest of the seed's capsule) defaults its fields (a required field is never left out)."""
    edition = edition or _SEED
    c = dict(capsule)
    if which in ("top", "all"):
        for k, v in _defaulted("a capsule", edition).items():
            if c.get(k) == v:
                del c[k]
    if which in ("nested", "all"):
        defaults = _defaulted("a numerical policy", edition)
        policy = {k: v for k, v in c["numericalPolicy"].items()
                  if k not in defaults or v != defaults[k]}
        required = any(f["name"] == "numericalPolicy" and edition in f["required"]
                       for f in _RECORDS["a capsule"])
        if policy or required:
            c["numericalPolicy"] = policy
        else:
            del c["numericalPolicy"]
        for f in CONTRACTS:
            d = dict(c[f])
            for k in EMPTY_IN_DESCRIPTOR:
                if d.get(k) == []:
                    del d[k]
            c[f] = d
    return c


def _string(s, escapes):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        elif ch == "/" and escapes in ("solidus", "unicode"):
            out.append("\\/")
        elif escapes == "unicode" and (o > 0x7E or ch.isalpha()):
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dumps(value, spelling, indent=0):
    """`value` as JSON text under `spelling` (objects are dicts in their written order)."""
    sep = ("\n" + "  " * (indent + 1)) if spelling.pretty else ""
    end = ("\n" + "  " * indent) if spelling.pretty else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value, spelling.escapes)
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[" + ",".join(sep + dumps(v, spelling, indent + 1) for v in value) + end + "]"
    if isinstance(value, dict):
        items = list(value.items())
        if spelling.reverse_fields:
            items.reverse()
        if not items:
            return "{}"
        colon = ": " if spelling.pretty else ":"
        return "{" + ",".join(sep + _string(k, spelling.escapes) + colon +
                              dumps(v, spelling, indent + 1) for k, v in items) + end + "}"
    raise TypeError(f"cannot write {type(value).__name__}")


def kind_value(tag, params, spelling):
    """A kind as written: a bare string without parameters (or {"tag"} with kind_objects)."""
    if not params:
        return {"tag": tag} if spelling.kind_objects else tag
    items = list(params.items())
    if spelling.reverse_params:
        items.reverse()
    return {"tag": tag, **dict(items)}


def spell(plan, spelling=Spelling(), edition=None):
    """The plan as JSON text (a GraphExecutionPlan, docs/spec.md §2.4), its defaults left out as
    `edition` defaults them (default the newest edition of the seed's capsule)."""
    capsules = plan["capsules"]
    keys, table = [], {}
    for c in capsules:
        k = key_of(c, table)
        keys.append(k)
        table[k] = c
    aliases = {}
    kernels = []
    for i, k in enumerate(plan["kernels"]):
        ref = spelling.refs[i] if i < len(spelling.refs) else "key"
        c = k["capsule"]
        if ref == "inline":
            which = spelling.omit[i] if i < len(spelling.omit) else "none"
            named = omitted(capsules[c], which, edition)
        elif ref == "alias":
            if c not in aliases:
                alias = key_of({"name": keys[c] + " (alias)"}, table)
                aliases[c] = alias
                table[alias] = omitted(capsules[c], spelling.alias_omit, edition)
            named = aliases[c]
        else:
            named = keys[c]
        kernels.append({"nodeId": k["nodeId"],
                        "kind": kind_value(k["kind"], k.get("params", {}), spelling),
                        "op": k["op"], "capsule": named})
    used = {keys[k["capsule"]] for i, k in enumerate(plan["kernels"])
            if (spelling.refs[i] if i < len(spelling.refs) else "key") == "key"}
    table = {k: v for k, v in table.items() if k in used or k in aliases.values()}
    doc = {}
    if not spelling.no_header:
        doc["format"] = "nn-backend/graph-execution-plan"
        doc["version"] = 1
    if "edition" in plan:
        doc["edition"] = plan["edition"]
    if spelling.table_last:
        doc["kernels"] = kernels
        if table:
            doc["capsules"] = table
    else:
        if table:
            doc["capsules"] = table
        doc["kernels"] = kernels
    return dumps(doc, spelling)
