"""DML_OPERATOR_FILL_VALUE_CONSTANT, DML_OPERATOR_FILL_VALUE_SEQUENCE, DML_OPERATOR_DIAGONAL_MATRIX
and DML_OPERATOR_DIAGONAL_MATRIX1 as a C caller drives them: raw descs through cffi and ctypes
(no inputs: inputCount 0 and a NULL inputs pointer; DIAGONAL_MATRIX1's optional InputTensor
left out with its binding's Buffer NULL), the union's bits, strided outputs,
dmlcInferOutputSizes, and malformed descs."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, infer
from reference import ref_diagonal, ref_fill_sequence
from support import ALL_DTYPES, DML_TYPE, assert_same_bits

CONST = "DML_OPERATOR_FILL_VALUE_CONSTANT"
SEQ = "DML_OPERATOR_FILL_VALUE_SEQUENCE"
MEMBER = {"f": {2: "UInt16", 4: "Float32", 8: "Float64"}, "i": {1: "Int8", 2: "Int16", 4: "Int32", 8: "Int64"},
          "u": {1: "UInt8", 2: "UInt16", 4: "UInt32", 8: "UInt64"}}


def union(dtype, value):
    """A DML_SCALAR_UNION initialiser holding value as dtype (FLOAT16 as its bits)."""
    dtype = np.dtype(dtype)
    v = np.array(value, dtype)
    scalar = int(v.view(np.uint16)) if dtype == np.float16 else v.item()
    return {MEMBER[dtype.kind][dtype.itemsize]: scalar}


def constant_desc(raw, tout, value_type, value):
    return raw.op(lib.DML_OPERATOR_FILL_VALUE_CONSTANT, "DML_FILL_VALUE_CONSTANT_OPERATOR_DESC",
                  {"OutputTensor": tout, "ValueDataType": value_type, "Value": value})


def sequence_desc(raw, tout, value_type, start, delta):
    return raw.op(lib.DML_OPERATOR_FILL_VALUE_SEQUENCE, "DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC",
                  {"OutputTensor": tout, "ValueDataType": value_type, "ValueStart": start, "ValueDelta": delta})


def run(desc, out, size=None):
    raw = Raw()
    bo = raw.bindings([out], None if size is None else [size])
    hr = lib.dmlcExecuteOperator(desc, 0, ffi.NULL, 1, bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_through_cffi(dtype):
    raw = Raw()
    y = np.zeros((3, 4, 4), dtype)
    t = DML_TYPE[np.dtype(dtype)]
    assert run(sequence_desc(raw, raw.tensor_for(y), t, union(dtype, 5), union(dtype, 3)), y) == (0, "")
    assert_same_bits(y, ref_fill_sequence(y.shape, 5, 3, dtype))
    assert run(constant_desc(raw, raw.tensor_for(y), t, union(dtype, 9)), y) == (0, "")
    assert_same_bits(y, np.full(y.shape, 9, dtype))


def test_union_bits_beyond_the_member_are_ignored():
    """Only the low itemsize bytes count: an INT8 Value of 0x7F with garbage above it."""
    raw = Raw()
    y = np.zeros(8, np.int8)
    desc = constant_desc(raw, raw.tensor_for(y), lib.DML_TENSOR_DATA_TYPE_INT8, {"UInt64": 0xDEADBEEF0000007F})
    assert run(desc, y) == (0, "")
    assert (y == 127).all()
    desc = sequence_desc(raw, raw.tensor_for(y), lib.DML_TENSOR_DATA_TYPE_INT8, {"UInt64": 0xFFFFFFFFFFFFFF0A},
                         {"UInt64": 0x12345678000000FE})  # 10, then -2 each step
    assert run(desc, y) == (0, "")
    np.testing.assert_array_equal(y, 10 - 2 * np.arange(8))


def test_strided_output_leaves_the_gaps():
    raw = Raw()
    buf = np.full(20, SENTINEL, np.uint32)
    desc = sequence_desc(raw, raw.tensor(np.uint32, (2, 3), strides=(10, 3)), lib.DML_TENSOR_DATA_TYPE_UINT32,
                         {"UInt32": 1}, {"UInt32": 1})
    assert run(desc, buf) == (0, "")
    grid = buf.reshape(2, 10)
    np.testing.assert_array_equal(grid[:, 0:9:3], [[1, 2, 3], [4, 5, 6]])
    mask = np.ones((2, 10), bool)
    mask[:, 0:9:3] = False
    assert (grid[mask] == SENTINEL).all()


def test_ctypes_fill_sequence_and_infer():
    so = rawctypes.library()
    y = np.zeros(5, np.float32)
    keep = []
    start, delta = rawctypes.DML_SCALAR_UNION(), rawctypes.DML_SCALAR_UNION()
    start.Float32, delta.Float32 = 3.2, 1.5
    d = rawctypes.DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(y, keep)),
                                                        lib.DML_TENSOR_DATA_TYPE_FLOAT32, start, delta)
    op = rawctypes.operator(lib.DML_OPERATOR_FILL_VALUE_SEQUENCE, d)
    b = rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 0, None, 1, ctypes.byref(b)) == 0
    want = (np.arange(5) * np.float64(np.float32(1.5)) + np.float64(np.float32(3.2))).astype(np.float32)
    assert_same_bits(y, want)


def test_infer_output_sizes_returns_the_parameter():
    raw = Raw()
    desc = constant_desc(raw, raw.tensor(np.int16, (3, 0, 2), total=0), lib.DML_TENSOR_DATA_TYPE_INT16, {"Int16": 1})
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [3, 0, 2]
    desc = constant_desc(raw, ffi.NULL, lib.DML_TENSOR_DATA_TYPE_INT16, {"Int16": 1})
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_POINTER


# ---- malformed descs ------------------------------------------------------------------------

def case(op, out_=None, value_type=None, out_desc=None):
    raw = Raw()
    tout = dict(dtype=np.float32, sizes=(2, 3))
    tout.update(out_ or {})
    to = raw.tensor(**tout) if out_desc is None else out_desc
    vt = lib.DML_TENSOR_DATA_TYPE_FLOAT32 if value_type is None else value_type
    if op == CONST:
        return raw, constant_desc(raw, to, vt, {"Float32": 1.0})
    return raw, sequence_desc(raw, to, vt, {"Float32": 1.0}, {"Float32": 2.0})


BAD = [
    ("value type", dict(value_type=lib.DML_TENSOR_DATA_TYPE_INT32), E_INVALIDARG,
     "{op}: ValueDataType is INT32, expected FLOAT32 (OutputTensor.DataType)"),
    ("unknown value type", dict(value_type=99), E_INVALIDARG,
     "{op}: ValueDataType is 99 (not a DML_TENSOR_DATA_TYPE), expected FLOAT32 (OutputTensor.DataType)"),
    ("9 dimensions", dict(out_=dict(sizes=(1,) * 9)), E_INVALIDARG,
     "{op}: OutputTensor.DimensionCount is 9, expected 1 to 8"),
    ("zero size", dict(out_=dict(sizes=(2, 0))), E_INVALIDARG,
     "{op}: OutputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("zero output stride", dict(out_=dict(strides=(0, 1))), E_INVALIDARG,
     "{op}: OutputTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("no output", dict(out_desc=ffi.NULL), E_POINTER, "{op}: OutputTensor is NULL"),
    ("output too small", dict(out_=dict(total=20)), E_INVALIDARG,
     "{op}: OutputTensor.TotalTensorSizeInBytes is 20, expected at least 24 (DMLCalcBufferTensorSize)"),
]


@pytest.mark.parametrize("op", [CONST, SEQ])
@pytest.mark.parametrize("bad", BAD, ids=[c[0] for c in BAD])
def test_malformed(op, bad):
    _, change, want_hr, want_msg = bad
    raw, desc = case(op, **change)
    want_msg = want_msg.format(op=op)
    assert create(desc) == (want_hr, want_msg)
    dst = np.full(16, SENTINEL, np.uint32)
    assert run(desc, dst) == (want_hr, want_msg)
    assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_input_count_must_be_zero():
    raw = Raw()
    y = np.zeros(4, np.float32)
    desc = constant_desc(raw, raw.tensor_for(y), lib.DML_TENSOR_DATA_TYPE_FLOAT32, {"Float32": 1.0})
    b = raw.bindings([y])
    assert lib.dmlcExecuteOperator(desc, 1, b, 1, b) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == f"{CONST}: inputCount is 1, expected 0"


# ---- DIAGONAL_MATRIX and DIAGONAL_MATRIX1 ---------------------------------------------------
DIAG = "DML_OPERATOR_DIAGONAL_MATRIX"
DIAG1 = "DML_OPERATOR_DIAGONAL_MATRIX1"


def diagonal_desc(raw, tout, offset, value):
    return raw.op(lib.DML_OPERATOR_DIAGONAL_MATRIX, "DML_DIAGONAL_MATRIX_OPERATOR_DESC",
                  {"OutputTensor": tout, "Offset": offset, "Value": value})


def diagonal1_desc(raw, tin, tout, value_type, value, begin, end):
    return raw.op(lib.DML_OPERATOR_DIAGONAL_MATRIX1, "DML_DIAGONAL_MATRIX1_OPERATOR_DESC",
                  {"InputTensor": tin, "OutputTensor": tout, "ValueDataType": value_type, "Value": value,
                   "DiagonalFillBegin": begin, "DiagonalFillEnd": end})


def run1(desc, x, out):
    """DIAGONAL_MATRIX1: one input slot, bound to x or (x None) left with Buffer NULL."""
    raw = Raw()
    bo = raw.bindings([out])
    bi = ffi.new("DMLC_BUFFER_BINDING[1]") if x is None else raw.bindings([x])
    hr = lib.dmlcExecuteOperator(desc, 1, bi, 1, bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_diagonals_every_dtype_through_cffi(dtype):
    raw = Raw()
    t = DML_TYPE[np.dtype(dtype)]
    y = np.full((2, 3, 4), 9, dtype)
    assert run(diagonal_desc(raw, raw.tensor_for(y), -1, 2.75), y) == (0, "")
    assert_same_bits(y, np.broadcast_to(np.eye(3, 4, k=-1, dtype=dtype) * np.array(2.75, dtype), y.shape))
    y[...] = 9
    assert run1(diagonal1_desc(raw, ffi.NULL, raw.tensor_for(y), t, union(dtype, 5), 1, 3), None, y) == (0, "")
    assert_same_bits(y, ref_diagonal(y.shape, 1, 3, np.array(5, dtype), dtype))
    x = np.arange(24).astype(dtype).reshape(2, 3, 4)
    assert run1(diagonal1_desc(raw, raw.tensor_for(x), raw.tensor_for(y), t, union(dtype, 6), 2, -1), x, y) == (0, "")
    assert_same_bits(y, ref_diagonal(y.shape, 2, -1, np.array(6, dtype), dtype, x))


def test_diagonal_matrix_value_is_converted_as_padding():
    """The FLOAT Value: the page's 10.6 becomes 10; NaN 0; saturation; offset INT_MAX (End INT_MAX + 1)."""
    raw = Raw()
    for dtype, value, want in ((np.int8, 10.6, 10), (np.uint8, float("nan"), 0), (np.int16, -1e9, -32768),
                               (np.float64, 0.1, np.float64(np.float32(0.1)))):
        y = np.zeros((2, 2), dtype)
        assert run(diagonal_desc(raw, raw.tensor_for(y), 0, value), y) == (0, "")
        np.testing.assert_array_equal(y, np.eye(2, dtype=dtype) * np.array(want, dtype))
    y = np.ones((2, 2), np.int32)
    assert run(diagonal_desc(raw, raw.tensor_for(y), 2**31 - 1, 1.0), y) == (0, "")
    assert (y == 0).all()


