"""dmlc.argmax / dmlc.argmin against tests/reference.py's ref_arg, NumPy, and PyTorch and ONNX
Runtime where they agree with dmlc's order (docs/operators/argmax.rst): every dtype, 1 to 8
dimensions, several axes, ties both ways, NaNs and signed zeros, strides, out=, index types
too narrow, zero-size arrays, threads, and every argument fed wrong values."""
import numpy as np
import pytest

import dmlc
from reference import ref_arg
from support import ALL_DTYPES, random_array

FUNCS = {"argmax": (dmlc.argmax, True), "argmin": (dmlc.argmin, False)}


def small_ints(rng, shape, dtype):
    """Few distinct values, so that ties are common."""
    return rng.integers(0, 4, size=shape).astype(dtype)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_axis_and_direction(rng, name, dtype):
    fn, greatest = FUNCS[name]
    for x in (random_array(rng, (3, 4, 5), dtype), small_ints(rng, (3, 4, 5), dtype)):
        for axes in ((0,), (1,), (2,), (0, 2), (2, 0), (0, 1, 2)):
            for last in (False, True):
                got = fn(x, axes, keepdims=True, select_last_index=last)
                assert got.dtype == np.int64
                np.testing.assert_array_equal(got, ref_arg(x, axes, greatest, last))
        np.testing.assert_array_equal(fn(x, 1), np.argmax(x, 1) if greatest else np.argmin(x, 1))
        assert fn(x).shape == () and int(fn(x)) == (np.argmax(x) if greatest else np.argmin(x))


@pytest.mark.parametrize("name", FUNCS)
def test_one_to_eight_dimensions(rng, name):
    fn, greatest = FUNCS[name]
    for nd in range(1, 9):
        x = small_ints(rng, (3, 2, 3, 2, 1, 2, 3, 2)[:nd], np.float32)
        for axis in range(nd):
            np.testing.assert_array_equal(fn(x, axis, keepdims=True), ref_arg(x, [axis], greatest))
        np.testing.assert_array_equal(fn(x, keepdims=True), ref_arg(x, range(nd), greatest))


def test_the_pages_tie_examples():
    assert int(dmlc.argmax(np.array([3, 2, 1, 2, 3]))) == 0
    assert int(dmlc.argmax(np.array([3, 2, 1, 2, 3]), select_last_index=True)) == 4
    assert int(dmlc.argmin(np.array([1, 2, 3, 2, 1]))) == 0
    assert int(dmlc.argmin(np.array([1, 2, 3, 2, 1]), select_last_index=True)) == 4


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_above_infinity_and_signed_zeros(dtype):
    nan, neg_nan = np.array(np.nan, dtype), -np.array(np.nan, dtype)
    x = np.array([1, np.inf, nan, 0, neg_nan, -np.inf], dtype)
    x[4] = neg_nan  # a NaN with its sign bit set is a NaN like any other
    assert int(dmlc.argmax(x)) == 2 and int(dmlc.argmax(x, select_last_index=True)) == 4
    assert int(dmlc.argmin(x)) == 5  # np.argmin would return 2, the NaN
    all_nan = np.full(4, np.nan, dtype)
    assert int(dmlc.argmin(all_nan)) == 0 and int(dmlc.argmin(all_nan, select_last_index=True)) == 3
    inf_then_nan = np.array([np.inf, np.nan, np.inf], dtype)
    assert int(dmlc.argmin(inf_then_nan, select_last_index=True)) == 2
    zeros = np.array([-0.0, 0.0, -0.0], dtype)  # equal: ties
    assert int(dmlc.argmax(zeros)) == 0 and int(dmlc.argmax(zeros, select_last_index=True)) == 2
    assert int(dmlc.argmin(zeros)) == 0 and int(dmlc.argmin(zeros, select_last_index=True)) == 2


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, np.uint8])
def test_integer_extremes(dtype):
    info = np.iinfo(dtype)
    x = np.array([1, info.max, info.min, info.max, info.min], dtype)
    assert int(dmlc.argmax(x)) == 1 and int(dmlc.argmax(x, select_last_index=True)) == 3
    assert int(dmlc.argmin(x)) == 2 and int(dmlc.argmin(x, select_last_index=True)) == 4
    same = np.full(5, info.min, dtype)
    assert int(dmlc.argmax(same, select_last_index=True)) == 4 and int(dmlc.argmin(same)) == 0


