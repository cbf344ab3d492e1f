"""dmlc.resample and dmlc.upsample_2d: NumPy references (tests/reference.py), every dtype,
1 to 8 dimensions, the error bound of linear interpolation, the mapping from ONNX Resize's
and PyTorch's settings (ONNX Runtime and PyTorch as oracles), strides, empty arrays and
every argument fed wrong values."""
import numpy as np
import pytest

import dmlc
from reference import ref_resample
from support import ALL_DTYPES, assert_portable_kernels_agree, assert_same_bits, random_array

LINEAR_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.uint8]


def assert_linear_close(got, x, want64, corners):
    """The bound of the linear rule: |got - exact| <= 2(k + 1)(eps*A + sigma), A the largest
    magnitude of x (a bound on the corners read), k the corners."""
    fi = np.finfo(got.dtype)
    a = float(np.max(np.abs(x.astype(np.float64)))) if x.size else 0.0
    tol = 2 * (corners + 1) * (float(fi.eps) * a + float(fi.smallest_subnormal))
    assert np.all(np.abs(got.astype(np.float64) - want64) <= tol)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nearest_every_dtype_is_a_bitwise_gather(rng, dtype):
    x = random_array(rng, (2, 5, 7), dtype)
    for size in [(2, 10, 14), (3, 2, 3), (1, 5, 20)]:
        got = dmlc.resample(x, size=size)
        scales = [float(np.float32(m / n)) for n, m in zip(x.shape, size)]
        # round_prefer_floor: RoundingDirection INCREASING, InputPixelOffset 0.5 + 0.5.
        offs = [(0.0, 0.0) if (s == 1.0 and m == n) else (1.0, -0.5) for n, m, s in zip(x.shape, size, scales)]
        want = ref_resample(x, size, scales, [o[0] for o in offs], [o[1] for o in offs], "nearest", "increasing")
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", LINEAR_DTYPES)
def test_linear_every_linear_dtype(rng, dtype):
    x = random_array(rng, (3, 6, 5), dtype)
    size = (3, 11, 9)
    scales = [1.0] + [float(np.float32(m / n)) for n, m in zip(x.shape[1:], size[1:])]
    ins, outs = [0.0, 0.5, 0.5], [0.0, -0.5, -0.5]
    got = dmlc.resample(x, size=size, mode="linear")
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, ref_resample(x, size, scales, ins, outs, "linear"))
    else:
        want = ref_resample(x.astype(np.float64), size, scales, ins, outs, "linear")
        assert_linear_close(got, x, want, 4)


@pytest.mark.parametrize("ndim", range(1, 9))
def test_one_to_eight_dimensions(rng, ndim):
    shape = tuple(int(v) for v in rng.integers(1, 4, ndim))
    size = tuple(int(v) for v in rng.integers(1, 5, ndim))
    x = random_array(rng, shape, np.float64)
    scales = [float(np.float32(m / n)) for n, m in zip(shape, size)]
    ins = [0.0 if (s == 1.0 and m == n) else 0.5 for n, m, s in zip(shape, size, scales)]
    outs = [-v for v in ins]
    got = dmlc.resample(x, size=size, mode="linear")
    assert_linear_close(got, x, ref_resample(x, size, scales, ins, outs, "linear"), 2 ** ndim)
    # round_prefer_ceil: RoundingDirection DECREASING, InputPixelOffset - 0.5.
    got = dmlc.resample(x, size=size, nearest_rounding="round_prefer_ceil")
    want = ref_resample(x, size, scales, [i - 0.5 for i in ins], outs, "nearest", "decreasing")
    assert_same_bits(got, want)


def test_linear_examples_and_weight_zero_corners():
    np.testing.assert_array_equal(dmlc.resample(np.array([1.0, 2.0], np.float32), scales=[2], mode="linear"),
                                  np.array([1, 1.25, 1.75, 2], np.float32))
    # An integral coordinate copies: the infinity beside it is never multiplied by 0.
    x = np.array([1.0, np.inf, -np.inf, 3.0], np.float32)
    np.testing.assert_array_equal(dmlc.resample(x, scales=[1.0], size=[4], mode="linear",
                                                coordinate_transformation="asymmetric"), x)
    # Between an infinity and a number: the IEEE result.
    got = dmlc.resample(np.array([1.0, np.inf], np.float32), size=[3], mode="linear",
                        coordinate_transformation="align_corners")
    np.testing.assert_array_equal(got, [1, np.inf, np.inf])
    # uint8 rounds to nearest, ties to even: 10 and 11 half-way is 10.5 -> 10; 11, 12 -> 11.5 -> 12.
    got = dmlc.resample(np.array([10, 11, 12], np.uint8), scales=[1.0], size=[5], mode="linear",
                        coordinate_transformation="align_corners")
    np.testing.assert_array_equal(got, [10, 10, 11, 12, 12])


