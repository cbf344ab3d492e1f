"""DML_OPERATOR_MAX_UNPOOLING as a C caller drives it: raw descs through cffi and ctypes, both
index types, strides on every tensor, the output sizes dmlcInferOutputSizes reads from the
desc, binding rules, and malformed descs with their messages."""
import ctypes
import threading

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_MAX_UNPOOLING_OPERATOR_DESC, DMLC_BUFFER_BINDING
from rawdesc import Raw, assert_create_fails, execute
from reference import ref_max_unpool
from support import ALL_DTYPES, assert_same_bits, random_array

MAX_UNPOOLING = lib.DML_OPERATOR_MAX_UNPOOLING
U = "DML_OPERATOR_MAX_UNPOOLING: "


def unpool_desc(raw, x_desc, i_desc, y_desc):
    return raw.op(MAX_UNPOOLING, "DML_MAX_UNPOOLING_OPERATOR_DESC",
                  {"InputTensor": x_desc, "IndicesTensor": i_desc, "OutputTensor": y_desc})


def pooled(rng, dtype, idx_dtype, shape=(2, 3, 4, 5), out_spatial=(8, 10)):
    """Values and plane-local-plus-plane-offset indices as 2x2/2 max pooling makes them."""
    x = random_array(rng, shape, dtype)
    plane = int(np.prod(out_spatial))
    base = (np.arange(shape[0] * shape[1]) * plane).reshape(shape[:2] + (1, 1))
    idx = (base + rng.integers(0, plane, shape)).astype(idx_dtype)
    return x, idx, shape[:2] + tuple(out_spatial)


# ---- every type, both index types ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("idx_dtype", [np.uint32, np.uint64])
def test_every_type_through_cffi(rng, dtype, idx_dtype):
    x, idx, out_shape = pooled(rng, dtype, idx_dtype)
    y = np.full(out_shape, 7, dtype)  # the operator zero-fills
    raw = Raw()
    desc = unpool_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y))
    hr, msg = execute(desc, [x, idx], [y], [x.nbytes + 4, idx.nbytes], [y.nbytes + 4])
    assert hr == 0, msg
    assert msg == ""
    assert_same_bits(y, ref_max_unpool(x, idx, out_shape))


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.uint64])
def test_strides_on_every_tensor(rng, dtype):
    """Input a transposed view, indices with a row pitch, the output with a wider row pitch
    and a gap between planes: the rule holds and bytes outside the output stay put."""
    x, idx, out_shape = pooled(rng, dtype, np.uint64, (2, 3, 4, 5), (6, 9))
    xb = np.ascontiguousarray(x.transpose(1, 0, 2, 3))           # memory (3, 2, 4, 5)
    x_strides = [20, 40, 5, 1]
    ib = np.zeros((2, 3, 4, 8), np.uint64)
    ib[..., :5] = idx
    i_strides = [96, 32, 8, 1]
    o_strides = [200, 66, 11, 1]
    extent = sum((n - 1) * s for n, s in zip(out_shape, o_strides)) + 1
    yb = np.full(extent + 5, 9, dtype)
    raw = Raw()
    desc = unpool_desc(raw, raw.tensor(dtype, x.shape, x_strides), raw.tensor(np.uint64, idx.shape, i_strides),
                       raw.tensor(dtype, out_shape, o_strides))
    hr, msg = execute(desc, [xb, ib], [yb], [xb.nbytes, ib.nbytes], [yb.nbytes])
    assert hr == 0, msg
    y = np.lib.stride_tricks.as_strided(yb, out_shape, [s * yb.itemsize for s in o_strides])
    assert_same_bits(y, ref_max_unpool(x, idx, out_shape))
    touched = np.zeros(yb.shape, bool)
    np.lib.stride_tricks.as_strided(touched, out_shape, [s * touched.itemsize for s in o_strides])[...] = True
    assert np.all(yb[~touched] == 9)


