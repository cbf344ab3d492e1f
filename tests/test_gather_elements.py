"""dmlc.gather_elements and dmlc.scatter_elements against NumPy (np.take_along_axis after
the indices are adjusted and clamped; a scatter applied one update at a time in row-major
order), torch.gather / torch.Tensor.scatter and ONNX Runtime's GatherElements /
ScatterElements: every dtype, every index dtype, 1 to 8 dimensions, views, out= (in place
for the scatter), duplicates, out-of-range indices, empty arrays, threads, wrong arguments."""
import numpy as np
import pytest

import dmlc
from reference import ref_gather_elements, ref_scatter_elements
from support import ALL_DTYPES, assert_same_bits, random_array

INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _indices(rng, shape, axis, n, dtype=np.int64, spill=2):
    """Random indices of `shape` for an axis of size n, `spill` past either end."""
    lo = -n - spill if np.dtype(dtype).kind == "i" else 0
    return rng.integers(lo, n + spill, shape).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    """Each dtype on one of the three axes (sampled), indices in and out of range."""
    x = random_array(rng, (4, 5, 3), dtype)
    axis = ALL_DTYPES.index(dtype) % 3
    ishape = list(x.shape)
    ishape[axis] = 6
    i = _indices(rng, ishape, axis, x.shape[axis])
    y = dmlc.gather_elements(x, i, axis)
    assert y.dtype == x.dtype and y.shape == tuple(ishape)
    assert_same_bits(y, ref_gather_elements(x, i, axis))
    u = random_array(rng, ishape, dtype)
    z = dmlc.scatter_elements(x, i, u, axis)
    assert z.dtype == x.dtype and z.shape == x.shape
    assert_same_bits(z, ref_scatter_elements(x, i, u, axis))


@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES)
def test_every_index_dtype(idx_dtype):
    """Signed: negative counts from the end, below -n clamps to 0 (gather) or writes nothing
    (scatter); unsigned values are never negative (all ones is past the end)."""
    x = np.array([[10, 11, 12, 13, 14, 15]], np.int32)
    info = np.iinfo(idx_dtype)
    vals = [0, 5, 6, 100, info.max] + ([-1, -6, -7, info.min] if info.min < 0 else [])
    i = np.array([vals], idx_dtype)
    want = [10, 15, 15, 15, 15] + ([15, 10, 10, 10] if info.min < 0 else [])
    np.testing.assert_array_equal(dmlc.gather_elements(x, i, 1), [want])
    np.testing.assert_array_equal(dmlc.gather_elements(x, i, 1), ref_gather_elements(x, i, 1))
    u = np.arange(100, 100 + len(vals), dtype=np.int32)[None]
    # In range: 0 -> 100, 5 -> 101, then -1 -> 105 (the later duplicate of 5 wins), -6 -> 106 (0 again).
    want = [100, 11, 12, 13, 14, 101] if info.min >= 0 else [106, 11, 12, 13, 14, 105]
    np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, 1), [want])
    np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, 1), ref_scatter_elements(x, i, u, 1))


def test_documented_numpy_equivalence():
    """gather_elements(x, i, axis) is np.take_along_axis(x, np.clip(i, -n, n - 1), axis)."""
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    i = np.array([[-9, -1, 0, 3, 4, 2**40]] * 3)
    np.testing.assert_array_equal(dmlc.gather_elements(x, i, 1), np.take_along_axis(x, np.clip(i, -4, 3), 1))
    np.testing.assert_array_equal(dmlc.gather_elements(x, np.array([[2**64 - 1]] * 3, np.uint64), 1), x[:, 3:])


def test_scatter_duplicates_the_later_wins():
    """dmlc's rule (DirectML leaves it open): updates apply in row-major order of updates."""
    x = np.zeros((2, 3), np.float32)
    i = np.array([[1, 1, 1], [1, 0, 1]])
    u = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, 0), [[0, 5, 0], [4, 2, 6]])
    np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, 1), [[0, 3, 0], [5, 6, 0]])
    # np.put_along_axis agrees (it writes in the same order).
    want = x.copy()
    np.put_along_axis(want, i, u, 1)
    np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, 1), want)


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = [2, 3, 1, 2, 2, 1, 3, 2][:nd]
    dtype = ALL_DTYPES[nd % len(ALL_DTYPES)]
    x = random_array(rng, shape, dtype)
    for axis in range(nd):
        ishape = list(shape)
        ishape[axis] = 1 + (axis + nd) % 4
        i = _indices(rng, ishape, axis, shape[axis], [np.int32, np.int64, np.uint32, np.uint64][axis % 4])
        assert_same_bits(dmlc.gather_elements(x, i, axis), ref_gather_elements(x, i, axis))
        assert_same_bits(dmlc.gather_elements(x, i, axis - nd), ref_gather_elements(x, i, axis))
        u = random_array(rng, ishape, dtype)
        assert_same_bits(dmlc.scatter_elements(x, i, u, axis - nd), ref_scatter_elements(x, i, u, axis))


