"""DML_OPERATOR_AVERAGE_POOLING and AVERAGE_POOLING1 as a C caller drives them: raw descs
through cffi and ctypes, IncludePadding both ways, strides on every tensor, the sizes
dmlcInferOutputSizes gives (floor and ceil), and malformed descs with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, ffi, lib
from rawctypes import DML_AVERAGE_POOLING1_OPERATOR_DESC, DML_AVERAGE_POOLING_OPERATOR_DESC
from rawdesc import Raw, assert_create_fails, execute, execute_from_threads, pool_window_cases, strided_output
from reference import ref_avg_pool
from support import random_array

AVG, AVG1 = lib.DML_OPERATOR_AVERAGE_POOLING, lib.DML_OPERATOR_AVERAGE_POOLING1
P0, P1 = "DML_OPERATOR_AVERAGE_POOLING: ", "DML_OPERATOR_AVERAGE_POOLING1: "
FLOATS = [np.float64, np.float32, np.float16]


def avg_desc(raw, version, x_desc, y_desc, strides=(2, 2), window=(2, 2), start=(0, 0), end=(0, 0),
             dilations=(1, 1), include=0, ndim=None):
    """A DML_OPERATOR_DESC of AVERAGE_POOLING (version 0) or AVERAGE_POOLING1; None for an
    array field gives NULL."""
    fields = {"InputTensor": x_desc, "OutputTensor": y_desc,
              "DimensionCount": len(window if window is not None else strides) if ndim is None else ndim,
              "Strides": raw.uints(strides), "WindowSize": raw.uints(window), "StartPadding": raw.uints(start),
              "EndPadding": raw.uints(end), "IncludePadding": include}
    if version == 0:
        return raw.op(AVG, "DML_AVERAGE_POOLING_OPERATOR_DESC", fields)
    fields["Dilations"] = raw.uints(dilations)
    return raw.op(AVG1, "DML_AVERAGE_POOLING1_OPERATOR_DESC", fields)


def assert_within_bound(got, x, *args):
    want, bound = ref_avg_pool(x, *args)
    g = got.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    ok = np.isnan(want) | (np.abs(g - want) <= bound)
    assert ok.all()


# ---- both versions, IncludePadding both ways -----------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("include", [0, 1])
def test_versions_through_cffi(rng, dtype, version, include):
    x = random_array(rng, (2, 3, 7, 10), dtype)
    k, s, a, b = (3, 2), (2, 3), (1, 0), (0, 2)
    d = (2, 1) if version == 1 else (1, 1)
    want_shape = (2, 3, (7 + 1 - ((k[0] - 1) * d[0] + 1)) // 2 + 1, (10 + 2 - k[1]) // 3 + 1)
    y = np.full(want_shape, 5, dtype)
    raw = Raw()
    desc = avg_desc(raw, version, raw.tensor_for(x), raw.tensor_for(y), s, k, a, b, d, include)
    hr, msg = execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8])
    assert hr == 0, msg
    assert msg == ""
    assert_within_bound(y, x, k, s, a, b, d, bool(include))


@pytest.mark.parametrize("sp", [1, 3])
def test_one_and_three_spatial_dimensions(rng, sp):
    x = random_array(rng, (2, 2) + (5, 6, 9)[3 - sp:], np.float16)
    k, s, a, b, d = (2,) * sp, (2,) * sp, (1,) * sp, (0,) * sp, (1,) * sp
    shape = (2, 2) + tuple((n + 1 - 2) // 2 + 1 for n in x.shape[2:])
    y = np.empty(shape, np.float16)
    raw = Raw()
    desc = avg_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y), s, k, a, b, d, 1)
    hr, msg = execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8])
    assert hr == 0, msg
    assert_within_bound(y, x, k, s, a, b, d, True)


def test_ceil_mode_output_size_is_accepted(rng):
    x = random_array(rng, (1, 2, 5, 5), np.float32)
    y = np.empty((1, 2, 3, 3), np.float32)
    raw = Raw()
    hr, msg = execute(avg_desc(raw, 0, raw.tensor_for(x), raw.tensor_for(y)), [x], [y])
    assert hr == 0, msg
    assert_within_bound(y, x, (2, 2), (2, 2), (0, 0), (0, 0), (1, 1), False, "plain")


def test_plain_ceil_size_with_a_window_past_the_padded_input():
    """n 2, window 1, stride 2, end padding 2: padded 4, floor 2, plain ceil 3, whose third
    window (position 4) is past the padded input: NaN (a positive one) with IncludePadding
    too.  The PyTorch size, 2 (that window starts in the end padding), is accepted as well."""
    x = np.array([[[2, 4]]], np.float32)
    for size, want in [(3, [2, 0, np.nan]), (2, [2, 0])]:
        y = np.full((1, 1, size), 7, np.float32)
        raw = Raw()
        desc = avg_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y), (2,), (1,), (0,), (2,), (1,), 1)
        hr, msg = execute(desc, [x], [y])
        assert hr == 0, msg
        np.testing.assert_array_equal(y.reshape(-1), want)
        assert not np.signbit(y.reshape(-1)).any()
        assert_within_bound(y, x, (1,), (2,), (0,), (2,), (1,), True, "plain" if size == 3 else True)


def test_pytorch_ceil_size_below_the_floor_size(rng):
    """n 4, window 1, stride 1, end padding 2: floor 6 = plain ceil, but PyTorch's ceil
    mode drops the last window (it starts at 5, in the end padding): 5, which dmlcCreateOperator
    accepts and dmlcInferOutputSizes gives with DMLC_INFER_FLAG_CEIL_MODE."""
    x = random_array(rng, (1, 2, 4), np.float32)
    raw = Raw()
    op = avg_desc(raw, 1, raw.tensor(np.float32, x.shape, total=0), ffi.NULL, (1,), (1,), (0,), (2,), (1,))
    assert infer(op) == [(1, 2, 6)]
    assert infer(op, flags=lib.DMLC_INFER_FLAG_CEIL_MODE) == [(1, 2, 5)]
    for size in (6, 5):
        y = np.empty((1, 2, size), np.float32)
        desc = avg_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y), (1,), (1,), (0,), (2,), (1,), 1)
        hr, msg = execute(desc, [x], [y])
        assert hr == 0, msg
        assert_within_bound(y, x, (1,), (1,), (0,), (2,), (1,), True, size == 5)
    assert_create_fails(lambda r: avg_desc(r, 1, r.tensor(np.float32, x.shape), r.tensor(np.float32, (1, 2, 4)),
                                           (1,), (1,), (0,), (2,), (1,), 1), E_INVALIDARG,
                        P1 + "OutputTensor.Sizes[2] is 4, expected 6 (floor), 6 (ceil) or 5 (ceil without a last "
                        "window starting in the end padding) ((InputTensor.Sizes[2] 4 + StartPadding[0] 0 + "
                        "EndPadding[0] 2 - window 1) / Strides[0] 1 + 1)")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_strides_on_every_tensor(rng, dtype):
    """Input a transposed view; output written with a row pitch wider than its rows and a
    gap between planes; bytes outside it stay put."""
    base = random_array(rng, (3, 2, 12, 20), dtype)  # viewed as (2, 3, 12, 20)
    x_strides = [240, 480, 20, 1]
    x = np.lib.stride_tricks.as_strided(base, (2, 3, 12, 20), [s * base.itemsize for s in x_strides])
    shape = (2, 3, 6, 10)
    o_strides = [300, 100, 13, 1]
    extent = sum((n - 1) * s for n, s in zip(shape, o_strides)) + 1
    yb = np.full(extent + 3, 7, dtype)
    raw = Raw()
    desc = avg_desc(raw, 1, raw.tensor(dtype, x.shape, x_strides), raw.tensor(dtype, shape, o_strides), (2, 2), (3, 3),
                    (1, 1), (1, 1))
    hr, msg = execute(desc, [base], [yb], [base.nbytes], [yb.nbytes])
    assert hr == 0, msg
    y = strided_output(yb, shape, o_strides)
    assert_within_bound(y, np.ascontiguousarray(x), (3, 3), (2, 2), (1, 1), (1, 1), (1, 1))


def test_broadcast_input(rng):
    """Stride 0 on N and H: every plane and row is the same."""
    row = random_array(rng, (16,), np.float32)
    raw = Raw()
    y = np.empty((3, 1, 4, 8), np.float32)
    desc = avg_desc(raw, 1, raw.tensor(np.float32, (3, 1, 8, 16), (0, 0, 0, 1)), raw.tensor_for(y))
    hr, msg = execute(desc, [row], [y])
    assert hr == 0, msg
    np.testing.assert_allclose(y, np.broadcast_to(row.reshape(8, 2).mean(axis=1, dtype=np.float64), y.shape), rtol=1e-6)


def test_create_once_execute_from_many_threads(rng):
    x = random_array(rng, (2, 8, 64, 64), np.float32)
    raw = Raw()
    desc = avg_desc(raw, 1, raw.tensor_for(x), raw.tensor(np.float32, (2, 8, 32, 32)), (2, 2), (3, 3), (1, 1), (1, 1))
    want = np.empty((2, 8, 32, 32), np.float32)
    assert execute(desc, [x], [want])[0] == 0
    execute_from_threads(desc, [x], want)


# ---- ctypes, with directml.h's layout transcribed by hand -------------------------------------------

@pytest.mark.parametrize("version", [0, 1])
def test_ctypes_average_pooling(version):
    so = rawctypes.library()
    keep = []
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    y = np.zeros((1, 1, 2, 2), np.float32)
    U2 = ctypes.c_uint32 * 2
    strides, window, ones = U2(2, 2), U2(3, 3), U2(1, 1)
    tx, ty = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    if version == 0:
        d = DML_AVERAGE_POOLING_OPERATOR_DESC(ctypes.pointer(tx), ctypes.pointer(ty), 2, strides, window, ones, ones, 1)
    else:
        d = DML_AVERAGE_POOLING1_OPERATOR_DESC(ctypes.pointer(tx), ctypes.pointer(ty), 2, strides, window, ones, ones,
                                               ones, 1)
    op = rawctypes.operator(AVG if version == 0 else AVG1, d)
    bind_in, bind_out = rawctypes.binding(x), rawctypes.binding(y)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y[0, 0], np.array([[10, 24], [51, 90]], np.float32) / np.float32(9))
    d.IncludePadding = 0
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y[0, 0], [[2.5, 4], [8.5, 10]])
    # IncludePadding neither FALSE nor TRUE: E_INVALIDARG, the message, the output untouched.
    d.IncludePadding = 2
    y[...] = -1
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == (P0 if version == 0 else P1) + \
        "IncludePadding is 2, expected FALSE (0) or TRUE (1)"
    assert np.all(y == -1)


# ---- dmlcInferOutputSizes ----------------------------------------------------------------------------

def infer(op, count=1, flags=0):
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(op, flags, count, out)
    msg = ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    if hr != 0:
        return hr, msg
    return [tuple(out[k].Sizes[j] for j in range(out[k].DimensionCount)) for k in range(count)]


@pytest.mark.parametrize("version", [0, 1])
def test_infer_floor_and_ceil(version):
    raw = Raw()
    op = avg_desc(raw, version, raw.tensor(np.float32, (1, 2, 7, 8), total=0), ffi.NULL, (2, 2), (3, 3))
    assert infer(op) == [(1, 2, 3, 3)]
    assert infer(op, flags=lib.DMLC_INFER_FLAG_CEIL_MODE) == [(1, 2, 3, 4)]
    empty = avg_desc(raw, version, raw.tensor(np.float16, (0, 2, 7, 8), total=0), ffi.NULL, (2, 2), (3, 3))
    assert infer(empty) == [(0, 2, 3, 3)]
    assert infer(op, 2) == (E_INVALIDARG, (P0 if version == 0 else P1) + "outputCount is 2, expected 1")


# ---- malformed descs ---------------------------------------------------------------------------------

def malformed_cases():
    X, Y = (1, 2, 6, 6), (1, 2, 3, 3)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    return pool_window_cases(avg_desc, P0, P1) + [
        ("integer type", lambda r: avg_desc(r, 1, t(r, X, np.int32), t(r, Y, np.int32)), E_INVALIDARG,
         P1 + "InputTensor.DataType is INT32, expected FLOAT64, FLOAT32 or FLOAT16"),
        ("uint8 type", lambda r: avg_desc(r, 0, t(r, X, np.uint8), t(r, Y, np.uint8)), E_INVALIDARG,
         P0 + "InputTensor.DataType is UINT8, expected FLOAT64, FLOAT32 or FLOAT16"),
        ("IncludePadding 2", lambda r: avg_desc(r, 1, t(r, X), t(r, Y), include=2), E_INVALIDARG,
         P1 + "IncludePadding is 2, expected FALSE (0) or TRUE (1)"),
        ("IncludePadding -1", lambda r: avg_desc(r, 0, t(r, X), t(r, Y), include=-1), E_INVALIDARG,
         P0 + "IncludePadding is -1, expected FALSE (0) or TRUE (1)"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_the_output_untouched(rng):
    x = random_array(rng, (1, 2, 6, 6), np.float32)
    y = np.full((1, 2, 3, 4), 3, np.float32)
    raw = Raw()
    hr, msg = execute(avg_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y)), [x], [y])
    assert hr == E_INVALIDARG and msg.startswith(P1 + "OutputTensor.Sizes[3] is 4, expected 3")
    assert np.all(y == 3)
