"""dmlc.roi_pool (DirectML ROI_POOLING) and dmlc.roi_align (ROI_ALIGN1) against sample-by-sample
NumPy references of docs/operators/roi_pooling.rst and roi_align1.rst and ONNX Runtime's
MaxRoiPool and RoiAlign: float16/32/64, Caffe's rounding, inverted and outside regions, NaN
and -0 bit for bit, sampling, both reductions and interpolations, strided views, empty arrays,
region values refused at execution with the output untouched, and argument errors."""
import numpy as np
import pytest

import dmlc
from reference import ref_roi_align, ref_roi_pool
from support import assert_portable_kernels_agree, assert_same_bits, random_array

FLOATS = [np.float64, np.float32, np.float16]


def regions(rng, count, n, h, w, scale=1.0):
    """count regions [batch, x1, y1, x2, y2] in x's coordinates divided by scale: some inside,
    some inverted, some past the edges."""
    x1 = rng.uniform(-3, w + 2, count)
    y1 = rng.uniform(-3, h + 2, count)
    x2 = x1 + rng.uniform(-2, w, count)
    y2 = y1 + rng.uniform(-2, h, count)
    return np.stack([rng.integers(0, n, count) + rng.uniform(0, 0.9, count), x1 / scale, y1 / scale, x2 / scale,
                     y2 / scale], 1)


# ---- the rule, every dtype -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,pooled,scale", [(np.float64, (3, 2), 1.0), (np.float32, 2, 0.5),
                                                (np.float16, (1, 4), 0.25), (np.float32, (5, 5), 1.3)])
def test_matches_reference_bit_for_bit(rng, dtype, pooled, scale):
    x = random_array(rng, (2, 3, 9, 11), dtype)
    rois = regions(rng, 17, 2, 9, 11, scale).astype(dtype)
    got = dmlc.roi_pool(x, rois, pooled, scale)
    p = (pooled, pooled) if isinstance(pooled, int) else pooled
    assert got.shape == (17, 3) + tuple(p) and got.dtype == dtype
    assert_same_bits(got, ref_roi_pool(x, rois, p, scale))


def test_rounding_is_half_away_from_zero():
    x = np.arange(36, dtype=np.float32).reshape(1, 1, 6, 6)
    # 0.5 * (1, 3, 5, 7) = 0.5, 1.5, 2.5, 3.5 round to 1, 2, 3, 4 (not to even: 0, 2, 2, 4).
    got = dmlc.roi_pool(x, [[0, 1, 3, 5, 7]], 1, 0.5)
    assert got.item() == x[0, 0, 2:5, 1:4].max() == 27
    # -0.5 rounds to -1: the region starts above the plane, rows -1..0 keep row 0.
    got = dmlc.roi_pool(x, [[0, -1, -1, 0, 0]], (2, 1), 0.5)
    assert got.ravel().tolist() == [0, 0] and np.all(~np.signbit(got))  # row -1 is empty: 0; row 0 gives x[0, 0]


def test_nan_wins_and_bits_are_copied():
    x = np.zeros((1, 1, 2, 3), np.float16)
    x[0, 0] = [[-0.0, -0.0, 1], [np.nan, 2, np.inf]]
    x.view(np.uint16)[0, 0, 1, 0] = 0x7E01  # a NaN with a payload
    got = dmlc.roi_pool(x, [[0, 0, 0, 1, 1], [0, 0, 0, 1, 0], [0, 2, 0, 2, 1]], 1)
    assert got.view(np.uint16).ravel().tolist() == [0x7E01, 0x8000, 0x7C00]  # NaN, the first -0, +inf


def test_onnxruntime_max_roi_pool_agrees(rng):
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper
    x = random_array(rng, (2, 4, 10, 12), np.float32)
    rois = regions(rng, 40, 2, 10, 12, 0.5).astype(np.float32)
    rois[:, 0] = np.floor(rois[:, 0])  # ONNX Runtime casts the batch to an integer too
    node = helper.make_node("MaxRoiPool", ["x", "rois"], ["y"], pooled_shape=[3, 4], spatial_scale=0.5)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape),
                                            helper.make_tensor_value_info("rois", TensorProto.FLOAT, rois.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, {"x": x, "rois": rois})[0]
    assert_same_bits(dmlc.roi_pool(x, rois, (3, 4), 0.5), want)


