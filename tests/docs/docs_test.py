#!/usr/bin/python3
"""The docs hold together: citations of docs/spec.md resolve, links resolve, schemas are listed.

    docs_test.py CASE SOURCE_DIR

citations: every "docs/spec.md §N" or "§N.M" in the sources, tests and docs names a section of
           docs/spec.md ("## N." or "### N.M"), and every "§N" inside docs/spec.md does too.
titles:    every docs/spec.md §N, "Title" in the tree (the title may follow a comment's line break)
           names a heading, a bold lead (**Title.**) or an italic lead (*Title.*) of §N or of a
           subsection of it.
quotes:    no comment or Python docstring of the sources quotes 12 words or more of docs/spec.md
           word for word: it cites the section instead.
links:     every relative Markdown link in README.md, docs/*.md and examples/README.md names a file
           or directory that exists.
schemas:   every schema in docs/schema/ is listed in docs/spec.md §9 and docs/formats.md, and every
           older edition's set (docs/schema/EDITION/) is named in §9 and docs/schema/README.md.
vocabularies: docs/spec.md §1.5 and §1.7 list exactly the spellings and kinds of the code.
editions:  the edition marks of docs/spec.md §1.5 and §1.7 and the edition table of §1.6 are those
           of ref/edition.hpp, as tests/docs/editions_dump.cpp prints them (docs_test.py editions
           SOURCE_DIR DUMP).
obligations: every obligation of proofs/ is named in docs/spec.md §5 and docs/proofs.md.
catalogue: the "fails when" sentence of every check is the same in docs/spec.md §3.1, in
           docs/checks.md and in checks/catalogue.cpp (what `explain` prints), in the order of
           the check vocabulary, with the file that implements it; and the finding of every
           selection check is the same in docs/spec.md §10.8 and checks/selection_catalogue.cpp.
properties: the RapidCheck properties of tests/property (each RC_GTEST_PROP and TEST there) are
           exactly the rows of the table in
           docs/testing.md, and the number the README and docs/testing.md state is their count.
labels:    every label docs/testing.md names in its "one suite by label" row selects at least one test
           of the build tree, but for those of components the tree was built without (NOT_BUILT,
           comma-separated), which select none; and the table of the campaign tier's instances
           names exactly the tests labelled `campaign` (docs_test.py labels SOURCE_DIR CTEST
           BUILD_DIR [NOT_BUILT]).
synopses:  the synopsis of every command in docs/spec.md §4.2 names exactly the options of its
           `--help`, with the same choices; the README's shorter table names no option or choice
           that `--help` lacks (docs_test.py synopses SOURCE_DIR BINARY).
defaults:  every default the README, docs/*.md and the README gen writes into a suite state for
           an option is the default `--help` shows (docs_test.py defaults SOURCE_DIR BINARY).
namemap:   every upstream name of docs/spec.md §8 is declared by the edition's lowering file as
           tests/docs/upstream_names.json records it (read at a named commit), every declaration
           there is named, and every C++ name is declared in the file the row names.
escaping:  docs/spec.md §3.5 lists exactly the code points ref/io/escape.cpp shows escaped, and
           says that check sentences are not quoted while input errors are, as the code does.
"""

import glob
import json
import os
import re
import sys

SKIP_DIRS = {".git", "build"}
TEXT = (".cpp", ".hpp", ".h", ".md", ".py", ".txt", ".cmake", ".sh", ".json", ".dict")


def files(source):
    for root, dirs, names in os.walk(source):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for n in names:
            if n.endswith(TEXT) or n == "CMakeLists.txt":
                yield os.path.join(root, n)


def sections(source):
    with open(os.path.join(source, "docs", "spec.md"), encoding="utf-8") as f:
        text = f.read()
    found = set(re.findall(r"^## (\d+)\. ", text, re.M))
    found |= set(re.findall(r"^### (\d+\.\d+) ", text, re.M))
    return text, found


def citations(source):
    spec, found = sections(source)
    failures, count = [], 0
    for path in files(source):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, source)
        if rel == os.path.join("docs", "spec.md"):
            cited = re.findall(r"§(\d+(?:\.\d+)?)", text)
        else:
            cited = []
            for m in re.finditer(r"docs/spec\.md (§\d+(?:\.\d+)?(?:(?:,| and| or) §\d+(?:\.\d+)?)*)",
                                 text):
                cited += re.findall(r"§(\d+(?:\.\d+)?)", m.group(1))
        for c in cited:
            count += 1
            if c not in found:
                failures.append("%s cites docs/spec.md §%s, which does not exist" % (rel, c))
    if count == 0:
        failures.append("no citation found: the pattern is wrong")
    return failures, count


def titled(spec):
    """The titles of docs/spec.md by section: each section's heading, and the bold (`**Title.**`)
    and italic (`*Title.*`) leads of its paragraphs; a top-level section also holds its
    subsections' titles."""
    titles, current = {}, None
    for line in spec.splitlines():
        m = re.match(r"^##(#?) (\d+(?:\.\d+)?)\.? (.*)$", line)
        if m:
            current = m.group(2)
            titles.setdefault(current, set()).add(m.group(3).strip())
            if m.group(1):
                titles[current.split(".")[0]].add(m.group(3).strip())
            continue
        lead = re.match(r"^(?:[-*] )?(\*\*?)([^*]+?)\.\1(?:\s|$)", line)
        if lead and current:
            titles[current].add(lead.group(2))
            if "." in current:
                titles[current.split(".")[0]].add(lead.group(2))
    return titles


