"""dmlc.diagonal_matrix and dmlc.diagonal_fill (DIAGONAL_MATRIX1) against the page's pseudocode
(tests/reference.py ref_diagonal), np.eye, np.triu/np.tril, np.fill_diagonal, and PyTorch
and ONNX Runtime (EyeLike, Trilu) as optional oracles: every dtype, 2 to 8 dimensions with
batches, strided views and out=, zero sizes, the 64-bit edges of Begin/End, the value's
conversion, every argument fed wrong values, and the DxDispatch model."""
import os

import numpy as np
import pytest

import dmlc
from reference import ref_diagonal
from support import ALL_DTYPES, assert_same_bits

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
INT_MIN, INT_MAX = -2**31, 2**31 - 1


# Sampled, not the full product: every dtype, 2 to 8 dimensions, offsets on both sides.
CASES = [(dtype, shape, offset) for dtype, shape, offset in zip(
    ALL_DTYPES,
    [(3, 4), (2, 5, 3), (2, 1, 4, 4), (1, 2, 1, 3, 2), (2, 1, 1, 1, 3, 5), (1, 1, 2, 1, 1, 4, 3), (1,) * 6 + (3, 3),
     (4, 1), (1, 6), (2, 2, 2), (5, 5)],
    [0, 1, -1, 2, -2, 3, 0, -3, 5, 0, -6])]


@pytest.mark.parametrize("dtype,shape,offset", CASES)
def test_diagonal_matrix_is_batched_eye(dtype, shape, offset):
    got = dmlc.diagonal_matrix(shape, dtype, offset=offset, value=3)
    want = np.broadcast_to(np.eye(shape[-2], shape[-1], k=offset, dtype=dtype) * np.array(3, dtype), shape)
    assert got.dtype == np.dtype(dtype) and got.shape == shape
    assert_same_bits(got, want)


@pytest.mark.parametrize("dtype,shape,offset", CASES)
def test_diagonal_fill_band_over_input(dtype, shape, offset):
    rng = np.random.default_rng(offset + 10)
    x = (rng.integers(0, 100, shape)).astype(dtype)
    for begin, end in ((offset, offset + 2), (offset + 1, offset - 1), (offset, offset)):
        got = dmlc.diagonal_fill(x, begin, end, 7)
        assert_same_bits(got, ref_diagonal(shape, begin, end, np.array(7, dtype), dtype, x))


def test_triu_tril_and_fill_diagonal():
    x = np.arange(2 * 4 * 5, dtype=np.float64).reshape(2, 4, 5) + 1
    for k in (-5, -1, 0, 2, 6):
        np.testing.assert_array_equal(dmlc.diagonal_fill(x, None, k), np.triu(x, k))
        np.testing.assert_array_equal(dmlc.diagonal_fill(x, k + 1, None), np.tril(x, k))
    want = x.copy()
    for m in want:
        np.fill_diagonal(m, -1)
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, 0, 1, -1), want)


def test_extreme_begin_end_are_exact():
    """Begin/End at the INT limits: the diagonals compare as 64-bit values, no wrap."""
    x = np.arange(1, 10, dtype=np.int64).reshape(3, 3)
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, INT_MIN, INT_MAX, 0), np.zeros((3, 3), np.int64))
    # Inverted: the diagonals outside [INT_MIN, INT_MAX), none of a small matrix; outside [-1, 1)
    # all but the main diagonal and the one below it.
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, INT_MAX, INT_MIN, 0), x)
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, 1, -1, 0), [[1, 0, 0], [4, 5, 0], [0, 8, 9]])
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, INT_MAX, INT_MAX, 0), x)
    np.testing.assert_array_equal(dmlc.diagonal_matrix((2, 2), "int8", offset=INT_MAX - 1), np.zeros((2, 2), np.int8))
    np.testing.assert_array_equal(dmlc.diagonal_matrix((2, 2), "int8", offset=INT_MIN), np.zeros((2, 2), np.int8))


