"""dmlc.identity against NumPy: copies of every kind of view (transposes through the blocked
transpose kernel, broadcasts, reversals), ScaleBias rounding (never a fused multiply-add),
in-place execution, and wrong arguments."""
import ctypes
import itertools
import os
import platform
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlc
from reference import ref_scale_bias
from support import ALL_DTYPES, assert_same_bits, bits, random_array

FLOATS = [np.float16, np.float32, np.float64]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---- the copy ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_copy_is_bit_exact(rng, dtype):
    x = random_array(rng, (3, 4, 5), dtype)
    if np.dtype(dtype).kind == "f":  # payloads and signs survive a copy without ScaleBias
        u = bits(x).reshape(-1)
        u[:3] = {2: [0x7C01, 0xFE00, 0x8000], 4: [0x7F800001, 0xFFC00123, 0x80000000],
                 8: [0x7FF0000000000001, 0xFFF8000000000123, 0x8000000000000000]}[x.itemsize]
    y = dmlc.identity(x)
    assert y is not x and y.flags.c_contiguous
    assert_same_bits(y, x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("perm", list(itertools.permutations(range(4))))
def test_every_permutation_of_4_dims(rng, dtype, perm):
    x = random_array(rng, (2, 9, 10, 11), dtype)
    assert_same_bits(dmlc.identity(x.transpose(perm)), np.ascontiguousarray(x.transpose(perm)))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
@pytest.mark.parametrize("shape,perm", [
    ((2, 64, 56, 56), (0, 2, 3, 1)),      # NCHW -> NHWC, whole tiles
    ((2, 56, 56, 64), (0, 3, 1, 2)),      # NHWC -> NCHW
    ((3, 67, 29, 31), (0, 2, 3, 1)),      # partial tiles on every side
    ((130, 70), (1, 0)),                  # a plain matrix transpose
    ((9, 17, 65), (2, 0, 1)),             # the partner dimension is not next to the innermost
    ((5, 3, 200, 9), (3, 2, 1, 0)),       # innermost output dimension of 5
])
def test_transposes_through_the_blocked_kernel(rng, dtype, shape, perm):
    x = random_array(rng, shape, dtype)
    want = np.ascontiguousarray(x.transpose(perm))
    for threads in (1, 2, 3):
        dmlc.set_num_threads(threads)
        try:
            assert_same_bits(dmlc.identity(x.transpose(perm)), want)
        finally:
            dmlc.set_num_threads(0)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.float64])
@pytest.mark.parametrize("offset", [0, 1, 3, 5])
def test_transposes_at_every_alignment(rng, dtype, offset):
    """Blocks start on cache lines whatever the arrays' alignment (NumPy's large arrays start
    16 bytes into a page): inputs and outputs offset by a few elements from a line."""
    n = 2 * 40 * 67 * 70
    store = random_array(rng, (n + 64,), dtype)
    x = store[offset:offset + n].reshape(2, 40, 67, 70)
    for perm in [(0, 2, 3, 1), (0, 3, 1, 2), (0, 1, 3, 2)]:
        out_store = np.zeros(n + 64, dtype)
        out = out_store[3 * offset + 1:3 * offset + 1 + n].reshape(x.transpose(perm).shape)
        dmlc.identity(x.transpose(perm), out=out)
        assert_same_bits(out, np.ascontiguousarray(x.transpose(perm)))
        assert not out_store[:3 * offset + 1].any() and not out_store[3 * offset + 1 + n:].any()


def test_large_transpose_uses_threads_and_streams(rng):
    """16 MiB and more of output: the kernel's non-temporal stores, split over threads."""
    x = random_array(rng, (2, 64, 200, 168), np.float32)  # 17 MB
    want = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    shifted = np.empty(x.size + 16, np.float32)[3:3 + x.size].reshape(want.shape)  # 12 bytes off a line
    dmlc.identity(x.transpose(0, 2, 3, 1), out=shifted)
    np.testing.assert_array_equal(shifted, want)
    for threads in (1, 2, 4):
        dmlc.set_num_threads(threads)
        try:
            np.testing.assert_array_equal(dmlc.identity(x.transpose(0, 2, 3, 1)), want)
            np.testing.assert_array_equal(dmlc.identity(want.transpose(0, 3, 1, 2)), x)
        finally:
            dmlc.set_num_threads(0)


