"""Shared by the tests of the Python module: where the built examples are, a tiny fabric."""

import os

import pytest

# A fabric and workload that run in milliseconds.
TINY = dict(leaves=2, hostsPerLeaf=2, spines=2, flowSize="256KiB", quiet=True)


@pytest.fixture
def tiny():
    return dict(TINY)


@pytest.fixture
def examples_dir():
    path = os.environ.get("REPS_EXAMPLES_DIR")
    if not path or not os.path.exists(os.path.join(path, "reps-lb-comparison")):
        pytest.skip("REPS_EXAMPLES_DIR does not hold reps-lb-comparison (run through ctest)")
    return path
