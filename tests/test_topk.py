"""dmlc.top_k against tests/reference.py's ref_top_k (a stable argsort of the order keys),
and torch.topk and ONNX Runtime's TopK where they agree with dmlc's order and tie rule
(docs/operators/top_k1.rst): every dtype, 1 to 8 dimensions, both directions, ties, NaNs and
signed zeros, strides, out=, index types, small and large k (heap and selection kernels),
rows split across threads, zero-size arrays, and every argument fed wrong values."""
import os
import subprocess
import sys

import numpy as np
import pytest

import dmlc
from reference import ref_top_k
from support import ALL_DTYPES, child_cwd, child_env, random_array


def small_ints(rng, shape, dtype):
    """Few distinct values, so that ties are common."""
    return rng.integers(0, 4, size=shape).astype(dtype)


def check(x, k, axis, largest, **kw):
    v, i = dmlc.top_k(x, k, axis, largest=largest, **kw)
    rv, ri = ref_top_k(x, k, axis, largest)
    np.testing.assert_array_equal(i, ri)
    assert v.dtype == x.dtype
    # Bit for bit: NaN payloads and -0.0 kept.
    np.testing.assert_array_equal(v.view(f"u{x.dtype.itemsize}"), rv.view(f"u{x.dtype.itemsize}"))
    return v, i


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_both_directions(rng, dtype):
    """Random and tie-heavy data; k from 1 to n along each axis (axis, k and direction
    sampled, every value reached)."""
    for x in (random_array(rng, (3, 9, 5), dtype), small_ints(rng, (3, 9, 5), dtype)):
        for axis, k, largest in ((0, 1, True), (0, 3, False), (1, 4, True), (1, 9, False), (2, 2, False),
                                 (2, 5, True), (-1, 1, False), (-2, 7, True)):
            v, i = check(x, k, axis, largest)
            assert i.dtype == np.int64


def test_one_to_eight_dimensions(rng):
    for nd in range(1, 9):
        x = small_ints(rng, (3, 2, 5, 2, 1, 2, 3, 2)[:nd], np.float32)
        for axis in range(nd):
            check(x, max(1, x.shape[axis] - 1), axis, axis % 2 == 0)


def test_the_pages_examples():
    x = np.array([[0, 1, 10, 11], [3, 2, 9, 8], [4, 5, 6, 7]], np.float32)
    v, i = dmlc.top_k(x, 2, 1)
    np.testing.assert_array_equal(v, [[11, 10], [9, 8], [7, 6]])
    np.testing.assert_array_equal(i, [[3, 2], [2, 3], [3, 2]])
    v, i = dmlc.top_k(x, 2, 0)
    np.testing.assert_array_equal(v, [[4, 5, 10, 11], [3, 2, 9, 8]])
    np.testing.assert_array_equal(i, [[2, 2, 0, 0], [1, 1, 1, 1]])


def test_ties_by_ascending_index_in_both_directions():
    x = np.array([2, 7, 1, 7, 2], np.int32)
    np.testing.assert_array_equal(dmlc.top_k(x, 4)[1], [1, 3, 0, 4])
    np.testing.assert_array_equal(dmlc.top_k(x, 4, largest=False)[1], [2, 0, 4, 1])
    same = np.full(6, 3, np.uint8)
    np.testing.assert_array_equal(dmlc.top_k(same, 6)[1], np.arange(6))
    np.testing.assert_array_equal(dmlc.top_k(same, 6, largest=False)[1], np.arange(6))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_above_infinity_and_signed_zeros(dtype):
    bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
    x = np.array([1, np.inf, np.nan, -0.0, np.nan, -np.inf, 0.0], dtype)
    x[4] = -x[4]  # a NaN with its sign bit set is a NaN like any other
    v, i = dmlc.top_k(x, 7)
    np.testing.assert_array_equal(i, [2, 4, 1, 0, 3, 6, 5])
    np.testing.assert_array_equal(v.view(bits), x[[2, 4, 1, 0, 3, 6, 5]].view(bits))  # -NaN, -0.0 kept
    v, i = dmlc.top_k(x, 7, largest=False)
    np.testing.assert_array_equal(i, [5, 3, 6, 0, 1, 2, 4])
    assert np.signbit(v[1]) and not np.signbit(v[2])


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, np.uint8])
def test_integer_extremes(dtype):
    info = np.iinfo(dtype)
    x = np.array([1, info.max, info.min, info.max, info.min], dtype)
    np.testing.assert_array_equal(dmlc.top_k(x, 5)[1], [1, 3, 0, 2, 4])
    np.testing.assert_array_equal(dmlc.top_k(x, 5, largest=False)[1], [2, 4, 0, 1, 3])


