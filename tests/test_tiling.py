"""dmlc.tile against np.tile and the rule out[o] = x[o mod x.shape]: every dtype, views,
np.tile's rule for fewer repeats than dimensions, and wrong arguments."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import ref_tile
from support import ALL_DTYPES, assert_same_bits, random_array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(rng, dtype):
    x = random_array(rng, (2, 3, 4), dtype)
    for repeats in ([1, 1, 1], [2, 1, 3], [1, 4, 1], [3, 2, 2]):
        y = dmlc.tile(x, repeats)
        assert_same_bits(y, np.tile(x, repeats))
        assert_same_bits(y, ref_tile(x, repeats))


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = [2, 3, 1, 2, 2, 1, 3, 2][:nd]
    repeats = [2, 1, 3, 2, 1, 2, 1, 2][:nd]
    x = random_array(rng, shape, np.int16)
    np.testing.assert_array_equal(dmlc.tile(x, repeats), np.tile(x, repeats))


def test_fewer_repeats_than_dimensions_follow_np_tile():
    x = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(dmlc.tile(x, 2), np.tile(x, 2))          # the last axis only
    np.testing.assert_array_equal(dmlc.tile(x, [3]), np.tile(x, [3]))
    np.testing.assert_array_equal(dmlc.tile(x, np.array([2, 2])), np.tile(x, (2, 2)))
    np.testing.assert_array_equal(dmlc.tile(x, []), x)
    np.testing.assert_array_equal(dmlc.tile(np.int32(5), []), np.int32(5))
    assert dmlc.tile(np.int32(5), ()).shape == ()


def test_views_and_large_arrays(rng):
    base = random_array(rng, (8, 16, 30, 32), np.float32)
    for name, x in {"transposed": base.transpose(0, 2, 3, 1), "reversed": base[:, ::-1, ::2],
                    "broadcast": np.broadcast_to(base[:, :1], (8, 5, 30, 32)), "packed": base}.items():
        np.testing.assert_array_equal(dmlc.tile(x, [1, 1, 2, 2]), np.tile(x, [1, 1, 2, 2]), err_msg=name)
        np.testing.assert_array_equal(dmlc.tile(x, [2, 2, 1, 1]), np.tile(x, [2, 2, 1, 1]), err_msg=name)
    old = dmlc.get_num_threads()
    try:
        for threads in (1, 2, 3):
            dmlc.set_num_threads(threads)
            np.testing.assert_array_equal(dmlc.tile(base, [2, 1, 2, 2]), np.tile(base, [2, 1, 2, 2]))
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_large_outputs_stream_whole_planes(rng):
    """More than 16 MiB of output in runs of whole planes: the copy's non-temporal path,
    into an output that starts off a cache line, on 1 to 3 threads."""
    x = random_array(rng, (4, 17, 128, 128), np.float32)
    want = np.tile(x, [2, 2, 1, 1])
    store = np.zeros(want.size + 32, np.float32)
    out = store[5:5 + want.size].reshape(want.shape)
    try:
        for threads in (1, 2, 3):
            dmlc.set_num_threads(threads)
            out[...] = 0
            dmlc.tile(x, [2, 2, 1, 1], out=out)
            np.testing.assert_array_equal(out, want)
            assert not store[:5].any() and not store[5 + want.size:].any()
    finally:
        dmlc.set_num_threads(0)


def test_out(rng):
    x = random_array(rng, (3, 4), np.uint8)
    big = np.zeros((8, 20), np.uint8)
    view = big[1:7, ::-2][:, :8]
    r = dmlc.tile(x, [2, 2], out=view)
    assert r is view
    np.testing.assert_array_equal(view, np.tile(x, [2, 2]))
    mask = np.ones(big.shape, bool)
    mask[1:7, ::-2][:, :8] = False
    assert not big[mask].any()
    out = np.zeros((), np.float32)
    assert dmlc.tile(np.float32(2), [], out=out) is out and out == 2
    # out overlapping x: x is read from a copy.
    y = np.arange(8.0)
    dmlc.tile(y[:4], [2], out=y)
    np.testing.assert_array_equal(y, [0, 1, 2, 3, 0, 1, 2, 3])


def test_empty_arrays():
    assert dmlc.tile(np.zeros((0, 3), np.float16), [2, 2]).shape == (0, 6)
    assert dmlc.tile(np.zeros((2, 0), np.int8), 3).shape == (2, 0)


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=4), data=st.data(), dtype=st.sampled_from(ALL_DTYPES))
def test_against_np_tile(shape, data, dtype):
    x = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    repeats = data.draw(st.lists(st.integers(1, 3), min_size=0, max_size=len(shape)))
    assert_same_bits(dmlc.tile(x, repeats), np.tile(x, repeats))


# ---- wrong arguments ------------------------------------------------------------------------

X = np.zeros((2, 3), np.float32)


@pytest.mark.parametrize("repeats,exc,msg", [
    ([2, 0], ValueError, r"tile: repeats\[1\] is 0, expected 1 to 4294967295"),
    (0, ValueError, "tile: repeats is 0, expected 1 to 4294967295"),
    ([1, -2], ValueError, r"tile: repeats\[1\] is -2"),
    ([1, 2**32], ValueError, r"tile: repeats\[1\] is 4294967296, expected 1 to 4294967295"),
    ([1, 1, 2], ValueError, r"tile: repeats has 3 values, but x has 2 dimensions; DirectML's TILE keeps the rank"),
    ([1, 2.0], TypeError, r"tile: repeats\[1\] must be an int, not float"),
    ("2", TypeError, "tile: repeats must be an int or a sequence of ints, not str"),
    (True, TypeError, "tile: repeats must be an int or a sequence of ints, not bool"),
    (None, TypeError, "tile: repeats must be an int or a sequence of ints, not NoneType"),
])
def test_bad_repeats(repeats, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.tile(X, repeats)


def test_bad_arrays_and_out():
    with pytest.raises(TypeError, match="x has dtype complex128, which dmlc does not support"):
        dmlc.tile(np.zeros(2, complex), 2)
    with pytest.raises(ValueError, match="tile: x has 9 dimensions; DirectML tensors have 1 to 8"):
        dmlc.tile(np.zeros((1,) * 9), 2)
    with pytest.raises(ValueError, match=r"tile: repeats has 1 values, but x has 0 dimensions"):
        dmlc.tile(np.float32(1), 2)
    with pytest.raises(ValueError, match=r"out has shape \(2, 3\), expected \(2, 6\)"):
        dmlc.tile(X, 2, out=np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError, match="out has dtype int32, expected float32"):
        dmlc.tile(np.float32(1), [], out=np.zeros((), np.int32))
    # Output sizes beyond 32 bits: the core's rule, before anything is allocated.
    big = np.broadcast_to(np.zeros(1, np.uint8), (2**31,))
    with pytest.raises(ValueError, match=r"OutputTensor.Sizes\[0\] would be 4294967296 \(InputTensor.Sizes\[0\] "
                                         r"2147483648 \* Repeats\[0\] 2\), more than a tensor size can hold"):
        dmlc.tile(big, 2)


# ---- other libraries as oracles -----------------------------------------------------------

def test_pytorch_repeat(rng):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (2, 3, 5, 7), np.float32)
    np.testing.assert_array_equal(dmlc.tile(x, [1, 2, 3, 2]), torch.from_numpy(x).repeat(1, 2, 3, 2).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.uint64])
def test_onnxruntime_tile(rng, dtype):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.tiling import onnx_tile
    x = random_array(rng, (2, 3, 4, 5), dtype)
    sess = ort_session(onnx_tile(dtype, list(x.shape), [1, 3, 2, 2]))
    np.testing.assert_array_equal(sess.run(None, {"x": x})[0], dmlc.tile(x, [1, 3, 2, 2]))
