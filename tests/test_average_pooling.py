"""dmlc.avg_pool (DirectML AVERAGE_POOLING1) against a float64 NumPy reference within the
error bound of docs/operators/average_pooling1.rst, PyTorch and ONNX Runtime: float16/32/64, 1 to 3 spatial axes, strides,
dilations, unequal padding, IncludePadding, ceil mode, empty windows, special values, the
same bits from every kernel path, strided views and argument errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import avg_pool_loop, ref_avg_pool
from support import assert_portable_kernels_agree, assert_same_bits, random_array

FLOATS = [np.float64, np.float32, np.float16]


def per_axis(v, sp):
    return [v] * sp if np.isscalar(v) else list(v)


def assert_within_bound(got, x, window, strides, start, end, dilations, include_padding=False, ceil_mode=False):
    """got within the naive summation bound (docs/operators/average_pooling1.rst) of the
    exact average; NaN where the exact average is NaN (nothing to divide by, or NaN/inf - inf
    inside), the same infinity where it is infinite."""
    want, bound = ref_avg_pool(x, window, strides, start, end, dilations, include_padding, ceil_mode)
    assert got.shape == want.shape and got.dtype == x.dtype
    g = got.astype(np.float64)
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    np.testing.assert_array_equal(g[np.isinf(want)], want[np.isinf(want)])
    with np.errstate(invalid="ignore"):  # inf - inf where both are inf: compared above
        err = np.abs(g - want)
    assert np.all(err[finite] <= bound[finite]), (err[finite] / bound[finite]).max()


def check(x, window, strides=None, start=0, end=0, dilations=1, include_padding=False, ceil_mode=False):
    sp = x.ndim - 2
    w = per_axis(window, sp)
    s = w if strides is None else per_axis(strides, sp)
    a, b, d = per_axis(start, sp), per_axis(end, sp), per_axis(dilations, sp)
    got = dmlc.avg_pool(x, window, strides=strides, start_padding=start, end_padding=end, dilations=dilations,
                        include_padding=include_padding, ceil_mode=ceil_mode)
    assert_within_bound(got, x, w, s, a, b, d, include_padding, ceil_mode)
    return got


# ---- the reference itself, and cases by hand ------------------------------------------------------

def test_reference_agrees_with_the_rule_written_out(rng):
    for trial in range(40):
        sp = 1 + trial % 3
        x = rng.standard_normal((2, 2) + tuple(rng.integers(1, 6, sp)))
        w, s = list(rng.integers(1, 4, sp)), list(rng.integers(1, 4, sp))
        d, a, b = list(rng.integers(1, 3, sp)), list(rng.integers(0, 3, sp)), list(rng.integers(0, 3, sp))
        if any((wi - 1) * di + 1 > n + ai + bi for wi, di, n, ai, bi in zip(w, d, x.shape[2:], a, b)):
            continue
        for include in (False, True):
            ceil = bool(trial % 2)
            got = ref_avg_pool(x, w, s, a, b, d, include, ceil)[0]
            np.testing.assert_allclose(got, avg_pool_loop(x, w, s, a, b, d, include, ceil), rtol=1e-12, atol=1e-12,
                                       equal_nan=True)


def test_by_hand_2x2_and_3x3_pad_1():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    np.testing.assert_array_equal(dmlc.avg_pool(x, 2)[0, 0], [[2.5, 4.5], [10.5, 12.5]])
    kw = dict(strides=2, start_padding=1, end_padding=1)
    np.testing.assert_array_equal(dmlc.avg_pool(x, 3, **kw)[0, 0], [[2.5, 4], [8.5, 10]])
    # With IncludePadding every window counts 9 positions: sums 10, 24, 51, 90.
    np.testing.assert_array_equal(dmlc.avg_pool(x, 3, include_padding=True, **kw)[0, 0],
                                  (np.array([[10, 24], [51, 90]], np.float32) / np.float32(9)))


def test_by_hand_windows_with_nothing_to_divide_by():
    """Padding wider than the window: a window of padding only is NaN, or 0 with
    IncludePadding (its positions lie in the padded input).  (A window past the padded
    input, which only the raw ABI's plain ceil size reaches, is in test_average_pooling_raw.)"""
    x = np.array([[[2, 4]]], np.float32)
    got = dmlc.avg_pool(x, 1, strides=2, start_padding=2, end_padding=1)
    np.testing.assert_array_equal(got.reshape(-1), [np.nan, 2, np.nan])
    assert not np.signbit(got.reshape(-1)[0])  # the NaN dmlc writes is positive, on every path
    got = dmlc.avg_pool(x, 1, strides=2, start_padding=2, end_padding=1, include_padding=True)
    np.testing.assert_array_equal(got.reshape(-1), [0, 2, 0])
    # n 2, window 1, stride 2, end padding 2: padded 4, floor 2, plain ceil 3, but the third
    # window would start at 4, in the end padding: ceil mode drops it, as PyTorch does.
    got = dmlc.avg_pool(x, 1, strides=2, end_padding=2, include_padding=True, ceil_mode=True)
    np.testing.assert_array_equal(got.reshape(-1), [2, 0])


def test_by_hand_ceil_mode_and_dilation():
    x = np.array([[[1, 2, 3, 4, 5]]], np.float64)
    np.testing.assert_array_equal(dmlc.avg_pool(x, 2, ceil_mode=True).reshape(-1), [1.5, 3.5, 5])
    np.testing.assert_array_equal(dmlc.avg_pool(x, 2, include_padding=True, ceil_mode=True).reshape(-1), [1.5, 3.5, 5])
    np.testing.assert_array_equal(dmlc.avg_pool(x, 2, strides=1, dilations=3).reshape(-1), [2.5, 3.5])


# ---- every float dtype, 1 to 3 spatial axes -----------------------------------------------------------

CONFIGS_2D = [
    # window, strides, start, end, dilations, ceil
    ((2, 2), None, 0, 0, 1, False),
    ((3, 3), 2, 1, 1, 1, False),
    ((3, 3), 2, 1, 1, 1, True),
    ((3, 3), 1, 1, 1, 1, False),
    ((2, 3), (1, 2), (1, 0), (0, 2), (2, 1), False),
    ((3, 2), (2, 3), (0, 1), (2, 0), (1, 2), True),
    ((1, 1), 1, 0, 0, 1, False),
    ((4, 4), 3, 2, 3, 1, True),
    ((5, 1), (1, 1), 0, 0, (1, 1), False),
    ((2, 2), 3, 4, 4, 1, True),  # windows of padding only
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("config", CONFIGS_2D, ids=str)
@pytest.mark.parametrize("include_padding", [False, True])
def test_2d_every_dtype(rng, dtype, config, include_padding):
    window, strides, start, end, dil, ceil = config
    x = random_array(rng, (2, 3, 9, 13), dtype)
    check(x, window, strides, start, end, dil, include_padding, ceil)


@pytest.mark.parametrize("dtype", FLOATS)
def test_1d_every_dtype(rng, dtype):
    x = random_array(rng, (3, 2, 37), dtype)
    check(x, 3, 2, 1, 0)
    check(x, 2, None, 0, 1, 3, True, True)
    check(x, 5, 1, 4, 4, include_padding=True)


@pytest.mark.parametrize("dtype", FLOATS)
def test_3d_every_dtype(rng, dtype):
    x = random_array(rng, (1, 2, 5, 6, 7), dtype)
    check(x, 2)
    check(x, (3, 3, 3), 2, 1, 1, 1, True, True)
    check(x, (2, 3, 2), (1, 2, 2), (1, 0, 1), (0, 2, 1), (2, 1, 1))


# ---- the vector path and its edges; the same bits from every path ----------------------------------

FAST = [(2, 2, 0, 0), (3, 2, 1, 1), (2, 2, 1, 0), (4, 2, 2, 1), (1, 2, 0, 0), (3, 1, 1, 1), (2, 1, 0, 0), (5, 1, 2, 2)]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fast", FAST, ids=str)
def test_vector_windows_every_width(rng, dtype, fast):
    """Row widths from 1 to past two groups of 8 outputs: every edge of the vector path
    meets the reference, and each output equals the one computed from a wider row (a
    window's bits do not depend on where its output falls in a group or a tile)."""
    k, s, a, b = fast
    wide = random_array(rng, (2, 2, 5, 130), dtype)
    full = {inc: dmlc.avg_pool(wide, k, strides=s, start_padding=a, end_padding=b, include_padding=inc)
            for inc in (False, True)}
    for width in list(range(1, 42)) + [63, 64, 65, 111, 112, 113]:
        x = wide[..., :width]
        if k > width + a + b:
            continue
        for inc in (False, True):
            got = check(x, k, s, a, b, include_padding=inc)
            check(x, k, s, a, b, include_padding=inc, ceil_mode=True)
            # Outputs whose window ends inside the narrow row cover the same elements in
            # both rows: the same bits, whichever group or edge path computed them.
            inner = [o for o in range(got.shape[3]) if o * s - a + k <= width]
            assert_same_bits(got[..., inner], full[inc][..., inner])


def test_a_row_wider_than_one_tile(rng):
    """Rows of several thousand outputs are done in tiles: no seam at the tile edges."""
    x = random_array(rng, (1, 2, 3, 9001), np.float32)
    got = check(x, (3, 3), (1, 2), 1, 1)
    for cut in (4000, 4100, 4101, 8000):
        part = dmlc.avg_pool(x[..., :cut], (3, 3), strides=(1, 2), start_padding=1, end_padding=1)
        assert_same_bits(part[..., :-1], got[..., :part.shape[3] - 1])
    wide = random_array(rng, (1, 1, 2, 5000), np.float64)
    check(wide, (1, 2500), (1, 7), 0, 3, include_padding=True)  # a window wider than a tile


@pytest.mark.parametrize("dtype", FLOATS)
def test_layout_does_not_change_the_bits(rng, dtype):
    """A strided or broadcast input and a strided output take other kernels: same bits."""
    base = random_array(rng, (3, 4, 20, 50), dtype)
    for k, s, p in [(2, 2, 0), (3, 2, 1), (3, 1, 1)]:
        kw = dict(strides=s, start_padding=p, end_padding=p)
        want = dmlc.avg_pool(np.ascontiguousarray(base[..., ::2]), k, **kw)
        assert_same_bits(dmlc.avg_pool(base[..., ::2], k, **kw), want)
        t = np.ascontiguousarray(base.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2)  # columns strided
        assert_same_bits(dmlc.avg_pool(t, k, **kw), dmlc.avg_pool(base, k, **kw))
        out = np.zeros(want.shape[:2] + want.shape[:1:-1], dtype).transpose(0, 1, 3, 2)
        dmlc.avg_pool(np.ascontiguousarray(base[..., ::2]), k, out=out, **kw)
        assert_same_bits(out, want)
        bc = np.broadcast_to(base[:, :, :1], base.shape)
        assert_same_bits(dmlc.avg_pool(bc, k, **kw), dmlc.avg_pool(np.ascontiguousarray(bc), k, **kw))


PORTABLE_CASES = """
import numpy as np, dmlc, sys
rng = np.random.default_rng(7)
out = []
for dtype in (np.float32, np.float16, np.float64):
    x = (rng.standard_normal((2, 3, 19, 45)) * 100).astype(dtype)
    x.reshape(-1)[::37] = -0.0
    for k, s, p, inc in [(2, 2, 0, 0), (3, 2, 1, 0), (3, 2, 1, 1), (3, 1, 1, 0), (4, 2, 2, 1)]:
        out.append(dmlc.avg_pool(x, k, strides=s, start_padding=p, end_padding=p, include_padding=bool(inc)))
        out.append(dmlc.avg_pool(x[..., ::2], k, strides=s, start_padding=p, end_padding=p, ceil_mode=True))
np.savez(sys.argv[1], *out)
"""


def test_portable_kernels_give_the_same_bits(tmp_path):
    """DMLC_CPU_FEATURES=generic runs the portable kernels only (docs/threads.rst, DMLC_CPU_FEATURES): every result is
    bit for bit what the default (vector) kernels give."""
    assert_portable_kernels_agree(tmp_path, PORTABLE_CASES, 30)


# ---- special values and accuracy --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_special_values(rng, dtype):
    """NaN anywhere in a window gives NaN, inf and -inf together NaN, inf alone inf."""
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5], dtype)
    for trial in range(30):
        x = rng.choice(values, size=(1, 2, int(rng.integers(1, 6)), int(rng.integers(1, 40))))
        for k, s, a, b in [(2, 2, 0, 0), (3, 2, 1, 1), (2, 1, 1, 1)]:
            if k > x.shape[2] + a + b or k > x.shape[3] + a + b:
                continue
            check(x, k, s, a, b)
            check(x, k, s, a, b, include_padding=True)


