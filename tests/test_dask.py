"""dmlc.dask: the operators on Dask arrays equal the in-memory ones bit for bit for every
chunking (hypothesis, and the chunkings where dask.array.map_overlap trips: chunks of
size 1, chunks smaller than the window or the padding, short last chunks, halos wider
than the array), keep the documented chunks, raise the in-memory errors when the graph
is built, run on every Dask scheduler and on dask.distributed, and hold a bounded amount
of memory however wide the array (a scheduler callback counts live blocks; a 1.5 GiB
on-disk array is pooled in a subprocess that measures its peak RSS)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

da = pytest.importorskip("dask.array")
import dask  # noqa: E402
from dask.callbacks import Callback  # noqa: E402

import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402
from support import ALL_DTYPES, child_cwd, child_env, random_array  # noqa: E402

SYNC = dict(scheduler="sync")
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def same(got, want):
    """Bit-for-bit equality: dtype, shape and bytes (NaN payloads and -0 included)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def compute(*arrays):
    return dask.compute(*arrays, **SYNC)


@st.composite
def chunking(draw, n, max_chunks=6):
    """Chunk sizes of an axis of length n: one chunk, size-1 chunks, uneven ones."""
    if n == 0:
        return (0,)
    kind = draw(st.sampled_from(["one", "ones", "random", "random"]))
    if kind == "one":
        return (n,)
    if kind == "ones" and n <= 12:
        return (1,) * n
    cuts = draw(st.sets(st.integers(1, n - 1), max_size=min(n - 1, max_chunks - 1))) if n > 1 else set()
    b = [0] + sorted(cuts) + [n]
    return tuple(hi - lo for lo, hi in zip(b, b[1:]))


def dask_array(draw, x):
    chunks = tuple(draw(chunking(n)) for n in x.shape)
    return da.from_array(x, chunks=chunks)


def values_with_ties_and_nans(rng, shape, dtype):
    """Few distinct values (many ties), and NaNs and -0.0 for floats."""
    dtype = np.dtype(dtype)
    x = rng.integers(-3, 4, size=shape).astype(dtype)
    if dtype.kind == "f" and x.size:
        flat = x.reshape(-1)
        flat[rng.integers(0, x.size, size=max(1, x.size // 10))] = np.nan
        flat[rng.integers(0, x.size, size=max(1, x.size // 10))] = -0.0
    return x


# ---------------------------------------------------------------------------------------
# import isolation

def test_import_dmlc_does_not_import_dask():
    code = textwrap.dedent("""
        import sys
        import numpy as np
        import importlib
        import dmlc, dmlc.bench
        dmlc.max_pool(np.zeros((1, 1, 4, 4), np.float32), 2)
        for family in dmlc.bench._modules():  # the dask family imports Dask only to run
            importlib.import_module("dmlc.bench." + family)
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed"))
        assert not loaded, loaded
        import dmlc.dask
        assert "dask.array" in sys.modules
    """)
    subprocess.run([sys.executable, "-c", code], check=True, env=child_env(), cwd=child_cwd())


# ---------------------------------------------------------------------------------------
# equality with the in-memory functions, every chunking

def in_memory_or_the_same_error(fname, x, X, *args, **kwargs):
    """The in-memory result on x, or None when the in-memory function raises a ValueError
    (a window that does not fit), after checking that building dmlc.dask's graph on X
    raises the same."""
    try:
        return getattr(dmlc, fname)(x, *args, **kwargs)
    except ValueError as exc:
        with pytest.raises(ValueError) as got:
            getattr(dd, fname)(X, *args, **kwargs)
        assert str(got.value) == str(exc)
        return None


@st.composite
def pooling_case(draw, dtypes=ALL_DTYPES, max_stride=3, **extra):
    """An input, its Dask array (random chunks), a window and the window arguments; extra:
    strategies of the other keyword arguments."""
    sp = draw(st.integers(1, 3))
    spatial = [draw(st.integers(1, 9 if sp < 3 else 5)) for _ in range(sp)]
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), *spatial)
    window = [draw(st.integers(1, 4)) for _ in range(sp)]
    kw = dict(strides=[draw(st.integers(1, max_stride)) for _ in range(sp)],
              start_padding=[draw(st.integers(0, 4)) for _ in range(sp)],
              end_padding=[draw(st.integers(0, 4)) for _ in range(sp)],
              dilations=[draw(st.integers(1, 3)) for _ in range(sp)],
              ceil_mode=draw(st.booleans()))
    kw.update({k: draw(v) for k, v in extra.items()})
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = random_array(rng, shape, dtype) if draw(st.booleans()) else values_with_ties_and_nans(rng, shape, dtype)
    return x, dask_array(draw, x), window, kw


@settings(max_examples=120, **SETTINGS)
@given(pooling_case(return_indices=st.booleans(), indices_dtype=st.sampled_from(["uint32", "uint64"])))
def test_max_pool_equals_in_memory(case):
    x, X, window, kw = case
    want = in_memory_or_the_same_error("max_pool", x, X, window, **kw)
    if want is None:
        return
    got = dd.max_pool(X, window, **kw)
    if kw["return_indices"]:
        v, i = compute(*got)
        same(v, want[0])
        same(i, want[1])
    else:
        same(compute(got)[0], want)


@settings(max_examples=100, **SETTINGS)
@given(data=st.data(), nd=st.integers(1, 3), mode=st.sampled_from(["constant", "edge", "reflection", "symmetric", "wrap"]),
       dtype=st.sampled_from(ALL_DTYPES))
def test_pad_equals_in_memory(data, nd, mode, dtype):
    # Paddings up to twice the axis: mirrors and wraps that go round more than once.
    shape = tuple(data.draw(st.integers(0 if mode == "constant" else 1, 7)) for _ in range(nd))
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    X = dask_array(data.draw, x)
    start = [data.draw(st.integers(0, 2 * n + 2)) for n in shape]
    end = [data.draw(st.integers(0, 2 * n + 2)) for n in shape]
    value = data.draw(st.sampled_from([0, -7.5, 300, float("nan")]))
    got = dd.pad(X, start, end, mode=mode, value=value)
    same(compute(got)[0], dmlc.pad(x, start, end, mode=mode, value=value))


@settings(max_examples=60, **SETTINGS)
@given(data=st.data(), b=st.integers(1, 3), order=st.sampled_from(["depth_column_row", "column_row_depth"]),
       dtype=st.sampled_from(ALL_DTYPES))
def test_depth_to_space_equals_in_memory(data, b, order, dtype):
    shape = (data.draw(st.integers(1, 2)), b * b * data.draw(st.integers(1, 4)), data.draw(st.integers(1, 5)),
             data.draw(st.integers(1, 5)))
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    got = dd.depth_to_space(dask_array(data.draw, x), b, order=order)
    same(compute(got)[0], dmlc.depth_to_space(x, b, order=order))


@settings(max_examples=60, **SETTINGS)
@given(data=st.data(), b=st.integers(1, 3), order=st.sampled_from(["depth_column_row", "column_row_depth"]),
       dtype=st.sampled_from(ALL_DTYPES))
def test_space_to_depth_equals_in_memory(data, b, order, dtype):
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 4)), b * data.draw(st.integers(1, 4)),
             b * data.draw(st.integers(1, 4)))
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    got = dd.space_to_depth(dask_array(data.draw, x), b, order=order)
    same(compute(got)[0], dmlc.space_to_depth(x, b, order=order))


@settings(max_examples=60, **SETTINGS)
@given(data=st.data(), shape=st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_split_join_equal_in_memory(data, shape):
    x = random_array(np.random.default_rng(0), shape, np.int16)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    if data.draw(st.booleans()):
        sections_or_sizes = data.draw(st.sampled_from([k for k in range(1, n + 1) if n % k == 0]))
    else:
        cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=4)))
        sections_or_sizes = [hi - lo for lo, hi in zip([0] + cuts, cuts + [n])]
    X = dask_array(data.draw, x)
    parts = dd.split(X, sections_or_sizes, axis)
    for got, want in zip(compute(*parts), dmlc.split(x, sections_or_sizes, axis)):
        same(got, want)
    y = [random_array(np.random.default_rng(k), [v if a != axis % len(shape) else data.draw(st.integers(0, 3))
                                                  for a, v in enumerate(shape)], np.int16) for k in range(3)]
    got = dd.join([dask_array(data.draw, a) for a in y], axis)
    same(compute(got)[0], dmlc.join(y, axis))


