"""dmlc.split / dmlc.join against np.split / np.concatenate."""
import os
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import ref_split
from support import ALL_DTYPES, child_cwd, child_env, random_array
from dmlc._examples import split_join as examples


def assert_parts(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        assert g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def random_sizes(rng, total, k):
    """k non-negative sizes summing to total."""
    cuts = np.sort(rng.integers(0, total + 1, size=k - 1))
    return list(np.diff(np.concatenate([[0], cuts, [total]])).astype(int))


# ---- the SPLIT page's examples --------------------------------------------------------

def test_seed_examples_split_and_join_inverse():
    x = examples.INPUT
    assert_parts(dmlc.split(x, [2, 1, 3], 2), examples.AXIS2)
    assert_parts(dmlc.split(x, 2, 3), examples.AXIS3)
    assert_parts(dmlc.split(x, [1, 1], -1), examples.AXIS3)
    np.testing.assert_array_equal(dmlc.join(examples.AXIS2, 2), x)
    np.testing.assert_array_equal(dmlc.join(examples.AXIS3, axis=-1), x)
    # The page's possible splits of a size-3 axis: 1+1+1, 1+2, 2+1, 3 (a copy).
    y = np.arange(3 * 4, dtype=np.int16).reshape(3, 4)
    for sizes in ([1, 1, 1], [1, 2], [2, 1], [3]):
        parts = dmlc.split(y, sizes, 0)
        assert_parts(parts, ref_split(y, sizes, 0))
        np.testing.assert_array_equal(dmlc.join(parts, 0), y)


def test_examples_module_lists_split_and_join():
    names = [e.name for e in examples.EXAMPLES]
    assert sum(n.startswith("SPLIT") for n in names) == 2 and sum(n.startswith("JOIN") for n in names) == 2
    from dmlc._examples import FAMILIES
    assert "split_join" in FAMILIES


# ---- every dtype, every rank, every axis ----------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("ndim", range(1, 9))
def test_all_dtypes_ranks_axes(rng, dtype, ndim):
    shape = tuple(int(v) for v in rng.integers(1, 4, size=ndim))
    for axis in range(ndim):
        shp = list(shape)
        shp[axis] = 5
        x = random_array(rng, tuple(shp), dtype)
        for sizes in ([5], [2, 3], [1, 1, 3], [0, 4, 0, 1]):
            parts = dmlc.split(x, sizes, axis)
            assert_parts(parts, ref_split(x, sizes, axis))
            y = dmlc.join(parts, axis)
            assert y.dtype == x.dtype
            np.testing.assert_array_equal(y, x)
            np.testing.assert_array_equal(dmlc.join(parts, axis - ndim), np.concatenate(parts, axis))


@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_equal_sections(rng, k):
    x = random_array(rng, (4, 6, 6), np.float32)
    for axis in (0, 1, 2, -1):
        if x.shape[axis] % k:
            continue
        assert_parts(dmlc.split(x, k, axis), np.split(x, k, axis))
    assert_parts(dmlc.split(x, np.int64(3), np.int32(1)), np.split(x, 3, 1))


def test_one_part_is_a_copy(rng):
    x = random_array(rng, (3, 4, 5), np.uint16)
    for axis in range(3):
        (y,) = dmlc.split(x, 1, axis)
        np.testing.assert_array_equal(y, x)
        assert not np.shares_memory(x, y)
        z = dmlc.join([x], axis)
        np.testing.assert_array_equal(z, x)
        assert not np.shares_memory(x, z)


def test_sizes_as_tuple_and_array(rng):
    x = random_array(rng, (2, 7), np.int8)
    assert_parts(dmlc.split(x, (3, 4), 1), ref_split(x, [3, 4], 1))
    assert_parts(dmlc.split(x, np.array([1, 6]), 1), ref_split(x, [1, 6], 1))
    assert_parts(dmlc.split(x, [np.uint8(2), 5], -1), ref_split(x, [2, 5], 1))
    np.testing.assert_array_equal(dmlc.join((x, x), 0), np.concatenate([x, x], 0))
    # any iterable of arrays, including an ndarray (joined over its first axis, as np.concatenate)
    np.testing.assert_array_equal(dmlc.join(iter([x, x]), 1), np.concatenate([x, x], 1))
    stack = np.stack([x, x, x])
    np.testing.assert_array_equal(dmlc.join(stack, 1), np.concatenate(stack, 1))


def test_array_likes():
    assert_parts(dmlc.split([[1, 2, 3]], [1, 2], 1), [np.array([[1]]), np.array([[2, 3]])])
    np.testing.assert_array_equal(dmlc.join([[1.5, 2.5], [3.5]], 0), [1.5, 2.5, 3.5])


def test_many_parts(rng):
    """More parts than the binding arrays hold on the stack, in both execution modes."""
    x = random_array(rng, (3, 700), np.float64)
    sizes = [int(v) for v in rng.integers(1, 4, size=300)]
    sizes[-1] += 700 - sum(sizes)
    assert sizes[-1] > 0
    parts = dmlc.split(x, sizes, 1)
    assert_parts(parts, ref_split(x, sizes, 1))
    np.testing.assert_array_equal(dmlc.join(parts, 1), x)
    xs = x[:, ::2]  # strided along the axis: one copy plan per part
    parts = dmlc.split(xs, 350, 1)
    assert_parts(parts, np.split(xs, 350, 1))
    np.testing.assert_array_equal(dmlc.join([p.T.copy().T for p in parts], 1), xs)


# ---- strides ----------------------------------------------------------------------------

def strided_views(rng, dtype):
    base = random_array(rng, (4, 10, 12, 14), dtype)
    return {
        "packed": base,
        "every other row": base[:, :, ::2, :],
        "every other column": base[:, :, :, ::2],
        "channel slice": base[1:, 2:8],
        "transposed": base.transpose(0, 3, 1, 2),
        "NHWC memory": np.ascontiguousarray(base.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2),
        "Fortran order": np.asfortranarray(base),
        "broadcast batch": np.broadcast_to(base[:1], (3, 10, 12, 14)),
        "broadcast width": np.broadcast_to(base[:, :, :, :1], (4, 10, 12, 6)),
        "negative strides": base[:, ::-1, :, ::-2],
    }


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64, np.int16])
def test_strided_inputs(rng, dtype):
    for name, x in strided_views(rng, dtype).items():
        for axis in range(4):
            n = x.shape[axis]
            sizes = [n // 3, n - n // 3 - 1, 1]
            parts = dmlc.split(x, sizes, axis)
            assert_parts(parts, ref_split(x, sizes, axis))
            # join from strided views of the parts
            views = [np.asfortranarray(p) if i % 2 else p for i, p in enumerate(ref_split(x, sizes, axis))]
            np.testing.assert_array_equal(dmlc.join(views, axis), x, err_msg=f"{name} axis {axis}")


def test_strided_input_is_not_copied(rng, monkeypatch):
    x = random_array(rng, (4, 10, 12), np.float32)[:, ::2, 1::3]
    parts = [np.asfortranarray(p) for p in np.split(x, 2, 2)]
    calls = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: calls.append(a) or real(*a, **k))
    got = dmlc.split(x, 2, 2)
    joined = dmlc.join(parts, 2)
    assert calls == []
    assert_parts(got, np.split(x, 2, 2))
    np.testing.assert_array_equal(joined, x)


