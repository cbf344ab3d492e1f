"""Fixtures only.  Shared constants and helpers live in importable modules next to this
file (support.py, reference.py, rawdesc.py, rawctypes.py), which pyproject.toml's
`pythonpath = ["tests"]` puts on sys.path; the suite runs under --import-mode=importlib."""
import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