FLOAT_DTYPES = [np.float16, np.float32, np.float64]


@settings(max_examples=80, **SETTINGS)
@given(data=st.data(), dtype=st.sampled_from(ALL_DTYPES),
       view=st.sampled_from(["plain", "transpose", "reversed", "broadcast"]))
def test_identity_equals_in_memory(data, dtype, view):
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    x = values_with_ties_and_nans(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    X = dask_array(data.draw, x)
    # Dask's lazy views give blocks that are NumPy views (transposed, reversed, broadcast).
    if view == "transpose":
        x, X = x.T, X.T
    elif view == "reversed":
        x, X = x[::-1], X[::-1]
    elif view == "broadcast":
        x, X = np.broadcast_to(x, (3,) + x.shape), da.broadcast_to(X, (3,) + x.shape, chunks=(2,) + X.chunks)
    kw = {}
    if np.dtype(dtype).kind == "f" and data.draw(st.booleans()):
        kw = dict(scale=data.draw(st.sampled_from([None, 0.1, -3.0])), bias=data.draw(st.sampled_from([None, 1e-3, 7])))
    got = dd.identity(X, **kw)
    assert got.chunks == X.chunks
    same(compute(got)[0], dmlc.identity(x, **kw))


@st.composite
def slice_case(draw):
    nd = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(nd))
    offsets, sizes, strides = [], [], []
    for n in shape:
        o = draw(st.integers(0, n - 1))
        offsets.append(o)
        sizes.append(draw(st.integers(0, n - o)))
        strides.append(draw(st.integers(1, n + 1)) * draw(st.sampled_from([1, -1])))
    return shape, offsets, sizes, strides


@settings(max_examples=100, **SETTINGS)
@given(data=st.data(), case=slice_case(), dtype=st.sampled_from(ALL_DTYPES), reversed_input=st.booleans())
def test_slice_equals_in_memory(data, case, dtype, reversed_input):
    shape, offsets, sizes, strides = case
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    X = dask_array(data.draw, x)
    if reversed_input:  # blocks with negative strides
        x, X = x[::-1], X[::-1]
    got = dd.slice(X, offsets, sizes, strides)
    same(compute(got)[0], dmlc.slice(x, offsets, sizes, strides))


@settings(max_examples=80, **SETTINGS)
@given(data=st.data(), dtype=st.sampled_from(ALL_DTYPES), chunk_size=st.sampled_from([None, 1, 40]))
def test_tile_equals_in_memory(data, dtype, chunk_size):
    shape = tuple(data.draw(st.integers(0 if data.draw(st.booleans()) else 1, 5))
                  for _ in range(data.draw(st.integers(1, 4))))
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))), shape, dtype)
    X = dask_array(data.draw, x)
    repeats = [data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, len(shape))))]
    if len(repeats) == 1 and data.draw(st.booleans()):
        repeats = repeats[0]  # an int tiles the last axis, as np.tile
    # A small array-chunk-size groups fewer copies per output chunk (a remainder chunk).
    with dask.config.set({"array.chunk-size": f"{chunk_size}B"} if chunk_size else {}):
        got = dd.tile(X, repeats)
    same(compute(got)[0], dmlc.tile(x, repeats))


@settings(max_examples=100, **SETTINGS)
@given(data=st.data(), dtype=st.sampled_from(ALL_DTYPES),
       idx_dtype=st.sampled_from([np.int8, np.int32, np.int64, np.uint16, np.uint32, np.uint64]))
