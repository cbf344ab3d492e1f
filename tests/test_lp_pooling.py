"""dmlc.lp_pool (DirectML LP_POOLING1) against a long-double NumPy reference within the
error bound of docs/operators/lp_pooling1.rst, PyTorch and ONNX Runtime: float16/32/64,
P 1, 2, odd and large, 1 to 3 spatial axes, strides, dilations, unequal padding, ceil mode,
empty windows, special values, strided views, threads and argument errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import output_sizes, ref_lp_pool
from support import assert_same_bits, random_array

FLOATS = [np.float64, np.float32, np.float16]


def per_axis(v, sp):
    return [v] * sp if np.isscalar(v) else list(v)


def check(x, window, p=2, strides=None, start=0, end=0, dilations=1, ceil_mode=False):
    """dmlc.lp_pool within docs/operators/lp_pooling1.rst's bound of the exact norm; NaN
    and infinities exactly where the exact norm has them."""
    sp = x.ndim - 2
    w = per_axis(window, sp)
    s = w if strides is None else per_axis(strides, sp)
    a, b, d = per_axis(start, sp), per_axis(end, sp), per_axis(dilations, sp)
    got = dmlc.lp_pool(x, window, p, strides=strides, start_padding=start, end_padding=end, dilations=dilations,
                       ceil_mode=ceil_mode)
    want, bound = ref_lp_pool(x, w, s, a, b, d, p, ceil_mode)
    assert got.shape == want.shape and got.dtype == x.dtype
    g = got.astype(np.float64)
    want = want.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    np.testing.assert_array_equal(g[np.isinf(want)], want[np.isinf(want)])
    finite = np.isfinite(want)
    err = np.abs(g[finite] - want[finite])
    assert np.all(err <= bound[finite]), (err / bound[finite]).max()
    assert not np.any(np.signbit(g[~np.isnan(g)]))  # a norm is never negative, not even -0
    return got


# ---- cases by hand ----------------------------------------------------------------------------------

def test_by_hand_p1_p2_and_padding():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    # P 2, 2x2 windows: sqrt(0 + 1 + 16 + 25), sqrt(4 + 9 + 36 + 49), ...
    np.testing.assert_array_equal(dmlc.lp_pool(x, 2)[0, 0], np.sqrt(np.array([[42, 98], [458, 642]], np.float32)))
    np.testing.assert_array_equal(dmlc.lp_pool(-x, 2, 1)[0, 0], [[10, 18], [42, 50]])  # |x|: signs do not matter
    # 3x3, stride 2, padding 1 on ones: 4, 6, 6 and 9 elements inside, padding adds nothing.
    got = dmlc.lp_pool(-np.ones((1, 1, 4, 4)), 3, 2, strides=2, start_padding=1, end_padding=1)
    np.testing.assert_array_equal(got[0, 0], np.sqrt([[4.0, 6.0], [6.0, 9.0]]))
    np.testing.assert_allclose(dmlc.lp_pool(np.full((1, 1, 4), -2.0), 4, 3).reshape(-1), [np.cbrt(32.0)], rtol=2.3e-16)


def test_by_hand_windows_of_padding_only_give_zero():
    x = np.array([[[2, -4]]], np.float32)
    got = dmlc.lp_pool(x, 1, 3, strides=2, start_padding=2, end_padding=1)
    np.testing.assert_array_equal(got.reshape(-1), [0, 2, 0])
    assert not np.any(np.signbit(got))


def test_by_hand_ceil_mode_and_dilation():
    x = np.array([[[1, -2, 3, -4, 5]]], np.float64)
    np.testing.assert_array_equal(dmlc.lp_pool(x, 2, 1, ceil_mode=True).reshape(-1), [3, 7, 5])
    np.testing.assert_allclose(dmlc.lp_pool(x, 2, 2, strides=1, dilations=3).reshape(-1), [np.sqrt(17), np.sqrt(29)],
                               rtol=1e-15)


def test_large_p_is_the_maximum_in_the_limit():
    """(sum |x|^P)^(1/P) tends to max |x|: with P 400 and values at most 1, no overflow."""
    x = np.array([[[0.5, -0.9, 0.3, 0.8]]], np.float64)
    got = dmlc.lp_pool(x, 4, 400)
    assert abs(got.item() - 0.9) < 1e-3 and got.item() >= 0.9


# ---- every float dtype, every P class, 1 to 3 spatial axes ------------------------------------------------

CONFIGS_2D = [
    # window, strides, start, end, dilations, ceil
    ((2, 2), None, 0, 0, 1, False),
    ((3, 3), 2, 1, 1, 1, False),
    ((3, 3), 2, 1, 1, 1, True),
    ((2, 3), (1, 2), (1, 0), (0, 2), (2, 1), False),
    ((3, 2), (2, 3), (0, 1), (2, 0), (1, 2), True),
    ((1, 1), 1, 0, 0, 1, False),
    ((2, 2), 3, 4, 4, 1, True),  # windows of padding only
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("config", CONFIGS_2D, ids=str)
def test_2d_every_dtype(rng, dtype, config):
    window, strides, start, end, dil, ceil = config
    x = random_array(rng, (2, 3, 9, 13), dtype)
    for p in (1, 2, 3, 4):  # |x|, x*x and pow: the three kernels
        check(x, window, p, strides, start, end, dil, ceil)


@pytest.mark.parametrize("dtype", FLOATS)
def test_1d_and_3d_every_dtype(rng, dtype):
    x = random_array(rng, (3, 2, 37), dtype)
    check(x, 3, 2, 2, 1, 0)
    check(x, 2, 1, None, 0, 1, 3, True)
    check(x, 5, 7, 1, 4, 4)
    x = random_array(rng, (1, 2, 5, 6, 7), dtype)
    check(x, 2, 2)
    check(x, (3, 3, 3), 3, 2, 1, 1, 1, True)
    check(x, (2, 3, 2), 1, (1, 2, 2), (1, 0, 1), (0, 2, 1), (2, 1, 1))


@pytest.mark.parametrize("dtype", FLOATS)
def test_large_p_within_the_bound(rng, dtype):
    """P 11, 100 and 5000 (the split root, and pow alone from 1024 on) on values near 1, so
    the sums stay in float64's range (1.1^5000 is 1e207)."""
    x = (rng.uniform(0.9, 1.1, (1, 2, 6, 9)) * rng.choice([-1, 1], (1, 2, 6, 9))).astype(dtype)
    for p in (11, 100, 5000):
        check(x, 3, p, 1, 1, 1)


