"""DML_OPERATOR_GATHER as a C caller drives it: raw descs through cffi and ctypes, the four
index types, IndexDimensions 0 to D, strides and broadcasts on every tensor, clamped
out-of-range indices, dmlcInferOutputSizes, the page's examples 3 to 5 as printed, threads, and
malformed descs with their messages; then GATHER_ELEMENTS / SCATTER_ELEMENTS and GATHER_ND /
GATHER_ND1 / SCATTER_ND the same way."""
import ctypes
import threading

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import (DML_GATHER_ELEMENTS_OPERATOR_DESC, DML_GATHER_OPERATOR_DESC, DML_SCATTER_ELEMENTS_OPERATOR_DESC,
                       DMLC_BUFFER_BINDING)
from rawdesc import Raw, assert_create_fails, create, execute, infer
from reference import ref_gather_elements, ref_gather_nd, ref_scatter_elements, ref_scatter_nd
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


@pytest.mark.parametrize("axis, x, idx, expected", [
    (2, np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3), np.array([[[0, 2]]], np.uint32),
     [[[1, 3]], [[4, 6]], [[7, 9]]]),
    (1, np.arange(1, 7, dtype=np.float32).reshape(1, 3, 2), np.array([[[0, 1], [1, 2]]], np.uint32),
     [[[1, 2], [3, 4]], [[3, 4], [5, 6]]]),
], ids=["example4", "example5"])
def test_page_examples_4_and_5_run_as_printed(axis, x, idx, expected):
    """DirectML's examples 4 and 5 (IndexDimensions 2 over 3-D tensors): the gathered shape
    has four entries and its leading 1 is dropped to fit the printed {3,1,2} and {2,2,2}."""
    raw = Raw()
    y = np.full(np.shape(expected), -1, np.float32)
    desc = gather_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), axis, 2)
    assert execute(desc, [x, idx], [y]) == (0, "")
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(y, ref_gather(x, idx, axis, 2))


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


# ==== GATHER_ELEMENTS and SCATTER_ELEMENTS ===========================================================

GATHER_ELEMENTS = lib.DML_OPERATOR_GATHER_ELEMENTS
SCATTER_ELEMENTS = lib.DML_OPERATOR_SCATTER_ELEMENTS
GE = "DML_OPERATOR_GATHER_ELEMENTS: "
SE = "DML_OPERATOR_SCATTER_ELEMENTS: "


def gather_elements_desc(raw, x_desc, i_desc, y_desc, axis):
    return raw.op(GATHER_ELEMENTS, "DML_GATHER_ELEMENTS_OPERATOR_DESC",
                  {"InputTensor": x_desc, "IndicesTensor": i_desc, "OutputTensor": y_desc, "Axis": axis})


def scatter_desc(raw, x_desc, i_desc, u_desc, y_desc, axis, op_type=SCATTER_ELEMENTS,
                 struct="DML_SCATTER_ELEMENTS_OPERATOR_DESC"):
    return raw.op(op_type, struct, {"InputTensor": x_desc, "IndicesTensor": i_desc, "UpdatesTensor": u_desc,
                                    "OutputTensor": y_desc, "Axis": axis})


def test_scatter_alias_and_struct_names():
    """DML_OPERATOR_SCATTER is SCATTER_ELEMENTS' value (94); DML_SCATTER_OPERATOR_DESC is
    DirectML's name of the struct, DML_SCATTER_ELEMENTS_OPERATOR_DESC its alias."""
    assert lib.DML_OPERATOR_SCATTER == lib.DML_OPERATOR_SCATTER_ELEMENTS == 94
    assert lib.DML_OPERATOR_GATHER_ELEMENTS == 107
    assert ffi.sizeof("DML_SCATTER_OPERATOR_DESC") == ffi.sizeof("DML_SCATTER_ELEMENTS_OPERATOR_DESC")
    assert ffi.offsetof("DML_SCATTER_ELEMENTS_OPERATOR_DESC", "Axis") == 4 * ffi.sizeof("void*")
    assert ffi.offsetof("DML_GATHER_ELEMENTS_OPERATOR_DESC", "Axis") == 3 * ffi.sizeof("void*")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_elements_every_type_through_cffi(rng, dtype):
    """Each data type with one of the index types (sampled), indices out of range both ways;
    the scatter through the DML_OPERATOR_SCATTER name and DirectML's struct name."""
    idx_dtype = INDEX_TYPES[ALL_DTYPES.index(dtype) % 4]
    x = random_array(rng, (3, 5, 4), dtype)
    lo = -7 if np.dtype(idx_dtype).kind == "i" else 0
    idx = rng.integers(lo, 8, (3, 6, 4)).astype(idx_dtype)
    y = np.full((3, 6, 4), 7, dtype)
    raw = Raw()
    desc = gather_elements_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 1)
    hr, msg = execute(desc, [x, idx], [y], [x.nbytes + 4, idx.nbytes + 4], [y.nbytes + 4])
    assert hr == 0 and msg == "", msg
    assert_same_bits(y, ref_gather_elements(x, idx, 1))
    u = random_array(rng, idx.shape, dtype)
    z = np.full(x.shape, 7, dtype)
    desc = scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(z), 1,
                        lib.DML_OPERATOR_SCATTER, "DML_SCATTER_OPERATOR_DESC")
    hr, msg = execute(desc, [x, idx, u], [z])
    assert hr == 0 and msg == "", msg
    assert_same_bits(z, ref_scatter_elements(x, idx, u, 1))


