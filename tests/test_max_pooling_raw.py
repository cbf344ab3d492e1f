"""DML_OPERATOR_MAX_POOLING, MAX_POOLING1 and MAX_POOLING2 as a C caller drives them: raw
descs through cffi and ctypes, with and without OutputIndicesTensor, strides on every
tensor, binding rules, and malformed descs with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import (DML_BUFFER_TENSOR_DESC, DML_MAX_POOLING2_OPERATOR_DESC, DML_OPERATOR_DESC, DML_TENSOR_DESC,
                       DMLC_BUFFER_BINDING)
from rawdesc import Raw, assert_create_fails, execute
from reference import ref_max_pool
from support import ALL_DTYPES, assert_same_bits, random_array

MAX_POOLING, MAX_POOLING1, MAX_POOLING2 = (lib.DML_OPERATOR_MAX_POOLING, lib.DML_OPERATOR_MAX_POOLING1,
                                          lib.DML_OPERATOR_MAX_POOLING2)
UINT32, UINT64 = lib.DML_TENSOR_DATA_TYPE_UINT32, lib.DML_TENSOR_DATA_TYPE_UINT64
P0, P1, P2 = "DML_OPERATOR_MAX_POOLING: ", "DML_OPERATOR_MAX_POOLING1: ", "DML_OPERATOR_MAX_POOLING2: "


def pool_desc(raw, version, x_desc, y_desc, i_desc=None, strides=(2, 2), window=(2, 2), start=(0, 0), end=(0, 0),
              dilations=(1, 1), ndim=None):
    """A DML_OPERATOR_DESC of MAX_POOLING (version 0), MAX_POOLING1 or MAX_POOLING2; None
    for an array field gives NULL."""
    fields = {"InputTensor": x_desc, "OutputTensor": y_desc,
              "DimensionCount": len(window if window is not None else strides) if ndim is None else ndim,
              "Strides": raw.uints(strides), "WindowSize": raw.uints(window),
              "StartPadding": raw.uints(start), "EndPadding": raw.uints(end)}
    if version == 0:
        return raw.op(MAX_POOLING, "DML_MAX_POOLING_OPERATOR_DESC", fields)
    fields["OutputIndicesTensor"] = ffi.NULL if i_desc is None else i_desc
    if version == 1:
        return raw.op(MAX_POOLING1, "DML_MAX_POOLING1_OPERATOR_DESC", fields)
    fields["Dilations"] = raw.uints(dilations)
    return raw.op(MAX_POOLING2, "DML_MAX_POOLING2_OPERATOR_DESC", fields)


# ---- every version, with and without indices -------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("version", [0, 1, 2])
def test_versions_through_cffi(rng, dtype, version):
    x = random_array(rng, (2, 3, 7, 10), dtype)
    k, s, a, b = (3, 2), (2, 3), (1, 0), (0, 2)
    d = (2, 1) if version == 2 else (1, 1)
    want_v, want_i = ref_max_pool(x, k, s, a, b, d)
    y = np.empty(want_v.shape, dtype)
    raw = Raw()
    desc = pool_desc(raw, version, raw.tensor_for(x), raw.tensor_for(y), None, s, k, a, b, d)
    outputs = [y] if version == 0 else [y, None]  # MAX_POOLING1/2 always have two output slots
    hr, msg = execute(desc, [x], outputs, [x.nbytes + 8], [y.nbytes + 8, 0][:len(outputs)])
    assert hr == 0, msg
    assert msg == ""
    assert_same_bits(y, want_v)
    if version:
        for itype, idt in ((UINT32, np.uint32), (UINT64, np.uint64)):
            y[...] = 0
            i = np.empty(want_v.shape, idt)
            desc = pool_desc(raw, version, raw.tensor_for(x), raw.tensor_for(y), raw.tensor(idt, i.shape), s, k, a, b, d)
            hr, msg = execute(desc, [x], [y, i], [x.nbytes + 8], [y.nbytes + 8, i.nbytes])
            assert hr == 0, msg
            assert_same_bits(y, want_v)
            np.testing.assert_array_equal(i, want_i.astype(idt))


@pytest.mark.parametrize("sp", [1, 3])
def test_one_and_three_spatial_dimensions(rng, sp):
    x = random_array(rng, (2, 2) + (5, 6, 9)[3 - sp:], np.float16)
    k, s, a, b, d = (2,) * sp, (2,) * sp, (1,) * sp, (0,) * sp, (1,) * sp
    want_v, want_i = ref_max_pool(x, k, s, a, b, d)
    y, i = np.empty(want_v.shape, x.dtype), np.empty(want_v.shape, np.uint64)
    raw = Raw()
    desc = pool_desc(raw, 2, raw.tensor_for(x), raw.tensor_for(y), raw.tensor(np.uint64, i.shape), s, k, a, b, d)
    hr, msg = execute(desc, [x], [y, i], [x.nbytes + 8], [y.nbytes + 8, i.nbytes])
    assert hr == 0, msg
    assert_same_bits(y, want_v)
    np.testing.assert_array_equal(i, want_i)


def test_ceil_mode_output_size_is_accepted(rng):
    """The output may have the ceil-mode size (ONNX Runtime's DirectML backend passes it)."""
    x = random_array(rng, (1, 2, 5, 5), np.float32)
    want_v, want_i = ref_max_pool(x, (2, 2), (2, 2), (0, 0), (0, 0), (1, 1), ceil_mode="plain")
    assert want_v.shape == (1, 2, 3, 3)
    y, i = np.empty(want_v.shape, np.float32), np.empty(want_v.shape, np.uint32)
    raw = Raw()
    desc = pool_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y), raw.tensor(np.uint32, i.shape))
    hr, msg = execute(desc, [x], [y, i])
    assert hr == 0, msg
    assert_same_bits(y, want_v)
    np.testing.assert_array_equal(i, want_i.astype(np.uint32))
    assert np.isneginf(y).sum() == 0  # each ceil window still holds one input row or column


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64])
def test_strides_on_every_tensor(rng, dtype):
    """Input a transposed view; values and indices written with row pitches wider than their
    rows and a gap between planes; bytes outside them stay put."""
    base = random_array(rng, (3, 2, 12, 20), dtype)  # viewed as (2, 3, 12, 20)
    x_strides = [240, 480, 20, 1]
    x = np.lib.stride_tricks.as_strided(base, (2, 3, 12, 20), [s * base.itemsize for s in x_strides])
    want_v, want_i = ref_max_pool(np.ascontiguousarray(x), (3, 3), (2, 2), (1, 1), (1, 1), (1, 1))
    shape = want_v.shape  # (2, 3, 6, 10)
    o_strides = [300, 100, 13, 1]
    i_strides = [200, 66, 11, 1]
    extent_o = sum((n - 1) * s for n, s in zip(shape, o_strides)) + 1
    extent_i = sum((n - 1) * s for n, s in zip(shape, i_strides)) + 1
    yb, yb0 = np.full(extent_o + 3, 7, dtype), np.full(extent_o + 3, 7, dtype)
    ib = np.full(extent_i + 3, 99, np.uint64)
    raw = Raw()
    desc = pool_desc(raw, 2, raw.tensor(dtype, x.shape, x_strides), raw.tensor(dtype, shape, o_strides),
                     raw.tensor(np.uint64, shape, i_strides), (2, 2), (3, 3), (1, 1), (1, 1))
    hr, msg = execute(desc, [base], [yb, ib], [base.nbytes], [yb.nbytes, ib.nbytes])
    assert hr == 0, msg
    y = np.lib.stride_tricks.as_strided(yb, shape, [s * yb.itemsize for s in o_strides])
    i = np.lib.stride_tricks.as_strided(ib, shape, [s * ib.itemsize for s in i_strides])
    assert_same_bits(y, want_v)
    np.testing.assert_array_equal(i, want_i)
    touched = np.zeros(yb.shape, bool)
    np.lib.stride_tricks.as_strided(touched, shape, [s * touched.itemsize for s in o_strides])[...] = True
    np.testing.assert_array_equal(yb[~touched], yb0[~touched])
    touched = np.zeros(ib.shape, bool)
    np.lib.stride_tricks.as_strided(touched, shape, [s * touched.itemsize for s in i_strides])[...] = True
    assert np.all(ib[~touched] == 99)


