"""DML_OPERATOR_ROI_POOLING, ROI_ALIGN and ROI_ALIGN1 as a C caller drives them: raw descs through cffi and ctypes, the
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
from reference import ref_roi_align, ref_roi_pool
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


# ==== ROI_ALIGN and ROI_ALIGN1 ==========================================================================

ROI_ALIGN, ROI_ALIGN1 = lib.DML_OPERATOR_ROI_ALIGN, lib.DML_OPERATOR_ROI_ALIGN1
RA, RA1 = "DML_OPERATOR_ROI_ALIGN: ", "DML_OPERATOR_ROI_ALIGN1: "
BOXES = np.array([[0, 0, 4, 4], [1, 1, 6, 3], [5, 4, 0, 1], [-3, -2, 9, 8]], np.float32)
BATCH = np.array([0, 1, 1, 0], np.uint64)


def align_desc(raw, version, x_desc, roi_desc, idx_desc, y_desc, reduction=2, mode=1, sx=1.0, sy=1.0, ipo=0.5,
               opo=-0.5, oob=0.0, lo=1, hi=2**32 - 1, corners=0):
    fields = {"InputTensor": x_desc, "ROITensor": roi_desc, "BatchIndicesTensor": idx_desc, "OutputTensor": y_desc,
              "ReductionFunction": reduction, "InterpolationMode": mode, "SpatialScaleX": sx, "SpatialScaleY": sy,
              "OutOfBoundsInputValue": oob, "MinimumSamplesPerOutput": lo, "MaximumSamplesPerOutput": hi}
    if version == 0:
        return raw.op(ROI_ALIGN, "DML_ROI_ALIGN_OPERATOR_DESC", fields)
    fields.update({"InputPixelOffset": ipo, "OutputPixelOffset": opo, "AlignRegionsToCorners": corners})
    return raw.op(ROI_ALIGN1, "DML_ROI_ALIGN1_OPERATOR_DESC", fields)


def test_align_values_and_layout():
    assert (ROI_ALIGN, ROI_ALIGN1) == (139, 149)
    assert lib.DML_REDUCE_FUNCTION_AVERAGE == 2 and lib.DML_REDUCE_FUNCTION_MAX == 7
    p = ffi.sizeof("void*")
    assert ffi.offsetof("DML_ROI_ALIGN1_OPERATOR_DESC", "InputPixelOffset") == 4 * p + 16
    assert ffi.offsetof("DML_ROI_ALIGN1_OPERATOR_DESC", "AlignRegionsToCorners") == 4 * p + 36


@pytest.mark.parametrize("dtype,version,idx_type,lead", [(np.float64, 0, np.uint64, ()), (np.float32, 1, np.uint32, (1,)),
                                                         (np.float16, 1, np.uint64, (1, 1))])
def test_align_through_cffi(rng, dtype, version, idx_type, lead):
    x = random_array(rng, (2, 3, 6, 7), dtype)
    boxes, batch = BOXES.astype(dtype).reshape(lead + BOXES.shape), BATCH.astype(idx_type).reshape(lead + (4,))
    y = np.full((4, 3, 2, 3), 5, dtype)
    raw = Raw()
    kw = dict(reduction=7, mode=0, ipo=0.0, oob=-2.0, lo=2, hi=2, corners=1) if version else {}
    desc = align_desc(raw, version, raw.tensor_for(x), raw.tensor_for(boxes), raw.tensor_for(batch), raw.tensor_for(y),
                      **kw)
    assert infer(desc) == [(4, 3, 2, 3)]
    hr, msg = execute(desc, [x, boxes, batch], [y])
    assert (hr, msg) == (0, "")
    ref = dict(mode="max", nearest=True, in_offset=0.0, oob=-2.0, lo=2, hi=2, corners=True) if version else {}
    want = ref_roi_align(x, BOXES.astype(dtype), BATCH, (2, 3), 1.0, 1.0, **ref)
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=4e-3 if dtype == np.float16 else 1e-6, atol=1e-3)


def test_align_through_ctypes_and_threads(rng):
    so = rawctypes.library()
    x = random_array(rng, (2, 3, 6, 7), np.float32)
    y = np.zeros((4, 3, 2, 2), np.float32)
    keep = []
    d = rawctypes.DML_ROI_ALIGN_OPERATOR_DESC(
        ctypes.pointer(rawctypes.tensor(x, keep)), ctypes.pointer(rawctypes.tensor(BOXES, keep)),
        ctypes.pointer(rawctypes.tensor(BATCH, keep)), ctypes.pointer(rawctypes.tensor(y, keep)), 2, 1, 1.0, 1.0, 0.0,
        1, 2**32 - 1)
    op = rawctypes.operator(ROI_ALIGN, d)
    ins = (rawctypes.DMLC_BUFFER_BINDING * 3)(rawctypes.binding(x), rawctypes.binding(BOXES), rawctypes.binding(BATCH))
    assert so.dmlcExecuteOperator(ctypes.byref(op), 3, ins, 1, ctypes.pointer(rawctypes.binding(y))) == 0
    np.testing.assert_allclose(y, ref_roi_align(x, BOXES, BATCH, (2, 2), 1.0, 1.0), rtol=1e-5, atol=1e-3)
    raw = Raw()
    desc = align_desc(raw, 0, raw.tensor_for(x), raw.tensor_for(BOXES), raw.tensor_for(BATCH), raw.tensor_for(y))
    execute_from_threads(desc, [x, BOXES, BATCH], y)


IDX = dict(dtype=np.uint64, sizes=(4,))
B = dict(dtype=np.float32, sizes=(4, 4))


@pytest.mark.parametrize("name,version,tb,ti,ty,kw,hr,msg", [
    ("BatchIndicesTensor NULL", 0, B, None, Y, {}, E_POINTER, f"{RA}BatchIndicesTensor is NULL"),
    ("ROI 5 columns", 1, _with(B, sizes=(4, 5)), IDX, Y, {}, E_INVALIDARG,
     f"{RA1}ROITensor.Sizes[1] is 5, expected 4 (rows [x1, y1, x2, y2])"),
    ("indices INT64", 0, B, _with(IDX, dtype=np.int64), Y, {}, E_INVALIDARG,
     f"{RA}BatchIndicesTensor.DataType is INT64, expected UINT32 or UINT64"),
    ("indices count", 1, B, _with(IDX, sizes=(3,)), Y, {}, E_INVALIDARG,
     f"{RA1}BatchIndicesTensor.Sizes[0] is 3, expected 4 (one per ROITensor row)"),
    ("indices leading size", 1, B, _with(IDX, sizes=(2, 4)), Y, {}, E_INVALIDARG,
     f"{RA1}BatchIndicesTensor.Sizes[0] is 2, expected 1"),
    ("output R", 0, B, IDX, _with(Y, sizes=(3, 3, 2, 3)), {}, E_INVALIDARG, f"{RA}OutputTensor.Sizes[0] is 3, expected 4"),
    ("output C", 1, B, IDX, _with(Y, sizes=(4, 1, 2, 3)), {}, E_INVALIDARG, f"{RA1}OutputTensor.Sizes[1] is 1, expected 3"),
    ("ROI type", 0, _with(B, dtype=np.float64), IDX, Y, {}, E_INVALIDARG,
     f"{RA}ROITensor.DataType is FLOAT64, expected FLOAT32 (InputTensor.DataType)"),
    ("ReductionFunction SUM", 0, B, IDX, Y, dict(reduction=10), E_INVALIDARG,
     f"{RA}ReductionFunction is 10, expected 2 (AVERAGE) or 7 (MAX)"),
    ("InterpolationMode 2", 1, B, IDX, Y, dict(mode=2), E_INVALIDARG,
     f"{RA1}InterpolationMode is 2, expected 0 (NEAREST_NEIGHBOR) or 1 (LINEAR)"),
    ("SpatialScaleX inf", 0, B, IDX, Y, dict(sx=float("inf")), E_INVALIDARG, f"{RA}SpatialScaleX is inf, expected a finite"),
    ("SpatialScaleY NaN", 1, B, IDX, Y, dict(sy=float("nan")), E_INVALIDARG, f"{RA1}SpatialScaleY is nan, expected a finite"),
    ("InputPixelOffset NaN", 1, B, IDX, Y, dict(ipo=float("nan")), E_INVALIDARG,
     f"{RA1}InputPixelOffset is nan, expected a finite value"),
    ("OutputPixelOffset inf", 1, B, IDX, Y, dict(opo=float("-inf")), E_INVALIDARG,
     f"{RA1}OutputPixelOffset is -inf, expected a finite value"),
    ("Minimum 0", 0, B, IDX, Y, dict(lo=0), E_INVALIDARG,
     f"{RA}MinimumSamplesPerOutput is 0 and MaximumSamplesPerOutput 4294967295, expected 1 <= Minimum <= Maximum"),
    ("Minimum above Maximum", 1, B, IDX, Y, dict(lo=3, hi=2), E_INVALIDARG, f"{RA1}MinimumSamplesPerOutput is 3 and"),
])
def test_align_malformed(name, version, tb, ti, ty, kw, hr, msg):
    def build(raw):
        t = [raw.tensor(**d) if d else ffi.NULL for d in (X, tb, ti, ty)]
        return align_desc(raw, version, *t, **kw)
    assert_create_fails(build, hr, msg)


def test_align_out_of_bounds_value_may_be_anything():
    x = np.ones((1, 1, 2, 2), np.float32)
    raw = Raw()
    for oob in (float("nan"), float("-inf")):
        y = np.zeros((1, 1, 1, 1), np.float32)
        desc = align_desc(raw, 1, raw.tensor_for(x), raw.tensor(np.float32, (1, 4)), raw.tensor(np.uint32, (1,)),
                          raw.tensor_for(y), oob=oob, lo=1, hi=1)
        hr, msg = execute(desc, [x, np.array([[9, 9, 10, 10]], np.float32), np.zeros(1, np.uint32)], [y])
        assert hr == 0, msg
        assert_same_bits(y, np.full((1, 1, 1, 1), oob, np.float32))


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("boxes,batch,message", [
    ([[0, 0, 1, 1], [0, 0, 1, 1]], [0, 2], "BatchIndicesTensor[1] is 2, expected an index below 2 (InputTensor.Sizes[0])"),
    ([[0, 0, 1, 1], [0, np.nan, 1, 1]], [0, 1], "ROITensor row 1: y1 is nan, expected a finite value"),
    ([[np.inf, 0, 1, 1], [0, 0, 1, 1]], [0, 1], "ROITensor row 0: x1 is inf, expected a finite value"),
])
def test_align_execution_refuses_untouched(version, boxes, batch, message):
    x = np.ones((2, 1, 3, 3), np.float32)
    boxes, batch = np.array(boxes, np.float32), np.array(batch, np.uint32)
    y = np.full((2, 1, 2, 2), 7, np.float32)
    raw = Raw()
    desc = align_desc(raw, version, raw.tensor_for(x), raw.tensor_for(boxes), raw.tensor_for(batch), raw.tensor_for(y))
    hr, msg = execute(desc, [x, boxes, batch], [y])
    assert hr == E_INVALIDARG and msg == (RA1 if version else RA) + message, msg
    assert np.all(y == 7)
