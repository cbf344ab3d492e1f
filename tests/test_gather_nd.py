"""dmlc.gather_nd and dmlc.scatter_nd against NumPy (tests/reference.py: one tuple at a time,
each coordinate adjusted and clamped for the gather, a tuple out of range skipped and the
later duplicate winning for the scatter; NumPy's advanced indexing for in-range tuples),
PyTorch's indexing / index_put and ONNX Runtime's GatherND / ScatterND: every dtype, every
index dtype, batch_dims, 1 to 8 dimensions, views, out= (in place for the scatter), empty
arrays, threads, wrong arguments."""
import numpy as np
import pytest

import dmlc
from reference import ref_gather_nd, ref_scatter_nd
from support import ALL_DTYPES, assert_same_bits, random_array

INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _tuples(rng, shape, sizes, dtype=np.int64, spill=2):
    """Random index tuples: shape + (len(sizes),), coordinate a for an axis of sizes[a],
    `spill` past either end."""
    signed = np.dtype(dtype).kind == "i"
    cols = [rng.integers(-n - spill if signed else 0, n + spill, shape) for n in sizes]
    return np.stack(cols, -1).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    """Each dtype with one of the index dtypes, tuple lengths and batch_dims (sampled)."""
    k = ALL_DTYPES.index(dtype)
    x = random_array(rng, (4, 5, 3), dtype)
    b, t = k % 2, 1 + (k // 2) % 2
    idx_dtype = INDEX_DTYPES[k % len(INDEX_DTYPES)]
    i = _tuples(rng, (4, 2)[:1 + b] if b else (6,), x.shape[b:b + t], idx_dtype)
    y = dmlc.gather_nd(x, i, batch_dims=b)
    assert y.dtype == x.dtype and y.shape == i.shape[:-1] + x.shape[b + t:]
    assert_same_bits(y, ref_gather_nd(x, i, b))
    u = random_array(rng, i.shape[:-1] + x.shape[t:], dtype) if not b else None
    if u is not None:
        z = dmlc.scatter_nd(x, i, u)
        assert z.dtype == x.dtype and z.shape == x.shape
        assert_same_bits(z, ref_scatter_nd(x, i, u))


@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES)
def test_every_index_dtype(idx_dtype):
    """Signed: negative counts from the end, below -n clamps to 0 (gather) or skips the
    tuple (scatter); unsigned values are never negative (all ones is past the end)."""
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    info = np.iinfo(idx_dtype)
    pairs = [(0, 3), (2, 4), (100, 0), (info.max, 1)] + ([(-1, -1), (-3, -5), (info.min, 2)] if info.min < 0 else [])
    i = np.array(pairs, idx_dtype)
    want = [3, 11, 8, 9] + ([11, 0, 2] if info.min < 0 else [])
    np.testing.assert_array_equal(dmlc.gather_nd(x, i), want)
    np.testing.assert_array_equal(dmlc.gather_nd(x, i), ref_gather_nd(x, i))
    u = np.arange(100, 100 + len(pairs), dtype=np.int32)
    z = dmlc.scatter_nd(x, i, u)
    np.testing.assert_array_equal(z, ref_scatter_nd(x, i, u))
    expect = x.copy()
    expect[0, 3] = 100
    if info.min < 0:
        expect[2, 3] = 104                                    # (-1, -1); (-3, -5) and (info.min, 2) skipped
    np.testing.assert_array_equal(z, expect)


def test_documented_numpy_equivalence(rng):
    """In-range tuples: x[tuple(np.moveaxis(i, -1, 0))], and the scatter's assignment."""
    x = random_array(rng, (5, 6, 7), np.float64)
    i = np.stack([rng.permutation(5)[:4], rng.integers(-6, 6, 4)], -1)
    np.testing.assert_array_equal(dmlc.gather_nd(x, i), x[tuple(np.moveaxis(i, -1, 0))])
    u = random_array(rng, (4, 7), np.float64)
    want = x.copy()
    want[tuple(np.moveaxis(i, -1, 0))] = u
    np.testing.assert_array_equal(dmlc.scatter_nd(x, i, u), want)


