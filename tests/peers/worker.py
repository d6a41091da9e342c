#!/usr/bin/env python3
"""A `diff --worker` implementation (docs/conformance.md, "The worker protocol"): started once,
it reads one JSON request a line on standard input and answers one JSON line on standard output.

usage: worker.py [--identity | --mutant NAME]

  --identity                     coalesce under equality identity (a wrong peer)
  --mutant raw-solidus           read the request keeping the escape "\\/" undecoded (two
                                 characters, not "/"); every other escape is decoded
  --mutant drops-external-ops    write the audit, when asked, with an empty trustedExternalOps
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402  (the lowering itself: lower() and write())

# The editions a request may name (docs/conformance.md, "The worker protocol"); the lowering reads
# them alike: a claim with or without `spec`, any evidence tag, a kind's parameters as written. In
# the lean-dojo lineage (docs/spec.md §1.6) it writes its groups, capsules and audit.
EDITIONS = ("2026-07", "2026-08", "2026-08b", "2026-09", "2026-09b", "2026-10")
LINEAGE = ("2026-09", "2026-09b", "2026-10")
MUTANTS = ("raw-solidus", "drops-external-ops")
# An escape `\/` (a backslash after an even number of backslashes, then `/`).
SOLIDUS = re.compile(r"(?<!\\)((?:\\\\)*)\\/")

wrong = "--identity" in sys.argv
mutant = sys.argv[sys.argv.index("--mutant") + 1] if "--mutant" in sys.argv else None
if mutant is not None and mutant not in MUTANTS:
    sys.exit(__doc__)
if mutant == "drops-external-ops":
    audit_of = conforming.audit_of
    conforming.audit_of = lambda groups, lineage=False: dict(audit_of(groups, lineage),
                                                             trustedExternalOps=[])


for line in sys.stdin:
    # {"id", "edition", "case", "label", "mode", "equality", "audit", "plan", "out", "planText",
    #  "inline"}
    if mutant == "raw-solidus":  # the escape made an escaped backslash and a `/`: kept as written
        line = SOLIDUS.sub(lambda m: m.group(1) + "\\\\/", line)
    request = json.loads(line)
    try:
        if request["edition"] not in EDITIONS:
            raise ValueError("unknown edition %r" % request["edition"])
        # `planText` is the plan file's text, byte for byte; `inline` the same text on one line.
        with open(request["plan"], encoding="utf-8", newline="") as f:
            if mutant is None and f.read() != request["planText"]:
                raise ValueError("planText is not the text of the plan file")
        identity = wrong or request["equality"] == "identity"
        same = conforming.same_identity if identity else conforming.same_contract
        lineage = request["edition"] in LINEAGE
        groups = conforming.lower(request["inline"], request["mode"], same, lineage)
        conforming.write(groups, request["mode"], request["equality"], request["out"],
                         request.get("audit", False), lineage)
        answer = {"id": request["id"], "status": "done"}
    except Exception as e:  # a plan it cannot lower: say so, and stay up for the next one
        answer = {"id": request["id"], "status": "error", "message": repr(e)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