def test_broadcast_input(rng):
    """Stride 0 on N and H: every plane and row is the same."""
    row = random_array(rng, (16,), np.float32)
    raw = Raw()
    y = np.empty((3, 1, 4, 8), np.float32)
    i = np.empty(y.shape, np.uint32)
    desc = pool_desc(raw, 2, raw.tensor(np.float32, (3, 1, 8, 16), (0, 0, 0, 1)), raw.tensor_for(y),
                     raw.tensor(np.uint32, y.shape))
    hr, msg = execute(desc, [row], [y, i])
    assert hr == 0, msg
    want_v, want_i = ref_max_pool(np.broadcast_to(row, (3, 1, 8, 16)).copy(), (2, 2), (2, 2), (0, 0), (0, 0), (1, 1))
    assert_same_bits(y, want_v)
    np.testing.assert_array_equal(i, want_i)


def test_create_once_execute_from_many_threads(rng):
    import threading
    x = random_array(rng, (2, 8, 64, 64), np.float32)
    want_v, want_i = ref_max_pool(x, (3, 3), (2, 2), (1, 1), (1, 1), (1, 1))
    raw = Raw()
    desc = pool_desc(raw, 2, raw.tensor_for(x), raw.tensor(np.float32, want_v.shape),
                     raw.tensor(np.uint64, want_v.shape), (2, 2), (3, 3), (1, 1), (1, 1))
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    results, errors = [], []

    def worker():
        y, i = np.empty(want_v.shape, np.float32), np.empty(want_v.shape, np.uint64)
        for _ in range(5):
            hr = lib.dmlcExecute(op[0], 1, raw.bindings([x]), 2, raw.bindings([y, i]))
            if hr != 0:
                errors.append(hr)
        results.append((y, i))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lib.dmlcReleaseOperator(op[0])
    assert not errors
    for y, i in results:
        assert_same_bits(y, want_v)
        np.testing.assert_array_equal(i, want_i)


