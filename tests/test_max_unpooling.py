"""dmlc.max_unpool (DirectML MAX_UNPOOLING) against a plain NumPy reference, PyTorch and ONNX
Runtime: every dtype and both index types, 1 to 3 spatial axes, the round trip with
max_pool, duplicate and out-of-range indices, indices that leave their plane, threads,
strided views, empty arrays and argument errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import ref_max_unpool, unpool_loop
from support import ALL_DTYPES, assert_same_bits, random_array


def check(x, indices, shape, **kw):
    got = dmlc.max_unpool(x, indices, shape, **kw)
    assert_same_bits(got, ref_max_unpool(x, indices, shape))
    return got


# ---- the reference itself, and cases by hand ------------------------------------------------

def test_reference_agrees_with_the_rule_written_out(rng):
    for trial in range(40):
        shape = (2, 2, int(rng.integers(1, 5)))
        x = random_array(rng, shape, np.int16)
        idx = rng.integers(0, 2 * np.prod(shape) // 2 + 3, shape).astype(np.uint32)  # duplicates and misses
        out_shape = (2, 2, int(rng.integers(1, 6)))
        np.testing.assert_array_equal(ref_max_unpool(x, idx, out_shape), unpool_loop(x, idx, out_shape))


def test_by_hand_inverse_of_2x2_max_pool():
    x = np.array([[1, 8, 2, 3], [5, 4, 9, 0], [7, 7, 6, 11], [7, 2, 6, 1]], np.float32)[None, None]
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    np.testing.assert_array_equal(dmlc.max_unpool(v, i, x.shape)[0, 0],
                                  [[0, 8, 0, 0], [0, 0, 9, 0], [7, 0, 0, 11], [0, 0, 0, 0]])


def test_by_hand_indices_count_through_batch_and_channel():
    """Plane (n, c) of a {2, 3, 2, 2} output starts at flat index (n*3 + c)*4."""
    x = np.array([10, 20, 30, 40, 50, 60], np.uint8).reshape(2, 3, 1, 1)
    idx = np.array([3, 4, 9, 12, 19, 21], np.uint64).reshape(2, 3, 1, 1)
    out = dmlc.max_unpool(x, idx, (2, 3, 2, 2))
    assert out.reshape(-1).tolist() == [0, 0, 0, 10, 20, 0, 0, 0, 0, 30, 0, 0, 40, 0, 0, 0, 0, 0, 0, 50, 0, 60, 0, 0]


def test_later_element_wins_a_duplicate_index():
    x = np.array([1, 2, 3, 4, 5, 6], np.float64).reshape(1, 1, 6)
    idx = np.array([2, 0, 2, 5, 0, 2], np.uint32).reshape(1, 1, 6)
    assert dmlc.max_unpool(x, idx, (1, 1, 6)).reshape(-1).tolist() == [5, 0, 6, 0, 0, 4]


@pytest.mark.parametrize("indices_dtype", [np.uint32, np.uint64])
def test_index_past_the_output_writes_nothing(indices_dtype):
    """The all-ones index of a pooling window of padding only, and any index >= the
    output's size, are skipped; so is the output's size itself (one past the end)."""
    all_ones = np.iinfo(indices_dtype).max
    x = np.array([7, 8, 9, 10], np.int32).reshape(1, 1, 4)
    idx = np.array([all_ones, 3, 5, 6], indices_dtype).reshape(1, 1, 4)
    assert dmlc.max_unpool(x, idx, (1, 1, 6)).reshape(-1).tolist() == [0, 0, 0, 8, 0, 9]
    v, i = dmlc.max_pool(np.ones((1, 1, 2, 2), np.float32), 2, start_padding=4, end_padding=4, return_indices=True,
                         indices_dtype=np.dtype(indices_dtype).name)
    assert (i == all_ones).sum() == 24
    np.testing.assert_array_equal(dmlc.max_unpool(v, i, (1, 1, 2, 2)), [[[[1, 0], [0, 0]]]])


# ---- every dtype, index type and rank: the round trip with max_pool ------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("indices_dtype", ["uint32", "uint64"])
def test_round_trip_every_dtype(rng, dtype, indices_dtype):
    x = random_array(rng, (2, 3, 9, 13), dtype)
    for k, s, p in [(2, 2, 0), (3, 2, 1), (3, 3, 0), (2, 1, 1)]:
        v, i = dmlc.max_pool(x, k, strides=s, start_padding=p, end_padding=p, return_indices=True,
                             indices_dtype=indices_dtype)
        u = check(v, i, x.shape)
        # Every value sits where max pooling found it; everything else is 0.
        np.testing.assert_array_equal(u.reshape(-1)[i.reshape(-1).astype(np.intp)], v.reshape(-1))
        hit = np.zeros(x.size, bool)
        hit[i.reshape(-1).astype(np.intp)] = True
        assert np.all(u.reshape(-1)[~hit] == 0)


@pytest.mark.parametrize("dtype", [np.float16, np.int64, np.uint8])
@pytest.mark.parametrize("sp", [1, 3])
def test_one_and_three_spatial_axes(rng, dtype, sp):
    x = random_array(rng, (2, 2) + (6, 7, 9)[3 - sp:], dtype)
    v, i = dmlc.max_pool(x, 2, return_indices=True, indices_dtype="uint64")
    check(v, i, x.shape)
    check(v, i, x.shape[:2] + tuple(n + 1 for n in x.shape[2:]))  # a larger output of the caller's choice


def test_output_shape_is_the_callers(rng):
    """The output's spatial sizes need not be the pooled input's: indices count through
    whatever shape is asked for (ONNX MaxUnpool's output_shape)."""
    x = random_array(rng, (2, 2, 3, 3), np.float32)
    idx = rng.integers(0, 2 * 2 * 5 * 2, x.shape).astype(np.uint32)
    check(x, idx, (2, 2, 5, 2))
    check(x, idx, (2, 2, 1, 1))  # most indices past the output


# ---- threads and indices that leave their plane -------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 32, 32, 64), (1, 1, 512, 520), (1, 3, 300, 301), (64, 1, 9)])
def test_threads_give_the_sequential_result(rng, shape):
    """Planes shared out, or (few planes) cut into parts: identical to the rule for any
    thread count, with duplicate indices inside each plane."""
    x = random_array(rng, shape, np.float32)
    plane = int(np.prod(shape[2:]))
    base = (np.arange(shape[0] * shape[1]) * plane).reshape(shape[:2] + (1,) * (len(shape) - 2))
    idx = (base + rng.integers(0, plane // 3 + 1, shape)).astype(np.uint64)
    want = ref_max_unpool(x, idx, shape)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3, 8):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.max_unpool(x, idx, shape), want)
    finally:
        dmlc.set_num_threads(0)
        assert dmlc.get_num_threads() == old


@pytest.mark.parametrize("shape", [(4, 32, 32, 64), (1, 2, 512, 520)])
def test_indices_that_leave_their_plane(rng, shape):
    """An index into another plane: the result is still the sequential rule (an element
    of an earlier plane lands before the later plane's, which win)."""
    x = random_array(rng, shape, np.int32)
    plane = int(np.prod(shape[2:]))
    base = (np.arange(shape[0] * shape[1]) * plane).reshape(shape[:2] + (1, 1))
    idx = (base + rng.integers(0, plane, shape)).astype(np.uint32)
    flat = idx.reshape(-1)
    flat[::997] = rng.integers(0, x.size, flat[::997].size)  # scattered anywhere in the output
    flat[5] = flat[-5]  # the first plane writes into the last one's spot, which the last overwrites
    flat[-7] = flat[3]  # the last plane overwrites the first one's
    want = ref_max_unpool(x, idx, shape)
    old = dmlc.get_num_threads()
    try:
        for n in (1, 2, 3):
            dmlc.set_num_threads(n)
            assert_same_bits(dmlc.max_unpool(x, idx, shape), want)
            # The sequential redo into an output with strides of its own.
            out = np.zeros(shape[::-1], x.dtype).T
            assert_same_bits(dmlc.max_unpool(x, idx, shape, out=out), want)
    finally:
        dmlc.set_num_threads(0)
        assert dmlc.get_num_threads() == old


# ---- memory: strided views in and out, broadcasts, out= ------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8])
def test_strided_inputs_and_indices(rng, dtype):
    x = random_array(rng, (3, 4, 20, 50), dtype)
    v, i = dmlc.max_pool(x, 2, return_indices=True, indices_dtype="uint64")
    vt = np.ascontiguousarray(v.transpose(1, 0, 2, 3)).transpose(1, 0, 2, 3)  # channel-major memory
    it = np.asfortranarray(i)
    check(vt, it, x.shape)
    check(v[:, :, ::2], i[:, :, ::2], x.shape)
    check(np.broadcast_to(v[:, :1], v.shape), i, x.shape)
    # Broadcast indices: every element of a row goes to one place; the row's last wins.
    check(v, np.broadcast_to(i[..., :1], i.shape), x.shape)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int8])
