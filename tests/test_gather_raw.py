"""DML_OPERATOR_GATHER as a C caller drives it: raw descs through cffi and ctypes, the four
index types, IndexDimensions 0 to D, strides and broadcasts on every tensor, clamped
out-of-range indices, dmlcInferOutputSizes, the page's example 3 as printed, threads, and
malformed descs with their messages."""
import ctypes
import threading

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_GATHER_OPERATOR_DESC, DMLC_BUFFER_BINDING
from rawdesc import Raw, assert_create_fails, create, execute, infer
from support import ALL_DTYPES, assert_same_bits, random_array

GATHER = lib.DML_OPERATOR_GATHER
G = "DML_OPERATOR_GATHER: "
INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]


def gather_desc(raw, x_desc, i_desc, y_desc, axis, k):
    return raw.op(GATHER, "DML_GATHER_OPERATOR_DESC", {"InputTensor": x_desc, "IndicesTensor": i_desc,
                                                       "OutputTensor": y_desc, "Axis": axis, "IndexDimensions": k})


def ref_gather(x, idx, axis, k):
    """The desc's rule in NumPy: idx has x.ndim dimensions, the last k hold indices; the
    gathered shape x[:axis] + idx[-k:] + x[axis+1:] fitted to x.ndim."""
    n = x.shape[axis]
    i = idx.reshape(idx.shape[idx.ndim - k:]).astype(np.int64) if k else idx.reshape(()).astype(np.int64)
    if idx.dtype.kind == "u":
        i = np.minimum(idx.reshape(i.shape).astype(np.uint64), n - 1).astype(np.int64)
    i = np.clip(np.where(i < 0, i + n, i), 0, n - 1)
    y = np.take(x, i, axis)
    return y.reshape((1,) * (x.ndim - y.ndim) + y.shape) if y.ndim < x.ndim else y.reshape(y.shape[y.ndim - x.ndim:])


def gathered_shape(xs, ishape, axis, k):
    c = tuple(xs[:axis]) + tuple(ishape[len(ishape) - k:]) + tuple(xs[axis + 1:])
    return (1,) + c if k == 0 else c[k - 1:]


# ---- every type, every index type ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("idx_dtype", INDEX_TYPES)
def test_every_type_through_cffi(rng, dtype, idx_dtype):
    """Axis 1, K 1 on a 3-d input, indices out of range both ways (clamped)."""
    x = random_array(rng, (3, 5, 4), dtype)
    lo = -7 if np.dtype(idx_dtype).kind == "i" else 0
    idx = rng.integers(lo, 8, (1, 1, 6)).astype(idx_dtype)
    y = np.full((3, 6, 4), 7, dtype)
    raw = Raw()
    desc = gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 1, 1)
    hr, msg = execute(desc, [x, idx], [y], [x.nbytes + 4, idx.nbytes + 4], [y.nbytes + 4])
    assert hr == 0, msg
    assert msg == ""
    assert_same_bits(y, ref_gather(x, idx, 1, 1))


@pytest.mark.parametrize("idx_dtype", INDEX_TYPES)
def test_index_values_adjusted_and_clamped(idx_dtype):
    """-1 is the last element (signed types); below -n reads element 0; n or more reads the
    last; unsigned all ones is 2^32 - 1 / 2^64 - 1, never -1, so it clamps to n - 1."""
    x = np.array([10, 11, 12, 13, 14], np.float32)
    info = np.iinfo(idx_dtype)
    if info.min < 0:
        vals, want = [0, 4, -1, -5, -6, 5, info.min, info.max], [10, 14, 14, 10, 10, 14, 10, 14]
    else:
        vals, want = [0, 4, 5, info.max, 3], [10, 14, 14, 14, 13]
    idx = np.array(vals, idx_dtype)
    y = np.zeros(len(vals), np.float32)
    raw = Raw()
    hr, msg = execute(gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 0, 1), [x, idx], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("ndim", range(1, 9))
