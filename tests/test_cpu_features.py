"""DMLC_CPU_FEATURES and dmlcGetCpuFeatures: the run-time switch to the portable kernels.

Each case runs in a child process, because the core reads the variable once per process.
What the CPU has is read independently from /proc/cpuinfo."""
import json
import os
import platform
import subprocess
import sys

import numpy as np
import pytest

import dmlc
from support import child_env
from dmlc.ffi import ffi, lib

E_INVALIDARG = -2147024809
E_POINTER = -2147467261

# The child reports dmlcGetCpuFeatures and what dmlcCreateOperator says before it looks at
# the desc, then the features again after the variable changed in its own environment
# (read once: no effect).  ctypes only, so that a child starts fast.
CHILD = r"""
import ctypes, json, os, sys
lib = ctypes.CDLL(sys.argv[1])
lib.dmlcGetLastErrorMessage.restype = ctypes.c_char_p
def features():
    p = ctypes.c_char_p()
    hr = lib.dmlcGetCpuFeatures(ctypes.byref(p))
    return [hr, p.value.decode(), lib.dmlcGetLastErrorMessage().decode()]
out = {"features": features()}
desc = (ctypes.c_int * 4)(64, 0, 0, 0)  # DML_OPERATOR_DESC {PADDING, Desc = NULL}
op = ctypes.c_void_p()
out["create"] = [lib.dmlcCreateOperator(desc, ctypes.byref(op)), lib.dmlcGetLastErrorMessage().decode()]
os.environ["DMLC_CPU_FEATURES"] = "bogus-after-the-first-read"
out["again"] = features()
print(json.dumps(out))
"""

# The same max pooling (the operator with an AVX2 path) in both dtypes that path takes,
# through the Python API, or the error it raises.
POOL_CHILD = r"""
import json, sys
import numpy as np
import dmlc
out = {}
for dtype in ("float32", "float16"):
    x = np.arange(2 * 3 * 9 * 20, dtype=np.float32).reshape(2, 3, 9, 20)[:, :, :, ::-1].copy()
    x[0, 1, 4, 7] = np.nan
    try:
        v, i = dmlc.max_pool(x.astype(dtype), 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
        out[dtype] = [v.astype(np.float64).tolist(), i.tolist()]
    except ValueError as e:
        out[dtype] = str(e)
print(json.dumps(out))
"""


def run_child(value, code=CHILD):
    """The child's report with DMLC_CPU_FEATURES=value (None: unset)."""
    env = child_env()
    env.pop("DMLC_CPU_FEATURES", None)
    if value is not None:
        env["DMLC_CPU_FEATURES"] = value
    # cwd: not a checkout's root, whose unbuilt dmlc/ `python -c` would import first.
    r = subprocess.run([sys.executable, "-c", code, dmlc.get_library_path()], env=env, capture_output=True,
                       text=True, timeout=120, cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def cpu_flags():
    """The x86 flags the kernel reports for this CPU (empty elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def expected_native():
    """What dmlcGetCpuFeatures should list with no restriction: the extensions dmlc has
    kernels for that this CPU has (x86-64 always has SSE2; other architectures run the
    portable kernels)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ""
    flags = cpu_flags()
    return " ".join(["sse2"] + [f for f in ("avx2", "f16c") if f in flags])


def reference_pool(dtype):
    from test_max_pooling import ref_max_pool
    x = np.arange(2 * 3 * 9 * 20, dtype=np.float32).reshape(2, 3, 9, 20)[:, :, :, ::-1].copy()
    x[0, 1, 4, 7] = np.nan
    v, i = ref_max_pool(x.astype(dtype), [3, 3], [2, 2], [1, 1], [1, 1], [1, 1])
    return [v.astype(np.float64).tolist(), i.tolist()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/cpuinfo")
@pytest.mark.parametrize("value", [None, "", "native"])
def test_default_uses_every_extension_the_cpu_has(value):
    got = run_child(value)
    assert got["features"] == [0, expected_native(), ""]
    assert got["create"] == [E_POINTER, "DML_OPERATOR_PADDING: desc->Desc is NULL"]  # past the check
    assert got["again"] == got["features"]  # read once: a later change does nothing


def test_generic_runs_the_portable_kernels_with_the_same_results():
    got = run_child("generic")
    assert got["features"] == [0, "", ""] and got["again"] == [0, "", ""]
    generic, native = run_child("generic", POOL_CHILD), run_child(None, POOL_CHILD)
    for dtype in ("float32", "float16"):
        want_v, want_i = reference_pool(dtype)
        assert np.isnan(np.array(want_v)).any()  # the vector path's NaN rule is part of the check
        for got in (generic[dtype], native[dtype]):
            np.testing.assert_array_equal(np.array(got[0]), np.array(want_v))  # NaN equals NaN here
            np.testing.assert_array_equal(np.array(got[1], np.uint64), np.array(want_i, np.uint64))


def unknown_value_message(value):
    shown = value if len(value) < 92 else value[:92] + "..."
    return (f'the environment variable DMLC_CPU_FEATURES is "{shown}", expected "generic" (only the '
            f'portable kernels) or "native" (every extension the CPU has), or unset')


@pytest.mark.parametrize("value", ["avx512", "GENERIC", "generic ", "x" * 200])
def test_an_unknown_value_is_an_error_naming_the_variable(value):
    got = run_child(value)
    message = unknown_value_message(value)
    assert got["features"] == [E_INVALIDARG, "", "dmlcGetCpuFeatures: " + message]
    assert got["create"] == [E_INVALIDARG, "dmlcCreateOperator: " + message]  # no operator on a misread setting
    assert got["again"] == got["features"]


def test_an_unknown_value_fails_every_python_call():
    got = run_child("avx2", POOL_CHILD)
    assert got == {dtype: "dmlcCreateOperator: " + unknown_value_message("avx2") for dtype in ("float32", "float16")}


def test_null_pointer():
    assert lib.dmlcGetCpuFeatures(ffi.NULL) == E_POINTER
    assert dmlc.ffi.last_error() == "dmlcGetCpuFeatures: features is NULL"


def test_this_process_runs_what_its_environment_asks():
    """The suite itself runs once with DMLC_CPU_FEATURES=generic in CI: this checks that it
    really ran the portable kernels then (and every extension otherwise)."""
    p = ffi.new("const char**")
    assert lib.dmlcGetCpuFeatures(p) == 0
    value = os.environ.get("DMLC_CPU_FEATURES", "")
    if value == "generic":
        assert ffi.string(p[0]).decode() == ""
    elif value in ("", "native") and sys.platform.startswith("linux"):
        assert ffi.string(p[0]).decode() == expected_native()
