"""dmlc.gather against np.take (negative indices counted from the end, out-of-range ones
clamped), torch.index_select and ONNX Runtime's Gather: every dtype, every index dtype,
1 to 8 dimensions, 0-d indices, views, out=, empty arrays, threads, and wrong arguments."""
import numpy as np
import pytest

import dmlc
from reference import ref_gather
from support import ALL_DTYPES, assert_same_bits, random_array

INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    x = random_array(rng, (4, 5, 3), dtype)
    for axis in range(3):
        n = x.shape[axis]
        i = rng.integers(-n, n, (2, 3))
        y = dmlc.gather(x, i, axis)
        assert y.dtype == x.dtype and y.shape == x.shape[:axis] + (2, 3) + x.shape[axis + 1:]
        assert_same_bits(y, np.take(x, np.where(i < 0, i + n, i), axis))


@pytest.mark.parametrize("idx_dtype", INDEX_DTYPES)
def test_every_index_dtype(rng, idx_dtype):
    """int32/int64/uint32/uint64 go to the core as they are; narrower ones are widened."""
    x = random_array(rng, (6, 7), np.float32)
    info = np.iinfo(idx_dtype)
    vals = [0, 5, 6, 100, info.max] + ([-1, -6, -7, info.min] if info.min < 0 else [])
    i = np.array(vals, idx_dtype)
    y = dmlc.gather(x, i, 0)
    np.testing.assert_array_equal(y, ref_gather(x, i, 0))
    expected_rows = [0, 5, 5, 5, 5] + ([5, 0, 0, 0] if info.min < 0 else [])
    np.testing.assert_array_equal(y, x[expected_rows])


def test_out_of_range_clamps_as_np_take_clip():
    """The documented equivalence: np.take(x, where(i < 0, i + n, i), mode="clip")."""
    x = np.array([10, 11, 12, 13], np.int64)
    i = np.array([-1, -4, -5, -100, 3, 4, 2**40], np.int64)
    np.testing.assert_array_equal(dmlc.gather(x, i, 0), [13, 10, 10, 10, 13, 13, 13])
    np.testing.assert_array_equal(dmlc.gather(x, i, 0), np.take(x, np.where(i < 0, i + 4, i), 0, mode="clip"))
    # uint64 all ones is 2**64 - 1, not -1: the last element (NumPy's clip would read it as negative).
    np.testing.assert_array_equal(dmlc.gather(x, np.array([2**64 - 1], np.uint64), 0), [13])


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = [2, 3, 1, 2, 2, 1, 3, 2][:nd]
    x = random_array(rng, shape, np.int16)
    for axis in range(nd):
        q = min(2, 9 - nd)
        i = rng.integers(-shape[axis], shape[axis], (2, 1, 3)[:q])
        np.testing.assert_array_equal(dmlc.gather(x, i, axis), ref_gather(x, i, axis))
        np.testing.assert_array_equal(dmlc.gather(x, i, axis - nd), ref_gather(x, i, axis))


def test_zero_d_indices_remove_the_axis(rng):
    x = random_array(rng, (3, 4, 5), np.float64)
    assert_same_bits(dmlc.gather(x, 2, 1), x[:, 2])
    assert_same_bits(dmlc.gather(x, np.int8(-1), 0), x[-1])
    y = dmlc.gather(np.arange(4, dtype=np.float32), 9, 0)
    assert y.shape == () and y == 3


def test_result_of_eight_dimensions(rng):
    x = random_array(rng, (2, 1, 2, 1, 2), np.uint8)
    i = np.array([[[[1, 0]]]])                      # 4 dims: 5 + 4 - 1 = 8
    np.testing.assert_array_equal(dmlc.gather(x, i, 2), ref_gather(x, i, 2))
    with pytest.raises(ValueError, match=r"^gather: the result would have 9 dimensions \(x 5 \+ indices 5 - 1\), "
                                         r"expected at most 8$"):
        dmlc.gather(x, i[None], 2)