# ---- layouts, out=, threads ------------------------------------------------------------------------

def test_strided_views_and_out(rng):
    big = random_array(rng, (3, 8, 12, 14), np.float32)
    x = big[::2, ::3, 1::1, ::2]  # (2, 3, 11, 7)
    table = regions(rng, 10, 2, 11, 7).astype(np.float32)
    rois = np.asfortranarray(table)
    want = ref_roi_pool(np.ascontiguousarray(x), table, (2, 3), 1.0)
    buf = np.full((10, 3, 4, 6), 7, np.float32)
    out = buf[:, :, ::2, ::2]
    assert dmlc.roi_pool(x, rois, (2, 3), out=out) is out
    assert_same_bits(out, want)
    assert np.all(buf[:, :, 1::2] == 7) and np.all(buf[:, :, :, 1::2] == 7)


def test_many_regions_on_threads(rng):
    x = random_array(rng, (2, 64, 16, 16), np.float32)
    rois = regions(rng, 64, 2, 16, 16).astype(np.float32)
    want = ref_roi_pool(x[:, :2], rois, (3, 3), 1.0)
    got = dmlc.roi_pool(x, rois, 3)
    assert_same_bits(got[:, :2], want)
    before = dmlc.get_num_threads()
    try:
        dmlc.set_num_threads(1)
        assert_same_bits(dmlc.roi_pool(x, rois, 3), got)
    finally:
        dmlc.set_num_threads(before)


def test_rois_of_any_real_dtype_are_converted():
    x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
    want = dmlc.roi_pool(x, np.array([[0, 1, 1, 3, 2]], np.float64), 2)
    for dt in (np.int32, np.uint8, np.float32, np.float16):
        assert_same_bits(dmlc.roi_pool(x, np.array([[0, 1, 1, 3, 2]], dt), 2), want)
    assert_same_bits(dmlc.roi_pool(x, [[0, 1, 1, 3, 2]], 2), want)


# ---- empty arrays ------------------------------------------------------------------------------------

def test_empty_results():
    x = np.ones((1, 2, 4, 4), np.float32)
    assert dmlc.roi_pool(x, np.zeros((0, 5)), (2, 3)).shape == (0, 2, 2, 3)
    assert dmlc.roi_pool(x, [], 2).shape == (0, 2, 2, 2)
    assert dmlc.roi_pool(np.ones((1, 0, 4, 4), np.float16), [[0, 0, 0, 1, 1]], 2).shape == (1, 0, 2, 2)
    with pytest.raises(ValueError, match=r"roi_pool: x has shape \(1, 2, 0, 4\): there is nothing to pool"):
        dmlc.roi_pool(np.ones((1, 2, 0, 4), np.float32), [[0, 0, 0, 1, 1]], 2)


# ---- what only the data shows: refused with the output untouched ---------------------------------

@pytest.mark.parametrize("row,message", [
    ([2, 0, 0, 1, 1], "ROITensor row 1: batch is 2, expected an index in [0, 2) (InputTensor.Sizes[0])"),
    ([-1, 0, 0, 1, 1], "ROITensor row 1: batch is -1, expected an index in [0, 2)"),
    ([0, np.nan, 0, 1, 1], "ROITensor row 1: x1 is nan, expected a finite value"),
    ([0, 0, 0, np.inf, 1], "ROITensor row 1: x2 is inf, expected a finite value"),
    ([np.nan, 0, 0, 1, 1], "ROITensor row 1: batch is nan, expected a finite value"),
    ([0, 0, 0, 1, 3e9], "ROITensor row 1: y2 is 3e+09, which SpatialScale 1 takes to 3e+09, beyond +-2^30"),
])
def test_bad_region_values_leave_out_untouched(row, message):
    x = np.ones((2, 1, 3, 3), np.float32)
    out = np.full((2, 1, 2, 2), 7, np.float32)
    with pytest.raises(ValueError) as e:
        dmlc.roi_pool(x, [[0, 0, 0, 1, 1], row], 2, out=out)
    assert str(e.value).startswith("DML_OPERATOR_ROI_POOLING: " + message), str(e.value)
    assert np.all(out == 7)


