"""The C ABI: struct layouts against directml.h's (via ctypes and cffi), enum values,
exported symbols, and raw DML_*_OPERATOR_DESC structs driven through ctypes and cffi."""
import ctypes
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import dmlc
from conftest import child_env, library_has_threads
from dmlc.ffi import ffi, lib

# ---- directml.h's layout, transcribed with ctypes -------------------------------------
UINT = ctypes.c_uint32
PUINT = ctypes.POINTER(UINT)


class DML_BUFFER_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("DataType", ctypes.c_int), ("Flags", ctypes.c_int), ("DimensionCount", UINT),
                ("Sizes", PUINT), ("Strides", PUINT), ("TotalTensorSizeInBytes", ctypes.c_uint64),
                ("GuaranteedBaseOffsetAlignment", UINT)]


class DML_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class DML_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


PT = ctypes.POINTER(DML_TENSOR_DESC)


class DML_SCALAR_UNION(ctypes.Union):
    _fields_ = [("Bytes", ctypes.c_uint8 * 8), ("Int8", ctypes.c_int8), ("UInt8", ctypes.c_uint8),
                ("Int16", ctypes.c_int16), ("UInt16", ctypes.c_uint16), ("Int32", ctypes.c_int32),
                ("UInt32", ctypes.c_uint32), ("Int64", ctypes.c_int64), ("UInt64", ctypes.c_uint64),
                ("Float32", ctypes.c_float), ("Float64", ctypes.c_double)]


def _struct(name, fields):
    return type(name, (ctypes.Structure,), {"_fields_": fields})


STRUCTS = {
    "DML_BUFFER_TENSOR_DESC": DML_BUFFER_TENSOR_DESC,
    "DML_TENSOR_DESC": DML_TENSOR_DESC,
    "DML_OPERATOR_DESC": DML_OPERATOR_DESC,
    "DML_SCALAR_UNION": DML_SCALAR_UNION,
    "DML_SPACE_TO_DEPTH_OPERATOR_DESC": _struct("S2D", [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT)]),
    "DML_DEPTH_TO_SPACE_OPERATOR_DESC": _struct("D2S", [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT)]),
    "DML_SPACE_TO_DEPTH1_OPERATOR_DESC": _struct("S2D1", [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT),
                                                          ("Order", ctypes.c_int)]),
    "DML_DEPTH_TO_SPACE1_OPERATOR_DESC": _struct("D2S1", [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT),
                                                          ("Order", ctypes.c_int)]),
    "DML_PADDING_OPERATOR_DESC": _struct("PAD", [("InputTensor", PT), ("OutputTensor", PT), ("PaddingMode", ctypes.c_int),
                                                 ("PaddingValue", ctypes.c_float), ("DimensionCount", UINT),
                                                 ("StartPadding", PUINT), ("EndPadding", PUINT)]),
    "DML_PADDING1_OPERATOR_DESC": _struct("PAD1", [("InputTensor", PT), ("OutputTensor", PT), ("PaddingMode", ctypes.c_int),
                                                   ("PaddingValueDataType", ctypes.c_int),
                                                   ("PaddingValue", DML_SCALAR_UNION), ("DimensionCount", UINT),
                                                   ("StartPadding", PUINT), ("EndPadding", PUINT)]),
    "DML_SPLIT_OPERATOR_DESC": _struct("SPLIT", [("InputTensor", PT), ("OutputCount", UINT), ("OutputTensors", PT),
                                                 ("Axis", UINT)]),
    "DML_JOIN_OPERATOR_DESC": _struct("JOIN", [("InputCount", UINT), ("InputTensors", PT), ("OutputTensor", PT),
                                               ("Axis", UINT)]),
    "DML_MAX_POOLING_OPERATOR_DESC": _struct("MP", [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT),
                                                    ("Strides", PUINT), ("WindowSize", PUINT), ("StartPadding", PUINT),
                                                    ("EndPadding", PUINT)]),
    "DML_MAX_POOLING1_OPERATOR_DESC": _struct("MP1", [("InputTensor", PT), ("OutputTensor", PT),
                                                      ("OutputIndicesTensor", PT), ("DimensionCount", UINT),
                                                      ("Strides", PUINT), ("WindowSize", PUINT),
                                                      ("StartPadding", PUINT), ("EndPadding", PUINT)]),
    "DML_MAX_POOLING2_OPERATOR_DESC": _struct("MP2", [("InputTensor", PT), ("OutputTensor", PT),
                                                      ("OutputIndicesTensor", PT), ("DimensionCount", UINT),
                                                      ("Strides", PUINT), ("WindowSize", PUINT),
                                                      ("StartPadding", PUINT), ("EndPadding", PUINT),
                                                      ("Dilations", PUINT)]),
}