def test_large_packed_copy(rng):
    """A packed copy of more than 16 MiB: one run cut into pieces for threads, its whole
    lines written non-temporally, the ends of each piece with ordinary stores."""
    x = random_array(rng, (5, 1000, 1001), np.float32)  # 20 MB
    store = np.zeros(x.size + 32, np.float32)
    out = store[7:7 + x.size].reshape(x.shape)
    for threads in (1, 2, 3):
        dmlc.set_num_threads(threads)
        try:
            out[...] = 0
            dmlc.identity(x, out=out)
            np.testing.assert_array_equal(out, x)
            assert not store[:7].any() and not store[7 + x.size:].any()
        finally:
            dmlc.set_num_threads(0)


def strided_views(rng, dtype):
    base = random_array(rng, (4, 6, 8, 10), dtype)
    return {
        "every other row": base[:, :, ::2, :],
        "every other column": base[:, :, :, ::2],
        "every third of two axes": base[:, :, ::3, 1::3],
        "sub-block": base[1:3, 2:5, 1:7, 3:9],
        "broadcast batch": np.broadcast_to(base[:1], (5, 6, 8, 10)),
        "broadcast everything": np.broadcast_to(base[:1, :1, :1, :1], (3, 4, 5, 6)),
        "reversed": base[::-1],
        "reversed with steps": base[:, ::-2, :, ::-3],
        "reversed and transposed": base[::-1, :, ::-1].transpose(3, 1, 0, 2),
        "Fortran order": np.asfortranarray(base),
        "1-d": base[1, 2, 3],
        "8-d": base.reshape(2, 2, 3, 2, 2, 2, 5, 4)[:, :, ::2],
    }


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.uint32, np.float64])
def test_views(rng, dtype):
    for name, x in strided_views(rng, dtype).items():
        y = dmlc.identity(x)
        assert y.shape == x.shape and y.dtype == x.dtype and y.flags.c_contiguous, name
        np.testing.assert_array_equal(bits(y), bits(np.ascontiguousarray(x)), err_msg=name)


def test_strided_input_is_not_copied_first(rng, monkeypatch):
    """A view with non-negative strides (and one with negative strides, read as a reversing
    SLICE1) goes to the core as it is: no NumPy copy before dmlc's."""
    x = random_array(rng, (4, 8, 10, 12), np.float32)
    calls = []
    for name in ("ascontiguousarray", "copy", "copyto"):
        real = getattr(np, name)
        monkeypatch.setattr(np, name, lambda *a, real=real, **k: calls.append(a) or real(*a, **k))
    y1 = dmlc.identity(x.transpose(0, 2, 3, 1))
    y2 = dmlc.identity(x[:, ::-1, :, ::-2])
    assert calls == []
    np.testing.assert_array_equal(y1, x.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y2, x[:, ::-1, :, ::-2])


@pytest.mark.parametrize("dtype", [np.uint16, np.float32])
def test_out_views(rng, dtype):
    x = random_array(rng, (3, 5, 7), dtype)
    big = np.zeros((4, 12, 9), dtype)
    for name, index in [("strided", np.s_[1:, :10:2, 1:8]), ("reversed", np.s_[:3, 10:0:-2, 8:1:-1]),
                        ("transposed", None)]:
        big[...] = 0
        if index is None:
            view = big.reshape(-1)[:105].reshape(7, 5, 3).transpose(2, 1, 0)
            mask = np.zeros(big.size, bool)
            mask[:105] = True
        else:
            view = big[index]
            mask = np.zeros(big.shape, bool)
            mask[index] = True
        r = dmlc.identity(x, out=view)
        assert r is view, name
        np.testing.assert_array_equal(view, x, err_msg=name)
        assert not big.reshape(-1)[~mask.reshape(-1)].any(), f"{name}: wrote outside out"