def test_gather_equals_in_memory(data, dtype, idx_dtype):
    """Every chunking of x, the gathered axis included; indices of 0 to 3 dimensions with
    negative and out-of-range values (clamped into the first or last chunk)."""
    shape = tuple(data.draw(st.integers(1, 9)) for _ in range(data.draw(st.integers(1, 3))))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = random_array(rng, shape, dtype)
    X = dask_array(data.draw, x)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    info = np.iinfo(idx_dtype)
    ishape = tuple(data.draw(st.integers(0, 4)) for _ in range(data.draw(st.integers(0, 3))))
    i = rng.integers(max(info.min, -n - 3), min(info.max, n + 3), ishape, endpoint=True).astype(idx_dtype)
    if i.size and info.min == 0:
        i.reshape(-1)[0] = info.max  # all ones: the last element, never -1
    got = dd.gather(X, i, axis)
    want = dmlc.gather(x, i, axis)
    assert got.chunks[:axis % len(shape)] == X.chunks[:axis % len(shape)]
    assert all(len(c) == 1 for c in got.chunks[axis % len(shape):axis % len(shape) + i.ndim])
    same(compute(got)[0], want)


def test_gather_reads_only_the_chunks_holding_indices():
    """The axis stays in its chunks: an output block reads the input chunks its indices fall
    in, one gather each, and no other."""
    x = np.arange(40, dtype=np.float32).reshape(2, 20)
    X = da.from_array(x, chunks=(1, 5))
    got = dd.gather(X, [12, -1, 13, 99], 1)
    assert got.chunks == ((1, 1), (4,))
    pieces = [k for k in dict(got.__dask_graph__()) if isinstance(k, tuple) and k[0].startswith("dmlc-gather-piece")]
    assert sorted({k[1] for k in pieces}) == [2, 3]             # chunks [10, 15) and [15, 20) only
    same(compute(got)[0], dmlc.gather(x, [12, -1, 13, 99], 1))
    with pytest.raises(TypeError, match=r"^gather: indices must be an in-memory array \(NumPy, a list\), not a Dask "
                                        r"array"):
        dd.gather(X, da.from_array(np.array([1])), 1)
    assert dd.gather(X, [], 1).shape == (2, 0)


@settings(max_examples=150, **SETTINGS)
@given(pooling_case(FLOAT_DTYPES, max_stride=4, include_padding=st.booleans()))
def test_avg_pool_equals_in_memory(case):
    x, X, window, kw = case
    want = in_memory_or_the_same_error("avg_pool", x, X, window, **kw)
    if want is None:
        return
    same(compute(dd.avg_pool(X, window, **kw))[0], want)


# The chunkings where dask.array.map_overlap needs care (it rechunks when the depth
# exceeds a chunk, mishandles short last chunks, or cannot pad beyond the array).
TRAPS = [
    ((1,) * 11, "chunks of size 1"),
    ((2, 2, 2, 2, 2, 1), "short last chunk of 1"),
    ((5, 1, 5), "a chunk of 1 in the middle"),
    ((4, 0, 7), "an empty chunk"),
    ((11,), "one chunk"),
    ((3, 8), "a chunk smaller than the window"),
]


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
@pytest.mark.parametrize("window,kw", [
    (5, dict(strides=1, start_padding=2, end_padding=2)),           # window 5 over chunks of 1
    (3, dict(strides=2, start_padding=1, end_padding=1, ceil_mode=True)),
    (2, dict(strides=3, dilations=4, start_padding=3)),              # dilated window wider than chunks
    (4, dict(strides=1, start_padding=3, end_padding=3)),            # windows made of padding only
    (11, dict(strides=1, start_padding=10, end_padding=10)),         # halo longer than the array
])
def test_max_pool_traps(chunks, why, window, kw):
    rng = np.random.default_rng(1)
    x = values_with_ties_and_nans(rng, (2, 2, 11, 11), np.float32)
    X = da.from_array(x, chunks=(1, 2, chunks, chunks[::-1]))
    v, i = compute(*dd.max_pool(X, window, return_indices=True, **kw))
    wv, wi = dmlc.max_pool(x, window, return_indices=True, **kw)
    same(v, wv)
    same(i, wi)


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
@pytest.mark.parametrize("mode", ["constant", "edge", "reflection", "symmetric", "wrap"])
def test_pad_traps(chunks, why, mode):
    # Padding wider than a chunk and than the whole axis (23 > 11: twice round).
    x = np.arange(11 * 11, dtype=np.int32).reshape(11, 11)
    X = da.from_array(x, chunks=(chunks, chunks[::-1]))
    got = dd.pad(X, [23, 1], [4, 30], mode=mode, value=-1)
    same(compute(got)[0], dmlc.pad(x, [23, 1], [4, 30], mode=mode, value=-1))


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
@pytest.mark.parametrize("window,kw", [
    (5, dict(strides=1, start_padding=2, end_padding=2, include_padding=True)),
    (3, dict(strides=2, start_padding=1, end_padding=1, ceil_mode=True)),
    (3, dict(strides=2, start_padding=1, end_padding=1, ceil_mode=True, include_padding=True)),
    (2, dict(strides=3, dilations=4, start_padding=3)),
    (4, dict(strides=1, start_padding=3, end_padding=3)),            # windows of padding only: NaN
    (4, dict(strides=1, start_padding=3, end_padding=3, include_padding=True)),  # ... or 0
    (1, dict(strides=5, start_padding=4, end_padding=2, ceil_mode=True, include_padding=True)),  # past the padding
    (1, dict(strides=5, start_padding=4, end_padding=2, ceil_mode=True)),
    (11, dict(strides=1, start_padding=10, end_padding=10)),         # halo longer than the array
])
def test_avg_pool_traps(chunks, why, window, kw):
    x = np.random.default_rng(1).standard_normal((2, 2, 11, 11)).astype(np.float32)
    X = da.from_array(x, chunks=(1, 2, chunks, chunks[::-1]))
    same(compute(dd.avg_pool(X, window, **kw))[0], dmlc.avg_pool(x, window, **kw))


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
@pytest.mark.parametrize("offset,size,stride", [(0, 11, 1), (0, 11, -1), (1, 9, 2), (2, 9, -3), (3, 8, 12), (0, 11, -20),
                                                (4, 0, -2)])