class DMLC_BUFFER_BINDING(ctypes.Structure):
    _fields_ = [("Buffer", ctypes.c_void_p), ("Offset", ctypes.c_uint64), ("SizeInBytes", ctypes.c_uint64)]


STRUCTS["DMLC_BUFFER_BINDING"] = DMLC_BUFFER_BINDING


@pytest.mark.parametrize("name", sorted(STRUCTS))
def test_struct_layout_matches_directml(name):
    """cffi reads the installed header; ctypes is directml.h's layout transcribed by hand."""
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
    # Without OpenMP the request is accepted, and everything still runs on one thread.
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
def test_threads_reported_match_the_openmp_runtime_linked():
    """The thread API tells the truth about the build: threads exactly when an OpenMP
    runtime is linked, and none when DMLC_NO_OPENMP=1 asked for a build without it (CI
    builds and tests the core that way too)."""
    ldd = subprocess.run(["ldd", dmlc.get_library_path()], capture_output=True, text=True, check=True).stdout
    openmp = re.search(r"\blib(g|i|)omp[0-9]*\.so", ldd) is not None
    assert library_has_threads() == openmp, ldd
    if os.environ.get("DMLC_NO_OPENMP"):
        assert not openmp, ldd


# ---- raw structs through ctypes --------------------------------------------------------
def test_ctypes_depth_to_space1():
    so = ctypes.CDLL(dmlc.get_library_path())
    so.dmlcExecuteOperator.restype = ctypes.c_int32
    so.dmlcGetLastErrorMessage.restype = ctypes.c_char_p
    x = np.arange(1 * 8 * 2 * 3, dtype=np.uint32).reshape(1, 8, 2, 3)
    y = np.zeros((1, 2, 4, 6), np.uint32)
    si, so_ = (UINT * 4)(*x.shape), (UINT * 4)(*y.shape)
    bi = DML_BUFFER_TENSOR_DESC(3, 0, 4, si, None, x.nbytes, 0)
    bo = DML_BUFFER_TENSOR_DESC(3, 0, 4, so_, None, y.nbytes, 0)
    ti, to = DML_TENSOR_DESC(1, ctypes.addressof(bi)), DML_TENSOR_DESC(1, ctypes.addressof(bo))
    d = STRUCTS["DML_DEPTH_TO_SPACE1_OPERATOR_DESC"](ctypes.pointer(ti), ctypes.pointer(to), 2, 1)
    op = DML_OPERATOR_DESC(113, ctypes.addressof(d))
    bind_in = DMLC_BUFFER_BINDING(x.ctypes.data, 0, x.nbytes)
    bind_out = DMLC_BUFFER_BINDING(y.ctypes.data, 0, y.nbytes)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, dmlc.depth_to_space(x, 2, order="column_row_depth"))
    # The same desc with a bad block size: E_INVALIDARG, message, output untouched.
    d.BlockSize = 3
    y[...] = 7
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == (b"DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.Sizes[1] is 8, not divisible "
                                            b"by BlockSize * BlockSize (9)")
    assert np.all(y == 7)


# ---- raw structs through cffi: create once, execute many, strides and offsets ----------
def test_cffi_space_to_depth_v0_strided_and_offsets():
    from rawdesc import Raw
    raw = Raw()
    # Input {1, 1, 4, 6} stored transposed (W-major): strides {24, 24, 1, 4}.
    space = np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6)
    storage = np.zeros(64, np.float32)
    storage[8:8 + 24] = space[0, 0].T.ravel()  # element offset 8 inside the buffer
    ti = raw.tensor(np.float32, (1, 1, 4, 6), strides=(24, 24, 1, 4))
    to = raw.tensor(np.float32, (1, 4, 2, 3))
    desc = raw.op(lib.DML_OPERATOR_SPACE_TO_DEPTH, "DML_SPACE_TO_DEPTH_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": to, "BlockSize": 2})
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0, dmlc.ffi.last_error()
    try:
        for _ in range(3):
            out = np.zeros((1, 4, 2, 3), np.float32)
            bi = ffi.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", storage.ctypes.data), "Offset": 8 * 4,
                                                  "SizeInBytes": storage.nbytes - 32})
            bo = ffi.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", out.ctypes.data), "Offset": 0,
                                                  "SizeInBytes": out.nbytes})
            assert lib.dmlcExecute(op[0], 1, bi, 1, bo) == 0, dmlc.ffi.last_error()
            np.testing.assert_array_equal(out, dmlc.space_to_depth(space, 2))
    finally:
        lib.dmlcReleaseOperator(op[0])
    lib.dmlcReleaseOperator(ffi.NULL)  # accepts NULL


def test_not_implemented_operator_names_the_type():
    from rawdesc import Raw
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
    from rawdesc import Raw
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
