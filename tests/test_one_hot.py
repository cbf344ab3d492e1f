"""dmlc.one_hot: the NumPy reference (tests/reference.py) over every dtype, every integer
index dtype, 0 to 7 index dimensions (results of 1 to 8) and every axis; values as pairs and
arrays, dtype=None, out= (strided, overlapping the indices), zero-size results, every
argument fed wrong values; PyTorch's one_hot and ONNX Runtime's OneHot as oracles."""
import numpy as np
import pytest

import dmlc
from reference import ref_one_hot
from support import ALL_DTYPES, assert_same_bits

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    """Each of the eleven result dtypes, with (off, on) values of that dtype, indices of
    both signs and out of range both ways; axis sampled per dtype."""
    k = ALL_DTYPES.index(dtype)
    idx = rng.integers(-6, 7, (4, 3))
    off, on = np.array([3, 11], dtype)
    axis = (-3, -2, -1, 0, 1, 2)[k % 6]
    got = dmlc.one_hot(idx, 5, axis=axis, values=(off, on), dtype=dtype)
    assert_same_bits(got, ref_one_hot(idx, 5, axis % 3, off, on, dtype))


@pytest.mark.parametrize("idx_dtype", INT_DTYPES)
def test_every_index_dtype(idx_dtype):
    """int32/int64/uint32/uint64 go to the core as they are, the narrower ones are widened;
    negative values count from the end, unsigned values never are negative."""
    info = np.iinfo(idx_dtype)
    vals = [0, 2, info.max] + ([-1, -3, -4, info.min] if info.min < 0 else [3])
    idx = np.array(vals, idx_dtype)
    got = dmlc.one_hot(idx, 3, dtype=np.int8)
    np.testing.assert_array_equal(got, ref_one_hot(idx, 3, 1, 0, 1, np.int8))
    assert got[1].tolist() == [0, 0, 1] and got[2].tolist() == [0, 0, 0]


@pytest.mark.parametrize("q", range(8))
def test_every_axis_of_0_to_7_index_dimensions(rng, q):
    """Indices of q dimensions, every axis from -(q+1) to q: results of 1 to 8 dimensions."""
    shape = tuple(rng.integers(1, 4, q))
    idx = rng.integers(-4, 5, shape).astype(np.int32)
    for axis in range(-(q + 1), q + 1):
        got = dmlc.one_hot(idx, 4, axis=axis)
        a = axis + q + 1 if axis < 0 else axis
        assert got.shape == shape[:a] + (4,) + shape[a:] and got.dtype == np.float32
        np.testing.assert_array_equal(got, ref_one_hot(idx, 4, a, 0, 1, np.float32), err_msg=f"axis {axis}")


def test_the_docstring_examples_and_numpy_equivalents(rng):
    np.testing.assert_array_equal(dmlc.one_hot([0, 3, -1, 7], 4, dtype="int8"),
                                  [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]])
    np.testing.assert_array_equal(dmlc.one_hot([2, 0], 3, axis=0, values=(-1.0, 5.0)),
                                  [[-1, 5], [-1, -1], [5, -1]])
    i = rng.integers(0, 10, (6, 5))
    np.testing.assert_array_equal(dmlc.one_hot(i, 10), np.eye(10, dtype=np.float32)[i])
    i = rng.integers(-12, 12, 50)
    want = np.where(np.arange(10) == np.where(i < 0, i + 10, i)[..., None], 7, -2).astype(np.int16)
    np.testing.assert_array_equal(dmlc.one_hot(i, 10, values=(-2, 7), dtype="i2"), want)


