"""Pooling against PyTorch and ONNX Runtime, shapes and values, over a grid of sizes,
windows, strides, paddings and dilations, both ceil modes.

``ceil_mode=True`` is PyTorch's and ONNX's: the ceil size ``ceil((n + start + end - k) /
stride) + 1``, less one where that last window would start in the end padding
(``(size - 1) * stride >= n + start``).  Every case is compared, none skipped: the shapes
must agree exactly, and the grid includes cases where the rule drops a window (counted, so
the rule is exercised).  Both libraries are optional oracles: the tests skip where one is
not installed."""
import itertools

import numpy as np
import pytest

import dmlc
from support import random_array

MAX_DTYPES_TORCH = [np.float64, np.float32, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8]


def axis_grid(dilations):
    """One spatial axis's (n, window, stride, dilation, padding): every combination PyTorch
    accepts (padding at most half the undilated window) whose window fits the padded input."""
    cases = []
    for n, k, s, d in itertools.product(range(3, 11), range(1, 5), range(1, 5), dilations):
        keff = (k - 1) * d + 1
        for p in range(0, k // 2 + 1):
            if keff <= n + 2 * p:
                cases.append((n, k, s, d, p))
    return cases


def grid(sp, count, seed, dilations=(1, 2, 3)):
    """Configurations with sp spatial axes: for one axis the whole grid, for two and three
    `count` draws of one axis configuration per axis (a fixed seed: the same every run)."""
    axis = axis_grid(dilations)
    if sp == 1:
        return [tuple(zip(c)) for c in axis]
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(axis), size=(count, sp))
    return [tuple(zip(*(axis[i] for i in row))) for row in picks]


@pytest.fixture
def torch():
    """PyTorch on one thread for these many tiny calls (its thread pool's hand-offs cost
    milliseconds each on a busy machine), restored afterwards."""
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


