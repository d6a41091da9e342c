#!/usr/bin/env python3
"""The commands the docs print, run as printed: every file they name exists, and their output is
what the docs show.

usage: docs.py BINARY REPO DOC...

In each fenced block of each DOC (relative to REPO):
  * a transcript: a line `$ COMMAND` runs COMMAND with `sh -c`; the lines after it, up to the next
    `$ ` line or the end of the block, are its standard output, compared exactly. `$ echo $?` shows
    the exit status of the command before it. A command shown without output and without
    `echo $?` must not exit 2 (bad usage or invalid input: a missing file, say).
  * a `sh` block: each line that starts with `lowering-oracle ` runs; its exit status must be the
    one its comment states (`# exit N`), else 0; a comment `# exit N: K violations` (or `the same
    K`) also requires the summary line to count K violations. Lines with a placeholder the reader
    fills in (an upper-case word such as PLAN, `my-lowering`, `my-output`, `my-planner`,
    `producer`, `lake`) are skipped,
    and so are blocks that run `prove` (docs/proofs.md and tests/proofs cover it).
Commands run in a fresh directory holding `examples` and `tests` (links into REPO), with the binary
first on PATH as `lowering-oracle`, and this script's interpreter as `python3`.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = re.compile(r"\b[A-Z]{2,}\b|my-lowering|my-output|my-planner|my_worker|producer|lake exe")


def blocks(text):
    """(language, [lines]) of each fenced block."""
    out, current, lang = [], None, ""
    for line in text.split("\n"):
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                out.append((lang, current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def run(command, cwd, env):
    r = subprocess.run(["sh", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def main(binary, repo, docs):
    work = tempfile.mkdtemp(prefix="lo-docs-")
    try:
        os.symlink(os.path.join(repo, "examples"), os.path.join(work, "examples"))
        os.symlink(os.path.join(repo, "tests"), os.path.join(work, "tests"))
        os.mkdir(os.path.join(work, "bin"))
        os.symlink(binary, os.path.join(work, "bin", "lowering-oracle"))
        # The docs' `python3` is the interpreter running this script (Debian's): a version
        # manager's shim first on PATH costs a third of a second at each of the thousands of
        # peer starts of the docs' `diff` commands.
        os.symlink(sys.executable, os.path.join(work, "bin", "python3"))
        env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
        failures, ran = [], 0
        for doc in docs:
            for lang, lines in blocks(open(os.path.join(repo, doc), encoding="utf-8").read()):
                if any(l.startswith("$ ") for l in lines):
                    ran += transcript(doc, lines, work, env, failures)
                elif lang == "sh" and not any("lowering-oracle prove" in l for l in lines):
                    ran += script(doc, lines, work, env, failures)
        for f in failures:
            print("FAIL " + f)
        print("%d commands run from %s; %d failed" % (ran, ", ".join(docs), len(failures)))
        sys.exit(1 if failures or not ran else 0)
    finally:
        shutil.rmtree(work)


def transcript(doc, lines, work, env, failures):
    ran, last = 0, None
    i = 0
    while i < len(lines):
        command = lines[i][2:]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        while expected and expected[-1] == "":
            expected.pop()
        if command == "echo $?":
            if last is None or expected != [str(last[1])]:
                failures.append("%s: `%s` exits %s, the doc shows %s" %
                                (doc, last and last[0], last and last[1], expected))
            continue
        rc, out, err = run(command, work, env)
        ran += 1
        last = (command, rc)
        shown_status = i < len(lines) and lines[i] == "$ echo $?"
        if expected and out.rstrip("\n").split("\n") != expected:
            failures.append("%s: `%s` prints\n%s\nthe doc shows\n%s" %
                            (doc, command, out.rstrip("\n"), "\n".join(expected)))
        elif not expected and not shown_status and rc == 2:
            failures.append("%s: `%s` exits 2: %s" % (doc, command, err.strip()))
    return ran


def script(doc, lines, work, env, failures):
    ran = 0
    for line in lines:
        if not line.startswith("lowering-oracle ") or SKIP.search(line.split("#")[0]):
            continue
        command, _, comment = line.partition("#")
        m = re.match(r"\s*exit (\d)", comment)
        want = int(m.group(1)) if m else 0
        rc, out, err = run(command.strip(), work, env)
        ran += 1
        if rc != want:
            failures.append("%s: `%s` exits %d, the doc says %d: %s" %
                            (doc, command.strip(), rc, want, err.strip()))
        # `# exit 1: 4 violations` (or `the same 4`): the summary line gives that number.
        n = re.match(r"\s*exit \d: (?:the same )?(\d+)\b", comment)
        if n and not re.search(r": %s violations? \(" % n.group(1), out):
            failures.append("%s: `%s` does not report the %s violations the doc says:\n%s" %
                            (doc, command.strip(), n.group(1), out.strip()))
    return ran


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