def test_batch_dims(rng):
    x = random_array(rng, (2, 3, 4, 5), np.float32)
    for b in range(3):
        for t in range(1, 4 - b + 1):
            i = _tuples(rng, x.shape[:b] + (2,), x.shape[b:b + t])
            y = dmlc.gather_nd(x, i, batch_dims=b)
            assert y.shape == x.shape[:b] + (2,) + x.shape[b + t:]
            assert_same_bits(y, ref_gather_nd(x, i, b))
    assert_same_bits(dmlc.gather_nd(x, np.zeros((2, 3, 1, 2), np.int64), batch_dims=np.int64(2)), x[:, :, :1, 0])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint32, np.float64, np.int64, np.uint64])
def test_single_element_tuples(rng, dtype):
    """Tuples of 2 or 3 coordinates picking one 4- or 8-byte element each (the kernel
    specialised for them): every index dtype of 4 or 8 bytes, coordinates spilling past
    both ends (clamped), strided data, a strided out=, a single tuple, batch_dims 1, and a
    strided index tensor (the general kernel); dtype x index dtype x case sampled."""
    c = [np.float32, np.int32, np.uint32, np.float64, np.int64, np.uint64].index(dtype)
    idts = [np.int32, np.int64, np.uint32, np.uint64]
    x = random_array(rng, (6, 7, 9, 5), dtype)
    for case, t in enumerate((2, 3, 2, 3, 2, 3)):
        idt = idts[(c + case) % 4]
        data = (x[0], x[0], x[:, :, ::2, 1], x.transpose(3, 2, 1, 0)[0], x[0], x[0])[case]
        i = _tuples(rng, (300,) if case != 4 else (), data.shape[:t], idt, spill=3)
        if case == 5:
            i = np.repeat(i, 2, axis=0)[::2]  # a view: the index tensor is not packed
        want = ref_gather_nd(data, i)
        out = np.zeros(want.shape + (2,), dtype)[..., 0]  # strided
        assert dmlc.gather_nd(data, i, out=out) is out
        assert_same_bits(out, want)
        assert_same_bits(dmlc.gather_nd(data, i), want)
    batch = _tuples(rng, (6, 40), x.shape[1:3], idts[c % 4])
    assert_same_bits(dmlc.gather_nd(x[..., 0], batch, batch_dims=1), ref_gather_nd(x[..., 0], batch, 1))


def test_scatter_duplicates_the_later_wins():
    x = np.zeros((3, 2), np.float32)
    i = np.array([[1], [2], [1], [-2]])
    u = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.float32)
    np.testing.assert_array_equal(dmlc.scatter_nd(x, i, u), [[0, 0], [7, 8], [3, 4]])


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = (2, 3, 1, 2, 2, 1, 3, 2)[:nd]
    dtype = ALL_DTYPES[nd % len(ALL_DTYPES)]
    x = random_array(rng, shape, dtype)
    t = 1 + nd % min(nd, 3)
    qshape = (3,) if nd > 4 else (3, 2)                       # the result stays within 8 dimensions
    i = _tuples(rng, qshape, shape[:t], [np.int32, np.int64, np.uint32, np.uint64][nd % 4])
    assert_same_bits(dmlc.gather_nd(x, i), ref_gather_nd(x, i))
    u = random_array(rng, qshape + shape[t:], dtype)
    assert_same_bits(dmlc.scatter_nd(x, i, u), ref_scatter_nd(x, i, u))
    if nd > 1:
        i = _tuples(rng, shape[:1] + (2,), shape[1:2])
        assert_same_bits(dmlc.gather_nd(x, i, batch_dims=1), ref_gather_nd(x, i, 1))