def test_diagonal1_strided_input_and_output_leave_the_gaps():
    """InputTensor {3, 2} read with strides {4, 1}; OutputTensor {3, 2} written column-major
    (strides {1, 6}) into a 12-element buffer whose other elements keep their bytes."""
    raw = Raw()
    x = np.arange(12, dtype=np.uint16)
    buf = np.full(12, 0xBEEF, np.uint16)
    desc = diagonal1_desc(raw, raw.tensor(np.uint16, (3, 2), strides=(4, 1)),
                          raw.tensor(np.uint16, (3, 2), strides=(1, 6)), lib.DML_TENSOR_DATA_TYPE_UINT16,
                          {"UInt16": 7}, 0, 1)
    assert run1(desc, x, buf) == (0, "")
    written = [r + 6 * c for r in range(3) for c in range(2)]
    np.testing.assert_array_equal(buf[written].reshape(3, 2), [[7, 1], [4, 7], [8, 9]])
    assert (np.delete(buf, written) == 0xBEEF).all()


def test_diagonal1_absent_input_bound_is_refused():
    raw = Raw()
    y = np.zeros((2, 2), np.float32)
    desc = diagonal1_desc(raw, ffi.NULL, raw.tensor_for(y), lib.DML_TENSOR_DATA_TYPE_FLOAT32, {"Float32": 1}, 0, 1)
    x = np.zeros((2, 2), np.float32)
    assert run1(desc, x, y) == (E_INVALIDARG, f"{DIAG1}: inputs[0] is bound, but its optional tensor is absent "
                                              "from the desc")
    assert (y == 0).all()
    b = raw.bindings([y])
    assert lib.dmlcExecuteOperator(desc, 0, ffi.NULL, 1, b) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == f"{DIAG1}: inputCount is 0, expected 1"
    desc0 = diagonal_desc(raw, raw.tensor_for(y), 0, 1.0)
    assert lib.dmlcExecuteOperator(desc0, 1, b, 1, b) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == f"{DIAG}: inputCount is 1, expected 0"


