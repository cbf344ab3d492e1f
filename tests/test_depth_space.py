"""dmlc.depth_to_space / dmlc.space_to_depth against plain NumPy references."""
import re
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import (crd_depth_to_space, crd_space_to_depth, dcr_depth_to_space, dcr_space_to_depth,
                       ref_depth_to_space, ref_space_to_depth)
from support import ALL_DTYPES, library_has_threads, random_array


ORDERS = ["depth_column_row", "column_row_depth"]


@pytest.mark.parametrize("b", [1, 2, 3, 5])
def test_references_agree(rng, b):
    """The loop references and the reshape/transpose ones are written independently."""
    x = random_array(rng, (2, 3 * b * b, 4, 5), np.int32)
    np.testing.assert_array_equal(ref_depth_to_space(x, b, "depth_column_row"), dcr_depth_to_space(x, b))
    np.testing.assert_array_equal(ref_depth_to_space(x, b, "column_row_depth"), crd_depth_to_space(x, b))
    y = random_array(rng, (2, 3, 4 * b, 5 * b), np.int32)
    np.testing.assert_array_equal(ref_space_to_depth(y, b, "depth_column_row"), dcr_space_to_depth(y, b))
    np.testing.assert_array_equal(ref_space_to_depth(y, b, "column_row_depth"), crd_space_to_depth(y, b))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("b", [1, 2, 3, 4])
def test_all_dtypes_orders_blocks(rng, dtype, order, b):
    x = random_array(rng, (2, 2 * b * b, 3, 5), dtype)
    y = dmlc.depth_to_space(x, b, order=order)
    np.testing.assert_array_equal(y, ref_depth_to_space(x, b, order))
    assert y.dtype == x.dtype
    z = dmlc.space_to_depth(y, b, order=order)
    np.testing.assert_array_equal(z, ref_space_to_depth(y, b, order))
    np.testing.assert_array_equal(z, x)


@pytest.mark.parametrize("shape", [(1, 4, 1, 1), (3, 8, 7, 1), (1, 4, 1, 9), (2, 12, 17, 33), (1, 64, 40, 40)])
@pytest.mark.parametrize("order", ORDERS)
def test_shapes(rng, shape, order):
    x = random_array(rng, shape, np.float32)
    np.testing.assert_array_equal(dmlc.depth_to_space(x, 2, order=order), ref_depth_to_space(x, 2, order))


@pytest.mark.parametrize("b", [5, 8])
def test_large_blocks(rng, b):
    x = random_array(rng, (1, 2 * b * b, 2, 3), np.int16)
    for order in ORDERS:
        np.testing.assert_array_equal(dmlc.depth_to_space(x, b, order=order), ref_depth_to_space(x, b, order))


def strided_views(rng, dtype):
    base = random_array(rng, (3, 16, 12, 14), dtype)
    return {
        "every other row": base[:, :, ::2, :],
        "every other column": base[:, :, :, ::2],
        "channel slice": base[1:, 4:12],
        "transposed H/W": base.transpose(0, 1, 3, 2),
        "NHWC memory": np.ascontiguousarray(base.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2),
        "broadcast batch": np.broadcast_to(base[:1], (4, 16, 12, 14)),
        "broadcast width": np.broadcast_to(base[:, :, :, :1], (3, 16, 12, 6)),
        "negative strides": base[:, :, ::-1, ::-2],
    }


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64, np.int16])
@pytest.mark.parametrize("order", ORDERS)
def test_strided_inputs(rng, dtype, order):
    for name, x in strided_views(rng, dtype).items():
        np.testing.assert_array_equal(dmlc.depth_to_space(x, 2, order=order), ref_depth_to_space(x, 2, order),
                                      err_msg=name)
        if x.shape[2] % 2 == 0 and x.shape[3] % 2 == 0:
            np.testing.assert_array_equal(dmlc.space_to_depth(x, 2, order=order), ref_space_to_depth(x, 2, order),
                                          err_msg=name)


