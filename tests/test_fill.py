"""dmlc.fill_constant and dmlc.fill_sequence against np.full and the reference of the sequence
rule (tests/reference.py ref_fill_sequence): every dtype, 0 to 8 dimensions, strided out=,
threads, empty shapes, wrong arguments; torch.arange and ONNX Runtime's Range as oracles for
integers; the DxDispatch models, Microsoft's dml_fill_value_sequence.json among them."""
import os

import numpy as np
import pytest

import dmlc
from reference import ref_fill_sequence
from support import ALL_DTYPES, assert_same_bits
from test_cli import MODELS, resource_line, run_model

FLOATS = [np.float64, np.float32, np.float16]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill_constant_every_dtype(dtype):
    for value in (0, 7, -1.7, 1e30, -1e30, np.nan, 2**63, -(2**63) - 5):
        y = dmlc.fill_constant((2, 3, 4), value, dtype)
        if np.dtype(dtype).kind == "f":
            with np.errstate(over="ignore"):
                want = np.full((2, 3, 4), value, dtype)
        else:
            info = np.iinfo(dtype)
            v = 0 if value != value else int(value)
            want = np.full((2, 3, 4), min(max(v, int(info.min)), int(info.max)), dtype)
        if want.dtype.kind == "f" and value != value:
            assert np.isnan(y).all()
        else:
            assert_same_bits(y, want)


def test_fill_constant_bits_exact():
    nan = np.array([0x7E01], np.uint16).view(np.float16)[0]  # a NaN with a payload
    y = dmlc.fill_constant(5, nan, np.float16)
    assert (y.view(np.uint16) == 0x7E01).all()
    assert (dmlc.fill_constant(3, 2**53 + 1, np.int64) == 2**53 + 1).all()
    assert (dmlc.fill_constant(3, 2**64 - 1, np.uint64) == 2**64 - 1).all()
    assert np.signbit(dmlc.fill_constant(2, -0.0, np.float32)).all()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill_sequence_every_dtype(dtype):
    if np.dtype(dtype).kind == "f":
        cases = [(0, 1), (3.2, 1.5), (-7.25, 0.1), (1e4, -3.7), (0.5, 2.0**-20)]
    else:
        bits = np.dtype(dtype).itemsize * 8
        cases = [(0, 1), (10, -2), (-(1 << (bits - 1)), 3), ((1 << bits) - 1, (1 << bits) - 1), (5, 0)]
    for start, delta in cases:
        y = dmlc.fill_sequence((3, 50), start, delta, dtype)
        assert_same_bits(y, ref_fill_sequence((3, 50), start, delta, dtype))


@pytest.mark.parametrize("dtype", [np.uint64, np.int32, np.uint16, np.int8])
def test_fill_sequence_integer_runs_split_across_threads_wrap_as_one_product(dtype):
    """A contiguous run adds delta to the previous element; every thread's run must start
    at start + k0 * delta, wrapped, so the split never shows."""
    bits = np.dtype(dtype).itemsize * 8
    start, delta = (1 << bits) - 5, (1 << (bits - 2)) + 3
    shape = (1 << 20) + 7
    want = ref_fill_sequence(shape, start, delta, dtype)
    old = dmlc.get_num_threads()
    try:
        for threads in (1, 3):
            dmlc.set_num_threads(threads)
            assert_same_bits(dmlc.fill_sequence(shape, start, delta, dtype), want)
            out = np.full(2 * shape, 7, dtype)
            dmlc.fill_sequence(shape, start, delta, dtype, out=out[::2])
            assert_same_bits(out[::2], want)
            assert (out[1::2] == 7).all()
    finally:
        dmlc.set_num_threads(old)


def test_fill_sequence_integers_match_arange():
    np.testing.assert_array_equal(dmlc.fill_sequence((2, 2), 10, -2, "uint8"), [[10, 8], [6, 4]])
    np.testing.assert_array_equal(dmlc.fill_sequence(1000, -5, 7, np.int32), np.arange(1000, dtype=np.int32) * 7 - 5)
    np.testing.assert_array_equal(dmlc.fill_sequence(300, 250, 1, np.uint8), (np.arange(300) + 250) % 256)