def test_long_rows_across_blocks_and_threads(rng):
    """Rows longer than the kernel's blocks, and few outputs over many elements (each
    reduced set split across threads, then combined), against the reference, with 1 thread
    and with the default."""
    x = small_ints(rng, (3, 70001), np.float32)
    x[1, 5000] = x[1, 69999] = 9
    # 1.2 MB: enough work for the kernel to split one reduced set across two threads.
    whole = small_ints(rng, (2, 3, 100000), np.int16)
    whole[0, 0, 7] = whole[1, 2, 99990] = 100
    before = dmlc.get_num_threads()
    try:
        for threads in (1, before):
            dmlc.set_num_threads(threads)
            for last in (False, True):
                for fn, greatest in FUNCS.values():
                    np.testing.assert_array_equal(fn(x, 1, keepdims=True, select_last_index=last),
                                                  ref_arg(x, [1], greatest, last))
                    np.testing.assert_array_equal(fn(whole, keepdims=True, select_last_index=last),
                                                  ref_arg(whole, [0, 1, 2], greatest, last))
                    np.testing.assert_array_equal(fn(whole, (0, 2), keepdims=True, select_last_index=last),
                                                  ref_arg(whole, [0, 2], greatest, last))
    finally:
        dmlc.set_num_threads(0 if before == dmlc.get_num_threads() else before)


def test_strided_views(rng):
    base = small_ints(rng, (6, 8, 10), np.float64)
    for x in (base[::2, 1::3, ::-1], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (4, 8, 10))):
        for axes in ((0,), (2,), (0, 1), (1, 2)):
            for last in (False, True):
                np.testing.assert_array_equal(dmlc.argmax(x, axes, keepdims=True, select_last_index=last),
                                              ref_arg(x, axes, True, last))


@pytest.mark.parametrize("idt", ["int64", "int32", "uint64", "uint32", np.int32, np.dtype(np.uint64)])
def test_indices_dtype_and_out(rng, idt):
    x = small_ints(rng, (4, 5), np.float32)
    got = dmlc.argmax(x, 1, indices_dtype=idt)
    assert got.dtype == np.dtype(idt)
    np.testing.assert_array_equal(got, np.argmax(x, 1))
    out = np.full(8, 99, np.dtype(idt))[::2]  # strided out=
    assert dmlc.argmin(x, 1, indices_dtype=idt, out=out) is out
    np.testing.assert_array_equal(out, np.argmin(x, 1))
    keep = np.zeros((1, 5), np.dtype(idt))
    assert dmlc.argmax(x, 0, keepdims=True, indices_dtype=idt, out=keep) is keep
    np.testing.assert_array_equal(keep, np.argmax(x, 0, keepdims=True))


def test_keepdims_and_shapes(rng):
    x = small_ints(rng, (2, 3, 4), np.int32)
    assert dmlc.argmax(x, (0, 2)).shape == (3,)
    assert dmlc.argmax(x, (0, 2), keepdims=True).shape == (1, 3, 1)
    assert dmlc.argmax(x, keepdims=True).shape == (1, 1, 1)
    assert dmlc.argmax(x, -1).shape == (2, 3)
    np.testing.assert_array_equal(dmlc.argmax(x, -1), np.argmax(x, -1))


def test_index_type_too_narrow():
    """2**31 + 1 elements (one, broadcast) reduced into int32: the core refuses the index
    2**31 before reading anything."""
    x = np.broadcast_to(np.float32(1), (2**31 + 1,))
    with pytest.raises(ValueError, match=r"^DML_OPERATOR_ARGMAX: OutputTensor.DataType is INT32, which cannot hold "
                                         r"index 2147483648 \(the reduced element count 2147483649 - 1\)$"):
        dmlc.argmax(x, indices_dtype="int32")


def test_zero_size():
    assert dmlc.argmax(np.zeros((0, 3)), 1).shape == (0,)
    assert dmlc.argmin(np.zeros((0, 3)), 1, keepdims=True).shape == (0, 1)
    with pytest.raises(ValueError, match=r"^argmax: x has shape \(0, 3\), and the reduced axes \(0,\) hold no element"):
        dmlc.argmax(np.zeros((0, 3)), 0)
    with pytest.raises(ValueError, match="hold no element"):
        dmlc.argmin(np.zeros((2, 0)))


def test_input_overlapping_out_is_read_first():
    x = np.array([5, 1, 7, 3], np.int64)
    out = x[:1]
    dmlc.argmax(x.reshape(1, 4), 1, out=out)
    assert out[0] == 2


