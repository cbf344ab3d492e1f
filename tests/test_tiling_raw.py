"""DML_OPERATOR_TILE as a C caller drives it: raw descs through cffi and ctypes, every
dtype, strided tensors, the page's example, and a table of malformed descs with their exact
messages, run through cffi and again built and run with ctypes' structs."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_tile
from support import ALL_DTYPES, assert_same_bits, random_array

OP = "DML_OPERATOR_TILE"


def tile_desc(raw, tin, tout, repeats, count=None):
    return raw.op(lib.DML_OPERATOR_TILE, "DML_TILE_OPERATOR_DESC", {
        "InputTensor": tin, "OutputTensor": tout, "RepeatsCount": len(repeats) if count is None else count,
        "Repeats": raw.uints(repeats) if repeats is not None else ffi.NULL})


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    x = random_array(rng, (2, 3, 4), dtype)
    y = np.zeros((4, 3, 12), dtype)
    raw = Raw()
    assert execute(tile_desc(raw, raw.tensor_for(x), raw.tensor_for(y), [2, 1, 3]), [x], [y],
                   [x.nbytes + 8], [y.nbytes + 8]) == (0, "")
    assert_same_bits(y, ref_tile(x, [2, 1, 3]))


def test_page_example_and_a_created_operator_run_twice():
    x = np.array([[[[1, 2, 3], [4, 5, 6]]]], np.float32)
    raw = Raw()
    desc = tile_desc(raw, raw.tensor_for(x), raw.tensor(np.float32, (1, 1, 6, 9)), [1, 1, 3, 3])
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    try:
        for _ in range(2):
            y = np.zeros((1, 1, 6, 9), np.float32)
            assert lib.dmlcExecute(op[0], 1, raw.bindings([x]), 1, raw.bindings([y])) == 0
            np.testing.assert_array_equal(y[0, 0], np.tile([[1, 2, 3], [4, 5, 6]], (3, 3)))
    finally:
        lib.dmlcReleaseOperator(op[0])


def test_strided_input_and_output():
    """A transposed input ({3, 2} read from a stored 2 x 3 block) into every other column."""
    store = np.arange(6, dtype=np.int64)
    x = store.reshape(2, 3).T
    out = np.full(6 * 8, -1, np.int64)
    raw = Raw()
    desc = tile_desc(raw, raw.tensor(np.int64, (3, 2), strides=(1, 3)), raw.tensor(np.int64, (6, 4), strides=(8, 2)),
                     [2, 2])
    assert execute(desc, [store], [out], [48], [out.nbytes]) == (0, "")
    grid = out.reshape(6, 8)
    np.testing.assert_array_equal(grid[:, 0:8:2], np.tile(x, (2, 2)))
    assert (grid[:, 1::2] == -1).all()


def test_ctypes_tile():
    so = rawctypes.library()
    x = np.array([[1, 2], [3, 4]], np.uint16)
    y = np.zeros((2, 4), np.uint16)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    reps = (rawctypes.UINT * 2)(1, 2)
    d = rawctypes.DML_TILE_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 2, reps)
    op = rawctypes.operator(lib.DML_OPERATOR_TILE, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, [[1, 2, 1, 2], [3, 4, 3, 4]])  # the page's description
    reps[1] = 0
    y[...] = 9
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == b"DML_OPERATOR_TILE: Repeats[1] is 0, expected at least 1"
    assert (y == 9).all()


# ---- malformed descs ------------------------------------------------------------------------

# The base desc: {2, 3} FLOAT32 tiled by {2, 1} into {4, 3}.  Each row changes it: "in" and
# "out" are Raw.tensor's arguments for InputTensor and OutputTensor (None: a NULL tensor).
IN, OUT = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.float32, sizes=(4, 3))
BAD = [
    # (id, in, out, repeats, RepeatsCount (None: len(repeats)), HRESULT, message)
    ("valid", IN, OUT, [2, 1], None, 0, ""),
    ("RepeatsCount too small", IN, OUT, [2, 1], 1, E_INVALIDARG,
     f"{OP}: RepeatsCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("RepeatsCount too large", IN, OUT, [2, 1], 9, E_INVALIDARG,
     f"{OP}: RepeatsCount is 9, expected 2 (InputTensor.DimensionCount)"),
    ("RepeatsCount 0", IN, OUT, [2, 1], 0, E_INVALIDARG,
     f"{OP}: RepeatsCount is 0, expected 2 (InputTensor.DimensionCount)"),
    ("Repeats NULL", IN, OUT, None, 2, E_POINTER, f"{OP}: Repeats is NULL"),
    ("repeat 0", IN, OUT, [2, 0], None, E_INVALIDARG, f"{OP}: Repeats[1] is 0, expected at least 1"),
    ("first repeat 0", IN, OUT, [0, 1], None, E_INVALIDARG, f"{OP}: Repeats[0] is 0, expected at least 1"),
    ("output size", IN, dict(OUT, sizes=(4, 4)), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 4, expected 3 (InputTensor.Sizes[1] 3 * Repeats[1] 1)"),
    ("output size of a repeated axis", IN, dict(OUT, sizes=(2, 3)), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[0] is 2, expected 4 (InputTensor.Sizes[0] 2 * Repeats[0] 2)"),
    ("output past 32 bits", IN, OUT, [2, 2**32 - 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 3, expected 12884901885 (InputTensor.Sizes[1] 3 * Repeats[1] 4294967295)"),
    ("output rank", IN, dict(OUT, sizes=(4, 3, 1)), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("output type", IN, dict(OUT, dtype=np.int32), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
    ("input NULL", None, OUT, [2, 1], None, E_POINTER, f"{OP}: InputTensor is NULL"),
    ("output NULL", IN, None, [2, 1], None, E_POINTER, f"{OP}: OutputTensor is NULL"),
    ("input of 9 dimensions", dict(IN, sizes=(1,) * 9), OUT, [1] * 9, None, E_INVALIDARG,
     f"{OP}: InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("input size 0", dict(IN, sizes=(2, 0), total=4), dict(OUT, sizes=(4, 0), total=4), [2, 1], None, E_INVALIDARG,
     f"{OP}: InputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("unsupported type", dict(IN, dml_type=13), OUT, [2, 1], None, E_INVALIDARG,
     f"{OP}: InputTensor.DataType INT4 is not supported (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, "
     "UINT64, UINT32, UINT16 or UINT8)"),
    ("output written twice", IN, dict(OUT, strides=(0, 1), total=12), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Strides[0] is 0 with Sizes[0] 4; an output element may not be written twice"),
    ("output total size", IN, dict(OUT, total=44), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.TotalTensorSizeInBytes is 44, expected at least 48 (DMLCalcBufferTensorSize)"),
    ("input total size", dict(IN, total=20), OUT, [2, 1], None, E_INVALIDARG,
     f"{OP}: InputTensor.TotalTensorSizeInBytes is 20, expected at least 24 (DMLCalcBufferTensorSize)"),
]


def run_bad(bad, executes):
    """The row's desc through cffi: created, then executed on a sentinel-filled output by
    executes(desc) -> (hr, message) (cffi's or ctypes' dmlcExecuteOperator)."""
    _, tin, tout, repeats, count, want_hr, want_msg = bad
    raw = Raw()
    desc = tile_desc(raw, raw.tensor(**tin) if tin else ffi.NULL, raw.tensor(**tout) if tout else ffi.NULL, repeats,
                     count)
    assert create(desc) == (want_hr, want_msg)
    dst = np.full(12, SENTINEL, np.uint32)
    assert executes(desc, dst) == (want_hr, want_msg)
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(bad):
    src = np.arange(6, dtype=np.float32)
    run_bad(bad, lambda desc, dst: execute(desc, [src], [dst]))


ctypes_tensor = rawctypes.malformed_tensor


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    """The same descs built with ctypes' structs (as a ctypes caller lays them out) and run
    with ctypes: the same HRESULTs and messages, and the output untouched."""
    so = rawctypes.library()
    _, tin, tout, repeats, count, want_hr, want_msg = bad
    keep = []
    reps = (rawctypes.UINT * len(repeats))(*repeats) if repeats is not None else None
    d = rawctypes.DML_TILE_OPERATOR_DESC(ctypes_tensor(keep, **tin) if tin else None,
                                         ctypes_tensor(keep, **tout) if tout else None,
                                         len(repeats) if count is None else count, reps)
    op = rawctypes.operator(lib.DML_OPERATOR_TILE, d)
    src = np.arange(6, dtype=np.float32)
    dst = np.full(12, SENTINEL, np.uint32)
    bi, bo = rawctypes.binding(src), rawctypes.binding(dst)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo))
    assert (hr, so.dmlcGetLastErrorMessage().decode()) == (want_hr, want_msg)
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    desc = tile_desc(raw, raw.tensor(np.float32, (0, 3), total=0), ffi.NULL, [5, 2])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [0, 6]
    desc = tile_desc(raw, raw.tensor(np.float32, (2, 3)), ffi.NULL, [2**31, 1])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        f"{OP}: OutputTensor.Sizes[0] would be 4294967296 (InputTensor.Sizes[0] 2 * Repeats[0] 2147483648), more than "
        "a tensor size can hold (4294967295)")