def test_views_and_broadcasts(rng):
    base = random_array(rng, (8, 10, 6), np.float32)
    views = (base[::2, 1::3], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (5, 10, 6)), base[..., ::-1])
    for k, x in enumerate(views):
        axis = k % 3
        ishape = list(x.shape)
        ishape[axis] = 3
        i = _indices(rng, ishape, axis, x.shape[axis])
        u = random_array(rng, (12,) + tuple(ishape), np.float32)[::4][0]
        assert_same_bits(dmlc.gather_elements(x, i, axis), ref_gather_elements(x, i, axis))
        assert_same_bits(dmlc.gather_elements(x, i.T.copy().T, axis), ref_gather_elements(x, i, axis))
        assert_same_bits(dmlc.scatter_elements(x, i, u, axis), ref_scatter_elements(x, i, u, axis))
    i = np.broadcast_to(np.array([[[3]], [[-1]]]), (2, 10, 6))
    assert_same_bits(dmlc.gather_elements(base, i, 0), ref_gather_elements(base, i, 0))


def test_out(rng):
    x = random_array(rng, (5, 6), np.int32)
    i = np.array([[4, 0, -2]] * 5)
    out = np.empty((5, 3), np.int32)
    assert dmlc.gather_elements(x, i, 1, out=out) is out
    np.testing.assert_array_equal(out, x[:, [4, 0, 4]])
    wide = np.zeros((5, 12), np.int32)
    u = np.full((5, 3), -1, np.int32)
    assert dmlc.scatter_elements(x, i, u, 1, out=wide[:, ::2]) is not None
    np.testing.assert_array_equal(wide[:, ::2], ref_scatter_elements(x, i, u, 1))
    assert np.all(wide[:, 1::2] == 0)
    with pytest.raises(ValueError, match=r"^out has shape \(5, 6\), expected \(5, 3\)$"):
        dmlc.gather_elements(x, i, 1, out=np.empty((5, 6), np.int32))
    with pytest.raises(TypeError, match=r"^out has dtype int64, expected int32$"):
        dmlc.scatter_elements(x, i, u, 1, out=np.empty((5, 6), np.int64))