def test_float64_root_of_huge_and_tiny_sums():
    """Sums near the ends of float64's range: the root keeps float64's precision (pow(s,
    1/P) alone is off by up to 2^-45 relative there)."""
    for v, p in [(1e100, 3), (1e-100, 3), (3e102, 3), (1e150, 2), (3e-150, 2), (1e30, 7)]:
        check(np.full((1, 1, 3), v), 3, p)
    # Sums past float64's range: +inf, or 0 below it (the page allows either beyond it).
    assert dmlc.lp_pool(np.array([[[1e200, -1e200]]]), 2, 2).item() == np.inf
    assert dmlc.lp_pool(np.array([[[1e-200, -1e-200]]]), 2, 2).item() == 0


def test_a_row_wider_than_one_tile_and_a_window_wider_than_a_tile(rng):
    x = random_array(rng, (1, 2, 3, 5000), np.float32)
    got = check(x, (3, 3), 2, (1, 2), 1, 1)
    part = dmlc.lp_pool(x[..., :4200], (3, 3), 2, strides=(1, 2), start_padding=1, end_padding=1)
    assert_same_bits(part[..., :-1], got[..., :part.shape[3] - 1])
    check(random_array(rng, (1, 1, 2, 5000), np.float64), (1, 2500), 3, (1, 7), 0, 3)


# ---- special values ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_special_values(rng, dtype):
    """NaN anywhere in a window gives NaN; inf or -inf alone +inf; -0 counts as 0."""
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5], dtype)
    for trial in range(12):
        x = rng.choice(values, size=(1, 2, int(rng.integers(2, 6)), int(rng.integers(2, 30))))
        for p in (1, 2, 3):
            check(x, 2, p, 2, 0, 0)
            check(x, 2, p, 1, 1, 1)
    got = dmlc.lp_pool(np.full((1, 1, 4), -0.0, dtype), 2, 3)
    assert np.all(got == 0) and not np.any(np.signbit(got))