@pytest.mark.parametrize("dtype", FLOATS)
def test_negative_zero_averages_to_positive_zero(dtype):
    """Sums start from +0, so a window of -0 averages to +0 on every path (and a padded
    column, a +0 in the column sums, changes nothing)."""
    x = np.full((1, 1, 3, 40), -0.0, dtype)
    got = dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1)
    assert np.all(got == 0) and not np.any(np.signbit(got))


def test_float16_sums_in_float32():
    """Sixteen 60000s sum past float16's range (65504); in float32 they do not."""
    x = np.full((1, 1, 4, 36), 60000, np.float16)
    got = dmlc.avg_pool(x, 4)
    assert got.dtype == np.float16 and np.all(got == 60000)
    # 4100 ones: in float16 a running sum stops at 2048 (2048 + 1 rounds back to 2048).
    x = np.ones((1, 1, 1, 4100), np.float16)
    np.testing.assert_array_equal(dmlc.avg_pool(x, (1, 4100)), [[[[1]]]])


def test_long_windows_stay_within_the_bound(rng):
    x = (rng.standard_normal((1, 2, 5000)) * 10.0 ** rng.integers(-3, 4, (1, 2, 5000))).astype(np.float32)
    check(x, 1000, 7, 3, 500)
    check(x, 1000, 7, 3, 500, include_padding=True)
    check(x.astype(np.float16), 999, 1000, 0, 0)