def test_upsample_2d():
    x = np.arange(1, 5, dtype=np.float32).reshape(1, 1, 2, 2)
    np.testing.assert_array_equal(dmlc.upsample_2d(x, 2, mode="linear").ravel(),
                                  [1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4])
    y = np.arange(2 * 3 * 2 * 3 * 4, dtype=np.int16).reshape(2, 3, 2, 3, 4)
    np.testing.assert_array_equal(dmlc.upsample_2d(y, (3, 2)), y.repeat(3, axis=3).repeat(2, axis=4))
    z = np.random.default_rng(1).random((2, 2, 5, 3)).astype(np.float64)
    np.testing.assert_array_equal(dmlc.upsample_2d(z, (2, 3), mode="linear"),
                                  dmlc.resample(z, scales=[1, 1, 2, 3], size=[2, 2, 10, 9], mode="linear"))


def test_strided_input_and_out(rng):
    base = random_array(rng, (4, 10, 12), np.float32)
    x = base[:, ::2, 1::3]
    want = dmlc.resample(np.ascontiguousarray(x), size=(4, 7, 9), mode="linear")
    np.testing.assert_array_equal(dmlc.resample(x, size=(4, 7, 9), mode="linear"), want)
    store = np.zeros((4, 7, 18), np.float32)
    out = store[:, :, ::2]
    assert dmlc.resample(x, size=(4, 7, 9), mode="linear", out=out) is out
    np.testing.assert_array_equal(out, want)
    assert (store[:, :, 1::2] == 0).all()


def test_empty_arrays():
    x = np.zeros((0, 3), np.float32)
    assert dmlc.resample(x, size=(0, 6)).shape == (0, 6)
    assert dmlc.resample(np.zeros((2, 3), np.uint8), size=(0, 6)).shape == (0, 6)
    with pytest.raises(ValueError, match=r"resample: size\[0\] is 2, but x's axis 0 is empty"):
        dmlc.resample(x, size=(2, 6))


def test_threads_give_the_same_result(rng):
    x = random_array(rng, (4, 8, 64, 64), np.float32)
    threads = dmlc.get_num_threads()
    try:
        dmlc.set_num_threads(1)
        one = [dmlc.resample(x, scales=[1, 1, 2, 2], mode=m) for m in ("nearest", "linear")]
        dmlc.set_num_threads(4)
        four = [dmlc.resample(x, scales=[1, 1, 2, 2], mode=m) for m in ("nearest", "linear")]
    finally:
        dmlc.set_num_threads(threads)
    for a, b in zip(one, four):
        assert_same_bits(a, b)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_linear_8bit_halves_and_quarters_round_exactly(rng, dtype):
    """Scales 2 and 1/2 give weights 0.25, 0.75 and 0.5: the exact value (ties included, as
    (a + 3b + 3c + 9d) / 16 often is) rounds to nearest even, wide rows (8 columns at a time)
    and their last columns alike, in 1 to 5 dimensions."""
    info = np.iinfo(dtype)
    for shape, size in [((2, 3, 21, 45), (2, 3, 42, 90)), ((2, 3, 22, 46), (2, 3, 11, 23)), ((77,), (154,)),
                        ((3, 40), (6, 20)), ((2, 2, 3, 4, 19), (2, 4, 6, 8, 38))]:
        x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
        want = ref_resample(x, size, [m / n for n, m in zip(shape, size)], [0.5] * len(shape), [-0.5] * len(shape),
                            "linear")
        np.testing.assert_array_equal(dmlc.resample(x, size=size, mode="linear"), want)