def test_join_broadcast_inputs(rng):
    a = np.broadcast_to(np.arange(3, dtype=np.int32), (4, 3))
    b = np.broadcast_to(np.int32(7), (4, 2))
    np.testing.assert_array_equal(dmlc.join([a, b], 1), np.concatenate([a, b], 1))
    np.testing.assert_array_equal(dmlc.join([a.T, b.T], 0), np.concatenate([a.T, b.T], 0))


def test_non_native_byte_order(rng):
    x = random_array(rng, (3, 4), np.float32)
    parts = dmlc.split(x.astype(">f4"), [1, 3], 1)
    assert_parts(parts, ref_split(x, [1, 3], 1))
    np.testing.assert_array_equal(dmlc.join([x.astype(">f4"), x], 0), np.concatenate([x, x], 0))


# ---- out= -------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, 2])
def test_split_out_strided_views(rng, axis):
    x = random_array(rng, (4, 6, 8), np.float32)
    sizes = {0: [1, 1, 2], 1: [1, 3, 2], 2: [5, 1, 2]}[axis]
    want = ref_split(x, sizes, axis)
    bigs = [np.full((6, 9, 20), -1, np.float32) for _ in sizes]
    outs = [big[1:1 + w.shape[0], 2:2 + w.shape[1], ::2][:, :, :w.shape[2]] for big, w in zip(bigs, want)]
    got = dmlc.split(x, sizes, axis, out=outs)
    assert all(g is o for g, o in zip(got, outs))
    assert_parts(outs, want)
    for big, w in zip(bigs, want):
        untouched = big.copy()
        untouched[1:1 + w.shape[0], 2:2 + w.shape[1], ::2][:, :, :w.shape[2]] = -1
        assert np.all(untouched == -1), "wrote outside an out= view"


