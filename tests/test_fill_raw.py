"""DML_OPERATOR_FILL_VALUE_CONSTANT and DML_OPERATOR_FILL_VALUE_SEQUENCE as a C caller drives
them: raw descs through cffi and ctypes (no inputs: inputCount 0 and a NULL inputs pointer),
the union's bits, strided outputs, dmlcInferOutputSizes, and malformed descs."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create
from reference import ref_fill_sequence
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