def test_values_and_dtype():
    """dtype=None: values' dtype for an ndarray, else float32; Python numbers converted as
    dmlc.pad converts its value (truncation and saturation for integers, NaN 0); a NumPy
    scalar of dtype keeps its bits (a float16 NaN payload); any 2-element array shape."""
    r = dmlc.one_hot([1], 2, values=np.array([[4, 9]], np.uint16))
    assert r.dtype == np.uint16 and r.tolist() == [[4, 9]]
    assert dmlc.one_hot([1], 2, values=(0, 1)).dtype == np.float32
    assert dmlc.one_hot([1], 2, values=np.array([1.5, 2.5]), dtype="int32").tolist() == [[1, 2]]
    assert dmlc.one_hot([0], 2, values=(-7.9, 300.5), dtype=np.uint8).tolist() == [[255, 0]]
    assert dmlc.one_hot([0], 2, values=(float("nan"), 2**70), dtype=np.int64).tolist() == [[2**63 - 1, 0]]
    nan = np.array(0x7E01, np.uint16).view(np.float16)[()]
    r = dmlc.one_hot([1, 0], 2, values=(np.float16(1), nan), dtype=np.float16)
    assert r.view(np.uint16).tolist() == [[0x3C00, 0x7E01], [0x7E01, 0x3C00]]
    big = 2**63 + 1
    assert dmlc.one_hot([0], 2, values=(0, big), dtype=np.uint64).tolist() == [[big, 0]]


def test_out_strided_and_returned(rng):
    idx = rng.integers(-5, 8, (3, 4))
    buf = np.full((3, 5, 8), 7, np.float64)
    out = buf[:, :, ::2]
    assert dmlc.one_hot(idx, 5, axis=1, values=(1, 2), dtype=np.float64, out=out) is out
    np.testing.assert_array_equal(out, ref_one_hot(idx, 5, 1, 1, 2, np.float64))
    assert np.all(buf[:, :, 1::2] == 7)


def test_out_sharing_memory_with_indices_reads_a_copy():
    """An out= over the indices' own memory: the indices are read before anything is
    written, as NumPy's ufuncs do."""
    buf = np.array([[2, 0, 1], [0, 0, 0], [0, 0, 0]], np.int32)
    idx = buf[0]
    got = dmlc.one_hot(idx, 3, axis=0, dtype=np.int32, out=buf)
    np.testing.assert_array_equal(got, [[0, 1, 0], [0, 0, 1], [1, 0, 0]])


def test_zero_size_results():
    assert dmlc.one_hot([], 4).shape == (0, 4)
    assert dmlc.one_hot(np.zeros((2, 0), np.int64), 3, axis=0).shape == (3, 2, 0)
    r = dmlc.one_hot([1, 2], 0, dtype=np.int8)
    assert r.shape == (2, 0) and r.dtype == np.int8
    out = np.empty((2, 0), np.int8)
    assert dmlc.one_hot([1, 2], 0, dtype=np.int8, out=out) is out
    r = dmlc.one_hot(np.int64(-1), 3)  # 0-d indices: a 1-d result
    assert r.tolist() == [0, 0, 1]