def test_split_out_disjoint_ranges_of_one_buffer(rng):
    x = random_array(rng, (5, 8, 3), np.int32)
    buf = np.full(5 * 8 * 3 + 10, -7, np.int32)
    outs = [buf[1:1 + 5 * 3 * 3].reshape(5, 3, 3), buf[50:50 + 5 * 5 * 3].reshape(5, 5, 3)]
    got = dmlc.split(x, [3, 5], 1, out=outs)
    assert got[0] is outs[0] and got[1] is outs[1]
    assert_parts(outs, ref_split(x, [3, 5], 1))
    assert buf[0] == -7 and np.all(buf[46:50] == -7) and np.all(buf[125:] == -7)


def test_split_out_interleaved_views_of_one_array(rng):
    """Views whose memory ranges interleave (but whose elements do not) still work."""
    x = random_array(rng, (4, 7), np.float64)
    big = np.zeros((4, 7))
    got = dmlc.split(x, [3, 4], 1, out=[big[:, :3], big[:, 3:]])
    np.testing.assert_array_equal(big, x)
    assert_parts(got, ref_split(x, [3, 4], 1))


def test_split_out_overlapping_parts_land_in_order():
    """Parts that truly overlap: written in order, the later part last (as NumPy would)."""
    x = np.arange(6, dtype=np.int64)
    buf = np.zeros(4, np.int64)
    dmlc.split(x, [3, 3], 0, out=[buf[:3], buf[1:]])
    np.testing.assert_array_equal(buf, [0, 3, 4, 5])


def test_split_out_overlapping_input(rng):
    base = random_array(rng, (24,), np.float32)
    x = base[:12].reshape(3, 4)
    want = ref_split(x.copy(), [2, 2], 1)
    outs = [base[:6].reshape(3, 2), base[12:18].reshape(3, 2)]  # the first overwrites x
    dmlc.split(x, 2, 1, out=outs)
    assert_parts(outs, want)


def test_split_out_negative_strides_and_temporaries(rng):
    x = random_array(rng, (3, 4), np.int16)
    outs = [np.zeros((3, 4), np.int16)[::-1, ::-1][:, :1], np.zeros((3, 3), np.int16, order="F")]
    got = dmlc.split(x, [1, 3], 1, out=outs)
    assert got[0] is outs[0] and got[1] is outs[1]
    assert_parts(outs, ref_split(x, [1, 3], 1))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_join_into_slice_of_bigger_buffer(rng, axis):
    parts = [random_array(rng, (3, 4, 5), np.uint8) for _ in range(3)]
    parts[1] = random_array(rng, tuple(2 if d == axis else s for d, s in enumerate((3, 4, 5))), np.uint8)
    want = np.concatenate(parts, axis)
    big = np.full((12, 16, 30), 0xAB, np.uint8)
    view = big[2:2 + want.shape[0], 1:1 + want.shape[1], 3::2][:, :, :want.shape[2]]
    assert dmlc.join(parts, axis, out=view) is view
    np.testing.assert_array_equal(view, want)
    untouched = big.copy()
    untouched[2:2 + want.shape[0], 1:1 + want.shape[1], 3::2][:, :, :want.shape[2]] = 0xAB
    assert np.all(untouched == 0xAB), "wrote outside the out= view"


