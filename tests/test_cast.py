"""dmlc.cast against the NumPy reference of its rules (tests/reference.py ref_cast): all 121
dtype pairs over each source dtype's edge values (NaN, +-inf, -0.0, subnormals, integer
limits and one past them, 2**53 + 1, halfway cases), 0 to 8 dimensions, views, out=,
threads, empty arrays, wrong arguments; PyTorch's .to and ONNX Runtime's Cast as oracles
where their results are defined."""
import os

import numpy as np
import pytest

import dmlc
from test_cli import MODELS, resource_line, run_model
from reference import cast_edge_values, ref_cast
from support import ALL_DTYPES, assert_same_bits, random_array


def assert_cast_equal(got, want):
    """Equal bits, except that a NaN only needs to be a NaN (its payload is free)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        got, want = got.copy(), want.copy()
        got[nan] = want[nan] = 0
    assert_same_bits(got, want)


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_every_pair_on_edge_values(src, dst):
    x = cast_edge_values(src)
    assert_cast_equal(dmlc.cast(x, dst), ref_cast(x, dst))
    # The same values strided and in the vector loops' full blocks and tails.
    big = np.tile(x, 7)
    assert_cast_equal(dmlc.cast(big[::3], dst), ref_cast(big[::3], dst))
    assert_cast_equal(dmlc.cast(big, dst), ref_cast(big, dst))


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_every_pair_on_random_values(rng, src, dst):
    x = random_array(rng, (3, 37), src)
    assert_cast_equal(dmlc.cast(x, dst), ref_cast(x, dst))


def test_named_edges():
    """The rules as the docstring states them, value by value."""
    f = np.array([-1.7, 2.5, np.nan, np.inf, -np.inf, -300.0, 300.0, -0.0], np.float32)
    np.testing.assert_array_equal(dmlc.cast(f, np.int8), [-1, 2, 0, 127, -128, -128, 127, 0])
    np.testing.assert_array_equal(dmlc.cast(f, np.uint8), [0, 2, 0, 255, 0, 0, 255, 0])
    np.testing.assert_array_equal(dmlc.cast(np.array([200], np.int32), np.int8), [-56])
    assert dmlc.cast(np.array([2**64 - 1], np.uint64), np.int64)[0] == -1
    # 2**53 + 2**29 + 1 rounds up once to 2**53 + 2**30; via float64 it would tie to 2**53.
    assert dmlc.cast(np.array([2**53 + 2**29 + 1], np.int64), np.float32)[0] == np.float32(2.0**53 + 2.0**30)
    assert dmlc.cast(np.array([2**53 + 1], np.int64), np.float64)[0] == 2.0**53
    # float64 -> float16 rounds once: 1 + 2**-11 + 2**-40 is above the halfway point.
    assert dmlc.cast(np.array([1 + 2.0**-11 + 2.0**-40]), np.float16)[0] == np.float16(1 + 2.0**-10)
    h = dmlc.cast(np.array([-0.0, 2.0**-24, 65520.0, -1e6], np.float32), np.float16)
    assert np.signbit(h[0]) and h[1] == np.float16(2.0**-24) and h[2] == np.inf and h[3] == -np.inf
    assert np.isnan(dmlc.cast(np.array([np.nan], np.float64), np.float16)[0])
    assert dmlc.cast(np.array([np.nan], np.float16), np.uint64)[0] == 0
    assert dmlc.cast(np.array([1e300]), np.uint64)[0] == 2**64 - 1


@pytest.mark.parametrize("nd", range(0, 9))
def test_zero_to_eight_dimensions(rng, nd):
    shape = [2, 3, 1, 2, 2, 1, 3, 2][:nd]
    x = random_array(rng, shape, np.float64)
    y = dmlc.cast(x, np.int16)
    assert y.shape == tuple(shape)
    assert_cast_equal(y, ref_cast(x, np.int16))


def test_large_widening_casts_write_the_same_values(rng):
    """An output of 16 MiB or more, no narrower than the input, is computed in pieces and
    written with non-temporal stores where the CPU has them: the same values, whatever the
    output's alignment, row lengths and threads (rows that do not start on a 64-byte line,
    odd lengths, a strided out= that is not streamed)."""
    n = (16 << 20) // 4 + 37
    h = np.concatenate([cast_edge_values(np.float16), random_array(rng, (n,), np.float16)])[:n]
    i = random_array(rng, (7 * (n // 14),), np.int32)
    want = h.astype(np.float32)  # exact: every float16 is a float32 (a NaN stays a NaN)
    old = dmlc.get_num_threads()
    try:
        for threads in (1, 3):
            dmlc.set_num_threads(threads)
            assert_cast_equal(dmlc.cast(h, np.float32), want)
            out = np.empty(n + 1, np.float32)[1:]  # 4 bytes past a 64-byte boundary
            assert dmlc.cast(h, np.float32, out=out) is out
            assert_cast_equal(out, want)
            assert_cast_equal(dmlc.cast(i, np.int64), i.astype(np.int64))
            assert_cast_equal(dmlc.cast(i.reshape(-1, 7)[:, 1:], np.float64), i.reshape(-1, 7)[:, 1:].astype(np.float64))
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_views_out_and_threads(rng):
    base = random_array(rng, (8, 16, 30, 32), np.float32)
    for name, x in {"transposed": base.transpose(0, 2, 3, 1), "reversed": base[:, ::-1, ::2],
                    "broadcast": np.broadcast_to(base[:, :1], (8, 5, 30, 32)), "packed": base}.items():
        assert_cast_equal(dmlc.cast(x, np.float16), x.astype(np.float16))
        out = np.empty(x.shape[::-1], np.int32).T  # a column-major out=
        assert dmlc.cast(x, "i4", out=out) is out
        assert_cast_equal(out, ref_cast(np.ascontiguousarray(x), np.int32))
    old = dmlc.get_num_threads()
    try:
        for threads in (1, 2, 3):
            dmlc.set_num_threads(threads)
            assert_cast_equal(dmlc.cast(base, np.float16), base.astype(np.float16))
            assert_cast_equal(dmlc.cast(base.astype(np.float16), np.float32), base.astype(np.float16).astype(np.float32))
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_zero_d_and_empty():
    y = dmlc.cast(np.float64(3.9), "u1")
    assert y.shape == () and y.dtype == np.uint8 and y == 3
    out = np.zeros((), np.int64)
    assert dmlc.cast(np.float32(-2.5), np.int64, out=out) is out and out == -2
    e = dmlc.cast(np.zeros((3, 0, 2), np.float32), np.int8)
    assert e.shape == (3, 0, 2) and e.dtype == np.int8


def test_dtype_spellings():
    x = np.array([1.5, -2.5])
    for spelling, want in (("f2", np.float16), (np.int64, np.int64), ("uint32", np.uint32), (np.dtype(">i2"), np.int16),
                           (float, np.float64), ("int", np.dtype(int).type)):
        y = dmlc.cast(x, spelling)
        assert y.dtype == want and y.dtype.isnative
    assert dmlc.cast([1, 2, 3], np.float32).dtype == np.float32  # a list: NumPy's int64


@pytest.mark.parametrize("dtype,message", [
    (bool, "cast: dtype is bool, which dmlc does not support"),
    (np.complex64, "cast: dtype is complex64, which dmlc does not support"),
    ("U3", "cast: dtype is <U3, which dmlc does not support"),
    ("no such type", "cast: dtype 'no such type' is not a NumPy dtype"),
    (None, "cast: dtype must name one of dmlc's dtypes, not None"),
])
def test_wrong_dtypes(dtype, message):
    with pytest.raises(TypeError, match=message):
        dmlc.cast(np.zeros(3), dtype)


def test_wrong_inputs_and_outputs():
    with pytest.raises(TypeError, match="x has dtype bool"):
        dmlc.cast(np.zeros(3, bool), np.float32)
    with pytest.raises(ValueError, match="cast: x has 9 dimensions; DirectML tensors have at most 8"):
        dmlc.cast(np.zeros((1,) * 9), np.float32)
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="out has dtype float32, expected int8"):
        dmlc.cast(x, np.int8, out=np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"out has shape \(3, 2\), expected \(2, 3\)"):
        dmlc.cast(x, np.int8, out=np.zeros((3, 2), np.int8))
    ro = np.zeros((2, 3), np.int8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        dmlc.cast(x, np.int8, out=ro)


def test_out_sharing_memory_with_x_reads_a_copy():
    buf = np.arange(8, dtype=np.int32)
    out = buf.view(np.float32)
    want = buf.astype(np.float32)
    dmlc.cast(buf, np.float32, out=out)
    np.testing.assert_array_equal(out, want)


# ---- oracles ---------------------------------------------------------------------------

def _defined_values(src, dst):
    """Edge values on which every library agrees: no NaN or infinity, and a float in range
    of an integer dst (elsewhere NumPy, PyTorch and ONNX leave the result undefined); for
    float64 -> float16 only float32 values (PyTorch rounds through float32, twice: 1 + 2**-11
    + 2**-40 becomes 1, where one rounding gives 1 + 2**-10)."""
    x = cast_edge_values(src)
    if np.dtype(src) == np.float64 and np.dtype(dst) == np.float16:
        with np.errstate(over="ignore"):
            x = x[x.astype(np.float32).astype(np.float64) == x]
    if np.dtype(src).kind == "f":
        x = x[np.isfinite(x)]
        if np.dtype(dst).kind != "f":
            info = np.iinfo(dst)
            x = x[(x > info.min - 1) & (x < info.max + 1) & (np.abs(x.astype(np.float64)) < 2.0**62)]
    return x


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_torch_to_oracle(src, dst):
    torch = pytest.importorskip("torch")
    x = _defined_values(src, dst)
    try:
        t = torch.from_numpy(x).to(torch.from_numpy(np.zeros(0, dst)).dtype)
    except (TypeError, RuntimeError) as e:  # dtypes this PyTorch does not convert
        pytest.skip(f"torch: {e}")
    assert_cast_equal(dmlc.cast(x, dst), t.numpy())


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_onnxruntime_cast_oracle(src, dst):
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import helper
    x = _defined_values(src, dst)
    elem = helper.np_dtype_to_tensor_dtype
    graph = helper.make_graph([helper.make_node("Cast", ["x"], ["y"], to=elem(np.dtype(dst)))], "g",
                              [helper.make_tensor_value_info("x", elem(np.dtype(src)), [len(x)])],
                              [helper.make_tensor_value_info("y", elem(np.dtype(dst)), [len(x)])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = min(model.ir_version, 9)
    try:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as e:  # a pair this ONNX Runtime build has no kernel for
        pytest.skip(f"onnxruntime: {e}")
    del onnx
    want = sess.run(None, {"x": x})[0]
    assert_cast_equal(dmlc.cast(x, dst), want)


def test_dxdispatch_model(tmp_path, capsys, monkeypatch):
    """tests/models/cast.json under `dmlc run`: FLOAT32 -> INT8 into an 8-byte resource, then
    INT8 -> FLOAT16."""
    status, lines, dispatched, _ = run_model(os.path.join(MODELS, "cast.json"), capsys, monkeypatch, tmp_path)
    assert status == 0 and dispatched == ["to_int8", "to_half"]
    bytes_ = np.array([-1, 2, 127, -128, 0, 126, 0, 0], np.int8)
    assert lines == [resource_line("Bytes", bytes_), resource_line("Halves", bytes_[:6].astype(np.float16))]


# ---- dmlc.dask.cast -------------------------------------------------------------------------

@pytest.mark.parametrize("chunks", [(7, 5), (1, 13), (20, 1), (3, (4, 1, 8))])
@pytest.mark.parametrize("src,dst", [(np.float32, np.float16), (np.float64, np.int8), (np.int64, np.int32),
                                     (np.uint64, np.float32), (np.float16, np.uint16)])
def test_dask_cast_is_bit_exact_for_every_chunking(src, dst, chunks):
    da = pytest.importorskip("dask.array")
    import dmlc.dask as dd
    base = np.tile(cast_edge_values(src), 9)[:20 * 13].reshape(20, 13)
    y = dd.cast(da.from_array(base, chunks=chunks), dst)
    assert y.dtype == np.dtype(dst) and y.chunks == da.from_array(base, chunks=chunks).chunks
    assert_cast_equal(y.compute(), dmlc.cast(base, dst))


def test_dask_cast_errors_at_graph_build_and_zero_d():
    da = pytest.importorskip("dask.array")
    import dmlc.dask as dd
    x = da.zeros((4, 4), dtype=np.float32, chunks=2)
    with pytest.raises(TypeError, match="cast: dtype is bool, which dmlc does not support"):
        dd.cast(x, bool)
    with pytest.raises(TypeError, match="x has dtype bool"):
        dd.cast(da.zeros(3, dtype=bool, chunks=2), np.int8)
    assert dd.cast(da.from_array(np.float64(2.7)), np.int16).compute() == 2
    assert "cast" in dir(dd)