def test_diagonal_ctypes_and_infer():
    so = rawctypes.library()
    keep = []
    x = np.arange(9, dtype=np.int64).reshape(3, 3)
    y = np.zeros((3, 3), np.int64)
    v = rawctypes.DML_SCALAR_UNION()
    v.Int64 = -1
    d = rawctypes.DML_DIAGONAL_MATRIX1_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                                     ctypes.pointer(rawctypes.tensor(y, keep)),
                                                     lib.DML_TENSOR_DATA_TYPE_INT64, v, -2**31, 0)
    op = rawctypes.operator(lib.DML_OPERATOR_DIAGONAL_MATRIX1, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, np.triu(x) - np.tril(np.ones((3, 3), np.int64), -1))
    d0 = rawctypes.DML_DIAGONAL_MATRIX_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(y, keep)), 1, 4.0)
    op0 = rawctypes.operator(lib.DML_OPERATOR_DIAGONAL_MATRIX, d0)
    assert so.dmlcExecuteOperator(ctypes.byref(op0), 0, None, 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, 4 * np.eye(3, k=1, dtype=np.int64))
    raw = Raw()
    # Without input: OutputTensor's sizes (0 allowed); with one: the input's, OutputTensor unread.
    assert infer(diagonal_desc(raw, raw.tensor(np.int8, (2, 0, 3), total=0), 0, 1.0)) == [(2, 0, 3)]
    desc = diagonal1_desc(raw, raw.tensor(np.int8, (4, 0, 5), total=0), ffi.NULL, lib.DML_TENSOR_DATA_TYPE_INT8,
                          {"Int8": 1}, 0, 1)
    assert infer(desc) == [(4, 0, 5)]
    desc = diagonal1_desc(raw, ffi.NULL, ffi.NULL, lib.DML_TENSOR_DATA_TYPE_INT8, {"Int8": 1}, 0, 1)
    assert infer(desc)[0] == E_POINTER