# ---- argument errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("call,exc,message", [
    (lambda x, r: dmlc.roi_pool(x.astype(np.int32), r, 2), TypeError,
     "roi_pool: x has dtype int32; roi_pool takes float16, float32 or float64"),
    (lambda x, r: dmlc.roi_pool(x[0], r, 2), ValueError, "roi_pool: x has 3 dimensions, expected 4 (N, C, H, W)"),
    (lambda x, r: dmlc.roi_pool(x, r[:, :4], 2), ValueError,
     "roi_pool: rois has shape (1, 4), expected (R, 5): rows [batch, x1, y1, x2, y2]"),
    (lambda x, r: dmlc.roi_pool(x, r[0], 2), ValueError, "roi_pool: rois has shape (5,), expected (R, 5)"),
    (lambda x, r: dmlc.roi_pool(x, r.astype(bool), 2), TypeError, "rois has dtype bool, which dmlc does not support"),
    (lambda x, r: dmlc.roi_pool(x, r, 0), ValueError, "roi_pool: pooled_size is 0, expected 1 to 4294967295"),
    (lambda x, r: dmlc.roi_pool(x, r, (2, -1)), ValueError, "roi_pool: pooled_size[1] is -1, expected 1 to 4294967295"),
    (lambda x, r: dmlc.roi_pool(x, r, (2, 2, 2)), ValueError, "roi_pool: pooled_size has 3 values, expected 2"),
    (lambda x, r: dmlc.roi_pool(x, r, 2.0), TypeError, "roi_pool: pooled_size must be an int or a sequence of ints"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, "1"), TypeError, "roi_pool: spatial_scale must be a real number, not str"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, True), TypeError, "roi_pool: spatial_scale must be a real number, not bool"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, np.nan), ValueError,
     "DML_OPERATOR_ROI_POOLING: SpatialScale is nan, expected a finite value"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, 1e39), ValueError,
     "DML_OPERATOR_ROI_POOLING: SpatialScale is inf, expected a finite value"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, out=np.empty((1, 2, 2, 3), np.float32)), ValueError, "out"),
    (lambda x, r: dmlc.roi_pool(x, r, 2, out=np.empty((1, 2, 2, 2), np.float64)), (ValueError, TypeError), "out"),
])
def test_argument_errors(call, exc, message):
    x = np.ones((1, 2, 4, 4), np.float32)
    r = np.array([[0, 0, 0, 1, 1]], np.float32)
    with pytest.raises(exc) as e:
        call(x, r)
    assert str(e.value).startswith(message), str(e.value)


# ==== roi_align ========================================================================================

def align_regions(rng, count, h, w):
    x1 = rng.uniform(-2, w, count)
    y1 = rng.uniform(-2, h, count)
    return np.stack([x1, y1, x1 + rng.uniform(-1, w, count), y1 + rng.uniform(-1, h, count)], 1)


def assert_close(got, want, dtype):
    tol = {np.float64: 1e-12, np.float32: 2e-5, np.float16: 4e-3}[dtype]
    g = got.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * np.nanmax(np.abs(want), initial=1))