# ---- memory: strided views in and out, broadcasts, out= ----------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_strided_inputs(rng, dtype):
    base = random_array(rng, (3, 4, 20, 50), dtype)
    check(base.transpose(1, 0, 2, 3), 2)
    check(base[:, :, 1:, 3:], 3, 2, 1, 1)
    check(base[..., ::3], 2, include_padding=True)
    check(base[:, ::2, ::2, 1::2], 3, 2, 1, 1)
    check(np.broadcast_to(base[:, :, :1], base.shape), 2)
    check(np.broadcast_to(base[..., :1], base.shape), 3, 2, 1, 1)


def test_out_may_be_a_strided_view_and_is_returned(rng):
    x = random_array(rng, (2, 3, 12, 34), np.float32)
    want = dmlc.avg_pool(x, 2)
    big = np.zeros((2, 3, 6, 40), np.float32)
    got = dmlc.avg_pool(x, 2, out=big[:, :, :, 3:20])
    assert np.shares_memory(got, big)
    assert_same_bits(big[:, :, :, 3:20], want)
    assert np.all(big[:, :, :, :3] == 0) and np.all(big[:, :, :, 20:] == 0)
    o = np.empty(want.shape, np.float32)
    assert dmlc.avg_pool(x, 2, out=o) is o


def test_out_overlapping_the_input(rng):
    """out= sharing memory with x: x is read before anything is written (as NumPy ufuncs)."""
    buf = random_array(rng, (1, 1, 8, 8), np.float32)
    want = dmlc.avg_pool(buf.copy(), 2, strides=1, end_padding=(0, 1))
    got = dmlc.avg_pool(buf, 2, strides=1, end_padding=(0, 1), out=buf[:, :, :7, :8])
    assert_same_bits(got, want)


