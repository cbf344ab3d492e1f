"""dmlc.pad against NumPy's np.pad (>= 2.1, whose reflect/symmetric/wrap continue
periodically past the dimension) and an index-form reference written from docs/operators/padding.rst."""
import math
import re
import threading
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import MODES, np_pad, ref_pad
from support import ALL_DTYPES, random_array

np_pad_periodic = pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.1.0",
                                     reason="np.pad before 2.1 pads wide reflect/wrap borders differently")


# ---- every mode, every dtype, 1 to 8 dimensions -------------------------------------------

@np_pad_periodic
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("mode", MODES)
def test_all_dtypes_modes(rng, dtype, mode):
    x = random_array(rng, (3, 4, 5), dtype)
    start, end = [1, 0, 7], [2, 9, 3]  # wider than the dimension on two axes
    y = dmlc.pad(x, start, end, mode=mode, value=7)
    assert y.dtype == x.dtype and y.shape == (6, 13, 15)
    np.testing.assert_array_equal(y, np_pad(x, start, end, mode, 7))
    np.testing.assert_array_equal(y, ref_pad(x, start, end, mode, 7))


@np_pad_periodic
@pytest.mark.parametrize("ndim", range(1, 9))
@pytest.mark.parametrize("mode", MODES)
def test_random_shapes_1_to_8_dims(rng, ndim, mode):
    for trial in range(6):
        dtype = ALL_DTYPES[(ndim * 7 + trial) % len(ALL_DTYPES)]
        cap = max(2, int(3000 ** (1 / ndim)))  # keep the output small
        shape = tuple(int(v) for v in rng.integers(1, min(cap, 6) + 1, ndim))
        # Pads up to twice the dimension and a bit, zero on some axes.
        start = [int(rng.integers(0, 2 * n + 2)) if rng.random() < 0.7 else 0 for n in shape]
        end = [int(rng.integers(0, 2 * n + 2)) if rng.random() < 0.7 else 0 for n in shape]
        if np.prod([n + s + e for n, s, e in zip(shape, start, end)]) > 200_000:
            start = [min(s, 1) for s in start]
            end = [min(e, 1) for e in end]
        x = random_array(rng, shape, dtype)
        y = dmlc.pad(x, start, end, mode=mode, value=3)
        np.testing.assert_array_equal(y, np_pad(x, start, end, mode, 3), err_msg=f"{shape} {start} {end} {dtype}")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_periodic_folding_1d(mode, n):
    """Pads many times the dimension keep folding (seed examples 3 and 4), n = 1 repeats
    the single value in every mode but constant."""
    x = np.arange(10, 10 + n, dtype=np.int32)
    for s, e in [(0, 4 * n + 1), (4 * n + 3, 0), (3 * n, 5 * n + 2), (1, 1)]:
        y = dmlc.pad(x, [s], [e], mode=mode, value=-1)
        np.testing.assert_array_equal(y, ref_pad(x, [s], [e], mode, -1), err_msg=f"{s} {e}")
        if mode != "constant":
            assert set(y.tolist()) <= set(x.tolist())


def test_known_rows():
    """Hand-written rows for n = 4, start 5, end 6."""
    x = np.array([0, 1, 2, 3], np.int8)
    want = {
        "constant": [9] * 5 + [0, 1, 2, 3] + [9] * 6,
        "edge": [0] * 5 + [0, 1, 2, 3] + [3] * 6,
        "reflection": [1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3],
        "symmetric": [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0, 1],
        "wrap": [3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1],
    }
    for mode, row in want.items():
        assert dmlc.pad(x, 5, 6, mode=mode, value=9).tolist() == row, mode


@pytest.mark.parametrize("mode", MODES[1:])
def test_size_one_dimensions(mode):
    x = np.array([[[5.5]], [[6.5]]], np.float16)  # (2, 1, 1)
    y = dmlc.pad(x, [0, 3, 2], [1, 4, 0], mode=mode)
    assert y.shape == (3, 8, 3)
    np.testing.assert_array_equal(y[0], np.full((8, 3), 5.5, np.float16))
    np.testing.assert_array_equal(y[1], np.full((8, 3), 6.5, np.float16))
    np.testing.assert_array_equal(y, ref_pad(x, [0, 3, 2], [1, 4, 0], mode))


