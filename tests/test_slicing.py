"""dmlc.slice (SLICE1) against NumPy slicing and the window rule of docs/operators/slice1.rst: every dtype,
negative strides, views of every kind, empty results, and wrong arguments."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import ref_slice1
from support import ALL_DTYPES, assert_same_bits, random_array


def numpy_slice(x, offsets, sizes, strides):
    """The same window as NumPy basic slicing: [o : o+n : s], or from the end for s < 0."""
    index = []
    for o, n, s in zip(offsets, sizes, strides):
        if s > 0:
            index.append(slice(o, o + n, s))
        else:
            index.append(slice(o + n - 1, o - 1 if o > 0 else None, s))
    return x[tuple(index)]


def test_reference_agrees_with_numpy_slicing(rng):
    x = random_array(rng, (6, 7, 8), np.int32)
    for offsets, sizes, strides in [([0, 0, 0], [6, 7, 8], [1, 1, 1]), ([1, 2, 3], [4, 5, 5], [2, -3, -1]),
                                    ([5, 0, 7], [1, 7, 1], [-4, 7, 2])]:
        np.testing.assert_array_equal(ref_slice1(x, offsets, sizes, strides), numpy_slice(x, offsets, sizes, strides))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_positive_and_negative_strides(rng, dtype):
    x = random_array(rng, (5, 6, 7, 9), dtype)
    for offsets, sizes, strides in [([0, 1, 2, 0], [5, 5, 4, 9], [1, 2, 3, 2]),
                                    ([1, 0, 0, 3], [4, 6, 7, 6], [-1, -2, 1, -3]),
                                    ([4, 5, 6, 8], [1, 1, 1, 1], [-7, 3, 1, 100])]:
        y = dmlc.slice(x, offsets, sizes, strides)
        assert y.dtype == x.dtype
        assert_same_bits(y, np.ascontiguousarray(numpy_slice(x, offsets, sizes, strides)))
        assert_same_bits(y, ref_slice1(x, offsets, sizes, strides))


def test_output_size_is_every_element_the_window_holds():
    x = np.arange(10)
    # 1 + (size - 1) // |stride|: a window of 7 with step 3 holds 3, with step 2 holds 4.
    np.testing.assert_array_equal(dmlc.slice(x, 2, 7, 3), [2, 5, 8])
    np.testing.assert_array_equal(dmlc.slice(x, 2, 7, -3), [8, 5, 2])
    np.testing.assert_array_equal(dmlc.slice(x, 2, 7, -2), [8, 6, 4, 2])
    np.testing.assert_array_equal(dmlc.slice(x, 0, 10, 2**31 - 1), [0])
    np.testing.assert_array_equal(dmlc.slice(x, 3, 7, -2**31), [9])


@pytest.mark.parametrize("nd", range(1, 9))
def test_one_to_eight_dimensions(rng, nd):
    shape = [3, 4, 2, 5, 3, 2, 4, 3][:nd]
    x = random_array(rng, shape, np.uint16)
    offsets = [1] * nd
    sizes = [n - 1 for n in shape]
    strides = [(-1) ** k * (1 + k % 2) for k in range(nd)]
    np.testing.assert_array_equal(dmlc.slice(x, offsets, sizes, strides), ref_slice1(x, offsets, sizes, strides))


def views(rng):
    base = random_array(rng, (6, 8, 10, 12), np.float32)
    return {
        "transposed": base.transpose(3, 1, 0, 2),
        "every other": base[:, ::2, 1::2],
        "reversed": base[::-1, :, ::-1],
        "reversed with steps": base[::-2, ::-3, :, ::-1],
        "broadcast": np.broadcast_to(base[:1, :, :1], (5, 8, 4, 12)),
        "Fortran order": np.asfortranarray(base),
    }


def test_views_as_input(rng):
    for name, x in views(rng).items():
        for strides in ([1, 1, 1, 1], [-1, 2, -2, 3], [2, -1, 1, -5]):
            offsets = [1, 0, 1, 2]
            sizes = [n - 1 - (k == 3) for k, n in enumerate(x.shape)]
            np.testing.assert_array_equal(dmlc.slice(x, offsets, sizes, strides), ref_slice1(x, offsets, sizes, strides),
                                          err_msg=f"{name} {strides}")


def test_negative_stride_views_are_read_in_place(rng, monkeypatch):
    x = random_array(rng, (6, 8, 10), np.float32)[::-1, :, ::-2]
    calls = []
    real = np.ascontiguousarray
    monkeypatch.setattr(np, "ascontiguousarray", lambda *a, **k: calls.append(a) or real(*a, **k))
    y = dmlc.slice(x, [1, 2, 0], [4, 5, 5], [2, -1, 2])
    assert calls == []
    np.testing.assert_array_equal(y, ref_slice1(x, [1, 2, 0], [4, 5, 5], [2, -1, 2]))


def test_out(rng):
    x = random_array(rng, (8, 9), np.int64)
    big = np.zeros((5, 10), np.int64)
    view = big[1:5, 8:0:-2]  # negative strides in out too
    r = dmlc.slice(x, [0, 1], [8, 8], [2, -2], out=view)
    assert r is view
    np.testing.assert_array_equal(view, ref_slice1(x, [0, 1], [8, 8], [2, -2]))
    mask = np.ones(big.shape, bool)
    mask[1:5, 8:0:-2] = False
    assert not big[mask].any()
    # out overlapping x: x is read from a copy first.
    y = np.arange(20.0)
    want = ref_slice1(y, [0], [10], [-1])
    dmlc.slice(y, 0, 10, -1, out=y[5:15])
    np.testing.assert_array_equal(y[5:15], want)


def test_empty_windows_and_arrays():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert dmlc.slice(x, [1, 2], [0, 2], 1).shape == (0, 2)  # x[1:1, 2:4]
    assert dmlc.slice(x, [3, 0], [0, 4], [-1, 1]).shape == (0, 4)
    e = np.zeros((0, 5), np.int8)
    assert dmlc.slice(e, [0, 1], [0, 3], [1, 2]).shape == (0, 2)
    out = np.zeros((0, 2), np.int8)
    assert dmlc.slice(e, [0, 1], [0, 3], [1, 2], out=out) is out


def test_one_int_for_every_axis():
    x = np.arange(64).reshape(4, 4, 4)
    np.testing.assert_array_equal(dmlc.slice(x, 1, 3, -1), x[3:0:-1, 3:0:-1, 3:0:-1])


@settings(max_examples=80, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 7), min_size=1, max_size=5),
       dtype=st.sampled_from(ALL_DTYPES))
def test_against_the_reference(data, shape, dtype):
    x = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    offsets, sizes, strides = [], [], []
    for n in shape:
        o = data.draw(st.integers(0, n - 1))
        offsets.append(o)
        sizes.append(data.draw(st.integers(1, n - o)))
        strides.append(data.draw(st.integers(-4, 4).filter(bool)))
    assert_same_bits(dmlc.slice(x, offsets, sizes, strides), ref_slice1(x, offsets, sizes, strides))


# ---- wrong arguments ------------------------------------------------------------------------

X = np.zeros((4, 5), np.float32)


@pytest.mark.parametrize("args,exc,msg", [
    (([0, 0], [4, 5], [1, 0]), ValueError, r"slice: strides\[1\] is 0; a step must not be 0"),
    (([0, 0], [4, 5], 0), ValueError, "slice: strides is 0; a step must not be 0"),
    (([0, 0], [4, 5], [1, 2**31]), ValueError, r"slice: strides\[1\] is 2147483648, expected -2147483648 to 2147483647"),
    (([0, -1], [4, 5], 1), ValueError, r"slice: offsets\[1\] is -1, expected 0 to 4294967295"),
    (([0, 0], [4, -5], 1), ValueError, r"slice: sizes\[1\] is -5, expected 0 to 4294967295"),
    (([0, 0, 0], [4, 5], 1), ValueError, r"slice: offsets has 3 values, expected 2 \(one per dimension of x\)"),
    (([0, 0], [4], 1), ValueError, r"slice: sizes has 1 values, expected 2"),
    (([0, 0.5], [4, 5], 1), TypeError, r"slice: offsets\[1\] must be an int, not float"),
    (("0", [4, 5], 1), TypeError, "slice: offsets must be an int or a sequence of ints, not str"),
    (([0, 0], [4, 5], True), TypeError, "slice: strides must be an int or a sequence of ints, not bool"),
    (([0, 0], None, 1), TypeError, "slice: sizes must be an int or a sequence of ints, not NoneType"),
    # The window rules are the core's, with its messages.
    (([1, 0], [4, 5], 1), ValueError, r"^DML_OPERATOR_SLICE1: InputWindowOffsets\[0\] 1 \+ InputWindowSizes\[0\] 4 is 5, "
                                      r"more than InputTensor.Sizes\[0\] 4; the window must lie inside the input$"),
    (([0, 5], [4, 1], -1), ValueError, r"InputWindowOffsets\[1\] 5 \+ InputWindowSizes\[1\] 1 is 6"),
])
def test_bad_arguments(args, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.slice(X, *args)


def test_bad_arrays_and_out():
    with pytest.raises(ValueError, match="slice: x has 0 dimensions; DirectML tensors have 1 to 8"):
        dmlc.slice(np.float32(1), [], [])
    with pytest.raises(ValueError, match="slice: x has 9 dimensions; DirectML tensors have 1 to 8"):
        dmlc.slice(np.zeros((1,) * 9), 0, 1)
    with pytest.raises(TypeError, match="x has dtype bool, which dmlc does not support"):
        dmlc.slice(np.zeros(3, bool), 0, 3)
    with pytest.raises(ValueError, match=r"out has shape \(2, 5\), expected \(2, 3\)"):
        dmlc.slice(X, 0, [4, 5], [2, 2], out=np.zeros((2, 5), np.float32))
    with pytest.raises(TypeError, match="out has dtype float64, expected float32"):
        dmlc.slice(X, 0, [4, 5], out=np.zeros((4, 5)))


def test_a_window_past_the_end_of_a_reversed_view_is_reported_in_its_terms():
    x = np.arange(10.0)[::-1]
    with pytest.raises(ValueError, match=r"InputWindowOffsets\[0\] 8 \+ InputWindowSizes\[0\] 3 is 11, more than "
                                         r"InputTensor.Sizes\[0\] 10"):
        dmlc.slice(x, 8, 3, -1)


# ---- other libraries as oracles -----------------------------------------------------------

def test_pytorch_strided_views(rng):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (4, 6, 20, 22), np.float32)
    t = torch.from_numpy(x)
    np.testing.assert_array_equal(dmlc.slice(x, [0, 1, 2, 1], [4, 5, 17, 21], [1, 2, 3, 2]),
                                  t[:, 1:6:2, 2:19:3, 1:22:2].contiguous().numpy())
    # Negative steps are torch.flip of the positive walk from the window's end.
    np.testing.assert_array_equal(dmlc.slice(x, [0, 0, 0, 0], [4, 6, 20, 22], [1, 1, -1, -1]),
                                  torch.flip(t, dims=(2, 3)).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.uint8, np.int64])
@pytest.mark.parametrize("steps", [[1, 1, 2, 2], [1, -1, 1, -2], [2, 1, -3, 1]])
def test_onnxruntime_slice(rng, dtype, steps):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.slicing import onnx_slice
    x = random_array(rng, (3, 5, 8, 9), dtype)
    starts = [0 if s > 0 else n - 1 for n, s in zip(x.shape, steps)]
    ends = [n if s > 0 else -n - 1 for n, s in zip(x.shape, steps)]
    sess = ort_session(onnx_slice(dtype, list(x.shape), starts, ends, steps))
    np.testing.assert_array_equal(sess.run(None, {"x": x})[0], dmlc.slice(x, 0, list(x.shape), steps))
