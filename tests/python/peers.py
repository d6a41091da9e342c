"""The Python peers of tests/peers (conforming.py and each mutant of mutants.py) as callables
`impl(plan_text, mode, equality, audit=False) -> lowering text` (with its audit when asked), run in this process: the files they read and
write are in a temporary directory. A peer that exits (a mutant that refuses a spelling) gives
the text of its exit message, which is not a lowering."""
import io
import os
import sys
import tempfile

PEERS = os.environ.get("LO_PEERS_DIR") or os.path.join(os.path.dirname(__file__), "..", "peers")
sys.path.insert(0, os.path.abspath(PEERS))
import conforming  # noqa: E402
import mutants  # noqa: E402

MUTANTS = [m for m in mutants.MUTANTS]


def _run(main, argv_tail, plan_text, mode, equality, audit):
    with tempfile.TemporaryDirectory(prefix="lo-py-peer-") as d:
        plan, out = os.path.join(d, "plan.json"), os.path.join(d, "out.json")
        with open(plan, "w", encoding="utf-8") as f:
            f.write(plan_text)
        try:
            main(argv_tail(plan, out) + [mode, equality, "true" if audit else "false"])
        except SystemExit as e:
            return f"the peer exited: {e.code}"
        with open(out, encoding="utf-8") as f:
            return f.read()


def conforming_impl(plan_text, mode, equality, audit=False):
    return _run(conforming.main, lambda p, o: ["conforming.py", p, o], plan_text, mode, equality,
                audit)


def mutant_impl(name):
    def impl(plan_text, mode, equality, audit=False):
        return _run(mutants.main, lambda p, o: ["mutants.py", "--mutant", name, p, o],
                    plan_text, mode, equality, audit)
    impl.__name__ = f"mutant_{name}"
    return impl
