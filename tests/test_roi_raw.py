"""DML_OPERATOR_ROI_POOLING as a C caller drives it: raw descs through cffi and ctypes, the
three ROITensor shapes, strides on every tensor, the sizes dmlcInferOutputSizes gives, threads,
malformed descs with their messages, and region values refused at execution (the output
untouched)."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_ROI_POOLING_OPERATOR_DESC
from rawdesc import Raw, assert_create_fails, execute, execute_from_threads, infer, strided_output
from reference import ref_roi_pool
from support import assert_same_bits, random_array

ROI_POOLING = lib.DML_OPERATOR_ROI_POOLING
RP = "DML_OPERATOR_ROI_POOLING: "
FLOATS = [np.float64, np.float32, np.float16]
ROIS = np.array([[0, 0, 0, 3, 3], [1, 1, 2, 6, 5], [0, 5, 5, 2, 2], [1, -2, -1, 9, 9]], np.float32)


def pool_desc(raw, x_desc, roi_desc, y_desc, scale=1.0, height=2, width=3):
    return raw.op(ROI_POOLING, "DML_ROI_POOLING_OPERATOR_DESC",
                  {"InputTensor": x_desc, "ROITensor": roi_desc, "OutputTensor": y_desc, "SpatialScale": scale,
                   "PooledSize": {"Width": width, "Height": height}})


def test_value_and_layout():
    assert ROI_POOLING == 59
    assert ffi.offsetof("DML_ROI_POOLING_OPERATOR_DESC", "SpatialScale") == 3 * ffi.sizeof("void*")
    assert ffi.offsetof("DML_ROI_POOLING_OPERATOR_DESC", "PooledSize") == 3 * ffi.sizeof("void*") + 4
    assert ffi.offsetof("DML_SIZE_2D", "Width") == 0  # Width first


@pytest.mark.parametrize("dtype,lead", [(np.float64, ()), (np.float32, (1,)), (np.float16, (1, 1))])
def test_every_dtype_and_roi_shape_through_cffi(rng, dtype, lead):
    x = random_array(rng, (2, 3, 6, 7), dtype)
    rois = ROIS.astype(dtype)
    y = np.full((4, 3, 2, 3), 5, dtype)
    raw = Raw()
    table = rois.reshape(lead + rois.shape)
    desc = pool_desc(raw, raw.tensor_for(x), raw.tensor_for(table), raw.tensor_for(y), 1.0)
    assert infer(desc) == [(4, 3, 2, 3)]
    hr, msg = execute(desc, [x, table], [y])
    assert (hr, msg) == (0, "")
    assert_same_bits(y, ref_roi_pool(x, rois, (2, 3), 1.0))


def test_strides_on_every_tensor(rng):
    x = random_array(rng, (2, 2, 5, 6), np.float32)
    xbuf = np.zeros(2 * 2 * 5 * 12, np.float32)
    xs = np.lib.stride_tricks.as_strided(xbuf, x.shape, [s * 4 for s in (120, 60, 12, 2)])
    xs[...] = x
    rbuf = np.zeros(4 * 6, np.float32)
    rv = np.lib.stride_tricks.as_strided(rbuf, (4, 5), [4, 16])  # element strides (1, 4)
    rois = ROIS * [1, 0.5, 0.5, 0.5, 0.5]
    rv[...] = rois
    buf = np.full(4 * 2 * 2 * 3 * 2, 7, np.float32)
    raw = Raw()
    desc = pool_desc(raw, raw.tensor(np.float32, x.shape, (120, 60, 12, 2)),
                     raw.tensor(np.float32, (4, 5), (1, 4)), raw.tensor(np.float32, (4, 2, 2, 3), (24, 12, 6, 2)), 2.0)
    hr, msg = execute(desc, [xbuf, rbuf], [buf])
    assert hr == 0, msg
    got = strided_output(buf, (4, 2, 2, 3), (24, 12, 6, 2))
    assert_same_bits(got, ref_roi_pool(x, rois, (2, 3), 2.0))


def test_through_ctypes(rng):
    so = rawctypes.library()
    x = random_array(rng, (2, 3, 6, 7), np.float32)
    y = np.zeros((4, 3, 3, 2), np.float32)
    keep = []
    d = DML_ROI_POOLING_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                      ctypes.pointer(rawctypes.tensor(ROIS, keep)),
                                      ctypes.pointer(rawctypes.tensor(y, keep)), 1.0, rawctypes.DML_SIZE_2D(2, 3))
    op = rawctypes.operator(ROI_POOLING, d)
    ins = (rawctypes.DMLC_BUFFER_BINDING * 2)(rawctypes.binding(x), rawctypes.binding(ROIS))
    assert so.dmlcExecuteOperator(ctypes.byref(op), 2, ins, 1, ctypes.pointer(rawctypes.binding(y))) == 0
    assert_same_bits(y, ref_roi_pool(x, ROIS, (3, 2), 1.0))


def test_from_threads(rng):
    x = random_array(rng, (2, 3, 6, 7), np.float32)
    y = np.zeros((4, 3, 2, 3), np.float32)
    raw = Raw()
    desc = pool_desc(raw, raw.tensor_for(x), raw.tensor_for(ROIS), raw.tensor_for(y))
    execute_from_threads(desc, [x, ROIS], ref_roi_pool(x, ROIS, (2, 3), 1.0))


# ---- malformed descs -----------------------------------------------------------------------------

X = dict(dtype=np.float32, sizes=(2, 3, 6, 7))
R = dict(dtype=np.float32, sizes=(1, 1, 4, 5))
Y = dict(dtype=np.float32, sizes=(4, 3, 2, 3))


def _with(t, **change):
    return dict(t, **change)


@pytest.mark.parametrize("name,tx,tr,ty,scale,height,width,hr,msg", [
    ("input NULL", None, R, Y, 1.0, 2, 3, E_POINTER, f"{RP}InputTensor is NULL"),
    ("ROITensor NULL", X, None, Y, 1.0, 2, 3, E_POINTER, f"{RP}ROITensor is NULL"),
    ("output NULL", X, R, None, 1.0, 2, 3, E_POINTER, f"{RP}OutputTensor is NULL"),
    ("integer input", _with(X, dtype=np.int32), _with(R, dtype=np.int32), _with(Y, dtype=np.int32), 1.0, 2, 3,
     E_INVALIDARG, f"{RP}InputTensor.DataType is INT32, expected FLOAT64, FLOAT32 or FLOAT16"),
    ("ROI type differs", X, _with(R, dtype=np.float16), Y, 1.0, 2, 3, E_INVALIDARG,
     f"{RP}ROITensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
    ("output type differs", X, R, _with(Y, dtype=np.float64), 1.0, 2, 3, E_INVALIDARG,
     f"{RP}OutputTensor.DataType is FLOAT64, expected FLOAT32 (InputTensor.DataType)"),
    ("input 3-D", _with(X, sizes=(3, 6, 7)), R, Y, 1.0, 2, 3, E_INVALIDARG, f"{RP}InputTensor.DimensionCount is 3"),
    ("ROI 1-D", X, _with(R, sizes=(5,)), Y, 1.0, 2, 3, E_INVALIDARG, f"{RP}ROITensor.DimensionCount is 1"),
    ("ROI 4 columns", X, _with(R, sizes=(1, 1, 4, 4)), Y, 1.0, 2, 3, E_INVALIDARG,
     f"{RP}ROITensor.Sizes[3] is 4, expected 5 (rows [batch, x1, y1, x2, y2])"),
    ("ROI leading size", X, _with(R, sizes=(2, 1, 4, 5)), Y, 1.0, 2, 3, E_INVALIDARG,
     f"{RP}ROITensor.Sizes[0] is 2, expected 1 (ROITensor is {{R, 5}}, {{1, R, 5}} or {{1, 1, R, 5}})"),
    ("output R", X, R, _with(Y, sizes=(3, 3, 2, 3)), 1.0, 2, 3, E_INVALIDARG, f"{RP}OutputTensor.Sizes[0] is 3, expected 4"),
    ("output C", X, R, _with(Y, sizes=(4, 2, 2, 3)), 1.0, 2, 3, E_INVALIDARG, f"{RP}OutputTensor.Sizes[1] is 2, expected 3"),
    ("PooledSize swapped", X, R, Y, 1.0, 3, 2, E_INVALIDARG, f"{RP}OutputTensor.Sizes[2] is 2, expected 3 (PooledSize.Height"),
    ("PooledSize.Width", X, R, Y, 1.0, 2, 4, E_INVALIDARG, f"{RP}OutputTensor.Sizes[3] is 3, expected 4 (PooledSize.Width"),
    ("PooledSize 0", X, R, Y, 1.0, 0, 3, E_INVALIDARG, f"{RP}PooledSize is {{Width 3, Height 0}}, expected both at least 1"),
    ("SpatialScale NaN", X, R, Y, float("nan"), 2, 3, E_INVALIDARG, f"{RP}SpatialScale is nan, expected a finite value"),
    ("SpatialScale inf", X, R, Y, float("-inf"), 2, 3, E_INVALIDARG, f"{RP}SpatialScale is -inf, expected a finite"),
])
def test_malformed(name, tx, tr, ty, scale, height, width, hr, msg):
    def build(raw):
        t = [raw.tensor(**d) if d else ffi.NULL for d in (tx, tr, ty)]
        return pool_desc(raw, *t, scale, height, width)
    assert_create_fails(build, hr, msg)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("row,message", [
    ([2, 0, 0, 1, 1], "ROITensor row 1: batch is 2, expected an index in [0, 2)"),
    ([-1, 0, 0, 1, 1], "ROITensor row 1: batch is -1, expected an index in [0, 2)"),
    ([0, 0, np.nan, 1, 1], "ROITensor row 1: y1 is nan, expected a finite value"),
    ([0, 0, 0, 1, -np.inf], "ROITensor row 1: y2 is -inf, expected a finite value"),
])
def test_execution_refuses_bad_regions_untouched(dtype, row, message):
    x = np.ones((2, 1, 3, 3), dtype)
    rois = np.array([[1.5, 0, 0, 1, 1], row], dtype)
    y = np.full((2, 1, 2, 3), 7, dtype)
    raw = Raw()
    desc = pool_desc(raw, raw.tensor_for(x), raw.tensor_for(rois), raw.tensor_for(y))
    hr, msg = execute(desc, [x, rois], [y])
    assert hr == E_INVALIDARG and msg.startswith(RP + message), msg
    assert np.all(y == 7)


def test_corner_beyond_two_to_the_thirty():
    x = np.ones((1, 1, 3, 3), np.float64)
    y = np.full((1, 1, 2, 3), 7.0)
    raw = Raw()
    for v, ok in [(2.0 ** 30, True), (2.0 ** 30 + 1, False)]:
        rois = np.array([[0, 0, 0, v, 1]])
        desc = pool_desc(raw, raw.tensor_for(x), raw.tensor_for(rois), raw.tensor_for(y))
        hr, msg = execute(desc, [x, rois], [y])
        assert (hr == 0) == ok, msg
        if not ok:
            assert msg == f"{RP}ROITensor row 0: x2 is {v:g}, which SpatialScale 1 takes to {v:g}, beyond +-2^30"