def test_in_place_and_overlapping_out(rng):
    x = random_array(rng, (6, 40), np.float32)
    # In place: out is x (DirectML's in-place execution), with and without ScaleBias.
    y = x.copy()
    assert dmlc.identity(y, out=y) is y
    np.testing.assert_array_equal(y, x)
    assert dmlc.identity(y, scale=3, bias=-1, out=y) is y
    assert_same_bits(y, ref_scale_bias(x, 3, -1))
    # The same memory in another layout, and a shifted overlap: read from a copy, as NumPy.
    z = x.copy()
    square = z[:, :6]
    dmlc.identity(square.T, out=z[:6, :6])
    np.testing.assert_array_equal(z[:, :6], x[:, :6].T)
    w = x.copy().reshape(-1)
    dmlc.identity(w[:-5], scale=2, out=w[5:])
    assert_same_bits(w[5:], ref_scale_bias(x.reshape(-1)[:-5], 2, 0))


def test_zero_dims_and_empty_arrays():
    assert dmlc.identity(np.float32(2.5)).shape == ()
    assert dmlc.identity(np.array(3, np.int8)) == 3
    assert dmlc.identity(np.array(2, np.float16), scale=3, bias=1) == 7
    out = np.zeros((), np.float64)
    assert dmlc.identity(np.array(1.5), scale=2, out=out) is out and out == 3
    for shape in [(0,), (3, 0, 2), (0, 5)]:
        e = dmlc.identity(np.zeros(shape, np.uint64).transpose())
        assert e.shape == shape[::-1] and e.dtype == np.uint64
    out = np.zeros((2, 0), np.float32)
    assert dmlc.identity(np.zeros((2, 0), np.float32), scale=2, out=out) is out


def test_array_likes_and_byte_order(rng):
    np.testing.assert_array_equal(dmlc.identity([[1, 2], [3, 4]]), [[1, 2], [3, 4]])
    x = random_array(rng, (3, 4), np.float32).astype(">f4")
    np.testing.assert_array_equal(dmlc.identity(x.T), x.T.astype("<f4"))


# ---- ScaleBias --------------------------------------------------------------------------------

def fma_emulated(x, scale, bias):
    """x*scale + bias rounded once: float32 products are exact in float64, so the float64
    sum rounded to float32 is the fused result except for rare double roundings."""
    return (x.astype(np.float64) * np.float64(np.float32(scale)) + np.float64(np.float32(bias))).astype(np.float32)


def test_scale_bias_float32_rounds_twice_like_numpy(rng):
    x = (rng.standard_normal(200_000) * 1000).astype(np.float32)
    scale, bias = 1.1, -0.3
    got = dmlc.identity(x, scale=scale, bias=bias)
    want = x * np.float32(scale) + np.float32(bias)
    assert_same_bits(got, want)
    # The data tell the two roundings apart: a fused multiply-add would fail above.
    assert (bits(fma_emulated(x, scale, bias)) != bits(want)).sum() > 1000


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("scale,bias", [(2.0, 10.0), (0.1, 0.7), (-3.5, 1e-3), (1e-30, 0.0), (3e38, 0.0),
                                        (float("inf"), 1.0), (0.0, float("nan")), (None, 5.0), (0.5, None)])
def test_scale_bias_every_float_type(rng, dtype, scale, bias):
    x = random_array(rng, (5, 7, 9), dtype)
    x.reshape(-1)[:4] = [0, -0.0, np.inf, -np.inf]
    got = dmlc.identity(x.transpose(2, 0, 1), scale=scale, bias=bias)
    want = ref_scale_bias(x.transpose(2, 0, 1), 1.0 if scale is None else scale, 0.0 if bias is None else bias)
    assert got.dtype == x.dtype
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    assert_same_bits(got[~nan], want[~nan])