@pytest.mark.parametrize("idx_dtype", INDEX_TYPES)
def test_elements_index_values(idx_dtype):
    """Signed: -1 is the last, below -n is 0 (gather) or skipped (scatter); unsigned all ones
    is past the end: clamped to the last (gather), skipped (scatter)."""
    x = np.array([10, 11, 12, 13], np.float32)
    info = np.iinfo(idx_dtype)
    vals = [3, 1, 4, info.max] + ([-1, -4, -5, info.min] if info.min < 0 else [])
    idx = np.array(vals, idx_dtype)
    raw = Raw()
    y = np.zeros(len(vals), np.float32)
    hr, msg = execute(gather_elements_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 0),
                      [x, idx], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y, [13, 11, 13, 13] + ([13, 10, 10, 10] if info.min < 0 else []))
    u = np.arange(20, 20 + len(vals), dtype=np.float32)
    z = np.zeros(4, np.float32)
    hr, msg = execute(scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(z),
                                   0), [x, idx, u], [z])
    assert hr == 0, msg
    np.testing.assert_array_equal(z, [10, 21, 12, 20] if info.min >= 0 else [25, 21, 12, 24])


def test_elements_strides_and_broadcasts(rng):
    """Strided input, broadcast indices (stride 0), transposed output and updates."""
    base = random_array(rng, (6, 8), np.int16)
    x = base[::2, ::2]                                       # {3, 4}, strides {16, 2}
    idx = np.array([[-1, 0, 2, 9]], np.int64)                # broadcast down: strides {0, 1}
    raw = Raw()
    y = np.zeros((4, 3), np.int16)                           # written as its transpose
    desc = gather_elements_desc(raw, raw.tensor(np.int16, (3, 4), (16, 2)), raw.tensor(np.int64, (3, 4), (0, 1)),
                                raw.tensor(np.int16, (3, 4), (1, 3)), 0)
    hr, msg = execute(desc, [base, idx], [y])
    assert hr == 0, msg
    assert_same_bits(y.T, ref_gather_elements(x, np.broadcast_to(idx, (3, 4)), 0))
    u = random_array(rng, (4, 3), np.int16)                  # read as its transpose
    z = np.zeros((3, 4), np.int16)
    desc = scatter_desc(raw, raw.tensor(np.int16, (3, 4), (16, 2)), raw.tensor(np.int64, (3, 4), (0, 1)),
                        raw.tensor(np.int16, (3, 4), (1, 3)), raw.tensor_for(z), 0)
    hr, msg = execute(desc, [base, idx, u], [z])
    assert hr == 0, msg
    assert_same_bits(z, ref_scatter_elements(x, np.broadcast_to(idx, (3, 4)), u.T, 0))


def test_scatter_in_place_binding(rng):
    """Output bound at exactly the input's memory with one layout: updated in place.  Any
    other overlap, or in place with layouts that differ, is refused and writes nothing."""
    x = random_array(rng, (4, 5), np.float32)
    idx = np.array([[4, -1, 0]] * 4, np.int32)
    u = random_array(rng, (4, 3), np.float32)
    want = ref_scatter_elements(x, idx, u, 1)
    raw = Raw()
    desc = scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(x), 1)
    hr, msg = execute(desc, [x, idx, u], [x])
    assert hr == 0, msg
    assert_same_bits(x, want)
    keep = x.copy()
    hr, msg = execute(desc, [x, idx, u], [u], None, [x.nbytes])
    assert hr == E_INVALIDARG and msg == SE + "outputs[0] overlaps inputs[2]; outputs may not alias inputs"
    buf = np.zeros(40, np.float32)
    buf[:20] = keep.ravel()
    hr, msg = execute(desc, [buf[:20], idx, u], [buf[4:24]])
    assert hr == E_INVALIDARG and msg == SE + ("outputs[0] overlaps inputs[0] without aliasing it exactly; in place, "
                                               "both must be bound at the same address")
    tdesc = scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u),
                         raw.tensor(np.float32, (4, 5), (1, 4)), 1)
    hr, msg = execute(tdesc, [x, idx, u], [x])
    assert hr == E_INVALIDARG and msg == SE + ("outputs[0] overlaps inputs[0], but the tensors' strides differ; "
                                               "in place, InputTensor and OutputTensor need the same layout")
    assert_same_bits(x, want)
    np.testing.assert_array_equal(buf[:20], keep.ravel())


def test_scatter_duplicates_in_row_major_order_on_many_threads(rng):
    """Every update lands on one of two columns: the last one in row-major order wins,
    whatever the split across threads."""
    x = np.zeros((2000, 2), np.int64)
    idx = rng.integers(0, 2, (2000, 9)).astype(np.int64)
    u = np.arange(2000 * 9, dtype=np.int64).reshape(2000, 9)
    z = np.zeros_like(x)
    raw = Raw()
    desc = scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(z), 1)
    want = ref_scatter_elements(x, idx, u, 1)
    for _ in range(3):
        hr, msg = execute(desc, [x, idx, u], [z])
        assert hr == 0, msg
        np.testing.assert_array_equal(z, want)


