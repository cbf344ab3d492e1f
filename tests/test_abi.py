"""The C ABI: struct layouts against directml.h's (via ctypes and cffi), enum values,
exported symbols, and what raw descs of every operator share (unimplemented types, the
thread-local error message).  Each operator family's raw descs are in its test_*_raw.py."""
import ctypes
import os
import re
import subprocess
import sys

import pytest

import dmlc
from dmlc.ffi import ffi, lib
from rawctypes import STRUCTS
from rawdesc import Raw
from support import child_env, library_has_threads


@pytest.mark.parametrize("name", sorted(STRUCTS))
def test_struct_layout_matches_directml(name):
    """cffi reads the installed header; ctypes (tests/rawctypes.py, which every ctypes test
    uses) is directml.h's layout transcribed by hand."""
    ref = STRUCTS[name]
    assert ffi.sizeof(name) == ctypes.sizeof(ref), name
    assert ffi.alignof(name) == ctypes.alignment(ref), name
    for field, _ in ref._fields_:
        assert ffi.offsetof(name, field) == getattr(ref, field).offset, f"{name}.{field}"
    assert [f for f, _ in ffi.typeof(name).fields] == [f for f, _ in ref._fields_]


# DML_OPERATOR_TYPE: a sample across the whole list, and the ones dmlc implements.
OPERATOR_VALUES = {
    "DML_OPERATOR_INVALID": 0, "DML_OPERATOR_ELEMENT_WISE_IDENTITY": 1, "DML_OPERATOR_CONVOLUTION": 53,
    "DML_OPERATOR_MAX_POOLING": 58, "DML_OPERATOR_SPLIT": 62, "DML_OPERATOR_JOIN": 63, "DML_OPERATOR_PADDING": 64,
    "DML_OPERATOR_SPACE_TO_DEPTH": 68, "DML_OPERATOR_DEPTH_TO_SPACE": 69, "DML_OPERATOR_MAX_POOLING1": 91,
    "DML_OPERATOR_SCATTER_ELEMENTS": 94, "DML_OPERATOR_SCATTER": 94, "DML_OPERATOR_MAX_POOLING2": 110,
    "DML_OPERATOR_DEPTH_TO_SPACE1": 113, "DML_OPERATOR_SPACE_TO_DEPTH1": 114, "DML_OPERATOR_PADDING1": 155,
    "DML_OPERATOR_MULTIHEAD_ATTENTION": 164, "DML_OPERATOR_UNFOLD": 177,
}


def test_enum_values():
    for name, value in OPERATOR_VALUES.items():
        assert getattr(lib, name) == value, name
    types = {"FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6, "INT16": 7, "INT8": 8,
             "FLOAT64": 9, "UINT64": 10, "INT64": 11, "UINT4": 12, "INT4": 13, "UNKNOWN": 0}
    for name, value in types.items():
        assert getattr(lib, "DML_TENSOR_DATA_TYPE_" + name) == value
    assert (lib.DML_TENSOR_TYPE_INVALID, lib.DML_TENSOR_TYPE_BUFFER) == (0, 1)
    assert (lib.DML_TENSOR_FLAG_NONE, lib.DML_TENSOR_FLAG_OWNED_BY_DML) == (0, 1)
    assert [getattr(lib, "DML_PADDING_MODE_" + m) for m in ("CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP")] == \
        [0, 1, 2, 3, 4]
    assert (lib.DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, lib.DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH) == (0, 1)


def test_operator_enum_is_complete_and_dense():
    """Every value 0..177 has exactly one name (SCATTER is ELEMENTS' alias)."""
    header = open(os.path.join(dmlc.get_include(), "directml_py.h")).read()
    pairs = re.findall(r"\b(DML_OPERATOR_\w+) = (\d+),", header)
    values = sorted(int(v) for n, v in pairs)
    assert values == list(range(178))
    assert "DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS" in header


def test_version():
    assert lib.dmlcGetVersion() == dmlc._core.HEADER_VERSION
    assert dmlc._core.HEADER_VERSION == (0 << 16) | (1 << 8) | 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF tools")
def test_exports_only_dmlc_symbols_and_no_libpython():
    path = dmlc.get_library_path()
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    names = [line.split()[-1] for line in out.splitlines() if line.strip()]
    assert names and all(n.startswith("dmlc") for n in names), names
    api = {"dmlcCreateOperator", "dmlcExecute", "dmlcReleaseOperator", "dmlcExecuteOperator",
           "dmlcCalcBufferTensorSize", "dmlcGetLastErrorMessage", "dmlcGetVersion", "dmlcSetThreadCount",
           "dmlcGetThreadCount", "dmlcGetCpuFeatures"}
    assert api <= set(names)
    ldd = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    assert "libpython" not in ldd