# A citation with a quoted title: docs/spec.md §N, "Title"; the title may follow a line break of a
# comment (//, ///, #, *) or of a C string literal ("...§N, "\n "\"Title\"...").
TITLED = re.compile(r'docs/spec\.md §(\d+(?:\.\d+)?),'
                    r'(?:\s*"\s*\n\s*")?(?:\s*\n\s*(?://+|#+|\*)?)?\s*\\?"([^"\\\n]+)\\?"')


def titles(source):
    """Every docs/spec.md §N, "Title" in the tree names a heading or a paragraph lead of §N."""
    spec, _ = sections(source)
    known = titled(spec)
    failures, count = [], 0
    for path in files(source):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, source)
        for m in TITLED.finditer(text):
            count += 1
            section, title = m.group(1), m.group(2)
            if title not in known.get(section, ()):
                failures.append('%s:%d cites docs/spec.md §%s, "%s", which is no heading or '
                                'paragraph lead there' % (rel, text.count("\n", 0, m.start()) + 1,
                                                          section, title))
    if count == 0:
        failures.append("no titled citation found: the pattern is wrong")
    return failures, count


QUOTE_WORDS = 12


def comment_blocks(text, python=False):
    """The comments of a source file, each run of consecutive //, /// or # lines joined, and a
    Python file's triple-quoted strings: [(line, text)]."""
    blocks, current, start = [], [], 0
    if python:
        for m in re.finditer(r'"""(.*?)"""', text, re.S):
            blocks.append((text.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split())))
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*(?://+|#+)\s?(.*)$", line)
        if m:
            start = start if current else number
            current.append(m.group(1))
        elif current:
            blocks.append((start, " ".join(current)))
            current = []
    if current:
        blocks.append((start, " ".join(current)))
    return blocks


def quotes(source):
    """No comment of the sources quotes docs/spec.md: a quoted run of QUOTE_WORDS words or more
    (between "..." ellipses) found word for word in the spec is a restatement; cite the section."""
    def words(text):
        return [w.lower() for w in re.findall(r"[A-Za-z0-9_'-]+",
                                              text.replace("`", "").replace("**", ""))]
    spec = " %s " % " ".join(words(read(source, "docs", "spec.md")))
    failures, count = [], 0
    for path in files(source):
        rel = os.path.relpath(path, source)
        if rel.split(os.sep)[0] == "docs" or rel.endswith((".md", ".json", ".dict")):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for line, block in comment_blocks(text, rel.endswith(".py")):
            for quoted in re.findall(r'"([^"]+)"', block):
                for piece in re.split(r"\.\.\.|\u2026", quoted):
                    w = words(piece)
                    if len(w) < QUOTE_WORDS:
                        continue
                    count += 1
                    if " %s " % " ".join(w) in spec:
                        failures.append('%s:%d quotes docs/spec.md ("%s"): cite the section' % (
                            rel, line, piece.strip()[:80]))
    if count == 0:
        failures.append("no quoted comment found: the pattern is wrong")
    return failures, count


def links(source):
    failures, count = [], 0
    pages = [os.path.join(source, "README.md"), os.path.join(source, "examples", "README.md")]
    docs = os.path.join(source, "docs")
    pages += [os.path.join(docs, n) for n in sorted(os.listdir(docs)) if n.endswith(".md")]
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            count += 1
            if not os.path.exists(os.path.join(os.path.dirname(page), target)):
                failures.append("%s links to %s, which does not exist" % (
                    os.path.relpath(page, source), target))
    return failures, count


def schemas(source):
    failures, count = [], 0
    spec, _ = sections(source)
    section9 = spec[spec.index("## 9. "):]
    with open(os.path.join(source, "docs", "formats.md"), encoding="utf-8") as f:
        formats = f.read()
    for name in sorted(os.listdir(os.path.join(source, "docs", "schema"))):
        if os.path.isdir(os.path.join(source, "docs", "schema", name)):
            # An older edition's set of schemas (§9): named in §9 and in docs/schema/README.md.
            count += 1
            readme = read(source, "docs", "schema", "README.md")
            for where, text in (("docs/spec.md §9", section9), ("docs/schema/README.md", readme)):
                if "`docs/schema/%s/`" % name not in text:
                    failures.append("the schema set docs/schema/%s/ is not named in %s" % (
                        name, where))
            continue
        if not name.endswith(".json"):
            continue  # docs/schema/README.md
        count += 1
        for where, text in (("docs/spec.md §9", section9), ("docs/formats.md", formats)):
            if "`%s`" % name not in text:
                failures.append("%s is not listed in %s" % (name, where))
    return failures, count


def xmacro(text, macro):
    m = re.search(r"#define %s\(X\)(.*?)\n(?!\s*X\()" % macro, text, re.S)
    return re.findall(r'X\(\w+, "([^"]+)"\)', m.group(1)) if m else None


def read(source, *path):
    with open(os.path.join(source, *path), encoding="utf-8") as f:
        return f.read()


def vocabularies(source):
    """docs/spec.md §1.5 and §1.7 list exactly the code's spellings and kind signatures."""
    failures, count = [], 0
    spec = read(source, "docs", "spec.md")
    rows = {}
    for name, values in re.findall(r"^\| ([A-Za-z ]+) \(\d+\) \| (.*) \|$", spec, re.M):
        rows[name] = re.findall(r"`([^`]+)`", values.split(" (§")[0])
    vocab = read(source, "ref", "vocab.hpp")
    lists = {"BackendOp": (vocab, "LO_BACKEND_OPS"), "Provider": (vocab, "LO_PROVIDERS"),
             "Device": (vocab, "LO_DEVICES"), "TrustLevel": (vocab, "LO_TRUST_LEVELS"),
             "VJPMode": (vocab, "LO_VJP_MODES"), "TensorLayout": (vocab, "LO_TENSOR_LAYOUTS"),
             "Rounding": (vocab, "LO_ROUNDINGS"), "Subnormals": (vocab, "LO_SUBNORMALS"),
             "Contraction": (vocab, "LO_CONTRACTIONS"), "Reduction": (vocab, "LO_REDUCTIONS"),
             "GroupingKind": (vocab, "LO_GROUPING_KINDS"), "mode": (vocab, "LO_MODES"),
             "equality": (vocab, "LO_EQUALITIES"),
             "check": (read(source, "checks", "checks.hpp"), "LO_CHECK_NAMES"),
             "edition": (read(source, "ref", "edition.hpp"), "LO_EDITIONS")}
    # The contract tags, where ref/vocab.hpp declares them as vocabularies too.
    for macro, name in (("LO_CLAIM_TAGS", "claim tag"), ("LO_EVIDENCE_TAGS", "evidence tag"),
                        ("LO_PROVENANCE_TAGS", "provenance tag")):
        if "#define %s(X)" % macro in vocab:
            lists[name] = (vocab, macro)
    for header, macro, name in (("recheck.hpp", "LO_CONTRACT_OBLIGATIONS", "obligation"),
                                ("recheck.hpp", "LO_EVIDENCE_DISPOSITIONS", "disposition"),
                                ("gate.hpp", "LO_GATE_FAILURE_KINDS", "gate failure kind")):
        if os.path.exists(os.path.join(source, "ref", header)):
            lists[name] = (read(source, "ref", header), macro)
    for name, (text, macro) in lists.items():
        count += 1
        code = xmacro(text, macro)
        documented = rows.get(name)
        if name == "check" and code is not None and "gate" not in code and documented:
            documented = [c for c in documented if c != "gate"]  # the gate check is built apart
        if code is None or documented != code:
            failures.append("%s: docs/spec.md §1.5 lists %s, the code %s" % (name, documented, code))
    # §1.7: tag, parameters and op of every kind.
    src = read(source, "ref", "opkind.cpp")
    specs = {"none": []}
    for name, body in re.findall(r"constexpr ParamSpec (k\w+)\[\] = \{(.*?)\};", src, re.S):
        specs[name] = re.findall(r'\{"(\w+)", (?:naturals?|hardMask|text|shapes)\}', body)
    code = {}
    for tag, params, op in re.findall(r"set\(K::(\w+), (\w+), (B::\w+|std::nullopt)\);", src):
        code[tag.rstrip("_")] = (specs[params], "-" if op == "std::nullopt" else op[3:])
    section = spec[spec.index("### 1.7 "):spec.index("## 2. ")]
    table = {}
    for tag, params, op in re.findall(r"^\| `(\w+)`(?: \[[0-9a-z, -]+\])? \|([^|]*)\|([^|]*)\|$",
                                      section, re.M):
        table[tag] = (re.findall(r"`(\w+)`", params), op.strip().strip("`"))
    count += 1
    if not code or sorted(code) != sorted(xmacro(read(source, "ref", "opkind.hpp"), "LO_KIND_TAGS")):
        failures.append("could not read the kind table of ref/opkind.cpp")
    for tag in sorted(set(code) | set(table)):
        if code.get(tag) != table.get(tag):
            failures.append("kind %s: docs/spec.md §1.7 %s, code %s" % (tag, table.get(tag),
                                                                      code.get(tag)))
    return failures, count


def marked(cells):
    """The values of a table cell and their edition marks: [(value, [edition...] or None)]."""
    return [(v, [e.strip() for e in m.split(",")] if m else None)
            for v, m in re.findall(r"`([^`]+)`(?: \[([0-9a-z, -]+)\])?", cells)]


def editions(source, dump):
    """The edition marks of docs/spec.md §1.5 and §1.7 and the table of §1.6 are ref/edition.hpp's."""
    import subprocess
    failures, count = [], 0
    code = json.loads(subprocess.run([dump], check=True, capture_output=True).stdout)
    every = code["editions"]
    spec = read(source, "docs", "spec.md")
    section15 = spec[spec.index("### 1.5 "):spec.index("### 1.6 ")]
    rows = {}
    for name, values in re.findall(r"^\| ([A-Za-z ]+) \(\d+\) \| (.*) \|$", section15, re.M):
        rows[name] = marked(values.split(" (§")[0])
    # §1.7: a kind's mark is in its tag cell.
    section17 = spec[spec.index("### 1.7 "):spec.index("## 2. ")]
    rows["kind"] = [marked(cell)[0] for cell in
                    re.findall(r"^\| (`\w+`(?: \[[0-9a-z, -]+\])?) \|", section17, re.M)]
    for name, values in code["vocabularies"].items():
        if name not in rows:
            if any(e != every for e in values.values()):
                failures.append("%s has values of some editions only, and docs/spec.md has no "
                                "table of it" % name)
            continue
        count += 1
        documented = dict(rows[name])
        if sorted(documented) != sorted(values):
            failures.append("%s: docs/spec.md lists %s, the code %s" % (
                name, sorted(documented), sorted(values)))
        for value, eds in values.items():
            mark = documented.get(value, None)
            shown = every if mark is None else mark
            if value in documented and shown != eds:
                failures.append("%s `%s`: docs/spec.md marks it %s, ref/edition.hpp has it in %s" % (
                    name, value, "unmarked (every edition)" if mark is None else mark, eds))
            if mark is not None and mark == every:
                failures.append("%s `%s`: marked with every edition; leave it unmarked" % (
                    name, value))
    # §1.6: one row per edition, with the repository, commits and files of kEditionSources.
    section16 = spec[spec.index("### 1.6 "):spec.index("### 1.7 ")]
    table = re.findall(r"^\| `([0-9a-z-]+)` \| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$", section16, re.M)
    count += 1
    got = [[e, r, c.strip(), f.strip()] for e, r, c, f in table]
    want = [[x["edition"], x["repository"], x["commits"], x["files"]] for x in code["sources"]]
    if got != want:
        failures.append("docs/spec.md §1.6's edition table %s is not kEditionSources %s" % (got, want))
    count += 1
    if ("default the newest (`%s`)" % code["newest"]) not in section16:
        failures.append("docs/spec.md §1.6 does not say the default is the newest edition, %s" %
                        code["newest"])
    return failures, count


def obligations(source):
    """Every obligation `prove` discharges is in docs/spec.md §5 and docs/proofs.md."""
    failures, count = [], 0
    spec = read(source, "docs", "spec.md")
    section5 = spec[spec.index("## 5. "):spec.index("## 6. ")]
    proofs_md = read(source, "docs", "proofs.md")
    names = set()
    for root, _, files_ in os.walk(os.path.join(source, "proofs")):
        for n in files_:
            if n.endswith(".cpp"):
                with open(os.path.join(root, n), encoding="utf-8") as f:
                    names |= set(re.findall(r'\{"((?:singleton|coalesced|step)\.[a-z-]+)",', f.read()))
    if not names:
        failures.append("no obligation found in proofs/: the pattern is wrong")
    for name in sorted(names):
        count += 1
        for where, text in (("docs/spec.md §5", section5), ("docs/proofs.md", proofs_md)):
            if "`%s`" % name not in text:
                failures.append("obligation %s is not in %s" % (name, where))
    return failures, count


def c_strings(text):
    """The value of adjacent C string literals, e.g. `"a " "b"` -> `a b`."""
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text)).replace('\\"', '"')