def test_broadcast_input_and_indices(rng):
    """Stride 0 on the values (one value everywhere) and on the indices' W (each row of
    values goes to one place: the row's last element wins)."""
    idx = np.array([[[[3, 1], [0, 2]]]], np.uint32)   # (1, 1, 2, 2), W broadcast from (1, 1, 2, 1)
    col = np.ascontiguousarray(idx[..., :1])
    vals = np.array([5, 6, 7, 8], np.float32).reshape(1, 1, 2, 2)
    raw = Raw()
    y = np.empty((1, 1, 2, 2), np.float32)
    desc = unpool_desc(raw, raw.tensor_for(vals), raw.tensor(np.uint32, (1, 1, 2, 2), (0, 0, 1, 0)),
                       raw.tensor_for(y))
    hr, msg = execute(desc, [vals, col], [y])
    assert hr == 0, msg
    np.testing.assert_array_equal(y.reshape(-1), [8, 0, 0, 6])   # 5, 6 -> index 3; 7, 8 -> index 0
    one = np.array([4], np.int16)
    desc = unpool_desc(raw, raw.tensor(np.int16, (1, 2, 3), (0, 0, 0)), raw.tensor_for(np.zeros((1, 2, 3), np.uint32)),
                       raw.tensor(np.int16, (1, 2, 2)))
    z = np.full((1, 2, 2), -1, np.int16)
    hr, msg = execute(desc, [one, np.array([0, 3, 9, 1, 2, 3], np.uint32).reshape(1, 2, 3)], [z], [4, 24])
    assert hr == 0, msg
    np.testing.assert_array_equal(z.reshape(-1), [4, 4, 4, 4])


def test_create_once_execute_from_many_threads(rng):
    x, idx, out_shape = pooled(rng, np.float32, np.uint32, (2, 16, 64, 64), (128, 128))
    want = ref_max_unpool(x, idx, out_shape)
    raw = Raw()
    desc = unpool_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor(np.float32, out_shape))
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    results, errors = [], []

    def worker():
        y = np.empty(out_shape, np.float32)
        for _ in range(4):
            if lib.dmlcExecute(op[0], 2, raw.bindings([x, idx]), 1, raw.bindings([y])) != 0:
                errors.append(1)
        results.append(y)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lib.dmlcReleaseOperator(op[0])
    assert not errors
    for y in results:
        assert_same_bits(y, want)


# ---- ctypes, with directml.h's layout transcribed by hand ----------------------------------------

def test_ctypes_max_unpooling():
    so = rawctypes.library()
    keep = []
    v = np.array([[[[8, 9], [7, 11]]]], np.float32)
    i = np.array([[[[1, 6], [8, 11]]]], np.uint64)
    y = np.full((1, 1, 4, 4), 3, np.float32)
    d = DML_MAX_UNPOOLING_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(v, keep)),
                                        ctypes.pointer(rawctypes.tensor(i, keep)),
                                        ctypes.pointer(rawctypes.tensor(y, keep)))
    op = rawctypes.operator(MAX_UNPOOLING, d)
    ins = (DMLC_BUFFER_BINDING * 2)(rawctypes.binding(v), rawctypes.binding(i))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y)))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y[0, 0], [[0, 8, 0, 0], [0, 0, 9, 0], [7, 0, 0, 11], [0, 0, 0, 0]])
    # Output N wrong: E_INVALIDARG, the message, the output untouched.
    y2 = np.full((2, 1, 4, 4), 3, np.float32)
    d.OutputTensor = ctypes.pointer(rawctypes.tensor(y2, keep))
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.byref(rawctypes.binding(y2)))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == U + "OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"
    assert np.all(y2 == 3)


# ---- dmlcInferOutputSizes: the output's sizes are the operator's parameter ------------------------

