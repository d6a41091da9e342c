#!/usr/bin/env python3
"""A non-conforming peer: coalesces under the equality `identity` whatever it is asked, like the
published implementation docs/spec.md §1.3 describes, whose audit can hide a trusted boundary.
`diff` must catch it.

usage: identity.py PLAN OUT [MODE [EQUALITY]]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402

if __name__ == "__main__":
    conforming.main(sys.argv, same_for=conforming.same_identity)