def test_out_may_be_a_strided_view(rng, dtype):
    x = random_array(rng, (2, 3, 12, 34), dtype)
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    want = ref_max_unpool(v, i, x.shape)
    big = np.full((2, 3, 12, 40), 9, dtype)
    got = dmlc.max_unpool(v, i, x.shape, out=big[:, :, :, 3:37])
    assert np.shares_memory(got, big)
    assert_same_bits(big[:, :, :, 3:37], want)
    assert np.all(big[:, :, :, :3] == 9) and np.all(big[:, :, :, 37:] == 9)
    trans = np.full((3, 2, 34, 12), 9, dtype).transpose(1, 0, 3, 2)  # every stride out of order
    assert dmlc.max_unpool(v, i, x.shape, out=trans) is trans
    assert_same_bits(trans, want)


def test_out_returns_the_given_array_and_overlap_is_read_first(rng):
    x = random_array(rng, (1, 2, 8, 8), np.float32)
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    o = np.empty(x.shape, np.float32)
    assert dmlc.max_unpool(v, i, x.shape, out=o) is o
    # out= sharing memory with the values: they are read before anything is written.
    buf = np.zeros(256, np.float32)
    vals = buf[:32].reshape(v.shape)
    vals[...] = v
    want = ref_max_unpool(v, i, (1, 2, 4, 32))
    got = dmlc.max_unpool(vals, i, (1, 2, 4, 32), out=buf[:256].reshape(1, 2, 4, 32))
    assert_same_bits(got, want)