# ---- ctypes, with directml.h's layout transcribed by hand ------------------------------------------

def test_ctypes_max_pooling2_with_indices():
    so = rawctypes.library()
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)[:, :, ::-1].copy()  # rows 12.. down to 0..
    y = np.zeros((1, 1, 2, 2), np.float32)
    i = np.zeros((1, 1, 2, 2), np.uint64)
    U4 = ctypes.c_uint32 * 4
    U2 = ctypes.c_uint32 * 2
    sx, sy = U4(*x.shape), U4(*y.shape)
    f32 = lib.DML_TENSOR_DATA_TYPE_FLOAT32
    bx = DML_BUFFER_TENSOR_DESC(f32, 0, 4, sx, None, x.nbytes, 0)
    by = DML_BUFFER_TENSOR_DESC(f32, 0, 4, sy, None, y.nbytes, 0)
    bi = DML_BUFFER_TENSOR_DESC(UINT64, 0, 4, sy, None, i.nbytes, 0)
    tx, ty, ti = (DML_TENSOR_DESC(lib.DML_TENSOR_TYPE_BUFFER, ctypes.addressof(b)) for b in (bx, by, bi))
    strides, window, zeros, ones = U2(2, 2), U2(2, 2), U2(0, 0), U2(1, 1)
    d = DML_MAX_POOLING2_OPERATOR_DESC(ctypes.pointer(tx), ctypes.pointer(ty), ctypes.pointer(ti), 2,
                                       strides, window, zeros, zeros, ones)
    op = DML_OPERATOR_DESC(MAX_POOLING2, ctypes.addressof(d))
    binds_out = (DMLC_BUFFER_BINDING * 2)(DMLC_BUFFER_BINDING(y.ctypes.data, 0, y.nbytes),
                                          DMLC_BUFFER_BINDING(i.ctypes.data, 0, i.nbytes))
    bind_in = DMLC_BUFFER_BINDING(x.ctypes.data, 0, x.nbytes)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 2, binds_out)
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y[0, 0], [[13, 15], [5, 7]])
    np.testing.assert_array_equal(i[0, 0], [[1, 3], [9, 11]])
    # Without indices: the second slot unbound.
    d.OutputIndicesTensor = None
    y[...] = 0
    binds_out[1] = DMLC_BUFFER_BINDING(None, 0, 0)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 2, binds_out)
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y[0, 0], [[13, 15], [5, 7]])
    # A window larger than the padded input: E_INVALIDARG, the message, outputs untouched.
    window[0] = 5
    y[...] = -1
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 2, binds_out)
    assert hr == E_INVALIDARG
    assert so.dmlcGetLastErrorMessage().decode() == (
        "DML_OPERATOR_MAX_POOLING2: the dilated window (WindowSize[0] 5 - 1) * Dilations[0] 1 + 1 = 5 is larger "
        "than the padded input InputTensor.Sizes[2] 4 + StartPadding[0] 0 + EndPadding[0] 0 = 4")
    assert np.all(y == -1)


