#!/usr/bin/python3
"""The layers include only what is below them (README.md, "Layout"; CMakeLists.txt).

    layering_test.py SOURCE_DIR

ref/ is the bottom: it includes nothing of checks/, proofs/ or tools/. checks/ and proofs/ include
ref/ (proofs/ also checks/) and never tools/. The libraries of tools/ (tools/CMakeLists.txt) are
layered in their turn, from the bottom: plans, system, report, suite, diff, cli, prove; each
includes ref/, checks/, the libraries below it and the two facts tools/version.hpp and
tools/exit_codes.hpp, never the commands (tools/*.cpp, tools/command.hpp); plans, the one plan
generator that the fuzzers, property tests and benchmarks link, includes ref/ alone; only prove,
the top one (built only with Z3), includes proofs/. The Python module (tools/python) includes ref/,
checks/ and suite with what suite is over (plans, system, report). The commands and tests/ may include anything. Every
`#include "..."` of a project file is read, in headers and sources alike; the test also fails when
it finds no include at all (its pattern would be wrong).

ref/ is also the installed library of the data model, the lowering and the files: it includes no
header of signals or processes (SYSTEM_FORBIDDEN); those concerns live in tools/system/.
"""

import os
import re
import sys

from sources import line_of, run_test, sources

# The folders each layer may include from, besides itself.
ALLOWED = {
    "ref": {"ref"},
    "checks": {"ref", "checks"},
    "proofs": {"ref", "checks", "proofs"},
}
# The libraries of tools/, from the bottom; each may include those before it.
TOOLS = ("plans", "system", "report", "suite", "diff", "cli", "prove")
# The libraries of tools/ that may include proofs/ (the run of `prove`, built only with Z3).
TOOLS_OVER_PROOFS = ("prove",)
TOOLS_FACTS = ("tools/version.hpp", "tools/exit_codes.hpp")
for i, library in enumerate(TOOLS):
    ALLOWED["tools/" + library] = ({"ref", "checks"} | {"tools/" + t for t in TOOLS[:i + 1]}
                                   | ({"proofs"} if library in TOOLS_OVER_PROOFS else set()))
# The plan generator is linked without the rest of tools/ and without checks/.
TOOLS_OVER_REF_ALONE = ("plans",)
for library in TOOLS_OVER_REF_ALONE:
    ALLOWED["tools/" + library] = {"ref", "tools/" + library}
# The Python module (tools/python, a top of its own beside the commands): the libraries it links,
# ref/, checks/, suite (the one rule of a suite, the one judging of an output) and what suite is
# over (plans, system, report), never the commands.
TOOLS_TOPS = {"python": {"ref", "checks", "tools/plans", "tools/system", "tools/report",
                         "tools/suite", "tools/python"}}
for top, allowed in TOOLS_TOPS.items():
    ALLOWED["tools/" + top] = allowed
LAYERS = ("ref", "checks", "proofs", "tools")
# The system headers a layer may not include: signals and processes are tools/system/'s.
SYSTEM_FORBIDDEN = {"ref": {"csignal", "signal.h", "spawn.h", "sys/wait.h", "sys/syscall.h",
                            "sys/prctl.h", "sys/ptrace.h", "sys/resource.h", "sys/signalfd.h"}}
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)


def layer_of(include):
    """The layer an include names: ref, checks, proofs, tools/LIBRARY, or tools (the commands)."""
    parts = include.split("/")
    if parts[0] == "tools" and len(parts) > 2:
        return "tools/" + parts[1]
    return parts[0]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def violations(source):
    found, count = [], 0
    for layer, allowed in ALLOWED.items():
        for path, text in sources(source, layer):
            for m in INCLUDE.finditer(text):
                count += 1
                top = layer_of(m.group(1))
                if m.group(1) in TOOLS_FACTS and layer.startswith("tools/"):
                    continue
                if top.split("/")[0] in LAYERS and top not in allowed:
                    found.append("%s:%d: %s includes %s (a layer above it)"
                                 % (path, line_of(text, m.start()), layer, m.group(1)))
    for layer, forbidden in SYSTEM_FORBIDDEN.items():
        for path, text in sources(source, layer):
            for m in SYSTEM_INCLUDE.finditer(text):
                if m.group(1) in forbidden:
                    found.append("%s:%d: %s includes <%s> (signals and processes are "
                                 "tools/system/'s)"
                                 % (path, line_of(text, m.start()), layer, m.group(1)))
    # A folder of tools/ that is not a library of TOOLS would escape the rule.
    tools = os.path.join(source, "tools")
    if os.path.isdir(tools):
        for name in sorted(os.listdir(tools)):
            if os.path.isdir(os.path.join(tools, name)) and name not in TOOLS and \
                    name not in TOOLS_TOPS and not name.startswith("."):
                found.append("tools/%s/: a folder that is not a library of the layering "
                             "(tests/structure/layering_test.py, TOOLS)" % name)
    return found, count


if __name__ == "__main__":
    sys.exit(run_test("layering", violations, "includes read"))