def test_strided_input_is_not_copied(rng, monkeypatch):
    """A view with non-negative strides goes to the core as DML strides: no ascontiguousarray."""
    x = random_array(rng, (2, 8, 10, 12), np.float32)[:, :, ::2, 1::3]
    calls = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: calls.append(a) or real(*a, **k))
    y = dmlc.depth_to_space(x, 2)
    assert calls == []
    np.testing.assert_array_equal(y, ref_depth_to_space(x, 2))


@pytest.mark.parametrize("order", ORDERS)
def test_out_into_strided_view(rng, order):
    x = random_array(rng, (2, 8, 5, 6), np.float32)
    big = np.full((3, 4, 12, 30), -1, np.float32)
    view = big[1:, 1:3, 1:11, ::2][:, :, :, :12]
    r = dmlc.depth_to_space(x, 2, order=order, out=view)
    assert r is view
    np.testing.assert_array_equal(view, ref_depth_to_space(x, 2, order))
    untouched = big.copy()
    untouched[1:, 1:3, 1:11, ::2][:, :, :, :12] = -1
    assert np.all(untouched == -1), "wrote outside the out= view"


def test_out_negative_strides(rng):
    x = random_array(rng, (1, 4, 3, 3), np.int32)
    out = np.zeros((1, 1, 6, 6), np.int32)[:, :, ::-1, ::-1]
    r = dmlc.depth_to_space(x, 2, out=out)
    assert r is out
    np.testing.assert_array_equal(out, ref_depth_to_space(x, 2))


def test_out_overlapping_input(rng):
    base = random_array(rng, (1, 4 * 4 * 4), np.float32)
    x = base[0, :64].reshape(1, 4, 4, 4)
    expected = ref_depth_to_space(x.copy(), 2)
    out = base[0, :64].reshape(1, 1, 8, 8)  # the same memory
    dmlc.depth_to_space(x, 2, out=out)
    np.testing.assert_array_equal(out, expected)


def test_array_like_and_enum_order():
    x = [[[[1]], [[2]], [[3]], [[4]]]]
    y = dmlc.depth_to_space(x, 2, order=dmlc.DepthSpaceOrder.COLUMN_ROW_DEPTH)
    np.testing.assert_array_equal(y, [[[[1, 2], [3, 4]]]])
    assert dmlc.depth_to_space(np.zeros((1, 4, 1, 1), np.float32), 2, order="DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW").shape == (1, 1, 2, 2)
    assert dmlc.depth_to_space(np.zeros((1, 4, 1, 1), np.float32), 2, order="CRD").shape == (1, 1, 2, 2)
    assert dmlc.depth_to_space(np.zeros((1, 4, 1, 1), np.float32), np.int64(2), order=1).shape == (1, 1, 2, 2)


def test_non_native_byte_order(rng):
    x = random_array(rng, (1, 4, 2, 2), np.float32).astype(">f4")
    np.testing.assert_array_equal(dmlc.depth_to_space(x, 2), ref_depth_to_space(x.astype("<f4"), 2))


@pytest.mark.parametrize("shape,b,fn,expected", [
    ((0, 8, 2, 3), 2, dmlc.depth_to_space, (0, 2, 4, 6)),
    ((1, 0, 2, 3), 2, dmlc.depth_to_space, (1, 0, 4, 6)),
    ((2, 4, 0, 3), 2, dmlc.depth_to_space, (2, 1, 0, 6)),
    ((2, 3, 0, 4), 2, dmlc.space_to_depth, (2, 12, 0, 2)),
])
def test_zero_size(shape, b, fn, expected):
    y = fn(np.zeros(shape, np.float16), b)
    assert y.shape == expected and y.dtype == np.float16
    out = np.empty(expected, np.float16)
    assert fn(np.zeros(shape, np.float16), b, out=out) is out


