"""Shared by the pytest tests of the Python module (docs/python.md): the seed every Hypothesis
run takes (printed; LO_HYPOTHESIS_SEED reproduces a run) and the paths ctest passes."""
import os
import random
import subprocess

import pytest

SEED = int(os.environ.get("LO_HYPOTHESIS_SEED") or random.SystemRandom().randrange(2**32))


def _seed_line():
    return f"Hypothesis seed: {SEED} (LO_HYPOTHESIS_SEED={SEED} reproduces this run)"


def pytest_report_header(config):
    return _seed_line()


def pytest_terminal_summary(terminalreporter):
    # Also at the end: ctest runs pytest with -q, which leaves the header out.
    terminalreporter.write_line(_seed_line())


@pytest.fixture(scope="session")
def seed():
    return SEED


@pytest.fixture(scope="session")
def oracle_binary():
    path = os.environ.get("LO_ORACLE_BINARY")
    if not path:
        pytest.fail("LO_ORACLE_BINARY is not set (ctest sets it)")
    return path


@pytest.fixture(scope="session")
def examples_dir():
    return os.environ.get("LO_EXAMPLES_DIR") or os.path.join(os.path.dirname(__file__), "..", "..",
                                                              "examples")


def binary_env():
    """The environment for the oracle binary: without the sanitizer runtime preloaded for the
    module (the sanitizer build's binary has its own, linked in)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def run(binary, *args):
    """The binary's exit status and standard output for ARGS."""
    r = subprocess.run([binary, *args], capture_output=True, timeout=120, env=binary_env())
    return r.returncode, r.stdout.decode("utf-8")


def read(path):
    with open(path, "rb") as f:
        return f.read()