@pytest.mark.parametrize("mode", MODES)
def test_no_padding_is_a_copy(rng, mode):
    x = random_array(rng, (3, 1, 4, 5), np.uint16)
    y = dmlc.pad(x, 0, 0, mode=mode)
    np.testing.assert_array_equal(y, x)
    assert not np.shares_memory(x, y)


# ---- strides, out=, memory -------------------------------------------------------------------

def strided_views(rng, dtype):
    base = random_array(rng, (4, 9, 10, 12), dtype)
    return {
        "every other row": base[:, :, ::2, :],
        "every other column": base[:, :, :, ::3],
        "slice": base[1:3, 2:7, 1:9, 3:],
        "transposed": base.transpose(3, 1, 0, 2),
        "broadcast batch": np.broadcast_to(base[:1], (3, 9, 10, 12)),
        "broadcast width": np.broadcast_to(base[:, :, :, :1], (4, 9, 10, 5)),
        "negative strides": base[:, ::-1, :, ::-2],
    }


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64, np.int16])
@pytest.mark.parametrize("mode", MODES)
def test_strided_inputs(rng, dtype, mode):
    start, end = [1, 0, 3, 2], [0, 2, 1, 13]
    for name, x in strided_views(rng, dtype).items():
        np.testing.assert_array_equal(dmlc.pad(x, start, end, mode=mode, value=1), ref_pad(x, start, end, mode, 1),
                                      err_msg=name)


def test_strided_input_is_not_copied(rng, monkeypatch):
    x = random_array(rng, (3, 10, 12), np.float32)[:, ::2, 1::3]
    calls = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: calls.append(a) or real(*a, **k))
    y = dmlc.pad(x, [1, 2, 3], [3, 2, 1], mode="symmetric")
    assert calls == []
    monkeypatch.setattr(np, "ascontiguousarray", real)
    np.testing.assert_array_equal(y, ref_pad(x, [1, 2, 3], [3, 2, 1], "symmetric"))


@pytest.mark.parametrize("mode", MODES)
def test_out_into_strided_view(rng, mode):
    x = random_array(rng, (2, 5, 6), np.int32)
    big = np.full((3, 12, 40), -1, np.int32)
    view = big[1:, 2:11, ::3][:, :, :11]  # (2, 9, 11)
    r = dmlc.pad(x, [0, 1, 2], [0, 3, 3], mode=mode, value=8, out=view)
    assert r is view
    np.testing.assert_array_equal(view, ref_pad(x, [0, 1, 2], [0, 3, 3], mode, 8))
    untouched = big.copy()
    untouched[1:, 2:11, ::3][:, :, :11] = -1
    assert np.all(untouched == -1), "wrote outside the out= view"


def test_out_negative_strides_and_non_native(rng):
    x = random_array(rng, (3, 4), np.float64)
    out = np.zeros((5, 9), np.float64)[::-1, ::-1]
    assert dmlc.pad(x, [1, 2], [1, 3], mode="wrap", out=out) is out
    np.testing.assert_array_equal(out, ref_pad(x, [1, 2], [1, 3], "wrap"))
    xb = x.astype(">f8")
    np.testing.assert_array_equal(dmlc.pad(xb, 1, 2, mode="edge"), ref_pad(x, [1, 1], [2, 2], "edge"))


def test_out_overlapping_input(rng):
    base = random_array(rng, (64,), np.float32)
    x = base[:30].reshape(5, 6)
    expected = ref_pad(x.copy(), [1, 1], [0, 0], "reflection")
    out = base[:42].reshape(6, 7)  # the same memory
    dmlc.pad(x, [1, 1], [0, 0], mode="reflection", out=out)
    np.testing.assert_array_equal(out, expected)


