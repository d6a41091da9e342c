#!/usr/bin/python3
"""Runs command-line test cases of lowering-oracle (the format: docs/testing.md, "CLI tests").

Usage: run_case.py --bin BINARY --examples EXAMPLES_DIR [--keep] CASE_OR_FOLDER...

Each case file (NAME.case) runs in a fresh temporary directory, which is removed afterwards
(kept, and named, with --keep). A folder runs every *.case file in it, in name order. On a
failure the runner prints the case file and line, the exact command, and what was expected next
to what came (a unified diff where an exact text was expected); the exit status is 1 when a case
failed, 2 when a case file is malformed, 0 otherwise.
"""

import argparse
import dataclasses
import difflib
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_TIMEOUT = 60  # seconds, per command; a case can change it with `timeout N`


class CaseError(Exception):
    """The case file is malformed."""


class Failure(Exception):
    """An expectation of the case does not hold."""


def read_lines(path, seen=()):
    """The lines of a case file as (file, line number, text), with `include FILE` expanded."""
    path = Path(path)
    if path.resolve() in seen:
        raise CaseError(f"{path}: included from itself")
    out = []
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if text.startswith("include "):
            out.extend(read_lines(path.parent / text[len("include "):].strip(),
                                  seen + (path.resolve(),)))
        else:
            out.append((path, number, text))
    while out and out[-1][2] == "":
        out.pop()
    return out


@dataclasses.dataclass
class Run:
    """What one `run` line produced."""

    where: str
    command: list
    cwd: object
    stdin_path: str = None
    stdout_path: str = None
    status: int = None
    stdout: str = ""
    stderr: str = ""
    checked_exit: bool = False

    def shown(self):
        shown = f"cd {shlex.quote(str(self.cwd))} && {shlex.join(self.command)}"
        if self.stdin_path:
            shown += f" < {shlex.quote(self.stdin_path)}"
        if self.stdout_path:
            shown += f" > {shlex.quote(self.stdout_path)}"
        return shown