def test_scale_bias_float16_is_one_rounding_of_the_float32_result():
    # 2049 * 1 + 0 is exact in float32 and rounds to 2048 (nearest even) as a half; 2051
    # rounds to 2052.  Subnormal halves widen exactly and come back.
    x = np.array([2048, 2050, 6.1e-5, 5.96e-8, -0.0, 65504], np.float16)
    got = dmlc.identity(x, scale=1.0, bias=1.0)
    np.testing.assert_array_equal(got, (x.astype(np.float32) + 1).astype(np.float16))
    assert list(got[:2]) == [2048, 2052]
    assert dmlc.identity(np.array([65504], np.float16), scale=2)[0] == np.inf  # overflow to infinity


def test_scale_bias_float64_widens_the_float32_values():
    x = np.array([1.0, 3.0], np.float64)
    got = dmlc.identity(x, scale=0.1, bias=0.2)
    # Scale and Bias are FLOATs: 0.1 is float32's 0.100000001490116..., widened exactly.
    np.testing.assert_array_equal(got, x * float(np.float32(0.1)) + float(np.float32(0.2)))
    assert got[0] != 0.1 + 0.2


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
@pytest.mark.skipif(not os.path.isfile(os.path.join(ROOT, "src", "kernels", "scale_bias.c")), reason="no source tree")
def test_scale_bias_kernel_compiled_for_fma_is_not_contracted(tmp_path, rng):
    """The kernel compiled for a target with fused multiply-add, where a compiler contracts
    a*b + c unless told not to: the result must still be NumPy's twice-rounded one.  The same
    file without its FP_CONTRACT/optimize pragmas is built as a control, which does differ, so
    this test can tell.  (FILL_VALUE_SEQUENCE's src/ops/fill.c includes the same guard.)"""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        if "fma" not in open("/proc/cpuinfo").read().split():
            pytest.skip("this x86-64 CPU has no FMA")
        flags = ["-O3", "-mfma", "-mavx2"]
    elif machine in ("aarch64", "arm64"):
        flags = ["-O3"]  # FMA is part of the base architecture
    else:
        pytest.skip(f"no known FMA flags for {machine}")
    source = os.path.join(ROOT, "src", "kernels", "scale_bias.c")
    text = open(source).read()
    control = tmp_path / "scale_bias_contracted.c"
    # The control drops the guard (src/kernels/no_contract.h, its pragmas).
    control.write_text(text.replace('#include "no_contract.h"', "")
                       .replace('#include "../dmlc_internal.h"', f'#include "{ROOT}/src/dmlc_internal.h"'))
    x = (rng.standard_normal(100_000) * 1000).astype(np.float32)
    want = x * np.float32(1.1) + np.float32(-0.3)
    results = {}
    for name, src in (("guarded", source), ("control", str(control))):
        lib_path = tmp_path / f"{name}.so"
        build = subprocess.run(["cc", "-std=gnu11", *flags, "-shared", "-fPIC", f"-I{ROOT}/include", src, "-o",
                                str(lib_path)], capture_output=True, text=True)
        assert build.returncode == 0, build.stderr
        lib = ctypes.CDLL(str(lib_path))
        fn = lib.dmlc_scale_bias_f32
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64]
        sb = (ctypes.c_float * 2)(1.1, -0.3)
        y = np.empty_like(x)
        fn(ctypes.addressof(sb), y.ctypes.data, 1, x.ctypes.data, 1, x.size)
        results[name] = y
    assert_same_bits(results["guarded"], want)
    assert (bits(results["control"]) != bits(want)).any(), "the control was not contracted: the test proves nothing"


def test_scale_bias_on_integers_is_refused():
    with pytest.raises(ValueError, match=r"^DML_OPERATOR_ELEMENT_WISE_IDENTITY: ScaleBias is set, but "
                                         r"InputTensor.DataType is INT32; a scale and bias apply only to FLOAT16, "
                                         r"FLOAT32 and FLOAT64$"):
        dmlc.identity(np.arange(4, dtype=np.int32), scale=2)
    out = np.full(4, 7, np.uint8)
    with pytest.raises(ValueError, match="InputTensor.DataType is UINT8"):
        dmlc.identity(np.arange(4, dtype=np.uint8)[::-1], bias=1, out=out)
    assert (out == 7).all(), "a refused call wrote to out"


