"""dmlc.reverse_subsequences against NumPy (np.take_along_axis of the reversed positions) and
ONNX Runtime's ReverseSequence: every dtype, every lengths dtype, 1 to 8 dimensions and every
axis, views and broadcasts, out=, lengths 0, 1 and past the end, empty arrays, threads, wrong
arguments."""
import numpy as np
import pytest

import dmlc
from reference import ref_reverse_subsequences
from support import ALL_DTYPES, assert_same_bits, random_array

LENGTH_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
PAGE_X = np.arange(1, 13, dtype=np.float32).reshape(3, 4)


def _lengths(rng, x, axis, dtype=np.int64, spill=3):
    """Random lengths for x's sequences along axis: 0 to n + spill (past the end too)."""
    shape = x.shape[:axis] + x.shape[axis + 1:]
    return rng.integers(0, x.shape[axis] + spill, shape).astype(dtype)


def test_the_pages_examples():
    """DirectML's page: example 1 (Axis 3 of {1,1,3,4}), example 2 (Axis 2, lengths 1 and 0 copy)."""
    x = PAGE_X.reshape(1, 1, 3, 4)
    np.testing.assert_array_equal(dmlc.reverse_subsequences(x, np.array([2, 4, 3], np.uint32).reshape(1, 1, 3, 1), 3),
                                  [[[[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]]]])
    np.testing.assert_array_equal(dmlc.reverse_subsequences(x, np.array([[[[2, 3, 1, 0]]]], np.uint32), 2),
                                  [[[[5, 10, 3, 4], [1, 6, 7, 8], [9, 2, 11, 12]]]])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    """Each dtype on one of the three axes (sampled), lengths from 0 to past the end."""
    x = random_array(rng, (4, 5, 6), dtype)
    axis = ALL_DTYPES.index(dtype) % 3
    lengths = _lengths(rng, x, axis, LENGTH_DTYPES[ALL_DTYPES.index(dtype) % 8])
    y = dmlc.reverse_subsequences(x, lengths, axis)
    assert y.dtype == x.dtype and y.shape == x.shape
    assert_same_bits(y, ref_reverse_subsequences(x, np.expand_dims(lengths, axis), axis))


@pytest.mark.parametrize("dtype", LENGTH_DTYPES)
def test_every_lengths_dtype(dtype):
    """Any integer dtype; a length past n (the dtype's largest too) reverses everything."""
    x = np.arange(6 * 7, dtype=np.int16).reshape(6, 7)
    vals = np.array([0, 1, 2, 7, 8, np.iinfo(dtype).max], dtype)
    want = [row[:min(int(v), 7)][::-1].tolist() + row[min(int(v), 7):].tolist() for row, v in zip(x, vals)]
    np.testing.assert_array_equal(dmlc.reverse_subsequences(x, vals, 1), want)
    np.testing.assert_array_equal(dmlc.reverse_subsequences(x.T, vals, 0), np.array(want).T)


def test_documented_numpy_equivalence(rng):
    """The docstring's NumPy statement, with the axis moved last."""
    x = random_array(rng, (3, 9, 4), np.float64)
    lengths = rng.integers(0, 12, (3, 4))
    xm = np.moveaxis(x, 1, -1)
    L = np.minimum(lengths, 9)[..., None]
    i = np.arange(9)
    want = np.moveaxis(np.take_along_axis(xm, np.where(i < L, L - 1 - i, i), -1), -1, 1)
    assert_same_bits(dmlc.reverse_subsequences(x, lengths, 1), want)


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = [3, 2, 4, 1, 2, 3, 2, 2][:nd]
    dtype = ALL_DTYPES[nd % len(ALL_DTYPES)]
    x = random_array(rng, shape, dtype)
    for axis in range(nd):
        lengths = _lengths(rng, x, axis, [np.uint32, np.int64, np.uint64, np.int32][axis % 4])
        want = ref_reverse_subsequences(x, np.expand_dims(lengths, axis), axis)
        assert_same_bits(dmlc.reverse_subsequences(x, lengths, axis), want)
        assert_same_bits(dmlc.reverse_subsequences(x, np.expand_dims(lengths, axis), axis - nd), want)