def test_empty_batch_and_channels():
    assert dmlc.avg_pool(np.zeros((0, 3, 8, 8), np.float32), 2).shape == (0, 3, 4, 4)
    assert dmlc.avg_pool(np.zeros((2, 0, 9), np.float16), 3, strides=1).shape == (2, 0, 7)


def test_array_likes_and_threads(rng):
    assert dmlc.avg_pool([[[1.0, 5.0, 2.0, 4.0]]], 2).tolist() == [[[3.0, 3.0]]]
    x = random_array(rng, (4, 32, 64, 64), np.float32)
    want = dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1), want)
    finally:
        dmlc.set_num_threads(0)
        assert dmlc.get_num_threads() == old


# ---- properties ---------------------------------------------------------------------------------------

@st.composite
def pooling_cases(draw):
    sp = draw(st.integers(1, 3))
    spatial = draw(st.lists(st.integers(1, 9), min_size=sp, max_size=sp))
    window = draw(st.lists(st.integers(1, 4), min_size=sp, max_size=sp))
    strides = draw(st.lists(st.integers(1, 3), min_size=sp, max_size=sp))
    dil = draw(st.lists(st.integers(1, 3), min_size=sp, max_size=sp))
    start = draw(st.lists(st.integers(0, 3), min_size=sp, max_size=sp))
    end = draw(st.lists(st.integers(0, 3), min_size=sp, max_size=sp))
    for i in range(sp):  # the dilated window must fit the padded input
        while (window[i] - 1) * dil[i] + 1 > spatial[i] + start[i] + end[i]:
            end[i] += 1
    dtype = draw(st.sampled_from(FLOATS))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    return ((n, c, *spatial), dtype, window, strides, start, end, dil, draw(st.booleans()), draw(st.booleans()),
            draw(st.integers(0, 2 ** 32 - 1)))


@settings(max_examples=200, deadline=None)
@given(pooling_cases())
def test_property_within_the_bound(case):
    shape, dtype, window, strides, start, end, dil, include, ceil, seed = case
    x = random_array(np.random.default_rng(seed), shape, dtype)
    check(x, window, strides, start, end, dil, include, ceil)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 3), st.sampled_from(FLOATS), st.integers(0, 2 ** 32 - 1))
