"""Benchmark workloads: dmlc.dask against Dask's own equivalents on the same chunks and
against in-memory dmlc, float32 (8, 64, 224, 224) in 8 chunks (one image each), on Dask's
threaded scheduler.  Every timed call builds the graph and computes the whole result.

Dask's equivalents: ``da.coarsen(np.max, ...)`` for 2x2 stride 2 max pooling, ``da.pad``
(reflect), reshape/transpose for depth-to-space and space-to-depth, ``da.concatenate``
for join, ``da.coarsen(np.mean, ...)`` for 2x2 stride 2 average pooling, a transpose
whose blocks are made contiguous (``map_blocks(np.ascontiguousarray)``) for identity,
``x[:, :, ::2, ::2]`` for slice and ``da.tile`` for tile.  The "dmlc speedup" column is each peer's time over dmlc.dask's: below 1 for
in-memory dmlc means in-memory is faster (a computed Dask result is assembled from its
chunks, one more copy).  Skipped when Dask is not installed.
"""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload

THREADS = dict(scheduler="threads")


def _x(shape, chunks):
    import dask.array as da
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    return x, da.from_array(x, chunks=chunks)


def _compute(fn):
    return lambda: (lambda: fn().compute(**THREADS))


def _label(shape, n, what):
    return f"float32 {tuple(shape)} in {n} chunks {what}"


def _pool(shape, chunks, n, what):
    """2x2 stride 2 max or average pooling (what: "max" or "avg") against da.coarsen."""
    import dask.array as da
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    ours, mem = getattr(dd, f"{what}_pool"), getattr(dmlc, f"{what}_pool")
    reduce = np.max if what == "max" else np.mean
    cands = [Candidate("dmlc.dask", _compute(lambda: ours(X, 2))),
             Candidate("dask coarsen", _compute(lambda: da.coarsen(reduce, X, {2: 2, 3: 2}))),
             Candidate("in-memory dmlc", lambda: (lambda: mem(x, 2)))]

    def check():
        want = mem(x, 2)
        np.testing.assert_array_equal(ours(X, 2).compute(**THREADS), want)
        theirs = da.coarsen(reduce, X, {2: 2, 3: 2}).compute(**THREADS)
        if what == "max":
            np.testing.assert_array_equal(theirs, want)
        else:  # np.mean sums float32 in another order: equal to rounding
            np.testing.assert_allclose(theirs, want, rtol=1e-6, atol=1e-6)

    moved = x.nbytes + x.nbytes // 4
    return Workload(f"dask {what}_pool", _label(shape, n, "2x2/2"), moved, moved, cands, check)


def _pad(shape, chunks, n, p=2):
    import dask.array as da
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    start = [0, 0, p, p]
    widths = [(0, 0), (0, 0), (p, p), (p, p)]
    cands = [Candidate("dmlc.dask", _compute(lambda: dd.pad(X, start, start, mode="reflection"))),
             Candidate("dask pad", _compute(lambda: da.pad(X, widths, mode="reflect"))),
             Candidate("in-memory dmlc", lambda: (lambda: dmlc.pad(x, start, start, mode="reflection")))]

    def check():
        want = np.pad(x, widths, mode="reflect")
        np.testing.assert_array_equal(dd.pad(X, start, start, mode="reflection").compute(**THREADS), want)
        np.testing.assert_array_equal(da.pad(X, widths, mode="reflect").compute(**THREADS), want)

    out_bytes = x.nbytes // (shape[2] * shape[3]) * (shape[2] + 2 * p) * (shape[3] + 2 * p)
    return Workload("dask pad", _label(shape, n, f"p{p} reflection"), x.nbytes + out_bytes, out_bytes, cands, check)