def test_values_are_converted_as_pad():
    assert dmlc.diagonal_matrix((2, 2), "int8", value=10.6)[0, 0] == 10  # the page's 10.6 becomes 10
    assert dmlc.diagonal_matrix((2, 2), "uint8", value=-3)[1, 1] == 0
    assert dmlc.diagonal_matrix((2, 2), "int16", value=1e9)[0, 0] == 32767
    assert dmlc.diagonal_matrix((2, 2), "int32", value=float("nan"))[0, 0] == 0
    assert dmlc.diagonal_matrix((2, 2), "int64", value=2**62 + 1)[0, 0] == 2**62 + 1  # exact, no float detour
    assert dmlc.diagonal_matrix((2, 2), "uint64", value=2**64 - 1)[1, 1] == 2**64 - 1
    assert dmlc.diagonal_matrix((2, 2), "float16", value=1 + 2**-11)[0, 0] == 1.0  # ties to even
    nan = np.frombuffer(b"\x01\x7e", np.float16)[0]
    assert_same_bits(dmlc.diagonal_matrix((1, 1), "float16", value=nan), nan.reshape(1, 1))
    x = np.ones((2, 2), np.uint32)
    assert dmlc.diagonal_fill(x, 0, 1, 2**32 + 5)[0, 0] == 2**32 - 1


def test_strided_input_and_out():
    base = np.arange(6 * 8, dtype=np.int32).reshape(6, 8)
    x = base[::2, ::-3]  # (3, 3) view with negative and non-unit strides
    out_base = np.full((6, 6), -9, np.int32)
    out = out_base[::2, 1::2]
    r = dmlc.diagonal_fill(x, -1, 1, 5, out=out)
    assert r is out
    np.testing.assert_array_equal(out, ref_diagonal((3, 3), -1, 1, 5, np.int32, x))
    assert (out_base[1::2] == -9).all() and (out_base[::2, ::2] == -9).all()
    out2 = np.zeros((4, 6), np.float32)[:, ::2]
    assert dmlc.diagonal_matrix((4, 3), "float32", offset=-1, out=out2) is out2
    np.testing.assert_array_equal(out2, np.eye(4, 3, k=-1, dtype=np.float32))


def test_out_overlapping_x_reads_a_copy():
    x = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    want = np.tril(x, -1)
    assert dmlc.diagonal_fill(x, 0, None, out=x) is x
    np.testing.assert_array_equal(x, want)


def test_zero_sizes():
    assert dmlc.diagonal_matrix((0, 3), "int16").shape == (0, 3)
    assert dmlc.diagonal_matrix((2, 0, 3, 3)).shape == (2, 0, 3, 3)
    e = np.zeros((3, 0, 2), np.uint8)
    r = dmlc.diagonal_fill(e, 0, 1, 4)
    assert r.shape == (3, 0, 2) and r.dtype == np.uint8


