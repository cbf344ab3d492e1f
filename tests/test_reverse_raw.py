"""DML_OPERATOR_REVERSE_SUBSEQUENCES as a C caller drives it: raw descs through cffi and
ctypes, every data type, UINT32 and UINT64 lengths (past the end: clamped), strides and
broadcasts on every tensor, dmlcInferOutputSizes, an output bound over an input (refused),
threads, and malformed descs for every field with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC, DMLC_BUFFER_BINDING
from rawdesc import Raw, assert_create_fails, execute, execute_from_threads, infer
from reference import ref_reverse_subsequences
from support import ALL_DTYPES, assert_same_bits, random_array

REVERSE = lib.DML_OPERATOR_REVERSE_SUBSEQUENCES
P = "DML_OPERATOR_REVERSE_SUBSEQUENCES: "


def reverse_desc(raw, x_desc, l_desc, y_desc, axis):
    return raw.op(REVERSE, "DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC",
                  {"InputTensor": x_desc, "SequenceLengthsTensor": l_desc, "OutputTensor": y_desc, "Axis": axis})


def test_value_and_layout():
    """DirectML's value (106) and field order: three tensors, then Axis."""
    assert REVERSE == 106
    assert ffi.offsetof("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC", "SequenceLengthsTensor") == ffi.sizeof("void*")
    assert ffi.offsetof("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC", "Axis") == 3 * ffi.sizeof("void*")
    assert ffi.sizeof("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC") == 4 * ffi.sizeof("void*")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_type_through_cffi(rng, dtype):
    """Each data type on one axis (sampled), UINT32 or UINT64 lengths from 0 to past the end."""
    k = ALL_DTYPES.index(dtype)
    axis = k % 3
    x = random_array(rng, (3, 5, 4), dtype)
    lshape = list(x.shape)
    lshape[axis] = 1
    lengths = rng.integers(0, x.shape[axis] + 3, lshape).astype((np.uint32, np.uint64)[k % 2])
    y = np.full(x.shape, 7, dtype)
    raw = Raw()
    desc = reverse_desc(raw, raw.tensor_for(x), raw.tensor_for(lengths), raw.tensor_for(y), axis)
    hr, msg = execute(desc, [x, lengths], [y], [x.nbytes + 4, lengths.nbytes + 4], [y.nbytes + 4])
    assert hr == 0 and msg == "", msg
    assert_same_bits(y, ref_reverse_subsequences(x, lengths, axis))


@pytest.mark.parametrize("ltype", [np.uint32, np.uint64])
def test_length_values(ltype):
    """0 and 1 copy, n reverses all, anything past n (all ones too) is clamped to n."""
    x = np.arange(6 * 5, dtype=np.float32).reshape(6, 5)
    lengths = np.array([[0], [1], [2], [5], [6], [np.iinfo(ltype).max]], ltype)
    y = np.zeros_like(x)
    raw = Raw()
    hr, msg = execute(reverse_desc(raw, raw.tensor_for(x), raw.tensor_for(lengths), raw.tensor_for(y), 1),
                      [x, lengths], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y, [x[0], x[1], [11, 10, 12, 13, 14], x[3, ::-1], x[4, ::-1], x[5, ::-1]])


def test_strides_and_broadcasts(rng):
    """A strided input, lengths broadcast by zero strides (one per column or row, one for
    all), a transposed output, and a broadcast input."""
    base = random_array(rng, (6, 8), np.int16)
    x = base[::2, ::2]                                       # {3, 4}, strides {16, 2}
    one = np.array([2], np.uint64)
    for axis, lsizes, lstrides, lengths, full in (
            (0, (1, 4), (0, 1), np.array([3, 0, 2, 9], np.uint64), [[3, 0, 2, 9]]),
            (1, (3, 1), (1, 0), np.array([4, 1, 3], np.uint64), [[4], [1], [3]]),
            (0, (1, 4), (0, 0), one, [[2, 2, 2, 2]]),
            (1, (3, 1), (0, 0), one, [[2], [2], [2]])):
        y = np.zeros((4, 3), np.int16)                       # written as its transpose
        raw = Raw()
        desc = reverse_desc(raw, raw.tensor(np.int16, (3, 4), (16, 2)), raw.tensor(np.uint64, lsizes, lstrides),
                            raw.tensor(np.int16, (3, 4), (1, 3)), axis)
        hr, msg = execute(desc, [base, lengths], [y])
        assert hr == 0, msg
        assert_same_bits(y.T, ref_reverse_subsequences(x, np.array(full), axis))
    row = np.array([1, 2, 3, 4, 5], np.float64)              # one row broadcast to {4, 5}
    y = np.zeros((4, 5))
    lengths = np.array([[0], [2], [5], [3]], np.uint32)
    raw = Raw()
    hr, msg = execute(reverse_desc(raw, raw.tensor(np.float64, (4, 5), (0, 1)), raw.tensor_for(lengths),
                                   raw.tensor_for(y), 1), [row, lengths], [y])
    assert hr == 0, msg
    assert_same_bits(y, ref_reverse_subsequences(np.broadcast_to(row, (4, 5)), lengths, 1))


