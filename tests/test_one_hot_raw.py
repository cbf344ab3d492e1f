"""DML_OPERATOR_ONE_HOT as a C caller drives it: raw descs through cffi and ctypes, every data
type and the four index types, every Axis of 1 to 8 dimensions, the ValuesTensor's OnValue
found along its innermost dimension of size > 1 through its Strides (the page's {1,1,3,1}),
strided and broadcast tensors, dmlcInferOutputSizes (the depth is a parameter: read from
OutputTensor), threads, and malformed descs for every field with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_ONE_HOT_OPERATOR_DESC, DMLC_BUFFER_BINDING
from rawdesc import Raw, assert_create_fails, execute, execute_from_threads, infer, padded
from reference import ref_one_hot
from support import ALL_DTYPES, assert_same_bits, random_array

ONE_HOT = lib.DML_OPERATOR_ONE_HOT
OH = "DML_OPERATOR_ONE_HOT: "
INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]


def one_hot_desc(raw, i_desc, v_desc, y_desc, axis):
    return raw.op(ONE_HOT, "DML_ONE_HOT_OPERATOR_DESC", {"IndicesTensor": i_desc, "ValuesTensor": v_desc,
                                                         "OutputTensor": y_desc, "Axis": axis})


def ref(idx, values, axis, depth):
    """The desc's rule: idx has a size-1 dimension at axis; Off = values' element 0, On =
    element 1 along values' innermost dimension of size > 1."""
    flat = values.reshape(-1)
    inner = max(d for d in range(values.ndim) if values.shape[d] > 1)
    on = values[tuple(1 if d == inner else 0 for d in range(values.ndim))]
    return ref_one_hot(np.squeeze(idx, axis), depth, axis, flat[0], on, values.dtype)


def run(idx, values, axis, depth, fill=7):
    shape = idx.shape[:axis] + (depth,) + idx.shape[axis + 1:]
    y, y_buf = padded(np.full(shape, fill, values.dtype))  # byte sizes rounded up to 4, as DirectML's
    v, v_buf = padded(values)
    raw = Raw()
    hr, msg = execute(one_hot_desc(raw, raw.tensor_for(idx), raw.tensor_for(v), raw.tensor_for(y), axis),
                      [idx, v_buf], [y_buf])
    assert hr == 0, msg
    assert msg == ""
    return y


# ---- every type, every index type, every axis ----------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_data_type(rng, dtype):
    """Off and On of each type's bits (random values, NaN payloads and all), INT64 indices
    of both signs and out of range both ways."""
    values = random_array(rng, (1, 2), dtype)
    idx = rng.integers(-7, 8, (6, 1)).astype(np.int64)
    assert_same_bits(run(idx, values, 1, 5), ref(idx, values, 1, 5))


@pytest.mark.parametrize("idx_dtype", INDEX_TYPES)
def test_index_values(idx_dtype):
    """-1 is the last position (signed types); below -depth or depth and more: the whole
    sequence Off; unsigned all ones is 2^32 - 1 / 2^64 - 1, never -1."""
    info = np.iinfo(idx_dtype)
    if info.min < 0:
        vals, hot = [0, 3, -1, -4, -5, 4, info.min, info.max], [0, 3, 3, 0, None, None, None, None]
    else:
        vals, hot = [0, 3, 4, info.max, 2], [0, 3, None, None, 2]
    idx = np.array(vals, idx_dtype).reshape(-1, 1)
    y = run(idx, np.array([[-1, 5]], np.int16), 1, 4)
    want = np.full((len(vals), 4), -1, np.int16)
    for r, h in enumerate(hot):
        if h is not None:
            want[r, h] = 5
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("ndim", range(1, 9))
def test_every_axis_of_1_to_8_dimensions(rng, ndim):
    """Every Axis of a D-dimensional desc, sizes 1 to 3 elsewhere; UINT32 and INT32 indices
    in turn, element sizes 1, 2, 4 and 8 in turn."""
    dtypes = [np.uint8, np.float16, np.float32, np.int64]
    for axis in range(ndim):
        shape = tuple(rng.integers(1, 4, ndim))
        ishape = shape[:axis] + (1,) + shape[axis + 1:]
        idx = rng.integers(-2, 5, ishape).astype(np.int32 if axis % 2 else np.uint32)
        if idx.dtype.kind == "u":
            idx = rng.integers(0, 5, ishape).astype(np.uint32)
        values = np.array([3, 9], dtypes[axis % 4]).reshape((1,) * (ndim - 1) + (2,))
        depth = int(shape[axis]) + 1
        np.testing.assert_array_equal(run(idx, values, axis, depth), ref(idx, values, axis, depth),
                                      err_msg=f"axis {axis}")


