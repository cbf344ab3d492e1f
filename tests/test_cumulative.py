"""dmlc.cumsum / dmlc.cumprod against tests/reference.py's ref_cumulative, NumPy, and
PyTorch and ONNX Runtime where they agree (docs/operators/cumulative_summation.rst): every
dtype, axis, exclusive and reverse, 1 to 8 dimensions, float16 accumulated in float32,
integers wrapping, signed zeros, strides, in place, zero-size arrays, threads, and every
argument fed wrong values."""
import itertools

import numpy as np
import pytest

import dmlc
from reference import ref_cumulative
from support import ALL_DTYPES, assert_same_bits, random_array

FUNCS = {"cumsum": (dmlc.cumsum, False), "cumprod": (dmlc.cumprod, True)}
FLAGS = list(itertools.product((False, True), (False, True)))  # (exclusive, reverse)


def scan_data(rng, shape, dtype, product):
    """Random values; for products small ones (so floats stay finite, integers still wrap)."""
    if product:
        return rng.integers(-3, 4, size=shape).astype(dtype) if np.dtype(dtype).kind != "u" else \
            rng.integers(0, 6, size=shape).astype(dtype)
    return random_array(rng, shape, dtype)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_axis_and_flag(rng, name, dtype):
    fn, product = FUNCS[name]
    x = scan_data(rng, (3, 4, 5), dtype, product)
    for axis in (0, 1, 2, -1):
        for exclusive, reverse in FLAGS:
            got = fn(x, axis, exclusive=exclusive, reverse=reverse)
            assert got.dtype == x.dtype and got.shape == x.shape
            assert_same_bits(got, ref_cumulative(x, axis, product, exclusive, reverse))
        if dtype != np.float16:  # NumPy sums float16 in float16; dmlc in float32
            npfn = np.cumprod if product else np.cumsum
            assert_same_bits(fn(x, axis), npfn(x, axis, dtype=x.dtype))


@pytest.mark.parametrize("name", FUNCS)
def test_one_to_eight_dimensions(rng, name):
    fn, product = FUNCS[name]
    for nd in range(1, 9):
        x = scan_data(rng, (3, 2, 3, 2, 1, 2, 3, 2)[:nd], np.float64, product)
        for axis in range(nd):
            flags = FLAGS[(nd + axis) % 4]  # every combination somewhere
            got = fn(x, axis, exclusive=flags[0], reverse=flags[1])
            assert_same_bits(got, ref_cumulative(x, axis, product, *flags))


def test_the_pages_examples():
    x = np.array([[2, 1, 3, 5], [3, 8, 7, 3], [9, 6, 2, 4]], np.float32)
    np.testing.assert_array_equal(dmlc.cumsum(x, 1), [[2, 3, 6, 11], [3, 11, 18, 21], [9, 15, 17, 21]])
    np.testing.assert_array_equal(dmlc.cumsum(x, 1, exclusive=True), [[0, 2, 3, 6], [0, 3, 11, 18], [0, 9, 15, 17]])
    np.testing.assert_array_equal(dmlc.cumsum(x, 1, reverse=True), [[11, 9, 8, 5], [21, 18, 10, 3], [21, 12, 6, 4]])
    np.testing.assert_array_equal(dmlc.cumprod(x, 0), [[2, 1, 3, 5], [6, 8, 21, 15], [54, 48, 42, 60]])
    np.testing.assert_array_equal(dmlc.cumprod(np.array([2, 4, 8, 3], np.float32), 0), [2, 8, 64, 192])


