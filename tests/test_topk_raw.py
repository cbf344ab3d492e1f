"""DML_OPERATOR_TOP_K and DML_OPERATOR_TOP_K1 as a C caller drives them: raw descs through
cffi and ctypes, every input dtype and index type, strided tensors, both directions, and a
table of malformed descs with their exact messages, through cffi and again through ctypes."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_top_k
from support import ALL_DTYPES, random_array


def top_k_desc(raw, tin, tval, tidx, axis, k, direction=None):
    """TOP_K1 with direction, TOP_K without."""
    fields = {"InputTensor": tin, "OutputValueTensor": tval, "OutputIndexTensor": tidx, "Axis": axis, "K": k}
    if direction is None:
        return raw.op(lib.DML_OPERATOR_TOP_K, "DML_TOP_K_OPERATOR_DESC", fields)
    return raw.op(lib.DML_OPERATOR_TOP_K1, "DML_TOP_K1_OPERATOR_DESC", dict(fields, AxisDirection=direction))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_and_index_type(rng, dtype):
    x = random_array(rng, (3, 4, 5), dtype)
    x[0, 1, :] = x[0, 1, 0]  # ties
    raw = Raw()
    for (axis, k, direction), idt in zip(((2, 3, None), (0, 2, 0), (1, 4, 1), (2, 5, 0)),
                                         (np.uint32, np.uint64, np.int32, np.int64)):
        wv, wi = ref_top_k(x, k, axis, direction != 0)
        v, i = np.zeros(wv.shape, dtype), np.zeros(wi.shape, idt)
        desc = top_k_desc(raw, raw.tensor_for(x), raw.tensor_for(v), raw.tensor_for(i), axis, k, direction)
        assert execute(desc, [x], [v, i]) == (0, "")
        np.testing.assert_array_equal(v, wv)
        np.testing.assert_array_equal(i, wi)


def test_the_pages_examples_through_a_created_operator_run_twice():
    x = np.array([[[[0, 1, 10, 11], [3, 2, 9, 8], [4, 5, 6, 7]]]], np.float32)
    raw = Raw()
    for axis, direction, wv, wi in ((3, None, [[[[11, 10], [9, 8], [7, 6]]]], [[[[3, 2], [2, 3], [3, 2]]]]),
                                    (2, 1, [[[[4, 5, 10, 11], [3, 2, 9, 8]]]], [[[[2, 2, 0, 0], [1, 1, 1, 1]]]]),
                                    (3, 0, [[[[0, 1], [2, 3], [4, 5]]]], [[[[0, 1], [1, 0], [0, 1]]]])):
        shape = np.array(wv).shape
        desc = top_k_desc(raw, raw.tensor_for(x), raw.tensor(np.float32, shape), raw.tensor(np.uint32, shape), axis,
                          2, direction)
        handle = ffi.new("DMLC_OPERATOR**")
        assert lib.dmlcCreateOperator(desc, handle) == 0
        try:
            for _ in range(2):
                v, i = np.zeros(shape, np.float32), np.zeros(shape, np.uint32)
                assert lib.dmlcExecute(handle[0], 1, raw.bindings([x]), 2, raw.bindings([v, i])) == 0
                np.testing.assert_array_equal(v, wv)
                np.testing.assert_array_equal(i, wi)
        finally:
            lib.dmlcReleaseOperator(handle[0])


def test_strided_input_and_outputs():
    """A transposed input ({4, 3} read from a stored 3 x 4 block), K 2 along axis 1, into
    every other element of both outputs."""
    store = np.array([[5, 1, 9, 9], [2, 8, 0, 3], [7, 7, 4, 6]], np.int16)
    vals = np.full(16, 77, np.int16)
    idx = np.full(16, 77, np.uint64)
    raw = Raw()
    desc = top_k_desc(raw, raw.tensor(np.int16, (4, 3), strides=(1, 4)), raw.tensor(np.int16, (4, 2), strides=(4, 2)),
                      raw.tensor(np.uint64, (4, 2), strides=(4, 2)), 1, 2, 1)
    assert execute(desc, [store], [vals, idx], [24], [vals.nbytes, idx.nbytes]) == (0, "")
    wv, wi = ref_top_k(store.T, 2, 1)
    np.testing.assert_array_equal(vals[::2].reshape(4, 2), wv)
    np.testing.assert_array_equal(idx[::2].reshape(4, 2), wi)
    assert (vals[1::2] == 77).all() and (idx[1::2] == 77).all()


def test_ctypes_top_k1():
    so = rawctypes.library()
    x = np.array([2, 7, 1, 7, 2], np.float32)
    v, i = np.zeros(4, np.float32), np.zeros(4, np.uint32)
    keep = []
    ti, tv, tx = rawctypes.tensor(x, keep), rawctypes.tensor(v, keep), rawctypes.tensor(i, keep)
    d = rawctypes.DML_TOP_K1_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(tv), ctypes.pointer(tx), 0, 4, 0)
    op = rawctypes.operator(lib.DML_OPERATOR_TOP_K1, d)
    bi = rawctypes.binding(x)
    bo = (type(bi) * 2)(rawctypes.binding(v), rawctypes.binding(i))
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 2, bo) == 0
    np.testing.assert_array_equal(v, [1, 2, 2, 7])
    np.testing.assert_array_equal(i, [2, 0, 4, 1])  # ties by ascending index
    d.AxisDirection = 2
    i[...] = 9
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 2, bo) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == (b"DML_OPERATOR_TOP_K1: AxisDirection is 2, expected 0 "
                                            b"(DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)")
    assert (i == 9).all()


# ---- malformed descs ------------------------------------------------------------------------

# The base desc: {2, 3} FLOAT32, K 2 along axis 1, into {2, 2} FLOAT32 values and UINT32 indices.
IN, VAL, IDX = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.float32, sizes=(2, 2)), dict(dtype=np.uint32,
                                                                                               sizes=(2, 2))
BAD = [
    # (id, in, values, indices, Axis, K, AxisDirection (TOP_K1), HRESULT, message without the operator)
    ("valid", IN, VAL, IDX, 1, 2, 0, 0, ""),
    ("valid INT64, K = n", IN, dict(VAL, sizes=(2, 3)), dict(IDX, dtype=np.int64, sizes=(2, 3)), 1, 3, 1, 0, ""),
    ("Axis 2", IN, VAL, IDX, 2, 2, 0, E_INVALIDARG, "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"),
    ("K 0", IN, VAL, IDX, 1, 0, 0, E_INVALIDARG, "K is 0, expected 1 to 3 (InputTensor.Sizes[1])"),
    ("K 4", IN, VAL, IDX, 1, 4, 0, E_INVALIDARG, "K is 4, expected 1 to 3 (InputTensor.Sizes[1])"),
    ("values on Axis", IN, dict(VAL, sizes=(2, 3)), IDX, 1, 2, 0, E_INVALIDARG,
     "OutputValueTensor.Sizes[1] is 3, expected 2 (K on Axis 1)"),
    ("indices on Axis", IN, VAL, dict(IDX, sizes=(2, 1)), 1, 2, 0, E_INVALIDARG,
     "OutputIndexTensor.Sizes[1] is 1, expected 2 (K on Axis 1)"),
    ("values other axis", IN, dict(VAL, sizes=(1, 2)), IDX, 1, 2, 0, E_INVALIDARG,
     "OutputValueTensor.Sizes[0] is 1, expected 2 (InputTensor.Sizes[0])"),
    ("values rank", IN, dict(VAL, sizes=(4,)), IDX, 1, 2, 0, E_INVALIDARG,
     "OutputValueTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("indices rank", IN, VAL, dict(IDX, sizes=(1, 2, 2)), 1, 2, 0, E_INVALIDARG,
     "OutputIndexTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("values type", IN, dict(VAL, dtype=np.float16), IDX, 1, 2, 0, E_INVALIDARG,
     "OutputValueTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
    ("indices FLOAT32", IN, VAL, dict(IDX, dtype=np.float32), 1, 2, 0, E_INVALIDARG,
     "OutputIndexTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
    ("indices UINT16", IN, VAL, dict(IDX, dtype=np.uint16), 1, 2, 0, E_INVALIDARG,
     "OutputIndexTensor.DataType is UINT16, expected INT32, INT64, UINT32 or UINT64"),
    ("input NULL", None, VAL, IDX, 1, 2, 0, E_POINTER, "InputTensor is NULL"),
    ("values NULL", IN, None, IDX, 1, 2, 0, E_POINTER, "OutputValueTensor is NULL"),
    ("indices NULL", IN, VAL, None, 1, 2, 0, E_POINTER, "OutputIndexTensor is NULL"),
    ("input of 9 dimensions", dict(IN, sizes=(1,) * 9), VAL, IDX, 1, 1, 0, E_INVALIDARG,
     "InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("input size 0", dict(IN, sizes=(2, 0), total=4), VAL, IDX, 1, 2, 0, E_INVALIDARG,
     "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("unsupported type", dict(IN, dml_type=13), VAL, IDX, 1, 2, 0, E_INVALIDARG,
     "InputTensor.DataType INT4 is not supported"),
    ("values written twice", IN, dict(VAL, strides=(0, 1), total=8), IDX, 1, 2, 0, E_INVALIDARG,
     "OutputValueTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("indices total size", IN, VAL, dict(IDX, total=8), 1, 2, 0, E_INVALIDARG,
     "OutputIndexTensor.TotalTensorSizeInBytes is 8, expected at least 16 (DMLCalcBufferTensorSize)"),
    ("AxisDirection 2", IN, VAL, IDX, 1, 2, 2, E_INVALIDARG,
     "AxisDirection is 2, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
    ("AxisDirection 0xFFFFFFFF", IN, VAL, IDX, 1, 2, 0xFFFFFFFF, E_INVALIDARG,
     "AxisDirection is -1, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
]


@pytest.mark.parametrize("op", ["DML_OPERATOR_TOP_K", "DML_OPERATOR_TOP_K1"])
@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(op, bad):
    _, tin, tval, tidx, axis, k, direction, want_hr, want_msg = bad
    if op == "DML_OPERATOR_TOP_K":
        if direction:
            want_hr, want_msg = 0, ""  # TOP_K has no AxisDirection
        direction = None
    want_msg = f"{op}: {want_msg}" if want_msg else ""
    raw = Raw()
    desc = top_k_desc(raw, raw.tensor(**tin) if tin else ffi.NULL, raw.tensor(**tval) if tval else ffi.NULL,
                      raw.tensor(**tidx) if tidx else ffi.NULL, axis, k, direction)
    hr, msg = create(desc)
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    src = np.arange(6, dtype=np.float32)
    dv = np.full(6, SENTINEL, np.uint32)
    di = np.full(6, SENTINEL, np.uint64)  # room for INT64 indices
    hr, msg = execute(desc, [src], [dv, di])
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    if want_hr:
        assert (dv == SENTINEL).all() and (di == SENTINEL).all(), "a failed call wrote to an output"


ctypes_tensor = rawctypes.malformed_tensor


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    so = rawctypes.library()
    _, tin, tval, tidx, axis, k, direction, want_hr, want_msg = bad
    keep = []
    d = rawctypes.DML_TOP_K1_OPERATOR_DESC(ctypes_tensor(keep, **tin) if tin else None,
                                           ctypes_tensor(keep, **tval) if tval else None,
                                           ctypes_tensor(keep, **tidx) if tidx else None, axis, k, direction)
    op = rawctypes.operator(lib.DML_OPERATOR_TOP_K1, d)
    src = np.arange(6, dtype=np.float32)
    dv = np.full(6, SENTINEL, np.uint32)
    di = np.full(6, SENTINEL, np.uint64)  # room for INT64 indices
    bi = rawctypes.binding(src)
    bo = (type(bi) * 2)(rawctypes.binding(dv), rawctypes.binding(di))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 2, bo)
    msg = so.dmlcGetLastErrorMessage().decode()
    assert hr == want_hr and msg.startswith(f"DML_OPERATOR_TOP_K1: {want_msg}" if want_msg else ""), msg
    if want_hr:
        assert (dv == SENTINEL).all() and (di == SENTINEL).all(), "a failed call wrote to an output"


def test_index_type_too_narrow_before_reading():
    """A sequence of 2**31 + 1 elements (stride 0) into INT32 indices: refused by its size
    alone; UINT32 holds index 2**31."""
    raw = Raw()
    n = 2**31 + 1
    tin = raw.tensor(np.float32, (n,), strides=(0,), total=4)
    for idt, want in ((np.int32, E_INVALIDARG), (np.uint32, 0)):
        desc = top_k_desc(raw, tin, raw.tensor(np.float32, (1,)), raw.tensor(idt, (1,)), 0, 1, 0)
        hr, msg = create(desc)
        assert hr == want, msg
        if want:
            assert msg == ("DML_OPERATOR_TOP_K1: OutputIndexTensor.DataType is INT32, which cannot hold index "
                           "2147483648 (the sequence length InputTensor.Sizes[0] 2147483649 - 1)")


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[2]")
    desc = top_k_desc(raw, raw.tensor(np.float32, (0, 3, 4), total=0), ffi.NULL, ffi.NULL, 2, 3, 1)
    assert lib.dmlcInferOutputSizes(desc, 0, 2, sizes) == 0
    for s in range(2):
        assert list(sizes[s].Sizes)[:sizes[s].DimensionCount] == [0, 3, 3]
    desc = top_k_desc(raw, raw.tensor(np.float32, (2, 3)), ffi.NULL, ffi.NULL, 0, 3)
    assert lib.dmlcInferOutputSizes(desc, 0, 2, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        "DML_OPERATOR_TOP_K: K is 3, expected 1 to 2 (InputTensor.Sizes[0])")
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == "DML_OPERATOR_TOP_K: outputCount is 1, expected 2"