def infer(op, count=1):
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(op, 0, count, out)
    msg = ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    if hr != 0:
        return hr, msg
    return [tuple(out[k].Sizes[j] for j in range(out[k].DimensionCount)) for k in range(count)]


def test_infer_reads_and_checks_the_output_sizes():
    raw = Raw()
    x = raw.tensor(np.float32, (2, 3, 4, 5), total=0)
    i = raw.tensor(np.uint32, (2, 3, 4, 5), total=0)
    assert infer(unpool_desc(raw, x, i, raw.tensor(np.float32, (2, 3, 9, 11), total=0))) == [(2, 3, 9, 11)]
    # Empty inputs (NumPy's empty arrays) are allowed here, with an empty output to match.
    e, ei = raw.tensor(np.float32, (0, 3, 4, 5), total=0), raw.tensor(np.uint64, (0, 3, 4, 5), total=0)
    assert infer(unpool_desc(raw, e, ei, raw.tensor(np.float32, (0, 3, 8, 0), total=0))) == [(0, 3, 8, 0)]
    assert infer(unpool_desc(raw, x, i, ffi.NULL)) == (
        E_POINTER, U + "OutputTensor is NULL; MAX_UNPOOLING's output sizes are its parameter, so dmlcInferOutputSizes "
                       "reads them from OutputTensor's DimensionCount and Sizes")
    assert infer(unpool_desc(raw, x, i, raw.tensor(np.float32, (2, 4, 9, 11), total=0))) == (
        E_INVALIDARG, U + "OutputTensor.Sizes[1] is 4, expected 3 (InputTensor.Sizes[1])")
    assert infer(unpool_desc(raw, x, raw.tensor(np.int32, (2, 3, 4, 5), total=0),
                             raw.tensor(np.float32, (2, 3, 9, 11), total=0))) == (
        E_INVALIDARG, U + "IndicesTensor.DataType is INT32, expected UINT32 or UINT64")
    assert infer(unpool_desc(raw, x, i, raw.tensor(np.float32, (2, 3, 9, 11), total=0)), 2) == (
        E_INVALIDARG, U + "outputCount is 2, expected 1")


# ---- bindings ------------------------------------------------------------------------------------