def test_views_and_broadcasts(rng):
    """Strided, transposed, reversed (copied) and broadcast x; broadcast lengths (stride 0,
    ONNX's one length per batch); a strided out=."""
    base = random_array(rng, (8, 10, 6), np.float32)
    views = (base[::2, 1::3], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (5, 10, 6)), base[..., ::-1])
    for k, x in enumerate(views):
        for axis in range(3):
            lengths = _lengths(rng, x, axis, np.int32)
            want = ref_reverse_subsequences(x, np.expand_dims(lengths, axis), axis)
            assert_same_bits(dmlc.reverse_subsequences(x, lengths, axis), want)
            assert_same_bits(dmlc.reverse_subsequences(x, lengths.T.copy().T, axis), want)
    x = random_array(rng, (7, 4, 5), np.int64)
    per_batch = np.array([0, 3, 9, 5], np.uint64)
    want = ref_reverse_subsequences(x, per_batch[None, :, None], 0)
    assert_same_bits(dmlc.reverse_subsequences(x, per_batch[:, None], 0), want)      # broadcast over axis 2
    assert_same_bits(dmlc.reverse_subsequences(x, np.broadcast_to(per_batch[:, None], (4, 5)), 0), want)
    assert_same_bits(dmlc.reverse_subsequences(x, 3, 0), ref_reverse_subsequences(x, 3, 0))  # one for all
    wide = np.zeros((7, 4, 10), np.int64)
    assert dmlc.reverse_subsequences(x, per_batch[:, None], 0, out=wide[..., ::2]) is not None
    assert_same_bits(wide[..., ::2], want)
    assert np.all(wide[..., 1::2] == 0)


def test_out(rng):
    x = random_array(rng, (5, 6), np.int32)
    out = np.empty((5, 6), np.int32)
    assert dmlc.reverse_subsequences(x, [6, 0, 1, 2, 5], 1, out=out) is out
    assert_same_bits(out, ref_reverse_subsequences(x, [[6], [0], [1], [2], [5]], 1))
    with pytest.raises(ValueError, match=r"^out has shape \(5, 3\), expected \(5, 6\)$"):
        dmlc.reverse_subsequences(x, [1] * 5, 1, out=np.empty((5, 3), np.int32))
    with pytest.raises(TypeError, match=r"^out has dtype int64, expected int32$"):
        dmlc.reverse_subsequences(x, [1] * 5, 1, out=np.empty((5, 6), np.int64))


