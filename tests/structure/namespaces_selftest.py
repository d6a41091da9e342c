#!/usr/bin/python3
"""namespaces_test.py catches each namespace outside its folder: a tree with one bad namespace
per case fails, and the same tree without it passes.

    namespaces_selftest.py NAMESPACES_TEST WORK_DIR
"""

import sys

from sources import selftest_summary, uncaught, write_tree

CLEAN = {"ref/a.hpp": "namespace lo {\n", "ref/b.cpp": "namespace lo::selection {\n",
         "ref/io/c.cpp": "namespace lo::io {\nnamespace detail {\n",
         "checks/d.hpp": "namespace lo {\n// the list\n#define L(X) \\\n  X(a, \"a\")\n"
                         "LO_DECLARE_VOCABULARY(D, L, \"d\")\n}\nnamespace lo::checks {\n",
         "tools/cmd_e.cpp": "namespace lo::cli {\n", "tools/cli/f.cpp": "namespace lo::cli {\n",
         "tools/diff/g.cpp": "namespace lo::diff {\n", "tools/system/h.hpp": "namespace lo::system {\n"}
BAD = [("tools/diff/x.cpp", "namespace lo::cli {\n"), ("checks/x.cpp", "namespace lo::selection {\n"),
       ("ref/x.hpp", "namespace lo::checks {\n"), ("tools/suite/x.cpp", "namespace lo::gen {\n"),
       ("tools/report/x.hpp", "namespace lo {\nstruct X {};\n"),
       ("tools/plans/x.cpp", "namespace lo::plans {\n}\nnamespace lo::suite {\n")]


def tree(work, bad):
    files = dict(CLEAN)
    if bad:
        files[bad[0]] = bad[1]
    write_tree(work, files)


def main():
    test, work = sys.argv[1], sys.argv[2]
    failures = [uncaught(test, work, tree, None, "")]
    failures += [uncaught(test, work, tree, bad, bad[0]) for bad in BAD]
    return selftest_summary([f for f in failures if f], len(BAD) + 1)


if __name__ == "__main__":
    sys.exit(main())