def test_float16_sums_in_float64():
    """Sums are float64 for every dtype: 4 x 30000^2 is past float16's range (65504), and
    60000^9 past float32's (3.4e38), yet the norms are exact or nearly."""
    x = np.full((1, 1, 2, 2), 30000, np.float16)
    np.testing.assert_array_equal(dmlc.lp_pool(x, 2, 2), np.full((1, 1, 1, 1), 60000, np.float16))
    got = dmlc.lp_pool(np.full((1, 1, 2, 2), 60000, np.float32), 2, 9)
    np.testing.assert_allclose(got.item(), 60000 * 4 ** (1 / 9), rtol=2e-7)


# ---- memory: strided views in and out, out=, empty arrays, threads ----------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_strided_inputs_and_layouts(rng, dtype):
    base = random_array(rng, (3, 4, 20, 30), dtype)
    check(base.transpose(1, 0, 2, 3), 2, 2)
    check(base[:, :, 1:, 3:], 3, 3, 2, 1, 1)
    check(base[:, ::2, ::2, 1::2], 3, 1, 2, 1, 1)
    check(np.broadcast_to(base[..., :1], base.shape), 3, 2, 2, 1, 1)
    t = np.ascontiguousarray(base.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2)  # columns strided
    assert_same_bits(dmlc.lp_pool(t, 3, 3, strides=2), dmlc.lp_pool(base, 3, 3, strides=2))


def test_out_may_be_a_strided_view_and_is_returned(rng):
    x = random_array(rng, (2, 3, 12, 34), np.float32)
    want = dmlc.lp_pool(x, 2)
    big = np.zeros((2, 3, 6, 40), np.float32)
    got = dmlc.lp_pool(x, 2, out=big[:, :, :, 3:20])
    assert np.shares_memory(got, big)
    assert_same_bits(big[:, :, :, 3:20], want)
    assert np.all(big[:, :, :, :3] == 0) and np.all(big[:, :, :, 20:] == 0)
    o = np.empty(want.shape, np.float32)
    assert dmlc.lp_pool(x, 2, out=o) is o


def test_empty_batch_and_channels():
    assert dmlc.lp_pool(np.zeros((0, 3, 8, 8), np.float32), 2).shape == (0, 3, 4, 4)
    assert dmlc.lp_pool(np.zeros((2, 0, 9), np.float16), 3, 1, strides=1).shape == (2, 0, 7)


def test_array_likes_and_threads(rng):
    assert dmlc.lp_pool([[[3.0, -4.0, 0.0, 1.0]]], 2).tolist() == [[[5.0, 1.0]]]
    x = random_array(rng, (4, 16, 48, 48), np.float32)
    want = dmlc.lp_pool(x, 3, 3, strides=2, start_padding=1, end_padding=1)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.lp_pool(x, 3, 3, strides=2, start_padding=1, end_padding=1), want)
    finally:
        dmlc.set_num_threads(0)
        assert dmlc.get_num_threads() == old


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.sampled_from(FLOATS), st.integers(1, 6), st.integers(0, 2 ** 32 - 1))
def test_property_within_the_bound(sp, dtype, p, seed):
    rng = np.random.default_rng(seed)
    spatial = rng.integers(1, 8, sp)
    window, strides, dil = rng.integers(1, 4, sp), rng.integers(1, 3, sp), rng.integers(1, 3, sp)
    start, end = rng.integers(0, 3, sp), rng.integers(0, 3, sp)
    end = np.maximum(end, (window - 1) * dil + 1 - spatial - start)  # the window fits the padded input
    x = random_array(rng, (2, 2) + tuple(spatial), dtype)
    check(x, list(window), p, list(strides), list(start), list(end), list(dil), bool(seed % 2))


# ---- other libraries as oracles -----------------------------------------------------------------------

