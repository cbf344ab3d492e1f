"""dmlc.dask.top_k: per-chunk candidates (indices made global) merged per row equal the
in-memory result bit for bit for every chunking, with ties across chunk borders in both
directions, NaNs and signed zeros, k up to the axis size, index dtypes; argument errors at
graph-build time with the in-memory messages."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402
from support import ALL_DTYPES  # noqa: E402

CHUNKINGS = [(2, 4, 3), (7, 1, 5), (3, 9, 2), (1, 2, 1)]
# Every chunking with every (axis, k, direction): 20 runs, shared out over the dtypes (two
# each, every run reached) so the file stays fast; float32, whose order has the most to get
# wrong (NaN, -0.0), takes every run but those of the one-element chunks (the slowest
# graphs), which the other dtypes reach.
RUNS = [(chunks, axis, k, largest) for chunks in CHUNKINGS
        for axis, k, largest in ((0, 3, True), (1, 9, False), (-1, 2, False), (1, 1, True), (2, 5, True))]


def planted(rng, dtype):
    """Few distinct values (ties in every chunk), and for floats NaNs and -0.0."""
    x = rng.integers(0, 3, (7, 9, 5)).astype(dtype)
    if x.dtype.kind == "f":
        x[1, 2, 3] = x[4, 4, 4] = np.nan
        x[0, 0, 0] = -0.0
        x[0, 1, 0] = -x[1, 2, 3]  # a NaN with its sign bit set
    return x


def bits(a):
    return a.view(f"u{a.dtype.itemsize}")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_equals_in_memory_for_every_chunking(rng, dtype):
    x = planted(rng, dtype)
    d = ALL_DTYPES.index(dtype)
    runs = RUNS[:15] if np.dtype(dtype) == np.float32 else [RUNS[d], RUNS[(d + 11) % len(RUNS)]]
    with dask.config.set(scheduler="sync"):
        for chunks, axis, k, largest in runs:
            lazy = da.from_array(x, chunks=chunks)
            gv, gi = dd.top_k(lazy, k, axis, largest=largest)
            wv, wi = dmlc.top_k(x, k, axis, largest=largest)
            assert gv.shape == wv.shape and gi.shape == wi.shape
            v, i = dask.compute(gv, gi)
            assert v.dtype == wv.dtype and i.dtype == wi.dtype
            np.testing.assert_array_equal(bits(v), bits(wv), err_msg=f"{chunks} {axis} {k} {largest}")
            np.testing.assert_array_equal(i, wi, err_msg=f"{chunks} {axis} {k} {largest}")


def test_threads_scheduler_indices_dtype_and_kept_chunks(rng):
    x = rng.standard_normal((40, 300)).astype(np.float32)
    lazy = da.from_array(x, chunks=(7, 45))
    v, i = dd.top_k(lazy, 50, indices_dtype="uint32")
    assert v.chunks == ((7, 7, 7, 7, 7, 5), (50,)) and i.dtype == np.uint32
    wv, wi = dmlc.top_k(x, 50, indices_dtype="uint32")
    with dask.config.set(scheduler="threads"):
        v, i = dask.compute(v, i)
        np.testing.assert_array_equal(v, wv)
        np.testing.assert_array_equal(i, wi)


def test_zero_size_and_k_zero():
    v, i = dd.top_k(da.zeros((0, 4), chunks=2), 2)
    assert v.shape == i.shape == (0, 2) and v.compute().shape == (0, 2)
    v, i = dd.top_k(da.ones((3, 4), chunks=2), 0, 0)
    assert v.shape == i.shape == (0, 4) and i.dtype == np.int64


@pytest.mark.parametrize("kwargs,exc,msg", [
    (dict(k=5), ValueError, "top_k: k is 5, expected 0 to 4 (x.shape[1])"),
    (dict(k=1.5), TypeError, "top_k: k must be an int, not float"),
    (dict(k=1, axis=2), ValueError, "top_k: axis is 2, expected -2 to 1 (x has 2 dimensions)"),
    (dict(k=1, largest="yes"), TypeError, "top_k: largest must be a bool, not str"),
    (dict(k=1, indices_dtype="int8"), ValueError, "top_k: indices_dtype is int8, expected int64, int32, uint64 or uint32"),
])
def test_argument_errors_at_graph_build(kwargs, exc, msg):
    with pytest.raises(exc) as e:
        dd.top_k(da.zeros((3, 4), chunks=2), **kwargs)
    assert str(e.value) == msg


def test_index_type_too_narrow_at_graph_build():
    lazy = da.zeros((2**31 + 1,), chunks=2**28, dtype=np.uint8)
    with pytest.raises(ValueError, match=r"^DML_OPERATOR_TOP_K1: OutputIndexTensor.DataType is INT32, which cannot "
                                         r"hold index 2147483648 \(the sequence length InputTensor.Sizes\[0\] "
                                         r"2147483649 - 1\)$"):
        dd.top_k(lazy, 1, indices_dtype="int32")