def test_fill_sequence_floats_are_one_rounding_of_k_times_delta_plus_start():
    y = dmlc.fill_sequence(10**5, 0.1, 0.1, np.float32)
    want = (np.arange(10**5) * np.float64(np.float32(0.1)) + np.float64(np.float32(0.1))).astype(np.float32)
    assert_same_bits(y, want)
    y = dmlc.fill_sequence(10**5 + 3, -2.5, 1 / 3, np.float64)  # FLOAT64's vector loop too
    assert_same_bits(y, np.arange(10**5 + 3) * (1 / 3) + -2.5)
    # An accumulated value += delta drifts; k * delta does not.
    acc = np.cumsum(np.full(10**5, np.float32(0.1), np.float32))
    assert not np.array_equal(acc, y)


@pytest.mark.parametrize("nd", range(0, 9))
def test_zero_to_eight_dimensions(nd):
    shape = (2, 3, 1, 2, 2, 1, 3, 2)[:nd]
    y = dmlc.fill_sequence(shape, 1, 2, np.int16)
    assert y.shape == shape
    assert_same_bits(y, ref_fill_sequence(shape, 1, 2, np.int16))
    assert_same_bits(dmlc.fill_constant(shape, 4, np.uint16), np.full(shape, 4, np.uint16))


def test_strided_out_keeps_row_major_numbers_and_threads():
    base = np.zeros((64, 300, 2), np.float64)
    out = base[:, ::2, 1]
    assert dmlc.fill_sequence(out.shape, -3, 0.5, np.float64, out=out) is out
    assert_same_bits(np.ascontiguousarray(out), ref_fill_sequence(out.shape, -3, 0.5, np.float64))
    assert (base[:, :, 0] == 0).all() and (base[:, 1::2, 1] == 0).all()
    old = dmlc.get_num_threads()
    try:
        for threads in (1, 2, 3):
            dmlc.set_num_threads(threads)
            assert_same_bits(dmlc.fill_sequence((7, 100003), 5, 3, np.int64), ref_fill_sequence((7, 100003), 5, 3,
                                                                                                np.int64))
            f = np.zeros((300, 3001), np.float32).T
            dmlc.fill_sequence(f.shape, 1.5, 0.25, np.float32, out=f)
            assert_same_bits(np.ascontiguousarray(f), ref_fill_sequence(f.shape, 1.5, 0.25, np.float32))
            dmlc.fill_constant(f.shape, 9, np.float32, out=f)
            assert (f == 9).all()
    finally:
        dmlc.set_num_threads(0)
    assert dmlc.get_num_threads() == old


def test_empty_and_zero_d():
    assert dmlc.fill_sequence((3, 0), 1, 1, np.int8).shape == (3, 0)
    assert dmlc.fill_constant(0, 1, np.float32).shape == (0,)
    y = dmlc.fill_sequence((), 7, 1, np.uint32)
    assert y.shape == () and y == 7
    out = np.zeros((), np.float16)
    assert dmlc.fill_constant((), 2.5, np.float16, out=out) is out and out == 2.5


BAD_SHAPES = [
    ("x", TypeError, "fill_sequence: shape must be an int or a sequence of ints, not str"),
    (True, TypeError, "fill_sequence: shape must be an int or a sequence of ints, not bool"),
    ((2, 1.5), TypeError, r"fill_sequence: shape\[1\] must be an int, not float"),
    ((2, -1), ValueError, r"fill_sequence: shape\[1\] is -1, expected 0 or more"),
    ((1,) * 9, ValueError, "fill_sequence: shape has 9 dimensions; DirectML tensors have at most 8"),
    ((2**32,), ValueError, r"fill_sequence: shape\[0\] is 4294967296; DirectML sizes are 32-bit"),
]


@pytest.mark.parametrize("shape,error,message", BAD_SHAPES)
def test_wrong_shapes(shape, error, message):
    with pytest.raises(error, match=message):
        dmlc.fill_sequence(shape, 0, 1, np.int32)
    with pytest.raises(error, match=message.replace("fill_sequence", "fill_constant")):
        dmlc.fill_constant(shape, 0, np.int32)


