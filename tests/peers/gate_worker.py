#!/usr/bin/env python3
"""A `diff --gate-worker` gate (docs/conformance.md, "The gate worker protocol"): started once, it
reads one JSON request a line on standard input, gates the request's plan with gate.py under the
request's policy, mode and equality, and answers one JSON line with the gate result inline.

usage: gate_worker.py [--mutant NAME]   (NAME: a mutant of gate_mutants.py, a wrong gate)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402  (the gate of docs/spec.md §6)
import gate_mutants  # noqa: E402

if "--mutant" in sys.argv:
    gate.gate_failures = gate_mutants.MUTANTS[sys.argv[sys.argv.index("--mutant") + 1]]

for line in sys.stdin:
    # {"id", "edition", "case", "label", "mode", "equality", "policy": {"name", six booleans},
    #  "plan", "out", "planText", "inline"}
    request = json.loads(line)
    try:
        policy = {b: request["policy"][b] for b in gate.BOOLEANS}
        result = gate.gate_result(request["inline"], policy, request["mode"], request["equality"])
        answer = {"id": request["id"], "status": "done", "output": result}
    except Exception as e:  # a plan it cannot gate: say so, and stay up for the next one
        answer = {"id": request["id"], "status": "error", "message": repr(e)}
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    sys.stdout.flush()
