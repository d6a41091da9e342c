#!/usr/bin/python3
"""Every namespace matches its folder (README.md, "Layout").

    namespaces_test.py SOURCE_DIR

A file of a folder of FOLDERS opens only the namespace of its folder, or one nested in it that is
not another folder's: `namespace lo::selection` in ref/ (whose namespace is `lo`) is ref/'s own,
while `namespace lo::checks` there would be checks/'s. An unqualified helper namespace (`detail`,
`html`) is nested in the one opened before it and is not read. The commands (tools/*.cpp) and their
library tools/cli/ are one thing, the command line, and share `lo::cli`. The test also fails when it
reads no namespace at all (its pattern would be wrong).

One exception: a vocabulary declared outside ref/ (`LO_DECLARE_VOCABULARY`, ref/vocab.hpp)
specializes `lo::Vocabulary`, which only `lo` itself may hold; a block of `namespace lo` that
declares a vocabulary (its list, then `LO_DECLARE_VOCABULARY`) before anything else is allowed
anywhere.
"""

import re
import sys

from sources import line_of, run_test, sources

# The namespace of each folder's files (a folder not listed takes its parent's).
FOLDERS = {
    "ref": "lo",
    "ref/io": "lo::io",
    "checks": "lo::checks",
    "proofs": "lo::proofs",
    "tools": "lo::cli",
    "tools/cli": "lo::cli",
    "tools/diff": "lo::diff",
    "tools/plans": "lo::plans",
    "tools/prove": "lo::prove",
    "tools/python": "lo::python",
    "tools/report": "lo::report",
    "tools/suite": "lo::suite",
    "tools/system": "lo::system",
}
OPEN = re.compile(r"^namespace\s+(lo(?:::\w+)*)\s*\{", re.M)
# What may follow `namespace lo {` outside ref/: comments and the vocabulary's list (a macro), then
# the vocabulary's declaration.
VOCABULARY = re.compile(r"(?:\s|//[^\n]*\n|#(?:[^\n]*\\\n)*[^\n]*\n)*LO_DECLARE_VOCABULARY\(")


def owner(namespace):
    """The folders whose namespace is the longest prefix of `namespace`."""
    best, owners = -1, set()
    for folder, name in FOLDERS.items():
        if namespace == name or namespace.startswith(name + "::"):
            if len(name) > best:
                best, owners = len(name), {folder}
            elif len(name) == best:
                owners.add(folder)
    return owners


def folder_of(relative):
    parts = relative.split("/")[:-1]
    while parts and "/".join(parts) not in FOLDERS:
        parts.pop()
    return "/".join(parts)


def violations(source):
    found, count = [], 0
    for top in sorted({f.split("/")[0] for f in FOLDERS}):
        for path, text in sources(source, top):
            folder = folder_of(path)
            for m in OPEN.finditer(text):
                count += 1
                if m.group(1) == "lo" and VOCABULARY.match(text, m.end()):
                    continue
                if FOLDERS[folder] not in {FOLDERS[o] for o in owner(m.group(1))}:
                    found.append("%s:%d: namespace %s in %s/ (its namespace is %s)"
                                 % (path, line_of(text, m.start()), m.group(1), folder,
                                    FOLDERS[folder]))
    return found, count


if __name__ == "__main__":
    sys.exit(run_test("namespaces", violations, "read"))
