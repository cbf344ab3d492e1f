"""DML_OPERATOR_ARGMIN and DML_OPERATOR_ARGMAX as a C caller drives them: raw descs through
cffi and ctypes, every input dtype and index type, strided tensors, several axes, and a
table of malformed descs with their exact messages, through cffi and again through ctypes."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_arg
from support import ALL_DTYPES, random_array

OPS = {"DML_OPERATOR_ARGMAX": (lib.DML_OPERATOR_ARGMAX, "DML_ARGMAX_OPERATOR_DESC", True),
       "DML_OPERATOR_ARGMIN": (lib.DML_OPERATOR_ARGMIN, "DML_ARGMIN_OPERATOR_DESC", False)}


def arg_desc(raw, op, tin, tout, axes, direction=0, count=None):
    value, struct, _ = OPS[op]
    return raw.op(value, struct, {
        "InputTensor": tin, "OutputTensor": tout, "AxisCount": len(axes) if count is None else count,
        "Axes": raw.uints(axes) if axes is not None else ffi.NULL, "AxisDirection": direction})


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("idt", [np.uint32, np.uint64, np.int32, np.int64])
def test_every_dtype_and_index_type(rng, op, dtype, idt):
    x = random_array(rng, (3, 4, 5), dtype)
    x[0, 1, :] = x[0, 1, 0]  # ties
    raw = Raw()
    for axes, direction in (([2], 0), ([0, 2], 1), ([1], 1)):
        want = ref_arg(x, axes, OPS[op][2], bool(direction))
        y = np.zeros(want.shape, idt)
        desc = arg_desc(raw, op, raw.tensor_for(x), raw.tensor_for(y), axes, direction)
        assert execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8]) == (0, "")
        np.testing.assert_array_equal(y, want)


def test_the_pages_examples_through_a_created_operator_run_twice():
    x = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], np.float32)
    raw = Raw()
    for op, axes, want in (("DML_OPERATOR_ARGMAX", [0], [[1, 2, 1]]), ("DML_OPERATOR_ARGMAX", [0, 1], [[7]]),
                           ("DML_OPERATOR_ARGMIN", [1], [[0], [1], [0]]), ("DML_OPERATOR_ARGMIN", [1, 0], [[4]])):
        shape = np.array(want).shape
        desc = arg_desc(raw, op, raw.tensor_for(x), raw.tensor(np.uint32, shape), axes)
        handle = ffi.new("DMLC_OPERATOR**")
        assert lib.dmlcCreateOperator(desc, handle) == 0
        try:
            for _ in range(2):
                y = np.zeros(shape, np.uint32)
                assert lib.dmlcExecute(handle[0], 1, raw.bindings([x]), 1, raw.bindings([y])) == 0
                np.testing.assert_array_equal(y, want)
        finally:
            lib.dmlcReleaseOperator(handle[0])


def test_strided_input_and_output():
    """A transposed input ({4, 3} read from a stored 3 x 4 block) reduced over axis 1 into
    every other element of the output."""
    store = np.array([[5, 1, 9, 9], [2, 8, 0, 3], [7, 7, 4, 6]], np.int16)
    out = np.full(8, 77, np.uint64)
    raw = Raw()
    desc = arg_desc(raw, "DML_OPERATOR_ARGMAX", raw.tensor(np.int16, (4, 3), strides=(1, 4)),
                    raw.tensor(np.uint64, (4, 1), strides=(2, 1)), [1], 1)
    assert execute(desc, [store], [out], [24], [out.nbytes]) == (0, "")
    np.testing.assert_array_equal(out[::2], ref_arg(store.T, [1], True, True).ravel())
    assert (out[1::2] == 77).all()


def test_ctypes_argmax():
    so = rawctypes.library()
    x = np.array([3, 2, 1, 2, 3], np.float32)
    y = np.zeros(1, np.uint32)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    axes = (rawctypes.UINT * 1)(0)
    d = rawctypes.DML_ARGMAX_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 1, axes, 1)
    op = rawctypes.operator(lib.DML_OPERATOR_ARGMAX, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    assert y[0] == 4  # the page's DECREASING example
    d.AxisDirection = 2
    y[...] = 9
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == (b"DML_OPERATOR_ARGMAX: AxisDirection is 2, expected 0 "
                                            b"(DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)")
    assert (y == 9).all()


# ---- malformed descs ------------------------------------------------------------------------

# The base desc: {2, 3} FLOAT32 reduced over axis 1 into {2, 1} UINT32.
IN, OUT = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.uint32, sizes=(2, 1))
BAD = [
    # (id, in, out, axes, AxisCount (None: len(axes)), AxisDirection, HRESULT, message without the operator)
    ("valid", IN, OUT, [1], None, 0, 0, ""),
    ("valid INT64", IN, dict(OUT, dtype=np.int64), [1], None, 1, 0, ""),
    ("AxisCount 0", IN, OUT, [1], 0, 0, E_INVALIDARG, "AxisCount is 0, expected 1 to 2 (InputTensor.DimensionCount)"),
    ("AxisCount 3", IN, OUT, [1, 0, 1], None, 0, E_INVALIDARG,
     "AxisCount is 3, expected 1 to 2 (InputTensor.DimensionCount)"),
    ("Axes NULL", IN, OUT, None, 1, 0, E_POINTER, "Axes is NULL"),
    ("axis out of range", IN, OUT, [2], None, 0, E_INVALIDARG,
     "Axes[0] is 2, expected less than 2 (InputTensor.DimensionCount)"),
    ("axis twice", IN, dict(OUT, sizes=(1, 1)), [1, 1], None, 0, E_INVALIDARG,
     "Axes[1] is 1, which an earlier axis already names"),
    ("AxisDirection 2", IN, OUT, [1], None, 2, E_INVALIDARG,
     "AxisDirection is 2, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
    ("AxisDirection 0xFFFFFFFF", IN, OUT, [1], None, 0xFFFFFFFF, E_INVALIDARG,
     "AxisDirection is -1, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
    ("reduced axis not 1", IN, dict(OUT, sizes=(2, 3)), [1], None, 0, E_INVALIDARG,
     "OutputTensor.Sizes[1] is 3, expected 1 (axis 1 is reduced)"),
    ("kept axis", IN, dict(OUT, sizes=(1, 1)), [1], None, 0, E_INVALIDARG,
     "OutputTensor.Sizes[0] is 1, expected 2 (InputTensor.Sizes[0])"),
    ("output rank", IN, dict(OUT, sizes=(2,)), [1], None, 0, E_INVALIDARG,
     "OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("output FLOAT32", IN, dict(OUT, dtype=np.float32), [1], None, 0, E_INVALIDARG,
     "OutputTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
    ("output UINT16", IN, dict(OUT, dtype=np.uint16), [1], None, 0, E_INVALIDARG,
     "OutputTensor.DataType is UINT16, expected INT32, INT64, UINT32 or UINT64"),
    ("input NULL", None, OUT, [1], None, 0, E_POINTER, "InputTensor is NULL"),
    ("output NULL", IN, None, [1], None, 0, E_POINTER, "OutputTensor is NULL"),
    ("input of 9 dimensions", dict(IN, sizes=(1,) * 9), OUT, [1], None, 0, E_INVALIDARG,
     "InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("input size 0", dict(IN, sizes=(2, 0), total=4), OUT, [1], None, 0, E_INVALIDARG,
     "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("unsupported type", dict(IN, dml_type=13), OUT, [1], None, 0, E_INVALIDARG,
     "InputTensor.DataType INT4 is not supported"),
    ("output written twice", IN, dict(OUT, strides=(0, 1), total=4), [1], None, 0, E_INVALIDARG,
     "OutputTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("output total size", IN, dict(OUT, total=4), [1], None, 0, E_INVALIDARG,
     "OutputTensor.TotalTensorSizeInBytes is 4, expected at least 8 (DMLCalcBufferTensorSize)"),
]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(op, bad):
    _, tin, tout, axes, count, direction, want_hr, want_msg = bad
    want_msg = f"{op}: {want_msg}" if want_msg else ""
    raw = Raw()
    desc = arg_desc(raw, op, raw.tensor(**tin) if tin else ffi.NULL, raw.tensor(**tout) if tout else ffi.NULL, axes,
                    direction, count)
    hr, msg = create(desc)
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    src = np.arange(6, dtype=np.float32)
    dst = np.full(4, SENTINEL, np.uint32)
    hr, msg = execute(desc, [src], [dst])
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


ctypes_tensor = rawctypes.malformed_tensor


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    so = rawctypes.library()
    _, tin, tout, axes, count, direction, want_hr, want_msg = bad
    keep = []
    ax = (rawctypes.UINT * len(axes))(*axes) if axes is not None else None
    d = rawctypes.DML_ARGMIN_OPERATOR_DESC(ctypes_tensor(keep, **tin) if tin else None,
                                           ctypes_tensor(keep, **tout) if tout else None,
                                           len(axes) if count is None else count, ax, direction)
    op = rawctypes.operator(lib.DML_OPERATOR_ARGMIN, d)
    src = np.arange(6, dtype=np.float32)
    dst = np.full(4, SENTINEL, np.uint32)
    bi, bo = rawctypes.binding(src), rawctypes.binding(dst)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo))
    msg = so.dmlcGetLastErrorMessage().decode()
    assert hr == want_hr and msg.startswith(f"DML_OPERATOR_ARGMIN: {want_msg}" if want_msg else ""), msg
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    desc = arg_desc(raw, "DML_OPERATOR_ARGMAX", raw.tensor(np.float32, (0, 3, 4), total=0), ffi.NULL, [2, 1])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [0, 1, 1]
    desc = arg_desc(raw, "DML_OPERATOR_ARGMIN", raw.tensor(np.float32, (2, 3)), ffi.NULL, [3])
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        "DML_OPERATOR_ARGMIN: Axes[0] is 3, expected less than 2 (InputTensor.DimensionCount)")