def test_heap_selection_and_parts_across_threads(rng):
    """Small k (the heap), large k (selection), ascending and descending runs (the heap's
    worst case), and few long rows split into parts across threads, with 1 thread and with
    the default."""
    ties = small_ints(rng, (3, 5000), np.float32)
    rising = np.tile(np.arange(4000, dtype=np.int32), (2, 1))
    long_rows = rng.integers(-1000, 1000, size=(2, 300000)).astype(np.int16)
    before = dmlc.get_num_threads()
    try:
        for threads in (1, max(before, 2)):
            dmlc.set_num_threads(threads)
            for largest in (False, True):
                for k in (1, 10, 64, 100, 2500, 5000):
                    check(ties, k, 1, largest)
                for k in (50, 3000):
                    check(rising, k, 1, largest)
                    check(rising[:, ::-1], k, 1, largest)
                check(long_rows, 20, 1, largest)
                check(long_rows[0], 1000, 0, largest)
    finally:
        dmlc.set_num_threads(0 if before == dmlc.get_num_threads() else before)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_long_rows_sorted_tied_and_extreme(rng, dtype):
    """Rows longer than the kernel's segment (256 blocks of 64 elements), whose K-th
    greatest block maximum becomes a second bar: random, ascending, descending, tie-heavy
    and strided rows, and rows of the type's extreme values (where that maximum is the
    least key and bars nothing); k below, at and above 256 (the blocks of a segment).
    dtype x case x k sampled, every case and k reached."""
    n = 20000
    x = random_array(rng, (n,), dtype)
    up = np.sort(x)
    hi, lo = ((np.finfo(dtype).max, np.finfo(dtype).min) if np.dtype(dtype).kind == "f"
              else (np.iinfo(dtype).max, np.iinfo(dtype).min))
    cases = [x, up, up[::-1], small_ints(rng, (n,), dtype), np.full(n, hi, dtype), np.full(n, lo, dtype),
             np.stack([up, x])[:, ::2], np.stack([x, up[::-1]]).T]
    ks = (1, 50, 256, 257, 2000)
    axes = (0, 0, 0, 0, 0, 0, 1, 0)
    for c, (arr, axis) in enumerate(zip(cases, axes)):
        for j, largest in enumerate((True, False)):
            check(arr, ks[(c + j + ALL_DTYPES.index(dtype)) % len(ks)], axis, largest)


def test_without_scratch_memory():
    """DMLC_TEST_NO_SCRATCH=1 makes the operator allocate nothing, as if no memory were to
    be had: K above 64 takes the stack-only passes, and few long rows across threads merge
    whole rows instead of parts.  The results are the same."""
    code = """if True:
        import numpy as np, dmlc
        from reference import ref_top_k
        rng = np.random.default_rng(5)
        dmlc.set_num_threads(2)
        ties = rng.integers(0, 4, size=(3, 3000)).astype(np.float32)
        long_rows = rng.standard_normal((1, 300000)).astype(np.float32)
        for x, k in ((ties, 65), (ties, 1000), (ties[:, ::-1], 200), (long_rows, 20), (long_rows, 300)):
            for largest in (True, False):
                v, i = dmlc.top_k(x, k, largest=largest)
                rv, ri = ref_top_k(x, k, 1, largest)
                assert (i == ri).all() and (v.view(np.uint32) == rv.view(np.uint32)).all(), (x.shape, k, largest)
        print("same")
    """
    env = child_env(DMLC_TEST_NO_SCRATCH="1")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.abspath(__file__)), env["PYTHONPATH"]])
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=child_cwd(), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "same\n"