def test_large_tensor_uses_threads_and_matches(rng):
    x = random_array(rng, (4, 64, 64, 64), np.float32)  # 4 MiB: split across threads
    want = ref_depth_to_space(x, 2)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            assert dmlc.get_num_threads() == (n if library_has_threads() else 1)
            np.testing.assert_array_equal(dmlc.depth_to_space(x, 2), want)
            np.testing.assert_array_equal(dmlc.space_to_depth(want, 2), x)
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_python_threads_share_the_library(rng):
    xs = [random_array(rng, (2, 16, 32, 32), np.float32) for _ in range(4)]
    results = [None] * 4

    def work(i):
        for _ in range(20):
            results[i] = dmlc.depth_to_space(xs[i], 2, order="column_row_depth")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x, r in zip(xs, results):
        np.testing.assert_array_equal(r, ref_depth_to_space(x, 2, "column_row_depth"))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 3), co=st.integers(1, 4), h=st.integers(1, 6), w=st.integers(1, 6), b=st.integers(1, 4),
       order=st.sampled_from(ORDERS), dtype=st.sampled_from(ALL_DTYPES))
def test_round_trip(n, co, h, w, b, order, dtype):
    x = np.arange(n * co * b * b * h * w).reshape(n, co * b * b, h, w).astype(dtype)
    y = dmlc.depth_to_space(x, b, order=order)
    assert y.shape == (n, co, h * b, w * b)
    np.testing.assert_array_equal(dmlc.space_to_depth(y, b, order=order), x)
    np.testing.assert_array_equal(y, ref_depth_to_space(x, b, order))


# ---- wrong arguments -----------------------------------------------------------------

X = np.zeros((1, 8, 2, 2), np.float32)


