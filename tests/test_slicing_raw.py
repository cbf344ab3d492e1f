"""DML_OPERATOR_SLICE and DML_OPERATOR_SLICE1 as a C caller drives them: raw descs through
cffi and ctypes, every dtype, strided tensors and binding offsets, SLICE1 outputs smaller than
the window, and malformed descs with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc._examples.slicing import run_slice
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_slice, ref_slice1
from support import ALL_DTYPES, assert_same_bits, random_array

S0, S1 = "DML_OPERATOR_SLICE", "DML_OPERATOR_SLICE1"


def slice_desc(raw, tin, tout, offsets, sizes, strides, v1=True, ndim=None):
    """A SLICE1 (or SLICE) desc; an array given as None is NULL."""
    ndim = len(offsets if offsets is not None else sizes) if ndim is None else ndim
    if v1:
        return raw.op(lib.DML_OPERATOR_SLICE1, "DML_SLICE1_OPERATOR_DESC", {
            "InputTensor": tin, "OutputTensor": tout, "DimensionCount": ndim,
            "InputWindowOffsets": raw.uints(offsets), "InputWindowSizes": raw.uints(sizes),
            "InputWindowStrides": raw.new("INT[]", list(strides)) if strides is not None else ffi.NULL})
    return raw.op(lib.DML_OPERATOR_SLICE, "DML_SLICE_OPERATOR_DESC", {
        "InputTensor": tin, "OutputTensor": tout, "DimensionCount": ndim, "Offsets": raw.uints(offsets),
        "Sizes": raw.uints(sizes), "Strides": raw.uints(strides)})


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_slice_and_slice1_every_dtype(rng, dtype):
    x = random_array(rng, (3, 6, 8), dtype)
    raw = Raw()
    # SLICE: Offsets {1, 0, 2}, Sizes {2, 3, 3}, Strides {1, 2, 2}.
    y = np.zeros((2, 3, 3), dtype)
    desc = slice_desc(raw, raw.tensor_for(x), raw.tensor_for(y), [1, 0, 2], [2, 3, 3], [1, 2, 2], v1=False)
    assert execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8]) == (0, "")
    assert_same_bits(y, ref_slice(x, [1, 0, 2], [2, 3, 3], [1, 2, 2]))
    # SLICE1 with negative strides over a window.
    y1 = np.zeros((3, 2, 4), dtype)
    desc = slice_desc(raw, raw.tensor_for(x), raw.tensor_for(y1), [0, 1, 0], [3, 5, 8], [-1, -3, 2])
    assert execute(desc, [x], [y1], [x.nbytes + 8], [y1.nbytes + 8]) == (0, "")
    assert_same_bits(y1, ref_slice1(x, [0, 1, 0], [3, 5, 8], [-1, -3, 2]))


def test_page_examples_through_the_slice_operator():
    x = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
    np.testing.assert_array_equal(run_slice(x, [0, 0, 1, 2], [1, 1, 3, 2], [1, 1, 1, 1])[0, 0], [[7, 8], [11, 12], [15, 16]])
    np.testing.assert_array_equal(run_slice(x, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 3])[0, 0], [[5, 8], [13, 16]])


def test_slice1_output_may_be_smaller_than_the_window():
    """DirectML: 1 <= OutputSizes[i] <= 1 + (size - 1) / |stride|; the walk stops early."""
    x = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    raw = Raw()
    y = np.zeros((1, 2), np.float32)
    desc = slice_desc(raw, raw.tensor_for(x), raw.tensor_for(y), [0, 1], [4, 3], [-2, 2])
    assert execute(desc, [x], [y]) == (0, "")
    np.testing.assert_array_equal(y, [[14, 16]])  # the first row of the page's example 2


def test_strided_tensors_and_binding_offsets():
    """The input is the transpose of a stored 5 x 4 block (strides {1, 4}), bound 3 elements
    into its buffer; the output is written every other element."""
    store = np.arange(40, dtype=np.int16)
    x = store[3:23].reshape(5, 4).T  # {4, 5}
    raw = Raw()
    tin = raw.tensor(np.int16, (4, 5), strides=(1, 4))
    tout = raw.tensor(np.int16, (2, 3), strides=(6, 2))
    desc = slice_desc(raw, tin, tout, [1, 0], [3, 5], [2, -2])
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0, ffi.string(lib.dmlcGetLastErrorMessage())
    try:
        for _ in range(2):
            out = np.full(12, -1, np.int16)
            bi = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", store.ctypes.data), "Offset": 6,
                                                  "SizeInBytes": 40})
            bo = raw.bindings([out])
            assert lib.dmlcExecute(op[0], 1, bi, 1, bo) == 0, ffi.string(lib.dmlcGetLastErrorMessage())
            want = ref_slice1(x, [1, 0], [3, 5], [2, -2])
            np.testing.assert_array_equal(out.reshape(2, 6)[:, 0:6:2], want)
            assert (out.reshape(2, 6)[:, 1::2] == -1).all()
    finally:
        lib.dmlcReleaseOperator(op[0])


def test_broadcast_input():
    raw = Raw()
    x = np.array([5, 6, 7], np.uint8)
    y = np.zeros((4, 2), np.uint8)
    desc = slice_desc(raw, raw.tensor(np.uint8, (6, 3), strides=(0, 1)), raw.tensor_for(y), [1, 0], [4, 3], [1, -2])
    assert execute(desc, [x], [y], [4], [8]) == (0, "")
    np.testing.assert_array_equal(y, [[7, 5]] * 4)


def test_extreme_strides_on_axes_read_once():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    raw = Raw()
    y = np.zeros((1, 1), np.float32)
    desc = slice_desc(raw, raw.tensor_for(x), raw.tensor_for(y), [1, 2], [3, 4], [-2**31, 2**31 - 1])
    assert execute(desc, [x], [y]) == (0, "")
    assert y[0, 0] == x[3, 2]


def test_ctypes_slice1_negative_strides():
    so = rawctypes.library()
    x = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
    y = np.zeros((1, 1, 2, 2), np.float32)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    offsets = (rawctypes.UINT * 4)(0, 0, 0, 1)
    sizes = (rawctypes.UINT * 4)(1, 1, 4, 3)
    strides = (ctypes.c_int32 * 4)(1, 1, -2, 2)
    d = rawctypes.DML_SLICE1_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 4, offsets, sizes, strides)
    op = rawctypes.operator(lib.DML_OPERATOR_SLICE1, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y[0, 0], [[14, 16], [6, 8]])
    strides[3] = 0
    y[...] = 7
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == b"DML_OPERATOR_SLICE1: InputWindowStrides[3] is 0; a stride must not be 0"
    assert (y == 7).all()


def test_ctypes_slice():
    so = rawctypes.library()
    x = np.arange(25, dtype=np.uint32).reshape(5, 5)
    y = np.zeros((3, 2), np.uint32)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    d = rawctypes.DML_SLICE_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 2, (rawctypes.UINT * 2)(1, 1),
                                          (rawctypes.UINT * 2)(3, 2), (rawctypes.UINT * 2)(1, 2))
    op = rawctypes.operator(lib.DML_OPERATOR_SLICE, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, x[1:4, 1:4:2])  # DxDispatch's dml_slice.json, zero-based


# ---- malformed descs ------------------------------------------------------------------------

_DEFAULT = object()


def case(v1, in_sizes=(4, 5), out_sizes=(2, 2), offsets=(1, 0), sizes=_DEFAULT, strides=(2, 3), ndim=2, **tensors):
    """A valid SLICE ({4, 5} -> {2, 2}: Offsets {1, 0}, Sizes {2, 2}, Strides {2, 3}) or SLICE1
    (the window {3, 4} from {1, 0} with the same strides) with fields changed; in_/out_
    change the tensors."""
    raw = Raw()
    if sizes is _DEFAULT:
        sizes = (3, 4) if v1 else (2, 2)
    tin = raw.tensor(**{"dtype": np.float32, "sizes": in_sizes, **tensors.get("in_", {})})
    tout = raw.tensor(**{"dtype": np.float32, "sizes": out_sizes, **tensors.get("out_", {})})
    return raw, slice_desc(raw, tin, tout, offsets, sizes, strides, v1=v1, ndim=ndim)


BAD = [
    # (id, SLICE1?, case kwargs, HRESULT, message)
    ("valid SLICE", False, {}, 0, ""),
    ("valid SLICE1", True, {}, 0, ""),
    ("SLICE DimensionCount", False, dict(ndim=3), E_INVALIDARG,
     f"{S0}: DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("SLICE1 DimensionCount", True, dict(ndim=1), E_INVALIDARG,
     f"{S1}: DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("SLICE Offsets NULL", False, dict(offsets=None), E_POINTER, f"{S0}: Offsets is NULL"),
    ("SLICE Sizes NULL", False, dict(sizes=None), E_POINTER, f"{S0}: Sizes is NULL"),
    ("SLICE1 sizes NULL", True, dict(sizes=None), E_POINTER, f"{S1}: InputWindowSizes is NULL"),
    ("SLICE1 offsets NULL", True, dict(offsets=None), E_POINTER, f"{S1}: InputWindowOffsets is NULL"),
    ("SLICE Strides NULL", False, dict(strides=None), E_POINTER, f"{S0}: Strides is NULL"),
    ("SLICE1 strides NULL", True, dict(strides=None), E_POINTER, f"{S1}: InputWindowStrides is NULL"),
    ("SLICE stride 0", False, dict(strides=(1, 0)), E_INVALIDARG, f"{S0}: Strides[1] is 0, expected at least 1"),
    ("SLICE size 0", False, dict(sizes=(2, 0)), E_INVALIDARG, f"{S0}: Sizes[1] is 0, expected at least 1"),
    ("SLICE past the end", False, dict(offsets=(2, 0)), E_INVALIDARG,
     f"{S0}: Offsets[0] 2 + Strides[0] 2 * (Sizes[0] 2 - 1) is 4, past the end of InputTensor.Sizes[0] 4; every "
     "element read must lie inside the input"),
    ("SLICE huge", False, dict(offsets=(2**32 - 1, 0), strides=(2**32 - 1, 3)), E_INVALIDARG,
     f"{S0}: Offsets[0] 4294967295 + Strides[0] 4294967295 * (Sizes[0] 2 - 1) is 8589934590, past the end of "
     "InputTensor.Sizes[0] 4; every element read must lie inside the input"),
    ("SLICE output size", False, dict(out_sizes=(2, 3)), E_INVALIDARG,
     f"{S0}: OutputTensor.Sizes[1] is 3, expected 2 (Sizes[1])"),
    ("SLICE1 stride 0", True, dict(strides=(0, 3)), E_INVALIDARG,
     f"{S1}: InputWindowStrides[0] is 0; a stride must not be 0"),
    ("SLICE1 empty window", True, dict(sizes=(3, 0)), E_INVALIDARG,
     f"{S1}: InputWindowSizes[1] is 0; the window must not be empty"),
    ("SLICE1 window past the end", True, dict(offsets=(2, 0)), E_INVALIDARG,
     f"{S1}: InputWindowOffsets[0] 2 + InputWindowSizes[0] 3 is 5, more than InputTensor.Sizes[0] 4; the window must "
     "lie inside the input"),
    ("SLICE1 huge window", True, dict(offsets=(2**32 - 1, 0), sizes=(2**32 - 1, 4)), E_INVALIDARG,
     f"{S1}: InputWindowOffsets[0] 4294967295 + InputWindowSizes[0] 4294967295 is 8589934590, more than "
     "InputTensor.Sizes[0] 4; the window must lie inside the input"),
    ("SLICE1 output too large", True, dict(out_sizes=(2, 3)), E_INVALIDARG,
     f"{S1}: OutputTensor.Sizes[1] is 3, expected 1 to 2 (at most 1 + (InputWindowSizes[1] 4 - 1) / "
     "|InputWindowStrides[1]| 3 elements fit in the window)"),
    ("SLICE1 INT_MIN stride", True, dict(strides=(-2**31, 3)), E_INVALIDARG,
     f"{S1}: OutputTensor.Sizes[0] is 2, expected 1 to 1 (at most 1 + (InputWindowSizes[0] 3 - 1) / "
     "|InputWindowStrides[0]| 2147483648 elements fit in the window)"),
    ("SLICE1 output rank", True, dict(out_sizes=(2, 2, 1)), E_INVALIDARG,
     f"{S1}: OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("SLICE output type", False, dict(out_={"dtype": np.int32}), E_INVALIDARG,
     f"{S0}: OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
]


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(bad):
    _, v1, kw, want_hr, want_msg = bad
    raw, desc = case(v1, **kw)  # raw owns the desc's memory
    assert create(desc) == (want_hr, want_msg)
    src = np.arange(20, dtype=np.float32)
    dst = np.full(8, SENTINEL, np.uint32)
    hr, msg = execute(desc, [src], [dst], [80], [32])
    assert (hr, msg) == (want_hr, want_msg)
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    desc = slice_desc(raw, raw.tensor(np.float32, (10, 7)), ffi.NULL, [2, 0], [7, 7], [-3, 2])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [3, 4]
    # Inferring for NumPy's empty arrays: an empty window gives an empty axis.
    desc = slice_desc(raw, raw.tensor(np.float32, (0, 7), total=0), ffi.NULL, [0, 1], [0, 3], [1, 1])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:2] == [0, 3]
    desc = slice_desc(raw, raw.tensor(np.float32, (0, 7), total=0), ffi.NULL, [0, 1], [1, 3], [1, 1])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        f"{S1}: InputWindowOffsets[0] 0 + InputWindowSizes[0] 1 is 1, more than InputTensor.Sizes[0] 0; the window must "
        "lie inside the input")