def test_calc_buffer_tensor_size():
    size = ffi.new("UINT64*")
    assert lib.dmlcCalcBufferTensorSize(1, 4, ffi.new("UINT[]", [1, 2, 3, 4]), ffi.NULL, size) == 0
    assert size[0] == 96
    # Strided: last element index (1*6 + 2*3 + 0) + 1 = 13 halves = 26 bytes, rounded to 28.
    assert lib.dmlcCalcBufferTensorSize(2, 3, ffi.new("UINT[]", [2, 3, 1]), ffi.new("UINT[]", [6, 3, 9]), size) == 0
    assert size[0] == 28
    assert lib.dmlcCalcBufferTensorSize(5, 1, ffi.new("UINT[]", [3]), ffi.NULL, size) == 0
    assert size[0] == 4
    hr = lib.dmlcCalcBufferTensorSize(12, 1, ffi.new("UINT[]", [3]), ffi.NULL, size)
    assert hr == -2147024809
    assert "dmlcCalcBufferTensorSize: type UINT4 is not supported" in dmlc.ffi.last_error()
    hr = lib.dmlcCalcBufferTensorSize(10, 3, ffi.new("UINT[]", [2 ** 32 - 1] * 3), ffi.NULL, size)
    assert hr == -2147024809 and "overflows 64 bits" in dmlc.ffi.last_error()
    assert lib.dmlcCalcBufferTensorSize(1, 1, ffi.new("UINT[]", [1]), ffi.NULL, ffi.NULL) == -2147467261


def test_thread_count_api():
    old = lib.dmlcGetThreadCount()
    # A single-threaded build accepts the request, and everything still runs on one thread.
    assert lib.dmlcSetThreadCount(3) == 0 and lib.dmlcGetThreadCount() == (3 if library_has_threads() else 1)
    assert lib.dmlcSetThreadCount(5000) == -2147024809
    assert "dmlcSetThreadCount: count is 5000, expected 0 to 1024" in dmlc.ffi.last_error()
    assert lib.dmlcSetThreadCount(0) == 0 and lib.dmlcGetThreadCount() == old


def test_num_threads_environment(tmp_path):
    code = "import dmlc; print(dmlc.get_num_threads())"
    env = child_env(DMLC_NUM_THREADS="3")
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("3" if library_has_threads() else "1")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF tools")
def test_threads_come_from_dmlc_itself():
    """The thread API tells the truth about the build: threads unless DMLC_NO_OPENMP=1 asked
    for a single-threaded build (CI builds and tests the core that way too), and never an
    OpenMP runtime linked (dmlc's threads are its own, src/threadpool.c)."""
    ldd = subprocess.run(["ldd", dmlc.get_library_path()], capture_output=True, text=True, check=True).stdout
    assert re.search(r"\blib(g|i|)omp[0-9]*\.so", ldd) is None, ldd
    assert library_has_threads() == (not os.environ.get("DMLC_NO_OPENMP"))


# ---- raw descs through cffi: what every operator shares ----------------------------------
def test_not_implemented_operator_names_the_type():
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_CONVOLUTION, "DML_DEPTH_TO_SPACE_OPERATOR_DESC", {})
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == -2147467263
    assert dmlc.ffi.last_error() == "DML_OPERATOR_CONVOLUTION: DML_OPERATOR_CONVOLUTION (53) is not implemented by dmlc"
    assert op[0] == ffi.NULL
    desc = raw.op(999, "DML_DEPTH_TO_SPACE_OPERATOR_DESC", {})
    assert lib.dmlcCreateOperator(desc, op) == -2147024809
    assert dmlc.ffi.last_error() == "dmlcCreateOperator: desc->Type is 999, which is not a DML_OPERATOR_TYPE"


def test_error_message_is_thread_local_and_cleared():
    import threading
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_CONVOLUTION, "DML_DEPTH_TO_SPACE_OPERATOR_DESC", {})
    op = ffi.new("DMLC_OPERATOR**")
    lib.dmlcCreateOperator(desc, op)
    seen = []
    t = threading.Thread(target=lambda: seen.append(dmlc.ffi.last_error()))
    t.start()
    t.join()
    assert seen == [""]
    assert "CONVOLUTION" in dmlc.ffi.last_error()
    size = ffi.new("UINT64*")
    lib.dmlcCalcBufferTensorSize(1, 1, ffi.new("UINT[]", [1]), ffi.NULL, size)
    assert dmlc.ffi.last_error() == ""