def test_values_tensor_layouts():
    """OnValue is element 1 along the innermost dimension of size > 1, read through the
    Strides: the page's {1,1,3,1} ([4, 2, 9]: On 2), {2,2} (On is [0, 1]), and a strided
    {1,3} view of every other element of a buffer."""
    idx = np.array([[[[0], [3], [2]]]], np.uint32)
    page = run(idx, np.array([[[[4], [2], [9]]]], np.float32), 3, 4)
    np.testing.assert_array_equal(page, [[[[2, 4, 4, 4], [4, 4, 4, 2], [4, 4, 2, 4]]]])
    y = run(np.array([[1], [0]], np.int64), np.array([[6, 8], [1, 2]], np.int32), 1, 3)
    np.testing.assert_array_equal(y, [[6, 8, 6], [8, 6, 6]])
    buf = np.array([10, -1, 20, -1, 30], np.float64)  # read as {1, 3} with strides {0, 2}: [10, 20, 30]
    i = np.array([[2, 0]], np.int32)
    y = np.zeros((3, 2), np.float64)
    raw = Raw()
    desc = one_hot_desc(raw, raw.tensor_for(i), raw.tensor(np.float64, (1, 3), (0, 2)), raw.tensor_for(y), 0)
    hr, msg = execute(desc, [i, buf], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y, [[10, 20], [10, 10], [20, 10]])


def test_strided_and_broadcast_tensors(rng):
    """Indices read through a transposed layout and broadcast (stride 0), the output with
    gaps (every element outside it untouched) and the one-hot axis not innermost."""
    ib = rng.integers(-4, 4, (5, 3)).astype(np.int64)   # memory (5, 3), read as {3, 1, 5} strides {1, 0, 3}
    idx = np.ascontiguousarray(ib.T).reshape(3, 1, 5)
    values = np.array([[[0, 1]]], np.float32)
    o_shape, o_strides = (3, 4, 5), (48, 8, 1)
    extent = sum((n - 1) * s for n, s in zip(o_shape, o_strides)) + 1
    yb = np.full(extent + 4, 7, np.float32)
    raw = Raw()
    desc = one_hot_desc(raw, raw.tensor(np.int64, (3, 1, 5), (1, 0, 3)), raw.tensor_for(values),
                        raw.tensor(np.float32, o_shape, o_strides), 1)
    hr, msg = execute(desc, [ib, values], [yb], [ib.nbytes, values.nbytes], [yb.nbytes])
    assert hr == 0, msg
    view = np.lib.stride_tricks.as_strided(yb, o_shape, [s * 4 for s in o_strides])
    np.testing.assert_array_equal(view, ref(idx, values, 1, 4))
    touched = np.zeros(yb.shape, bool)
    np.lib.stride_tricks.as_strided(touched, o_shape, [s for s in o_strides])[...] = True
    assert np.all(yb[~touched] == 7)


def test_large_output_across_threads(rng):
    """A 4096 x 300 output (threads fill it and write the On values), every row checked."""
    idx = rng.integers(-300, 350, (4096, 1)).astype(np.int32)
    values = np.array([[0.5, -2.0]], np.float32)
    np.testing.assert_array_equal(run(idx, values, 1, 300), ref(idx, values, 1, 300))


def test_streamed_fill_of_a_16_mib_output(rng):
    """An output of 16 MiB or more is filled with non-temporal stores (where the CPU has
    them), split across threads at any element: every element is still Off or On, the On
    ones where the reference puts them.  The output starts 4 bytes past a 64-byte line."""
    idx = rng.integers(-1100, 1100, (4097, 1)).astype(np.int64)
    values = np.array([[-0.0, 3.5]], np.float32)
    buf = np.full(4097 * 1024 + 32, 7, np.float32)
    start = (-buf.ctypes.data % 64) // 4 + 1
    y = buf[start:start + 4097 * 1024].reshape(4097, 1024)
    raw = Raw()
    hr, msg = execute(one_hot_desc(raw, raw.tensor_for(idx), raw.tensor_for(values), raw.tensor_for(y), 1),
                      [idx, values], [y])
    assert hr == 0, msg
    assert_same_bits(y, ref(idx, values, 1, 1024))
    assert np.all(buf[:start] == 7) and np.all(buf[start + y.size:] == 7)


def test_create_once_execute_from_many_threads(rng):
    idx = rng.integers(-9, 9, (64, 1)).astype(np.int64)
    values = np.array([[1, 2]], np.uint16)
    want = run(idx, values, 1, 9)
    raw = Raw()
    execute_from_threads(one_hot_desc(raw, raw.tensor_for(idx), raw.tensor_for(values), raw.tensor_for(want), 1),
                         [idx, values], want)