def test_ctypes_gather_and_scatter_elements():
    so = rawctypes.library()
    keep = []
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32)
    i = np.array([[1, 2, 0], [2, 0, 0]], np.uint32)
    y = np.zeros((2, 3), np.float32)
    d = DML_GATHER_ELEMENTS_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                          ctypes.pointer(rawctypes.tensor(i, keep)),
                                          ctypes.pointer(rawctypes.tensor(y, keep)), 0)
    op = rawctypes.operator(GATHER_ELEMENTS, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(x), rawctypes.binding(i))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, [[4, 8, 3], [7, 2, 3]])
    z = np.zeros((3, 3), np.float32)
    i = np.array([[1, 0, 2], [0, 2, 1]], np.uint32)
    u = np.array([[10, 11, 12], [20, 21, 22]], np.float32)
    d = DML_SCATTER_ELEMENTS_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(np.zeros_like(z), keep)),
                                           ctypes.pointer(rawctypes.tensor(i, keep)),
                                           ctypes.pointer(rawctypes.tensor(u, keep)),
                                           ctypes.pointer(rawctypes.tensor(z, keep)), 0)
    op = rawctypes.operator(SCATTER_ELEMENTS, d)
    zero = np.zeros_like(z)
    ins = (DMLC_BUFFER_BINDING * 3)(rawctypes.binding(zero), rawctypes.binding(i), rawctypes.binding(u))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 3, ins, 1, ctypes.byref(rawctypes.binding(z)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(z, [[20, 11, 0], [10, 0, 22], [0, 21, 12]])
    d.Axis = 2
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 3, ins, 1, ctypes.byref(rawctypes.binding(z)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == SE + "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"


def test_elements_infer_output_sizes():
    raw = Raw()
    x = raw.tensor(np.float32, (2, 5, 4), total=0)
    i = raw.tensor(np.int64, (2, 7, 4), total=0)
    assert infer(gather_elements_desc(raw, x, i, ffi.NULL, 1)) == [(2, 7, 4)]
    assert infer(scatter_desc(raw, x, i, raw.tensor(np.float32, (2, 7, 4), total=0), ffi.NULL, 1)) == [(2, 5, 4)]
    # Empty inputs (NumPy's empty arrays) are allowed here.
    assert infer(gather_elements_desc(raw, x, raw.tensor(np.uint32, (2, 0, 4), total=0), ffi.NULL, 1)) == [(2, 0, 4)]
    assert infer(gather_elements_desc(raw, x, i, ffi.NULL, 0)) == (
        E_INVALIDARG, GE + "IndicesTensor.Sizes[1] is 7, expected 5 (InputTensor.Sizes[1]; only Axis 0 may differ)")
    assert infer(scatter_desc(raw, x, i, raw.tensor(np.float32, (2, 7, 4), total=0), ffi.NULL, 1), 2) == (
        E_INVALIDARG, SE + "outputCount is 2, expected 1")


def elements_malformed_cases():
    X, IX, Y = (4, 5), (4, 3), (4, 3)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def ix(raw, sizes=IX, dtype=np.int32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def g(axis=1):
        return lambda build: (lambda r: gather_elements_desc(r, *build(r), axis))

    def s(axis=1):
        return lambda build: (lambda r: scatter_desc(r, *build(r), axis))

    cases = []
    for name, make, P in (("gather", g, GE), ("scatter", s, SE)):
        # The scatter's tensors: Input X, Indices IX, Updates IX, Output X; the gather's: X, IX, Y.
        def b(x=None, i=None, u=None, y=None, _scatter=name == "scatter"):
            def build(r):
                xs = x(r) if x else t(r, X)
                ixs = i(r) if i else ix(r)
                if _scatter:
                    return xs, ixs, (u(r) if u else t(r, IX)), (y(r) if y else t(r, X))
                return xs, ixs, (y(r) if y else t(r, Y))
            return build
        cases += [
            (f"{name} input NULL", make()(b(x=lambda r: ffi.NULL)), E_POINTER, P + "InputTensor is NULL"),
            (f"{name} indices NULL", make()(b(i=lambda r: ffi.NULL)), E_POINTER, P + "IndicesTensor is NULL"),
            (f"{name} output NULL", make()(b(y=lambda r: ffi.NULL)), E_POINTER, P + "OutputTensor is NULL"),
            (f"{name} 9 dims", make()(b(x=lambda r: t(r, (1,) * 9))), E_INVALIDARG,
             P + "InputTensor.DimensionCount is 9, expected 1 to 8"),
            (f"{name} input size 0", make()(b(x=lambda r: t(r, (4, 0)))), E_INVALIDARG,
             P + "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
            (f"{name} unsupported type", make()(b(x=lambda r: t(r, X, dml_type=12))), E_INVALIDARG,
             P + "InputTensor.DataType UINT4 is not supported"),
            (f"{name} indices int16", make()(b(i=lambda r: ix(r, IX, np.int16))), E_INVALIDARG,
             P + "IndicesTensor.DataType is INT16, expected INT32, INT64, UINT32 or UINT64"),
            (f"{name} indices float", make()(b(i=lambda r: ix(r, IX, np.float64))), E_INVALIDARG,
             P + "IndicesTensor.DataType is FLOAT64, expected INT32, INT64, UINT32 or UINT64"),
            (f"{name} indices rank", make()(b(i=lambda r: ix(r, (1, 4, 3)))), E_INVALIDARG,
             P + "IndicesTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
            (f"{name} indices Type", make()(b(i=lambda r: r.new("DML_TENSOR_DESC*", {"Type": 0}))), E_INVALIDARG,
             P + "IndicesTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
            (f"{name} indices total size", make()(b(i=lambda r: ix(r, total=4))), E_INVALIDARG,
             P + "IndicesTensor.TotalTensorSizeInBytes is 4, expected at least 48 (DMLCalcBufferTensorSize)"),
            (f"{name} indices off-axis size", make()(b(i=lambda r: ix(r, (3, 3)))), E_INVALIDARG,
             P + "IndicesTensor.Sizes[0] is 3, expected 4 (InputTensor.Sizes[0]; only Axis 1 may differ)"),
            (f"{name} indices off-axis size, Axis 0", make(0)(b(i=lambda r: ix(r, (4, 3)))), E_INVALIDARG,
             P + "IndicesTensor.Sizes[1] is 3, expected 5 (InputTensor.Sizes[1]; only Axis 0 may differ)"),
            (f"{name} Axis", make(2)(b()), E_INVALIDARG,
             P + "Axis is 2, expected less than 2 (InputTensor.DimensionCount)"),
            (f"{name} Axis huge", make(0xFFFFFFFF)(b()), E_INVALIDARG,
             P + "Axis is 4294967295, expected less than 2 (InputTensor.DimensionCount)"),
            (f"{name} output type", make()(b(y=lambda r: t(r, X if name == "scatter" else Y, np.float16))),
             E_INVALIDARG, P + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
            (f"{name} output rank", make()(b(y=lambda r: t(r, (1, 4, 3)))), E_INVALIDARG,
             P + "OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
            (f"{name} output stride 0", make()(b(y=lambda r: t(r, X if name == "scatter" else Y, strides=(1, 0)))),
             E_INVALIDARG, P + "OutputTensor.Strides[1] is 0 with Sizes[1]"),
        ]
    cases += [
        ("gather output size", g()(lambda r: (t(r, X), ix(r), t(r, (4, 5)))), E_INVALIDARG,
         GE + "OutputTensor.Sizes[1] is 5, expected 3 (IndicesTensor.Sizes[1])"),
        ("scatter output size", s()(lambda r: (t(r, X), ix(r), t(r, IX), t(r, IX))), E_INVALIDARG,
         SE + "OutputTensor.Sizes[1] is 3, expected 5 (InputTensor.Sizes[1])"),
        ("scatter updates NULL", s()(lambda r: (t(r, X), ix(r), ffi.NULL, t(r, X))), E_POINTER,
         SE + "UpdatesTensor is NULL"),
        ("scatter updates type", s()(lambda r: (t(r, X), ix(r), t(r, IX, np.int32), t(r, X))), E_INVALIDARG,
         SE + "UpdatesTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
        ("scatter updates rank", s()(lambda r: (t(r, X), ix(r), t(r, (1, 4, 3)), t(r, X))), E_INVALIDARG,
         SE + "UpdatesTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ("scatter updates size", s()(lambda r: (t(r, X), ix(r), t(r, (4, 2)), t(r, X))), E_INVALIDARG,
         SE + "UpdatesTensor.Sizes[1] is 2, expected 3 (IndicesTensor.Sizes[1])"),
        ("scatter updates size 0", s()(lambda r: (t(r, X), ix(r), t(r, (4, 0)), t(r, X))), E_INVALIDARG,
         SE + "UpdatesTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("scatter updates total size", s()(lambda r: (t(r, X), ix(r), t(r, IX, total=8), t(r, X))), E_INVALIDARG,
         SE + "UpdatesTensor.TotalTensorSizeInBytes is 8, expected at least 48 (DMLCalcBufferTensorSize)"),
    ]
    return cases


ELEMENTS_CASES = elements_malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", ELEMENTS_CASES, ids=[c[0] for c in ELEMENTS_CASES])
def test_elements_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_elements_malformed_desc_leaves_the_output_untouched(rng):
    x = random_array(rng, (4, 5), np.float32)
    idx = np.zeros((4, 3), np.int32)
    u = np.ones((4, 3), np.float32)
    z = np.full((4, 4), 3, np.float32)
    raw = Raw()
    hr, msg = execute(scatter_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(z),
                                   1), [x, idx, u], [z])
    assert hr == E_INVALIDARG and msg == SE + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"
    assert np.all(z == 3)


# ---- GATHER_ND, GATHER_ND1 and SCATTER_ND ------------------------------------------------------------

GATHER_ND, GATHER_ND1, SCATTER_ND = lib.DML_OPERATOR_GATHER_ND, lib.DML_OPERATOR_GATHER_ND1, lib.DML_OPERATOR_SCATTER_ND
GN, GN1, SN = "DML_OPERATOR_GATHER_ND: ", "DML_OPERATOR_GATHER_ND1: ", "DML_OPERATOR_SCATTER_ND: "


def gather_nd_desc(raw, x_desc, i_desc, y_desc, r, q, b=None):
    """GATHER_ND, or GATHER_ND1 when b (BatchDimensionCount) is given."""
    fields = {"InputTensor": x_desc, "IndicesTensor": i_desc, "OutputTensor": y_desc, "InputDimensionCount": r,
              "IndicesDimensionCount": q}
    if b is None:
        return raw.op(GATHER_ND, "DML_GATHER_ND_OPERATOR_DESC", fields)
    return raw.op(GATHER_ND1, "DML_GATHER_ND1_OPERATOR_DESC", dict(fields, BatchDimensionCount=b))


def scatter_nd_desc(raw, x_desc, i_desc, u_desc, y_desc, r, q):
    return raw.op(SCATTER_ND, "DML_SCATTER_ND_OPERATOR_DESC",
                  {"InputTensor": x_desc, "IndicesTensor": i_desc, "UpdatesTensor": u_desc, "OutputTensor": y_desc,
                   "InputDimensionCount": r, "IndicesDimensionCount": q})


def lead(a, d):
    """a with leading ones up to d dimensions (the desc's common DimensionCount)."""
    a = np.asarray(a)
    return a.reshape((1,) * (d - a.ndim) + a.shape)


def test_nd_values_and_struct_layout():
    assert (GATHER_ND, SCATTER_ND, GATHER_ND1) == (108, 109, 140)
    p = ffi.sizeof("void*")
    assert ffi.offsetof("DML_GATHER_ND_OPERATOR_DESC", "IndicesDimensionCount") == 3 * p + 4
    assert ffi.offsetof("DML_GATHER_ND1_OPERATOR_DESC", "BatchDimensionCount") == 3 * p + 8
    assert ffi.offsetof("DML_SCATTER_ND_OPERATOR_DESC", "IndicesDimensionCount") == 4 * p + 4


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nd_every_type_through_cffi(rng, dtype):
    """Each data type with one of the index types (sampled), coordinates out of range both
    ways: GATHER_ND (tuples of 2), GATHER_ND1 (a batch dimension) and SCATTER_ND."""
    idx_dtype = INDEX_TYPES[ALL_DTYPES.index(dtype) % 4]
    lo = -7 if np.dtype(idx_dtype).kind == "i" else 0
    x = random_array(rng, (3, 5, 4), dtype)
    raw = Raw()
    idx = rng.integers(lo, 8, (1, 6, 2)).astype(idx_dtype)
    y = np.full((1, 6, 4), 7, dtype)
    hr, msg = execute(gather_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 3, 2),
                      [x, idx], [y], [x.nbytes + 4, idx.nbytes + 4], [y.nbytes + 4])
    assert hr == 0 and msg == "", msg
    assert_same_bits(y, lead(ref_gather_nd(x, idx[0]), 3))
    idx = rng.integers(lo, 8, (3, 2, 1)).astype(idx_dtype)
    y = np.full((3, 2, 4), 7, dtype)
    hr, msg = execute(gather_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y), 3, 3, 1),
                      [x, idx], [y])
    assert hr == 0 and msg == "", msg
    assert_same_bits(y, ref_gather_nd(x, idx, 1))
    idx = rng.integers(lo, 6, (1, 5, 2)).astype(idx_dtype)
    u = random_array(rng, (1, 5, 4), dtype)
    z = np.full(x.shape, 7, dtype)
    hr, msg = execute(scatter_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u),
                                      raw.tensor_for(z), 3, 2), [x, idx, u], [z])
    assert hr == 0 and msg == "", msg
    assert_same_bits(z, ref_scatter_nd(x, idx[0], u[0]))


@pytest.mark.parametrize("ndim", range(1, 9))
def test_nd_dimension_counts_below_d(rng, ndim):
    """InputDimensionCount and IndicesDimensionCount below D: the leading sizes are 1."""
    x = random_array(rng, (2, 3, 2)[:min(ndim, 3)], np.int32)
    r, D = x.ndim, ndim
    idx = rng.integers(-3, 4, (2, 1) if ndim > 1 else (1,)).astype(np.int32)  # 1-d: one tuple, a {1} result
    want = ref_gather_nd(x, idx)
    y = np.zeros(lead(want, D).shape, np.int32)
    raw = Raw()
    hr, msg = execute(gather_nd_desc(raw, raw.tensor_for(lead(x, D)), raw.tensor_for(lead(idx, D)),
                                     raw.tensor_for(y), r, idx.ndim, 0), [lead(x, D), lead(idx, D)], [y])
    assert hr == 0, msg
    assert_same_bits(y, lead(want, D))
    u = random_array(rng, want.shape, np.int32)
    z = np.zeros(lead(x, D).shape, np.int32)
    hr, msg = execute(scatter_nd_desc(raw, raw.tensor_for(lead(x, D)), raw.tensor_for(lead(idx, D)),
                                      raw.tensor_for(lead(u, D)), raw.tensor_for(z), r, idx.ndim),
                      [lead(x, D), lead(idx, D), lead(u, D)], [z])
    assert hr == 0, msg
    assert_same_bits(z, lead(ref_scatter_nd(x, idx, u), D))


def test_nd_strides_and_broadcasts(rng):
    """Strided input, broadcast indices (stride 0), transposed output and updates, and the
    tuple's coordinates strided in the indices."""
    base = random_array(rng, (6, 8, 3), np.float32)
    x = base[::2, ::2, 0]                                     # {3, 4}, strides {48, 6}
    pairs = np.array([[-1, 0, 2, 9], [0, 3, -2, 1]], np.int64)  # tuple axis first: strides {1, 4} read as {4, 2}
    raw = Raw()
    y = np.zeros(4, np.float32)
    hr, msg = execute(gather_nd_desc(raw, raw.tensor(np.float32, (3, 4), (48, 6)), raw.tensor(np.int64, (4, 2), (1, 4)),
                                     raw.tensor(np.float32, (1, 4)), 2, 2), [base, pairs], [y])
    assert hr == 0, msg
    assert_same_bits(y, ref_gather_nd(x, pairs.T))
    rows = np.array([[2]], np.uint32)                         # one tuple broadcast to 5
    y = np.zeros((4, 5), np.float32)                          # written as its transpose
    hr, msg = execute(gather_nd_desc(raw, raw.tensor(np.float32, (3, 4), (48, 6)), raw.tensor(np.uint32, (5, 1), (0, 1)),
                                     raw.tensor(np.float32, (5, 4), (1, 5)), 2, 2), [base, rows], [y])
    assert hr == 0, msg
    assert_same_bits(y.T, np.repeat(x[2:3], 5, 0))
    u = random_array(rng, (4, 4), np.float32)                 # read as its transpose
    z = np.zeros((3, 4), np.float32)
    hr, msg = execute(scatter_nd_desc(raw, raw.tensor(np.float32, (3, 4), (48, 6)), raw.tensor(np.int64, (4, 2), (1, 4)),
                                      raw.tensor(np.float32, (1, 4), (1, 4)), raw.tensor_for(z), 2, 2),
                      [base, pairs, u], [z])
    assert hr == 0, msg
    assert_same_bits(z, ref_scatter_nd(x, pairs.T, u[:, 0]))


def test_scatter_nd_in_place_binding(rng):
    x = random_array(rng, (4, 5), np.float32)
    idx = np.array([[3], [-1], [0]], np.int32)
    u = random_array(rng, (3, 5), np.float32)
    want = ref_scatter_nd(x, idx, u)
    raw = Raw()
    desc = scatter_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u), raw.tensor_for(x), 2, 2)
    hr, msg = execute(desc, [x, idx, u], [x])
    assert hr == 0, msg
    assert_same_bits(x, want)
    tdesc = scatter_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u),
                            raw.tensor(np.float32, (4, 5), (1, 4)), 2, 2)
    hr, msg = execute(tdesc, [x, idx, u], [x])
    assert hr == E_INVALIDARG and msg == SN + ("outputs[0] overlaps inputs[0], but the tensors' strides differ; "
                                               "in place, InputTensor and OutputTensor need the same layout")
    assert_same_bits(x, want)


