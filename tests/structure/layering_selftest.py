#!/usr/bin/python3
"""layering_test.py catches each forbidden include: a tree with one bad include per rule fails,
and the same tree without it passes.

    layering_selftest.py LAYERING_TEST WORK_DIR
"""

import sys

from sources import selftest_summary, uncaught, write_tree

BAD = [("ref/a.hpp", "checks/check.hpp"), ("ref/io/b.cpp", "tools/report/report.hpp"),
       ("ref/c.cpp", "proofs/smt.hpp"), ("checks/d.cpp", "tools/command.hpp"),
       ("proofs/e.hpp", "tools/system/files.hpp"), ("tools/system/f.cpp", "tools/report/g.hpp"),
       ("tools/report/h.cpp", "tools/suite/i.hpp"), ("tools/diff/j.cpp", "tools/cli/k.hpp"),
       ("tools/cli/l.cpp", "tools/command.hpp"), ("tools/suite/m.cpp", "proofs/smt.hpp"),
       ("tools/cli/o.hpp", "proofs/obligations.hpp"), ("tools/cli/p.cpp", "tools/prove/q.hpp"),
       ("tools/prove/r.cpp", "tools/command.hpp"), ("tools/plans/s.cpp", "checks/checks.hpp"),
       ("tools/plans/t.hpp", "tools/system/files.hpp"), ("ref/io/u.cpp", "<csignal>"),
       ("ref/v.hpp", "<spawn.h>"), ("ref/io/w.hpp", "<sys/wait.h>")]


def tree(work, bad):
    includes = {"ref/ir.hpp": "ref/vocab.hpp", "checks/x.cpp": "ref/ir.hpp",
                "proofs/y.cpp": "checks/checks.hpp", "tools/cli/a.cpp": "tools/diff/b.hpp",
                "tools/diff/c.cpp": "tools/system/d.hpp",
                "tools/report/e.cpp": "tools/version.hpp", "tools/cmd_x.cpp": "proofs/y.hpp",
                "tools/prove/f.cpp": "proofs/y.hpp", "tools/prove/g.hpp": "tools/cli/a.hpp"}
    if bad:
        includes[bad[0]] = bad[1]
    write_tree(work, {path: '#include <vector>\n#include %s\n'
                      % (include if include.startswith("<") else '"%s"' % include)
                      for path, include in includes.items()})


def main():
    test, work = sys.argv[1], sys.argv[2]
    failures = [uncaught(test, work, tree, None, ""),
                uncaught(test, work, tree, ("tools/misc/n.cpp", "ref/ir.hpp"), "tools/misc/")]
    failures += [uncaught(test, work, tree, bad, bad[1].strip("<>")) for bad in BAD]
    return selftest_summary([f for f in failures if f], len(BAD) + 2)


if __name__ == "__main__":
    sys.exit(main())