@pytest.mark.parametrize("kw,exc,msg", [
    (dict(scale=True), TypeError, "identity: scale must be a real number, not bool"),
    (dict(bias="1"), TypeError, "identity: bias must be a real number, not str"),
    (dict(scale=1j), TypeError, "identity: scale must be a real number, not complex"),
    (dict(scale=[2.0]), TypeError, "identity: scale must be a real number, not list"),
    (dict(bias=1e39), ValueError, r"identity: bias is 1e\+39, beyond float32's range \(DML_SCALE_BIAS holds FLOAT"),
    (dict(scale=-2**200), ValueError, "identity: scale is -1.606938044258990"),
])
def test_bad_scale_and_bias(kw, exc, msg):
    with pytest.raises(exc, match=msg):
        dmlc.identity(np.ones(3, np.float32), **kw)


def test_scale_and_bias_accept_numpy_and_python_numbers():
    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(dmlc.identity(x, scale=np.float64(2), bias=np.int8(1)), [3, 3])
    np.testing.assert_array_equal(dmlc.identity(x, scale=3, bias=float("inf")), [np.inf, np.inf])
    from fractions import Fraction
    np.testing.assert_array_equal(dmlc.identity(x, scale=Fraction(1, 2)), [0.5, 0.5])


def test_bad_arrays_and_out():
    with pytest.raises(TypeError, match="x has dtype complex64, which dmlc does not support"):
        dmlc.identity(np.zeros(3, np.complex64))
    with pytest.raises(ValueError, match="identity: x has 9 dimensions; DirectML tensors have 1 to 8"):
        dmlc.identity(np.zeros((1,) * 9, np.float32))
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="out has dtype float64, expected float32"):
        dmlc.identity(x, out=np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"out has shape \(3, 2\), expected \(2, 3\)"):
        dmlc.identity(x, out=np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match=r"out must be a writable array \(a numpy.ndarray, or an object with __dlpack__, "
                                        r"the array interface or the buffer protocol\), not list"):
        dmlc.identity(x, out=[0])
    ro = np.zeros((2, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        dmlc.identity(x, out=ro)
    with pytest.raises(ValueError, match=r"out has shape \(1,\), expected \(\)"):
        dmlc.identity(np.float32(1), out=np.zeros(1, np.float32))


# ---- properties and oracles ---------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=5), data=st.data(),
       dtype=st.sampled_from(ALL_DTYPES))
def test_any_view_is_materialised(shape, data, dtype):
    x = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    steps = data.draw(st.lists(st.sampled_from([1, 2, -1, -2, 3]), min_size=len(shape), max_size=len(shape)))
    view = x.transpose(perm)[tuple(slice(None, None, s) for s in steps)]
    y = dmlc.identity(view)
    assert y.flags.c_contiguous
    assert_same_bits(y, np.ascontiguousarray(view))


def test_pytorch_permute_contiguous(rng):
    torch = pytest.importorskip("torch")
    x = random_array(rng, (2, 16, 24, 40), np.float32)
    for perm in [(0, 2, 3, 1), (0, 3, 1, 2), (3, 2, 1, 0)]:
        np.testing.assert_array_equal(dmlc.identity(x.transpose(perm)),
                                      torch.from_numpy(x).permute(*perm).contiguous().numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64])
def test_onnxruntime_transpose(rng, dtype):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench import ort_session
    from dmlc.bench.element_wise_identity import onnx_transpose
    x = random_array(rng, (2, 8, 6, 10), dtype)
    perm = (0, 2, 3, 1)
    sess = ort_session(onnx_transpose(dtype, list(x.shape), perm))
    np.testing.assert_array_equal(sess.run(None, {"x": x})[0], dmlc.identity(x.transpose(perm)))