def test_array_like_scalars_and_zero_dims():
    assert dmlc.pad([1, 2], 1, 1).tolist() == [0, 1, 2, 0]
    assert dmlc.pad(np.array([[1, 2]], np.uint8), np.int64(1), (np.int32(0), 2), mode="edge").tolist() == \
        [[1, 1, 2, 2, 2], [1, 1, 2, 2, 2]]
    assert dmlc.pad(np.zeros((1, 2), np.int8), np.array([1, 0]), (i for i in (0, 1)), value=5).tolist() == \
        [[5, 5, 5], [0, 0, 5]]
    y = dmlc.pad(np.array(3.5), [], [])
    assert y.shape == () and y == 3.5


@pytest.mark.parametrize("shape,start,end,want_shape", [
    ((0,), [2], [1], (3,)),
    ((2, 0, 3), [0, 1, 0], [1, 0, 2], (3, 1, 5)),
    ((0, 4), [0, 0], [0, 1], (0, 5)),
])
def test_zero_size_input(shape, start, end, want_shape):
    x = np.zeros(shape, np.int16)
    y = dmlc.pad(x, start, end, value=-7)
    assert y.shape == want_shape and y.dtype == np.int16
    assert np.all(y == -7)
    out = np.empty(want_shape, np.int16)
    assert dmlc.pad(x, start, end, value=-7, out=out) is out
    if math.prod(want_shape):
        with pytest.raises(ValueError, match=r"pad: x.shape\[\d\] is 0; an empty dimension can only be padded "
                                             r"with mode 'constant'"):
            dmlc.pad(x, start, end, mode="edge")
    else:
        assert dmlc.pad(x, start, end, mode="wrap").shape == want_shape


def test_large_tensor_threads_and_streaming(rng):
    """From 32 MiB of output the core streams whole cache lines of contiguous rows: float32
    rows, odd-length uint8 rows (no alignment anywhere), an out= with a row gap."""
    x = random_array(rng, (3, 64, 128, 330), np.float32)
    start, end = [1, 0, 2, 1], [0, 1, 3, 2]
    for mode in ("constant", "symmetric"):
        want = np_pad(x, start, end, mode, 5)
        np.testing.assert_array_equal(dmlc.pad(x, start, end, mode=mode, value=5), want)
        out = np.empty((4, 65, 134, 333), np.float32)[:, :, 1:]
        assert dmlc.pad(x, start, end, mode=mode, value=5, out=out) is out
        np.testing.assert_array_equal(out, want)
    b = random_array(rng, (3100, 11001), np.uint8)
    for mode in ("constant", "reflection"):
        np.testing.assert_array_equal(dmlc.pad(b, [1, 3], [2, 5], mode=mode, value=5),
                                      np_pad(b, [1, 3], [2, 5], mode, 5))


def test_thread_counts(rng):
    """Rows split across threads; a 1-d tensor cuts its one row into pieces."""
    v = random_array(rng, (300_001,), np.uint8)
    y = random_array(rng, (64, 70, 80), np.int16)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            for mode in MODES:
                np.testing.assert_array_equal(dmlc.pad(v, 70_000, 900_003, mode=mode, value=4),
                                              ref_pad(v, [70_000], [900_003], mode, 4), err_msg=f"{n} {mode}")
            np.testing.assert_array_equal(dmlc.pad(y, [2, 3, 1], [1, 1, 4], mode="wrap"),
                                          ref_pad(y, [2, 3, 1], [1, 1, 4], "wrap"))
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_python_threads_share_the_library(rng):
    xs = [random_array(rng, (3, 40, 50), np.float32) for _ in range(4)]
    results = [None] * 4

    def work(i):
        for _ in range(20):
            results[i] = dmlc.pad(xs[i], [1, 2, 3], [3, 2, 1], mode=MODES[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, (x, r) in enumerate(zip(xs, results)):
        np.testing.assert_array_equal(r, ref_pad(x, [1, 2, 3], [3, 2, 1], MODES[i]))


@settings(max_examples=80, deadline=None)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=4), data=st.data(),
       mode=st.sampled_from(MODES), dtype=st.sampled_from(ALL_DTYPES))
