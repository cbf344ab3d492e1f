"""dmlc.nonzero_coordinates against tests/reference.py's ref_nonzero, np.argwhere, and
PyTorch's nonzero and ONNX Runtime's NonZero (the transpose) as oracles
(docs/operators/nonzero_coordinates.rst): every dtype, every index type, 1 to 8
dimensions, -0.0 and NaN, strides, zero-size arrays, threads, and every argument fed wrong
values."""
import numpy as np
import pytest

import dmlc
from reference import ref_nonzero
from support import ALL_DTYPES, random_array

INDEX_DTYPES = ["int64", "int32", "uint64", "uint32"]


def sparse(rng, shape, dtype, density=0.3):
    """Random values of dtype, about `density` of them non-zero."""
    return random_array(rng, shape, dtype) * (rng.random(shape) < density).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    x = sparse(rng, (3, 4, 5), dtype)
    x[0, 0, 0] = 0
    x[2, 3, 4] = 1
    for k, idt in enumerate(INDEX_DTYPES):
        got = dmlc.nonzero_coordinates(x if k % 2 == 0 else x.T, indices_dtype=idt)
        want_x = x if k % 2 == 0 else x.T
        count, coords = ref_nonzero(want_x)
        assert got.dtype == np.dtype(idt) and got.shape == (count, 3) and got.flags.c_contiguous
        np.testing.assert_array_equal(got, coords[:count])
        np.testing.assert_array_equal(got, np.argwhere(want_x))


def test_the_pages_example():
    from dmlc._examples.nonzero import EXAMPLES
    for ex in EXAMPLES:
        got = ex.run(ex.inputs)
        for name, want in ex.expected.items():
            np.testing.assert_array_equal(got[name], want)
            assert got[name].dtype == want.dtype


def test_one_to_eight_dimensions(rng):
    for nd in range(1, 9):
        x = sparse(rng, (3, 2, 3, 2, 1, 2, 3, 2)[:nd], np.int16)
        got = dmlc.nonzero_coordinates(x)
        assert got.shape[1] == nd
        np.testing.assert_array_equal(got, np.argwhere(x))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_signed_zeros_are_zero_and_nan_is_not(dtype):
    x = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-45 if dtype != np.float16 else 6e-8, 0.0], dtype)
    if dtype == np.float32:
        x[6] = np.float32(1e-45)  # the least subnormal: not zero
    got = dmlc.nonzero_coordinates(x)
    assert got.ravel().tolist() == [2, 3, 4, 5, 6]
    np.testing.assert_array_equal(got, np.argwhere(x))


def test_all_zero_and_all_nonzero():
    assert dmlc.nonzero_coordinates(np.zeros((4, 5), np.uint8)).shape == (0, 2)
    assert dmlc.nonzero_coordinates(np.full((1, 1, 1), -0.0, np.float32)).shape == (0, 3)
    x = np.ones((2, 3), np.int64)
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(x), np.argwhere(x))
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(np.array([[[7]]], np.int8)), [[0, 0, 0]])


def test_large_input_across_blocks_and_threads(rng):
    """Many blocks (count, prefix sum, write), with 1 thread and with the default: the
    same rows in the same order."""
    x = sparse(rng, (4, 250, 1100), np.float32, 0.1)
    before = dmlc.get_num_threads()
    try:
        for threads in (1, before):
            dmlc.set_num_threads(threads)
            np.testing.assert_array_equal(dmlc.nonzero_coordinates(x, indices_dtype="int32"), np.argwhere(x))
    finally:
        dmlc.set_num_threads(0 if before == dmlc.get_num_threads() else before)


@pytest.mark.parametrize("part_bytes", [48, 700, 5000])
def test_inputs_run_in_parts(rng, monkeypatch, part_bytes):
    """An input larger than a part (8 MiB of 4-byte scratch rows) goes to the core in parts
    cut along one axis, the axes before it taken one index at a time: the parts' rows are
    x's coordinates, in x's order, whichever axis is cut, however the parts end."""
    import dmlc._nonzero
    monkeypatch.setattr(dmlc._nonzero, "_PART_BYTES", part_bytes)
    shapes = [(3, 5, 7, 11), (1, 1, 40, 9), (2, 1, 3, 1, 50), (300,), (4, 2, 3, 2, 2, 1, 3, 2)]
    for k, shape in enumerate(shapes):
        x = sparse(rng, shape, [np.float32, np.int8, np.float64, np.uint16, np.float16][k], 0.3)
        idt = INDEX_DTYPES[k % 4]
        got = dmlc.nonzero_coordinates(x, indices_dtype=idt)
        assert got.dtype == idt and got.flags.c_contiguous and got.flags.owndata
        np.testing.assert_array_equal(got, np.argwhere(x))
    x = sparse(rng, (6, 5, 9), np.int32, 0.5)[1:, ::-2, 1::3]
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(x), np.argwhere(x))
    assert dmlc.nonzero_coordinates(np.zeros((5, 40), np.float32)).shape == (0, 2)
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(np.ones((3, 30), np.uint8)), np.argwhere(np.ones((3, 30))))