def test_join_inputs_views_of_one_buffer(rng):
    """Inputs at different offsets of one buffer, overlapping one another."""
    buf = random_array(rng, (100,), np.float32)
    a = buf[0:20].reshape(4, 5)
    b = buf[10:22].reshape(4, 3)
    c = buf[3:43:5].reshape(4, 2)
    np.testing.assert_array_equal(dmlc.join([a, b, c, a], 1), np.concatenate([a, b, c, a], 1))


def test_join_out_overlapping_inputs(rng):
    buf = random_array(rng, (40,), np.int64)
    a = buf[:10].reshape(2, 5)
    b = buf[10:20].reshape(2, 5)
    want = np.concatenate([b, a], 0)
    out = buf[5:25].reshape(4, 5)
    dmlc.join([b, a], 0, out=out)
    np.testing.assert_array_equal(out, want)


def test_join_out_temporary_for_negative_strides(rng):
    parts = [random_array(rng, (2, 3), np.float16) for _ in range(2)]
    out = np.zeros((4, 3), np.float16)[::-1]
    assert dmlc.join(parts, 0, out=out) is out
    np.testing.assert_array_equal(out, np.concatenate(parts, 0))


# ---- empty arrays ---------------------------------------------------------------------

def test_zero_size_axis_with_many_sections():
    parts = dmlc.split(np.zeros((2, 0), np.int8), 1000, 1)
    assert len(parts) == 1000 and all(p.shape == (2, 0) for p in parts)


def test_zero_size():
    x = np.zeros((0, 6), np.float32)
    parts = dmlc.split(x, 3, 1)
    assert [p.shape for p in parts] == [(0, 2)] * 3
    assert dmlc.join(parts, 1).shape == (0, 6)
    y = np.zeros((2, 0, 3), np.uint8)
    assert [p.shape for p in dmlc.split(y, 4, 1)] == [(2, 0, 3)] * 4
    assert [p.shape for p in dmlc.split(y, [0, 0], 1)] == [(2, 0, 3)] * 2
    assert dmlc.join([y, y], 1).shape == (2, 0, 3)
    outs = [np.empty((0, 2), np.float32) for _ in range(3)]
    got = dmlc.split(x, 3, 1, out=outs)
    assert all(g is o for g, o in zip(got, outs))
    out = np.empty((0, 6), np.float32)
    assert dmlc.join(parts, 1, out=out) is out


def test_empty_parts_among_full_ones(rng):
    x = random_array(rng, (3, 4), np.int32)
    parts = dmlc.split(x, [0, 4, 0], 1)
    assert [p.shape for p in parts] == [(3, 0), (3, 4), (3, 0)]
    np.testing.assert_array_equal(parts[1], x)
    empty = np.zeros((3, 0), np.int32)
    np.testing.assert_array_equal(dmlc.join([empty, x, empty, x], 1), np.concatenate([x, x], 1))


# ---- size, threads ----------------------------------------------------------------------

@pytest.mark.parametrize("case", ["few long rows", "many rows", "strided", "streamed", "streamed short runs",
                                  "odd runs"])