def catalogue(source):
    """docs/spec.md §3.1, docs/checks.md and checks/catalogue.cpp give each check one wording."""
    failures, count = [], 0
    names = dict(re.findall(r'X\((\w+), "([^"]+)"\)', read(source, "checks", "checks.hpp")))
    order = xmacro(read(source, "checks", "checks.hpp"), "LO_CHECK_NAMES")
    code = {}
    for enum, body in re.findall(r'\{Check::(\w+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),',
                                 read(source, "checks", "catalogue.cpp")):
        code[names[enum]] = c_strings(body)
    spec = read(source, "docs", "spec.md")
    section = spec[spec.index("### 3.1 "):spec.index("### 3.2 ")]
    in_spec = re.findall(r"^\| `([a-z-]+)` \| (.*) \|$", section, re.M)
    checks_md = read(source, "docs", "checks.md")
    in_checks_md = [(n, t) for n, t, _ in re.findall(r"^\| ([a-z-]+) \| (.*) \| ([a-z_]+\.cpp) \|$",
                                                     checks_md, re.M)]
    files_md = dict((n, f) for n, _, f in re.findall(r"^\| ([a-z-]+) \| (.*) \| ([a-z_]+\.cpp) \|$",
                                                     checks_md, re.M))
    if not order or len(code) != len(order):
        failures.append("could not read checks/catalogue.cpp: %d entries for %s" % (len(code), order))
    for where, rows in (("docs/spec.md §3.1", in_spec), ("docs/checks.md", in_checks_md)):
        if [n for n, _ in rows] != order:
            failures.append("%s lists the checks %s, the vocabulary %s" % (where, [n for n, _ in rows], order))
        for name, text in rows:
            count += 1
            if code.get(name) != text:
                failures.append("check %s: %s says %r, checks/catalogue.cpp %r" % (name, where, text, code.get(name)))
    schema = json.loads(read(source, "docs", "schema", "common.schema.json"))
    enum = schema.get("$defs", schema.get("definitions", {})).get("Check", {}).get("enum")
    count += 1
    if enum != order:
        failures.append("docs/schema/common.schema.json's Check lists %s, the vocabulary %s" % (enum, order))
    for name in order or []:
        path = os.path.join(source, "checks", files_md.get(name, "?"))
        if not os.path.exists(path):
            failures.append("check %s: docs/checks.md names file %s, which does not exist" % (name, files_md.get(name)))
    # The selection checks: docs/spec.md §10.8's table and checks/selection_catalogue.cpp (what
    # `explain` prints), in the order of the vocabulary.
    departures = xmacro(read(source, "checks", "selection.hpp"), "LO_DEPARTURES") or []
    body = read(source, "checks", "selection_catalogue.cpp")
    body = body[body.index("kFindings = {"):]
    body = body[:body.index("};")]
    findings = [c_strings(b) for b in re.findall(r'((?:"(?:[^"\\]|\\.)*"\s*)+),', body)]
    section = spec[spec.index("### 10.8 "):]
    rows = re.findall(r"^\| `(selection\.[a-z-]+)` \| (.*) \|$", section, re.M)
    count += 1
    if [n for n, _ in rows] != departures or len(findings) != len(departures):
        failures.append("docs/spec.md §10.8 lists %s, the vocabulary %s, checks/selection_catalogue"
                        ".cpp %d findings" % ([n for n, _ in rows], departures, len(findings)))
    for (name, text), code_text in zip(rows, findings):
        count += 1
        if text != code_text:
            failures.append("selection check %s: docs/spec.md §10.8 says %r, "
                            "checks/selection_catalogue.cpp %r" % (name, text, code_text))
    return failures, count