# ---- bindings --------------------------------------------------------------------------------------

def test_binding_rules_leave_outputs_untouched(rng):
    x = random_array(rng, (1, 2, 4, 4), np.float32)
    y = np.full((1, 2, 2, 2), 5, np.float32)
    i = np.full((1, 2, 2, 2), 5, np.uint32)
    raw = Raw()
    with_idx = pool_desc(raw, 2, raw.tensor_for(x), raw.tensor_for(y), raw.tensor(np.uint32, i.shape))
    without = pool_desc(raw, 1, raw.tensor_for(x), raw.tensor_for(y))
    v0 = pool_desc(raw, 0, raw.tensor_for(x), raw.tensor_for(y))
    cases = [
        (with_idx, [x], [y], P2 + "outputCount is 1, expected 2"),
        (v0, [x], [y, None], P0 + "outputCount is 2, expected 1"),
        (with_idx, [x], [y, None], P2 + "outputs[1].Buffer is NULL"),
        (without, [x], [y, i], P1 + "outputs[1] is bound, but its optional tensor is absent from the desc"),
        (with_idx, [], [y, i], P2 + "inputCount is 0, expected 1"),
    ]
    for desc, ins, outs, msg in cases:
        hr, got = execute(desc, ins, outs)
        assert got == msg
        assert hr in (E_INVALIDARG, E_POINTER)
    hr, got = execute(with_idx, [x], [y, i], None, [y.nbytes, i.nbytes - 4])
    assert hr == E_INVALIDARG
    assert got == P2 + "outputs[1].SizeInBytes is 28, smaller than the tensor's TotalTensorSizeInBytes 32"
    buf = np.zeros(8, np.float32)  # values and indices in the same bytes
    hr, got = execute(with_idx, [x], [buf, buf.view(np.uint32)])
    assert hr == E_INVALIDARG and got == P2 + "outputs[1] overlaps outputs[0]"
    assert np.all(y == 5) and np.all(i == 5) and np.all(buf == 0)


# ---- malformed descs ---------------------------------------------------------------------------