@pytest.mark.parametrize("idt,n", [("int32", 1 << 31), ("uint32", 1 << 32)])
def test_a_4_byte_index_type_must_hold_the_count(idt, n):
    """The count of an input of x.size elements must fit the index dtype (a broadcast view:
    the error comes before anything is read)."""
    x = np.broadcast_to(np.float32(1), (n,))
    with pytest.raises(ValueError) as e:
        dmlc.nonzero_coordinates(x, indices_dtype=idt)
    assert str(e.value) == (f"nonzero_coordinates: indices_dtype is {idt}, which cannot hold the count of x.size "
                            f"{n} elements; use int64")


def test_strided_views(rng):
    x = sparse(rng, (6, 8, 10), np.uint16)
    for view in (x[::2], x[:, ::-1], x.transpose(2, 0, 1), x[1:5, 2:7, ::3]):
        np.testing.assert_array_equal(dmlc.nonzero_coordinates(view), np.argwhere(view))


def test_array_likes():
    assert dmlc.nonzero_coordinates([[0, 1], [2, 0]]).tolist() == [[0, 1], [1, 0]]


def test_zero_size():
    for shape in ((0,), (3, 0, 2), (0, 1, 1, 1, 1, 1, 1, 1)):
        got = dmlc.nonzero_coordinates(np.zeros(shape, np.float32), indices_dtype="uint32")
        assert got.shape == (0, len(shape)) and got.dtype == np.uint32


BAD = [
    (dict(x=np.float32(1)), ValueError, "nonzero_coordinates: x has 0 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros((1,) * 9)), ValueError, "nonzero_coordinates: x has 9 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros(3, bool)), TypeError, "x has dtype bool, which dmlc does not support"),
    (dict(x=np.zeros(3, np.complex64)), TypeError, "x has dtype complex64, which dmlc does not support"),
    (dict(indices_dtype="int16"), ValueError,
     "nonzero_coordinates: indices_dtype is int16, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=np.float64), ValueError,
     "nonzero_coordinates: indices_dtype is float64, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=">i8"), ValueError,
     "nonzero_coordinates: indices_dtype is >i8, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=None), TypeError, "nonzero_coordinates: indices_dtype must be a dtype, not NoneType"),
    (dict(indices_dtype=True), TypeError, "nonzero_coordinates: indices_dtype must be a dtype, not bool"),
    (dict(indices_dtype=3.5), TypeError, "nonzero_coordinates: indices_dtype must be a dtype, not float"),
]


@pytest.mark.parametrize("kwargs,exc,msg", BAD, ids=[m for _, _, m in BAD])
def test_wrong_arguments(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", np.zeros((2, 3), np.float32))
    with pytest.raises(exc) as e:
        dmlc.nonzero_coordinates(x, **kwargs)
    assert str(e.value).startswith(msg)


def test_no_out_and_keyword_only():
    with pytest.raises(TypeError):
        dmlc.nonzero_coordinates(np.ones(3), out=np.zeros((3, 1), np.int64))
    with pytest.raises(TypeError):
        dmlc.nonzero_coordinates(np.ones(3), "int32")


# ---- oracles --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int8])
def test_torch_oracle(rng, dtype):
    """torch.nonzero: the same rows, row-major, int64."""
    torch = pytest.importorskip("torch")
    x = sparse(rng, (5, 6, 7), dtype)
    if np.dtype(dtype).kind == "f":
        x[1, 2, 3], x[0, 0, 1] = np.nan, -0.0
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(x), torch.nonzero(torch.from_numpy(x)).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_onnxruntime_oracle(rng, dtype):
    """ONNX NonZero: the transpose, (x.ndim, count) int64."""
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.helper import np_dtype_to_tensor_dtype
    from onnx import TensorProto
    x = sparse(rng, (4, 5, 6), dtype)
    node = helper.make_node("NonZero", ["x"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", np_dtype_to_tensor_dtype(x.dtype),
                                                                          x.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, [3, None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    sess = ort.InferenceSession(onnx._serialize(model) if hasattr(onnx, "_serialize") else model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(dmlc.nonzero_coordinates(x), sess.run(None, {"x": x})[0].T)