def test_wrong_values_and_dtypes():
    with pytest.raises(TypeError, match="fill_sequence: start is 1.5; int32 takes an integer start"):
        dmlc.fill_sequence(3, 1.5, 1, np.int32)
    with pytest.raises(TypeError, match="fill_sequence: delta must be a real number, not bool"):
        dmlc.fill_sequence(3, 1, True, np.int32)
    with pytest.raises(TypeError, match="fill_sequence: start must be a real number, not str"):
        dmlc.fill_sequence(3, "1", 1, np.float32)
    with pytest.raises(ValueError, match=r"fill_sequence: delta is 256, expected -128 to 255 for uint8 "
                                         r"\(taken modulo 2\*\*8\)"):
        dmlc.fill_sequence(3, 0, 256, np.uint8)
    with pytest.raises(ValueError, match="fill_sequence: start is -129, expected -128 to 255 for int8"):
        dmlc.fill_sequence(3, -129, 1, np.int8)
    with pytest.raises(TypeError, match="fill_constant: value must be a real number, not str"):
        dmlc.fill_constant(3, "7", np.float32)
    with pytest.raises(TypeError, match="fill_constant: dtype is bool, which dmlc does not support"):
        dmlc.fill_constant(3, 1, bool)
    with pytest.raises(TypeError, match="fill_sequence: dtype is complex128, which dmlc does not support"):
        dmlc.fill_sequence(3, 1, 1, complex)
    with pytest.raises(TypeError, match="out has dtype int32, expected int64"):
        dmlc.fill_sequence(3, 1, 1, np.int64, out=np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=r"out has shape \(4,\), expected \(3,\)"):
        dmlc.fill_constant(3, 1, np.int64, out=np.zeros(4, np.int64))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float32, np.float64])
def test_torch_arange_oracle(dtype):
    torch = pytest.importorskip("torch")
    tdt = torch.from_numpy(np.zeros(0, dtype)).dtype
    start, delta = (3, 2) if np.dtype(dtype).kind != "f" else (0.5, 0.25)  # exact in every float type
    n = 200 if dtype == np.uint8 else 1000
    want = torch.arange(start, start + n * delta, delta, dtype=tdt).numpy()
    assert_same_bits(dmlc.fill_sequence(n, start, delta, dtype), want[:n])


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32])
def test_onnxruntime_range_oracle(dtype):
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from dmlc.bench.fill import onnx_range
    import onnxruntime as ort
    start, delta = (-4, 3) if np.dtype(dtype).kind != "f" else (0.5, 0.25)
    sess = ort.InferenceSession(onnx_range(dtype, 500, start, delta), providers=["CPUExecutionProvider"])
    want = sess.run(None, {})[0]
    assert_same_bits(dmlc.fill_sequence(500, start, delta, dtype), want)


def test_microsofts_dxdispatch_sample_runs_unchanged(tmp_path, capsys, monkeypatch):
    """DxDispatch's dml_fill_value_sequence.json (shipped in dmlc/models, MIT, unchanged):
    ValueStart 3.2 and ValueDelta 1.5 as FLOAT32 over {1,1,1,5}; its $schema is ignored."""
    path = os.path.join(os.path.dirname(dmlc.__file__), "models", "dml_fill_value_sequence.json")
    with open(path, encoding="utf-8") as f:
        assert '"$schema": "./_schema.json"' in f.read()
    status, lines, dispatched, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert (status, dispatched, err) == (0, ["fill_sequence"], "")
    assert lines == ["Resource 'Out': 3.2, 4.7, 6.2, 7.7, 9.2"]


def test_dxdispatch_model(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, _ = run_model(os.path.join(MODELS, "fill.json"), capsys, monkeypatch, tmp_path)
    assert status == 0 and dispatched == ["ones", "big", "down"]
    assert lines == [resource_line("Halves", [1, 0, 1, 1, 0, 1]),
                     "Resource 'Longs': 9007199254740993, 9007199254740992, 9007199254740991",
                     resource_line("Bytes", [10, 8, 6, 4])]