def test_output_overlapping_an_input_is_refused(rng):
    """Every element reads another one: no in place, and nothing written on refusal."""
    x = random_array(rng, (4, 5), np.float32)
    keep = x.copy()
    lengths = np.full((4, 1), 5, np.uint32)
    raw = Raw()
    desc = reverse_desc(raw, raw.tensor_for(x), raw.tensor_for(lengths), raw.tensor_for(x), 1)
    hr, msg = execute(desc, [x, lengths], [x])
    assert hr == E_INVALIDARG and msg == P + "outputs[0] overlaps inputs[0]; outputs may not alias inputs"
    big = np.zeros(8, np.uint32)
    ldesc = reverse_desc(raw, raw.tensor(np.uint32, (2, 4)), raw.tensor(np.uint32, (2, 1)),
                         raw.tensor(np.uint32, (2, 4)), 1)
    hr, msg = execute(ldesc, [np.arange(8, dtype=np.uint32), big[:2]], [big])
    assert hr == E_INVALIDARG and msg == P + "outputs[0] overlaps inputs[1]; outputs may not alias inputs"
    assert_same_bits(x, keep)
    assert np.all(big == 0)


def test_threads_and_long_rows(rng):
    """Few long rows (cut into pieces) and many short ones, from several threads at once."""
    for shape, axis in (((2, 100000), 1), ((3, 50000), 0), ((200, 3, 40), 1)):
        x = random_array(rng, shape, np.float32)
        lshape = list(shape)
        lshape[axis] = 1
        lengths = rng.integers(0, shape[axis] + 2, lshape).astype(np.uint32)
        raw = Raw()
        desc = reverse_desc(raw, raw.tensor_for(x), raw.tensor_for(lengths), raw.tensor_for(x), axis)
        execute_from_threads(desc, [x, lengths], ref_reverse_subsequences(x, lengths, axis))


def test_ctypes():
    so = rawctypes.library()
    keep = []
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)
    lengths = np.array([[[[2], [4], [3]]]], np.uint32)
    y = np.zeros_like(x)
    d = DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                               ctypes.pointer(rawctypes.tensor(lengths, keep)),
                                               ctypes.pointer(rawctypes.tensor(y, keep)), 3)
    op = rawctypes.operator(REVERSE, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(x), rawctypes.binding(lengths))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, [[[[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]]]])
    d.Axis = 4
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == P + "Axis is 4, expected less than 4 (InputTensor.DimensionCount)"


def test_infer_output_sizes():
    raw = Raw()
    x = raw.tensor(np.float32, (2, 5, 4), total=0)
    assert infer(reverse_desc(raw, x, raw.tensor(np.uint32, (2, 1, 4), total=0), ffi.NULL, 1)) == [(2, 5, 4)]
    # Empty inputs (NumPy's empty arrays) are allowed here.
    assert infer(reverse_desc(raw, raw.tensor(np.int8, (2, 0, 4), total=0),
                              raw.tensor(np.uint64, (2, 1, 4), total=0), ffi.NULL, 1)) == [(2, 0, 4)]
    assert infer(reverse_desc(raw, x, raw.tensor(np.uint32, (2, 1, 4), total=0), ffi.NULL, 0)) == (
        E_INVALIDARG, P + "SequenceLengthsTensor.Sizes[0] is 2, expected 1 (one length per sequence along Axis 0)")
    assert infer(reverse_desc(raw, x, raw.tensor(np.uint32, (2, 1, 4), total=0), ffi.NULL, 1), 2) == (
        E_INVALIDARG, P + "outputCount is 2, expected 1")