@pytest.mark.parametrize("dtype,kw,ref", [
    (np.float64, dict(), dict()),
    (np.float32, dict(sampling_ratio=2, aligned=False), dict(lo=2, hi=2, in_offset=0.0)),
    (np.float16, dict(mode="max", spatial_scale=(0.5, 0.25)), dict(mode="max", scale_y=0.5, scale_x=0.25)),
    (np.float32, dict(interpolation="nearest", mode="max", out_of_bounds_value=-7.5),
     dict(nearest=True, mode="max", oob=-7.5)),
    (np.float64, dict(interpolation="nearest", sampling_ratio=3, out_of_bounds_value=np.inf),
     dict(nearest=True, lo=3, hi=3, oob=np.inf)),
])
def test_align_matches_reference(rng, dtype, kw, ref):
    x = random_array(rng, (2, 3, 7, 9), dtype)
    rois = align_regions(rng, 11, 7, 9).astype(dtype)
    b = rng.integers(0, 2, 11)
    got = dmlc.roi_align(x, rois, b, (3, 2), **kw)
    assert got.shape == (11, 3, 3, 2) and got.dtype == dtype
    args = dict(scale_y=1.0, scale_x=1.0)
    args.update(ref)
    assert_close(got, ref_roi_align(x, rois, b, (3, 2), **args), dtype)


@pytest.mark.parametrize("mode,oob", [("avg", 0.0), ("avg", -2.5), ("max", 9.0), ("max", 0.0)])
def test_align_huge_sample_counts_read_only_samples_inside(rng, mode, oob):
    """Above 4096 samples per output the samples outside [-1, n] are counted, not visited: a
    region half outside the input with 70 x 70 samples per output still matches the
    sample-by-sample reference, and one with scales of 1e30 (2^32 - 1 samples along each
    axis per output) is all out of bounds and returns at once."""
    x = random_array(rng, (1, 2, 5, 6), np.float64)
    rois = np.array([[-8.0, -6.0, 4.5, 3.5], [3.0, -9.0, 8.0, 2.0]])
    got = dmlc.roi_align(x, rois, [0, 0], 1, sampling_ratio=70, mode=mode, out_of_bounds_value=oob)
    assert_close(got, ref_roi_align(x, rois, [0, 0], (1, 1), 1.0, 1.0, lo=70, hi=70, mode=mode, oob=oob), np.float64)
    far = dmlc.roi_align(x, [[1.0, 1.0, 3.0, 2.0]], [0], (2, 3), spatial_scale=1e30, mode=mode,
                         out_of_bounds_value=oob)
    np.testing.assert_array_equal(far, np.full((1, 2, 2, 3), oob))


@pytest.mark.parametrize("dtype,mode", [(np.float32, "avg"), (np.float64, "max"), (np.float16, "avg")])
def test_align_channel_blocks_threads_and_huge_regions_mixed(rng, dtype, mode):
    """37 channels (the kernel reads a region's channels 8 at a time: 8, 8, 8, 8, 5) and, in the
    same call, ordinary regions and one of 1000 x 1500 samples per output (visited only
    inside the input): the reference agrees on the ordinary ones, and every region alone,
    each channel alone and one thread give the same bits as the whole call."""
    x = random_array(rng, (2, 37, 6, 7), dtype)
    rois = align_regions(rng, 9, 6, 7)
    rois[3] = [-3000.0, -4500.0, 3000.0, 4500.0]
    rois = rois.astype(dtype)
    b = rng.integers(0, 2, 9)
    whole = dmlc.roi_align(x, rois, b, (3, 2), mode=mode)
    ordinary = np.delete(np.arange(9), 3)
    assert_close(whole[ordinary], ref_roi_align(x, rois[ordinary], b[ordinary], (3, 2), 1.0, 1.0, mode=mode), dtype)
    assert np.all(np.isfinite(whole[3].astype(np.float64)))
    for i in range(9):
        assert_same_bits(dmlc.roi_align(x, rois[i:i + 1], b[i:i + 1], (3, 2), mode=mode), whole[i:i + 1])
    for c in (0, 7, 8, 36):
        assert_same_bits(dmlc.roi_align(x[:, c:c + 1], rois, b, (3, 2), mode=mode), whole[:, c:c + 1])
    before = dmlc.get_num_threads()
    try:
        dmlc.set_num_threads(1)
        assert_same_bits(dmlc.roi_align(x, rois, b, (3, 2), mode=mode), whole)
    finally:
        dmlc.set_num_threads(before)