def test_scatter_nd_duplicates_in_row_major_order_on_many_threads(rng):
    """Tuples over four destinations, many times each: the last one in row-major order wins,
    whatever the split of the destinations across threads."""
    x = np.zeros((4, 600), np.int64)
    idx = rng.integers(0, 4, (1, 900, 1)).astype(np.int64)
    u = rng.integers(0, 1 << 40, (1, 900, 600))
    z = np.zeros_like(x)
    raw = Raw()
    desc = scatter_nd_desc(raw, raw.tensor_for(lead(x, 3)), raw.tensor_for(idx), raw.tensor_for(u),
                           raw.tensor_for(lead(z, 3)), 2, 3)
    want = ref_scatter_nd(x, idx[0], u[0])
    for _ in range(2):
        hr, msg = execute(desc, [x, idx, u], [z])
        assert hr == 0, msg
        np.testing.assert_array_equal(z, want)


def test_ctypes_gather_nd1_and_scatter_nd():
    so = rawctypes.library()
    keep = []
    x = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    i = np.array([[[1], [0]]], np.uint32)
    y = np.zeros((1, 2, 2), np.float32)
    d = rawctypes.DML_GATHER_ND1_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                               ctypes.pointer(rawctypes.tensor(i, keep)),
                                               ctypes.pointer(rawctypes.tensor(y, keep)), 3, 2, 1)
    op = rawctypes.operator(GATHER_ND1, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(x), rawctypes.binding(i))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, [[[2, 3], [4, 5]]])
    d.BatchDimensionCount = 2
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == GN1 + (
        "BatchDimensionCount is 2, expected less than 2 (IndicesDimensionCount 2 and InputDimensionCount 3)")
    line = np.arange(1, 9, dtype=np.float32).reshape(1, 8)
    i = np.array([[4], [3], [1], [7]], np.uint32)
    u = np.array([[9, 10, 11, 12]], np.float32)
    z = np.zeros((1, 8), np.float32)
    d = rawctypes.DML_SCATTER_ND_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(line, keep)),
                                               ctypes.pointer(rawctypes.tensor(i, keep)),
                                               ctypes.pointer(rawctypes.tensor(u, keep)),
                                               ctypes.pointer(rawctypes.tensor(z, keep)), 1, 2)
    op = rawctypes.operator(SCATTER_ND, d)
    ins = (DMLC_BUFFER_BINDING * 3)(rawctypes.binding(line), rawctypes.binding(i), rawctypes.binding(u))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 3, ins, 1, ctypes.byref(rawctypes.binding(z)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(z, [[1, 11, 3, 10, 9, 6, 7, 12]])


def test_nd_infer_output_sizes():
    raw = Raw()
    x = raw.tensor(np.float32, (2, 5, 4), total=0)
    i = raw.tensor(np.int64, (2, 7, 1), total=0)
    assert infer(gather_nd_desc(raw, x, raw.tensor(np.int64, (1, 7, 2), total=0), ffi.NULL, 3, 2)) == [(1, 7, 4)]
    assert infer(gather_nd_desc(raw, x, i, ffi.NULL, 3, 3, 1)) == [(2, 7, 4)]
    assert infer(gather_nd_desc(raw, x, raw.tensor(np.int64, (1, 0, 2), total=0), ffi.NULL, 3, 2)) == [(1, 0, 4)]
    assert infer(scatter_nd_desc(raw, x, raw.tensor(np.int64, (1, 7, 2), total=0),
                                 raw.tensor(np.float32, (1, 7, 4), total=0), ffi.NULL, 3, 2)) == [(2, 5, 4)]
    assert infer(gather_nd_desc(raw, x, i, ffi.NULL, 3, 3)) == (
        E_INVALIDARG, GN + "the gathered result has 4 dimensions (IndicesDimensionCount 3 - 1 + InputDimensionCount 3 "
                           "- BatchDimensionCount 0 - the tuple's length 1), more than InputTensor.DimensionCount 3")
    assert infer(scatter_nd_desc(raw, x, i, x, ffi.NULL, 3, 3), 2) == (E_INVALIDARG, SN + "outputCount is 2, expected 1")


def nd_malformed_cases():
    X, IX, Y = (4, 5), (3, 2), (1, 3)          # tuples of two: one element each
    UX = (1, 3)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def ix(raw, sizes=IX, dtype=np.int32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def g(r=2, q=2, b=None):
        return lambda build: (lambda raw: gather_nd_desc(raw, *build(raw), r, q, b))

    def s(r=2, q=2):
        return lambda build: (lambda raw: scatter_nd_desc(raw, *build(raw), r, q))

    cases = []
    for name, make, P in (("gather_nd", g, GN), ("gather_nd1", lambda *a: g(*(a + (2, 2)[len(a):]), b=0), GN1),
                          ("scatter_nd", s, SN)):
        def b(x=None, i=None, u=None, y=None, _scatter=name == "scatter_nd"):
            def build(r):
                xs = x(r) if x else t(r, X)
                ixs = i(r) if i else ix(r)
                if _scatter:
                    return xs, ixs, (u(r) if u else t(r, UX)), (y(r) if y else t(r, X))
                return xs, ixs, (y(r) if y else t(r, Y))
            return build
        cases += [
            (f"{name} input NULL", make()(b(x=lambda r: ffi.NULL)), E_POINTER, P + "InputTensor is NULL"),
            (f"{name} indices NULL", make()(b(i=lambda r: ffi.NULL)), E_POINTER, P + "IndicesTensor is NULL"),
            (f"{name} output NULL", make()(b(y=lambda r: ffi.NULL)), E_POINTER, P + "OutputTensor is NULL"),
            (f"{name} 9 dims", make()(b(x=lambda r: t(r, (1,) * 9))), E_INVALIDARG,
             P + "InputTensor.DimensionCount is 9, expected 1 to 8"),
            (f"{name} input size 0", make()(b(x=lambda r: t(r, (4, 0)))), E_INVALIDARG,
             P + "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
            (f"{name} unsupported type", make()(b(x=lambda r: t(r, X, dml_type=12))), E_INVALIDARG,
             P + "InputTensor.DataType UINT4 is not supported"),
            (f"{name} indices int16", make()(b(i=lambda r: ix(r, IX, np.int16))), E_INVALIDARG,
             P + "IndicesTensor.DataType is INT16, expected INT32, INT64, UINT32 or UINT64"),
            (f"{name} indices float", make()(b(i=lambda r: ix(r, IX, np.float32))), E_INVALIDARG,
             P + "IndicesTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
            (f"{name} indices rank", make()(b(i=lambda r: ix(r, (1, 3, 2)))), E_INVALIDARG,
             P + "IndicesTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
            (f"{name} indices total size", make()(b(i=lambda r: ix(r, total=4))), E_INVALIDARG,
             P + "IndicesTensor.TotalTensorSizeInBytes is 4, expected at least 24 (DMLCalcBufferTensorSize)"),
            (f"{name} InputDimensionCount 0", make(0)(b()), E_INVALIDARG,
             P + "InputDimensionCount is 0, expected 1 to 2 (InputTensor.DimensionCount)"),
            (f"{name} InputDimensionCount 3", make(3)(b()), E_INVALIDARG,
             P + "InputDimensionCount is 3, expected 1 to 2 (InputTensor.DimensionCount)"),
            (f"{name} IndicesDimensionCount 0", make(2, 0)(b()), E_INVALIDARG,
             P + "IndicesDimensionCount is 0, expected 1 to 2 (IndicesTensor.DimensionCount)"),
            (f"{name} IndicesDimensionCount huge", make(2, 0xFFFFFFFF)(b()), E_INVALIDARG,
             P + "IndicesDimensionCount is 4294967295, expected 1 to 2 (IndicesTensor.DimensionCount)"),
            (f"{name} input leading size", make(1, 2)(b()), E_INVALIDARG,
             P + "InputTensor.Sizes[0] is 4, expected 1 (only the last InputDimensionCount 1 dimensions hold data)"),
            (f"{name} indices leading size", make(2, 1)(b()), E_INVALIDARG,
             P + "IndicesTensor.Sizes[0] is 3, expected 1 (only the last IndicesDimensionCount 1 dimensions hold "
                 "indices)"),
            (f"{name} tuple too long", make()(b(i=lambda r: ix(r, (3, 3)))), E_INVALIDARG,
             P + "IndicesTensor.Sizes[1] is 3 (the index tuple's length), expected 1 to 2 (InputDimensionCount 2 - "
                 "BatchDimensionCount 0)"),
            (f"{name} output type", make()(b(y=lambda r: t(r, X if name == "scatter_nd" else Y, np.float16))),
             E_INVALIDARG, P + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
            (f"{name} output rank", make()(b(y=lambda r: t(r, (1, 1, 3)))), E_INVALIDARG,
             P + "OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ]
    cases += [
        ("gather_nd output size", g()(lambda r: (t(r, X), ix(r), t(r, (1, 4)))), E_INVALIDARG,
         GN + "OutputTensor.Sizes[1] is 4, expected 3 (IndicesTensor.Sizes[0])"),
        ("gather_nd output leading size", g()(lambda r: (t(r, X), ix(r), t(r, (2, 3)))), E_INVALIDARG,
         GN + "OutputTensor.Sizes[0] is 2, expected 1 (leading dimensions are 1)"),
        ("gather_nd rows: output size", g()(lambda r: (t(r, X), ix(r, (3, 1)), t(r, (3, 4)))), E_INVALIDARG,
         GN + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"),
        ("gather_nd1 BatchDimensionCount", g(2, 2, 2)(lambda r: (t(r, X), ix(r), t(r, Y))), E_INVALIDARG,
         GN1 + "BatchDimensionCount is 2, expected less than 2 (IndicesDimensionCount 2 and InputDimensionCount 2)"),
        ("gather_nd1 BatchDimensionCount huge", g(2, 2, 0xFFFFFFFF)(lambda r: (t(r, X), ix(r), t(r, Y))),
         E_INVALIDARG, GN1 + "BatchDimensionCount is 4294967295, expected less than 2 (IndicesDimensionCount 2 and "
                             "InputDimensionCount 2)"),
        ("gather_nd1 batch size", g(2, 2, 1)(lambda r: (t(r, X), ix(r, (3, 1)), t(r, (1, 3)))), E_INVALIDARG,
         GN1 + "IndicesTensor.Sizes[0] is 3, expected 4 (InputTensor.Sizes[0], batch dimension 0 of "
               "BatchDimensionCount 1)"),
        ("gather_nd1 tuple past the batch", g(2, 2, 1)(lambda r: (t(r, X), ix(r, (4, 2)), t(r, (1, 4)))),
         E_INVALIDARG, GN1 + "IndicesTensor.Sizes[1] is 2 (the index tuple's length), expected 1 to 1 "
                             "(InputDimensionCount 2 - BatchDimensionCount 1)"),
        ("gather_nd result too long", g(3, 3)(lambda r: (t(r, (2, 3, 4)), ix(r, (2, 2, 1)), t(r, (2, 2, 3)))),
         E_INVALIDARG, GN + "the gathered result has 4 dimensions (IndicesDimensionCount 3 - 1 + InputDimensionCount 3 "
                            "- BatchDimensionCount 0 - the tuple's length 1), more than InputTensor.DimensionCount 3"),
        ("scatter_nd output size", s()(lambda r: (t(r, X), ix(r), t(r, UX), t(r, (4, 4)))), E_INVALIDARG,
         SN + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"),
        ("scatter_nd updates NULL", s()(lambda r: (t(r, X), ix(r), ffi.NULL, t(r, X))), E_POINTER,
         SN + "UpdatesTensor is NULL"),
        ("scatter_nd updates type", s()(lambda r: (t(r, X), ix(r), t(r, UX, np.int32), t(r, X))), E_INVALIDARG,
         SN + "UpdatesTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
        ("scatter_nd updates rank", s()(lambda r: (t(r, X), ix(r), t(r, (1, 1, 3)), t(r, X))), E_INVALIDARG,
         SN + "UpdatesTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
        ("scatter_nd updates size", s()(lambda r: (t(r, X), ix(r), t(r, (1, 2)), t(r, X))), E_INVALIDARG,
         SN + "UpdatesTensor.Sizes[1] is 2, expected 3 (IndicesTensor.Sizes[0])"),
        ("scatter_nd updates leading size", s()(lambda r: (t(r, X), ix(r), t(r, (3, 3)), t(r, X))), E_INVALIDARG,
         SN + "UpdatesTensor.Sizes[0] is 3, expected 1 (leading dimensions are 1)"),
        ("scatter_nd rows: updates size", s()(lambda r: (t(r, X), ix(r, (3, 1)), t(r, (3, 4)), t(r, X))),
         E_INVALIDARG, SN + "UpdatesTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"),
        ("scatter_nd updates total size", s()(lambda r: (t(r, X), ix(r), t(r, UX, total=8), t(r, X))), E_INVALIDARG,
         SN + "UpdatesTensor.TotalTensorSizeInBytes is 8, expected at least 12 (DMLCalcBufferTensorSize)"),
        ("scatter_nd updates too long", s(3, 3)(lambda r: (t(r, (2, 3, 4)), ix(r, (2, 2, 1)), t(r, (2, 2, 3)),
                                                           t(r, (2, 3, 4)))),
         E_INVALIDARG, SN + "UpdatesTensor's gathered shape has 4 dimensions (IndicesDimensionCount 3 - 1 + "
                            "InputDimensionCount 3 - BatchDimensionCount 0 - the tuple's length 1), more than "
                            "InputTensor.DimensionCount 3"),
    ]
    return cases


ND_CASES = nd_malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", ND_CASES, ids=[c[0] for c in ND_CASES])
def test_nd_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_nd_malformed_desc_leaves_the_output_untouched(rng):
    x = random_array(rng, (4, 5), np.float32)
    idx = np.zeros((3, 1), np.int32)
    u = np.ones((3, 5), np.float32)
    z = np.full((4, 4), 3, np.float32)
    raw = Raw()
    hr, msg = execute(scatter_nd_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(u),
                                      raw.tensor_for(z), 2, 2), [x, idx, u], [z])
    assert hr == E_INVALIDARG and msg == SN + "OutputTensor.Sizes[1] is 4, expected 5 (InputTensor.Sizes[1])"
    assert np.all(z == 3)