def test_large_tensors_all_thread_counts(rng, case):
    if case == "few long rows":
        x, axis, sizes = random_array(rng, (4, 64, 128, 128), np.float32), 1, [16, 8, 40]  # 16 MiB: streamed
    elif case == "many rows":
        x, axis, sizes = random_array(rng, (64, 64, 64, 4), np.int16), 3, [1, 2, 1]
    elif case == "strided":
        x, axis, sizes = random_array(rng, (8, 64, 64, 32), np.float32)[:, :, :, ::2], 2, [20, 44]
    elif case == "streamed":  # 32 MiB: written with non-temporal stores
        x, axis, sizes = np.arange(8 * 1024 * 1024, dtype=np.float32).reshape(8, 64, 128, 128), 3, [64, 64]
    elif case == "streamed short runs":  # 64-byte runs, streamed where each destination is sequential
        x, axis, sizes = np.arange(8 * 1024 * 1024, dtype=np.float32).reshape(8, 64, 128, 128), 3, [16] * 8
    else:  # 17 MiB of uint8 in runs that are no multiple of 16 bytes: ordinary stores
        x, axis, sizes = random_array(rng, (4096, 4352), np.uint8), 1, [17, 4335]
    want = ref_split(x, sizes, axis)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            parts = dmlc.split(x, sizes, axis)
            assert_parts(parts, want)
            np.testing.assert_array_equal(dmlc.join(parts, axis), x)
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_large_tensors_at_unaligned_addresses(offset):
    """Streamed runs assume 16-byte aligned tensors; others are copied with ordinary stores."""
    n = 8 * 64 * 128 * 128
    xbuf = np.arange(n + offset, dtype=np.float32)
    x = xbuf[offset:].reshape(8, 64, 128, 128)
    bufs = [np.full(n // 2 + offset, -1, np.float32) for _ in range(2)]
    outs = [b[offset:].reshape(8, 64, 128, 64) for b in bufs]
    dmlc.split(x, 2, 3, out=outs)
    assert_parts(outs, np.split(x, 2, 3))
    assert all(b[offset - 1] == -1 for b in bufs)
    ybuf = np.full(n + offset, -1, np.float32)
    y = ybuf[offset:].reshape(x.shape)
    dmlc.join(outs, 3, out=y)
    np.testing.assert_array_equal(y, x)
    assert ybuf[offset - 1] == -1


def test_python_threads_share_the_library(rng):
    xs = [random_array(rng, (4, 32, 32, 8), np.float32) for _ in range(4)]
    results = [None] * 4

    def work(i):
        for _ in range(20):
            results[i] = dmlc.join(dmlc.split(xs[i], [5, 27], 1)[::-1], 1)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x, r in zip(xs, results):
        np.testing.assert_array_equal(r, np.concatenate([x[:, 5:], x[:, :5]], 1))


@settings(max_examples=80, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=8), data=st.data(),
       dtype=st.sampled_from(ALL_DTYPES), k=st.integers(1, 5))
def test_join_inverts_split(shape, data, dtype, k):
    ndim = len(shape)
    axis = data.draw(st.integers(-ndim, ndim - 1))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    shape[axis] = data.draw(st.integers(0, 7))
    x = random_array(rng, tuple(shape), dtype)
    if data.draw(st.booleans()):  # a strided view of a larger array
        x = np.repeat(x, 2, axis=0)[::2]
    sizes = random_sizes(rng, x.shape[axis], k)
    parts = dmlc.split(x, sizes, axis)
    assert_parts(parts, ref_split(x, sizes, axis))
    np.testing.assert_array_equal(dmlc.join(parts, axis), x)


# ---- wrong arguments ----------------------------------------------------------------------

X = np.zeros((2, 6, 4), np.float32)


@pytest.mark.parametrize("spec,axis,exc,msg", [
    (0, 1, ValueError, "split: sections is 0, expected at least 1"),
    (-2, 1, ValueError, "split: sections is -2, expected at least 1"),
    (4, 1, ValueError, r"split: x.shape\[1\] is 6, which does not divide into 4 equal sections; pass a list of sizes"),
    ([2, 3], 1, ValueError, r"split: sizes sum to 5 \(2 \+ 3\), expected x.shape\[1\] 6"),
    ([2, 5], 1, ValueError, r"split: sizes sum to 7 \(2 \+ 5\), expected x.shape\[1\] 6"),
    ([7, -1], 1, ValueError, r"split: sizes\[1\] is -1, expected at least 0"),
    ([], 1, ValueError, "split: sizes is empty, expected at least one size"),
    ([1] * 20, 0, ValueError, r"split: sizes sum to 20 \(1 \+ 1 .* \+ 1 \+ \.\.\.\), expected x.shape\[0\] 2"),
    ([2.0, 4], 1, TypeError, r"split: sizes\[0\] must be an int, not float"),
    ([True, 5], 1, TypeError, r"split: sizes\[0\] must be an int, not bool"),
    (2.0, 1, TypeError, "split: sections_or_sizes must be an int or a sequence of ints, not float"),
    (True, 1, TypeError, "split: sections_or_sizes must be an int or a sequence of ints, not bool"),
    (None, 1, TypeError, "split: sections_or_sizes must be an int or a sequence of ints, not NoneType"),
    ("23", 1, TypeError, r"split: sizes\[0\] must be an int, not str"),
    (2, 3, ValueError, "split: axis is 3, expected -3 to 2 for arrays of 3 dimensions"),
    (2, -4, ValueError, "split: axis is -4, expected -3 to 2 for arrays of 3 dimensions"),
    (2, 2 ** 70, ValueError, "split: axis is 1180591620717411303424, expected -3 to 2"),
    (2 ** 40, 1, ValueError, r"split: sections is 1099511627776, expected at most 4294967295 \(DirectML's OutputCount "
                             r"is a UINT\)"),
    ([2 ** 70, 6 - 2 ** 70], 1, ValueError, r"split: sizes\[1\] is -1180591620717411303418, expected at least 0"),
    ([2 ** 70], 1, ValueError, r"split: sizes sum to 1180591620717411303424 \(1180591620717411303424\), expected "
                               r"x.shape\[1\] 6"),
    (2, 1.0, TypeError, "split: axis must be an int, not float"),
    (2, None, TypeError, "split: axis must be an int, not NoneType"),
    (2, False, TypeError, "split: axis must be an int, not bool"),
])
def test_split_bad_arguments(spec, axis, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.split(X, spec, axis)


def test_split_bad_arrays():
    with pytest.raises(ValueError, match="split: x has 0 dimensions, expected 1 to 8"):
        dmlc.split(np.float32(1), 1, 0)
    with pytest.raises(ValueError, match="split: x has 9 dimensions, expected 1 to 8"):
        dmlc.split(np.zeros((1,) * 9, np.float32), 1, 0)
    with pytest.raises(TypeError, match="x has dtype bool, which dmlc does not support"):
        dmlc.split(np.zeros((2, 2), bool), 2, 0)
    with pytest.raises(TypeError, match="x has dtype complex64, which dmlc does not support"):
        dmlc.split(np.zeros((2, 2), np.complex64), 2, 0)


def test_split_bad_out():
    with pytest.raises(TypeError, match=re.escape("split: out must be a list of arrays (one per part), not ndarray")):
        dmlc.split(X, 2, 1, out=np.zeros((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match=r"split: out has 3 arrays, expected 2 \(one per part\)"):
        dmlc.split(X, 2, 1, out=[np.zeros((2, 3, 4), np.float32)] * 3)
    good = np.zeros((2, 3, 4), np.float32)
    with pytest.raises(TypeError, match=r"out\[1\] has dtype float64, expected float32"):
        dmlc.split(X, 2, 1, out=[good, np.zeros((2, 3, 4))])
    with pytest.raises(ValueError, match=r"out\[0\] has shape \(2, 4, 4\), expected \(2, 3, 4\)"):
        dmlc.split(X, 2, 1, out=[np.zeros((2, 4, 4), np.float32), good])
    with pytest.raises(TypeError, match=re.escape(
            "out[1] must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array interface or "
            "the buffer protocol), not list")):
        dmlc.split(X, 2, 1, out=[good, [0]])
    ro = np.zeros((2, 3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"out\[1\] is read-only"):
        dmlc.split(X, 2, 1, out=(good, ro))


def test_split_failure_leaves_out_untouched():
    outs = [np.full((2, 3, 4), 9, np.float32), np.full((2, 3, 4), 9, np.float32)]
    with pytest.raises(TypeError):
        dmlc.split(np.ones((2, 6, 4), np.float32), 2, 1, out=[outs[0], np.zeros((2, 3, 4), np.int32)])
    assert np.all(outs[0] == 9)


def test_join_bad_arguments():
    a = np.zeros((2, 3, 4), np.float32)
    with pytest.raises(ValueError, match="join: arrays is empty, expected at least one array"):
        dmlc.join([], 0)
    with pytest.raises(TypeError, match="join: arrays must be a sequence of arrays, not int"):
        dmlc.join(5, 0)
    with pytest.raises(TypeError, match=r"join: arrays\[1\] has dtype float64, expected float32 \(arrays\[0\]\); "
                                        "join does not promote dtypes"):
        dmlc.join([a, a.astype(np.float64)], 0)
    with pytest.raises(TypeError, match=r"join: arrays\[2\] has dtype int32, expected float32"):
        dmlc.join([a, a, a.astype(np.int32)], 0)
    with pytest.raises(ValueError, match=r"join: arrays\[1\] has 2 dimensions, expected 3 \(arrays\[0\]\)"):
        dmlc.join([a, a[0]], 0)
    with pytest.raises(ValueError, match=r"DML_OPERATOR_JOIN: InputTensors\[1\].Sizes\[2\] is 5, expected 4 "
                                         r"\(InputTensors\[0\].Sizes\[2\]; only Axis 1 may differ\)"):
        dmlc.join([a, np.zeros((2, 3, 5), np.float32)], 1)
    with pytest.raises(ValueError, match="join: axis is 3, expected -3 to 2 for arrays of 3 dimensions"):
        dmlc.join([a, a], 3)
    with pytest.raises(ValueError, match="join: axis is -1267650600228229401496703205376, expected -3 to 2"):
        dmlc.join([a, a], -2 ** 100)
    with pytest.raises(TypeError, match="join: axis must be an int, not str"):
        dmlc.join([a, a], "0")
    with pytest.raises(ValueError, match="join: arrays\\[0\\] has 0 dimensions, expected 1 to 8"):
        dmlc.join([np.float32(1), np.float32(2)], 0)
    with pytest.raises(TypeError, match=r"arrays\[1\] has dtype bool, which dmlc does not support"):
        dmlc.join([a, np.zeros((2, 3, 4), bool)], 0)
    with pytest.raises(ValueError, match=r"out has shape \(4, 3, 5\), expected \(4, 3, 4\)"):
        dmlc.join([a, a], 0, out=np.zeros((4, 3, 5), np.float32))
    with pytest.raises(TypeError, match="out has dtype int32, expected float32"):
        dmlc.join([a, a], 0, out=np.zeros((4, 3, 4), np.int32))


@pytest.mark.skipif(not sys.platform.startswith("linux") or "asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="needs Linux's RLIMIT_AS, which AddressSanitizer's shadow memory cannot live under")
def test_split_into_more_parts_than_memory_holds_says_so():
    """2**32 - 1 sections of an empty axis are 2**32 - 1 arrays: a MemoryError that says
    what did not fit (under a 4 GiB address-space limit, so it fails fast anywhere)."""
    code = ("import resource, numpy as np, dmlc\n"
            "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
            "try:\n"
            "    dmlc.split(np.zeros(0), 2**32 - 1, 0)\n"
            "except MemoryError as e:\n"
            "    print(repr(e))\n")
    r = subprocess.run([sys.executable, "-c", code], env=child_env(), cwd=child_cwd(), capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "MemoryError('split: not enough memory for 4294967295 parts (one array each)')\n"
