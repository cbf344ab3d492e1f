"""dmlc.dask.lp_pool: bit for bit dmlc.lp_pool for every chunking (hypothesis, and the
chunkings where halos need care: chunks of 1, short and empty chunks, windows of padding
only, halos longer than the array), every float dtype and P class, the documented chunks,
and the in-memory errors when the graph is built."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

da = pytest.importorskip("dask.array")

import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402
from test_dask import FLOAT_DTYPES, SETTINGS, TRAPS, compute, in_memory_or_the_same_error, pooling_case, same  # noqa: E402


@settings(max_examples=80, **SETTINGS)
@given(pooling_case(FLOAT_DTYPES, max_stride=4, p=st.sampled_from([1, 2, 3, 5])))
def test_lp_pool_equals_in_memory(case):
    x, X, window, kw = case
    p = kw.pop("p")
    want = in_memory_or_the_same_error("lp_pool", x, X, window, p, **kw)
    if want is None:
        return
    same(compute(dd.lp_pool(X, window, p, **kw))[0], want)


@pytest.mark.parametrize("chunks,why", TRAPS, ids=[t[1] for t in TRAPS])
def test_lp_pool_traps(chunks, why):
    x = np.random.default_rng(1).standard_normal((2, 2, 11, 11))
    X = da.from_array(x, chunks=(1, 2, chunks, chunks[::-1]))
    for window, p, kw in [
            (5, 2, dict(strides=1, start_padding=2, end_padding=2)),
            (3, 3, dict(strides=2, start_padding=1, end_padding=1, ceil_mode=True)),
            (2, 1, dict(strides=3, dilations=4, start_padding=3)),
            (4, 2, dict(strides=1, start_padding=3, end_padding=3)),             # windows of padding only: 0
            (1, 4, dict(strides=5, start_padding=4, end_padding=2, ceil_mode=True)),  # past the padding
            (11, 2, dict(strides=1, start_padding=10, end_padding=10))]:      # halo longer than the array
        same(compute(dd.lp_pool(X, window, p, **kw))[0], dmlc.lp_pool(x, window, p, **kw))


def test_chunks_follow_avg_pool_and_dtypes():
    X = da.zeros((8, 64, 112, 112), dtype=np.float16, chunks=(1, 16, 28, 112))
    kw = dict(strides=2, start_padding=1, end_padding=1)
    assert dd.lp_pool(X, 3, **kw).chunks == dd.avg_pool(X, 3, **kw).chunks == ((1,) * 8, (16,) * 4, (14,) * 4, (56,))
    assert dd.lp_pool(X, 3, **kw).dtype == np.float16
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    same(dd.lp_pool(da.from_array(x, chunks=2), 2).compute(), dmlc.lp_pool(x, 2))


@pytest.mark.parametrize("args,kw,exc", [
    ((2, 0), {}, ValueError), ((2, 2.0), {}, TypeError), ((7,), {}, ValueError),
    ((2,), dict(strides=0), ValueError), ((2,), dict(dilations=[1, 2, 3]), ValueError)])
def test_errors_at_graph_build_time_with_the_in_memory_messages(args, kw, exc):
    x = np.zeros((1, 2, 6, 6), np.float32)
    with pytest.raises(exc) as want:
        dmlc.lp_pool(x, *args, **kw)
    with pytest.raises(exc) as got:
        dd.lp_pool(da.from_array(x, chunks=3), *args, **kw)
    assert str(got.value) == str(want.value)
    with pytest.raises(TypeError, match="^lp_pool: x has dtype int32; LP pooling takes float16, float32 or float64"):
        dd.lp_pool(da.zeros((1, 1, 4, 4), dtype=np.int32, chunks=2), 2)