def diag_case(op, out_=None, in_=None, value_type=None, in_desc=None, out_desc=None):
    raw = Raw()
    tout = dict(dtype=np.float32, sizes=(2, 3))
    tout.update(out_ or {})
    to = raw.tensor(**tout) if out_desc is None else out_desc
    if op == DIAG:
        return raw, diagonal_desc(raw, to, 0, 1.0), False
    ti = in_desc if in_desc is not None else raw.tensor(**dict(dict(dtype=np.float32, sizes=(2, 3)), **in_)) \
        if in_ is not None else ffi.NULL
    vt = lib.DML_TENSOR_DATA_TYPE_FLOAT32 if value_type is None else value_type
    return raw, diagonal1_desc(raw, ti, to, vt, {"Float32": 1.0}, 0, 1), ti != ffi.NULL


DIAG_BAD = [
    ("1 dimension", DIAG, dict(out_=dict(sizes=(3,))), E_INVALIDARG,
     "{op}: OutputTensor.DimensionCount is 1, expected 2 to 8"),
    ("9 dimensions", DIAG1, dict(out_=dict(sizes=(1,) * 9)), E_INVALIDARG,
     "{op}: OutputTensor.DimensionCount is 9, expected 2 to 8"),
    ("zero size", DIAG, dict(out_=dict(sizes=(2, 0))), E_INVALIDARG,
     "{op}: OutputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("no output", DIAG, dict(out_desc=ffi.NULL), E_POINTER, "{op}: OutputTensor is NULL"),
    ("no output", DIAG1, dict(out_desc=ffi.NULL), E_POINTER, "{op}: OutputTensor is NULL"),
    ("zero output stride", DIAG1, dict(out_=dict(strides=(0, 1))), E_INVALIDARG,
     "{op}: OutputTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("value type", DIAG1, dict(value_type=lib.DML_TENSOR_DATA_TYPE_INT32), E_INVALIDARG,
     "{op}: ValueDataType is INT32, expected FLOAT32 (OutputTensor.DataType)"),
    ("value type with input", DIAG1, dict(in_={}, value_type=lib.DML_TENSOR_DATA_TYPE_UINT64), E_INVALIDARG,
     "{op}: ValueDataType is UINT64, expected FLOAT32 (InputTensor.DataType)"),
    ("unknown value type", DIAG1, dict(value_type=99), E_INVALIDARG,
     "{op}: ValueDataType is 99 (not a DML_TENSOR_DATA_TYPE), expected FLOAT32 (OutputTensor.DataType)"),
    ("input type", DIAG1, dict(in_=dict(dtype=np.float64), value_type=lib.DML_TENSOR_DATA_TYPE_FLOAT64), E_INVALIDARG,
     "{op}: OutputTensor.DataType is FLOAT32, expected FLOAT64 (InputTensor.DataType)"),
    ("input rank", DIAG1, dict(in_=dict(sizes=(1, 2, 3))), E_INVALIDARG,
     "{op}: OutputTensor.DimensionCount is 2, expected 3 (InputTensor.DimensionCount)"),
    ("input sizes", DIAG1, dict(in_=dict(sizes=(2, 4))), E_INVALIDARG,
     "{op}: OutputTensor.Sizes[1] is 3, expected 4 (InputTensor.Sizes[1])"),
    ("input 1 dimension", DIAG1, dict(in_=dict(sizes=(3,))), E_INVALIDARG,
     "{op}: InputTensor.DimensionCount is 1, expected 2 to 8"),
    ("input too small", DIAG1, dict(in_=dict(total=20)), E_INVALIDARG,
     "{op}: InputTensor.TotalTensorSizeInBytes is 20, expected at least 24 (DMLCalcBufferTensorSize)"),
]


@pytest.mark.parametrize("bad", DIAG_BAD, ids=[f"{c[1][13:]} {c[0]}" for c in DIAG_BAD])
def test_diagonal_malformed(bad):
    _, op, change, want_hr, want_msg = bad
    raw, desc, has_input = diag_case(op, **change)
    want_msg = want_msg.format(op=op)
    assert create(desc) == (want_hr, want_msg)
    dst = np.full(16, SENTINEL, np.uint32)
    if op == DIAG:
        assert run(desc, dst) == (want_hr, want_msg)
    else:
        assert run1(desc, np.zeros(16, np.float32) if has_input else None, dst) == (want_hr, want_msg)
    assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_diagonal1_executes_from_threads():
    """One DIAGONAL_MATRIX1 operator executed from three threads at once, each into its own output."""
    from rawdesc import execute_from_threads
    raw = Raw()
    x = np.arange(2 * 40 * 30, dtype=np.float32).reshape(2, 40, 30)
    desc = diagonal1_desc(raw, raw.tensor_for(x), raw.tensor_for(x), lib.DML_TENSOR_DATA_TYPE_FLOAT32,
                          {"Float32": -1.0}, -3, 4)
    execute_from_threads(desc, [x], ref_diagonal(x.shape, -3, 4, np.float32(-1), np.float32, x))