# ---- ctypes, with the layout rawctypes generates from the schema -----------------------------------

def test_ctypes_one_hot():
    so = rawctypes.library()
    keep = []
    i = np.array([[0, 2, 1, 0]], np.uint32)
    v = np.array([[0, 1]], np.float32)
    y = np.full((3, 4), 5, np.float32)
    d = DML_ONE_HOT_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(i, keep)), ctypes.pointer(rawctypes.tensor(v, keep)),
                                  ctypes.pointer(rawctypes.tensor(y, keep)), 0)
    op = rawctypes.operator(ONE_HOT, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(i), rawctypes.binding(v))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, [[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]])  # the page's example 2
    d.Axis = 2
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == OH + "Axis is 2, expected less than 2 (IndicesTensor.DimensionCount)"


# ---- dmlcInferOutputSizes: the depth is OutputTensor's parameter ------------------------------------

def test_infer_output_sizes():
    raw = Raw()
    v = raw.tensor(np.float32, (1, 2), total=0)
    i = raw.tensor(np.int64, (6, 1), total=0)
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (6, 1000), total=0), 1)) == [(6, 1000)]
    assert infer(one_hot_desc(raw, raw.tensor(np.int32, (1, 6), total=0), v, raw.tensor(np.float32, (3, 6)), 0)) == [
        (3, 6)]
    # Empty arrays (NumPy's) are allowed here: depth 0, or no index.
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (6, 0), total=0), 1)) == [(6, 0)]
    assert infer(one_hot_desc(raw, raw.tensor(np.int64, (0, 1), total=0), v, raw.tensor(np.float32, (0, 4)), 1)) == [
        (0, 4)]
    assert infer(one_hot_desc(raw, i, v, ffi.NULL, 1)) == (
        E_POINTER, OH + "OutputTensor is NULL; ONE_HOT's depth is OutputTensor.Sizes[Axis], so dmlcInferOutputSizes "
                       "reads OutputTensor's DimensionCount and Sizes")
    # Only OutputTensor's DimensionCount and Sizes[Axis] are read: its other sizes are
    # IndicesTensor's (creating the operator checks them).
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (5, 4)), 1)) == [(6, 4)]
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (6, 4, 1)), 1)) == (
        E_INVALIDARG, OH + "IndicesTensor.DimensionCount is 2, expected 3 (OutputTensor.DimensionCount)")
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (6, 4)), 2)) == (
        E_INVALIDARG, OH + "Axis is 2, expected less than 2 (IndicesTensor.DimensionCount)")
    assert infer(one_hot_desc(raw, i, v, raw.tensor(np.float32, (6, 4)), 1), 2) == (
        E_INVALIDARG, OH + "outputCount is 2, expected 1")


# ---- bindings ------------------------------------------------------------------------------------

def test_binding_rules_leave_the_output_untouched():
    idx = np.array([[1], [0]], np.int32)
    values = np.array([[0, 1]], np.int32)
    y = np.full((2, 3), 5, np.int32)
    raw = Raw()
    desc = one_hot_desc(raw, raw.tensor_for(idx), raw.tensor_for(values), raw.tensor_for(y), 1)
    for ins, outs, msg in [([idx], [y], OH + "inputCount is 1, expected 2"),
                           ([idx, values], [], OH + "outputCount is 0, expected 1"),
                           ([idx, None], [y], OH + "inputs[1].Buffer is NULL")]:
        hr, got = execute(desc, ins, outs)
        assert hr in (E_INVALIDARG, E_POINTER) and got == msg
    buf = np.zeros(8, np.int32)
    hr, got = execute(desc, [idx, buf[:2]], [buf[1:7].reshape(2, 3)])
    assert hr == E_INVALIDARG and got == OH + "outputs[0] overlaps inputs[1]; outputs may not alias inputs"
    assert np.all(y == 5) and np.all(buf == 0)


# ---- malformed descs -------------------------------------------------------------------------------