def properties(source):
    """docs/testing.md's table and the stated counts are the properties of tests/property."""
    failures, count = [], 0
    code = []
    folder = os.path.join(source, "tests", "property")
    for n in sorted(os.listdir(folder)):
        if n.endswith(".cpp"):
            text = read(source, "tests", "property", n)
            # Every test of the suite is a property: an RC_GTEST_PROP, or a TEST that drives
            # RapidCheck itself (rc::check, rc::detail::checkTestable).
            code += ["%s.%s" % m for m in re.findall(r"^(?:RC_GTEST_PROP|TEST)\(\s*(\w+),\s*(\w+)",
                                                       text, re.M)]
    testing = read(source, "docs", "testing.md")
    table = re.findall(r"^\| `(\w+\.\w+)` \|", testing[testing.index("## The properties"):], re.M)
    count = len(code)
    if not code:
        failures.append("no RC_GTEST_PROP found in tests/property: the pattern is wrong")
    for name in sorted(set(code) - set(table)):
        failures.append("property %s is not in docs/testing.md's table" % name)
    for name in sorted(set(table) - set(code)):
        failures.append("docs/testing.md lists %s, which tests/property does not have" % name)
    for where, text in (("README.md", read(source, "README.md")), ("docs/testing.md", testing)):
        for stated in re.findall(r"(\d+) (?:RapidCheck )?properties", text):
            if int(stated) != len(code):
                failures.append("%s says %s properties, tests/property has %d" % (where, stated, len(code)))
    return failures, count