PORTABLE_CASES = """
import numpy as np, dmlc, sys
rng = np.random.default_rng(7)
out = []
for dtype in (np.float32, np.float16, np.uint8, np.int8):
    if np.dtype(dtype).kind == "f":
        x = (rng.standard_normal((2, 3, 19, 45)) * 100).astype(dtype)
        x.reshape(-1)[::37] = -0.0
        x.reshape(-1)[5::101] = np.inf
        x.reshape(-1)[7::211] = np.nan
    else:
        x = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max + 1, (2, 3, 19, 45)).astype(dtype)
    for size in [(2, 3, 38, 90), (2, 3, 9, 22), (2, 3, 25, 61), (1, 4, 19, 45)]:
        for ctm in ("half_pixel", "align_corners"):
            out.append(dmlc.resample(x, size=size, mode="linear", coordinate_transformation=ctm))
np.savez(sys.argv[1], *out)
"""


def test_portable_kernels_give_the_same_bits(tmp_path):
    """DMLC_CPU_FEATURES=generic runs the portable kernels only (docs/threads.rst): every linear result is bit
    for bit what the default (vector) kernels give, special values included."""
    assert_portable_kernels_agree(tmp_path, PORTABLE_CASES, 32)


# ---- the mapping from ONNX Resize and torch.nn.functional.interpolate ------------------------

def _onnx_resize(x, size, mode, ctm, nearest_mode):
    ort = pytest.importorskip("onnxruntime")
    from onnx import helper, numpy_helper
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode=mode, coordinate_transformation_mode=ctm,
                            nearest_mode=nearest_mode)
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(x.shape))],
                              [helper.make_tensor_value_info("y", elem, list(size))],
                              initializer=[numpy_helper.from_array(np.array(size, np.int64), "sizes")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


# Linear against the oracles, which round their own way (their weights in float32): within
# twice the bound of the rule (5 terms, float32) relative to the largest input.
ORACLE_TOL = 2 * 2 * 5 * float(np.finfo(np.float32).eps)

# Sizes whose ratios float32 holds exactly (the quirk of approximate scales aside).
SIZES = [((1, 2, 4, 6), (1, 2, 8, 3)), ((2, 1, 8, 4), (2, 1, 3, 6)), ((1, 1, 5, 4), (1, 1, 5, 10))]
# align_corners' scales are (m - 1) / (n - 1).
ALIGN_SIZES = [((1, 2, 5, 3), (1, 2, 9, 5)), ((1, 1, 5, 9), (1, 1, 3, 5)), ((2, 1, 4, 3), (2, 1, 4, 5))]


def _sizes(ctm):
    return ALIGN_SIZES if ctm == "align_corners" else SIZES


@pytest.mark.parametrize("ctm", ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                 "tf_half_pixel_for_nn"])
@pytest.mark.parametrize("nearest_mode", ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
def test_onnx_runtime_nearest(rng, ctm, nearest_mode):
    for shape, size in _sizes(ctm):
        x = random_array(rng, shape, np.float32)
        want = _onnx_resize(x, size, "nearest", ctm, nearest_mode)
        got = dmlc.resample(x, size=size, coordinate_transformation=ctm, nearest_rounding=nearest_mode)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ctm", ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"])
def test_onnx_runtime_linear(rng, ctm):
    for shape, size in _sizes(ctm):
        x = random_array(rng, shape, np.float32)
        want = _onnx_resize(x, size, "linear", ctm, "round_prefer_floor")
        got = dmlc.resample(x, size=size, mode="linear", coordinate_transformation=ctm)
        np.testing.assert_allclose(got, want, rtol=0, atol=ORACLE_TOL * np.abs(x).max())


def test_pytorch_interpolate(rng):
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    x = random_array(rng, (2, 3, 6, 8), np.float32)
    t = torch.from_numpy(x)
    for s in [(12, 16), (3, 4), (9, 10)]:
        size = (2, 3) + s
        np.testing.assert_array_equal(
            dmlc.resample(x, size=size, coordinate_transformation="asymmetric", nearest_rounding="floor"),
            F.interpolate(t, size=s, mode="nearest").numpy())
        np.testing.assert_array_equal(dmlc.resample(x, size=size, nearest_rounding="round_prefer_ceil"),
                                      F.interpolate(t, size=s, mode="nearest-exact").numpy())
        np.testing.assert_allclose(dmlc.resample(x, size=size, mode="linear"),
                                   F.interpolate(t, size=s, mode="bilinear", align_corners=False).numpy(),
                                   rtol=0, atol=ORACLE_TOL * np.abs(x).max())
        np.testing.assert_allclose(dmlc.resample(x, size=size, mode="linear", coordinate_transformation="align_corners"),
                                   F.interpolate(t, size=s, mode="bilinear", align_corners=True).numpy(),
                                   rtol=0, atol=ORACLE_TOL * np.abs(x).max())
    np.testing.assert_allclose(dmlc.resample(x, scales=(1, 1, 2, 2), mode="linear"),
                               F.interpolate(t, scale_factor=2, mode="bilinear").numpy(), rtol=0, atol=ORACLE_TOL * np.abs(x).max())