def test_index_dimensions_0_to_d(rng, ndim):
    """Every K from 0 to D on a D-dimensional input whose leading sizes are 1 (so that the
    K - 1 dropped entries are 1), every axis."""
    xs = (1,) * (ndim - min(ndim, 2)) + (3, 4)[2 - min(ndim, 2):]
    x = random_array(rng, xs, np.int32)
    for axis in range(ndim):
        for k in range(ndim + 1):
            ishape = (1,) * (ndim - k) + tuple(rng.integers(1, 3, k))
            c = tuple(xs[:axis]) + ishape[ndim - k:] + tuple(xs[axis + 1:])
            if k > 1 and any(v != 1 for v in c[:k - 1]):
                continue
            idx = rng.integers(-xs[axis], xs[axis], ishape).astype(np.int32)
            y = np.zeros(gathered_shape(xs, ishape, axis, k), np.int32)
            raw = Raw()
            hr, msg = execute(gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), axis, k),
                              [x, idx], [y])
            assert hr == 0, (axis, k, msg)
            np.testing.assert_array_equal(y, ref_gather(x, idx, axis, k), err_msg=f"axis {axis} K {k}")


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64])
def test_strides_and_broadcasts(rng, dtype):
    """Input a transposed view, indices broadcast (stride 0) along their leading axis, the
    output with a wider row pitch: the rule holds and the output's gaps stay put."""
    x = random_array(rng, (4, 6, 5), dtype)
    xb = np.ascontiguousarray(x.transpose(2, 0, 1))              # memory (5, 4, 6)
    x_strides = [6, 1, 24]
    ib = np.array([5, -1, 0], np.int64)                          # read as (1, 1, 3), strides (0, 0, 1)
    idx = np.broadcast_to(ib, (1, 1, 3))
    o_shape, o_strides = (4, 3, 5), [40, 8, 1]                   # Axis 1, K 1: (4) + (3) + (5)
    extent = sum((n - 1) * s for n, s in zip(o_shape, o_strides)) + 1
    yb = np.full(extent + 3, 9, dtype)
    raw = Raw()
    desc = gather_desc(raw, raw.tensor(dtype, x.shape, x_strides), raw.tensor(np.int64, (1, 1, 3), (0, 0, 1)),
                       raw.tensor(dtype, o_shape, o_strides), 1, 1)
    hr, msg = execute(desc, [xb, ib], [yb], [xb.nbytes, ib.nbytes], [yb.nbytes])
    assert hr == 0, msg
    y = np.lib.stride_tricks.as_strided(yb, o_shape, [s * yb.itemsize for s in o_strides])
    assert_same_bits(y, ref_gather(x, np.ascontiguousarray(idx), 1, 1))
    touched = np.zeros(yb.shape, bool)
    np.lib.stride_tricks.as_strided(touched, o_shape, [s * touched.itemsize for s in o_strides])[...] = True
    assert np.all(yb[~touched] == 9)


def test_broadcast_input(rng):
    """An input broadcast along the gathered axis (stride 0): every index reads the same row."""
    row = random_array(rng, (1, 4), np.int32)
    idx = np.array([[3, -2, 9]], np.int64)
    y = np.zeros((3, 4), np.int32)
    raw = Raw()
    desc = gather_desc(raw, raw.tensor(np.int32, (5, 4), (0, 1)), raw.tensor_for(idx), raw.tensor_for(y), 0, 1)
    hr, msg = execute(desc, [row, idx], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y, np.repeat(row, 3, 0))