def test_views_and_broadcasts(rng):
    base = random_array(rng, (8, 10, 6), np.float32)
    views = (base[::2, 1::3], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (5, 10, 6)), base[..., ::-1])
    for k, x in enumerate(views):
        t = 1 + k % 2
        i = _tuples(rng, (4,), x.shape[:t])
        u = random_array(rng, (12, 4) + x.shape[t:], np.float32)[::3][k % 4]
        assert_same_bits(dmlc.gather_nd(x, i), ref_gather_nd(x, i))
        assert_same_bits(dmlc.gather_nd(x, i.T.copy().T), ref_gather_nd(x, i))
        assert_same_bits(dmlc.scatter_nd(x, i, u), ref_scatter_nd(x, i, u))
    i = np.broadcast_to(np.array([[3, -1]]), (5, 2))
    assert_same_bits(dmlc.gather_nd(base, i), ref_gather_nd(base, i))


def test_out(rng):
    x = random_array(rng, (5, 6), np.int32)
    i = np.array([[4, 0], [-2, 5], [0, 0]])
    out = np.empty(3, np.int32)
    assert dmlc.gather_nd(x, i, out=out) is out
    np.testing.assert_array_equal(out, [x[4, 0], x[3, 5], x[0, 0]])
    wide = np.zeros((5, 12), np.int32)
    u = np.full(3, -1, np.int32)
    assert dmlc.scatter_nd(x, i, u, out=wide[:, ::2]) is not None
    np.testing.assert_array_equal(wide[:, ::2], ref_scatter_nd(x, i, u))
    assert np.all(wide[:, 1::2] == 0)
    with pytest.raises(ValueError, match=r"^out has shape \(5, 6\), expected \(3,\)$"):
        dmlc.gather_nd(x, i, out=np.empty((5, 6), np.int32))
    with pytest.raises(TypeError, match=r"^out has dtype int64, expected int32$"):
        dmlc.scatter_nd(x, i, u, out=np.empty((5, 6), np.int64))


def test_scatter_in_place_and_overlap():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    keep = x.copy()
    y = dmlc.scatter_nd(x, [[0], [-1]], np.full((2, 4), -1, np.float32))
    np.testing.assert_array_equal(x, keep)                    # a new array: x unchanged
    assert dmlc.scatter_nd(x, [[0], [-1]], np.full((2, 4), -1, np.float32), out=x) is x
    np.testing.assert_array_equal(x, y)
    buf = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match=r"^scatter_nd: out shares memory with x without being x itself$"):
        dmlc.scatter_nd(buf[:4], [[0]], [1.0], out=buf[2:6])
    with pytest.raises(ValueError, match=r"^scatter_nd: out shares memory with updates$"):
        dmlc.scatter_nd(np.zeros(4, np.float32), [[0], [1]], buf[:2], out=buf[:4])
    ibuf = np.zeros(4, np.int32)
    with pytest.raises(ValueError, match=r"^scatter_nd: out shares memory with indices$"):
        dmlc.scatter_nd(np.zeros(4, np.int32), ibuf[:2].reshape(2, 1), np.ones(2, np.int32), out=ibuf)
    assert np.all(buf == 0) and np.all(ibuf == 0)


def test_gather_out_overlapping_an_input_reads_a_copy():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    want = ref_gather_nd(x, [[2], [1], [0]])
    assert dmlc.gather_nd(x, [[2], [1], [0]], out=x) is x
    np.testing.assert_array_equal(x, want)


def test_empty_arrays(rng):
    x = random_array(rng, (3, 4), np.float32)
    assert dmlc.gather_nd(x, np.zeros((0, 2), np.int64)).shape == (0,)
    assert dmlc.gather_nd(np.zeros((3, 0), np.float32), [[1], [2]]).shape == (2, 0)
    with pytest.raises(ValueError, match=r"^gather_nd: x has shape \(0, 4\): there is nothing to gather from$"):
        dmlc.gather_nd(np.zeros((0, 4), np.float32), [[0]])
    z = dmlc.scatter_nd(x, np.zeros((0, 1), np.int64), np.zeros((0, 4), np.float32))
    assert z is not x
    assert_same_bits(z, x)
    assert dmlc.scatter_nd(np.zeros((0, 4), np.int8), np.zeros((2, 2), np.int32), np.zeros((2,), np.int8)).shape == (0, 4)