def test_empty_arrays():
    x = np.zeros((0, 3, 4, 4), np.float32)
    out = dmlc.max_unpool(x, np.zeros(x.shape, np.uint32), (0, 3, 8, 8))
    assert out.shape == (0, 3, 8, 8) and out.dtype == np.float32
    # No values to place: all zeros.
    out = dmlc.max_unpool(np.zeros((1, 2, 0, 3), np.int16), np.zeros((1, 2, 0, 3), np.uint64), (1, 2, 2, 2))
    assert out.shape == (1, 2, 2, 2) and not out.any()
    # An empty output: nothing to write.
    assert dmlc.max_unpool(np.ones((1, 1, 2), np.int8), np.zeros((1, 1, 2), np.uint32), (1, 1, 0)).shape == (1, 1, 0)


def test_array_likes():
    assert dmlc.max_unpool([[[5, 6]]], np.array([[[3, 0]]], np.uint32), [1, 1, 4]).tolist() == [[[6, 0, 0, 5]]]


# ---- properties ----------------------------------------------------------------------------------

@st.composite
def round_trips(draw):
    sp = draw(st.integers(1, 3))
    spatial = draw(st.lists(st.integers(1, 9), min_size=sp, max_size=sp))
    window = draw(st.lists(st.integers(1, 4), min_size=sp, max_size=sp))
    start = draw(st.lists(st.integers(0, 2), min_size=sp, max_size=sp))
    end = draw(st.lists(st.integers(0, 2), min_size=sp, max_size=sp))
    for i in range(sp):
        while window[i] > spatial[i] + start[i] + end[i]:
            end[i] += 1
    dtype = draw(st.sampled_from([np.float32, np.float16, np.uint8, np.int64, np.float64]))
    return ((draw(st.integers(1, 2)), draw(st.integers(1, 3)), *spatial), dtype, window, start, end,
            draw(st.sampled_from(["uint32", "uint64"])), draw(st.integers(0, 2 ** 32 - 1)))