def test_strided_indices_over_two_dimensions(rng):
    """K 2 on an input of leading size 1: index dimensions walked with their own strides."""
    x = random_array(rng, (1, 7, 3), np.float32)
    ib = rng.integers(-7, 7, (1, 3, 8)).astype(np.int32)
    idx = ib[:, :, 1:6:2]                                        # (1, 3, 3), strides (24, 8, 2)
    y = np.zeros((1, 3, 3, 3), np.float32)[0]                   # C (1, 3, 3, 3) drops its leading 1
    raw = Raw()
    desc = gather_desc(raw, raw.tensor_for(x), raw.tensor(np.int32, (1, 3, 3), (24, 8, 2)),
                       raw.tensor(np.float32, (3, 3, 3)), 1, 2)
    # (1, 3, 3, 3) fitted to 3 dimensions: the leading 1 of x's axis 0 is dropped.
    hr, msg = execute(desc, [x, ib.reshape(-1)[1:]], [y])               # the view starts at element 1
    assert hr == 0, msg
    np.testing.assert_array_equal(y, ref_gather(x, np.ascontiguousarray(idx), 1, 2))


def test_page_example_3_as_printed_is_refused():
    """DirectML's example 3 prints IndexDimensions 2 for indices {1, 2} into a {3, 2} input
    on Axis 1: the gathered shape {3} ++ {1, 2} must drop one leading entry, which is 3."""
    raw = Raw()
    x = raw.tensor(np.float32, (3, 2))
    desc = gather_desc(raw, x, raw.tensor(np.uint32, (1, 2)), raw.tensor(np.float32, (3, 2)), 1, 2)
    assert create(desc) == (E_INVALIDARG, G + "InputTensor.Sizes[0] is 3, expected 1 (IndexDimensions 2 gives 3 "
                                              "gathered dimensions; the first 1 must be 1 to leave "
                                              "InputTensor.DimensionCount 2)")
    x32 = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    idx = np.array([[1, 0]], np.uint32)
    y = np.zeros((3, 2), np.float32)
    desc1 = gather_desc(raw, raw.tensor_for(x32), raw.tensor_for(idx), raw.tensor_for(y), 1, 1)
    assert execute(desc1, [x32, idx], [y]) == (0, "")
    np.testing.assert_array_equal(y, [[2, 1], [4, 3], [6, 5]])


def test_create_once_execute_from_many_threads(rng):
    x = random_array(rng, (64, 33), np.float32)
    idx = rng.integers(-64, 64, (1, 50)).astype(np.int64)
    want = ref_gather(x, idx, 0, 1)
    raw = Raw()
    ys = [np.zeros(want.shape, np.float32) for _ in range(8)]
    desc = gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(ys[0]), 0, 1)
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    errors = []

    def run(y):
        b_in = raw.bindings([x, idx])
        b_out = raw.bindings([y])
        for _ in range(20):
            if lib.dmlcExecute(op[0], 2, b_in, 1, b_out) != 0:
                errors.append(ffi.string(lib.dmlcGetLastErrorMessage()))

    threads = [threading.Thread(target=run, args=(y,)) for y in ys]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lib.dmlcReleaseOperator(op[0])
    assert not errors
    for y in ys:
        np.testing.assert_array_equal(y, want)


# ---- ctypes, with the layout rawctypes generates from the schema -----------------------------------

def test_ctypes_gather():
    so = rawctypes.library()
    keep = []
    x = np.array([11, 12, 13, 14], np.float32)
    i = np.array([3, 1, 3, 0, 2], np.uint32)
    y = np.full(5, 3, np.float32)
    d = DML_GATHER_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)), ctypes.pointer(rawctypes.tensor(i, keep)),
                                 ctypes.pointer(rawctypes.tensor(y, keep)), 0, 1)
    op = rawctypes.operator(GATHER, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(x), rawctypes.binding(i))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, [14, 12, 14, 11, 13])
    d.Axis = 1
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == G + "Axis is 1, expected less than 1 (InputTensor.DimensionCount)"


# ---- dmlcInferOutputSizes ---------------------------------------------------------------------------