def dropped(n, k, s, d, a, b):
    """True if ceil mode drops the plain ceil size's last window along this axis."""
    keff = (k - 1) * d + 1
    ceil = -(-(n + a + b - keff) // s) + 1
    return (ceil - 1) * s >= n + a


# ---- PyTorch: max_pool1d/2d/3d, avg_pool1d/2d/3d --------------------------------------------------

@pytest.mark.parametrize("sp", [1, 2, 3])
@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("dtype", MAX_DTYPES_TORCH)
def test_pytorch_max_pool(torch, sp, ceil_mode, dtype):
    """Values bit for bit; PyTorch's indices count within one (n, c) plane, dmlc's over the
    whole tensor."""
    F = torch.nn.functional
    pool = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[sp]
    rng = np.random.default_rng(sp * 100 + ceil_mode)
    cases = grid(sp, 150 if sp == 2 else 60, seed=sp)
    drops = 0
    for n, k, s, d, p in cases:
        x = random_array(rng, (2, 3) + n, dtype)
        tv, ti = pool(torch.from_numpy(x), k, s, p, d, ceil_mode=ceil_mode, return_indices=True)
        v, i = dmlc.max_pool(x, k, strides=s, start_padding=p, end_padding=p, dilations=d, ceil_mode=ceil_mode,
                             return_indices=True, indices_dtype="uint64")
        case = dict(n=n, k=k, s=s, d=d, p=p, ceil_mode=ceil_mode)
        assert v.shape == tuple(tv.shape), case
        np.testing.assert_array_equal(v, tv.numpy(), err_msg=str(case))
        plane = np.arange(6).reshape(2, 3, *([1] * sp)) * int(np.prod(n))
        np.testing.assert_array_equal(i, ti.numpy() + plane, err_msg=str(case))
        drops += ceil_mode and any(map(dropped, n, k, s, d, p, p))
    assert drops > 0 or not ceil_mode


@pytest.mark.parametrize("sp", [1, 2, 3])
@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("include_padding", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_pytorch_avg_pool(torch, sp, ceil_mode, include_padding, dtype):
    """PyTorch has no dilation for average pooling (dilation 1 here); with count_include_pad
    its divisor is the window clipped to the padded input, which is include_padding's
    count.  Sums may be taken in another order: a tolerance of a few roundings of the
    window's values.  PyTorch's avg_pool3d has no float16 CPU kernel: there it runs in
    float32 and is rounded to float16."""
    F = torch.nn.functional
    pool = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[sp]
    rng = np.random.default_rng(sp * 100 + ceil_mode * 10 + include_padding)
    cases = grid(sp, 150 if sp == 2 else 60, seed=10 + sp, dilations=(1,))
    if sp == 3:  # avg_pool3d refuses an input smaller than the window, padding or not
        cases = [c for c in cases if all(n >= k for n, k in zip(c[0], c[1]))]
    tol = {np.float64: 1e-12, np.float32: 1e-5, np.float16: 2e-3}[dtype]
    drops = 0
    for n, k, s, _, p in cases:
        x = random_array(rng, (2, 3) + n, dtype)
        tx = torch.from_numpy(x if (sp < 3 or dtype != np.float16) else x.astype(np.float32))
        want = pool(tx, k, s, p, ceil_mode=ceil_mode, count_include_pad=include_padding).numpy().astype(dtype)
        got = dmlc.avg_pool(x, k, strides=s, start_padding=p, end_padding=p, include_padding=include_padding,
                            ceil_mode=ceil_mode)
        case = dict(n=n, k=k, s=s, p=p, ceil_mode=ceil_mode, include_padding=include_padding)
        assert got.shape == want.shape, case
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                                   atol=tol * float(np.abs(x).max()), err_msg=str(case))
        drops += ceil_mode and any(map(dropped, n, k, s, (1,) * sp, p, p))
    assert drops > 0 or not ceil_mode


# ---- ONNX Runtime: MaxPool, AveragePool with unequal start and end padding ----------------------------

def asymmetric_cases(count, seed, dilated):
    """2-D cases with unequal start and end padding (each less than the window, as ONNX
    Runtime requires) and both ceil modes; a fixed seed."""
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < count:
        n = tuple(int(v) for v in rng.integers(3, 12, 2))
        k = tuple(int(v) for v in rng.integers(1, 5, 2))
        s = tuple(int(v) for v in rng.integers(1, 5, 2))
        d = tuple(int(v) for v in rng.integers(1, 3, 2)) if dilated else (1, 1)
        a = tuple(int(rng.integers(0, ki)) for ki in k)
        b = tuple(int(rng.integers(0, ki)) for ki in k)
        if all((ki - 1) * di + 1 <= ni + ai + bi for ni, ki, di, ai, bi in zip(n, k, d, a, b)):
            cases.append((n, k, s, d, a, b, bool(len(cases) % 2)))
    return cases


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int8, np.uint8])
def test_onnxruntime_max_pool(dtype):
    """Values bit for bit and (float types: ONNX Runtime returns them for those only) the
    indices, which ONNX counts over the whole tensor, as DirectML does."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.max_pooling import onnx_model
    rng = np.random.default_rng(7)
    drops = 0
    for n, k, s, d, a, b, ceil in asymmetric_cases(40, seed=1, dilated=True):
        x = random_array(rng, (2, 3) + n, dtype)
        with_indices = np.dtype(dtype).kind == "f" and dtype != np.float16
        sess = ort_session(onnx_model(dtype, list(x.shape), [None] * 4, k, s, a + b, d, ceil, indices=with_indices))
        want = sess.run(None, {"x": x})
        v, i = dmlc.max_pool(x, k, strides=s, start_padding=a, end_padding=b, dilations=d, ceil_mode=ceil,
                             return_indices=True, indices_dtype="uint64")
        case = dict(n=n, k=k, s=s, d=d, a=a, b=b, ceil_mode=ceil)
        assert v.shape == want[0].shape, case
        np.testing.assert_array_equal(v, want[0], err_msg=str(case))
        if with_indices:
            np.testing.assert_array_equal(i, want[1], err_msg=str(case))
        drops += ceil and any(map(dropped, n, k, s, d, a, b))
    assert drops > 0


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("include_padding", [False, True])
def test_onnxruntime_average_pool(dtype, include_padding):
    """AveragePool (opset 19: dilations; ONNX Runtime's CPU kernel takes float32 and
    float16), unequal pads, both ceil modes."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.average_pooling import onnx_model
    rng = np.random.default_rng(8)
    tol = 1e-5 if dtype == np.float32 else 2e-3
    drops = 0
    for n, k, s, d, a, b, ceil in asymmetric_cases(40, seed=2, dilated=True):
        x = random_array(rng, (2, 3) + n, dtype)
        sess = ort_session(onnx_model(dtype, list(x.shape), [None] * 4, k, s, a + b, d, ceil, include_padding))
        want = sess.run(None, {"x": x})[0]
        got = dmlc.avg_pool(x, k, strides=s, start_padding=a, end_padding=b, dilations=d,
                            include_padding=include_padding, ceil_mode=ceil)
        case = dict(n=n, k=k, s=s, d=d, a=a, b=b, ceil_mode=ceil)
        assert got.shape == want.shape, case
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=tol,
                                   atol=tol * float(np.abs(x).max()), err_msg=str(case))
        drops += ceil and any(map(dropped, n, k, s, d, a, b))
    assert drops > 0


def test_issue_example_matches_pytorch_shape():
    """(2, 3, 17, 14), window 2, stride 3, padding 1 and 1, ceil mode: the plain ceil size
    would be (7, 6), but each last window would start in the end padding (6 * 3 - 1 = 17,
    5 * 3 - 1 = 14), so the shape is PyTorch's (6, 5), in memory and through dmlc.dask."""
    x = np.zeros((2, 3, 17, 14), np.float32)
    kw = dict(strides=3, start_padding=1, end_padding=1, ceil_mode=True)
    assert dmlc.max_pool(x, 2, **kw).shape == (2, 3, 6, 5)
    assert dmlc.avg_pool(x, 2, **kw).shape == (2, 3, 6, 5)
    dd = pytest.importorskip("dmlc.dask")
    assert dd.max_pool(x, 2, **kw).shape == (2, 3, 6, 5)
    assert dd.avg_pool(x, 2, **kw).shape == (2, 3, 6, 5)