def test_matches_reference(shape, data, mode, dtype):
    start = data.draw(st.lists(st.integers(0, 11), min_size=len(shape), max_size=len(shape)))
    end = data.draw(st.lists(st.integers(0, 11), min_size=len(shape), max_size=len(shape)))
    x = np.arange(math.prod(shape)).reshape(shape).astype(dtype)
    y = dmlc.pad(x, start, end, mode=mode, value=2)
    np.testing.assert_array_equal(y, ref_pad(x, start, end, mode, 2))
    # Cropping the padding off gives x back.
    np.testing.assert_array_equal(y[tuple(slice(s, s + n) for s, n in zip(start, shape))], x)


# ---- the padding value ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype,value,want", [
    # Integers: truncate toward zero, then saturate; NaN is 0.
    (np.int8, 10.6, 10), (np.int8, -10.6, -10), (np.int8, 0.99, 0), (np.int8, -0.99, 0),
    (np.int8, 127.9, 127), (np.int8, 128, 127), (np.int8, -128.9, -128), (np.int8, -129, -128),
    (np.int8, float("nan"), 0), (np.int8, float("inf"), 127), (np.int8, float("-inf"), -128),
    (np.uint8, -5.5, 0), (np.uint8, -1, 0), (np.uint8, 255.9, 255), (np.uint8, 256, 255), (np.uint8, 1e300, 255),
    (np.int16, 40000, 32767), (np.int16, -40000.5, -32768), (np.uint16, 65535.5, 65535),
    (np.int32, 2 ** 31 - 1.5, 2 ** 31 - 2), (np.int32, 2 ** 31, 2 ** 31 - 1), (np.int32, -2 ** 31 - 0.5, -2 ** 31),
    (np.uint32, 2 ** 32, 2 ** 32 - 1), (np.uint32, float("-inf"), 0), (np.uint32, float("nan"), 0),
    # 64-bit integers are exact from Python ints, beyond what a float holds.
    (np.int64, 2 ** 63 - 1, 2 ** 63 - 1), (np.int64, -2 ** 63, -2 ** 63), (np.int64, 2 ** 53 + 1, 2 ** 53 + 1),
    (np.int64, 2 ** 70, 2 ** 63 - 1), (np.int64, -2 ** 70, -2 ** 63), (np.int64, 1e19, 2 ** 63 - 1),
    (np.uint64, 2 ** 64 - 1, 2 ** 64 - 1), (np.uint64, 2 ** 63 + 1, 2 ** 63 + 1), (np.uint64, -1, 0),
    (np.uint64, 2 ** 64, 2 ** 64 - 1), (np.uint64, 1.5, 1), (np.uint64, float("inf"), 2 ** 64 - 1),
    # Other real numbers: exact truncation; bools are 0/1; NumPy scalars.
    (np.int8, Fraction(-7, 2), -3), (np.int64, Decimal("9007199254740993.9"), 9007199254740993),
    (np.uint8, True, 1), (np.int32, np.float32(-3.7), -3), (np.int64, np.uint64(2 ** 64 - 1), 2 ** 63 - 1),
    (np.uint16, np.array(7.9), 7),
])
def test_value_conversion_integers(dtype, value, want):
    y = dmlc.pad(np.zeros(1, dtype), 1, 1, value=value)
    assert y.dtype == dtype
    assert int(y[0]) == want and int(y[2]) == want and y[1] == 0


INF = float("inf")