def test_infer_output_sizes():
    raw = Raw()
    x = raw.tensor(np.float32, (1, 5, 4), total=0)
    assert infer(gather_desc(raw, x, raw.tensor(np.int64, (1, 2, 3), total=0), ffi.NULL, 1, 2)) == [(2, 3, 4)]
    assert infer(gather_desc(raw, x, raw.tensor(np.int64, (1, 1, 1), total=0), ffi.NULL, 2, 0)) == [(1, 1, 5)]
    assert infer(gather_desc(raw, x, raw.tensor(np.int32, (1, 1, 6), total=0), ffi.NULL, 0, 1)) == [(6, 5, 4)]
    # Empty inputs (NumPy's empty arrays) are allowed here.
    assert infer(gather_desc(raw, x, raw.tensor(np.uint32, (1, 1, 0), total=0), ffi.NULL, 2, 1)) == [(1, 5, 0)]
    assert infer(gather_desc(raw, x, raw.tensor(np.int64, (1, 2, 3), total=0), ffi.NULL, 3, 1)) == (
        E_INVALIDARG, G + "Axis is 3, expected less than 3 (InputTensor.DimensionCount)")
    assert infer(gather_desc(raw, x, raw.tensor(np.int64, (1, 2, 3), total=0), ffi.NULL, 0, 1), 2) == (
        E_INVALIDARG, G + "outputCount is 2, expected 1")


# ---- bindings ------------------------------------------------------------------------------------

def test_binding_rules_leave_the_output_untouched(rng):
    x = random_array(rng, (6, 4), np.float32)
    idx = np.array([[1, 5, 0]], np.int32)
    y = np.full((3, 4), 5, np.float32)
    raw = Raw()
    desc = gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 0, 1)
    for ins, outs, msg in [([x], [y], G + "inputCount is 1, expected 2"),
                           ([x, idx], [], G + "outputCount is 0, expected 1"),
                           ([x, None], [y], G + "inputs[1].Buffer is NULL")]:
        hr, got = execute(desc, ins, outs)
        assert hr in (E_INVALIDARG, E_POINTER) and got == msg
    buf = np.zeros(12, np.int32)
    hr, got = execute(gather_desc(raw, raw.tensor_for(x), raw.tensor(np.int32, (1, 3)), raw.tensor_for(y), 0, 1),
                      [x, buf], [buf.view(np.float32)])
    assert hr == E_INVALIDARG and got == G + "outputs[0] overlaps inputs[1]; outputs may not alias inputs"
    assert np.all(y == 5) and np.all(buf == 0)


# ---- malformed descs -------------------------------------------------------------------------------

