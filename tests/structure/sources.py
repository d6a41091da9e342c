"""What the structure tests share: the C++ files of a folder, a position in one, the end of a
test, and the trees their self-tests write."""

import os
import shutil
import subprocess
import sys


def sources(source, folder):
    """(path relative to `source`, text) of every C++ file under `source`/`folder`, in order."""
    for root, dirs, names in os.walk(os.path.join(source, folder)):
        dirs.sort()
        for name in sorted(names):
            if name.endswith((".cpp", ".hpp", ".h")):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield os.path.relpath(path, source), f.read()


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def run_test(what, violations, unit):
    """Runs `violations(SOURCE_DIR)`, which gives (violations, what it read), on the tree named by
    the command line; prints each violation and a summary line; returns the test's exit status.
    Reading nothing is a violation too: the test's pattern would be wrong."""
    found, count = violations(sys.argv[1])
    if count == 0:
        found.append("%s: nothing read under %s: the pattern is wrong" % (what, sys.argv[1]))
    for line in found:
        print(line)
    print("%s: %d %s, %d violations" % (what, count, unit, len(found)))
    return 1 if found else 0


def write_tree(work, files):
    """A fresh tree under `work`: each path of `files` with its text."""
    shutil.rmtree(work, ignore_errors=True)
    for path, text in files.items():
        os.makedirs(os.path.join(work, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(work, path), "w") as f:
            f.write(text)


def run(test, work):
    return subprocess.run(["/usr/bin/python3", test, work], capture_output=True, text=True)


def selftest_summary(failures, cases):
    """Prints each case the test did not catch and a summary line; the self-test's exit status."""
    for f in failures:
        print(f)
    print("%d passed, %d failed" % (cases - len(failures), len(failures)))
    return 1 if failures else 0


def uncaught(test, work, tree, bad, caught):
    """Runs `test` on the tree `tree(work, bad)`: a message when it does not end as it should
    (pass on the clean tree, `bad` None; else fail with `caught` in its output), or None."""
    tree(work, bad)
    r = run(test, work)
    if bad is None:
        return None if r.returncode == 0 else "a clean tree fails: " + r.stdout
    if r.returncode == 1 and caught in r.stdout:
        return None
    return "%s is not caught: %s" % (caught, r.stdout)