def test_property_one_by_one_window_is_the_identity(sp, dtype, seed):
    rng = np.random.default_rng(seed)
    x = random_array(rng, (2, 3) + tuple(rng.integers(1, 7, sp)), dtype)
    assert_same_bits(dmlc.avg_pool(x, 1), x + dtype(0))  # + 0: -0 becomes +0, as the sums start from +0


# ---- other libraries as oracles -----------------------------------------------------------------------

# PyTorch and ONNX Runtime as oracles: tests/test_pooling_oracles.py.


# ---- argument errors ----------------------------------------------------------------------------------

X4 = np.zeros((1, 2, 6, 6), np.float32)
A = "DML_OPERATOR_AVERAGE_POOLING1: "

ERRORS = [
    (dict(x=np.zeros((2, 6))), ValueError, "avg_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 2"),
    (dict(x=np.zeros((1,) * 6), window_size=1), ValueError,
     "avg_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 6"),
    (dict(x=np.zeros((1, 2, 6, 6), np.int32)), TypeError,
     "avg_pool: x has dtype int32; average pooling takes float16, float32 or float64"),
    (dict(x=np.zeros((1, 2, 6, 6), np.uint8)), TypeError, "avg_pool: x has dtype uint8; average pooling takes"),
    (dict(x=np.zeros((1, 2, 6, 6), np.complex64)), TypeError, "x has dtype complex64, which dmlc does not support"),
    (dict(window_size=0), ValueError, "avg_pool: window_size is 0, expected 1 to 4294967295"),
    (dict(window_size=(2, 2, 2)), ValueError, "avg_pool: window_size has 3 values, expected 2 (one per spatial axis of x)"),
    (dict(window_size=2.0), TypeError, "avg_pool: window_size must be an int or a sequence of ints, not float"),
    (dict(window_size=True), TypeError, "avg_pool: window_size must be an int, not bool"),
    (dict(strides=0), ValueError, "avg_pool: strides is 0, expected 1 to 4294967295"),
    (dict(strides=(1, -1)), ValueError, "avg_pool: strides[1] is -1, expected 1 to 4294967295"),
    (dict(dilations=0), ValueError, "avg_pool: dilations is 0, expected 1 to 4294967295"),
    (dict(start_padding=-1), ValueError, "avg_pool: start_padding is -1, expected 0 to 4294967295"),
    (dict(end_padding=(1,)), ValueError, "avg_pool: end_padding has 1 values, expected 2 (one per spatial axis of x)"),
    (dict(end_padding=[1, None]), TypeError, "avg_pool: end_padding[1] must be an int, not NoneType"),
    (dict(window_size=7), ValueError,
     A + "the dilated window (WindowSize[0] 7 - 1) * Dilations[0] 1 + 1 = 7 is larger than the padded input "
         "InputTensor.Sizes[2] 6 + StartPadding[0] 0 + EndPadding[0] 0 = 6"),
    (dict(window_size=3, dilations=(1, 3)), ValueError,
     A + "the dilated window (WindowSize[1] 3 - 1) * Dilations[1] 3 + 1 = 7 is larger than the padded input "
         "InputTensor.Sizes[3] 6 + StartPadding[1] 0 + EndPadding[1] 0 = 6"),
    (dict(x=np.zeros((1, 1, 0, 4), np.float32), window_size=1), ValueError,
     "avg_pool: x.shape[2] is 0; a spatial axis must not be empty"),
    (dict(out=np.zeros((1, 2, 3, 4), np.float32)), ValueError, "out has shape (1, 2, 3, 4), expected (1, 2, 3, 3)"),
    (dict(out=np.zeros((1, 2, 3, 3), np.float64)), TypeError, "out has dtype float64, expected float32"),
    (dict(out=[0]), TypeError, "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, "
                               "the array interface or the buffer protocol), not list"),
]


@pytest.mark.parametrize("kwargs,exc,msg", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_argument_errors(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", X4)
    window = kwargs.pop("window_size", 2)
    with pytest.raises(exc) as info:
        dmlc.avg_pool(x, window, **kwargs)
    assert str(info.value).startswith(msg), str(info.value)


def test_ceil_mode_output_shape():
    x = np.zeros((1, 1, 7, 8), np.float32)
    assert dmlc.avg_pool(x, 2).shape == (1, 1, 3, 4)
    assert dmlc.avg_pool(x, 2, ceil_mode=True).shape == (1, 1, 4, 4)