def test_views_and_broadcasts(rng):
    base = random_array(rng, (8, 10, 6), np.float32)
    for x in (base[::2, 1::3], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (5, 10, 6)), base[..., ::-1]):
        for axis in range(3):
            i = rng.integers(-x.shape[axis], x.shape[axis], (4,))
            assert_same_bits(dmlc.gather(x, i, axis), ref_gather(x, i, axis))
    i = np.broadcast_to(np.array([3, -1]), (3, 2))
    assert_same_bits(dmlc.gather(base, i, 1), ref_gather(base, i, 1))
    i = np.arange(20)[::-4]
    assert_same_bits(dmlc.gather(base, i, 1), ref_gather(base, i, 1))


def test_out(rng):
    x = random_array(rng, (5, 6), np.int32)
    i = np.array([4, 0, -2])
    out = np.empty((3, 6), np.int32)
    assert dmlc.gather(x, i, 0, out=out) is out
    np.testing.assert_array_equal(out, x[[4, 0, 3]])
    wide = np.zeros((3, 12), np.int32)
    assert dmlc.gather(x, i, 0, out=wide[:, ::2]) is not None
    np.testing.assert_array_equal(wide[:, ::2], x[[4, 0, 3]])
    assert np.all(wide[:, 1::2] == 0)
    with pytest.raises(ValueError, match=r"^out has shape \(3, 5\), expected \(3, 6\)$"):
        dmlc.gather(x, i, 0, out=np.empty((3, 5), np.int32))
    with pytest.raises(TypeError, match=r"^out has dtype int64, expected int32$"):
        dmlc.gather(x, i, 0, out=np.empty((3, 6), np.int64))


def test_out_overlapping_the_input_reads_a_copy():
    """out= may be x itself (a gather permuting rows in place): x is read from a copy."""
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    want = x[[3, 2, 1, 0]].copy()
    assert dmlc.gather(x, [3, 2, 1, 0], 0, out=x) is x
    np.testing.assert_array_equal(x, want)
    buf = np.arange(8, dtype=np.int32)
    dmlc.gather(buf, buf[4:].view(np.int32) - 4, 0, out=buf[4:])   # out overlaps the indices' memory
    np.testing.assert_array_equal(buf, [0, 1, 2, 3, 0, 1, 2, 3])


def test_empty_arrays(rng):
    x = random_array(rng, (3, 4), np.float32)
    assert dmlc.gather(x, np.zeros((0, 2), np.int64), 1).shape == (3, 0, 2)
    assert dmlc.gather(np.zeros((0, 4), np.float32), [1, 2], 1).shape == (0, 2)
    assert dmlc.gather(np.zeros((0, 4), np.float32), [], 0).shape == (0, 4)
    with pytest.raises(ValueError, match=r"^gather: x.shape\[0\] is 0: there is nothing to gather from$"):
        dmlc.gather(np.zeros((0, 4), np.float32), [0], 0)


def test_threads_give_the_same_result(rng):
    x = random_array(rng, (3000, 64), np.float32)
    i = rng.integers(-4000, 4000, (40, 100))
    want = ref_gather(x, i, 0)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.gather(x, i, 0), want)
            assert_same_bits(dmlc.gather(x.T, i % 64, 0), ref_gather(x.T, i % 64, 0))
    finally:
        dmlc.set_num_threads(old)


@pytest.mark.parametrize("dtype, idx_dtype", [(np.uint8, np.int32), (np.float16, np.uint32), (np.float32, np.int64),
                                              (np.float64, np.uint64)])