PORTABLE_ALIGN_CASES = """
import numpy as np, dmlc, sys
rng = np.random.default_rng(5)
out = []
x = (rng.standard_normal((2, 11, 13, 17)) * 30).astype(np.float16)
x.reshape(-1)[::17] = np.float16(6e-6)  # subnormal
x.reshape(-1)[3::53] = np.inf
x.reshape(-1)[5::71] = np.nan
x.reshape(-1)[7::29] = -0.0
x.reshape(-1)[9::31] = np.float16(65000)
lo = rng.uniform(-3, 15, (12, 2))
rois = np.concatenate([lo, lo + rng.uniform(0.5, 12, (12, 2))], 1).astype(np.float16)
b = rng.integers(0, 2, 12)
for mode in ("avg", "max"):
    for sr, scale in [(0, 1.0), (2, 0.5), (3, 1.7)]:
        out.append(dmlc.roi_align(x, rois, b, (3, 5), spatial_scale=scale, sampling_ratio=sr, mode=mode))
np.savez(sys.argv[1], *out)
"""


def test_align_float16_portable_and_f16c_kernels_give_the_same_bits(tmp_path):
    """FLOAT16 ROI_ALIGN converts with F16C where the CPU has it; DMLC_CPU_FEATURES=generic takes the portable
    conversions (docs/threads.rst): the same bits, subnormals, infinities, NaN, -0 and overflow included."""
    assert_portable_kernels_agree(tmp_path, PORTABLE_ALIGN_CASES, 6)


def test_align_nearest_max_copies_bits():
    x = np.zeros((1, 1, 2, 2), np.float16)
    x.view(np.uint16)[0, 0] = [[0x8000, 0x7E01], [0x3C00, 0x0001]]  # -0, a NaN with a payload, 1, a subnormal
    got = dmlc.roi_align(x, [[0, 0, 1, 1], [1, 1, 2, 2], [0, 1, 1, 2]], [0, 0, 0], 1, mode="max",
                         interpolation="nearest", sampling_ratio=1)
    assert got.view(np.uint16).ravel().tolist() == [0x8000, 0x0001, 0x3C00]
    got = dmlc.roi_align(x, [[0, 0, 2, 2]], [0], 1, mode="max", interpolation="nearest", sampling_ratio=2)
    assert got.view(np.uint16).item() == 0x7E01  # a NaN wins


def test_align_onnxruntime_agrees(rng):
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper
    x = random_array(rng, (2, 3, 9, 11), np.float32)
    rois = align_regions(rng, 30, 9, 11)
    rois[:, 2:] = rois[:, :2] + np.abs(rois[:, 2:] - rois[:, :2]) + 2  # ONNX widens regions under 1 pixel
    rois = rois.astype(np.float32)
    b = rng.integers(0, 2, 30)
    for ctm, ratio, scale in (("half_pixel", 0, 1.0), ("output_half_pixel", 2, 0.5)):
        node = helper.make_node("RoiAlign", ["x", "rois", "b"], ["y"], output_height=3, output_width=4,
                                spatial_scale=scale, sampling_ratio=ratio, mode="avg",
                                coordinate_transformation_mode=ctm)
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape),
                                                helper.make_tensor_value_info("rois", TensorProto.FLOAT, rois.shape),
                                                helper.make_tensor_value_info("b", TensorProto.INT64, b.shape)],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]).SerializeToString()
        want = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": x, "rois": rois, "b": b})[0]
        got = dmlc.roi_align(x, rois, b, (3, 4), spatial_scale=scale, sampling_ratio=ratio,
                             aligned=ctm == "half_pixel")
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)  # values of about 100: float32 sums


