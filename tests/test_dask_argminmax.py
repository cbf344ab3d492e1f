"""dmlc.dask.argmax / argmin: the tree reduction of per-block (value, global index) pairs equals
the in-memory result bit for bit for every chunking, with ties both ways, NaNs and signed
zeros across block borders, several axes, keepdims and index dtypes; argument errors at
graph-build time with the in-memory messages."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402
from support import ALL_DTYPES  # noqa: E402

CHUNKINGS = [(2, 4, 3), (7, 1, 5), (3, 9, 2)]
# One block per element: the deepest tree (315 leaves), and by far the slowest graph to build,
# so it runs for float32, whose order has the most to get wrong (NaN, -0.0), over the axes
# that reduce across the most blocks; the other chunkings give every dtype trees of several
# levels.  keepdims only reshapes the merged result, the same for every dtype: every
# combination runs for float32, keepdims=False for the others.
ONE_PER_BLOCK = (1, 1, 1)
ONE_PER_BLOCK_AXES = [None, (0, 2), 1]
EVERY_COMBINATION_DTYPES = {"float32"}
AXES = [None, 0, 2, -1, (0, 2), (2, 0), (0, 1, 2)]


def planted(rng, dtype):
    """Few distinct values (ties in every block), and for floats NaNs and -0.0."""
    x = rng.integers(0, 3, (7, 9, 5)).astype(dtype)
    if x.dtype.kind == "f":
        x[1, 2, 3] = x[4, 4, 4] = np.nan
        x[0, 0, 0] = -0.0
    return x


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_equals_in_memory_for_every_chunking(rng, dtype, name):
    x = planted(rng, dtype)
    every = np.dtype(dtype).name in EVERY_COMBINATION_DTYPES
    runs = [(chunks, axis) for chunks in CHUNKINGS for axis in AXES]
    if every:
        runs += [(ONE_PER_BLOCK, axis) for axis in ONE_PER_BLOCK_AXES]
    with dask.config.set(scheduler="sync"):
        for chunks, axis in runs:
            lazy = da.from_array(x, chunks=chunks)
            for last in (False, True):
                for keepdims in (False, True) if every else (False,):
                    got = getattr(dd, name)(lazy, axis, keepdims=keepdims, select_last_index=last)
                    want = getattr(dmlc, name)(x, axis, keepdims=keepdims, select_last_index=last)
                    assert got.shape == want.shape
                    out = got.compute()
                    assert out.dtype == want.dtype and out.shape == want.shape
                    np.testing.assert_array_equal(out, want, err_msg=f"{chunks} {axis} {last} {keepdims}")


def test_threads_scheduler_indices_dtype_and_kept_chunks(rng):
    x = rng.standard_normal((40, 30)).astype(np.float32)
    lazy = da.from_array(x, chunks=(7, 11))
    y = dd.argmin(lazy, 1, indices_dtype="uint32")
    assert y.chunks == ((7, 7, 7, 7, 7, 5),)  # the kept axis keeps its chunks
    out = y.compute(scheduler="threads")
    assert out.dtype == np.uint32
    np.testing.assert_array_equal(out, np.argmin(x, 1))
    assert int(dd.argmax(lazy).compute()) == int(np.argmax(x))


def test_zero_size_and_errors():
    y = dd.argmax(da.from_array(np.zeros((0, 3)), chunks=2), 1)
    assert y.shape == (0,) and y.compute().shape == (0,)
    with pytest.raises(ValueError, match=r"^argmax: axis is 5, expected -2 to 1 \(x has 2 dimensions\)$"):
        dd.argmax(da.zeros((3, 4)), axis=5)
    with pytest.raises(ValueError, match=r"^argmin: x has shape \(0, 3\), and the reduced axes \(0,\) hold no element"):
        dd.argmin(da.zeros((0, 3)), axis=0)
    with pytest.raises(TypeError, match="^argmin: keepdims must be a bool, not int$"):
        dd.argmin(da.zeros((3, 4)), keepdims=1)
    with pytest.raises(ValueError, match="^argmax: indices_dtype is int8, expected int64, int32, uint64 or uint32$"):
        dd.argmax(da.zeros((3, 4)), indices_dtype="int8")


def test_index_type_too_narrow_at_graph_build():
    lazy = da.ones((2**16, 2**15 + 1), chunks=(2**14, 2**15 + 1), dtype=np.uint8)
    with pytest.raises(ValueError, match=r"^DML_OPERATOR_ARGMAX: OutputTensor.DataType is INT32, which cannot hold "
                                         r"index 2147549183 \(the reduced element count 2147549184 - 1\)$"):
        dd.argmax(lazy, indices_dtype="int32")