def malformed_cases():
    X, IX, Y = (4, 5), (1, 3), (3, 5)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def ix(raw, sizes=IX, dtype=np.int32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def g(axis=0, k=1):
        return lambda build: (lambda r: gather_desc(r, *build(r), axis, k))

    return [
        ("input NULL", g()(lambda r: (ffi.NULL, ix(r), t(r, Y))), E_POINTER, G + "InputTensor is NULL"),
        ("indices NULL", g()(lambda r: (t(r, X), ffi.NULL, t(r, Y))), E_POINTER, G + "IndicesTensor is NULL"),
        ("output NULL", g()(lambda r: (t(r, X), ix(r), ffi.NULL)), E_POINTER, G + "OutputTensor is NULL"),
        ("9 dims", g()(lambda r: (t(r, (1,) * 9), ix(r, (1,) * 9), t(r, (1,) * 9))), E_INVALIDARG,
         G + "InputTensor.DimensionCount is 9, expected 1 to 8"),
        ("indices int16", g()(lambda r: (t(r, X), ix(r, IX, np.int16), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.DataType is INT16, expected INT32, INT64, UINT32 or UINT64"),
        ("indices int8", g()(lambda r: (t(r, X), ix(r, IX, np.int8), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.DataType is INT8, expected INT32, INT64, UINT32 or UINT64"),
        ("indices float", g()(lambda r: (t(r, X), ix(r, IX, np.float32), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
        ("indices rank", g()(lambda r: (t(r, X), ix(r, (3,)), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
        ("indices Type", g()(lambda r: (t(r, X), r.new("DML_TENSOR_DESC*", {"Type": 0}), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("indices size 0", g()(lambda r: (t(r, X), ix(r, (1, 0)), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("indices total size", g()(lambda r: (t(r, X), ix(r, total=4), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.TotalTensorSizeInBytes is 4, expected at least 12 (DMLCalcBufferTensorSize)"),
        ("output type", g()(lambda r: (t(r, X), ix(r), t(r, Y, np.float16))), E_INVALIDARG,
         G + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
        ("output rank", g()(lambda r: (t(r, X), ix(r), t(r, (1, 3, 5)))), E_INVALIDARG,
         G + "OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ("Axis", g(2)(lambda r: (t(r, X), ix(r), t(r, Y))), E_INVALIDARG,
         G + "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"),
        ("Axis huge", g(0xFFFFFFFF)(lambda r: (t(r, X), ix(r), t(r, Y))), E_INVALIDARG,
         G + "Axis is 4294967295, expected less than 2 (InputTensor.DimensionCount)"),
        ("IndexDimensions", g(0, 3)(lambda r: (t(r, X), ix(r), t(r, Y))), E_INVALIDARG,
         G + "IndexDimensions is 3, expected at most 2 (InputTensor.DimensionCount)"),
        ("indices leading size", g()(lambda r: (t(r, X), ix(r, (2, 3)), t(r, Y))), E_INVALIDARG,
         G + "IndicesTensor.Sizes[0] is 2, expected 1 (only the last IndexDimensions 1 dimensions hold indices)"),
        ("K 2 leading entry", g(1, 2)(lambda r: (t(r, X), ix(r, (2, 3)), t(r, (2, 3)))), E_INVALIDARG,
         G + "InputTensor.Sizes[0] is 4, expected 1 (IndexDimensions 2 gives 3 gathered dimensions; the first 1 "
             "must be 1 to leave InputTensor.DimensionCount 2)"),
        ("K 2 leading index entry", g(0, 2)(lambda r: (t(r, X), ix(r, (2, 3)), t(r, (3, 5)))), E_INVALIDARG,
         G + "IndicesTensor.Sizes[0] is 2, expected 1 (IndexDimensions 2 gives 3 gathered dimensions; the first 1 "
             "must be 1 to leave InputTensor.DimensionCount 2)"),
        ("output size", g()(lambda r: (t(r, X), ix(r), t(r, (4, 5)))), E_INVALIDARG,
         G + "OutputTensor.Sizes[0] is 4, expected 3 (IndicesTensor.Sizes[1])"),
        ("output inner size", g()(lambda r: (t(r, X), ix(r), t(r, (3, 4)))), E_INVALIDARG,
         G + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"),
        ("K 0 leading 1", g(0, 0)(lambda r: (t(r, X), ix(r, (1, 1)), t(r, (2, 5)))), E_INVALIDARG,
         G + "OutputTensor.Sizes[0] is 2, expected 1 (IndexDimensions 0 prepends a 1)"),
        ("output stride 0", g()(lambda r: (t(r, X), ix(r), t(r, Y, strides=(5, 0)))), E_INVALIDARG,
         G + "OutputTensor.Strides[1] is 0 with Sizes[1] 5; an output element may not be written twice"),
        ("unsupported type", g()(lambda r: (t(r, X, dml_type=12), ix(r), t(r, Y))), E_INVALIDARG,
         G + "InputTensor.DataType UINT4 is not supported"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_the_output_untouched(rng):
    x = random_array(rng, (4, 5), np.float32)
    idx = np.array([[0, 1, 2]], np.int32)
    y = np.full((3, 4), 3, np.float32)
    raw = Raw()
    hr, msg = execute(gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 0, 1), [x, idx], [y])
    assert hr == E_INVALIDARG and msg == G + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"
    assert np.all(y == 3)