def test_python_sequences_and_views(rng):
    i = rng.integers(0, 6, (5, 4))
    np.testing.assert_array_equal(dmlc.one_hot(i.T, 6, axis=1), ref_one_hot(i.T, 6, 1, 0, 1, np.float32))
    np.testing.assert_array_equal(dmlc.one_hot(i[::2, ::-1].tolist(), 6), ref_one_hot(i[::2, ::-1], 6, 2, 0, 1,
                                                                                       np.float32))


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: dmlc.one_hot([1.0], 3), TypeError, "one_hot: indices has dtype float64, expected an integer dtype"),
    (lambda: dmlc.one_hot([True], 3), TypeError, "one_hot: indices has dtype bool, expected an integer dtype"),
    (lambda: dmlc.one_hot(np.zeros((1,) * 8, np.int32), 3), ValueError,
     "one_hot: indices has 8 dimensions, expected at most 7 (the result has one more, and DirectML tensors have at "
     "most 8)"),
    (lambda: dmlc.one_hot([1], -1), ValueError, "one_hot: depth is -1, expected 0 to 4294967295 (a DirectML size)"),
    (lambda: dmlc.one_hot([1], 2**32), ValueError,
     "one_hot: depth is 4294967296, expected 0 to 4294967295 (a DirectML size)"),
    (lambda: dmlc.one_hot([1], True), TypeError, "one_hot: depth must be an int, not bool"),
    (lambda: dmlc.one_hot([1], 3.0), TypeError, "one_hot: depth must be an int, not float"),
    (lambda: dmlc.one_hot([1], 3, axis=2), ValueError,
     "one_hot: axis is 2, expected -2 to 1 (indices has 1 dimensions, the result 2)"),
    (lambda: dmlc.one_hot([[1]], 3, axis=-4), ValueError,
     "one_hot: axis is -4, expected -3 to 2 (indices has 2 dimensions, the result 3)"),
    (lambda: dmlc.one_hot([1], 3, axis=True), TypeError, "one_hot: axis must be an int, not bool"),
    (lambda: dmlc.one_hot([1], 3, axis=0.0), TypeError, "one_hot: axis must be an int, not float"),
    (lambda: dmlc.one_hot([1], 3, values=(0, 1, 2)), ValueError, "one_hot: values has 3 items, expected 2 (off, on)"),
    (lambda: dmlc.one_hot([1], 3, values=np.zeros((2, 2))), ValueError,
     "one_hot: values has 4 elements (shape (2, 2)), expected 2 (off, on)"),
    (lambda: dmlc.one_hot([1], 3, values=5), TypeError,
     "one_hot: values must be a pair (off, on) or a 2-element ndarray, not int"),
    (lambda: dmlc.one_hot([1], 3, values=(0, "1")), TypeError, "one_hot: values[1] must be a real number, not str"),
    (lambda: dmlc.one_hot([1], 3, values=(1j, 0)), TypeError, "one_hot: values[0] must be a real number, not complex"),
    (lambda: dmlc.one_hot([1], 3, values=np.array([True, False])), TypeError,
     "one_hot: values.dtype is bool, which dmlc does not support"),
    (lambda: dmlc.one_hot([1], 3, dtype=bool), TypeError, "one_hot: dtype is bool, which dmlc does not support"),
    (lambda: dmlc.one_hot([1], 3, dtype="complex64"), TypeError,
     "one_hot: dtype is complex64, which dmlc does not support"),
    (lambda: dmlc.one_hot([1], 3, dtype="nonsense"), TypeError, "one_hot: dtype 'nonsense' is not a NumPy dtype"),
    (lambda: dmlc.one_hot([1], 3, out=np.zeros((1, 4), np.float32)), ValueError,
     "out has shape (1, 4), expected (1, 3)"),
    (lambda: dmlc.one_hot([1], 3, out=np.zeros((1, 3), np.int32)), TypeError,
     "out has dtype int32, expected float32"),
])
def test_wrong_arguments(call, exc, msg):
    with pytest.raises(exc) as e:
        call()
    assert str(e.value).startswith(msg), str(e.value)


# ---- oracles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("idx_dtype", [np.int64, np.uint8])
def test_torch_one_hot(rng, idx_dtype):
    """torch.nn.functional.one_hot: axis -1, an int64 result, in-range indices (PyTorch
    raises on the others)."""
    torch = pytest.importorskip("torch")
    for shape in [(7,), (3, 4), (2, 2, 3)]:
        i = rng.integers(0, 6, shape).astype(idx_dtype)
        want = torch.nn.functional.one_hot(torch.from_numpy(i.astype(np.int64)), 6).numpy()
        assert_same_bits(dmlc.one_hot(i, 6, dtype=np.int64), want)


@pytest.mark.parametrize("dtype,idx_dtype", [(np.float32, np.int64), (np.int64, np.int64), (np.float16, np.int64)])
def test_onnxruntime_one_hot(rng, dtype, idx_dtype):
    """ONNX OneHot with its values input and every axis: negative indices count from the end
    and out-of-range ones give a sequence of off values, as in dmlc."""
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench.one_hot import onnx_one_hot
    i = rng.integers(-7, 8, (3, 4)).astype(idx_dtype)
    for axis in range(-3, 3):
        model = onnx_one_hot(dtype, i.shape, 5, axis, (2, -3), idx_dtype)
        (want,) = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"i": i})
        assert_same_bits(dmlc.one_hot(i, 5, axis=axis, values=(2, -3), dtype=dtype), want)
