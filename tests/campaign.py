"""The two instance sizes of a test labelled `campaign` (docs/testing.md, "Tiers"), for the Python
tests: the README's test command runs the small one; `ctest --preset campaign` sets LO_CAMPAIGN=1
and runs the full one. The C++ tests' twin is tests/campaign.hpp. A script of a folder below tests/
imports it with that folder's parent on sys.path."""
import os


def campaign():
    """Whether this run is the campaign tier's (LO_CAMPAIGN=1 in the environment)."""
    return os.environ.get("LO_CAMPAIGN") == "1"


def instance(small, full):
    """`full` in the campaign tier, else `small`."""
    return full if campaign() else small