def test_binding_rules_leave_the_output_untouched(rng):
    x, idx, out_shape = pooled(rng, np.float32, np.uint32)
    y = np.full(out_shape, 5, np.float32)
    raw = Raw()
    desc = unpool_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y))
    cases = [
        ([x], [y], U + "inputCount is 1, expected 2"),
        ([x, idx], [], U + "outputCount is 0, expected 1"),
        ([x, None], [y], U + "inputs[1].Buffer is NULL"),
    ]
    for ins, outs, msg in cases:
        hr, got = execute(desc, ins, outs)
        assert hr in (E_INVALIDARG, E_POINTER) and got == msg
    hr, got = execute(desc, [x, idx], [y], [x.nbytes, idx.nbytes - 4])
    assert hr == E_INVALIDARG
    assert got == U + f"inputs[1].SizeInBytes is {idx.nbytes - 4}, smaller than the tensor's TotalTensorSizeInBytes " \
                      f"{idx.nbytes}"
    # The output may not share memory with the indices.
    buf = np.zeros(max(idx.nbytes, y.nbytes) // 4, np.uint32)
    hr, got = execute(desc, [x, buf], [buf.view(np.float32)])
    assert hr == E_INVALIDARG and got == U + "outputs[0] overlaps inputs[1]; outputs may not alias inputs"
    assert np.all(y == 5) and np.all(buf == 0)


# ---- malformed descs -------------------------------------------------------------------------------

def malformed_cases():
    X, Y = (1, 2, 3, 3), (1, 2, 6, 6)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    def u32(raw, sizes=X, **kw):
        return raw.tensor(np.uint32, sizes, **kw)

    return [
        ("input NULL", lambda r: unpool_desc(r, ffi.NULL, u32(r), t(r, Y)), E_POINTER, U + "InputTensor is NULL"),
        ("indices NULL", lambda r: unpool_desc(r, t(r, X), ffi.NULL, t(r, Y)), E_POINTER, U + "IndicesTensor is NULL"),
        ("output NULL", lambda r: unpool_desc(r, t(r, X), u32(r), ffi.NULL), E_POINTER, U + "OutputTensor is NULL"),
        ("2 dims", lambda r: unpool_desc(r, t(r, (2, 3)), u32(r, (2, 3)), t(r, (2, 6))), E_INVALIDARG,
         U + "InputTensor.DimensionCount is 2, expected 3 to 5"),
        ("6 dims", lambda r: unpool_desc(r, t(r, (1,) * 6), u32(r, (1,) * 6), t(r, (1,) * 6)), E_INVALIDARG,
         U + "InputTensor.DimensionCount is 6, expected 3 to 5"),
        ("indices 6 dims", lambda r: unpool_desc(r, t(r, X), u32(r, (1,) * 6), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.DimensionCount is 6, expected 3 to 5"),
        ("indices int64", lambda r: unpool_desc(r, t(r, X), t(r, X, np.int64), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.DataType is INT64, expected UINT32 or UINT64"),
        ("indices float", lambda r: unpool_desc(r, t(r, X), t(r, X), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.DataType is FLOAT32, expected UINT32 or UINT64"),
        ("indices rank", lambda r: unpool_desc(r, t(r, X), u32(r, (1, 2, 9)), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
        ("indices size", lambda r: unpool_desc(r, t(r, X), u32(r, (1, 2, 3, 4)), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.Sizes[3] is 4, expected 3 (InputTensor.Sizes[3])"),
        ("indices Type", lambda r: unpool_desc(r, t(r, X), r.new("DML_TENSOR_DESC*", {"Type": 0}), t(r, Y)),
         E_INVALIDARG, U + "IndicesTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("output type", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, Y, np.float16)), E_INVALIDARG,
         U + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
        ("output rank", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, (1, 2, 36))), E_INVALIDARG,
         U + "OutputTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
        ("output N", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, (2, 2, 6, 6))), E_INVALIDARG,
         U + "OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
        ("output C", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, (1, 1, 6, 6))), E_INVALIDARG,
         U + "OutputTensor.Sizes[1] is 1, expected 2 (InputTensor.Sizes[1])"),
        ("output size 0", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, (1, 2, 6, 0))), E_INVALIDARG,
         U + "OutputTensor.Sizes[3] is 0; sizes must be at least 1"),
        ("output stride 0", lambda r: unpool_desc(r, t(r, X), u32(r), t(r, Y, strides=(72, 36, 6, 0))), E_INVALIDARG,
         U + "OutputTensor.Strides[3] is 0 with Sizes[3] 6; an output element may not be written twice"),
        ("unsupported type", lambda r: unpool_desc(r, t(r, X, dml_type=12), u32(r), t(r, Y)), E_INVALIDARG,
         U + "InputTensor.DataType UINT4 is not supported"),
        ("total size", lambda r: unpool_desc(r, t(r, X), u32(r, total=16), t(r, Y)), E_INVALIDARG,
         U + "IndicesTensor.TotalTensorSizeInBytes is 16, expected at least 72 (DMLCalcBufferTensorSize)"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_the_output_untouched(rng):
    x, idx, _ = pooled(rng, np.float32, np.uint32)
    y = np.full((3, 3, 8, 10), 3, np.float32)
    raw = Raw()
    desc = unpool_desc(raw, raw.tensor_for(x), raw.tensor_for(idx), raw.tensor_for(y))
    hr, msg = execute(desc, [x, idx], [y])
    assert hr == E_INVALIDARG and msg == U + "OutputTensor.Sizes[0] is 3, expected 2 (InputTensor.Sizes[0])"
    assert np.all(y == 3)