def test_slice_traps(chunks, why, offset, size, stride):
    x = np.arange(11 * 11, dtype=np.int16).reshape(11, 11)
    X = da.from_array(x, chunks=(chunks, chunks[::-1]))
    args = [offset, 1], [size, 10], [stride, -stride]
    same(compute(dd.slice(X, *args))[0], dmlc.slice(x, *args))


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
def test_tile_traps(chunks, why):
    x = np.arange(11 * 11, dtype=np.uint8).reshape(11, 11)
    X = da.from_array(x, chunks=(chunks, 11))
    same(compute(dd.tile(X, [3, 2]))[0], dmlc.tile(x, [3, 2]))
    with dask.config.set({"array.chunk-size": "300B"}):  # two copies of a 121-byte block
        Y = dd.tile(da.from_array(x, chunks=(11, chunks)), [1, 5])
    assert Y.chunks[1] == ((22, 22, 11) if len(chunks) == 1 else tuple(chunks) * 5)
    same(compute(Y)[0], dmlc.tile(x, [1, 5]))


def test_pad_zero_size_and_zero_dimensions():
    x = np.zeros((0, 3), np.float16)
    got = dd.pad(da.from_array(x, chunks=(1, 2)), [2, 1], [1, 0], value=5)
    same(compute(got)[0], dmlc.pad(x, [2, 1], [1, 0], value=5))
    s = np.array(7, np.int8)
    same(compute(dd.pad(da.from_array(s), [], []))[0], dmlc.pad(s, [], []))


def test_zero_dimensional_identity_and_tile():
    s = np.array(3.5, np.float16)
    S = da.from_array(s)
    same(compute(dd.identity(S, scale=2, bias=-1))[0], dmlc.identity(s, scale=2, bias=-1))
    same(compute(dd.tile(S, []))[0], dmlc.tile(s, []))


def test_empty_batch_and_channels():
    for shape in [(0, 3, 6, 6), (2, 0, 6, 6)]:
        x = np.zeros(shape, np.float32)
        X = da.from_array(x, chunks=(1, 2, 3, 3))
        v, i = compute(*dd.max_pool(X, 2, return_indices=True))
        wv, wi = dmlc.max_pool(x, 2, return_indices=True)
        same(v, wv)
        same(i, wi)
    x = np.zeros((2, 4, 0, 6), np.uint8)
    same(compute(dd.depth_to_space(da.from_array(x, chunks=2), 2))[0], dmlc.depth_to_space(x, 2))
    x = np.zeros((0, 3, 6, 6), np.float16)
    same(compute(dd.avg_pool(da.from_array(x, chunks=(1, 2, 3, 3)), 3, strides=2, start_padding=1))[0],
         dmlc.avg_pool(x, 3, strides=2, start_padding=1))
    x = np.zeros((2, 0, 5), np.int64)
    X = da.from_array(x, chunks=(1, 1, 2))
    for got, want in [(dd.identity(X), dmlc.identity(x)), (dd.slice(X, 0, [2, 0, 5], [1, 1, -2]), dmlc.slice(x, 0, [2, 0, 5], [1, 1, -2])),
                      (dd.tile(X, [2, 3, 2]), dmlc.tile(x, [2, 3, 2]))]:
        same(compute(got)[0], want)


def test_indices_are_global_at_every_offset():
    """Every index names the maximum's place in the whole input: x[unravel(i)] == v."""
    rng = np.random.default_rng(2)
    x = rng.permutation(3 * 4 * 20 * 30).astype(np.float64).reshape(3, 4, 20, 30)
    X = da.from_array(x, chunks=(2, 3, 7, 9))
    v, i = compute(*dd.max_pool(X, 3, strides=2, start_padding=1, return_indices=True, indices_dtype="uint64"))
    np.testing.assert_array_equal(x.reshape(-1)[i.astype(np.intp)], v)
    same(i, dmlc.max_pool(x, 3, strides=2, start_padding=1, return_indices=True, indices_dtype="uint64")[1])


def test_max_pool_carried_and_copied_edges():
    """Where blocks form several lines along a coupled axis, each block's task carries
    the edges later blocks read (a wavefront); a single line copies them in tasks of their
    own (its blocks run in parallel).  Both give the in-memory result."""
    x = values_with_ties_and_nans(np.random.default_rng(4), (2, 1, 50), np.float64)
    kw = dict(strides=3, start_padding=2, end_padding=5, return_indices=True, indices_dtype="uint64")
    want = dmlc.max_pool(x, 4, **kw)
    for X, layer in [(da.from_array(x[:1], chunks=(1, 1, 7)), "-pieces"), (da.from_array(x, chunks=(1, 1, 7)), "-work")]:
        v, i = dd.max_pool(X, 4, **kw)
        layers = set(v.__dask_graph__().layers)
        assert any(name.endswith(layer) for name in layers), layers
        got = compute(v, i)
        n = X.shape[0]
        same(got[0], want[0][:n])
        same(got[1], want[1][:n])


def test_non_dask_input_goes_through_asarray():
    x = np.arange(2 * 4 * 6 * 6, dtype=np.float32).reshape(2, 4, 6, 6)
    same(compute(dd.max_pool(x, 2))[0], dmlc.max_pool(x, 2))
    same(compute(dd.pad(x.tolist(), 1, 1))[0], dmlc.pad(x.tolist(), 1, 1))
    same(compute(dd.join([x, x], 1))[0], dmlc.join([x, x], 1))


# ---------------------------------------------------------------------------------------
# chunk policy

def test_chunks_max_pool():
    X = da.zeros((8, 64, 224, 224), np.float32, chunks=(1, 16, 56, 224))
    assert dd.max_pool(X, 2).chunks == ((1,) * 8, (16,) * 4, (28,) * 4, (112,))
    assert dd.max_pool(X, 3, strides=2, start_padding=1, end_padding=1).chunks == ((1,) * 8, (16,) * 4, (28,) * 4,
                                                                                    (112,))
    X = da.zeros((1, 1, 100, 10), np.float32, chunks=(1, 1, (30, 30, 30, 10), 10))
    assert dd.max_pool(X, 2).chunks[2] == (15, 15, 15, 5)
    # ceil mode: the extra window, past the end, joins the last chunk
    X = da.zeros((1, 1, 9), np.float32, chunks=(1, 1, 4))
    assert dd.max_pool(X, 2, ceil_mode=True).chunks[2] == (2, 2, 1)
    # chunks smaller than the stride: chunks where no window ends give no output chunk
    X = da.zeros((1, 1, 12), np.float32, chunks=(1, 1, 1))
    assert dd.max_pool(X, 4).chunks[2] == (1, 1, 1)


