#!/usr/bin/env python3
"""A non-conforming peer: coalesces under the equality `identity` whatever it is asked, like the
published implementation the spec mentions ("it can merge capsules whose trust level or evidence
differ, so its audit hides a boundary"). `diff` must catch it.

usage: identity.py PLAN OUT [MODE [EQUALITY]]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conforming  # noqa: E402

if __name__ == "__main__":
    conforming.main(sys.argv, same_for=conforming.same_identity)