def escaping(source):
    """docs/spec.md §3.5's rule of shown text is the code's (ref/io/escape.cpp, ref/io/strict_json.cpp)."""
    failures = []
    spec = read(source, "docs", "spec.md")
    section = spec[spec.index("### 3.5 "):spec.index("### 3.6 ")]
    if "Shown, every text" not in section or "`\\xNN`" not in section:
        return ["docs/spec.md §3.5 no longer states the rule of shown text"], 1
    rule = section[section.index("Shown, every text"):section.index("`\\xNN`")]

    def ranges(pairs):
        return sorted((int(a, 16), int(b or a, 16)) for a, b in pairs)

    documented = ranges(re.findall(r"U\+([0-9A-F]{4})(?: to U\+([0-9A-F]{4}))?(?![0-9A-F])", rule))
    code = read(source, "ref", "io", "escape.cpp")
    body = code[code.index("bool isShownEscaped("):]
    body = body[:body.index("\n}\n")]
    found = re.findall(r"\(cp >= 0x([0-9A-Fa-f]+) && cp <= 0x([0-9A-Fa-f]+)\)|cp == 0x([0-9A-Fa-f]+)"
                       r"|cp < 0x([0-9A-Fa-f]+)", body)
    pairs = []
    for lo, hi, one, below in found:
        if below:
            pairs.append(("0", "%x" % (int(below, 16) - 1)))
        else:
            pairs.append((lo or one, hi))
    coded = ranges(pairs)

    def merged(rs):
        out = []
        for a, b in rs:
            if out and a <= out[-1][1] + 1:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return out

    if not coded:
        failures.append("could not read isShownEscaped in ref/io/escape.cpp")
    elif merged(documented) != merged(coded):
        failures.append("docs/spec.md §3.5 escapes %s, ref/io/escape.cpp %s"
                        % ([(hex(a), hex(b)) for a, b in merged(documented)],
                           [(hex(a), hex(b)) for a, b in merged(coded)]))
    # The quoting rule: check sentences name input strings without quotes, input errors quote.
    if "without quotes" not in section or 'unknown field "x"' not in section:
        failures.append("docs/spec.md §3.5 no longer states the quoting rule the code follows")
    reader = read(source, "ref", "io", "strict_json.cpp")
    if 'fail(keyAt, "unknown field " + quote(key)' not in reader:
        failures.append("ref/io/strict_json.cpp no longer quotes an unknown field's name")
    return failures, 2