def test_scales_alone_size_in_float32():
    # 10 x 0.7 in float32 is 7.0000005: 7 elements, as ONNX Runtime.
    assert dmlc.resample(np.zeros(10, np.float32), scales=[0.7]).shape == (7,)
    assert dmlc.resample(np.zeros((3, 4), np.uint16), scales=[1, 2.5]).shape == (3, 10)


# ---- wrong arguments --------------------------------------------------------------------------

BAD = [
    (dict(), ValueError, "resample: give scales or size (or both)"),
    (dict(scales=[2]), ValueError, "resample: scales has 1 values, expected 2 (one per dimension of x)"),
    (dict(scales=[1, 0]), ValueError, "resample: scales[1] is 0.0, expected a finite value above 0"),
    (dict(scales=[1, float("nan")]), ValueError, "resample: scales[1] is nan, expected a finite value above 0"),
    (dict(scales=[1, float("inf")]), ValueError, "resample: scales[1] is inf, expected a finite value above 0"),
    (dict(scales=[1, -2]), ValueError, "resample: scales[1] is -2.0, expected a finite value above 0"),
    (dict(scales=2), TypeError, "resample: scales must be a sequence of numbers (one per dimension of x), not int"),
    (dict(scales=[1, "2"]), TypeError, "resample: scales[1] must be a number, not str"),
    (dict(size=[2]), ValueError, "resample: size has 1 values, expected 2 (one per dimension of x)"),
    (dict(size=4), TypeError, "resample: size must be a sequence of ints (one per dimension of x), not int"),
    (dict(size=[2, -1]), ValueError, "resample: size[1] is -1, expected 0 to 4294967295"),
    (dict(size=[2, 1.5]), TypeError, "resample: size[1] must be an int, not float"),
    (dict(size=[2, 4], mode="cubic"), ValueError, "resample: mode 'cubic' is not available"),
    (dict(size=[2, 4], mode="bogus"), ValueError, "resample: mode"),
    (dict(size=[2, 4], mode=7), ValueError, "resample: mode"),
    (dict(size=[2, 4], coordinate_transformation="tf_crop_and_resize"), ValueError,
     "resample: coordinate_transformation is 'tf_crop_and_resize', expected one of 'half_pixel'"),
    (dict(size=[2, 4], coordinate_transformation=1), TypeError,
     "resample: coordinate_transformation must be a str, not int"),
    (dict(size=[2, 4], nearest_rounding="up"), ValueError,
     "resample: nearest_rounding is 'up', expected one of 'round_prefer_floor'"),
]


@pytest.mark.parametrize("kwargs,exc,message", BAD, ids=[b[2] for b in BAD])
def test_wrong_arguments(kwargs, exc, message):
    with pytest.raises(exc) as e:
        dmlc.resample(np.zeros((2, 3), np.float32), **kwargs)
    assert str(e.value).startswith(message), str(e.value)


def test_wrong_x_and_out():
    with pytest.raises(ValueError, match="resample: x has 0 dimensions; DirectML tensors have 1 to 8"):
        dmlc.resample(np.float32(1), scales=[])
    with pytest.raises(ValueError, match="resample: x has 9 dimensions"):
        dmlc.resample(np.zeros((1,) * 9), scales=[1] * 9)
    with pytest.raises(ValueError, match="resample: x has dtype int32; linear interpolation takes float16, float32, "
                                         "float64, int8 or uint8"):
        dmlc.resample(np.zeros(3, np.int32), scales=[2], mode="linear")
    with pytest.raises(ValueError, match=r"out has shape \(5,\), expected \(6,\)"):
        dmlc.resample(np.zeros(3, np.float32), scales=[2], out=np.zeros(5, np.float32))
    with pytest.raises(TypeError, match="out has dtype float64, expected float32"):
        dmlc.resample(np.zeros(3, np.float32), scales=[2], out=np.zeros(6))