def malformed_cases():
    IX, V, Y = (3, 1), (1, 2), (3, 4)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def ix(raw, sizes=IX, dtype=np.int32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def o(axis=1):
        return lambda build: (lambda r: one_hot_desc(r, *build(r), axis))

    return [
        ("indices NULL", o()(lambda r: (ffi.NULL, t(r, V), t(r, Y))), E_POINTER, OH + "IndicesTensor is NULL"),
        ("values NULL", o()(lambda r: (ix(r), ffi.NULL, t(r, Y))), E_POINTER, OH + "ValuesTensor is NULL"),
        ("output NULL", o()(lambda r: (ix(r), t(r, V), ffi.NULL)), E_POINTER, OH + "OutputTensor is NULL"),
        ("9 dims", o()(lambda r: (ix(r, (1,) * 9), t(r, (1,) * 8 + (2,)), t(r, (1,) * 9))), E_INVALIDARG,
         OH + "IndicesTensor.DimensionCount is 9, expected 1 to 8"),
        ("indices int16", o()(lambda r: (ix(r, IX, np.int16), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.DataType is INT16, expected INT32, INT64, UINT32 or UINT64"),
        ("indices uint8", o()(lambda r: (ix(r, IX, np.uint8), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.DataType is UINT8, expected INT32, INT64, UINT32 or UINT64"),
        ("indices float", o()(lambda r: (ix(r, IX, np.float32), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
        ("indices Type", o()(lambda r: (r.new("DML_TENSOR_DESC*", {"Type": 0}), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("indices size 0", o()(lambda r: (ix(r, (0, 1)), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.Sizes[0] is 0; sizes must be at least 1"),
        ("indices total size", o()(lambda r: (ix(r, total=4), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.TotalTensorSizeInBytes is 4, expected at least 12 (DMLCalcBufferTensorSize)"),
        ("indices rank", o()(lambda r: (ix(r, (3,)), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.DimensionCount is 1, expected 2 (OutputTensor.DimensionCount)"),
        ("indices axis size", o()(lambda r: (ix(r, (3, 2)), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "IndicesTensor.Sizes[1] is 2, expected 1 (one index per sequence along Axis 1)"),
        ("values rank", o()(lambda r: (ix(r), t(r, (2,)), t(r, Y))), E_INVALIDARG,
         OH + "ValuesTensor.DimensionCount is 1, expected 2 (OutputTensor.DimensionCount)"),
        ("values type", o()(lambda r: (ix(r), t(r, V, np.float16), t(r, Y))), E_INVALIDARG,
         OH + "ValuesTensor.DataType is FLOAT16, expected FLOAT32 (OutputTensor.DataType)"),
        ("values one element", o()(lambda r: (ix(r), t(r, (1, 1)), t(r, Y))), E_INVALIDARG,
         OH + "ValuesTensor has 1 element, expected at least 2 (OffValue, then OnValue)"),
        ("values total size", o()(lambda r: (ix(r), t(r, V, total=4), t(r, Y))), E_INVALIDARG,
         OH + "ValuesTensor.TotalTensorSizeInBytes is 4, expected at least 8 (DMLCalcBufferTensorSize)"),
        ("values unsupported type", o()(lambda r: (ix(r), t(r, V, dml_type=12), t(r, Y))), E_INVALIDARG,
         OH + "ValuesTensor.DataType UINT4 is not supported"),
        ("output rank", o()(lambda r: (ix(r), t(r, V), t(r, (1, 3, 4)))), E_INVALIDARG,
         OH + "IndicesTensor.DimensionCount is 2, expected 3 (OutputTensor.DimensionCount)"),
        ("output size", o()(lambda r: (ix(r), t(r, V), t(r, (4, 4)))), E_INVALIDARG,
         OH + "OutputTensor.Sizes[0] is 4, expected 3 (IndicesTensor.Sizes[0])"),
        ("output depth 0", o()(lambda r: (ix(r), t(r, V), t(r, (3, 0)))), E_INVALIDARG,
         OH + "OutputTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("output stride 0", o()(lambda r: (ix(r), t(r, V), t(r, Y, strides=(4, 0)))), E_INVALIDARG,
         OH + "OutputTensor.Strides[1] is 0 with Sizes[1] 4; an output element may not be written twice"),
        ("output unsupported type", o()(lambda r: (ix(r), t(r, V), t(r, Y, dml_type=12))), E_INVALIDARG,
         OH + "OutputTensor.DataType UINT4 is not supported"),
        ("Axis", o(2)(lambda r: (ix(r), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "Axis is 2, expected less than 2 (IndicesTensor.DimensionCount)"),
        ("Axis huge", o(0xFFFFFFFF)(lambda r: (ix(r), t(r, V), t(r, Y))), E_INVALIDARG,
         OH + "Axis is 4294967295, expected less than 2 (IndicesTensor.DimensionCount)"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_the_output_untouched():
    idx = np.array([[0], [1], [2]], np.int32)
    values = np.array([[0, 1]], np.float32)
    y = np.full((4, 4), 3, np.float32)
    raw = Raw()
    hr, msg = execute(one_hot_desc(raw, raw.tensor_for(idx), raw.tensor_for(values), raw.tensor_for(y), 1),
                      [idx, values], [y])
    assert hr == E_INVALIDARG and msg == OH + "OutputTensor.Sizes[0] is 4, expected 3 (IndicesTensor.Sizes[0])"
    assert np.all(y == 3)