def labels(source, ctest, build, not_built=""):
    """Every label docs/testing.md names selects a test of BUILD, except the labels of components
    this tree was configured without (NOT_BUILT, comma-separated), which must select none."""
    import subprocess
    failures, count = [], 0
    absent = set(filter(None, not_built.split(",")))
    with open(os.path.join(source, "docs", "testing.md"), encoding="utf-8") as f:
        row = [line for line in f if "one suite by label:" in line]
    if len(row) != 1:
        return ["docs/testing.md has no single \"one suite by label\" row"], 0
    named = re.findall(r"`([a-z][a-z0-9-]*)`", row[0].split("one suite by label:")[1])
    if not named:
        failures.append("docs/testing.md's label row names no label")
    for label in named:
        count += 1
        r = subprocess.run([ctest, "--test-dir", build, "-N", "-L", "^%s$" % label],
                           capture_output=True, text=True)
        total = re.search(r"Total Tests: (\d+)", r.stdout)
        selected = int(total.group(1)) if r.returncode == 0 and total else 0
        if label in absent and selected:
            failures.append("label %r selects %d tests in a tree built without it" %
                            (label, selected))
        elif label not in absent and not selected:
            failures.append("docs/testing.md names label %r, which selects no test" % label)
    for label in sorted(absent - set(named)):
        failures.append("label %r is said not built, but docs/testing.md does not name it" % label)
    # A count of today's tests ("F of the N tests") is the build's: a count of the past is said
    # with the commit it was measured at (the table), never as the present.
    def total(*label):
        r = subprocess.run([ctest, "--test-dir", build, "-N", *label], capture_output=True,
                           text=True)
        found = re.search(r"Total Tests: (\d+)", r.stdout)
        return int(found.group(1)) if found else -1
    with open(os.path.join(source, "docs", "testing.md"), encoding="utf-8") as f:
        claims = re.findall(r"\((\d+) of the (\d+) tests", f.read())
    if claims:
        actual = (total("-L", "^fast$"), total())
        for fast, all_ in claims:
            count += 1
            if (int(fast), int(all_)) != actual:
                failures.append("docs/testing.md says %s of the %s tests are fast; the build has "
                                "%d of %d" % (fast, all_, *actual))
    # The campaign tier's table ("Tiers") names exactly the tests labelled `campaign`: a row
    # `name` one test, `prefix.*` every test of the prefix.
    with open(os.path.join(source, "docs", "testing.md"), encoding="utf-8") as f:
        text = f.read()
    table = re.search(r"^\| test \| small \(campaign\) \|.*?\n\n", text, re.M | re.S)
    if not table:
        return failures + ["docs/testing.md has no table of the campaign tier's instances"], count
    rows = re.findall(r"^\| `([A-Za-z0-9.*-]+)`", table.group(0), re.M)
    r = subprocess.run([ctest, "--test-dir", build, "-N", "-L", "^campaign$"],
                       capture_output=True, text=True)
    tests = set(re.findall(r"Test +#\d+: (\S+)", r.stdout))
    def covers(row, test):
        return test.startswith(row[:-1]) if row.endswith(".*") else test == row
    for row in rows:
        count += 1
        if row.split(".")[0] not in absent and not any(covers(row, t) for t in tests):
            failures.append("docs/testing.md's campaign table names %s, no test labelled "
                            "campaign" % row)
    for test in sorted(tests):
        count += 1
        if not any(covers(row, test) for row in rows):
            failures.append("test %s is labelled campaign, but the campaign table of "
                            "docs/testing.md does not name it" % test)
    return failures, count

COMMANDS = ("plan", "lower", "audit", "check", "explain", "gen", "verify", "diff", "prove", "gate")
OPTION = r"(--[a-z0-9][a-z0-9-]*|(?<![\w-])-o\b)"


def synopsis(text, command):
    """The options of COMMAND's row in a Markdown command table, each with its choices or None."""
    rows = [line for line in text.splitlines() if line.startswith("| `%s " % command)]
    if len(rows) != 1:
        return None
    cell = rows[0].split("` |")[0]
    options = {}
    for m in re.finditer(OPTION + r"(?: ([a-z0-9-]+(?:\\\|[a-z0-9-]+)+))?", cell):
        options[m.group(1)] = set(m.group(2).split("\\|")) if m.group(2) else None
    return options