def test_chunks_pad_grows_only_edge_chunks():
    X = da.zeros((10, 9), np.int8, chunks=((3, 3, 4), (9,)))
    assert dd.pad(X, [2, 1], [5, 3], mode="reflection").chunks == ((5, 3, 9), (13,))
    padded = dd.pad(X, [0, 1], [0, 1])
    assert padded.chunks == ((3, 3, 4), (11,))


def test_pad_interior_blocks_are_the_input_blocks():
    X = da.arange(20, chunks=4)
    Y = dd.pad(X, 3, 3, mode="wrap")
    graph = dict(Y.__dask_graph__())
    # The three interior blocks of Y are X's blocks themselves: no task computes them.
    for k in range(1, 4):
        assert graph[(Y.name, k)] == (X.name, k)
    same(compute(Y)[0], dmlc.pad(np.arange(20), 3, 3, mode="wrap"))


def test_chunks_depth_to_space_and_back():
    X = da.zeros((4, 16, 10, 12), np.float32, chunks=(2, 16, 5, (6, 6)))
    assert dd.depth_to_space(X, 2).chunks == ((2, 2), (4,), (10, 10), (12, 12))
    X = da.zeros((4, 16, 10, 12), np.float32, chunks=(2, 4, 5, 6))
    assert dd.depth_to_space(X, 2, order="column_row_depth").chunks == ((2, 2), (1,) * 4, (10, 10), (12, 12))
    assert dd.depth_to_space(X, 2).chunks == ((2, 2), (4,), (10, 10), (12, 12))
    X = da.zeros((4, 3, 10, 12), np.float32, chunks=(2, 3, 4, 6))
    assert dd.space_to_depth(X, 2).chunks == ((2, 2), (12,), (2, 2, 1), (3, 3))
    X = da.zeros((4, 3, 10, 12), np.float32, chunks=(2, (1, 2), 4, 6))
    assert dd.space_to_depth(X, 2, order="column_row_depth").chunks[1] == (4, 8)
    assert dd.space_to_depth(X, 2).chunks[1] == (1, 2) * 4


def test_chunks_split_and_join():
    X = da.zeros((6, 10), np.int8, chunks=(2, 4))
    parts = dd.split(X, [3, 7], axis=1)
    assert [p.chunks for p in parts] == [((2, 2, 2), (3,)), ((2, 2, 2), (1, 4, 2))]
    assert dd.join(parts, 1).chunks == ((2, 2, 2), (3, 1, 4, 2))


def test_chunks_avg_pool_follow_max_pool():
    X = da.zeros((8, 64, 224, 224), np.float32, chunks=(1, 16, 56, 224))
    assert dd.avg_pool(X, 2).chunks == ((1,) * 8, (16,) * 4, (28,) * 4, (112,))
    kw = dict(strides=2, start_padding=1, end_padding=1)
    assert dd.avg_pool(X, 3, **kw).chunks == dd.max_pool(X, 3, **kw).chunks == ((1,) * 8, (16,) * 4, (28,) * 4, (112,))
    X = da.zeros((1, 1, 9), np.float32, chunks=(1, 1, 4))
    assert dd.avg_pool(X, 2, ceil_mode=True).chunks[2] == (2, 2, 1)


def test_chunks_identity_and_slice():
    X = da.zeros((6, 10, 7), dtype=np.int8, chunks=((2, 4), (3, 3, 3, 1), 7))
    assert dd.identity(X).chunks == X.chunks
    assert dd.identity(X.transpose(2, 0, 1)).chunks == ((7,), (2, 4), (3, 3, 3, 1))
    assert dd.slice(X, 0, X.shape).chunks == X.chunks  # the whole array, step 1: x's chunks
    # Step 2 from 1: elements 1 | 3, 5 | 7 | 9, by input chunk (0-2, 3-5, 6-8, 9).
    assert dd.slice(X, [0, 1, 0], [6, 9, 7], [1, 2, 1]).chunks[1] == (1, 2, 1, 1)
    # Step -2 from the window's end (9): 9 | 7 | 5, 3 | 1: the input chunks in reverse.
    assert dd.slice(X, [0, 1, 0], [6, 9, 7], [1, -2, 1]).chunks[1] == (1, 1, 2, 1)
    # A step larger than the chunks: the chunks it steps over give no output chunk.
    assert dd.slice(X, 0, [6, 10, 7], [1, 7, 1]).chunks[1] == (1, 1)
    assert dd.slice(X, 0, [6, 0, 7], 1).chunks[1] == (0,)


def test_chunks_tile():
    X = da.zeros((4, 6, 5), dtype=np.float32, chunks=(2, 3, 5))
    # Axes x holds in several chunks repeat them; an axis of one chunk holds the copies.
    assert dd.tile(X, [2, 3, 4]).chunks == ((2, 2) * 2, (3, 3) * 3, (20,))
    with dask.config.set({"array.chunk-size": "300B"}):  # blocks of 2*3*5*4 = 120 bytes: 2 copies
        assert dd.tile(X, [1, 1, 5]).chunks[2] == (10, 10, 5)
    assert dd.tile(X, 1).chunks == X.chunks
    assert dd.tile(da.zeros((0, 3), dtype=np.int8, chunks=2), [3, 2]).chunks == ((0,), (2, 1) * 2)


def test_tile_blocks_that_are_copies_of_input_blocks_are_those_blocks():
    X = da.arange(12, chunks=5).reshape(3, 4).rechunk((1, 2))
    Y = dd.tile(X, [2, 3])
    graph = dict(Y.__dask_graph__())
    for i in range(6):
        for j in range(6):
            assert graph[(Y.name, i, j)] == (X.name, i % 3, j % 2)
    same(compute(Y)[0], np.tile(np.arange(12).reshape(3, 4), [2, 3]))


# ---------------------------------------------------------------------------------------
# errors at graph build

def in_memory_error(fn, *args, **kwargs):
    with pytest.raises((TypeError, ValueError)) as exc:
        fn(*args, **kwargs)
    return type(exc.value), str(exc.value)


def dask_error(fn, *args, **kwargs):
    with pytest.raises((TypeError, ValueError)) as exc:
        fn(*args, **kwargs)  # graph build only: nothing is computed
    return type(exc.value), str(exc.value)