@settings(max_examples=150, deadline=None)
@given(round_trips())
def test_property_unpool_of_max_pool_round_trips(case):
    """Windows that do not overlap (stride = window) and positive values: unpooling puts
    each maximum back in its window with zeros around it, so pooling again gives the same
    values and indices (a window of padding only: no write, and again the lowest value and
    all ones)."""
    shape, dtype, window, start, end, indices_dtype, seed = case
    x = random_array(np.random.default_rng(seed), shape, dtype)
    if np.dtype(dtype).kind == "f":
        x = np.abs(x) + 1
    elif np.dtype(dtype).kind == "i":
        x = np.abs(x // 2) + 1
    else:
        x = x // 2 + 1
    kw = dict(strides=window, start_padding=start, end_padding=end, return_indices=True, indices_dtype=indices_dtype)
    v, i = dmlc.max_pool(x, window, **kw)
    u = check(v, i, shape)
    v2, i2 = dmlc.max_pool(u, window, **kw)
    assert_same_bits(v2, v)
    np.testing.assert_array_equal(i2, i)


# ---- other libraries as oracles ------------------------------------------------------------------

@pytest.mark.parametrize("sp", [1, 2, 3])
def test_pytorch_max_unpool(rng, sp):
    """PyTorch's indices count within one (n, c) plane; add (n*C + c) * prod(spatial)."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    pool = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[sp]
    unpool = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[sp]
    for trial in range(6):
        spatial = tuple(int(v) for v in rng.integers(4, 11, sp))
        x = random_array(rng, (2, 3) + spatial, np.float32)
        k = tuple(int(v) for v in rng.integers(1, 4, sp))
        s = tuple(int(v) for v in rng.integers(1, 4, sp))
        tv, ti = pool(torch.from_numpy(x), k, s, return_indices=True)
        want = unpool(tv, ti, k, s, output_size=spatial).numpy()
        plane = np.arange(6).reshape(2, 3, *([1] * sp)) * int(np.prod(spatial))
        got = dmlc.max_unpool(tv.numpy(), (ti.numpy() + plane).astype(np.uint64), x.shape)
        if any(si < ki for si, ki in zip(s, k)):
            # Overlapping windows can pick one element twice; both libraries write the same value there.
            np.testing.assert_array_equal(got, want)
        else:
            assert_same_bits(got, want)


def test_onnxruntime_max_unpool(rng):
    """ONNX's MaxUnpool indices count through the whole output, as DirectML's (ONNX
    Runtime's CPU kernel takes float32 only)."""
    dtype = np.float32
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.max_unpooling import onnx_model
    # Input sizes whose pooled size unpools back to them by ONNX's default output shape,
    # (pooled - 1) * stride + window.
    for k, s, spatial in [(2, 2, (8, 12)), (3, 2, (9, 11)), (2, 1, (9, 12))]:
        x = random_array(rng, (2, 3) + spatial, dtype)
        v, i = dmlc.max_pool(x, k, strides=s, return_indices=True, indices_dtype="uint64")
        out_shape = (2, 3) + tuple((n - 1) * s + k for n in v.shape[2:])
        assert out_shape == x.shape
        sess = ort_session(onnx_model(dtype, list(v.shape), list(out_shape), (k, k), (s, s)))
        want = sess.run(None, {"x": v, "i": i.astype(np.int64)})[0]
        np.testing.assert_array_equal(dmlc.max_unpool(v, i, out_shape), want)


# ---- argument errors ---------------------------------------------------------------------------

V = np.zeros((1, 2, 3, 3), np.float32)
I32 = np.zeros((1, 2, 3, 3), np.uint32)
U = "DML_OPERATOR_MAX_UNPOOLING: "

ERRORS = [
    (dict(x=np.zeros((2, 3))), ValueError, "max_unpool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 2"),
    (dict(x=np.zeros((1,) * 6), indices=np.zeros((1,) * 6, np.uint32)), ValueError,
     "max_unpool: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got 6"),
    (dict(x=np.zeros((1, 2, 3, 3), np.complex64)), TypeError, "x has dtype complex64, which dmlc does not support"),
    (dict(indices=np.zeros((1, 2, 3, 3), np.int64)), TypeError,
     "max_unpool: indices has dtype int64, expected uint32 or uint64 (as max_pool returns them)"),
    (dict(indices=np.zeros((1, 2, 3, 3), np.float32)), TypeError, "max_unpool: indices has dtype float32, expected uint32"),
    (dict(indices=[[[[0]]]]), TypeError, "max_unpool: indices has dtype int64, expected uint32 or uint64"),
    (dict(indices=np.zeros((1, 2, 3, 2), np.uint32)), ValueError,
     U + "IndicesTensor.Sizes[3] is 2, expected 3 (InputTensor.Sizes[3])"),
    (dict(indices=np.zeros((1, 2, 9), np.uint64)), ValueError,
     U + "IndicesTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
    (dict(output_shape=(2, 2, 6, 6)), ValueError, U + "OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
    (dict(output_shape=(1, 3, 6, 6)), ValueError, U + "OutputTensor.Sizes[1] is 3, expected 2 (InputTensor.Sizes[1])"),
    (dict(output_shape=(1, 2, 36)), ValueError,
     U + "OutputTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
    (dict(output_shape=(1, 2)), ValueError,
     "max_unpool: output_shape has 2 values, expected 3 to 5 (N, C and 1 to 3 spatial axes, as x)"),
    (dict(output_shape=(1, 2, 6, -6)), ValueError, "max_unpool: output_shape[3] is -6, expected 0 to 4294967295"),
    (dict(output_shape=(1, 2, 6, 2 ** 32)), ValueError,
     "max_unpool: output_shape[3] is 4294967296, expected 0 to 4294967295"),
    (dict(output_shape=(1, 2, 6.0, 6)), TypeError, "max_unpool: output_shape[2] must be an int, not float"),
    (dict(output_shape=6), TypeError, "max_unpool: output_shape must be a sequence of ints, not int"),
    (dict(output_shape="1266"), TypeError, "max_unpool: output_shape must be a sequence of ints, not str"),
    (dict(out=np.zeros((1, 2, 6, 5), np.float32)), ValueError, "out has shape (1, 2, 6, 5), expected (1, 2, 6, 6)"),
    (dict(out=np.zeros((1, 2, 6, 6), np.float64)), TypeError, "out has dtype float64, expected float32"),
    (dict(out=[0]), TypeError, "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, "
                               "the array interface or the buffer protocol), not list"),
]


@pytest.mark.parametrize("kwargs,exc,msg", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_argument_errors(kwargs, exc, msg):
    kwargs = dict(kwargs)
    x = kwargs.pop("x", V)
    indices = kwargs.pop("indices", I32 if x.ndim == 4 else np.zeros(x.shape, np.uint32))
    shape = kwargs.pop("output_shape", (1, 2, 6, 6))
    with pytest.raises(exc) as info:
        dmlc.max_unpool(x, indices, shape, **kwargs)
    assert str(info.value).startswith(msg), str(info.value)


def test_read_only_out_is_refused():
    o = np.zeros((1, 2, 6, 6), np.float32)
    o.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        dmlc.max_unpool(V, I32, o.shape, out=o)
