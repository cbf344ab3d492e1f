"""What many test files share: the data types dmlc runs on, their DML_TENSOR_DATA_TYPE
codes, random inputs, and the environment of a child Python process.

The type table is read from the header through cffi (it knows directml_py.h's enums) and
from NumPy's type names, never retyped: DML_TENSOR_DATA_TYPE_FLOAT32 is np.float32 because
of its name.  tests/test_facts.py checks it against src/dtypes.def, the core's own table.
"""
import functools
import os
import re
import shlex
import shutil

import numpy as np

from dmlc.ffi import ffi

__all__ = ["ALL_DTYPES", "DML_TYPE", "assert_same_bits", "bits", "child_env", "random_array"]

_PREFIX = "DML_TENSOR_DATA_TYPE_"


def _dml_types():
    """{NumPy dtype: DML_TENSOR_DATA_TYPE value} for every enum member NumPy has a type of
    the same name and width for (UNKNOWN, UINT4 and INT4 have none)."""
    table = {}
    for name, value in sorted(ffi.typeof("DML_TENSOR_DATA_TYPE").relements.items(), key=lambda kv: kv[1]):
        short = name[len(_PREFIX):].lower()
        width = re.search(r"\d+$", short)
        scalar = getattr(np, short, None)
        if width and isinstance(scalar, type) and issubclass(scalar, np.number) \
                and np.dtype(scalar).itemsize * 8 == int(width.group()):
            table[np.dtype(scalar)] = value
    return table


# DML_TENSOR_DATA_TYPE of each NumPy dtype.
DML_TYPE = _dml_types()

# The NumPy types of every dmlc data type, floats then signed then unsigned, widest first
# (the order of the core's "expected FLOAT64, FLOAT32, ..." messages); type objects, so
# that parametrized test ids read float64, int8, ...
ALL_DTYPES = [d.type for d in sorted(DML_TYPE, key=lambda d: ("fiu".index(d.kind), -d.itemsize))]

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def bits(a):
    """a's elements as unsigned integers of the same width: compares NaN payloads, -0."""
    return a.view(_UNSIGNED[a.itemsize])


def assert_same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(bits(np.ascontiguousarray(got)), bits(np.ascontiguousarray(want)))


def child_env(**extra):
    """Environment for a child Python process that must import the dmlc under test
    (installed, or built in place in a checkout), never the checkout's unbuilt source that
    `python -m`/`-c` would find first in its working directory."""
    import dmlc
    here = os.path.dirname(os.path.dirname(os.path.abspath(dmlc.__file__)))
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    return env


def assert_portable_kernels_agree(tmp_path, code, count):
    """Runs code (a script that saves its results with np.savez to the file named by its
    argument) in a child process with DMLC_CPU_FEATURES=native and again with generic (the
    portable kernels only; docs/threads.rst) and checks that it saved count results, each
    bit for bit the same both ways."""
    import subprocess
    import sys
    files = {}
    for mode in ("native", "generic"):
        files[mode] = str(tmp_path / f"{mode}.npz")
        r = subprocess.run([sys.executable, "-c", code, files[mode]], env=child_env(DMLC_CPU_FEATURES=mode),
                           cwd=str(tmp_path), capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
    native, generic = np.load(files["native"]), np.load(files["generic"])
    assert len(native.files) == count
    for name in native.files:
        assert_same_bits(generic[name], native[name])


def child_cwd():
    """A working directory for child processes away from any checkout: `python -c` puts its
    working directory first on sys.path, where a checkout's unbuilt dmlc/ would shadow the
    dmlc under test (CI runs the suite from the repository root against the installed one)."""
    import tempfile
    return tempfile.gettempdir()


@functools.lru_cache(maxsize=None)
def library_has_threads():
    """Whether the library under test splits large operators across threads.  A core built
    single-threaded (DMLC_NO_OPENMP=1) runs everything on the calling thread, and
    dmlcGetThreadCount says so by reporting 1 whatever was asked."""
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