def synopses(source, binary):
    import subprocess
    failures, count = [], 0
    spec = read(source, "docs", "spec.md")
    readme = read(source, "README.md")
    for command in COMMANDS:
        r = subprocess.run([binary, command, "--help"], capture_output=True, text=True)
        helped = {}
        for m in re.finditer(r"^\s+(?:-\w, )?" + OPTION + r"(?: \w+(?::\{([a-z0-9,-]+)\})?)?",
                             r.stdout, re.M):
            helped[m.group(1)] = set(m.group(2).split(",")) if m.group(2) else None
        for name in ("--help", "--version"):
            helped.pop(name, None)
        if r.returncode != 0 or not helped and command != "explain":
            failures.append("%s --help: exit %d, %d options" % (command, r.returncode, len(helped)))
            continue
        for where, text, both in (("docs/spec.md §4.2", spec, True), ("README.md", readme, False)):
            count += 1
            documented = synopsis(text, command)
            if documented is None:
                failures.append("%s has no single row for %s" % (where, command))
                continue
            for option, choices in documented.items():
                if option not in helped:
                    failures.append("%s: %s %s is not in its --help" % (where, command, option))
                elif choices is not None and helped[option] is not None and choices != helped[option]:
                    failures.append("%s: %s %s lists %s, --help %s" % (
                        where, command, option, "|".join(sorted(choices)),
                        "|".join(sorted(helped[option]))))
            if both:
                for option in sorted(set(helped) - set(documented)):
                    failures.append("%s: %s %s is in --help but not in the synopsis" % (
                        where, command, option))
    return failures, count


UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
# A default the docs state: "`--opt` (default V", "`--opt T` (default V", "`--opt`, default V",
# "`--opt` timeout, default V", "`--opt` bounds each run (default V" (at most four words between),
# and "Default `--opt V`"; V a number (with a unit), or a word in backquotes.
STATED_DEFAULT = re.compile(
    r"`(--[a-z0-9-]+)(?: [A-Z]+)?`(?: [a-z]+){0,4}(?: \(|, )default "
    r"(`[a-z0-9-]+`|[0-9]+(?: [KMG]iB)?)"
    r"|Default `(--[a-z0-9-]+) ([a-z0-9-]+)`")


def helped_defaults(binary):
    """Every option's default as `--help` shows it (`--opt N=DEFAULT`), by option: the set over
    the commands that have it."""
    import subprocess
    defaults = {}
    for command in COMMANDS:
        r = subprocess.run([binary, command, "--help"], capture_output=True, text=True)
        for m in re.finditer(r"^\s+(?:-\w, )?(--[a-z0-9-]+) [A-Z]+(?::\{[^}]*\})?=(\S+)",
                             r.stdout, re.M):
            defaults.setdefault(m.group(1), set()).add(m.group(2))
    return defaults


def stated_value(text):
    text = text.strip("`")
    number = re.fullmatch(r"([0-9]+) ([KMG]iB)", text)
    return str(int(number.group(1)) * UNITS[number.group(2)]) if number else text


def defaults(source, binary):
    """Every default the README, docs/*.md and the README gen writes into a suite state for an
    option of the binary is the default its `--help` shows (for one of the commands that have
    the option); a statement may run over a line break."""
    import subprocess
    import tempfile
    failures, count = [], 0
    helped = helped_defaults(binary)
    if not helped:
        return ["--help shows no default"], 0
    texts = [(name, read(source, name)) for name in ["README.md"] + [
        "docs/" + f for f in sorted(os.listdir(os.path.join(source, "docs"))) if f.endswith(".md")]]
    with tempfile.TemporaryDirectory() as work:
        suite = os.path.join(work, "suite")
        r = subprocess.run([binary, "gen", "--out", suite, "--count", "1"], capture_output=True,
                           text=True)
        if r.returncode != 0:
            return ["gen --count 1: exit %d: %s" % (r.returncode, r.stderr.strip())], 0
        texts.append(("a suite's README.md (gen)", read(suite, "README.md")))
    for name, text in texts:
        for m in STATED_DEFAULT.finditer(text.replace("\n", " ")):
            option = m.group(1) or m.group(3)
            value = stated_value(m.group(2) or m.group(4))
            if option not in helped:
                continue
            count += 1
            if value not in helped[option]:
                failures.append("%s:%d: %s defaults to %s, but --help shows %s" % (
                    name, text.count("\n", 0, m.start()) + 1, option, value,
                    " or ".join(sorted(helped[option]))))
    if count == 0:
        failures.append("no stated default found in the docs")
    return failures, count


CASES = {"citations": citations, "titles": titles, "quotes": quotes, "links": links, "schemas": schemas, "vocabularies": vocabularies,
         "obligations": obligations, "catalogue": catalogue, "properties": properties,
         "escaping": escaping}


def lean_names(cell):
    """The Lean names of a §8 cell: `A.b`, `.c` is A.b and a sibling A.c or a child A.b.c (both
    are offered; the caller takes the declared one); "(and each `.repr`)" adds X.repr to each."""
    names, full = [], None
    each = re.search(r"\(and each `(\.\w+)`\)", cell)
    cell = re.sub(r"\(and each `\.\w+`\)", "", cell)
    for item in re.findall(r"`([^`]+)`", cell):
        if item.startswith("."):
            if full is None:
                names.append((item,))
                continue
            sibling = full.rsplit(".", 1)[0] + item if "." in full else item[1:]
            names.append((sibling, full + item))
        else:
            full = item
            names.append((item,))
    if each:
        names += [(n[0] + each.group(1),) for n in list(names)]
    return names