@pytest.mark.parametrize("block,exc,msg", [
    (0, ValueError, "depth_to_space: block_size is 0, expected 1 to 4294967295"),
    (-2, ValueError, "block_size is -2"),
    (2 ** 40, ValueError, "block_size is 1099511627776"),
    (1.5, TypeError, "block_size must be an int, not float"),
    ("2", TypeError, "block_size must be an int, not str"),
    (True, TypeError, "block_size must be an int, not bool"),
    (None, TypeError, "block_size must be an int, not NoneType"),
])
def test_bad_block_size(block, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.depth_to_space(X, block)


@pytest.mark.parametrize("order,exc,msg", [
    ("depth", ValueError, "order is 'depth', expected one of 'depth_column_row' \\(or 'dcr'\\), 'column_row_depth' "
                          "\\(or 'crd'\\)"),
    (2, ValueError, "order is 2, expected one of 0 \\(DEPTH_COLUMN_ROW\\), 1 \\(COLUMN_ROW_DEPTH\\)"),
    (1.0, TypeError, "order must be a string or DepthSpaceOrder, not float"),
    (dmlc.PaddingMode.EDGE, TypeError, "order must be a string or DepthSpaceOrder, not PaddingMode"),
])
def test_bad_order(order, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.space_to_depth(X, 2, order=order)


def test_bad_shapes():
    # Shape rules are the core's (docs/python-api.rst: the same message as the C core).
    with pytest.raises(ValueError, match=r"DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.Sizes\[1\] is 8, not divisible by "
                                         r"BlockSize \* BlockSize \(9\)"):
        dmlc.depth_to_space(X, 3)
    with pytest.raises(ValueError, match=r"DML_OPERATOR_SPACE_TO_DEPTH1: InputTensor.Sizes\[2\] is 2, not divisible by "
                                         r"BlockSize 3"):
        dmlc.space_to_depth(X, 3)


def test_huge_block_sizes_are_reported_exactly():
    # block_size**2 does not fit 32 bits: the message shows it whole, not wrapped.
    with pytest.raises(ValueError, match=r"InputTensor.Sizes\[1\] is 8, not divisible by BlockSize \* BlockSize "
                                         r"\(18446744065119617025\)"):
        dmlc.depth_to_space(X, 2 ** 32 - 1)
    # A broadcast view costs no memory, but its output would need 2**32 channels: refused by
    # the 32-bit size rule before anything is allocated (not a MemoryError).
    x = np.broadcast_to(np.zeros((1, 1, 1, 1), np.float32), (1, 1, 2 ** 17, 2 ** 17))
    with pytest.raises(ValueError, match=r"OutputTensor.Sizes\[1\] would be 4294967296 \(InputTensor.Sizes\[1\] 1 \* "
                                         r"BlockSize 65536 \* BlockSize 65536\), more than a tensor size can hold"):
        dmlc.space_to_depth(x, 2 ** 16)
    with pytest.raises(ValueError, match="depth_to_space: x must have 4 dimensions \\(N, C, H, W\\), got 3"):
        dmlc.depth_to_space(X[0], 2)


@pytest.mark.parametrize("dtype", [np.bool_, np.complex64, np.float128 if hasattr(np, "float128") else np.complex128, object])
def test_bad_dtype(dtype):
    with pytest.raises(TypeError, match="x has dtype .* which dmlc does not support"):
        dmlc.depth_to_space(np.zeros((1, 4, 1, 1), dtype), 2)


def test_bad_out():
    with pytest.raises(TypeError, match=re.escape(
            "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array interface or "
            "the buffer protocol), not list")):
        dmlc.depth_to_space(X, 2, out=[0])
    with pytest.raises(TypeError, match="out has dtype float64, expected float32"):
        dmlc.depth_to_space(X, 2, out=np.zeros((1, 2, 4, 4)))
    with pytest.raises(ValueError, match=r"out has shape \(1, 2, 4, 5\), expected \(1, 2, 4, 4\)"):
        dmlc.depth_to_space(X, 2, out=np.zeros((1, 2, 4, 5), np.float32))
    ro = np.zeros((1, 2, 4, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        dmlc.depth_to_space(X, 2, out=ro)


def test_set_num_threads_errors():
    with pytest.raises(ValueError, match="set_num_threads: n is -1, expected 0 to 1024"):
        dmlc.set_num_threads(-1)
    with pytest.raises(TypeError, match="set_num_threads: n must be an int, not str"):
        dmlc.set_num_threads("2")


# ---- other libraries as oracles -------------------------------------------------------
@pytest.mark.parametrize("b", [2, 3])
def test_pytorch_pixel_shuffle_is_column_row_depth(rng, b):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (2, 3 * b * b, 5, 7), np.float32)
    y = dmlc.depth_to_space(x, b, order="column_row_depth")
    np.testing.assert_array_equal(y, torch.nn.functional.pixel_shuffle(torch.from_numpy(x), b).numpy())
    np.testing.assert_array_equal(dmlc.space_to_depth(y, b, order="column_row_depth"),
                                  torch.nn.functional.pixel_unshuffle(torch.from_numpy(y), b).numpy())


@pytest.mark.parametrize("mode,order", [("DCR", "depth_column_row"), ("CRD", "column_row_depth")])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.uint8])
def test_onnxruntime_depth_to_space(rng, mode, order, dtype):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.depth_space import onnx_model
    x = random_array(rng, (2, 8, 3, 5), dtype)
    want = dmlc.depth_to_space(x, 2, order=order)
    sess = ort_session(onnx_model("DepthToSpace", 2, mode == "CRD", dtype, list(x.shape), list(want.shape)))
    np.testing.assert_array_equal(sess.run(None, {"x": x})[0], want)
    if mode == "DCR":  # ONNX SpaceToDepth has only the DCR order
        sess = ort_session(onnx_model("SpaceToDepth", 2, False, dtype, list(want.shape), list(x.shape)))
        np.testing.assert_array_equal(sess.run(None, {"x": want})[0], dmlc.space_to_depth(want, 2))


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_forked_child_after_parallel_work(rng):
    """multiprocessing's fork start method after dmlc used its threads must not deadlock."""
    import multiprocessing
    x = random_array(rng, (4, 64, 64, 64), np.float32)
    want = dmlc.depth_to_space(x, 2)  # large enough to run on threads in this process
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        got = pool.apply_async(dmlc.depth_to_space, (x, 2)).get(timeout=60)
    np.testing.assert_array_equal(got, want)
