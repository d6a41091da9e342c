#!/usr/bin/python3
"""The layers include only what is below them (README.md, "Layout"; CMakeLists.txt).

    layering_test.py SOURCE_DIR

ref/ is the bottom: it includes nothing of checks/, proofs/ or tools/. checks/ and proofs/ include
ref/ (proofs/ also checks/) and never tools/. tests/ and tools/ may include anything. Every
`#include "..."` of a project file is read, in headers and sources alike; the test also fails when
it finds no include at all (its pattern would be wrong).
"""

import os
import re
import sys

# The folders each layer may include from, besides itself.
ALLOWED = {
    "ref": {"ref"},
    "checks": {"ref", "checks"},
    "proofs": {"ref", "checks", "proofs"},
}
LAYERS = ("ref", "checks", "proofs", "tools")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def violations(source):
    found, count = [], 0
    for layer, allowed in ALLOWED.items():
        for root, _, names in os.walk(os.path.join(source, layer)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    count += 1
                    top = m.group(1).split("/", 1)[0]
                    if top in LAYERS and top not in allowed:
                        line = text.count("\n", 0, m.start()) + 1
                        found.append("%s:%d: %s includes %s (a layer above it)"
                                     % (os.path.relpath(path, source), line, layer, m.group(1)))
    if count == 0:
        found.append("no #include found under ref/, checks/, proofs/: the pattern is wrong")
    return found, count


def main():
    source = sys.argv[1]
    found, count = violations(source)
    for line in found:
        print(line)
    print("layering: %d includes read, %d violations" % (count, len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