def test_strided_views(rng):
    base = small_ints(rng, (6, 8, 10), np.float64)
    for x in (base[::2, 1::3, ::-1], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (4, 8, 10))):
        for axis in range(3):
            check(x, 2, axis, axis != 1)


@pytest.mark.parametrize("idt", ["int64", "int32", "uint64", "uint32", np.int32, np.dtype(np.uint64)])
def test_indices_dtype_and_out(rng, idt):
    x = small_ints(rng, (4, 5), np.float32)
    v, i = dmlc.top_k(x, 3, indices_dtype=idt)
    assert i.dtype == np.dtype(idt)
    np.testing.assert_array_equal(i, ref_top_k(x, 3, 1)[1])
    ov = np.full((4, 6), 99, np.float32)[:, ::2]  # strided out=
    oi = np.zeros((3, 4), np.dtype(idt)).T
    got = dmlc.top_k(x, 3, largest=False, indices_dtype=idt, out=(ov, oi))
    assert got[0] is ov and got[1] is oi
    rv, ri = ref_top_k(x, 3, 1, largest=False)
    np.testing.assert_array_equal(ov, rv)
    np.testing.assert_array_equal(oi, ri)


def test_index_type_too_narrow():
    """2**31 + 1 elements (one, broadcast) along the axis into int32: the core refuses the
    index 2**31 before reading anything."""
    x = np.broadcast_to(np.float32(1), (2**31 + 1,))
    with pytest.raises(ValueError, match=r"^DML_OPERATOR_TOP_K1: OutputIndexTensor.DataType is INT32, which cannot "
                                         r"hold index 2147483648 \(the sequence length InputTensor.Sizes\[0\] "
                                         r"2147483649 - 1\)$"):
        dmlc.top_k(x, 1, indices_dtype="int32")


def test_zero_size_and_k_zero():
    v, i = dmlc.top_k(np.zeros((0, 3), np.float32), 2)
    assert v.shape == i.shape == (0, 2) and v.dtype == np.float32 and i.dtype == np.int64
    v, i = dmlc.top_k(np.zeros((2, 0)), 0)
    assert v.shape == i.shape == (2, 0)
    v, i = dmlc.top_k(np.ones((2, 3)), 0, 0, indices_dtype="uint32")
    assert v.shape == i.shape == (0, 3) and i.dtype == np.uint32
    with pytest.raises(ValueError, match=r"^top_k: k is 1, expected 0 to 0 \(x.shape\[1\]\)$"):
        dmlc.top_k(np.zeros((2, 0)), 1)


def test_input_overlapping_out_is_read_first():
    buf = np.array([5, 1, 7, 3, 0, 0], np.int64)
    x = buf[:4]
    idx = np.zeros(2, np.int64)
    v, i = dmlc.top_k(x, 2, out=(buf[:2], idx))
    np.testing.assert_array_equal(buf[:2], [7, 5])
    np.testing.assert_array_equal(idx, [2, 0])


def test_outputs_sharing_memory_are_refused():
    x = np.arange(4, dtype=np.int64)
    buf = np.zeros(4, np.int64)
    with pytest.raises(ValueError, match="outputs\\[1\\] overlaps outputs\\[0\\]"):
        dmlc.top_k(x, 2, out=(buf[:2], buf[1:3]))


