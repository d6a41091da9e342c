#!/usr/bin/python3
"""The fuzzers' dictionary names every spelling (docs/fuzzing.md): each value of every vocabulary
of docs/spec.md §1.5 and every kind tag of §1.7, in every edition, as ref/edition.hpp declares
them (lo_editions_dump), is a token `"VALUE"` of tests/fuzz/lowering-oracle.dict, so that a value
a new edition adds is fuzzed from the day it is declared.

    dictionary_test.py EDITIONS_DUMP DICTIONARY
"""
import json
import re
import subprocess
import sys

# The vocabularies a document spells (the others, such as the check names, are the oracle's
# output).
SPELLED = ("BackendOp", "Provider", "Device", "TrustLevel", "VJPMode", "TensorLayout", "Rounding",
           "Subnormals", "Contraction", "Reduction", "GroupingKind", "mode", "equality",
           "claim tag", "evidence tag", "provenance tag", "kind")


def main(dump, dictionary):
    editions = json.loads(subprocess.run([dump], capture_output=True, text=True,
                                         check=True).stdout)
    with open(dictionary, encoding="utf-8") as f:
        tokens = set()
        for line in f:
            m = re.match(r'^\w+="(.*)"$', line.strip())
            if m:
                tokens.add(m.group(1).encode().decode("unicode_escape"))
    failures, count = [], 0
    for name in SPELLED:
        for value in editions["vocabularies"][name]:
            count += 1
            if f'"{value}"' not in tokens:
                failures.append(f'{name} {value}: no token "\\"{value}\\"" in {dictionary}')
    for e in editions["editions"]:
        count += 1
        if f'"{e}"' not in tokens:
            failures.append(f'edition {e}: no token "\\"{e}\\"" in {dictionary}')
    for f in failures:
        print("FAIL: " + f)
    print(f"dictionary: {count} spellings checked, {len(failures)} missing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