def _depth_space(shape, chunks, n, to_space, b=2):
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    nn, c, h, w = shape
    if to_space:  # DEPTH_COLUMN_ROW: (n, i, j, c, h, w) -> (n, c, h, i, w, j)
        co = c // (b * b)

        def dask_own():
            return X.reshape(nn, b, b, co, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(nn, co, h * b, w * b)
        ours, mem, what = (lambda: dd.depth_to_space(X, b)), (lambda: dmlc.depth_to_space(x, b)), "depth_to_space"
    else:         # the inverse: (n, c, h, i, w, j) -> (n, i, j, c, h, w)
        def dask_own():
            return X.reshape(nn, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(nn, c * b * b, h // b,
                                                                                             w // b)
        ours, mem, what = (lambda: dd.space_to_depth(X, b)), (lambda: dmlc.space_to_depth(x, b)), "space_to_depth"
    cands = [Candidate("dmlc.dask", _compute(ours)),
             Candidate("dask reshape", _compute(dask_own)),
             Candidate("in-memory dmlc", lambda: mem)]

    def check():
        want = mem()
        np.testing.assert_array_equal(ours().compute(**THREADS), want)
        np.testing.assert_array_equal(dask_own().compute(**THREADS), want)

    return Workload(f"dask {what}", _label(shape, n, f"b{b} DCR"), 2 * x.nbytes, x.nbytes, cands, check)


def _join(shape, chunks, n, parts=2):
    import dask.array as da
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    k = shape[1] // parts
    xs = [np.ascontiguousarray(x[:, i * k:(i + 1) * k]) for i in range(parts)]
    Xs = [da.from_array(a, chunks=(chunks[0], k) + tuple(chunks[2:])) for a in xs]
    cands = [Candidate("dmlc.dask", _compute(lambda: dd.join(Xs, 1))),
             Candidate("dask concatenate", _compute(lambda: da.concatenate(Xs, axis=1))),
             Candidate("in-memory dmlc", lambda: (lambda: dmlc.join(xs, 1)))]

    def check():
        np.testing.assert_array_equal(dd.join(Xs, 1).compute(**THREADS), x)

    return Workload("dask join", _label(shape, n, f"{parts} parts on axis 1"), 2 * x.nbytes, x.nbytes, cands, check)


def _identity(shape, chunks, n, perm=(0, 2, 3, 1)):
    import dmlc.dask as dd
    x, X = _x(shape, chunks)

    def dask_own():  # each block a contiguous copy of the transposed view, as dmlc.identity makes it
        return X.transpose(perm).map_blocks(np.ascontiguousarray)
    cands = [Candidate("dmlc.dask", _compute(lambda: dd.identity(X.transpose(perm)))),
             Candidate("dask transpose", _compute(dask_own)),
             Candidate("in-memory dmlc", lambda: (lambda: dmlc.identity(x.transpose(perm))))]

    def check():
        want = np.ascontiguousarray(x.transpose(perm))
        np.testing.assert_array_equal(dd.identity(X.transpose(perm)).compute(**THREADS), want)
        np.testing.assert_array_equal(dask_own().compute(**THREADS), want)

    return Workload("dask identity", _label(shape, n, f"perm{''.join(map(str, perm))}"), 2 * x.nbytes, x.nbytes, cands,
                    check)


def _slice(shape, chunks, n, step=2):
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    steps = [1, 1, step, step]
    cands = [Candidate("dmlc.dask", _compute(lambda: dd.slice(X, 0, shape, steps))),
             Candidate("dask slicing", _compute(lambda: X[:, :, ::step, ::step])),
             Candidate("in-memory dmlc", lambda: (lambda: dmlc.slice(x, 0, shape, steps)))]

    def check():
        want = x[:, :, ::step, ::step]
        np.testing.assert_array_equal(dd.slice(X, 0, shape, steps).compute(**THREADS), want)
        np.testing.assert_array_equal(X[:, :, ::step, ::step].compute(**THREADS), want)

    out_bytes = x.nbytes // (step * step)
    # Bytes moved: the output written, and the input lines the slice reads.
    return Workload("dask slice", _label(shape, n, f"step({step}, {step})"), x.nbytes // step + out_bytes, out_bytes,
                    cands, check)


def _tile(shape, chunks, n, reps=(1, 1, 2, 2)):
    import dask.array as da
    import dmlc.dask as dd
    x, X = _x(shape, chunks)
    cands = [Candidate("dmlc.dask", _compute(lambda: dd.tile(X, reps))),
             Candidate("dask tile", _compute(lambda: da.tile(X, reps))),
             Candidate("in-memory dmlc", lambda: (lambda: dmlc.tile(x, reps)))]

    def check():
        want = np.tile(x, reps)
        np.testing.assert_array_equal(dd.tile(X, reps).compute(**THREADS), want)
        np.testing.assert_array_equal(da.tile(X, reps).compute(**THREADS), want)

    out_bytes = x.nbytes * int(np.prod(reps))
    return Workload("dask tile", _label(shape, n, f"x{reps}"), x.nbytes + out_bytes, out_bytes, cands, check)


def workloads(quick):
    try:
        import dask.array  # noqa: F401
    except ImportError:  # pip install ".[dask]" in the checkout
        return []
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    n = shape[0]
    chunks = (1,) + shape[1:]  # one image per chunk
    return [_pool(shape, chunks, n, "max"), _pad(shape, chunks, n), _depth_space(shape, chunks, n, True),
            _depth_space(shape, chunks, n, False), _join(shape, chunks, n), _pool(shape, chunks, n, "avg"),
            _identity(shape, chunks, n), _slice(shape, chunks, n), _tile(shape, chunks, n)]