def test_out_sharing_memory_with_an_input_is_refused():
    """Every element reads another one, so out= may not share x's memory (x itself
    included) nor the lengths'; nothing is written."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    keep = x.copy()
    with pytest.raises(ValueError, match=r"^reverse_subsequences: out shares memory with x$"):
        dmlc.reverse_subsequences(x, [4, 4, 4], 1, out=x)
    buf = np.arange(16, dtype=np.float32)
    with pytest.raises(ValueError, match=r"^reverse_subsequences: out shares memory with x$"):
        dmlc.reverse_subsequences(buf[:8], [8], 0, out=buf[4:12])
    lbuf = np.array([1, 2, 3, 4], np.int32)
    with pytest.raises(ValueError, match=r"^reverse_subsequences: out shares memory with lengths$"):
        dmlc.reverse_subsequences(np.zeros((4, 1), np.int32), lbuf, 1, out=lbuf.reshape(4, 1))
    assert_same_bits(x, keep)
    np.testing.assert_array_equal(buf, np.arange(16))
    np.testing.assert_array_equal(lbuf, [1, 2, 3, 4])


def test_empty_arrays():
    assert dmlc.reverse_subsequences(np.zeros((3, 0), np.float32), [1, 2, 3], 1).shape == (3, 0)
    assert dmlc.reverse_subsequences(np.zeros((0, 4), np.int8), [], 1).shape == (0, 4)
    assert dmlc.reverse_subsequences(np.zeros((0, 4), np.int8), np.zeros(4, np.uint64), 0).shape == (0, 4)
    with pytest.raises(ValueError, match=r"^reverse_subsequences: lengths has shape \(2,\), which does not "
                                         r"broadcast to \(0,\) \(x.shape without axis 1\)$"):
        dmlc.reverse_subsequences(np.zeros((0, 4), np.int8), [1, 2], 1)


def test_long_rows_cut_into_pieces_and_threads(rng):
    """Few long sequences (split across threads in pieces), many short ones; 1 and 3
    threads give the same bits."""
    cases = [(random_array(rng, (2, 90000), np.float32), 1, np.array([90000, 50001])),
             (random_array(rng, (3, 40000), np.uint16), 0, rng.integers(0, 4, 40000)),
             (random_array(rng, (300, 64), np.float64), 1, rng.integers(0, 70, 300)),
             (random_array(rng, (64, 300), np.int8), 0, rng.integers(0, 70, 300))]
    old = dmlc.get_num_threads()
    try:
        for n in (1, 3):
            dmlc.set_num_threads(n)
            for x, axis, lengths in cases:
                want = ref_reverse_subsequences(x, np.expand_dims(lengths, axis), axis)
                assert_same_bits(dmlc.reverse_subsequences(x, lengths, axis), want)
    finally:
        dmlc.set_num_threads(old)


def test_wrong_arguments(rng):
    f = "reverse_subsequences"
    x = random_array(rng, (3, 4), np.float32)
    with pytest.raises(ValueError, match=rf"^{f}: axis is 2, expected -2 to 1 \(x has 2 dimensions\)$"):
        dmlc.reverse_subsequences(x, [1] * 3, 2)
    with pytest.raises(ValueError, match=rf"^{f}: axis is -3, expected -2 to 1 \(x has 2 dimensions\)$"):
        dmlc.reverse_subsequences(x, [1] * 3, -3)
    with pytest.raises(TypeError, match=rf"^{f}: axis must be an int, not bool$"):
        dmlc.reverse_subsequences(x, [1] * 3, True)
    with pytest.raises(TypeError, match=rf"^{f}: axis must be an int, not float$"):
        dmlc.reverse_subsequences(x, [1] * 3, 1.0)
    assert dmlc.reverse_subsequences(x, [1] * 3, np.int64(1)).shape == (3, 4)
    with pytest.raises(TypeError, match=rf"^{f}: lengths has dtype float64, expected an integer dtype$"):
        dmlc.reverse_subsequences(x, np.ones(3), 1)
    with pytest.raises(TypeError, match=rf"^{f}: lengths has dtype bool, expected an integer dtype$"):
        dmlc.reverse_subsequences(x, np.ones(3, bool), 1)
    with pytest.raises(ValueError, match=rf"^{f}: lengths holds -1, expected lengths of 0 or more$"):
        dmlc.reverse_subsequences(x, np.array([2, -1, 0], np.int8), 1)
    with pytest.raises(ValueError, match=rf"^{f}: lengths holds -5, expected lengths of 0 or more$"):
        dmlc.reverse_subsequences(x, [[-5], [1], [2]], 1)
    with pytest.raises(ValueError, match=rf"^{f}: lengths has shape \(4,\), which does not broadcast to \(3,\) "
                                         r"\(x.shape without axis 1\)$"):
        dmlc.reverse_subsequences(x, [1] * 4, 1)
    with pytest.raises(ValueError, match=rf"^{f}: lengths has shape \(2, 3, 1\), which does not broadcast to \(4,\) "
                                         r"\(x.shape without axis 0\)$"):
        dmlc.reverse_subsequences(x, np.ones((2, 3, 1), np.int32), 0)
    with pytest.raises(ValueError, match=rf"^{f}: lengths.shape\[1\] is 4, expected 1 \(one length per sequence "
                                         r"along axis 1\)$"):
        dmlc.reverse_subsequences(x, np.ones((3, 4), np.int32), 1)
    with pytest.raises(ValueError, match=rf"^{f}: x has 0 dimensions, expected 1 to 8$"):
        dmlc.reverse_subsequences(np.float32(1), 1, 0)
    with pytest.raises(ValueError, match=rf"^{f}: x has 9 dimensions, expected 1 to 8$"):
        dmlc.reverse_subsequences(np.zeros((1,) * 9, np.float32), 1, 0)
    with pytest.raises(TypeError, match=r"x has dtype bool"):
        dmlc.reverse_subsequences(np.array([True, False]), [1], 0)
    with pytest.raises(TypeError, match=r"x has dtype complex128"):
        dmlc.reverse_subsequences(np.array([1j, 2j]), [1], 0)


# ---- oracles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,time_axis", [(np.float32, 0), (np.float64, 1), (np.int32, 0), (np.uint8, 1),
                                             (np.float16, 0), (np.int64, 1)])
def test_onnxruntime_reverse_sequence(rng, dtype, time_axis):
    """ONNX ReverseSequence (time and batch axes 0 and 1, a per-batch length, lengths 1 to
    T as ONNX requires): dmlc's axis is the time axis, the lengths broadcast over the
    feature axes."""
    ort = pytest.importorskip("onnxruntime")
    from dmlc.bench.reverse import reverse_sequence_model
    shape = (6, 5, 3) if time_axis == 0 else (5, 6, 3)
    x = random_array(rng, shape, dtype)
    lens = rng.integers(1, 7, 5).astype(np.int64)
    sess = ort.InferenceSession(reverse_sequence_model(dtype, shape, time_axis),
                                providers=["CPUExecutionProvider"])
    (want,) = sess.run(None, {"x": x, "lens": lens})
    assert_same_bits(dmlc.reverse_subsequences(x, lens[:, None], time_axis), want)


def test_torch_flip_per_sequence(rng):
    """torch.flip of each sequence's first L elements (the bench's PyTorch formulation)."""
    torch = pytest.importorskip("torch")
    x = random_array(rng, (9, 4, 3), np.float32)
    lens = rng.integers(0, 12, 4)
    t = torch.from_numpy(x).clone()
    for b, L in enumerate(lens):
        L = min(int(L), 9)
        t[:L, b] = torch.flip(t[:L, b], [0])
    assert_same_bits(dmlc.reverse_subsequences(x, lens[:, None], 0), t.numpy())


def test_kernel_paths(rng):
    """Each way the core cuts the work, against the reference: whole sequences of blocks (the
    axis followed by one packed run, one length per sequence), rows whose source run is
    prefetched (axis 0 with one length per batch), per-element lengths, and outputs of
    16 MiB, written with non-temporal stores, along every axis."""
    cases = [((64, 50, 40), 1, (64, 1)), ((50, 16, 128), 0, (16, 1)), ((50, 16, 128), 0, (16, 128)),
             ((40, 3, 50), 1, (40, 50)), ((64, 64, 1024), 0, (64, 1)), ((16, 256, 1024), 1, (16, 1)),
             ((2, 2048, 1024), 1, (2, 1)), ((1024, 4096), 1, (1024,))]
    for shape, axis, lshape in cases:
        x = random_array(rng, shape, np.float32)
        lengths = rng.integers(0, shape[axis] + 2, lshape)
        full = np.expand_dims(np.broadcast_to(lengths, shape[:axis] + shape[axis + 1:]), axis)
        assert_same_bits(dmlc.reverse_subsequences(x, lengths, axis), ref_reverse_subsequences(x, full, axis))