def test_float16_accumulates_in_float32():
    """Each float16 result is the float32 accumulator rounded once: the sum passes through
    inf (60000 + 60000 rounds to inf in float16) and comes back, which NumPy's float16
    cumsum cannot do; torch.cumsum agrees."""
    x = np.array([60000, 60000, -60000], np.float16)
    np.testing.assert_array_equal(dmlc.cumsum(x, 0), np.array([60000, np.inf, 60000], np.float16))
    with np.errstate(over="ignore"):
        assert np.cumsum(x)[2] == np.inf  # NumPy's float16 accumulator stays at inf
    tiny = np.full(3000, 1, np.float16)  # 2049 + 1 is 2049 in float16's own accumulator
    assert dmlc.cumsum(tiny, 0)[-1] == np.float16(3000)
    assert np.cumsum(tiny)[-1] == 2048
    big = np.array([300, 300, 1 / 300], np.float16)
    np.testing.assert_array_equal(dmlc.cumprod(big, 0), np.array([300, np.inf, np.float32(90000) *
                                                                  np.float32(np.float16(1 / 300))], np.float16))


def test_float32_accumulates_in_float32():
    """Each step rounds to float32, as np.cumsum(dtype=float32); PyTorch's CPU cumsum adds
    float32 in double and differs."""
    x = np.array([1, 2.0 ** -24, 2.0 ** -24, 2.0 ** -24], np.float32)
    np.testing.assert_array_equal(dmlc.cumsum(x, 0), [1, 1, 1, 1])
    np.testing.assert_array_equal(dmlc.cumsum(x, 0), np.cumsum(x, dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_signed_zeros_nan_and_infinity(dtype):
    x = np.array([-0.0, -0.0, 1, -1], dtype)
    got = dmlc.cumsum(x, 0)
    assert np.signbit(got[0]) and np.signbit(got[1])  # in[t_0] itself, then -0 + -0
    assert not np.signbit(got[3])                      # 1 + -1 is +0
    assert not np.signbit(dmlc.cumsum(x, 0, exclusive=True)[0])  # the exclusive start is +0
    assert np.signbit(dmlc.cumprod(np.array([2, -0.0], dtype), 0)[1])
    assert np.signbit(dmlc.cumsum(np.array([1, -0.0], dtype), 0, reverse=True)[1])
    r = dmlc.cumsum(np.array([1, np.inf, -np.inf, 2], dtype), 0)
    assert r[1] == np.inf and np.isnan(r[2]) and np.isnan(r[3])
    r = dmlc.cumprod(np.array([np.nan, 0, 1], dtype), 0, exclusive=True)
    assert r[0] == 1 and np.isnan(r[1]) and np.isnan(r[2])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_integers_wrap(dtype):
    info = np.iinfo(dtype)
    def wrap(v):  # v modulo 2^bits, in the dtype's range
        return (v - info.min) % (1 << info.bits) + info.min

    x = np.array([info.max, 1, info.max, 2], dtype)
    want = np.array([wrap(v) for v in itertools.accumulate([info.max, 1, info.max, 2])], dtype)
    assert_same_bits(dmlc.cumsum(x, 0), want)
    assert_same_bits(dmlc.cumsum(x, 0), np.cumsum(x, dtype=dtype))
    p = np.array([info.max, info.max, 3], dtype)  # max * max is 1 modulo 2^bits (signed and unsigned)
    assert_same_bits(dmlc.cumprod(p, 0), np.array([info.max, 1, 3], dtype))
    half = np.array([1 << (info.bits // 2), 1 << (info.bits // 2), 5], dtype)
    assert_same_bits(dmlc.cumprod(half, 0), np.array([1 << (info.bits // 2), 0, 0], dtype))


def test_long_rows_and_columns_across_threads(rng):
    """Sequences longer than a block and many sequences side by side (the kernel's blocks
    of columns, shared out across threads), with 1 thread and with the default."""
    rows = rng.standard_normal((3, 70001)).astype(np.float32)
    eights = rng.uniform(0.99, 1.01, (17, 5003))  # two blocks of 8 rows walked in step, and one row
    cols = rng.integers(-100, 100, (700, 1000)).astype(np.int32)
    before = dmlc.get_num_threads()
    try:
        for threads in (1, before):
            dmlc.set_num_threads(threads)
            assert_same_bits(dmlc.cumsum(rows, 1), np.cumsum(rows, 1, dtype=np.float32))
            assert_same_bits(dmlc.cumsum(rows, 1, reverse=True, exclusive=True),
                             ref_cumulative(rows, 1, False, True, True))
            assert_same_bits(dmlc.cumsum(cols, 0), np.cumsum(cols, 0, dtype=np.int32))
            assert_same_bits(dmlc.cumprod(eights, 1), np.cumprod(eights, 1))
            assert_same_bits(dmlc.cumprod(eights, 1, reverse=True), ref_cumulative(eights, 1, True, False, True))
            assert_same_bits(dmlc.cumprod(cols, 0, exclusive=True), ref_cumulative(cols, 0, True, True))
    finally:
        dmlc.set_num_threads(0 if before == dmlc.get_num_threads() else before)


def test_strided_views(rng):
    base = rng.integers(-9, 9, (6, 8, 10)).astype(np.float64)
    for x in (base[::2, 1::3, ::-1], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (4, 8, 10)),
              base[:, 3, :], base[..., ::3]):
        for axis in range(x.ndim):
            for exclusive, reverse in FLAGS:
                assert_same_bits(dmlc.cumsum(x, axis, exclusive=exclusive, reverse=reverse),
                                 ref_cumulative(x, axis, False, exclusive, reverse))


def test_out_strided_and_in_place(rng):
    x = rng.integers(-9, 9, (5, 6)).astype(np.int16)
    want = np.cumsum(x, 1, dtype=np.int16)
    out = np.zeros((5, 12), np.int16)[:, ::2]
    assert dmlc.cumsum(x, 1, out=out) is out
    np.testing.assert_array_equal(out, want)
    for axis, exclusive, reverse in [(0, False, False), (1, True, True), (0, True, False), (1, False, True),
                                     (0, False, True)]:
        y = x.astype(np.float32)
        want = ref_cumulative(y, axis, True, exclusive, reverse)
        assert dmlc.cumprod(y, axis, exclusive=exclusive, reverse=reverse, out=y) is y  # in place
        np.testing.assert_array_equal(y, want)
    z = x.astype(np.float64).T  # in place on a transposed view
    want = np.cumsum(z, 0)
    assert dmlc.cumsum(z, 0, out=z) is z
    np.testing.assert_array_equal(z, want)


def test_out_overlapping_x_reads_a_copy():
    x = np.arange(1, 9, dtype=np.int64)
    dmlc.cumsum(x[:4], 0, out=x[2:6])  # the core never sees a partial overlap
    np.testing.assert_array_equal(x, [1, 2, 1, 3, 6, 10, 7, 8])


def test_zero_size():
    for shape in ((0, 3), (2, 0), (2, 0, 4)):
        for axis in range(len(shape)):
            r = dmlc.cumsum(np.zeros(shape, np.float32), axis, exclusive=True)
            assert r.shape == shape and r.dtype == np.float32
            assert dmlc.cumprod(np.zeros(shape, np.uint8), axis, reverse=True).shape == shape
    out = np.zeros((0, 3), np.int8)
    assert dmlc.cumsum(np.zeros((0, 3), np.int8), 1, out=out) is out


BAD = [
    (dict(x=np.float32(1)), ValueError, "cumsum: x has 0 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros((1,) * 9)), ValueError, "cumsum: x has 9 dimensions; DirectML tensors have 1 to 8"),
    (dict(x=np.zeros(3, bool)), TypeError, "x has dtype bool, which dmlc does not support"),
    (dict(x=np.zeros(3, complex)), TypeError, "x has dtype complex128, which dmlc does not support"),
    (dict(axis=2), ValueError, "cumsum: axis is 2, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=-3), ValueError, "cumsum: axis is -3, expected -2 to 1 (x has 2 dimensions)"),
    (dict(axis=True), TypeError, "cumsum: axis must be an int, not bool"),
    (dict(axis=1.0), TypeError, "cumsum: axis must be an int, not float"),
    (dict(axis=None), TypeError, "cumsum: axis must be an int, not NoneType"),
    (dict(axis=(0,)), TypeError, "cumsum: axis must be an int, not tuple"),
    (dict(exclusive=1), TypeError, "cumsum: exclusive must be a bool, not int"),
    (dict(exclusive=None), TypeError, "cumsum: exclusive must be a bool, not NoneType"),
    (dict(reverse="yes"), TypeError, "cumsum: reverse must be a bool, not str"),
    (dict(out=np.zeros((2, 3), np.float64)), TypeError, "out has dtype float64, expected float32"),
    (dict(out=np.zeros((3, 2), np.float32)), ValueError, "out has shape (3, 2), expected (2, 3)"),
    (dict(out=np.zeros((2, 3), np.float32)[:, :1]), ValueError, "out has shape (2, 1), expected (2, 3)"),
    (dict(out=[0.0] * 6), TypeError, "out must be"),
]


@pytest.mark.parametrize("kwargs,exc,msg", BAD, ids=[m for _, _, m in BAD])
def test_wrong_arguments(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", np.zeros((2, 3), np.float32))
    kwargs.setdefault("axis", 0)
    axis = kwargs.pop("axis")
    with pytest.raises(exc) as e:
        dmlc.cumsum(x, axis, **kwargs)
    assert str(e.value).startswith(msg)
    with pytest.raises(exc) as e:
        dmlc.cumprod(x, axis, **kwargs)
    assert str(e.value).startswith(msg.replace("cumsum", "cumprod"))


def test_axis_is_required():
    with pytest.raises(TypeError):
        dmlc.cumsum(np.zeros(3))  # pylint: disable=no-value-for-parameter


def test_other_array_kinds():
    np.testing.assert_array_equal(dmlc.cumsum([1, 2, 3], 0), [1, 3, 6])
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.float64).reshape(2, 3)
    np.testing.assert_array_equal(dmlc.cumprod(t, 1), torch.cumprod(t, 1).numpy())


# ---- oracles --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int8, np.int32, np.int64, np.uint8])
def test_torch_oracle(rng, dtype):
    """torch.cumsum/cumprod keep the dtype and agree bit for bit for float16 (accumulated in
    float32) and float64 and integers; reversed through torch.flip.  (float32 is summed in
    double by PyTorch's CPU kernel: not compared.)  Integer sums wrap as in dmlc."""
    torch = pytest.importorskip("torch")
    for name, (fn, product) in FUNCS.items():
        x = scan_data(rng, (4, 5, 6), dtype, product)
        tfn = torch.cumprod if product else torch.cumsum
        tx = torch.from_numpy(x)
        for dim in range(3):
            want = tfn(tx, dim, dtype=tx.dtype).numpy()
            assert_same_bits(fn(x, dim), want)
            rev = torch.flip(tfn(torch.flip(tx, [dim]), dim, dtype=tx.dtype), [dim]).numpy()
            assert_same_bits(fn(x, dim, reverse=True), rev)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("exclusive,reverse", FLAGS)
def test_onnxruntime_oracle(rng, dtype, exclusive, reverse):
    """ONNX CumSum with its exclusive and reverse attributes: the same numbers."""
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    from onnx.helper import np_dtype_to_tensor_dtype
    x = random_array(rng, (3, 4, 5), dtype)
    elem = np_dtype_to_tensor_dtype(np.dtype(dtype))
    for axis in range(3):
        node = helper.make_node("CumSum", ["x", "axis"], ["y"], exclusive=int(exclusive), reverse=int(reverse))
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, x.shape)],
                                  [helper.make_tensor_value_info("y", elem, x.shape)],
                                  [helper.make_tensor("axis", onnx.TensorProto.INT64, [], [axis])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
        model.ir_version = 8
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        want = sess.run(None, {"x": x})[0]
        assert_same_bits(dmlc.cumsum(x, axis, exclusive=exclusive, reverse=reverse), want)