UPSAMPLE_BAD = [
    (np.zeros((1, 2, 3)), 2, {}, ValueError, "upsample_2d: x has 3 dimensions, expected 4 or 5 (N, C, [D,] H, W)"),
    (np.zeros((1,) * 6), 2, {}, ValueError, "upsample_2d: x has 6 dimensions, expected 4 or 5"),
    (np.zeros((1, 1, 2, 2)), 0, {}, ValueError, "upsample_2d: scale is 0, expected 1 to 4294967295"),
    (np.zeros((1, 1, 2, 2)), (2, 0), {}, ValueError, "upsample_2d: scale[1] is 0, expected 1 to 4294967295"),
    (np.zeros((1, 1, 2, 2)), (2, 2, 2), {}, ValueError, "upsample_2d: scale has 3 values, expected 2"),
    (np.zeros((1, 1, 2, 2)), 2.0, {}, TypeError, "upsample_2d: scale must be an int or a sequence of ints, not float"),
    (np.zeros((1, 1, 2, 2)), True, {}, TypeError, "upsample_2d: scale must be an int or a sequence of ints, not bool"),
    (np.zeros((1, 1, 2, 2)), 2, dict(mode="cubic"), ValueError, "upsample_2d: mode 'cubic' is not available"),
    (np.zeros((1, 1, 2, 2), np.int64), 2, dict(mode="linear"), ValueError,
     "DML_OPERATOR_UPSAMPLE_2D: InputTensor.DataType is INT64, but LINEAR interpolation takes"),
]


@pytest.mark.parametrize("x,scale,kw,exc,message", UPSAMPLE_BAD, ids=[b[4] for b in UPSAMPLE_BAD])
def test_upsample_2d_wrong_arguments(x, scale, kw, exc, message):
    with pytest.raises(exc) as e:
        dmlc.upsample_2d(x, scale, **kw)
    assert str(e.value).startswith(message), str(e.value)


# ---- dmlc.dask.resample ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("ctm", ["half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn"])
def test_dask_resample_is_bit_exact_for_every_chunking(rng, mode, ctm):
    da = pytest.importorskip("dask.array")
    import dmlc.dask as dd
    # Every chunking for float32; uint8 and float16 (whose rounding is the kernel's, the same
    # in every block) through the two that cut every axis.
    chunkings = {np.float32: [(1, 5, 7), (2, 1, 3), (3, 17, 23), (1, 4, 1)],
                 np.uint8: [(1, 4, 1), (2, 5, 7)], np.float16: [(2, 1, 3), (1, 5, 7)]}
    for dtype, dtype_chunkings in chunkings.items():
        x = random_array(rng, (3, 17, 23), dtype)
        for kw in [dict(size=(3, 34, 46)), dict(size=(2, 5, 7)), dict(scales=(1, 0.7, 2.5)),
                   dict(scales=(1.5, 1.3, 0.4), size=(3, 30, 12))]:
            want = dmlc.resample(x, mode=mode, coordinate_transformation=ctm, **kw)
            for chunks in dtype_chunkings:
                y = dd.resample(da.from_array(x, chunks=chunks), mode=mode, coordinate_transformation=ctm, **kw)
                assert y.shape == want.shape
                assert_same_bits(y.compute(), want)


def test_dask_resample_chunks_and_errors():
    da = pytest.importorskip("dask.array")
    import dmlc.dask as dd
    x = da.zeros((4, 10, 12), dtype=np.float32, chunks=(2, 5, 4))
    y = dd.resample(x, scales=(1, 2, 0.5))
    assert y.chunks == ((2, 2), (10, 10), (2, 2, 2))  # the input's boundaries scaled
    with pytest.raises(ValueError, match=r"resample: scales\[1\] is 0.0, expected a finite value above 0"):
        dd.resample(x, scales=(1, 0, 1))
    with pytest.raises(ValueError, match="resample: x has dtype int32; linear interpolation takes"):
        dd.resample(da.zeros((2, 2), dtype=np.int32), scales=(2, 2), mode="linear")
    assert dd.resample(da.zeros((0, 3), dtype=np.float32), size=(0, 6)).compute().shape == (0, 6)