@pytest.mark.parametrize("dtype,value,want_bits", [
    # float16: round to nearest even; 65520 is the first value that rounds to inf.
    (np.float16, 65504, 0x7BFF), (np.float16, 65519.99, 0x7BFF), (np.float16, 65520, 0x7C00),
    (np.float16, -1e6, 0xFC00), (np.float16, 2 ** -24, 0x0001), (np.float16, 2 ** -25, 0x0000),
    (np.float16, 2 ** -25 * 1.0001, 0x0001), (np.float16, 3 * 2 ** -25, 0x0002), (np.float16, 1 + 2 ** -11, 0x3C00),
    (np.float16, 1 + 3 * 2 ** -11, 0x3C02), (np.float16, -0.0, 0x8000), (np.float16, 10 ** 400, 0x7C00),
    (np.float16, np.float16(np.uint16(0x7C01).view(np.float16)), 0x7C01),  # a float16 scalar: its bits
    (np.float16, INF, 0x7C00), (np.float16, 1, 0x3C00),
    # float32
    (np.float32, 0.1, 0x3DCCCCCD), (np.float32, 1e39, 0x7F800000), (np.float32, -1e39, 0xFF800000),
    (np.float32, 2 ** 24 + 1, 0x4B800000), (np.float32, 3.4028235677973362e38, 0x7F7FFFFF),
    (np.float32, 3.4028235677973366e38, 0x7F800000),  # halfway to 2**128: ties to even, inf
    (np.float32, -0.0, 0x80000000),
    # float64: exact
    (np.float64, 0.1, 0x3FB999999999999A), (np.float64, 2 ** 53 + 1, 0x4340000000000000),
    (np.float64, -(10 ** 400), 0xFFF0000000000000), (np.float64, Fraction(1, 3), 0x3FD5555555555555),
])
def test_value_conversion_floats(dtype, value, want_bits):
    y = dmlc.pad(np.zeros(1, dtype), 1, 0, value=value)
    bits = y.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[y.itemsize])
    assert int(bits[0]) == want_bits, hex(int(bits[0]))
    assert int(bits[1]) == 0


def test_value_nan_is_nan_in_float_types():
    for dtype in (np.float16, np.float32, np.float64):
        y = dmlc.pad(np.ones(2, dtype), 1, 1, value=float("nan"))
        assert np.isnan(y[0]) and np.isnan(y[3]) and y[1] == 1


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_value_matches_numpy_where_numpy_is_exact(dtype):
    """np.pad's constant_values cast agrees with dmlc for in-range values."""
    x = np.arange(6, dtype=dtype).reshape(2, 3)
    for value in (0, 1, 7, 100, -3 if np.dtype(dtype).kind != "u" else 3):
        np.testing.assert_array_equal(dmlc.pad(x, 2, 1, value=value), np_pad(x, [2, 2], [1, 1], "constant", value))


@pytest.mark.parametrize("mode", MODES[1:])
def test_value_ignored_by_other_modes(mode):
    x = np.arange(4, dtype=np.uint8)
    assert dmlc.pad(x, 2, 2, mode=mode, value=99).tolist() == dmlc.pad(x, 2, 2, mode=mode).tolist()


# ---- modes as strings and enum members ----------------------------------------------------------

@pytest.mark.parametrize("mode,want", [
    ("constant", "constant"), ("EDGE", "edge"), ("Reflection", "reflection"), ("reflect", "reflection"),
    ("DML_PADDING_MODE_SYMMETRIC", "symmetric"), ("wrap", "wrap"),
    (dmlc.PaddingMode.WRAP, "wrap"), (dmlc.PaddingMode.REFLECTION, "reflection"), (3, "symmetric"), (0, "constant"),
])
def test_mode_spellings(mode, want):
    x = np.arange(5, dtype=np.int64)
    np.testing.assert_array_equal(dmlc.pad(x, 3, 4, mode=mode, value=-1), ref_pad(x, [3], [4], want, -1))


# ---- wrong arguments -----------------------------------------------------------------------------

X = np.zeros((2, 3, 4), np.float32)