def malformed_cases():
    X, Y = (1, 2, 6, 6), (1, 2, 3, 3)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    return [
        ("input NULL", lambda r: pool_desc(r, 2, ffi.NULL, t(r, Y)), E_POINTER, P2 + "InputTensor is NULL"),
        ("output NULL", lambda r: pool_desc(r, 0, t(r, X), ffi.NULL), E_POINTER, P0 + "OutputTensor is NULL"),
        ("2 dims", lambda r: pool_desc(r, 2, t(r, (2, 6)), t(r, (2, 3)), window=(2,), strides=(2,), start=(0,),
                                       end=(0,), dilations=(1,)), E_INVALIDARG,
         P2 + "InputTensor.DimensionCount is 2, expected 3 to 5"),
        ("6 dims", lambda r: pool_desc(r, 1, t(r, (1,) * 6), t(r, (1,) * 6), window=(1,) * 4, strides=(1,) * 4,
                                       start=(0,) * 4, end=(0,) * 4), E_INVALIDARG,
         P1 + "InputTensor.DimensionCount is 6, expected 3 to 5"),
        ("output rank", lambda r: pool_desc(r, 2, t(r, X), t(r, (1, 2, 3, 3, 1))), E_INVALIDARG,
         P2 + "OutputTensor.DimensionCount is 5, expected 4 (InputTensor.DimensionCount)"),
        ("output type", lambda r: pool_desc(r, 2, t(r, X), t(r, Y, np.float16)), E_INVALIDARG,
         P2 + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
        ("DimensionCount", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), ndim=3), E_INVALIDARG,
         P2 + "DimensionCount is 3, expected 2 (InputTensor.DimensionCount 4 - 2)"),
        ("DimensionCount v0", lambda r: pool_desc(r, 0, t(r, X), t(r, Y), ndim=0), E_INVALIDARG,
         P0 + "DimensionCount is 0, expected 2 (InputTensor.DimensionCount 4 - 2)"),
        ("Strides NULL", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), strides=None), E_POINTER, P2 + "Strides is NULL"),
        ("WindowSize NULL", lambda r: pool_desc(r, 1, t(r, X), t(r, Y), window=None), E_POINTER,
         P1 + "WindowSize is NULL"),
        ("StartPadding NULL", lambda r: pool_desc(r, 0, t(r, X), t(r, Y), start=None), E_POINTER,
         P0 + "StartPadding is NULL"),
        ("EndPadding NULL", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), end=None), E_POINTER,
         P2 + "EndPadding is NULL"),
        ("Dilations NULL", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), dilations=None), E_POINTER,
         P2 + "Dilations is NULL"),
        ("Strides 0", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), strides=(2, 0)), E_INVALIDARG,
         P2 + "Strides[1] is 0, expected at least 1"),
        ("WindowSize 0", lambda r: pool_desc(r, 1, t(r, X), t(r, Y), window=(0, 2)), E_INVALIDARG,
         P1 + "WindowSize[0] is 0, expected at least 1"),
        ("Dilations 0", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), dilations=(1, 0)), E_INVALIDARG,
         P2 + "Dilations[1] is 0, expected at least 1"),
        ("output N", lambda r: pool_desc(r, 2, t(r, X), t(r, (2, 2, 3, 3))), E_INVALIDARG,
         P2 + "OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
        ("output C", lambda r: pool_desc(r, 2, t(r, X), t(r, (1, 1, 3, 3))), E_INVALIDARG,
         P2 + "OutputTensor.Sizes[1] is 1, expected 2 (InputTensor.Sizes[1])"),
        ("output size", lambda r: pool_desc(r, 2, t(r, X), t(r, (1, 2, 3, 4))), E_INVALIDARG,
         P2 + "OutputTensor.Sizes[3] is 4, expected 3 ((InputTensor.Sizes[3] 6 + StartPadding[1] 0 + EndPadding[1] 0 "
              "- window 2) / Strides[1] 2 + 1)"),
        ("output size floor or ceil", lambda r: pool_desc(r, 2, t(r, (1, 2, 7, 6)), t(r, (1, 2, 5, 3))), E_INVALIDARG,
         P2 + "OutputTensor.Sizes[2] is 5, expected 3 (floor) or 4 (ceil) ((InputTensor.Sizes[2] 7 + StartPadding[0] 0 "
              "+ EndPadding[0] 0 - window 2) / Strides[0] 2 + 1)"),
        ("output size dilated", lambda r: pool_desc(r, 2, t(r, X), t(r, (1, 2, 1, 3)), window=(2, 2),
                                                    dilations=(2, 1)), E_INVALIDARG,
         P2 + "OutputTensor.Sizes[2] is 1, expected 2 (floor) or 3 (ceil) ((InputTensor.Sizes[2] 6 + StartPadding[0] 0 "
              "+ EndPadding[0] 0 - window 3) / Strides[0] 2 + 1)"),
        ("window too large", lambda r: pool_desc(r, 2, t(r, X), t(r, (1, 2, 1, 3)), window=(4, 2), dilations=(2, 1)),
         E_INVALIDARG, P2 + "the dilated window (WindowSize[0] 4 - 1) * Dilations[0] 2 + 1 = 7 is larger than the "
                            "padded input InputTensor.Sizes[2] 6 + StartPadding[0] 0 + EndPadding[0] 0 = 6"),
        ("padding overflow", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), start=(0xFFFFFFFF, 0)), E_INVALIDARG,
         P2 + "InputTensor.Sizes[2] 6 + StartPadding[0] 4294967295 + EndPadding[0] 0 is 4294967301, more than a "
              "tensor size can hold (4294967295)"),
        ("dilated window overflow", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), window=(3, 2),
                                                        dilations=(0xFFFFFFFF, 1)), E_INVALIDARG,
         P2 + "the dilated window (WindowSize[0] 3 - 1) * Dilations[0] 4294967295 + 1 is 8589934591, more than a "
              "tensor size can hold (4294967295)"),
        ("indices type", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), t(r, Y, np.int64)), E_INVALIDARG,
         P2 + "OutputIndicesTensor.DataType is INT64, expected UINT32 or UINT64"),
        ("indices float", lambda r: pool_desc(r, 1, t(r, X), t(r, Y), t(r, Y)), E_INVALIDARG,
         P1 + "OutputIndicesTensor.DataType is FLOAT32, expected UINT32 or UINT64"),
        ("indices rank", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), t(r, (2, 3, 3), np.uint32)), E_INVALIDARG,
         P2 + "OutputIndicesTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
        ("indices size", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), t(r, (1, 2, 3, 2), np.uint64)), E_INVALIDARG,
         P2 + "OutputIndicesTensor.Sizes[3] is 2, expected 3 (OutputTensor.Sizes[3])"),
        ("indices Type", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), r.new("DML_TENSOR_DESC*", {"Type": 0})),
         E_INVALIDARG, P2 + "OutputIndicesTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"),
        ("indices stride 0", lambda r: pool_desc(r, 2, t(r, X), t(r, Y), t(r, Y, np.uint32, strides=(18, 9, 0, 1))),
         E_INVALIDARG, P2 + "OutputIndicesTensor.Strides[2] is 0 with Sizes[2] 3; an output element may not be "
                            "written twice"),
        ("too many elements for UINT32", lambda r: pool_desc(r, 2, t(r, (1, 1, 65536, 65536), strides=(0, 0, 0, 0)),
                                                             t(r, (1, 1, 1, 1)), t(r, (1, 1, 1, 1), np.uint32),
                                                             strides=(65536, 65536), window=(1, 1)), E_INVALIDARG,
         P2 + "InputTensor has 4294967296 elements, more than UINT32 indices can address (at most 4294967295)"),
        ("unsupported type", lambda r: pool_desc(r, 2, t(r, X, dml_type=13), t(r, Y)), E_INVALIDARG,
         P2 + "InputTensor.DataType INT4 is not supported"),
        ("total size", lambda r: pool_desc(r, 2, t(r, X), t(r, Y, total=32)), E_INVALIDARG,
         P2 + "OutputTensor.TotalTensorSizeInBytes is 32, expected at least 72 (DMLCalcBufferTensorSize)"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_malformed_desc_leaves_outputs_untouched(rng):
    x = random_array(rng, (1, 2, 6, 6), np.float32)
    y = np.full((1, 2, 3, 4), 3, np.float32)
    i = np.full((1, 2, 3, 4), 3, np.uint32)
    raw = Raw()
    desc = pool_desc(raw, 2, raw.tensor_for(x), raw.tensor_for(y), raw.tensor(np.uint32, i.shape))
    hr, msg = execute(desc, [x], [y, i])
    assert hr == E_INVALIDARG and msg.startswith(P2 + "OutputTensor.Sizes[3] is 4, expected 3")
    assert np.all(y == 3) and np.all(i == 3)