def malformed_cases():
    X, L = (4, 5), (4, 1)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def lt(raw, sizes=L, dtype=np.uint32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def case(x=None, ln=None, y=None, axis=1):
        return lambda r: reverse_desc(r, x(r) if x else t(r, X), ln(r) if ln else lt(r), y(r) if y else t(r, X), axis)

    return [
        ("input NULL", case(x=lambda r: ffi.NULL), E_POINTER, P + "InputTensor is NULL"),
        ("lengths NULL", case(ln=lambda r: ffi.NULL), E_POINTER, P + "SequenceLengthsTensor is NULL"),
        ("output NULL", case(y=lambda r: ffi.NULL), E_POINTER, P + "OutputTensor is NULL"),
        ("input 9 dims", case(x=lambda r: t(r, (1,) * 9)), E_INVALIDARG,
         P + "InputTensor.DimensionCount is 9, expected 1 to 8"),
        ("input 0 dims", case(x=lambda r: t(r, ())), E_INVALIDARG,
         P + "InputTensor.DimensionCount is 0, expected 1 to 8"),
        ("input size 0", case(x=lambda r: t(r, (4, 0))), E_INVALIDARG,
         P + "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("input unsupported type", case(x=lambda r: t(r, X, dml_type=12)), E_INVALIDARG,
         P + "InputTensor.DataType UINT4 is not supported"),
        ("input Type", case(x=lambda r: r.new("DML_TENSOR_DESC*", {"Type": 0})), E_INVALIDARG,
         P + "InputTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("input total size", case(x=lambda r: t(r, X, total=8)), E_INVALIDARG,
         P + "InputTensor.TotalTensorSizeInBytes is 8, expected at least 80 (DMLCalcBufferTensorSize)"),
        ("lengths int32", case(ln=lambda r: lt(r, L, np.int32)), E_INVALIDARG,
         P + "SequenceLengthsTensor.DataType is INT32, expected UINT32 or UINT64"),
        ("lengths int64", case(ln=lambda r: lt(r, L, np.int64)), E_INVALIDARG,
         P + "SequenceLengthsTensor.DataType is INT64, expected UINT32 or UINT64"),
        ("lengths uint16", case(ln=lambda r: lt(r, L, np.uint16)), E_INVALIDARG,
         P + "SequenceLengthsTensor.DataType is UINT16, expected UINT32 or UINT64"),
        ("lengths float", case(ln=lambda r: lt(r, L, np.float32)), E_INVALIDARG,
         P + "SequenceLengthsTensor.DataType is FLOAT32, expected UINT32 or UINT64"),
        ("lengths unsupported type", case(ln=lambda r: lt(r, L, dml_type=99)), E_INVALIDARG,
         P + "SequenceLengthsTensor.DataType 99 (not a DML_TENSOR_DATA_TYPE) is not supported"),
        ("lengths Type", case(ln=lambda r: r.new("DML_TENSOR_DESC*", {"Type": 2})), E_INVALIDARG,
         P + "SequenceLengthsTensor.Type is 2, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("lengths rank", case(ln=lambda r: lt(r, (1, 4, 1))), E_INVALIDARG,
         P + "SequenceLengthsTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ("lengths size on Axis", case(ln=lambda r: lt(r, (4, 5))), E_INVALIDARG,
         P + "SequenceLengthsTensor.Sizes[1] is 5, expected 1 (one length per sequence along Axis 1)"),
        ("lengths size off Axis", case(ln=lambda r: lt(r, (3, 1))), E_INVALIDARG,
         P + "SequenceLengthsTensor.Sizes[0] is 3, expected 4 (InputTensor.Sizes[0]; only Axis 1 differs)"),
        ("lengths size off Axis 0", case(ln=lambda r: lt(r, (1, 4)), axis=0), E_INVALIDARG,
         P + "SequenceLengthsTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1]; only Axis 0 differs)"),
        ("lengths size 0", case(ln=lambda r: lt(r, (4, 0))), E_INVALIDARG,
         P + "SequenceLengthsTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("lengths total size", case(ln=lambda r: lt(r, L, total=4)), E_INVALIDARG,
         P + "SequenceLengthsTensor.TotalTensorSizeInBytes is 4, expected at least 16 (DMLCalcBufferTensorSize)"),
        ("Axis", case(axis=2), E_INVALIDARG, P + "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"),
        ("Axis huge", case(axis=0xFFFFFFFF), E_INVALIDARG,
         P + "Axis is 4294967295, expected less than 2 (InputTensor.DimensionCount)"),
        ("output type", case(y=lambda r: t(r, X, np.float16)), E_INVALIDARG,
         P + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
        ("output rank", case(y=lambda r: t(r, (1, 4, 5))), E_INVALIDARG,
         P + "OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ("output size", case(y=lambda r: t(r, (4, 6))), E_INVALIDARG,
         P + "OutputTensor.Sizes[1] is 6, expected 5 (InputTensor.Sizes[1])"),
        ("output stride 0", case(y=lambda r: t(r, X, strides=(1, 0))), E_INVALIDARG,
         P + "OutputTensor.Strides[1] is 0 with Sizes[1]"),
        ("output total size", case(y=lambda r: t(r, X, total=12)), E_INVALIDARG,
         P + "OutputTensor.TotalTensorSizeInBytes is 12, expected at least 80 (DMLCalcBufferTensorSize)"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_the_output_untouched(rng):
    x = random_array(rng, (4, 5), np.float32)
    lengths = np.ones((4, 1), np.int32)
    y = np.full((4, 5), 3, np.float32)
    raw = Raw()
    hr, msg = execute(reverse_desc(raw, raw.tensor_for(x), raw.tensor_for(lengths), raw.tensor_for(y), 1),
                      [x, lengths], [y])
    assert hr == E_INVALIDARG and msg == P + "SequenceLengthsTensor.DataType is INT32, expected UINT32 or UINT64"
    assert np.all(y == 3)