@pytest.mark.parametrize("kwargs,exc,msg", [
    (dict(mode="mirror"), ValueError,
     "pad: mode is 'mirror', expected one of 'constant', 'edge', 'reflection' \\(or 'reflect'\\), 'symmetric', 'wrap'"),
    (dict(mode=5), ValueError, r"pad: mode is 5, expected one of 0 \(CONSTANT\), 1 \(EDGE\), 2 \(REFLECTION\), "
                               r"3 \(SYMMETRIC\), 4 \(WRAP\)"),
    (dict(mode=-1), ValueError, "pad: mode is -1"),
    (dict(mode=1.0), TypeError, "pad: mode must be a string or PaddingMode, not float"),
    (dict(mode=None), TypeError, "pad: mode must be a string or PaddingMode, not NoneType"),
    (dict(mode=dmlc.DepthSpaceOrder.DEPTH_COLUMN_ROW), TypeError,
     "pad: mode must be a string or PaddingMode, not DepthSpaceOrder"),
    (dict(value="1"), TypeError, "pad: value must be a real number, not str"),
    (dict(value=1j), TypeError, "pad: value must be a real number, not complex"),
    (dict(value=None), TypeError, "pad: value must be a real number, not NoneType"),
    (dict(value=[1]), TypeError, "pad: value must be a real number, not list"),
    (dict(value=np.array([1, 2])), TypeError, r"pad: value must be a real number, not an array of shape \(2,\)"),
])
def test_bad_mode_and_value(kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.pad(X, 1, 1, **kwargs)


@pytest.mark.parametrize("start,end,exc,msg", [
    ([1, 1], 1, ValueError, r"pad: start_padding has 2 values, expected 3 \(one per dimension of x\)"),
    (1, [1, 1, 1, 1], ValueError, r"pad: end_padding has 4 values, expected 3 \(one per dimension of x\)"),
    ([0, -1, 0], 0, ValueError, r"pad: start_padding\[1\] is -1, expected 0 to 4294967295"),
    (-2, 0, ValueError, r"pad: start_padding is -2, expected 0 to 4294967295"),
    (0, np.uint64(2 ** 32), ValueError, r"pad: end_padding is 4294967296, expected 0 to 4294967295"),
    (0, (i for i in [0, 1]), ValueError, r"pad: end_padding has 2 values, expected 3"),
    (0, [0, 0, 2 ** 32], ValueError, r"pad: end_padding\[2\] is 4294967296, expected 0 to 4294967295"),
    ([0, 1.5, 0], 0, TypeError, r"pad: start_padding\[1\] must be an int, not float"),
    (0, 2.0, TypeError, "pad: end_padding must be an int or a sequence of ints, not float"),
    (None, 0, TypeError, "pad: start_padding must be an int or a sequence of ints, not NoneType"),
    (True, 0, TypeError, "pad: start_padding must be an int, not bool"),
    (np.array([1.0, 0, 0]), 0, TypeError, r"pad: start_padding\[0\] must be an int, not float"),
    (0, [0, "1", 0], TypeError, r"pad: end_padding\[1\] must be an int, not str"),
    ([True, 0, 0], 0, TypeError, r"pad: start_padding\[0\] must be an int, not bool"),
])
def test_bad_paddings(start, end, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.pad(X, start, end)


def test_bad_sizes_dtypes_and_out():
    with pytest.raises(ValueError, match=r"DML_OPERATOR_PADDING1: InputTensor.Sizes\[0\] 2 \+ StartPadding\[0\] "
                                         r"4294967295 \+ EndPadding\[0\] 0 is 4294967297, more than a tensor size "
                                         r"can hold"):
        dmlc.pad(np.zeros(2, np.uint8), 2 ** 32 - 1, 0)
    with pytest.raises(ValueError, match="array has 9 dimensions; DirectML tensors have at most 8"):
        dmlc.pad(np.zeros((1,) * 9, np.uint8), 1, 1)
    with pytest.raises(TypeError, match="x has dtype bool, which dmlc does not support"):
        dmlc.pad(np.zeros(3, bool), 1, 1)
    with pytest.raises(TypeError, match="x has dtype complex64, which dmlc does not support"):
        dmlc.pad(np.zeros(3, np.complex64), 1, 1)
    with pytest.raises(TypeError, match=re.escape(
            "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array interface or "
            "the buffer protocol), not list")):
        dmlc.pad(X, 1, 1, out=[0])
    with pytest.raises(TypeError, match="out has dtype float64, expected float32"):
        dmlc.pad(X, 1, 1, out=np.zeros((4, 5, 6)))
    with pytest.raises(ValueError, match=r"out has shape \(4, 5, 7\), expected \(4, 5, 6\)"):
        dmlc.pad(X, 1, 1, out=np.zeros((4, 5, 7), np.float32))
    ro = np.zeros((4, 5, 6), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        dmlc.pad(X, 1, 1, out=ro)