def test_oracles_torch_and_onnxruntime():
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(dmlc.diagonal_matrix((5, 3), "float32"), torch.eye(5, 3).numpy())
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype(np.float32)
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, None, 1), torch.triu(torch.from_numpy(x), 1).numpy())
    np.testing.assert_array_equal(dmlc.diagonal_fill(x, 0, None), torch.tril(torch.from_numpy(x), -1).numpy())
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from onnx import numpy_helper

    from dmlc.bench.fill import onnx_node
    for k in (-2, 3):
        sess = ort.InferenceSession(onnx_node("EyeLike", np.float32, (4, 6), ["x"], {"k": k}),
                                    providers=["CPUExecutionProvider"])
        eye = sess.run(None, {"x": np.zeros((4, 6), np.float32)})[0]
        np.testing.assert_array_equal(dmlc.diagonal_matrix((4, 6), offset=k), eye)
        kk = numpy_helper.from_array(np.array(k, np.int64), "k")
        for upper in (0, 1):
            sess = ort.InferenceSession(onnx_node("Trilu", np.float32, x.shape, ["x", "k"], {"upper": upper}, [kk]),
                                        providers=["CPUExecutionProvider"])
            want = sess.run(None, {"x": x})[0]
            got = dmlc.diagonal_fill(x, None, k) if upper else dmlc.diagonal_fill(x, k + 1, None)
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call,exc,message", [
    (lambda: dmlc.diagonal_matrix((3,)), ValueError,
     "diagonal_matrix: shape has 1 dimensions, expected 2 to 8 (a stack of matrices)"),
    (lambda: dmlc.diagonal_matrix((1,) * 9), ValueError,
     "diagonal_matrix: shape has 9 dimensions; DirectML tensors have at most 8"),
    (lambda: dmlc.diagonal_matrix((2, -1)), ValueError, "diagonal_matrix: shape[1] is -1, expected 0 or more"),
    (lambda: dmlc.diagonal_matrix((2, 2.0)), TypeError, "diagonal_matrix: shape[1] must be an int, not float"),
    (lambda: dmlc.diagonal_matrix((2, 2), "bool"), TypeError, None),
    (lambda: dmlc.diagonal_matrix((2, 2), "complex64"), TypeError, None),
    (lambda: dmlc.diagonal_matrix((2, 2), offset=2**31 - 1), ValueError,
     "diagonal_matrix: offset is 2147483647, expected -2147483648 to 2147483646 (a DirectML INT)"),
    (lambda: dmlc.diagonal_matrix((2, 2), offset=-2**31 - 1), ValueError,
     "diagonal_matrix: offset is -2147483649, expected -2147483648 to 2147483646 (a DirectML INT)"),
    (lambda: dmlc.diagonal_matrix((2, 2), offset=1.0), TypeError, "diagonal_matrix: offset must be an int, not float"),
    (lambda: dmlc.diagonal_matrix((2, 2), offset=True), TypeError, "diagonal_matrix: offset must be an int, not bool"),
    (lambda: dmlc.diagonal_matrix((2, 2), offset=None), TypeError,
     "diagonal_matrix: offset must be an int, not NoneType"),
    (lambda: dmlc.diagonal_matrix((2, 2), value="1"), TypeError, None),
    (lambda: dmlc.diagonal_matrix((2, 2), out=np.zeros((2, 3), np.float32)), ValueError, None),
    (lambda: dmlc.diagonal_matrix((2, 2), out=np.zeros((2, 2), np.float64)), TypeError, None),
    (lambda: dmlc.diagonal_fill(np.zeros(3), 0, 1), ValueError,
     "diagonal_fill: x has 1 dimensions, expected 2 to 8 (a stack of matrices)"),
    (lambda: dmlc.diagonal_fill(np.zeros((1,) * 9), 0, 1), ValueError,
     "diagonal_fill: x has 9 dimensions, expected 2 to 8 (a stack of matrices)"),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2), bool), 0, 1), TypeError, None),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 2**31, 1), ValueError,
     "diagonal_fill: begin is 2147483648, expected -2147483648 to 2147483647 (a DirectML INT)"),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0, -2**31 - 1), ValueError,
     "diagonal_fill: end is -2147483649, expected -2147483648 to 2147483647 (a DirectML INT)"),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0.5, 1), TypeError, "diagonal_fill: begin must be an int, not float"),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0, False), TypeError, "diagonal_fill: end must be an int, not bool"),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0, 1, value=[1]), TypeError, None),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0, 1, out=np.zeros((2, 3))), ValueError, None),
    (lambda: dmlc.diagonal_fill(np.zeros((2, 2)), 0, 1, out=np.zeros((2, 2), np.float32)), TypeError, None),
])
def test_bad_arguments(call, exc, message):
    with pytest.raises(exc) as info:
        call()
    if message is not None:
        assert str(info.value) == message
    else:
        assert str(info.value).startswith(("diagonal_matrix", "diagonal_fill", "out", "x")), str(info.value)


def test_model_runs(tmp_path, capsys, monkeypatch):
    """tests/models/diagonal_matrix.json: both descs, DIAGONAL_MATRIX1 with and without its
    optional InputTensor."""
    from dmlc import cli
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", os.path.join(MODELS, "diagonal_matrix.json")]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Resource")]
    assert lines == ["Resource 'Eye': 0, 0, 1, 0, 0, 1", "Resource 'Tens': 10, 0, 0, 0, 10, 0, 10, 0, 0, 0, 10, 0",
                     "Resource 'Band': 5, 5, 0, 0, 5, 5, 0, 0, 5", "Resource 'Upper': 1, 2, 3, 0, 5, 6, 0, 0, 9"]


def test_large_outputs_split_over_threads_agree():
    """Outputs large enough for the thread pool to split their rows (the 1-thread result too),
    over 16 MiB: packed rows are written with non-temporal stores."""
    x = np.random.default_rng(3).standard_normal((16, 1030, 257)).astype(np.float32)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 3):
            dmlc.set_num_threads(n)
            np.testing.assert_array_equal(dmlc.diagonal_fill(x, None, -2), np.triu(x, -2))
            np.testing.assert_array_equal(dmlc.diagonal_matrix((16, 1030, 257), "float32", offset=5),
                                          np.broadcast_to(np.eye(1030, 257, 5, dtype=np.float32), (16, 1030, 257)))
    finally:
        dmlc.set_num_threads(old)