X4 = np.zeros((2, 8, 6, 6), np.float32)
BAD = [
    ("max_pool", (X4, 0), {}),
    ("max_pool", (X4, 2), dict(strides=[1, 2, 3])),
    ("max_pool", (X4, 2), dict(start_padding=-1)),
    ("max_pool", (X4, 2), dict(dilations="2")),
    ("max_pool", (X4, 7), {}),
    ("max_pool", (X4, 2), dict(return_indices=True, indices_dtype="int32")),
    ("max_pool", (X4, 2), dict(return_indices=True, indices_dtype=3.5)),
    ("max_pool", (np.zeros((2, 3), np.float32), 1), {}),
    ("max_pool", (np.zeros((1, 1, 4), bool), 2), {}),
    ("max_pool", (np.zeros((1, 1, 0), np.int8), 1), {}),
    ("depth_to_space", (X4, 3), {}),
    ("depth_to_space", (X4, 0), {}),
    ("depth_to_space", (X4, 2), dict(order="rows")),
    ("depth_to_space", (X4, 2.0), {}),
    ("depth_to_space", (X4[0], 2), {}),
    ("space_to_depth", (X4, 4), {}),
    ("space_to_depth", (X4.astype(np.complex64), 2), {}),
    ("pad", (X4, [1, 1], 0), {}),
    ("pad", (X4, 1, -2), {}),
    ("pad", (X4, 1, 1), dict(mode="mirror")),
    ("pad", (X4, 1, 1), dict(value="zero")),
    ("pad", (X4, 1, 2**32), {}),
    ("pad", (X4, 1, 1), dict(mode=7)),
    ("pad", (np.zeros((3, 0)), 1, 1), dict(mode="edge")),
    ("pad", (np.zeros((1,) * 9), 0, 0), {}),
    ("split", (X4, 3, 1), {}),
    ("split", (X4, [2, 2], 1), {}),
    ("split", (X4, [9, -1], 1), {}),
    ("split", (X4, 2, 4), {}),
    ("split", (X4, 2, 1.0), {}),
    ("split", (X4, "2", 1), {}),
    ("split", (X4, 0, 1), {}),
    ("join", ([X4, X4[:, :, :5]], 1), {}),
    ("join", ([X4, X4.astype(np.float64)], 0), {}),
    ("join", ([X4, X4[0]], 0), {}),
    ("join", ([], 0), {}),
    ("join", (X4, 9), {}),
    ("join", (5, 0), {}),
    ("join", ([X4], "0"), {}),
    ("avg_pool", (X4, 0), {}),
    ("avg_pool", (X4, 2), dict(strides=[1, 2, 3])),
    ("avg_pool", (X4, 2), dict(end_padding=-1)),
    ("avg_pool", (X4, 2), dict(dilations="2")),
    ("avg_pool", (X4, 7), {}),
    ("avg_pool", (X4.astype(np.int32), 2), {}),
    ("avg_pool", (np.zeros((2, 3), np.float32), 1), {}),
    ("avg_pool", (np.zeros((1, 1, 0), np.float32), 1), {}),
    ("identity", (X4,), dict(scale="2")),
    ("identity", (X4,), dict(bias=1e39)),
    ("identity", (X4.astype(np.int8),), dict(scale=2.0)),
    ("identity", (X4.astype(np.complex64),), {}),
    ("identity", (np.zeros((1,) * 9),), {}),
    ("slice", (X4, 0, [2, 8, 6, 7]), {}),
    ("slice", (X4, [0, 0, 0], 1), {}),
    ("slice", (X4, -1, 1), {}),
    ("slice", (X4, 0, 1, [1, 0, 1, 1]), {}),
    ("slice", (X4, 0, 1, 2**31), {}),
    ("slice", (X4, 0, 1.5), {}),
    ("slice", (X4.astype(bool), 0, 1), {}),
    ("tile", (X4, 0), {}),
    ("tile", (X4, [1, 1, 1, 1, 2]), {}),
    ("tile", (X4, [1, -2]), {}),
    ("tile", (X4, "2"), {}),
    ("tile", (X4, [1, 2.0]), {}),
    ("tile", (X4, True), {}),
    ("tile", (X4, 2**32), {}),
    ("gather", (X4, [0], 4), {}),
    ("gather", (X4, [0], -5), {}),
    ("gather", (X4, [0], True), {}),
    ("gather", (X4, [0.5], 1), {}),
    ("gather", (X4, [True], 1), {}),                     # lists: the harness chunks arrays into Dask ones
    ("gather", (X4, [[[[[[0]]]]]], 1), {}),
    ("gather", (np.zeros((0, 4), np.float32), [0], 0), {}),
    ("gather", (X4.astype(bool), [0], 1), {}),
]