def test_threads_give_the_same_result(rng):
    x = random_array(rng, (300, 200), np.float32)
    i = _tuples(rng, (4000,), x.shape)
    i[::7] = i[3]                                             # duplicates across every thread's range
    u = random_array(rng, (4000,), np.float32)
    rows = _tuples(rng, (500,), x.shape[:1])
    ur = random_array(rng, (500, 200), np.float32)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.gather_nd(x, i), ref_gather_nd(x, i))
            assert_same_bits(dmlc.scatter_nd(x, i, u), ref_scatter_nd(x, i, u))
            assert_same_bits(dmlc.gather_nd(x, rows), ref_gather_nd(x, rows))
            assert_same_bits(dmlc.scatter_nd(x, rows, ur), ref_scatter_nd(x, rows, ur))
    finally:
        dmlc.set_num_threads(old)


@pytest.mark.parametrize("fname", ["gather_nd", "scatter_nd"])
def test_wrong_arguments(rng, fname):
    x = random_array(rng, (3, 4), np.float32)

    def call(x, i):
        if fname == "gather_nd":
            return dmlc.gather_nd(x, i)
        i = np.asarray(i)
        k = i.shape[-1] if i.ndim else 0
        return dmlc.scatter_nd(x, i, np.zeros(i.shape[:-1] + x.shape[k:], x.dtype))

    with pytest.raises(TypeError, match=rf"^{fname}: indices has dtype float64, expected an integer dtype$"):
        call(x, np.zeros((3, 1)))
    with pytest.raises(TypeError, match=rf"^{fname}: indices has dtype bool, expected an integer dtype$"):
        call(x, np.zeros((3, 1), bool))
    with pytest.raises(ValueError, match=rf"^{fname}: indices has 0 dimensions, expected 1 to 8 "
                                         r"\(the last holds the index tuples\)$"):
        call(x, np.int32(0))
    with pytest.raises(ValueError, match=rf"^{fname}: indices.shape\[-1\] is 3 \(the index tuple's length\), "
                                         r"expected 1 to 2 \(x.ndim 2"):
        call(x, np.zeros((2, 3), np.int32))
    with pytest.raises(ValueError, match=rf"^{fname}: indices.shape\[-1\] is 0 \(the index tuple's length\)"):
        call(x, np.zeros((2, 0), np.int32))
    with pytest.raises(ValueError, match=rf"^{fname}: x has 0 dimensions, expected 1 to 8$"):
        call(np.float32(1), [0])
    with pytest.raises(ValueError, match=rf"^{fname}: x has 9 dimensions, expected 1 to 8$"):
        call(np.zeros((1,) * 9, np.float32), [[0]])
    with pytest.raises(ValueError, match=rf"^{fname}: (the result|the updates) would have 9 dimensions"):
        call(np.zeros((1,) * 8, np.float32), np.zeros((1, 1, 1), np.int32))
    with pytest.raises(TypeError, match=r"x has dtype bool"):
        call(np.array([True, False]), [[0]])


def test_batch_dims_wrong_values(rng):
    x = random_array(rng, (3, 4, 2), np.float32)
    i = np.zeros((3, 1), np.int64)
    with pytest.raises(ValueError, match=r"^gather_nd: batch_dims is 2, expected 0 to 1 "
                                         r"\(less than x.ndim 3 and indices.ndim 2\)$"):
        dmlc.gather_nd(x, i, batch_dims=2)
    with pytest.raises(ValueError, match=r"^gather_nd: batch_dims is -1, expected 0 to 1"):
        dmlc.gather_nd(x, i, batch_dims=-1)
    with pytest.raises(TypeError, match=r"^gather_nd: batch_dims must be an int, not bool$"):
        dmlc.gather_nd(x, i, batch_dims=True)
    with pytest.raises(TypeError, match=r"^gather_nd: batch_dims must be an int, not float$"):
        dmlc.gather_nd(x, i, batch_dims=1.0)
    with pytest.raises(ValueError, match=r"^gather_nd: indices.shape\[0\] is 2, expected 3 "
                                         r"\(x.shape\[0\], batch dimension 0 of batch_dims 1\)$"):
        dmlc.gather_nd(x, np.zeros((2, 1), np.int64), batch_dims=1)
    with pytest.raises(ValueError, match=r"^gather_nd: indices.shape\[-1\] is 3 \(the index tuple's length\), "
                                         r"expected 1 to 2 \(x.ndim 3 - batch_dims 1\)$"):
        dmlc.gather_nd(x, np.zeros((3, 3), np.int64), batch_dims=1)