BAD = [
    (dict(x=np.float32(1)), ValueError, "argmax: x has 0 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros((1,) * 9)), ValueError, "argmax: x has 9 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros(3, bool)), TypeError, "x has dtype bool, which dmlc does not support"),
    (dict(axis=2), ValueError, "argmax: axis is 2, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=-3), ValueError, "argmax: axis is -3, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=True), TypeError, "argmax: axis must be an int, not bool"),
    (dict(axis=1.0), TypeError, "argmax: axis must be None, an int or a tuple of ints, not float"),
    (dict(axis="0"), TypeError, "argmax: axis must be None, an int or a tuple of ints, not str"),
    (dict(axis=(0, 0)), ValueError, "argmax: axis (0, 0) names an axis twice"),
    (dict(axis=(0, -2)), ValueError, "argmax: axis (0, -2) names an axis twice"),
    (dict(axis=()), ValueError, "argmax: axis is empty, expected at least one axis (or None for all)"),
    (dict(axis=(0, 5)), ValueError, "argmax: axis[1] is 5, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=(0, 1.5)), TypeError, "argmax: axis[1] must be an int, not float"),
    (dict(keepdims=1), TypeError, "argmax: keepdims must be a bool, not int"),
    (dict(select_last_index="yes"), TypeError, "argmax: select_last_index must be a bool, not str"),
    (dict(indices_dtype="int16"), ValueError, "argmax: indices_dtype is int16, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=np.float64), ValueError,
     "argmax: indices_dtype is float64, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=">i8"), ValueError, "argmax: indices_dtype is >i8, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=None), TypeError, "argmax: indices_dtype must be a dtype, not NoneType"),
    (dict(indices_dtype=3.5), TypeError, "argmax: indices_dtype must be a dtype, not float"),
    (dict(out=np.zeros(3, np.int32)), TypeError, "out has dtype int32, expected int64"),
    (dict(out=np.zeros(4, np.int64)), ValueError, "out has shape (4,), expected (3,)"),
    (dict(out=np.zeros(3, np.int64), keepdims=True), ValueError, "out has shape (3,), expected (1, 3)"),
]


@pytest.mark.parametrize("kwargs,exc,msg", BAD, ids=[m for _, _, m in BAD])
def test_wrong_arguments(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", np.zeros((2, 3), np.float32))
    kwargs.setdefault("axis", 0)
    with pytest.raises(exc) as e:
        dmlc.argmax(x, **kwargs)
    assert str(e.value).startswith(msg)
    with pytest.raises(exc) as e:
        dmlc.argmin(x, **kwargs)
    assert str(e.value).startswith(msg.replace("argmax", "argmin"))


# ---- oracles --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_torch_oracle(rng, dtype):
    """torch.argmax/argmin: the first index of equal elements; torch.argmax agrees on NaNs
    (a NaN wins), torch.argmin does not (it too returns a NaN), so argmin's data has none."""
    torch = pytest.importorskip("torch")
    x = small_ints(rng, (5, 6, 7), dtype)
    if dtype in (np.float32, np.float64):
        x[1, 2, 3] = x[4, 0, 6] = np.nan
    for dim in range(3):
        np.testing.assert_array_equal(dmlc.argmax(x, dim), torch.argmax(torch.from_numpy(x), dim).numpy())
        clean = np.nan_to_num(x, nan=1) if x.dtype.kind == "f" else x
        np.testing.assert_array_equal(dmlc.argmin(clean, dim), torch.argmin(torch.from_numpy(clean), dim).numpy())
    assert int(dmlc.argmax(x)) == int(torch.argmax(torch.from_numpy(x)))


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("last", [0, 1])
def test_onnxruntime_oracle(rng, op, last):
    """ONNX ArgMax/ArgMin with select_last_index, keepdims=1, on data without NaNs (ONNX
    Runtime's CPU kernels skip NaNs)."""
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    x = small_ints(rng, (4, 5, 6), np.float32)
    fn = dmlc.argmax if op == "ArgMax" else dmlc.argmin
    for axis in range(3):
        node = helper.make_node(op, ["x"], ["y"], axis=axis, keepdims=1, select_last_index=last)
        out_shape = [1 if a == axis else n for a, n in enumerate(x.shape)]
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                                  [helper.make_tensor_value_info("y", TensorProto.INT64, out_shape)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        sess = ort.InferenceSession(onnx._serialize(model) if hasattr(onnx, "_serialize") else model.SerializeToString(),
                                    providers=["CPUExecutionProvider"])
        want = sess.run(None, {"x": x})[0]
        np.testing.assert_array_equal(fn(x, axis, keepdims=True, select_last_index=bool(last)), want)
