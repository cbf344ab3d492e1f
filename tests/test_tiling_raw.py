"""DML_OPERATOR_TILE as a C caller drives it: raw descs through cffi and ctypes, every
dtype, strided tensors, the page's example, and malformed descs with their messages."""
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

BAD = [
    # (id, input sizes, output sizes, repeats, RepeatsCount, HRESULT, message)
    ("valid", (2, 3), (4, 3), [2, 1], None, 0, ""),
    ("RepeatsCount too small", (2, 3), (4, 3), [2, 1], 1, E_INVALIDARG,
     f"{OP}: RepeatsCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("RepeatsCount too large", (2, 3), (4, 3), [2, 1], 9, E_INVALIDARG,
     f"{OP}: RepeatsCount is 9, expected 2 (InputTensor.DimensionCount)"),
    ("Repeats NULL", (2, 3), (4, 3), None, 2, E_POINTER, f"{OP}: Repeats is NULL"),
    ("repeat 0", (2, 3), (4, 3), [2, 0], None, E_INVALIDARG, f"{OP}: Repeats[1] is 0, expected at least 1"),
    ("output size", (2, 3), (4, 4), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 4, expected 3 (InputTensor.Sizes[1] 3 * Repeats[1] 1)"),
    ("output past 32 bits", (2, 3), (4, 3), [2, 2**32 - 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 3, expected 12884901885 (InputTensor.Sizes[1] 3 * Repeats[1] 4294967295)"),
    ("output rank", (2, 3), (4, 3, 1), [2, 1], None, E_INVALIDARG,
     f"{OP}: OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
]


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(bad):
    _, in_sizes, out_sizes, repeats, count, want_hr, want_msg = bad
    raw = Raw()
    desc = tile_desc(raw, raw.tensor(np.float32, in_sizes), raw.tensor(np.float32, out_sizes), repeats, count)
    assert create(desc) == (want_hr, want_msg)
    src = np.arange(6, dtype=np.float32)
    dst = np.full(12, SENTINEL, np.uint32)
    assert execute(desc, [src], [dst]) == (want_hr, want_msg)
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