def namemap(source):
    """docs/spec.md §8 against upstream's declarations (tests/docs/upstream_names.json) and ref/."""
    failures, count = [], 0
    with open(os.path.join(source, "tests", "docs", "upstream_names.json"), encoding="utf-8") as f:
        upstream = json.load(f)
    spec = read(source, "docs", "spec.md")
    section = spec[spec.index("## 8. Name map"):spec.index("## 9. ")]
    tables, current = [], None
    for line in section.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if current is None:
                current = {"header": cells, "rows": []}
                tables.append(current)
            elif not set(line) <= set("|- "):
                current["rows"].append(cells)
        else:
            current = None
    if len(tables) != 5:
        return ["docs/spec.md §8 has %d tables, not 5 (names, 2026-08 names, other files, the "
                "gate, beyond the original)" % len(tables)], 1
    first, renamed, other, gate, beyond = tables
    columns = {"2026-07": [r[0] for r in first["rows"]] + [r[0] for r in renamed["rows"]],
               "2026-08": [r[1] for r in renamed["rows"]]}
    for edition, cells in columns.items():
        u = upstream[edition]
        known = set(u["declared"]) | set(u["derived"]) | set(u["other"])
        where = "%s %s at %s" % (u["repository"], u["path"], u["commit"][:7])

        def matches(name, declared):
            return name == declared or declared.endswith("." + name)
        named = []
        for cell in cells:
            for choices in lean_names(cell):
                count += 1
                hit = [c for c in choices if any(matches(c, k) for k in known)]
                if not hit:
                    failures.append("§8 names `%s` for edition %s, which %s does not declare" % (
                        choices[0], edition, where))
                named += hit
        for k in sorted(set(u["declared"]) | set(u["derived"])):
            count += 1
            if not any(matches(n, k) for n in named):
                failures.append("§8 does not name `%s`, declared by %s (edition %s)" % (
                    k, where, edition))
    # The C++ column: each lo:: name is declared in the row's file (or the files its pattern,
    # "a.hpp, b.hpp", "tools/cmd_*.cpp" or a folder, names).
    for table in (first, other, gate, beyond):
        for row in table["rows"]:
            if row[2] == "-":
                continue
            paths = []
            for pattern in re.split(r",\s*", row[2]):
                found = sorted(glob.glob(os.path.join(source, pattern)))
                if not found:
                    failures.append("§8 names %s, which is not a file of the repository" % pattern)
                paths += found
            files = []
            for path in paths:  # a folder stands for its C++ sources
                files += (sorted(glob.glob(os.path.join(path, "*.[ch]pp")))
                          if os.path.isdir(path) else [path])
            text = "".join(open(f, encoding="utf-8").read() for f in files)
            for item in re.findall(r"`(lo::[^`]+|::\w+)`", row[1]):
                ident = re.sub(r"\(.*\)$", "", item).split("::")[-1]
                count += 1
                if not re.search(r"\b%s\b" % re.escape(ident), text):
                    failures.append("§8: `%s` is not declared in %s" % (item, row[2]))
    return failures, count


CASES["namemap"] = namemap


def exit_table(text, heading):
    """The rows `| code | meaning |` of the table under `heading` in `text`."""
    part = text.split(heading, 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| (\d) \| (.+?) \|$", part, re.M)


def exitstatus(source):
    """The exit statuses: the README's table is docs/spec.md §4.4's, and the binary's --help
    (tools/main.cpp) names every code with every command it applies to (e.g. `diff` interrupted
    before any finding is 3)."""
    failures = []
    spec = exit_table(read(source, "docs", "spec.md"), "### 4.4 Exit status")
    readme = exit_table(read(source, "README.md"), "## Exit status")
    if not spec:
        failures.append("docs/spec.md §4.4 has no exit status table")
    if readme != spec:
        failures.append("README.md's exit status table %r is not docs/spec.md §4.4's %r" %
                        (readme, spec))
    main_cpp = read(source, "tools", "main.cpp")
    helped = c_strings(main_cpp[main_cpp.index("CLI::App app{"):].split('"}', 1)[0] + '"')
    helped = helped[helped.find("Exit status:"):]
    for code, meaning in spec:
        for command in re.findall(r"\(`(\w+)`\)", meaning):
            said = re.search(r"\b%s [^0-9]*" % code, helped)
            if not said or command not in said.group(0):
                failures.append("--help's exit status %s does not name `%s` (spec §4.4: %s)" %
                                (code, command, meaning))
    return failures, len(spec)


CASES["exitstatus"] = exitstatus


def main():
    if sys.argv[1:2] == ["labels"] and len(sys.argv) in (5, 6):
        failures, count = labels(*sys.argv[2:])
    elif sys.argv[1:2] == ["synopses"] and len(sys.argv) == 4:
        failures, count = synopses(*sys.argv[2:])
    elif sys.argv[1:2] == ["defaults"] and len(sys.argv) == 4:
        failures, count = defaults(*sys.argv[2:])
    elif sys.argv[1:2] == ["editions"] and len(sys.argv) == 4:
        failures, count = editions(*sys.argv[2:])
    elif len(sys.argv) != 3 or sys.argv[1] not in CASES:
        print(__doc__)
        return 2
    else:
        failures, count = CASES[sys.argv[1]](sys.argv[2])
    for f in failures:
        print("FAIL:", f)
    print("%s: %d checked, %d failures" % (sys.argv[1], count, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