def test_align_strided_views_and_out(rng):
    big = random_array(rng, (2, 6, 8, 10), np.float32)
    x = big[:, ::2, :, ::2]
    rois = align_regions(rng, 5, 8, 5)
    b = np.array([1, 0, 1, 1, 0], np.uint8)
    buf = np.full((5, 3, 4, 4), 7, np.float32)
    out = buf[:, :, ::2, ::2]
    assert dmlc.roi_align(x, rois, b, 2, out=out) is out
    assert_close(out, ref_roi_align(np.ascontiguousarray(x), rois.astype(np.float32), b, (2, 2), 1.0, 1.0),
                 np.float32)
    assert np.all(buf[:, :, 1::2] == 7)


def test_align_empty_results():
    x = np.ones((1, 2, 4, 4), np.float32)
    assert dmlc.roi_align(x, np.zeros((0, 4)), [], (2, 3)).shape == (0, 2, 2, 3)
    assert dmlc.roi_align(np.ones((1, 0, 4, 4)), [[0, 0, 1, 1]], [0], 2).shape == (1, 0, 2, 2)


@pytest.mark.parametrize("rois,b,message", [
    ([[0, 0, 1, 1]], [1], "DML_OPERATOR_ROI_ALIGN1: BatchIndicesTensor[0] is 1, expected an index below 1"),
    ([[0, np.nan, 1, 1]], [0], "DML_OPERATOR_ROI_ALIGN1: ROITensor row 0: y1 is nan, expected a finite value"),
    ([[0, 0, np.inf, 1]], [0], "DML_OPERATOR_ROI_ALIGN1: ROITensor row 0: x2 is inf, expected a finite value"),
    ([[0, 0, 1, 1]], [-1], "roi_align: batch_indices[0] is -1, expected an index in [0, 1)"),
])
def test_align_bad_values_leave_out_untouched(rois, b, message):
    out = np.full((1, 1, 2, 2), 7, np.float32)
    with pytest.raises(ValueError) as e:
        dmlc.roi_align(np.ones((1, 1, 3, 3), np.float32), rois, b, 2, out=out)
    assert str(e.value).startswith(message), str(e.value)
    assert np.all(out == 7)


@pytest.mark.parametrize("call,exc,message", [
    (lambda x, r, b: dmlc.roi_align(x.astype(np.int8), r, b, 2), TypeError, "roi_align: x has dtype int8"),
    (lambda x, r, b: dmlc.roi_align(x, r[:, :3], b, 2), ValueError, "roi_align: rois has shape (1, 3), expected (R, 4)"),
    (lambda x, r, b: dmlc.roi_align(x, r, [0, 0], 2), ValueError,
     "roi_align: batch_indices has shape (2,), expected (1,): one per region"),
    (lambda x, r, b: dmlc.roi_align(x, r, [0.0], 2), TypeError, "roi_align: batch_indices has dtype float64"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, (2, 0)), ValueError, "roi_align: output_size[1] is 0"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, spatial_scale=(1, 2, 3)), ValueError,
     "roi_align: spatial_scale has 3 values, expected one or a (y, x) pair"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, spatial_scale=np.inf), ValueError,
     "DML_OPERATOR_ROI_ALIGN1: SpatialScaleX is inf, expected a finite value"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, spatial_scale=(np.nan, 1)), ValueError,
     "DML_OPERATOR_ROI_ALIGN1: SpatialScaleY is nan, expected a finite value"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, sampling_ratio=-1), ValueError, "roi_align: sampling_ratio is -1"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, sampling_ratio=1.5), TypeError,
     "roi_align: sampling_ratio must be an int"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, mode="mean"), ValueError,
     "roi_align: mode is 'mean', expected 'avg' or 'max'"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, interpolation="cubic"), ValueError, "roi_align: interpolation"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, aligned=1), TypeError, "roi_align: aligned"),
    (lambda x, r, b: dmlc.roi_align(x, r, b, 2, out_of_bounds_value="0"), TypeError,
     "roi_align: out_of_bounds_value must be a real number, not str"),
])
def test_align_argument_errors(call, exc, message):
    x = np.ones((1, 2, 4, 4), np.float32)
    with pytest.raises(exc) as e:
        call(x, np.array([[0, 0, 1, 1]], np.float32), np.array([0]))
    assert str(e.value).startswith(message), str(e.value)