BAD = [
    (dict(x=np.float32(1)), ValueError, "top_k: x has 0 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros((1,) * 9)), ValueError, "top_k: x has 9 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros(3, bool)), TypeError, "x has dtype bool, which dmlc does not support"),
    (dict(k=4), ValueError, "top_k: k is 4, expected 0 to 3 (x.shape[1])"),
    (dict(k=-1), ValueError, "top_k: k is -1, expected 0 to 3 (x.shape[1])"),
    (dict(k=True), TypeError, "top_k: k must be an int, not bool"),
    (dict(k=1.0), TypeError, "top_k: k must be an int, not float"),
    (dict(k=None), TypeError, "top_k: k must be an int, not NoneType"),
    (dict(axis=2), ValueError, "top_k: axis is 2, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=-3), ValueError, "top_k: axis is -3, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=True), TypeError, "top_k: axis must be an int, not bool"),
    (dict(axis=(0,)), TypeError, "top_k: axis must be an int, not tuple"),
    (dict(largest=1), TypeError, "top_k: largest must be a bool, not int"),
    (dict(indices_dtype="int16"), ValueError, "top_k: indices_dtype is int16, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=np.float64), ValueError,
     "top_k: indices_dtype is float64, expected int64, int32, uint64 or uint32"),
    (dict(indices_dtype=None), TypeError, "top_k: indices_dtype must be a dtype, not NoneType"),
    (dict(out=np.zeros((2, 2), np.float32)), TypeError,
     "top_k: out must be a pair (values, indices) of arrays or None, not ndarray"),
    (dict(out=(np.zeros((2, 2), np.float64), np.zeros((2, 2), np.int64))), TypeError,
     "out values has dtype float64, expected float32"),
    (dict(out=(np.zeros((2, 3), np.float32), np.zeros((2, 2), np.int64))), ValueError,
     "out values has shape (2, 3), expected (2, 2)"),
    (dict(out=(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.int32))), TypeError,
     "out indices has dtype int32, expected int64"),
    (dict(out=(np.zeros((2, 2), np.float32), np.zeros((2, 1), np.int64))), ValueError,
     "out indices has shape (2, 1), expected (2, 2)"),
]


@pytest.mark.parametrize("kwargs,exc,msg", BAD, ids=[m for _, _, m in BAD])
def test_wrong_arguments(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", np.zeros((2, 3), np.float32))
    k = kwargs.pop("k", 2 if x.ndim else 1)
    with pytest.raises(exc) as e:
        dmlc.top_k(x, k, **kwargs)
    assert str(e.value).startswith(msg)


# ---- oracles --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_torch_oracle(rng, dtype):
    """torch.topk(sorted=True): its order among ties is unspecified, so the data has none
    (distinct values, a permutation); its NaNs sort above +inf as dmlc's do."""
    torch = pytest.importorskip("torch")
    x = rng.permutation(5 * 6 * 7).reshape(5, 6, 7).astype(dtype) if dtype != np.uint8 else \
        rng.permutation(200).reshape(5, 40).astype(dtype)
    if x.dtype.kind == "f":
        x[1, 2, 3] = np.nan
    for dim in range(x.ndim):
        for largest in (True, False):
            k = x.shape[dim] - 1
            v, i = dmlc.top_k(x, k, dim, largest=largest)
            tv, ti = torch.topk(torch.from_numpy(x), k, dim=dim, largest=largest, sorted=True)
            np.testing.assert_array_equal(v, tv.numpy())
            np.testing.assert_array_equal(i, ti.numpy())


@pytest.mark.parametrize("largest", [0, 1])
def test_onnxruntime_oracle(rng, largest):
    """ONNX TopK (sorted=1): ties by the lower index first in both directions, NaNs above
    +inf, as dmlc's."""
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    x = small_ints(rng, (4, 5, 6), np.float32)
    x[0, 1, 2] = x[3, 4, 5] = np.nan
    for axis in range(3):
        k = x.shape[axis] - 1
        out_shape = [k if a == axis else n for a, n in enumerate(x.shape)]
        k_init = helper.make_tensor("k", TensorProto.INT64, [1], [k])
        node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest, sorted=1)
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                                  [helper.make_tensor_value_info("v", TensorProto.FLOAT, out_shape),
                                   helper.make_tensor_value_info("i", TensorProto.INT64, out_shape)], [k_init])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
        model.ir_version = 8
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        wv, wi = sess.run(None, {"x": x})
        v, i = dmlc.top_k(x, k, axis, largest=bool(largest))
        np.testing.assert_array_equal(v, wv)
        np.testing.assert_array_equal(i, wi)