def test_scatter_in_place_and_overlap():
    """out=x updates x in place (torch's scatter_); other sharing of memory is refused."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    keep = x.copy()
    y = dmlc.scatter_elements(x, [[0], [1], [-1]], np.array([[-1], [-2], [-3]], np.float32), 1)
    np.testing.assert_array_equal(x, keep)                    # a new array: x unchanged
    assert dmlc.scatter_elements(x, [[0], [1], [-1]], np.array([[-1], [-2], [-3]], np.float32), 1, out=x) is x
    np.testing.assert_array_equal(x, y)
    t = np.arange(24, dtype=np.int64).reshape(4, 6)[:, ::2]  # a strided view, in place too
    want = ref_scatter_elements(t, [[2]] * 4, np.full((4, 1), 99), 1)
    dmlc.scatter_elements(t, [[2]] * 4, np.full((4, 1), 99), 1, out=t)
    np.testing.assert_array_equal(t, want)
    buf = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match=r"^scatter_elements: out shares memory with x without being x itself$"):
        dmlc.scatter_elements(buf[:4], [0], [1.0], 0, out=buf[2:6])
    with pytest.raises(ValueError, match=r"^scatter_elements: out shares memory with updates$"):
        dmlc.scatter_elements(np.zeros(4, np.float32), [0, 1], buf[:2], 0, out=buf[:4])
    ibuf = np.zeros(4, np.int32)
    with pytest.raises(ValueError, match=r"^scatter_elements: out shares memory with indices$"):
        dmlc.scatter_elements(np.zeros(4, np.int32), ibuf[:2], np.ones(2, np.int32), 0, out=ibuf)
    assert np.all(buf == 0) and np.all(ibuf == 0)


def test_gather_out_overlapping_an_input_reads_a_copy():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    want = ref_gather_elements(x, [[3, 2, 1, 0]] * 3, 1)
    assert dmlc.gather_elements(x, [[3, 2, 1, 0]] * 3, 1, out=x) is x
    np.testing.assert_array_equal(x, want)


def test_empty_arrays(rng):
    x = random_array(rng, (3, 4), np.float32)
    assert dmlc.gather_elements(x, np.zeros((3, 0), np.int64), 1).shape == (3, 0)
    assert dmlc.gather_elements(np.zeros((0, 4), np.float32), np.zeros((0, 4), np.int32), 1).shape == (0, 4)
    with pytest.raises(ValueError, match=r"^gather_elements: x.shape\[1\] is 0: there is nothing to gather from$"):
        dmlc.gather_elements(np.zeros((3, 0), np.float32), np.zeros((3, 2), np.int32), 1)
    z = dmlc.scatter_elements(x, np.zeros((3, 0), np.int64), np.zeros((3, 0), np.float32), 1)
    assert z is not x
    assert_same_bits(z, x)
    assert dmlc.scatter_elements(np.zeros((0, 4), np.int8), np.zeros((0, 2), np.int32), np.zeros((0, 2), np.int8),
                                 1).shape == (0, 4)


def test_threads_give_the_same_result(rng):
    x = random_array(rng, (300, 64), np.float32)
    i = rng.integers(-80, 80, (300, 50))
    u = random_array(rng, (300, 50), np.float32)
    i0 = rng.integers(-400, 400, (40, 64))
    u0 = random_array(rng, (40, 64), np.float32)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.gather_elements(x, i, 1), ref_gather_elements(x, i, 1))
            assert_same_bits(dmlc.scatter_elements(x, i, u, 1), ref_scatter_elements(x, i, u, 1))
            assert_same_bits(dmlc.scatter_elements(x, i0, u0, 0), ref_scatter_elements(x, i0, u0, 0))
    finally:
        dmlc.set_num_threads(old)


@pytest.mark.parametrize("dtype, idx_dtype", [(np.float32, np.int64), (np.int64, np.int32), (np.uint8, np.uint64),
                                              (np.float16, np.uint32), (np.int32, np.int32), (np.float64, np.int64)])
def test_rows_along_the_last_axis(rng, dtype, idx_dtype):
    """The last axis with packed output and indices (constant steps, the next row of x
    prefetched where it is contiguous and no longer than the indices need): every element
    size, index counts off the groups of 8, the index type's extremes clamped, a strided x,
    and ranges split across rows on 1 to 3 threads; the scatter through the same rows."""
    info = np.iinfo(idx_dtype)
    old = dmlc.get_num_threads()
    try:
        for rows, n, m in [(37, 300, 1029), (6, 64, 13), (9, 3000, 17), (20, 5, 7)]:
            x = random_array(rng, (rows, n), dtype)
            i = _indices(rng, (rows, m), 1, n, idx_dtype, spill=n)
            i.reshape(-1)[::11] = info.max
            i.reshape(-1)[5::11] = info.min
            want = ref_gather_elements(x, i, 1)
            for threads in (1, 2, 3):
                dmlc.set_num_threads(threads)
                assert_same_bits(dmlc.gather_elements(x, i, 1), want)
            assert_same_bits(dmlc.gather_elements(x[:, ::2], i, 1), ref_gather_elements(x[:, ::2], i, 1))
            u = random_array(rng, (rows, m), dtype)
            assert_same_bits(dmlc.scatter_elements(x, i, u, 1), ref_scatter_elements(x, i, u, 1))
    finally:
        dmlc.set_num_threads(old)


@pytest.mark.parametrize("fname", ["gather_elements", "scatter_elements"])
def test_wrong_arguments(rng, fname):
    x = random_array(rng, (3, 4), np.float32)

    def call(x, i, axis, u=None):
        if fname == "gather_elements":
            return dmlc.gather_elements(x, i, axis)
        i = np.asarray(i)
        return dmlc.scatter_elements(x, i, np.zeros(i.shape, x.dtype) if u is None else u, axis)

    with pytest.raises(ValueError, match=rf"^{fname}: axis is 2, expected -2 to 1 for arrays of 2 dimensions$"):
        call(x, [[0]] * 3, 2)
    with pytest.raises(ValueError, match=rf"^{fname}: axis is -3, expected -2 to 1 for arrays of 2 dimensions$"):
        call(x, [[0]] * 3, -3)
    with pytest.raises(TypeError, match=rf"^{fname}: axis must be an int, not bool$"):
        call(x, [[0]] * 3, True)
    with pytest.raises(TypeError, match=rf"^{fname}: axis must be an int, not float$"):
        call(x, [[0]] * 3, 1.0)
    assert call(x, [[0]] * 3, np.int64(1)).shape == ((3, 1) if fname == "gather_elements" else (3, 4))
    with pytest.raises(TypeError, match=rf"^{fname}: indices has dtype float64, expected an integer dtype$"):
        call(x, np.zeros((3, 1)), 1)
    with pytest.raises(TypeError, match=rf"^{fname}: indices has dtype bool, expected an integer dtype$"):
        call(x, np.zeros((3, 1), bool), 1)
    with pytest.raises(ValueError, match=rf"^{fname}: indices has 1 dimensions, expected 2 \(x.ndim\)$"):
        call(x, [0], 1)
    with pytest.raises(ValueError, match=rf"^{fname}: indices.shape\[0\] is 2, expected 3 "
                                         r"\(x.shape\[0\]; only axis 1 may differ\)$"):
        call(x, [[0]] * 2, 1)
    with pytest.raises(ValueError, match=rf"^{fname}: indices.shape\[1\] is 0, expected 4 "
                                         r"\(x.shape\[1\]; only axis 0 may differ\)$"):
        call(x, np.zeros((3, 0), np.int32), 0)                # checked for empty indices too
    with pytest.raises(ValueError, match=rf"^{fname}: x has 0 dimensions, expected 1 to 8$"):
        call(np.float32(1), [0], 0)
    with pytest.raises(ValueError, match=rf"^{fname}: x has 9 dimensions, expected 1 to 8$"):
        call(np.zeros((1,) * 9, np.float32), np.zeros((1,) * 9, np.int32), 0)
    with pytest.raises(TypeError, match=r"x has dtype bool"):
        call(np.array([True, False]), [0], 0)


def test_scatter_wrong_updates(rng):
    x = random_array(rng, (3, 4), np.float32)
    i = np.zeros((3, 2), np.int32)
    with pytest.raises(TypeError, match=r"^scatter_elements: updates has dtype float64, expected float32 "
                                        r"\(x's dtype\)$"):
        dmlc.scatter_elements(x, i, np.zeros((3, 2)), 1)
    with pytest.raises(ValueError, match=r"^scatter_elements: updates has shape \(3, 1\), expected \(3, 2\) "
                                         r"\(indices.shape\)$"):
        dmlc.scatter_elements(x, i, np.zeros((3, 1), np.float32), 1)
    with pytest.raises(TypeError, match=r"^updates has dtype complex128, which dmlc does not support"):
        dmlc.scatter_elements(np.zeros(2, np.float32), [0], np.array([1j]), 0)
    # A list takes x's dtype.
    y = dmlc.scatter_elements(x, i, [[1, 2]] * 3, 1)
    assert y.dtype == np.float32 and np.all(y[:, 0] == 2)     # both update column 0: the later wins
    assert_same_bits(y[:, 1:], x[:, 1:])


# ---- oracles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8])
def test_torch_gather_and_scatter(rng, dtype):
    """In-range indices, and for the scatter distinct targets (PyTorch leaves duplicates open)."""
    torch = pytest.importorskip("torch")
    x = random_array(rng, (5, 6, 7), dtype)
    for axis in range(3):
        ishape = list(x.shape)
        ishape[axis] = 4
        i = rng.integers(0, x.shape[axis], ishape)
        want = torch.gather(torch.from_numpy(x), axis, torch.from_numpy(i)).numpy()
        assert_same_bits(dmlc.gather_elements(x, i, axis), want)
        perm = np.argsort(rng.random(x.shape), axis=axis)    # distinct along the axis
        i = np.take(perm, range(4), axis=axis)
        u = random_array(rng, ishape, dtype)
        want = torch.from_numpy(x).scatter(axis, torch.from_numpy(i), torch.from_numpy(u)).numpy()
        assert_same_bits(dmlc.scatter_elements(x, i, u, axis), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint16])
def test_onnxruntime_gather_and_scatter_elements(rng, dtype):
    """ONNX GatherElements and ScatterElements (in-range and negative indices; ONNX leaves
    out-of-range ones an error), with duplicate targets: ONNX Runtime's CPU applies the
    updates in order, as dmlc does."""
    ort = pytest.importorskip("onnxruntime")
    from dmlc.bench.gather import elements_model
    x = random_array(rng, (4, 5, 6), dtype)
    for axis in range(3):
        ishape = list(x.shape)
        ishape[axis] = 3
        i = rng.integers(-x.shape[axis], x.shape[axis], ishape).astype(np.int64)
        u = random_array(rng, ishape, dtype)
        for op, feeds, got in [("GatherElements", {"x": x, "i": i}, dmlc.gather_elements(x, i, axis)),
                               ("ScatterElements", {"x": x, "i": i, "u": u}, dmlc.scatter_elements(x, i, u, axis))]:
            sess = ort.InferenceSession(elements_model(op, dtype, x.shape, i.shape, axis),
                                        providers=["CPUExecutionProvider"])
            (want,) = sess.run(None, feeds)
            assert_same_bits(got, want)
