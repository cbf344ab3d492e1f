"""DML_OPERATOR_CUMULATIVE_SUMMATION and DML_OPERATOR_CUMULATIVE_PRODUCT as a C caller
drives them: raw descs through cffi and ctypes, every dtype, strided tensors, in place
(OutputTensor bound to InputTensor's memory) and the overlaps refused, and a table of
malformed descs with their exact messages, through cffi and again through ctypes."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_cumulative
from support import ALL_DTYPES, assert_same_bits, random_array

OPS = {"DML_OPERATOR_CUMULATIVE_SUMMATION": (lib.DML_OPERATOR_CUMULATIVE_SUMMATION,
                                             "DML_CUMULATIVE_SUMMATION_OPERATOR_DESC", "HasExclusiveSum", False),
       "DML_OPERATOR_CUMULATIVE_PRODUCT": (lib.DML_OPERATOR_CUMULATIVE_PRODUCT,
                                           "DML_CUMULATIVE_PRODUCT_OPERATOR_DESC", "HasExclusiveProduct", True)}


def cu_desc(raw, op, tin, tout, axis, direction=0, exclusive=0):
    value, struct, flag, _ = OPS[op]
    return raw.op(value, struct, {"InputTensor": tin, "OutputTensor": tout, "Axis": axis, "AxisDirection": direction,
                                  flag: exclusive})


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, op, dtype):
    product = OPS[op][3]
    x = random_array(rng, (3, 4, 5), dtype)
    raw = Raw()
    # A BOOL is TRUE when non-zero: 7 is TRUE.
    for axis, direction, exclusive in ((2, 0, 0), (0, 1, 7), (1, 1, 0), (1, 0, 1)):
        want = ref_cumulative(x, axis, product, bool(exclusive), bool(direction))
        y = np.zeros_like(x)
        desc = cu_desc(raw, op, raw.tensor_for(x), raw.tensor_for(y), axis, direction, exclusive)
        assert execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8]) == (0, "")
        assert_same_bits(y, want)


def test_strided_input_and_output():
    """A transposed input ({4, 3} read from a stored 3 x 4 block) summed along axis 0 into
    every other element of the output."""
    store = np.array([[5, 1, 9, 9], [2, 8, 0, 3], [7, 7, 4, 6]], np.int16)
    out = np.full(24, 77, np.int16)
    raw = Raw()
    desc = cu_desc(raw, "DML_OPERATOR_CUMULATIVE_SUMMATION", raw.tensor(np.int16, (4, 3), strides=(1, 4)),
                   raw.tensor(np.int16, (4, 3), strides=(6, 2)), 0, 1, 0)
    assert execute(desc, [store], [out], [24], [out.nbytes]) == (0, "")
    np.testing.assert_array_equal(out[::2].reshape(4, 3), ref_cumulative(store.T, 0, False, False, True))
    assert (out[1::2] == 77).all()


def test_in_place_and_overlaps():
    """The pages allow OutputTensor to alias InputTensor exactly (same memory, sizes and
    strides); any other overlap is refused before anything is written."""
    raw = Raw()
    x = np.array([[2, 1, 3, 5], [3, 8, 7, 3]], np.float32)
    desc = cu_desc(raw, "DML_OPERATOR_CUMULATIVE_PRODUCT", raw.tensor_for(x), raw.tensor_for(x), 1, 0, 1)
    handle = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, handle) == 0
    try:
        assert lib.dmlcExecute(handle[0], 1, raw.bindings([x]), 1, raw.bindings([x])) == 0
        np.testing.assert_array_equal(x, [[1, 2, 2, 6], [1, 3, 24, 168]])
        buf = np.arange(1, 10, dtype=np.float32)
        shifted = raw.bindings([buf[1:]])
        assert lib.dmlcExecute(handle[0], 1, raw.bindings([buf]), 1, shifted) == E_INVALIDARG
        assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
            "DML_OPERATOR_CUMULATIVE_PRODUCT: outputs[0] overlaps inputs[0] without aliasing it exactly; in place, "
            "both must be bound at the same address")
        np.testing.assert_array_equal(buf, np.arange(1, 10))
    finally:
        lib.dmlcReleaseOperator(handle[0])
    # Transposed output over the input's memory: the layouts differ, so never in place.
    y = np.arange(1, 7, dtype=np.float32)
    desc = cu_desc(raw, "DML_OPERATOR_CUMULATIVE_SUMMATION", raw.tensor(np.float32, (2, 3)),
                   raw.tensor(np.float32, (2, 3), strides=(1, 2)), 1)
    hr, msg = execute(desc, [y], [y])
    assert hr == E_INVALIDARG and msg == ("DML_OPERATOR_CUMULATIVE_SUMMATION: outputs[0] overlaps inputs[0], but the "
                                          "tensors' strides differ; in place, InputTensor and OutputTensor need the "
                                          "same layout")
    np.testing.assert_array_equal(y, np.arange(1, 7))


def test_ctypes_cumulative_product():
    """DxDispatch's dml_cumulative_product.json as a C caller writes it with ctypes."""
    so = rawctypes.library()
    x = np.array([2, 4, 8, 3], np.float32).reshape(1, 1, 1, 4)
    y = np.zeros_like(x)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    d = rawctypes.DML_CUMULATIVE_PRODUCT_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 3, 0, 0)
    op = rawctypes.operator(lib.DML_OPERATOR_CUMULATIVE_PRODUCT, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y.ravel(), [2, 8, 64, 192])
    d.HasExclusiveProduct = 1
    d.AxisDirection = 1
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y.ravel(), [96, 24, 3, 1])