def test_pytorch_lp_pool_on_the_agreeing_subset(rng):
    """PyTorch's lp_pool{1,2,3}d is (sign(s) * relu(|s|)) ** (1/p) with s the window sum of
    x**p (an average times the window size): no padding, no dilation, and x**p without |x|,
    so it agrees for even p or x >= 0, in floor mode.  Odd p on negative values differs
    (shown at the end)."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    pools = {1: F.lp_pool1d, 2: F.lp_pool2d, 3: F.lp_pool3d}
    for sp in (1, 2, 3):
        if sp == 3 and not hasattr(F, "lp_pool3d"):
            continue
        x = rng.standard_normal((2, 3) + (7,) * sp)
        for p, k, s in [(2, 2, 2), (2, 3, 1), (4, 3, 2), (3, 2, 1), (1, 3, 2)]:
            arg = x if p % 2 == 0 else np.abs(x)
            want = pools[sp](torch.from_numpy(arg), p, k, s).numpy()
            np.testing.assert_allclose(dmlc.lp_pool(arg, k, p, strides=s), want, rtol=1e-10, atol=1e-12)
    x = np.array([[[-1.0, -2.0]]])
    assert dmlc.lp_pool(x, 2, 1).item() == 3 and dmlc.lp_pool(x, 2, 3).item() == 9 ** (1 / 3)
    assert F.lp_pool1d(torch.from_numpy(x), 1, 2).item() == -3  # the sum of x, not of |x|
    assert np.isnan(F.lp_pool1d(torch.from_numpy(x), 3, 2).item())  # (-9) ** (1/3)


def lp_model(dtype, shape, k, s, pads, d, p, ceil):
    """An ONNX LpPool (opset 18: dilations and ceil_mode) model."""
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE,
            np.float16: TensorProto.FLOAT16}[np.dtype(dtype).type]
    node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=list(k), strides=list(s), pads=list(pads),
                            dilations=list(d), p=p, ceil_mode=int(ceil))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(shape))],
                              [helper.make_tensor_value_info("y", elem, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]).SerializeToString()


def test_onnxruntime_lp_pool(rng):
    """ONNX's LpPool maps one to one (pads split into start and end; its ceil sizes are
    ours): unequal pads, dilations, odd p on negative values, both ceil modes."""
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from dmlc.bench import ort_session
    cases = 0
    for trial in range(30):
        sp = 1 + trial % 3
        n = rng.integers(3, 9, sp)
        k, s, d = rng.integers(1, 4, sp), rng.integers(1, 3, sp), rng.integers(1, 3, sp)
        a, b = np.minimum(rng.integers(0, 2, sp), k - 1), np.minimum(rng.integers(0, 2, sp), k - 1)
        if np.any((k - 1) * d + 1 > n + a + b):
            continue
        p, ceil = int(rng.integers(1, 5)), bool(trial % 2)
        x = rng.standard_normal((2, 3) + tuple(n)).astype(np.float32)
        try:
            sess = ort_session(lp_model(np.float32, x.shape, k, s, list(a) + list(b), d, p, ceil))
        except Exception as e:  # noqa: BLE001 - an older ONNX Runtime without LpPool-18
            pytest.skip(f"onnxruntime has no LpPool-18: {e}")
        want = sess.run(None, {"x": x})[0]
        got = dmlc.lp_pool(x, list(k), p, strides=list(s), start_padding=list(a), end_padding=list(b),
                           dilations=list(d), ceil_mode=ceil)
        assert got.shape == want.shape == tuple([2, 3] + output_sizes(n, k, s, a, b, d, ceil))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        cases += 1
    assert cases >= 15


# ---- argument errors ----------------------------------------------------------------------------------

X4 = np.zeros((1, 2, 6, 6), np.float32)
A = "DML_OPERATOR_LP_POOLING1: "

ERRORS = [
    (dict(x=np.zeros((2, 6))), ValueError, "lp_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 2"),
    (dict(x=np.zeros((1,) * 6), window_size=1), ValueError,
     "lp_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 6"),
    (dict(x=np.zeros((1,) * 8), window_size=1), ValueError,
     "lp_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 8"),
    (dict(x=np.zeros((1, 2, 6, 6), np.int32)), TypeError,
     "lp_pool: x has dtype int32; LP pooling takes float16, float32 or float64"),
    (dict(x=np.zeros((1, 2, 6, 6), np.uint8)), TypeError, "lp_pool: x has dtype uint8; LP pooling takes"),
    (dict(p=0), ValueError, "lp_pool: p is 0, expected an int from 1 to 4294967295"),
    (dict(p=-2), ValueError, "lp_pool: p is -2, expected an int from 1 to 4294967295"),
    (dict(p=2 ** 32), ValueError, "lp_pool: p is 4294967296, expected an int from 1 to 4294967295"),
    (dict(p=2.0), TypeError, "lp_pool: p must be an int, got float 2.0"),
    (dict(p=True), TypeError, "lp_pool: p must be an int, got bool True"),
    (dict(p="2"), TypeError, "lp_pool: p must be an int, got str '2'"),
    (dict(window_size=0), ValueError, "lp_pool: window_size is 0, expected 1 to 4294967295"),
    (dict(window_size=(2, 2, 2)), ValueError, "lp_pool: window_size has 3 values, expected 2 (one per spatial axis of x)"),
    (dict(window_size=2.0), TypeError, "lp_pool: window_size must be an int or a sequence of ints, not float"),
    (dict(strides=0), ValueError, "lp_pool: strides is 0, expected 1 to 4294967295"),
    (dict(strides=(1, -1)), ValueError, "lp_pool: strides[1] is -1, expected 1 to 4294967295"),
    (dict(dilations=0), ValueError, "lp_pool: dilations is 0, expected 1 to 4294967295"),
    (dict(start_padding=-1), ValueError, "lp_pool: start_padding is -1, expected 0 to 4294967295"),
    (dict(end_padding=(1,)), ValueError, "lp_pool: end_padding has 1 values, expected 2 (one per spatial axis of x)"),
    (dict(window_size=7), ValueError,
     A + "the dilated window (WindowSize[0] 7 - 1) * Dilations[0] 1 + 1 = 7 is larger than the padded input "
         "InputTensor.Sizes[2] 6 + StartPadding[0] 0 + EndPadding[0] 0 = 6"),
    (dict(window_size=3, dilations=(1, 3)), ValueError,
     A + "the dilated window (WindowSize[1] 3 - 1) * Dilations[1] 3 + 1 = 7 is larger than the padded input "
         "InputTensor.Sizes[3] 6 + StartPadding[1] 0 + EndPadding[1] 0 = 6"),
    (dict(x=np.zeros((1, 1, 0, 4), np.float32), window_size=1), ValueError,
     "lp_pool: x.shape[2] is 0; a spatial axis must not be empty"),
    (dict(out=np.zeros((1, 2, 3, 4), np.float32)), ValueError, "out has shape (1, 2, 3, 4), expected (1, 2, 3, 3)"),
    (dict(out=np.zeros((1, 2, 3, 3), np.float64)), TypeError, "out has dtype float64, expected float32"),
]


@pytest.mark.parametrize("kwargs,exc,msg", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_argument_errors(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", X4)
    window = kwargs.pop("window_size", 2)
    p = kwargs.pop("p", 2)
    with pytest.raises(exc) as info:
        dmlc.lp_pool(x, window, p, **kwargs)
    assert str(info.value).startswith(msg), str(info.value)


def test_ceil_mode_output_shape():
    x = np.zeros((1, 1, 7, 8), np.float32)
    assert dmlc.lp_pool(x, 2).shape == (1, 1, 3, 4)
    assert dmlc.lp_pool(x, 2, ceil_mode=True).shape == (1, 1, 4, 4)


# ---- dmlc run -------------------------------------------------------------------------------------------

def test_dxdispatch_model(tmp_path, capsys, monkeypatch):
    """tests/models/lp_pooling.json: LP_POOLING (P 2, 2x2/2) and LP_POOLING1 (P 1, 3x3/2 pad 1)
    over 0..15 in a 4x4 grid, P as a JSON number."""
    import os

    from dmlc import cli
    monkeypatch.chdir(tmp_path)
    model = os.path.join(os.path.dirname(__file__), "models", "lp_pooling.json")
    assert cli.main(["run", model]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Resource")]
    # sqrt(0 + 1 + 16 + 25) = 6.48074, sqrt(98), sqrt(458), sqrt(642); sums 10, 24, 51, 90.
    assert lines == ["Resource 'Norm2': 6.48074, 9.8995, 21.4009, 25.3377", "Resource 'Norm1': 10, 24, 51, 90"]
