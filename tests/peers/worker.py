#!/usr/bin/env python3
"""A `diff --worker` implementation (docs/conformance.md, "The worker protocol"): started once,
it reads one JSON request a line on standard input and answers one JSON line on standard output.

usage: worker.py [--identity]     (--identity: coalesce under equality identity, a wrong peer)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402  (the lowering itself: lower() and write())

# The editions a request may name (docs/conformance.md, "The worker protocol"); the lowering reads
# both alike: a claim with or without `spec`, any evidence tag, a kind's parameters as written.
EDITIONS = ("2026-07", "2026-08")

wrong = "--identity" in sys.argv
for line in sys.stdin:
    # {"id", "edition", "case", "label", "mode", "equality", "plan", "out", "inline"}
    request = json.loads(line)
    try:
        if request["edition"] not in EDITIONS:
            raise ValueError("unknown edition %r" % request["edition"])
        identity = wrong or request["equality"] == "identity"
        same = conforming.same_identity if identity else conforming.same_contract
        groups = conforming.lower(request["inline"], request["mode"], same)
        conforming.write(groups, request["mode"], request["equality"], request["out"])
        answer = {"id": request["id"], "status": "done"}
    except Exception as e:  # a plan it cannot lower: say so, and stay up for the next one
        answer = {"id": request["id"], "status": "error", "message": repr(e)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