# ---- malformed descs ------------------------------------------------------------------------

# The base desc: {2, 3} FLOAT32 scanned along axis 1 into {2, 3} FLOAT32.
IN, OUT = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.float32, sizes=(2, 3))
BAD = [
    # (id, in, out, Axis, AxisDirection, HRESULT, message without the operator)
    ("valid", IN, OUT, 1, 0, 0, ""),
    ("valid DECREASING axis 0", IN, OUT, 0, 1, 0, ""),
    ("Axis 2", IN, OUT, 2, 0, E_INVALIDARG, "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"),
    ("Axis 0xFFFFFFFF", IN, OUT, 0xFFFFFFFF, 0, E_INVALIDARG,
     "Axis is 4294967295, expected less than 2 (InputTensor.DimensionCount)"),
    ("AxisDirection 2", IN, OUT, 1, 2, E_INVALIDARG,
     "AxisDirection is 2, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
    ("AxisDirection 0xFFFFFFFF", IN, OUT, 1, 0xFFFFFFFF, E_INVALIDARG,
     "AxisDirection is -1, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 (DML_AXIS_DIRECTION_DECREASING)"),
    ("output sizes", IN, dict(OUT, sizes=(2, 2)), 1, 0, E_INVALIDARG,
     "OutputTensor.Sizes[1] is 2, expected 3 (InputTensor.Sizes[1])"),
    ("output rank", IN, dict(OUT, sizes=(6,)), 0, 0, E_INVALIDARG,
     "OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("output type", IN, dict(OUT, dtype=np.float64), 1, 0, E_INVALIDARG,
     "OutputTensor.DataType is FLOAT64, expected FLOAT32 (InputTensor.DataType)"),
    ("input NULL", None, OUT, 1, 0, E_POINTER, "InputTensor is NULL"),
    ("output NULL", IN, None, 1, 0, E_POINTER, "OutputTensor is NULL"),
    ("input of 9 dimensions", dict(IN, sizes=(1,) * 9), OUT, 1, 0, E_INVALIDARG,
     "InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("input size 0", dict(IN, sizes=(2, 0), total=4), OUT, 1, 0, E_INVALIDARG,
     "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("unsupported type", dict(IN, dml_type=13), OUT, 1, 0, E_INVALIDARG, "InputTensor.DataType INT4 is not supported"),
    ("output written twice", IN, dict(OUT, strides=(0, 1), total=12), 1, 0, E_INVALIDARG,
     "OutputTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("output total size", IN, dict(OUT, total=20), 1, 0, E_INVALIDARG,
     "OutputTensor.TotalTensorSizeInBytes is 20, expected at least 24 (DMLCalcBufferTensorSize)"),
]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(op, bad):
    _, tin, tout, axis, direction, want_hr, want_msg = bad
    want_msg = f"{op}: {want_msg}" if want_msg else ""
    raw = Raw()
    desc = cu_desc(raw, op, raw.tensor(**tin) if tin else ffi.NULL, raw.tensor(**tout) if tout else ffi.NULL, axis,
                   direction)
    hr, msg = create(desc)
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    src = np.arange(6, dtype=np.float32)
    dst = np.full(6, SENTINEL, np.float32)
    hr, msg = execute(desc, [src], [dst])
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    so = rawctypes.library()
    _, tin, tout, axis, direction, want_hr, want_msg = bad
    keep = []
    d = rawctypes.DML_CUMULATIVE_SUMMATION_OPERATOR_DESC(
        rawctypes.malformed_tensor(keep, **tin) if tin else None,
        rawctypes.malformed_tensor(keep, **tout) if tout else None, axis, direction, 1)
    op = rawctypes.operator(lib.DML_OPERATOR_CUMULATIVE_SUMMATION, d)
    src = np.arange(6, dtype=np.float32)
    dst = np.full(6, SENTINEL, np.float32)
    bi, bo = rawctypes.binding(src), rawctypes.binding(dst)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo))
    msg = so.dmlcGetLastErrorMessage().decode()
    assert hr == want_hr and msg.startswith(f"DML_OPERATOR_CUMULATIVE_SUMMATION: {want_msg}" if want_msg else ""), msg
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    desc = cu_desc(raw, "DML_OPERATOR_CUMULATIVE_PRODUCT", raw.tensor(np.float32, (0, 3, 4), total=0), ffi.NULL, 2)
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [0, 3, 4]
    desc = cu_desc(raw, "DML_OPERATOR_CUMULATIVE_SUMMATION", raw.tensor(np.float32, (2, 3)), ffi.NULL, 0, 5)
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        "DML_OPERATOR_CUMULATIVE_SUMMATION: AxisDirection is 5, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 "
        "(DML_AXIS_DIRECTION_DECREASING)")