@pytest.mark.parametrize("fname,args,kwargs", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_argument_errors_at_graph_build(fname, args, kwargs):
    want = in_memory_error(getattr(dmlc, fname), *args, **kwargs)

    def chunked(a):
        if isinstance(a, np.ndarray) and a.ndim:
            return da.from_array(a, chunks=tuple(max(1, n // 2) for n in a.shape))
        if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            return [chunked(v) for v in a]
        return a
    assert dask_error(getattr(dd, fname), *[chunked(a) for a in args], **kwargs) == want


def test_size_errors_at_graph_build_without_computing():
    # 4.9e9 elements: too many for uint32 indices; a lazy array, never computed.
    X = da.zeros((1, 1, 70000, 70000), np.uint8, chunks=(1, 1, 10000, 10000))
    stand_in = np.broadcast_to(np.zeros((), np.uint8), X.shape)
    want = in_memory_error(dmlc.max_pool, stand_in, 2, strides=70000, return_indices=True)
    assert dask_error(dd.max_pool, X, 2, strides=70000, return_indices=True) == want
    dd.max_pool(X, 2, strides=70000, return_indices=True, indices_dtype="uint64")  # fits
    # A dimension beyond DirectML's 32-bit sizes.
    X = da.zeros((2**32 + 2,), np.uint8, chunks=2**30)
    stand_in = np.broadcast_to(np.zeros((), np.uint8), X.shape)
    assert dask_error(dd.split, X, 2, 0) == in_memory_error(dmlc.split, stand_in, 2, 0)
    assert dask_error(dd.pad, X, 0, 0) == in_memory_error(dmlc.pad, stand_in, 0, 0)
    assert dask_error(dd.identity, X) == in_memory_error(dmlc.identity, stand_in)
    assert dask_error(dd.slice, X, 0, 2) == in_memory_error(dmlc.slice, stand_in, 0, 2)
    # Tiling beyond 32-bit sizes.
    X = da.zeros((2**16, 2**16 + 1), np.uint8, chunks=2**14)
    stand_in = np.broadcast_to(np.zeros((), np.uint8), X.shape)
    assert dask_error(dd.tile, X, [1, 2**16]) == in_memory_error(dmlc.tile, stand_in, [1, 2**16])
    X = da.zeros((1, 1, 2**32 - 1), np.float32, chunks=2**30)
    stand_in = np.broadcast_to(np.zeros((), np.float32), X.shape)
    want = in_memory_error(dmlc.avg_pool, stand_in, 1, start_padding=1)
    assert dask_error(dd.avg_pool, X, 1, start_padding=1) == want


class Unreadable:
    """An array-like whose data cannot be read (Dask may take an empty piece of it)."""
    shape, dtype, ndim = (2, 8, 12, 12), np.dtype(np.float32), 4

    def __getitem__(self, key):
        if any(k.start == k.stop for k in key):
            return np.empty((0,) * 4, self.dtype)
        raise AssertionError(f"read {key} while building a graph")


def test_building_graphs_reads_nothing():
    X = da.from_array(Unreadable(), chunks=(1, 4, 5, 5))
    dd.max_pool(X, 3, strides=2, start_padding=1, return_indices=True)
    dd.pad(X, 3, 4, mode="wrap")
    dd.depth_to_space(X, 2)
    dd.space_to_depth(X[:, :, :10, :10], 2)
    dd.join(dd.split(X, 2, 1), 1)
    dd.avg_pool(X, 3, strides=2, start_padding=1, include_padding=True, ceil_mode=True)
    dd.identity(X.transpose(0, 2, 3, 1), scale=2)
    dd.slice(X, [0, 1, 2, 3], [2, 6, 9, 8], [1, -2, 3, -1])
    dd.tile(X, [2, 1, 3, 2])
    with pytest.raises(AssertionError, match="while building a graph"):
        dd.max_pool(X, 2).compute(**SYNC)


def test_unknown_chunk_sizes():
    X = da.arange(10, chunks=5)
    X = X[X > 3]
    with pytest.raises(ValueError, match=r"pad: x has unknown chunk sizes \(NaN\); call x.compute_chunk_sizes\(\)"):
        dd.pad(X, 1, 1)


def test_no_out_argument():
    with pytest.raises(TypeError):
        dd.pad(da.zeros(3), 1, 1, out=np.zeros(5))


# ---------------------------------------------------------------------------------------
# schedulers and dask.distributed

def workload():
    rng = np.random.default_rng(3)
    x = values_with_ties_and_nans(rng, (2, 8, 23, 31), np.float32)
    X = da.from_array(x, chunks=(1, 4, 6, 7))
    lazy = [*dd.max_pool(X, 3, strides=2, start_padding=1, return_indices=True),
            dd.pad(X, [0, 0, 9, 2], [1, 0, 3, 40], mode="wrap"),
            dd.depth_to_space(X, 2), dd.space_to_depth(X[:, :, :22, :30], 2, order="crd"),
            dd.join(dd.split(X, [10, 13], 2)[::-1], 2)]
    want = [*dmlc.max_pool(x, 3, strides=2, start_padding=1, return_indices=True),
            dmlc.pad(x, [0, 0, 9, 2], [1, 0, 3, 40], mode="wrap"),
            dmlc.depth_to_space(x, 2), dmlc.space_to_depth(x[:, :, :22, :30], 2, order="crd"),
            dmlc.join(dmlc.split(x, [10, 13], 2)[::-1], 2)]
    lazy += [dd.avg_pool(X, 3, strides=2, start_padding=1, ceil_mode=True), dd.identity(X.transpose(0, 2, 3, 1), scale=3),
             dd.slice(X, [0, 1, 2, 3], [2, 6, 20, 28], [1, -2, 3, -1]), dd.tile(X, [1, 2, 1, 3])]
    want += [dmlc.avg_pool(x, 3, strides=2, start_padding=1, ceil_mode=True), dmlc.identity(x.transpose(0, 2, 3, 1), scale=3),
             dmlc.slice(x, [0, 1, 2, 3], [2, 6, 20, 28], [1, -2, 3, -1]), dmlc.tile(x, [1, 2, 1, 3])]
    return lazy, want


@pytest.mark.parametrize("scheduler", ["threads", "sync", "processes"])
def test_schedulers(scheduler):
    lazy, want = workload()
    # Two workers for processes: each one starts a Python (spawn) and imports dmlc.
    for got, w in zip(dask.compute(*lazy, scheduler=scheduler, num_workers=2), want):
        same(got, w)


distributed = pytest.importorskip("distributed")


@pytest.mark.parametrize("processes", [False, True], ids=["in-process", "2-worker-processes"])
def test_distributed(processes):
    lazy, want = workload()
    with distributed.LocalCluster(n_workers=2 if processes else 1, threads_per_worker=2, processes=processes,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        for got, w in zip(client.compute(lazy, sync=True), want):
            same(got, w)


# ---------------------------------------------------------------------------------------
# memory

class LiveBlocks(Callback):
    """Counts, as the synchronous scheduler runs, the input blocks held in its cache."""

    def __init__(self, name):
        super().__init__()
        self.name, self.peak = name, 0

    def _posttask(self, key, result, dsk, state, worker_id):
        live = sum(1 for k in state["cache"] if isinstance(k, tuple) and k[0] == self.name)
        self.peak = max(self.peak, live)


@pytest.mark.parametrize("grid", [(4, 24), (24, 4), (32, 1)])
@pytest.mark.parametrize("op", ["halo both axes", "halo one axis", "same size windows", "average, halo both axes"])
def test_held_blocks_do_not_grow_with_chunks_per_row(grid, op):
    """Pooling into a store holds a few input blocks at a time, for a grid of blocks 24
    wide as for one 4 wide (with dask.array.map_overlap's graphs, or with windows that
    need the blocks after them, Dask's ordering holds a row of blocks or more)."""
    rows, cols = grid
    X = da.ones((1, 1, rows * 8, cols * 8), np.float32, chunks=(1, 1, 8, 8)) + 1  # one task per block
    if op == "halo both axes":
        Y = dd.max_pool(X, 3, strides=2, start_padding=1, end_padding=1)
    elif op == "halo one axis":
        Y = dd.max_pool(X, (3, 1), strides=(2, 1), start_padding=(1, 0), end_padding=(1, 0))
    elif op == "same size windows":
        Y = dd.max_pool(X, 5, strides=1, start_padding=2, end_padding=2)
    else:
        Y = dd.avg_pool(X, 3, strides=2, start_padding=1, end_padding=1, include_padding=True)
    live = LiveBlocks(X.name)
    with live:
        da.store(Y, np.empty(Y.shape, np.float32), lock=False, **SYNC)
    assert live.peak <= 4, live.peak


ON_DISK = textwrap.dedent('''
    """Max pooling from a 1.5 GiB array on disk into arrays on disk, in a fresh process
    that reports its peak RSS.  The file is tiled (each 1024 x 1024 tile of the
    (1, 1, 8192, 49152) float32 array is contiguous, as chunked Zarr or HDF5 arrays store
    them), and every tile is read or written through an np.memmap of its own: a
    long-lived map of a whole row-major file would count in the RSS every page it ever
    touched (and a tile of a row-major file touches every row of it), whatever the
    computation holds."""
    import json, os, resource, sys
    import numpy as np
    import dask, dask.array as da
    import dmlc, dmlc.dask as dd

    class Tiled:
        """A (1, 1, H, W) array stored tile after tile; read and written a tile at a time."""
        def __init__(self, path, shape, dtype, tile):
            self.path, self.shape, self.dtype, self.ndim, self.tile = path, shape, np.dtype(dtype), 4, tile
            np.memmap(path, self.dtype, "w+", shape=(shape[2] * shape[3],))  # a sparse file

        def _map(self, key, mode):
            th, tw = self.tile
            i, j = key[2].start // th, key[3].start // tw
            assert (key[2].stop - key[2].start, key[3].stop - key[3].start) == (th, tw), key
            offset = (i * (self.shape[3] // tw) + j) * th * tw * self.dtype.itemsize
            return np.memmap(self.path, self.dtype, mode, offset=offset, shape=(th, tw))

        def __getitem__(self, key):
            if any(k.start == k.stop for k in key):  # Dask asks for an empty piece first
                return np.empty((0,) * 4, self.dtype)
            mm = self._map(key, "r")
            out = np.array(mm)[None, None]
            del mm
            return out

        def __setitem__(self, key, value):
            mm = self._map(key, "r+")
            mm[...] = value[0, 0]
            del mm  # no flush: the page cache holds it for the reads below, the OS writes it

        def rows(self, i):
            """Tile row i, every column (for checking)."""
            th, tw = self.tile
            return np.concatenate([self[0:1, 0:1, i * th:(i + 1) * th, j * tw:(j + 1) * tw]
                                   for j in range(self.shape[3] // tw)], axis=3)

    T, d = 1024, sys.argv[1]
    shape = (1, 1, 8 * T, 48 * T)
    src = Tiled(os.path.join(d, "x"), shape, np.float32, (T, T))
    rng = np.random.default_rng(0)
    base = rng.integers(0, 4096, size=(T, T)).astype(np.float32)  # many ties
    base[rng.random((T, T)) < 0.001] = np.nan
    for i in range(8):
        for j in range(48):
            src[0:1, 0:1, i * T:(i + 1) * T, j * T:(j + 1) * T] = (base + np.float32(7 * (48 * i + j)))[None, None]
    X = da.from_array(src, chunks=(1, 1, T, T))
    v, idx = dd.max_pool(X, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    assert v.chunks[2:] == ((T // 2,) * 8, (T // 2,) * 48), v.chunks
    vals = Tiled(os.path.join(d, "v"), v.shape, np.float32, (T // 2, T // 2))
    inds = Tiled(os.path.join(d, "i"), v.shape, np.uint32, (T // 2, T // 2))
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with dask.config.set(scheduler="threads", num_workers=2):
        da.store([v, idx], [vals, inds], lock=False)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    # The top and bottom bands of output rows, every column, against the in-memory
    # function on the input rows they read (loaded only now, after the peak was taken).
    wv, wi = dmlc.max_pool(src.rows(0), 3, strides=2, start_padding=1, end_padding=(0, 1), return_indices=True)
    np.testing.assert_array_equal(vals.rows(0), wv)
    np.testing.assert_array_equal(inds.rows(0), wi)
    wv, wi = dmlc.max_pool(src.rows(7), 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    # (the first output row of the bottom band also reads the row above it)
    np.testing.assert_array_equal(vals.rows(7)[:, :, 1:], wv[:, :, 1:])
    np.testing.assert_array_equal(inds.rows(7)[:, :, 1:], wi[:, :, 1:] + np.uint32(7 * T * shape[3]))
    print(json.dumps({"base_mib": base_rss / 1024, "peak_mib": peak / 1024, "array_mib": shape[2] * shape[3] * 4 / 2**20}))
''')


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's allocator keeps freed memory (quarantine) and adds shadow memory: "
                           "RSS measures the sanitizer, not dmlc")
def test_pooling_an_on_disk_array_holds_a_few_chunks(tmp_path):
    """1.5 GiB in, 0.75 GiB out (values and uint32 indices), 48 chunks per row: the peak
    RSS of the whole process stays a small fraction of the input."""
    import json
    script = tmp_path / "pool_on_disk.py"
    script.write_text(ON_DISK)
    # Through a shell that forks Python rather than exec'ing it: Linux carries a process's
    # peak RSS across fork and exec into the child's ru_maxrss, so a Python started
    # straight from this (large) test process would report this process's peak.
    r = subprocess.run(["sh", "-c", '"$0" "$@"; exit $?', sys.executable, str(script), str(tmp_path)],
                       env=child_env(), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout.strip().splitlines()[-1])
    assert m["array_mib"] == 1536
    assert m["peak_mib"] < 400, m  # a quarter of the input, imports (about 100 MiB) included
