"""dmlc.dask.cumsum / cumprod: the chunks along the axis scanned one after another, each
continuing from the previous chunk's accumulator, equal the in-memory result bit for bit
for every chunking (float16's float32 accumulator carried across chunks, integers wrapping
across borders, -0.0 at the start), exclusive and reverse; argument errors at graph-build
time with the in-memory messages."""
import itertools

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402
from support import ALL_DTYPES, assert_same_bits, random_array  # noqa: E402

FUNCS = {"cumsum": (dd.cumsum, dmlc.cumsum), "cumprod": (dd.cumprod, dmlc.cumprod)}
FLAGS = list(itertools.product((False, True), (False, True)))  # (exclusive, reverse)
CHUNKINGS = [(2, 4, 3), (6, 1, 5), (1, 9, 2)]


def values(rng, dtype, product):
    x = rng.integers(-3, 4, (6, 9, 5)).astype(dtype) if product else random_array(rng, (6, 9, 5), dtype)
    if x.dtype.kind == "f":
        x[0, 0, 0] = -0.0  # the first element of a sequence: kept as -0.0 (inclusive, axis 0)
        x[5, 8, 4] = -0.0  # the first of a reversed sequence
    return x


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_equals_in_memory_for_every_chunking(rng, dtype, name):
    """Every dtype, each axis, two of the three chunkings (all three for float32); the flags
    sampled so that every combination meets every axis and chunking over the dtypes."""
    lazy_fn, fn = FUNCS[name]
    x = values(rng, dtype, name == "cumprod")
    k = ALL_DTYPES.index(dtype)
    with dask.config.set(scheduler="sync"):
        for c, chunks in enumerate(CHUNKINGS):
            if c == k % 3 and dtype != np.float32:
                continue
            lazy = da.from_array(x, chunks=chunks)
            for axis in (0, 1, -1):
                exclusive, reverse = FLAGS[(k + c + axis) % 4]
                got = lazy_fn(lazy, axis, exclusive=exclusive, reverse=reverse)
                assert got.chunks == lazy.chunks and got.dtype == x.dtype
                assert_same_bits(got.compute(), fn(x, axis, exclusive=exclusive, reverse=reverse))


def test_float16_accumulator_crosses_chunks():
    """60000 + 60000 is inf in float16 but the float32 accumulator carried to the next
    chunk is 120000, so the third result is 60000 again, as in memory."""
    x = np.array([60000, 60000, -60000, 1, 2048, 1, 1], np.float16)
    for chunks in (1, 2, 3):
        lazy = da.from_array(x, chunks=chunks)
        for exclusive, reverse in FLAGS:
            assert_same_bits(dd.cumsum(lazy, 0, exclusive=exclusive, reverse=reverse).compute(scheduler="sync"),
                             dmlc.cumsum(x, 0, exclusive=exclusive, reverse=reverse))
    np.testing.assert_array_equal(dd.cumsum(da.from_array(x, chunks=1), 0).compute(scheduler="sync")[:3],
                                  [60000, np.inf, 60000])


def test_float32_order_differs_from_dask_cumsum():
    """Adding per-chunk totals afterwards (dask.array.cumsum) rounds differently; the carried
    accumulator does not."""
    x = np.array([1, 2.0 ** -24, 2.0 ** -24, 2.0 ** -24, 2.0 ** -24], np.float32)
    lazy = da.from_array(x, chunks=(1, 4))
    assert_same_bits(dd.cumsum(lazy, 0).compute(scheduler="sync"), dmlc.cumsum(x, 0))
    assert da.cumsum(lazy, 0).compute(scheduler="sync")[-1] != dmlc.cumsum(x, 0)[-1]


def test_many_chunks_threads_scheduler(rng):
    x = rng.integers(-100, 100, (50, 40)).astype(np.int16)
    lazy = da.from_array(x, chunks=(7, 11))
    for axis in (0, 1):
        out = dd.cumprod(lazy, axis, reverse=True).compute(scheduler="threads")
        assert_same_bits(out, dmlc.cumprod(x, axis, reverse=True))


def test_zero_size_and_errors():
    y = dd.cumsum(da.from_array(np.zeros((0, 3), np.float32), chunks=2), 1)
    assert y.shape == (0, 3) and y.dtype == np.float32 and y.compute().shape == (0, 3)
    with pytest.raises(ValueError, match=r"^cumsum: axis is 5, expected -2 to 1 \(x has 2 dimensions\)$"):
        dd.cumsum(da.zeros((3, 4)), 5)
    with pytest.raises(TypeError, match="^cumprod: axis must be an int, not NoneType$"):
        dd.cumprod(da.zeros((3, 4)), None)
    with pytest.raises(TypeError, match="^cumprod: exclusive must be a bool, not int$"):
        dd.cumprod(da.zeros((3, 4)), 0, exclusive=1)
    with pytest.raises(TypeError, match="^cumsum: reverse must be a bool, not str$"):
        dd.cumsum(da.zeros((3, 4)), 0, reverse="no")
    with pytest.raises(ValueError, match="^cumsum: x has 0 dimensions; DirectML tensors have 1 to 8$"):
        dd.cumsum(da.zeros(()), 0)
    with pytest.raises(TypeError, match="x has dtype bool, which dmlc does not support"):
        dd.cumsum(da.zeros(3, dtype=bool), 0)
