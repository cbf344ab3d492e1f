import functools
import os
import shlex
import shutil
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

ALL_DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8,
              np.uint64, np.uint32, np.uint16, np.uint8]

# DML_TENSOR_DATA_TYPE of each NumPy dtype.
DML_TYPE = {np.dtype(np.float32): 1, np.dtype(np.float16): 2, np.dtype(np.uint32): 3, np.dtype(np.uint16): 4,
            np.dtype(np.uint8): 5, np.dtype(np.int32): 6, np.dtype(np.int16): 7, np.dtype(np.int8): 8,
            np.dtype(np.float64): 9, np.dtype(np.uint64): 10, np.dtype(np.int64): 11}


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def child_env(**extra):
    """Environment for a child Python process that must import the dmlc under test
    (installed, or built in place in a checkout), never the checkout's unbuilt source that
    `python -m`/`-c` would find first in its working directory."""
    import dmlc
    here = os.path.dirname(os.path.dirname(os.path.abspath(dmlc.__file__)))
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    return env


@functools.lru_cache(maxsize=None)
def library_has_threads():
    """Whether the library under test splits large operators across threads.  A core built
    without OpenMP (DMLC_NO_OPENMP=1, or a compiler without it) runs everything on the
    calling thread, and dmlcGetThreadCount says so by reporting 1 whatever was asked."""
    import dmlc
    dmlc.set_num_threads(2)
    try:
        return dmlc.get_num_threads() == 2
    finally:
        dmlc.set_num_threads(0)


def compiler(cxx=False):
    """The C (or C++) compiler command the tests build programs with: $CC ($CXX), as CI sets
    it for its clang build, else cc (c++); None when there is none on PATH."""
    cmd = shlex.split(os.environ.get("CXX" if cxx else "CC", "")) or ["c++" if cxx else "cc"]
    return cmd if shutil.which(cmd[0]) else None
