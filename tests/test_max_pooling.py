"""dmlc.max_pool (DirectML MAX_POOLING2) against plain NumPy references, PyTorch and ONNX
Runtime: every dtype, 1 to 3 spatial axes, strides, dilations, unequal padding, ceil mode,
indices, NaN/inf/signed-zero/tie rules, strided views and argument errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import lowest, ref_loop, ref_max_pool
from support import ALL_DTYPES, assert_same_bits, random_array


def per_axis(v, sp):
    return [v] * sp if np.isscalar(v) else list(v)


def check(x, window, strides=None, start=0, end=0, dilations=1, ceil_mode=False, indices_dtype="uint64"):
    """dmlc.max_pool with and without indices against ref_max_pool, bit for bit."""
    sp = x.ndim - 2
    w = per_axis(window, sp)
    s = w if strides is None else per_axis(strides, sp)
    a, b, d = per_axis(start, sp), per_axis(end, sp), per_axis(dilations, sp)
    want_v, want_i = ref_max_pool(x, w, s, a, b, d, ceil_mode)
    kw = dict(strides=strides, start_padding=start, end_padding=end, dilations=dilations, ceil_mode=ceil_mode)
    v, i = dmlc.max_pool(x, window, return_indices=True, indices_dtype=indices_dtype, **kw)
    assert_same_bits(v, want_v)
    assert i.dtype == np.dtype(indices_dtype)
    np.testing.assert_array_equal(i, want_i.astype(indices_dtype))
    assert_same_bits(dmlc.max_pool(x, window, **kw), want_v)
    return v, i


# ---- the reference itself, and worked cases by hand ---------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_reference_agrees_with_the_rule_written_out(rng, dtype):
    for trial in range(30):
        sp = 1 + trial % 3
        x = random_array(rng, (2, 2) + tuple(rng.integers(1, 6, sp)), dtype)
        if dtype == np.float32:
            x[rng.random(x.shape) < 0.1] = np.nan
            x[rng.random(x.shape) < 0.1] = -0.0
        else:
            x %= 3  # many ties
        w = list(rng.integers(1, 4, sp))
        s, d = list(rng.integers(1, 4, sp)), list(rng.integers(1, 3, sp))
        a, b = list(rng.integers(0, 3, sp)), list(rng.integers(0, 3, sp))
        if any((wi - 1) * di + 1 > n + ai + bi for wi, di, n, ai, bi in zip(w, d, x.shape[2:], a, b)):
            continue
        ceil = bool(trial % 2)
        rv, ri = ref_max_pool(x, w, s, a, b, d, ceil)
        lv, li = ref_loop(x, w, s, a, b, d, ceil)
        assert_same_bits(rv, lv)
        np.testing.assert_array_equal(ri, li)


def test_by_hand_2x2_stride_2():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    np.testing.assert_array_equal(v, [[[[5, 7], [13, 15]]]])
    np.testing.assert_array_equal(i, [[[[5, 7], [13, 15]]]])
    assert i.dtype == np.uint32


def test_by_hand_indices_count_batch_and_channel():
    """The index is into the whole logical input: plane (n, c) starts at (n*C + c)*H*W."""
    x = np.zeros((2, 3, 2, 2), np.int16)
    x[1, 2, 1, 0] = 7
    x[0, 1, 0, 1] = 3
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    assert v[1, 2, 0, 0] == 7 and i[1, 2, 0, 0] == (1 * 3 + 2) * 4 + 2
    assert v[0, 1, 0, 0] == 3 and i[0, 1, 0, 0] == (0 * 3 + 1) * 4 + 1
    assert i[1, 0, 0, 0] == (1 * 3 + 0) * 4  # all zeros: the first element


def test_by_hand_3x3_stride_2_pad_1():
    x = np.array([[1, 9, 2, 0],
                  [3, 4, 8, 5],
                  [7, 6, 1, 2]], np.float32).reshape(1, 1, 3, 4)
    v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    np.testing.assert_array_equal(v[0, 0], [[9, 9], [7, 8]])
    np.testing.assert_array_equal(i[0, 0], [[1, 1], [8, 6]])


# ---- every dtype, 1 to 3 spatial axes -----------------------------------------------------------

CONFIGS_2D = [
    # window, strides, start, end, dilations, ceil
    ((2, 2), None, 0, 0, 1, False),
    ((3, 3), 2, 1, 1, 1, False),
    ((3, 3), 2, 1, 1, 1, True),
    ((2, 3), (1, 2), (1, 0), (0, 2), (2, 1), False),
    ((3, 2), (2, 3), (0, 1), (2, 0), (1, 2), True),
    ((1, 1), 1, 0, 0, 1, False),
    ((4, 4), 3, 2, 3, 1, True),
    ((5, 1), (1, 1), 0, 0, (1, 1), False),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("config", CONFIGS_2D, ids=str)
def test_2d_every_dtype(rng, dtype, config):
    window, strides, start, end, dil, ceil = config
    x = random_array(rng, (2, 3, 9, 13), dtype)
    check(x, window, strides, start, end, dil, ceil)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_1d_every_dtype(rng, dtype):
    x = random_array(rng, (3, 2, 37), dtype)
    check(x, 3, 2, 1, 0)
    check(x, 2, None, 0, 1, 3, True)
    check(x, 5, 1, 4, 4, indices_dtype="uint32")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_3d_every_dtype(rng, dtype):
    x = random_array(rng, (1, 2, 5, 6, 7), dtype)
    check(x, 2)
    check(x, (3, 3, 3), 2, 1, 1, 1, True)
    check(x, (2, 3, 2), (1, 2, 2), (1, 0, 1), (0, 2, 1), (2, 1, 1), indices_dtype="uint32")


# ---- the vectorised windows (2x2/2, 3x3/2 pad 1, ...) at every row width ---------------------

FAST = [(2, 2, 0, 0), (3, 2, 1, 1), (2, 2, 1, 0), (4, 2, 2, 1), (1, 2, 0, 0), (3, 2, 0, 2), (4, 2, 3, 3)]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fast", FAST, ids=str)
def test_vector_windows_every_width(rng, dtype, fast):
    """Row widths from 1 to past two 8-output groups, so every edge case of the vector
    path (partial groups, padded first and last groups) meets the reference."""
    k, s, a, b = fast
    for width in list(range(1, 42)) + [63, 64, 65, 111, 112, 113]:
        x = random_array(rng, (2, 2, 5, width), dtype)
        if (k - 1) + 1 > width + a + b:
            continue
        check(x, k, s, a, b, indices_dtype="uint32" if width % 2 else "uint64")
        check(x, k, s, a, b, ceil_mode=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_vector_path_tiles_bands_and_shared_rows(rng, dtype):
    """The vector path reduces each input row across the window first and keeps a band of
    such rows per column tile (256 outputs): rows wider than a tile, planes taller than a
    band, rows shared by two output rows (3x3/2), dilated and 3-D windows all meet the
    reference, with NaNs on tile and band boundaries and in shared rows."""
    for shape in [(1, 2, 9, 530), (1, 1, 301, 224), (2, 1, 40, 97)]:
        x = random_array(rng, shape, dtype)
        for k, s, a, b in [(2, 2, 0, 0), (3, 2, 1, 1), (3, 2, 0, 2), (4, 2, 3, 3)]:
            check(x, k, s, a, b, indices_dtype="uint32")
        check(x, (3, 3), 2, 1, 1, dilations=(2, 1))
        check(x, (5, 2), 2, (2, 0), (2, 1), ceil_mode=True, dilations=(3, 1))
        y = x.copy()
        y[0, 0, 5, 255:258] = np.nan      # the columns at the first tile boundary of a wide row
        y[0, 0, min(35, shape[2] - 1), 7] = np.nan    # a row two bands may read, and shared by two output rows
        y[-1, -1, -1, -1] = np.nan
        check(y, 3, 2, 1, 1)
        check(y, 2, 2, 0, 0, indices_dtype="uint32")
    x3 = random_array(rng, (1, 2, 5, 7, 40), dtype)
    check(x3, (2, 2, 2), 2)
    check(x3, (3, 3, 3), 2, 1, 1, ceil_mode=True)
    x3[0, 1, 2, 3, 17] = np.nan
    check(x3, (3, 2, 3), (1, 2, 2), (1, 0, 1), (1, 1, 1), dilations=(2, 1, 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_vector_path_left_edge_ties(dtype):
    """3x3/2 pad 1 takes its first output (window columns -1 .. 1) in the vector group
    too: its padded column must neither win a tie nor hide a real -inf."""
    x = np.zeros((1, 1, 3, 40), dtype)
    x[0, 0, 0, 1] = -0.0
    v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    assert i[0, 0, 0, 0] == 0 and not np.signbit(v[0, 0, 0, 0])
    x[0, 0, :, :2] = -np.inf
    v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    assert v[0, 0, 0, 0] == -np.inf and i[0, 0, 0, 0] == 0
    check(x, 3, 2, 1, 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fast", [(2, 2, 0, 0), (3, 2, 1, 1)], ids=str)
def test_nan_at_every_position(dtype, fast):
    """A NaN anywhere in a row: the vector path hands its group to the exact kernel."""
    k, s, a, b = fast
    base = np.arange(4 * 40, dtype=np.float32).reshape(1, 1, 4, 40).astype(dtype)
    for pos in range(base.size):
        x = base.copy()
        x.reshape(-1)[pos] = np.nan
        check(x, k, s, a, b)


def test_first_nan_wins_by_its_bits():
    x = np.zeros((1, 1, 2, 20), np.float32)
    bits = x.view(np.uint32)
    bits[0, 0, 0, 5] = 0x7FC00001
    bits[0, 0, 1, 4] = 0xFFC00002   # later in window order than (0, 5): row 1 comes after row 0
    bits[0, 0, 0, 9] = 0x7FC00003
    bits[0, 0, 0, 8] = 0x7F800004   # a signalling NaN payload, earlier than (0, 9)
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    assert v.view(np.uint32)[0, 0, 0, 2] == 0x7FC00001 and i[0, 0, 0, 2] == 5
    assert v.view(np.uint32)[0, 0, 0, 4] == 0x7F800004 and i[0, 0, 0, 4] == 8
    check(x, 2)
    check(x, 3, 2, 1, 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_special_values(rng, dtype):
    """NaN, +-inf and signed zeros in every mix: the first NaN, then the first of equal
    values in window order (its sign bit included)."""
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0], dtype)
    for trial in range(40):
        x = rng.choice(values, size=(1, 2, int(rng.integers(1, 6)), int(rng.integers(1, 40))))
        for k, s, a, b in [(2, 2, 0, 0), (3, 2, 1, 1), (2, 2, 1, 1), (3, 1, 2, 0)]:
            if k > x.shape[2] + a + b or k > x.shape[3] + a + b:
                continue
            check(x, k, s, a, b, indices_dtype="uint32")


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_signed_zero_ties_keep_the_first(dtype):
    x = np.array([[-0.0, 0.0, 0.0, -0.0], [0.0, 0.0, -0.0, -0.0]], dtype).reshape(1, 1, 2, 4)
    v, i = dmlc.max_pool(np.tile(x, (1, 1, 1, 8)), 2, return_indices=True)
    assert np.signbit(v[0, 0, 0, 0]) and i[0, 0, 0, 0] == 0
    assert not np.signbit(v[0, 0, 0, 1]) and i[0, 0, 0, 1] == 2


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape", [(2, 3, 4, 32), (1, 2, 5, 33), (1, 1, 2, 16)], ids=str)
def test_signed_zero_ties_without_indices(dtype, shape):
    """Every pattern of +0 and -0 in a 2x2 window (and some -1s), in rows long enough for
    the vector kernels, without indices: the value's sign bit is the first zero's, in
    row-major window order, on every path (odd sizes leave a column and a row out)."""
    n, c, h, w = shape
    patterns = np.array([[(p >> b) & 1 for b in range(4)] for p in range(16)])
    signs = np.resize(patterns, (n * c * (h // 2) * (w // 2), 4)).reshape(n, c, h // 2, w // 2, 2, 2)
    x = np.where(signs, -0.0, 0.0).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, h // 2 * 2, w // 2 * 2)
    x = np.pad(x, [(0, 0), (0, 0), (0, h % 2), (0, w % 2)], constant_values=-1.0).astype(dtype)
    x[..., ::3, 1::5] = -1  # a few windows whose first zero comes later
    check(x, 2)
    check(x, 2, ceil_mode=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_minus_infinity_is_a_value_not_padding(dtype):
    """A window of -inf (next to padding, which the vector path fills with -inf) gives the
    index of the first real element, not all ones."""
    x = np.full((1, 1, 3, 21), -np.inf, dtype)
    v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    assert np.all(v == -np.inf)
    assert i[0, 0, 0, 0] == 0 and i[0, 0, 1, 0] == 21 and i[0, 0, 0, 10] == 19
    check(x, 3, 2, 1, 1)
    check(x, 2, 2, 1, 1)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_integer_extremes(rng, dtype):
    info = np.iinfo(dtype)
    x = rng.choice(np.array([info.min, info.max, info.min + 1, info.max - 1, 0], dtype), size=(2, 2, 7, 9))
    check(x, 2)
    check(x, 3, 2, 1, 1)
    # All minimum: the first element, never the empty-window marker.
    v, i = dmlc.max_pool(np.full((1, 1, 4, 4), info.min, dtype), 2, return_indices=True)
    assert np.all(v == info.min)
    np.testing.assert_array_equal(i[0, 0], [[0, 2], [8, 10]])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("indices_dtype", ["uint32", "uint64"])
def test_windows_of_padding_only(dtype, indices_dtype):
    """Padding wider than the window: windows with no element give the lowest value and an
    index of all ones."""
    x = np.ones((1, 1, 2, 2), dtype)
    v, i = dmlc.max_pool(x, 2, strides=2, start_padding=4, end_padding=4, return_indices=True,
                         indices_dtype=indices_dtype)
    assert v.shape == (1, 1, 5, 5)
    all_ones = np.iinfo(indices_dtype).max
    assert_same_bits(v[0, 0, 0, 0], lowest(dtype))
    assert i[0, 0, 0, 0] == all_ones
    assert v[0, 0, 2, 2] == 1 and i[0, 0, 2, 2] == 0
    assert (i == all_ones).sum() == 24
    check(x, 2, 2, 4, 4, indices_dtype=indices_dtype)


def test_all_equal_windows_take_the_first(rng):
    for dtype in ALL_DTYPES:
        x = np.full((1, 2, 6, 10), 3, dtype)
        v, i = check(x, 3, 2, 1, 1)
        # The first in-bounds element of each window, in row-major window order.
        assert i[0, 0, 1, 1] == 1 * 10 + 1 and i[0, 1, 0, 0] == 60


# ---- memory: strided views in and out, broadcasts, out= -----------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8])
def test_strided_inputs(rng, dtype):
    base = random_array(rng, (3, 4, 20, 50), dtype)
    check(base.transpose(1, 0, 2, 3), 2)
    check(base[:, :, 1:, 3:], 3, 2, 1, 1)
    check(base[..., ::3], 2)
    check(base[:, ::2, ::2, 1::2], 3, 2, 1, 1, indices_dtype="uint32")
    check(np.broadcast_to(base[:, :, :1], base.shape), 2)
    check(np.broadcast_to(base[:, :1], base.shape), 3, 2, 1, 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16])
def test_planes_stacked_or_kept_apart(rng, dtype):
    """The core runs the N*C planes as one tall plane when no window leaves its plane and
    the planes follow each other row after row (input, output and indices); the layouts
    around that rule, on both sides of it, against the reference."""
    x = random_array(rng, (2, 3, 8, 16), dtype)
    check(x, 2)                                   # stacked
    check(x, 2, indices_dtype="uint32")
    check(x, [2, 1], [2, 1])                      # one column per window
    check(x, 2, [4, 2], dilations=[2, 1])         # dilated rows, still inside the plane
    check(x, 3, 2)                                # OH*s = 6 < H: the last rows belong to no window
    check(x, 2, 2, 1, 1)                          # padding before: kept apart
    check(x, 2, 2, 0, 1, ceil_mode=True)          # padding after only: stacked
    check(random_array(rng, (2, 3, 9, 16), dtype), 2, ceil_mode=True)  # a window would cross planes
    check(random_array(rng, (2, 3, 9, 16), dtype), 3)                  # OH*s = H = 9
    wide = random_array(rng, (2, 5, 8, 16), dtype)
    check(wide[:, 1:4], 2)                        # N's stride is 5 planes: kept apart
    check(wide[:1, 1:4], 2)                       # one batch: stacked
    check(wide[:, ::2], 2)                        # every other channel
    check(random_array(rng, (2, 3, 16), dtype), 2)                     # 1-D: planes of one row
    check(random_array(rng, (2, 3, 1, 16), dtype), [1, 2])
    check(random_array(rng, (6, 1, 8, 16), dtype), 2)                  # C = 1
    check(random_array(rng, (2, 3, 4, 4, 8), dtype), 2)                # 3-D: kept apart
    if np.dtype(dtype).kind == "f":
        y = x.copy()
        y[1, 2, 7, 15] = y[0, 1, 0, 0] = np.nan   # the last and first elements of planes
        check(y, 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_out_views_with_gaps_between_planes(rng, dtype):
    x = random_array(rng, (2, 3, 8, 16), dtype)
    want_v, want_i = ref_max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1])
    for rows in (4, 5):  # 5: a gap row after each plane, so the planes cannot be stacked
        big_v = np.zeros((2, 3, rows, 8), dtype)
        big_i = np.zeros((2, 3, rows, 8), np.uint32)
        dmlc.max_pool(x, 2, return_indices=True, out=(big_v[:, :, :4], big_i[:, :, :4]))
        assert_same_bits(big_v[:, :, :4], want_v)
        np.testing.assert_array_equal(big_i[:, :, :4], want_i)
        assert np.all(big_v[:, :, 4:] == 0) and np.all(big_i[:, :, 4:] == 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_out_may_be_strided_views(rng, dtype):
    x = random_array(rng, (2, 3, 12, 34), dtype)
    want_v, want_i = ref_max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1])
    big_v = np.zeros((2, 3, 6, 40), dtype)
    big_i = np.zeros((2, 3, 6, 17, 2), np.uint64)
    v, i = dmlc.max_pool(x, 2, return_indices=True, indices_dtype="uint64",
                         out=(big_v[:, :, :, 3:20], big_i[..., 1]))
    assert v.base is not None and np.shares_memory(v, big_v) and np.shares_memory(i, big_i)
    assert_same_bits(big_v[:, :, :, 3:20], want_v)
    np.testing.assert_array_equal(big_i[..., 1], want_i)
    assert np.all(big_v[:, :, :, :3] == 0) and np.all(big_v[:, :, :, 20:] == 0) and np.all(big_i[..., 0] == 0)


def test_out_returns_the_given_arrays(rng):
    x = random_array(rng, (1, 2, 8, 8), np.float32)
    o = np.empty((1, 2, 4, 4), np.float32)
    oi = np.empty((1, 2, 4, 4), np.uint32)
    assert dmlc.max_pool(x, 2, out=o) is o
    v, i = dmlc.max_pool(x, 2, return_indices=True, out=(o, oi))
    assert v is o and i is oi
    v, i = dmlc.max_pool(x, 2, return_indices=True, out=(None, oi))
    assert i is oi and v is not o


def test_out_overlapping_the_input(rng):
    """out= sharing memory with x: x is read before anything is written (as NumPy ufuncs)."""
    buf = random_array(rng, (1, 1, 8, 8), np.float32)
    want = ref_max_pool(buf.copy(), [2, 2], [1, 1], [0, 0], [1, 1], [1, 1])[0]
    got = dmlc.max_pool(buf, 2, strides=1, end_padding=(0, 1), out=buf[:, :, :7, :8])
    assert_same_bits(got, want[:, :, :7])


def test_empty_batch_and_channels():
    v, i = dmlc.max_pool(np.zeros((0, 3, 8, 8), np.float32), 2, return_indices=True)
    assert v.shape == (0, 3, 4, 4) and i.shape == (0, 3, 4, 4) and i.dtype == np.uint32
    assert dmlc.max_pool(np.zeros((2, 0, 9), np.int8), 3, strides=1).shape == (2, 0, 7)


def test_array_likes_and_threads(rng):
    assert dmlc.max_pool([[[1, 5, 2, 4]]], 2).tolist() == [[[5, 4]]]
    x = random_array(rng, (4, 32, 64, 64), np.float32)
    want = ref_max_pool(x, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1])
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True,
                                 indices_dtype="uint64")
            assert_same_bits(v, want[0])
            np.testing.assert_array_equal(i, want[1])
    finally:
        dmlc.set_num_threads(0)
        assert dmlc.get_num_threads() == old


# ---- properties -----------------------------------------------------------------------------------

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
    dtype = draw(st.sampled_from([np.float32, np.float16, np.int8, np.uint16, np.int64, np.float64]))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    return (n, c, *spatial), dtype, window, strides, start, end, dil, draw(st.booleans()), seed


@settings(max_examples=150, deadline=None)
@given(pooling_cases())
def test_property_matches_reference(case):
    shape, dtype, window, strides, start, end, dil, ceil, seed = case
    x = random_array(np.random.default_rng(seed), shape, dtype)
    if np.dtype(dtype).kind == "i":
        x %= 4  # ties everywhere
    check(x, window, strides, start, end, dil, ceil)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 3), st.integers(0, 2 ** 32 - 1))
def test_property_one_by_one_window_is_the_identity(sp, seed):
    rng = np.random.default_rng(seed)
    x = random_array(rng, (2, 3) + tuple(rng.integers(1, 7, sp)), np.float32)
    v, i = dmlc.max_pool(x, 1, return_indices=True)
    assert_same_bits(v, x)
    np.testing.assert_array_equal(i.reshape(-1), np.arange(x.size))


# ---- other libraries as oracles ---------------------------------------------------------------------

# PyTorch and ONNX Runtime as oracles: tests/test_pooling_oracles.py.


# ---- argument errors -------------------------------------------------------------------------

X4 = np.zeros((1, 2, 6, 6), np.float32)

ERRORS = [
    (dict(x=np.zeros((2, 6)), window_size=2), ValueError,
     "max_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 2"),
    (dict(x=np.zeros((1,) * 6), window_size=1), ValueError,
     "max_pool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 6"),
    (dict(window_size=0), ValueError, "max_pool: window_size is 0, expected 1 to 4294967295"),
    (dict(window_size=-2), ValueError, "max_pool: window_size is -2, expected 1 to 4294967295"),
    (dict(window_size=(2, 2, 2)), ValueError, "max_pool: window_size has 3 values, expected 2 (one per spatial axis of x)"),
    (dict(window_size=(2, 0)), ValueError, "max_pool: window_size[1] is 0, expected 1 to 4294967295"),
    (dict(window_size=2 ** 32), ValueError, "max_pool: window_size is 4294967296, expected 1 to 4294967295"),
    (dict(window_size=2.0), TypeError, "max_pool: window_size must be an int or a sequence of ints, not float"),
    (dict(window_size="2"), TypeError, "max_pool: window_size must be an int or a sequence of ints, not str"),
    (dict(window_size=True), TypeError, "max_pool: window_size must be an int, not bool"),
    (dict(window_size=(2, 2.5)), TypeError, "max_pool: window_size[1] must be an int, not float"),
    (dict(window_size=2, strides=0), ValueError, "max_pool: strides is 0, expected 1 to 4294967295"),
    (dict(window_size=2, strides=(1, 0)), ValueError, "max_pool: strides[1] is 0, expected 1 to 4294967295"),
    (dict(window_size=2, dilations=0), ValueError, "max_pool: dilations is 0, expected 1 to 4294967295"),
    (dict(window_size=2, start_padding=-1), ValueError, "max_pool: start_padding is -1, expected 0 to 4294967295"),
    (dict(window_size=2, end_padding=(1,)), ValueError,
     "max_pool: end_padding has 1 values, expected 2 (one per spatial axis of x)"),
    (dict(window_size=2, end_padding=None, start_padding=[1, None]), TypeError,
     "max_pool: start_padding[1] must be an int, not NoneType"),
    (dict(window_size=7), ValueError,
     "DML_OPERATOR_MAX_POOLING2: the dilated window (WindowSize[0] 7 - 1) * Dilations[0] 1 + 1 = 7 is larger "
     "than the padded input InputTensor.Sizes[2] 6 + StartPadding[0] 0 + EndPadding[0] 0 = 6"),
    (dict(window_size=3, dilations=(1, 3)), ValueError,
     "DML_OPERATOR_MAX_POOLING2: the dilated window (WindowSize[1] 3 - 1) * Dilations[1] 3 + 1 = 7 is larger "
     "than the padded input InputTensor.Sizes[3] 6 + StartPadding[1] 0 + EndPadding[1] 0 = 6"),
    (dict(x=np.zeros((1, 1, 0, 4)), window_size=1), ValueError, "max_pool: x.shape[2] is 0; a spatial axis must not be empty"),
    (dict(window_size=2, indices_dtype="int64", return_indices=True), ValueError,
     "max_pool: indices_dtype is int64, expected uint32 or uint64"),
    (dict(window_size=2, indices_dtype=np.float32), ValueError,
     "max_pool: indices_dtype is float32, expected uint32 or uint64"),
    (dict(window_size=2, indices_dtype="bogus"), TypeError, "max_pool: indices_dtype must be 'uint32' or 'uint64', not 'bogus'"),
    (dict(window_size=2, out=np.zeros((1, 2, 3, 4), np.float32)), ValueError,
     "out has shape (1, 2, 3, 4), expected (1, 2, 3, 3)"),
    (dict(window_size=2, out=np.zeros((1, 2, 3, 3), np.float64)), TypeError, "out has dtype float64, expected float32"),
    (dict(window_size=2, out=[0]), TypeError,
     "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array interface or the buffer "
     "protocol), not list"),
    (dict(window_size=2, return_indices=True, out=np.zeros((1, 2, 3, 3), np.float32)), TypeError,
     "max_pool: with return_indices, out must be a pair (values, indices) of arrays or None"),
    (dict(window_size=2, return_indices=True, out=(None, np.zeros((1, 2, 3, 3), np.uint64))), TypeError,
     "out indices has dtype uint64, expected uint32"),
    (dict(window_size=2, return_indices=True, out=(None, np.zeros((1, 2, 3, 4), np.uint32))), ValueError,
     "out indices has shape (1, 2, 3, 4), expected (1, 2, 3, 3)"),
    (dict(x=np.zeros((1, 2, 6, 6), np.complex64), window_size=2), TypeError,
     "x has dtype complex64, which dmlc does not support"),
]


@pytest.mark.parametrize("kwargs,exc,msg", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_argument_errors(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", X4)
    window = kwargs.pop("window_size")
    with pytest.raises(exc) as info:
        dmlc.max_pool(x, window, **kwargs)
    assert str(info.value).startswith(msg), str(info.value)


def test_shared_values_and_indices_outputs():
    buf = np.zeros(64, np.uint32)
    with pytest.raises(ValueError, match="max_pool: the values and indices outputs share memory"):
        dmlc.max_pool(np.zeros((1, 1, 4, 4), np.uint32), 2, return_indices=True,
                      out=(buf[:4].reshape(1, 1, 2, 2), buf[2:6].reshape(1, 1, 2, 2)))
    assert np.all(buf == 0)


def test_too_many_elements_for_uint32_indices():
    """A broadcast input of 2**32 logical elements fits in memory (stride 0) but not in
    UINT32 indices: the core refuses it, naming the count."""
    x = np.broadcast_to(np.float32(1), (1, 1, 65536, 65536))
    with pytest.raises(ValueError, match=r"InputTensor has 4294967296 elements, more than UINT32 indices can "
                                         r"address \(at most 4294967295\)"):
        dmlc.max_pool(x, 1, strides=65536, return_indices=True)
    v, i = dmlc.max_pool(x, 1, strides=65536, return_indices=True, indices_dtype="uint64")
    assert v.shape == (1, 1, 1, 1) and v[0, 0, 0, 0] == 1 and i[0, 0, 0, 0] == 0