def test_scatter_wrong_updates(rng):
    x = random_array(rng, (3, 4), np.float32)
    i = np.zeros((2, 1), np.int32)
    with pytest.raises(TypeError, match=r"^scatter_nd: updates has dtype float64, expected float32 \(x's dtype\)$"):
        dmlc.scatter_nd(x, i, np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"^scatter_nd: updates has shape \(2, 3\), expected \(2, 4\) "
                                         r"\(indices.shape\[:-1\] \+ x.shape\[indices.shape\[-1\]:\]\)$"):
        dmlc.scatter_nd(x, i, np.zeros((2, 3), np.float32))
    y = dmlc.scatter_nd(x, i, [[1, 2, 3, 4], [5, 6, 7, 8]])  # a list takes x's dtype; the later row wins
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y[0], [5, 6, 7, 8])
    assert_same_bits(y[1:], x[1:])


# ---- oracles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8])
def test_torch_indexing_and_index_put(rng, dtype):
    """In-range tuples; for index_put distinct tuples (PyTorch leaves duplicates open)."""
    torch = pytest.importorskip("torch")
    x = random_array(rng, (5, 6, 7), dtype)
    i = np.stack([rng.integers(0, 5, 9), rng.integers(0, 6, 9)], -1)
    tx = torch.from_numpy(x)
    assert_same_bits(dmlc.gather_nd(x, i), tx[tuple(torch.from_numpy(i).unbind(-1))].numpy())
    flat = rng.choice(30, 9, replace=False)
    i = np.stack(np.unravel_index(flat, (5, 6)), -1)
    u = random_array(rng, (9, 7), dtype)
    want = tx.index_put(tuple(torch.from_numpy(i).unbind(-1)), torch.from_numpy(u)).numpy()
    assert_same_bits(dmlc.scatter_nd(x, i, u), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint16])
def test_onnxruntime_gather_nd_and_scatter_nd(rng, dtype):
    """ONNX GatherND (batch_dims 0 to 2) and ScatterND (reduction none, distinct tuples: ONNX
    leaves duplicates undefined), in-range and negative coordinates."""
    ort = pytest.importorskip("onnxruntime")
    from dmlc.bench.gather import nd_model
    x = random_array(rng, (2, 3, 4, 5), dtype)
    for b, t in ((0, 1), (0, 3), (1, 2), (2, 2)):
        i = np.stack([rng.integers(-n, n, x.shape[:b] + (3,)) for n in x.shape[b:b + t]], -1).astype(np.int64)
        sess = ort.InferenceSession(nd_model("GatherND", dtype, x.shape, i.shape, b),
                                    providers=["CPUExecutionProvider"])
        (want,) = sess.run(None, {"x": x, "i": i})
        assert_same_bits(dmlc.gather_nd(x, i, batch_dims=b), want)
    for t in (2, 3, 4):
        flat = rng.choice(int(np.prod(x.shape[:t])), 3, replace=False)
        i = np.stack(np.unravel_index(flat, x.shape[:t]), -1).astype(np.int64)
        i[0] -= np.array(x.shape[:t])                          # negative: counts from the end
        u = random_array(rng, (3,) + x.shape[t:], dtype)
        sess = ort.InferenceSession(nd_model("ScatterND", dtype, x.shape, i.shape), providers=["CPUExecutionProvider"])
        (want,) = sess.run(None, {"x": x, "i": i, "u": u})
        assert_same_bits(dmlc.scatter_nd(x, i, u), want)