def test_rows_along_an_inner_axis(rng, dtype, idx_dtype):
    """Single elements along an inner axis (the table of offsets read once per range, the
    next row prefetched where its row is contiguous and no longer than the indices need):
    every element size, rows with and without the prefetch, index counts off the groups
    of 8 and past one table (4096), out-of-range and negative indices clamped, packed and
    strided outputs, and ranges split mid-row on 1 to 3 threads."""
    old = dmlc.get_num_threads()
    try:
        for rows, n, m in [(37, 300, 1029), (5, 64, 4099), (9, 3000, 17), (3, 5, 7), (70, 40, 200)]:
            x = random_array(rng, (rows, n), dtype)
            lo = -2 * n if np.dtype(idx_dtype).kind == "i" else 0
            i = rng.integers(lo, 2 * n, (m,)).astype(idx_dtype)
            want = ref_gather(x, i, 1)
            for threads in (1, 2, 3):
                dmlc.set_num_threads(threads)
                assert_same_bits(dmlc.gather(x, i, 1), want)
                wide = np.zeros((rows, 2 * m), dtype)
                dmlc.gather(x, i, 1, out=wide[:, ::2])
                assert_same_bits(wide[:, ::2], want)
                assert not wide[:, 1::2].any()
            assert_same_bits(dmlc.gather(x[:, ::2], i, 1), ref_gather(x[:, ::2], i, 1))
    finally:
        dmlc.set_num_threads(old)


def test_wrong_arguments(rng):
    x = random_array(rng, (3, 4), np.float32)
    with pytest.raises(ValueError, match=r"^gather: axis is 2, expected -2 to 1 for arrays of 2 dimensions$"):
        dmlc.gather(x, [0], 2)
    with pytest.raises(ValueError, match=r"^gather: axis is -3, expected -2 to 1 for arrays of 2 dimensions$"):
        dmlc.gather(x, [0], -3)
    with pytest.raises(TypeError, match=r"^gather: axis must be an int, not bool$"):
        dmlc.gather(x, [0], True)
    with pytest.raises(TypeError, match=r"^gather: axis must be an int, not float$"):
        dmlc.gather(x, [0], 1.0)
    assert dmlc.gather(x, [0], np.int64(1)).shape == (3, 1)
    with pytest.raises(TypeError, match=r"^gather: indices has dtype float64, expected an integer dtype$"):
        dmlc.gather(x, [0.5], 0)
    with pytest.raises(TypeError, match=r"^gather: indices has dtype bool, expected an integer dtype$"):
        dmlc.gather(x, np.array([True]), 0)
    with pytest.raises(ValueError, match=r"^gather: x has 0 dimensions, expected 1 to 8$"):
        dmlc.gather(np.float32(1), [0], 0)
    with pytest.raises(ValueError, match=r"^gather: x has 9 dimensions, expected 1 to 8$"):
        dmlc.gather(np.zeros((1,) * 9, np.float32), [0], 0)
    with pytest.raises(TypeError, match=r"x has dtype bool"):
        dmlc.gather(np.array([True, False]), [0], 0)


# ---- oracles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8])
def test_torch_index_select(rng, dtype):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (5, 6, 7), dtype)
    for axis in range(3):
        i = rng.integers(0, x.shape[axis], (9,))
        want = torch.index_select(torch.from_numpy(x), axis, torch.from_numpy(i)).numpy()
        assert_same_bits(dmlc.gather(x, i, axis), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint16])
def test_onnxruntime_gather(rng, dtype):
    """ONNX Gather (in-range and negative indices; ONNX leaves out-of-range ones an error)."""
    ort = pytest.importorskip("onnxruntime")
    from dmlc.bench.gather import onnx_model
    x = random_array(rng, (4, 5, 6), dtype)
    for axis in range(3):
        i = rng.integers(-x.shape[axis], x.shape[axis], (2, 3)).astype(np.int64)
        sess = ort.InferenceSession(onnx_model(dtype, x.shape, i.shape, axis), providers=["CPUExecutionProvider"])
        (want,) = sess.run(None, {"x": x, "i": i})
        assert_same_bits(dmlc.gather(x, i, axis), want)