class Case:
    def __init__(self, path, binary, examples, work):
        self.path = Path(path)
        self.binary = binary
        self.examples = examples
        self.work = work
        self.timeout = DEFAULT_TIMEOUT
        self.edition = None
        self.last = None
        self.runs = 0
        self.checks = 0

    # --- text helpers -------------------------------------------------------------------------
    def subst(self, text):
        return text.replace("%EX%", str(self.examples)).replace("%DIR%", str(self.work)).replace(
            "%BIN%", self.binary)

    def subst_regex(self, text):
        return text.replace("%EX%", re.escape(str(self.examples))).replace(
            "%DIR%", re.escape(str(self.work))).replace("%BIN%", re.escape(self.binary))

    def fail(self, where, message):
        lines = [f"{where[0]}:{where[1]}: {message}"]
        if self.last is not None:
            lines.append(f"  command: {self.last.shown()}")
            lines.append(f"  exit status: {self.last.status}")
        raise Failure("\n".join(lines))

    def stream(self, name):
        if self.last is None:
            raise CaseError(f"`{name}` before any `run`")
        if name == "stdout":
            return self.last.stdout
        if name == "stderr":
            return self.last.stderr
        return self.last.stdout + self.last.stderr  # output: standard output, then standard error

    def file_text(self, where, name):
        path = self.work / name
        if not path.is_file():
            self.fail(where, f"file {name} does not exist")
        return path.read_text(encoding="utf-8", errors="replace")

    # --- the checks on a text ----------------------------------------------------------------
    def check_text(self, where, what, text, verb, arg):
        """`verb arg` on `text` (the content of `what`: stdout, stderr, output or a file)."""
        self.checks += 1
        text_arg = arg.partition(" ")[2] if verb == "count" else arg
        if verb in ("contains", "lacks", "matches", "count") and not text_arg.strip():
            # An empty text is in every output: a check that could never fail.
            raise CaseError(f"{where[0]}:{where[1]}: `{verb}` needs a text")
        if verb == "empty":
            if text != "":
                self.fail(where, f"{what} is not empty:\n{text}")
        elif verb == "is":
            if text != arg:
                diff = "".join(difflib.unified_diff(
                    arg.splitlines(True), text.splitlines(True),
                    f"expected {what}", f"actual {what}"))
                self.fail(where, f"{what} is not as expected:\n{diff}")
        elif verb == "contains":
            if self.subst(arg) not in text:
                self.fail(where, f"{what} lacks: {self.subst(arg)}\n--- actual {what}:\n{text}")
        elif verb == "lacks":
            if self.subst(arg) in text:
                self.fail(where, f"{what} has: {self.subst(arg)}\n--- actual {what}:\n{text}")
        elif verb == "matches":
            pattern = self.subst_regex(arg)
            if not re.search(pattern, text, re.DOTALL):
                self.fail(where, f"{what} does not match: {pattern}\n--- actual {what}:\n{text}")
        elif verb == "lines":
            want = int(arg)
            got = text.count("\n")
            if got != want:
                self.fail(where, f"{what} has {got} lines, expected {want}:\n{text}")
        elif verb == "count":
            number, _, needle = arg.partition(" ")
            needle = self.subst(needle)
            got = sum(1 for line in text.split("\n") if needle in line)
            if got != int(number):
                self.fail(where, f"{what}: {got} lines contain {needle}, expected {number}:\n{text}")
        else:
            raise CaseError(f"{where[0]}:{where[1]}: unknown check `{verb}`")

    # --- the lines ---------------------------------------------------------------------------
    def heredoc(self, lines, i, rest):
        """The body of `... <<END`: the lines up to END, each with its newline."""
        m = re.fullmatch(r"<<([A-Z]+)", rest)
        if not m:
            return None, i
        end = m.group(1)
        body = []
        while True:
            i += 1
            if i >= len(lines):
                raise CaseError(f"{lines[-1][0]}: no {end} for the text begun above")
            if lines[i][2] == end:
                return "".join(t + "\n" for t in body), i
            body.append(lines[i][2])

    def finish_run(self):
        if self.last is not None and not self.last.checked_exit:
            where = self.last.where
            raise CaseError(f"{where[0]}:{where[1]}: a `run` or `sh` without its `exit` line")

    def do_run(self, where, rest):
        self.finish_run()
        words = [self.subst(w) for w in shlex.split(rest)]
        stdin_path = stdout_path = None
        while len(words) >= 2 and words[-2] in ("<", ">"):
            if words[-2] == "<":
                stdin_path = words[-1]
            else:
                stdout_path = words[-1]
            words = words[:-2]
        if self.edition and words and not words[0].startswith("-") and not any(
                w == "--edition" or w.startswith("--edition=") for w in words):
            words = words[:1] + ["--edition", self.edition] + words[1:]
        command = [self.binary] + words
        run = Run(where, command, self.work, stdin_path, stdout_path)
        self.last = run
        self.runs += 1
        stdin = open(self.work / stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            p = subprocess.run(command, cwd=self.work, stdin=stdin, capture_output=True,
                               timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.fail(where, f"no exit within {self.timeout} s")
        finally:
            if stdin_path:
                stdin.close()
        run.status = p.returncode
        run.stdout = p.stdout.decode("utf-8", errors="replace")
        run.stderr = p.stderr.decode("utf-8", errors="replace")
        if stdout_path:
            (self.work / stdout_path).write_bytes(p.stdout)

    def do_sh(self, where, rest):
        """`sh COMMAND`: COMMAND by /bin/sh in the case's directory, for what a `run` cannot say
        (other programs, FIFOs, concurrent producers, an environment); `%BIN%` is the binary."""
        self.finish_run()
        command = ["/bin/sh", "-c", self.subst(rest)]
        run = Run(where, command, self.work)
        self.last = run
        self.runs += 1
        # Its own process group, killed whole at the deadline: a program it started and left
        # running would otherwise hold the pipes open.
        p = subprocess.Popen(command, cwd=self.work, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            self.fail(where, f"no exit within {self.timeout} s")
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # what it left behind
            except ProcessLookupError:
                pass
        run.status = p.returncode
        run.stdout = out.decode("utf-8", errors="replace")
        run.stderr = err.decode("utf-8", errors="replace")

    def execute(self):
        lines = read_lines(self.path)
        i = 0
        while i < len(lines):
            where = (lines[i][0], lines[i][1])
            text = lines[i][2]
            if text == "" or text.startswith("#"):
                i += 1
                continue
            keyword, _, rest = text.partition(" ")
            if keyword == "timeout":
                self.timeout = int(rest)
            elif keyword == "edition":
                if not re.fullmatch(r"[0-9]{4}-[0-9]{2}[a-z]?", rest):
                    raise CaseError(f"{where[0]}:{where[1]}: `edition EDITION` expected")
                self.edition = rest
            elif keyword == "run":
                self.do_run(where, rest)
            elif keyword == "sh":
                self.do_sh(where, rest)
            elif keyword == "exit":
                if self.last is None or self.last.checked_exit:
                    raise CaseError(f"{where[0]}:{where[1]}: `exit` without a `run` before it")
                self.last.checked_exit = True
                self.checks += 1
                if self.last.status != int(rest):
                    self.fail(where, f"exit status {self.last.status}, expected {rest}\n"
                                     f"--- stdout:\n{self.last.stdout}--- stderr:\n{self.last.stderr}")
            elif keyword in ("stdout", "stderr", "output"):
                if self.last is None or not self.last.checked_exit:
                    raise CaseError(f"{where[0]}:{where[1]}: `{keyword}` before the run's `exit`")
                verb, _, arg = rest.partition(" ")
                if verb == "is":
                    body, i = self.heredoc(lines, i, arg)
                    arg = self.subst(body) if body is not None else self.subst(arg) + "\n"
                self.check_text(where, keyword, self.stream(keyword), verb, arg)
            elif keyword == "file":
                name, _, more = rest.partition(" ")
                verb, _, arg = more.partition(" ")
                name = self.subst(name)
                if verb == "<<" or verb.startswith("<<"):
                    body, i = self.heredoc(lines, i, more)
                    if body is None:
                        raise CaseError(f"{where[0]}:{where[1]}: `file NAME <<END` expected")
                    target = self.work / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(body, encoding="utf-8")
                elif verb in ("exists", "absent", "chardev"):
                    self.checks += 1
                    path = self.work / name
                    if verb == "exists" and not path.exists():
                        self.fail(where, f"{name} does not exist")
                    if verb == "absent" and (path.exists() or path.is_symlink()):
                        self.fail(where, f"{name} exists")
                    if verb == "chardev" and not (path.exists() and stat.S_ISCHR(path.stat().st_mode)):
                        self.fail(where, f"{name} is not a character device")
                else:
                    if verb == "is":
                        body, i = self.heredoc(lines, i, arg)
                        arg = self.subst(body) if body is not None else self.subst(arg) + "\n"
                    self.check_text(where, f"file {name}", self.file_text(where, name), verb, arg)
            elif keyword == "same":
                a, b = [self.subst(w) for w in shlex.split(rest)]
                self.checks += 1
                da, db = (self.work / a).read_bytes(), (self.work / b).read_bytes()
                if da != db:
                    diff = "".join(difflib.unified_diff(
                        da.decode(errors="replace").splitlines(True),
                        db.decode(errors="replace").splitlines(True), a, b))
                    self.fail(where, f"{a} and {b} differ:\n{diff}")
            elif keyword == "dir":
                verb, _, arg = rest.partition(" ")
                if verb != "lacks":
                    raise CaseError(f"{where[0]}:{where[1]}: `dir lacks TEXT` expected")
                self.checks += 1
                names = sorted(os.listdir(self.work))
                if any(arg in n for n in names):
                    self.fail(where, f"the work directory has a name with {arg}: {names}")
            else:
                raise CaseError(f"{where[0]}:{where[1]}: unknown line `{keyword}`")
            i += 1
        self.finish_run()
        if self.runs == 0 or self.checks == 0:
            raise CaseError(f"{self.path}: a case needs a `run` and an expectation")


def run_one(path, binary, examples, keep):
    work = Path(tempfile.mkdtemp(prefix="lo-case-"))
    case = Case(path, binary, examples, work)
    try:
        case.execute()
        print(f"ok {path} ({case.runs} runs, {case.checks} checks)")
        return 0
    except Failure as e:
        print(f"FAIL {path}\n{e}", file=sys.stderr)
        return 1
    except CaseError as e:
        print(f"MALFORMED {path}: {e}", file=sys.stderr)
        return 2
    finally:
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the lowering-oracle binary")
    parser.add_argument("--examples", required=True, help="the examples/ folder (%%EX%%)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument("cases", nargs="+", help="case files or folders of them")
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    examples = Path(args.examples).resolve()
    status = 0
    for target in args.cases:
        target = Path(target)
        files = sorted(target.glob("*.case")) if target.is_dir() else [target]
        if not files:
            print(f"MALFORMED {target}: no *.case file", file=sys.stderr)
            status = max(status, 2)
        for f in files:
            status = max(status, run_one(f, binary, examples, args.keep))
    return status


if __name__ == "__main__":
    sys.exit(main())
