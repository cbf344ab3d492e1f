"""DML_OPERATOR_PADDING and DML_OPERATOR_PADDING1 as a C caller drives them: raw descs
through cffi and ctypes, the FLOAT value conversion, exact DML_SCALAR_UNION bits, strides on
both tensors and malformed descs with their messages."""
import ctypes
import struct

import numpy as np
import pytest

import dmlc
import rawctypes
from dmlc._examples.padding import EXAMPLES
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawctypes import DML_PADDING1_OPERATOR_DESC, DML_PADDING_OPERATOR_DESC, DML_SCALAR_UNION
from rawdesc import Raw, assert_create_fails, execute
from reference import MODES, float_value_reference, ref_pad
from support import ALL_DTYPES, DML_TYPE, bits, random_array

PADDING, PADDING1 = lib.DML_OPERATOR_PADDING, lib.DML_OPERATOR_PADDING1
MODE = {m: getattr(lib, "DML_PADDING_MODE_" + m.upper()) for m in MODES}


def padding_desc(raw, x_desc, y_desc, mode=0, value=0.0, start=(), end=(), ndim=None):
    """value: a number, or a np.float32 whose bits go into the FLOAT field unchanged (a
    Python float would quieten a signalling NaN on the way)."""
    desc = raw.op(PADDING, "DML_PADDING_OPERATOR_DESC", {
        "InputTensor": x_desc, "OutputTensor": y_desc, "PaddingMode": mode,
        "DimensionCount": len(start) if ndim is None else ndim,
        "StartPadding": raw.uints(start), "EndPadding": raw.uints(end)})
    d = ffi.cast("DML_PADDING_OPERATOR_DESC*", desc.Desc)
    f32 = np.array(value, np.float32) if not isinstance(value, np.float32) else np.array(value)
    ffi.memmove(ffi.addressof(d[0], "PaddingValue"), f32.tobytes(), 4)
    return desc


def padding1_desc(raw, x_desc, y_desc, mode=0, value_type=1, value_bytes=b"", start=(), end=(), ndim=None):
    d = raw.new("DML_PADDING1_OPERATOR_DESC*", {
        "InputTensor": x_desc, "OutputTensor": y_desc, "PaddingMode": mode, "PaddingValueDataType": value_type,
        "DimensionCount": len(start) if ndim is None else ndim,
        "StartPadding": raw.uints(start), "EndPadding": raw.uints(end)})
    ffi.memmove(d.PaddingValue.Bytes, value_bytes, len(value_bytes))
    return raw.new("DML_OPERATOR_DESC*", {"Type": PADDING1, "Desc": d})


def run_padding(x, start, end, mode=0, value=0.0, v1_bytes=None, y=None):
    """Packed tensors; returns the output array."""
    raw = Raw()
    y = np.empty(tuple(n + s + e for n, s, e in zip(x.shape, start, end)), x.dtype) if y is None else y
    if v1_bytes is None:
        desc = padding_desc(raw, raw.tensor_for(x), raw.tensor_for(y), mode, value, start, end)
    else:
        desc = padding1_desc(raw, raw.tensor_for(x), raw.tensor_for(y), mode, DML_TYPE[x.dtype], v1_bytes, start, end)
    hr, msg = execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8])
    assert hr == 0, msg
    assert msg == ""
    return y


# ---- the page's examples as raw PADDING and PADDING1 descs -------------------------------------

@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_examples_through_padding_and_padding1(example):
    x = example.inputs["InputTensor"]
    want = example.expected["OutputTensor"]
    mode = MODE[example.params["PaddingMode"][len("DML_PADDING_MODE_"):].lower()]
    value = float(example.params.get("PaddingValue", 0))
    start, end = example.params["StartPadding"], example.params["EndPadding"]
    np.testing.assert_array_equal(run_padding(x, start, end, mode, value), want)
    np.testing.assert_array_equal(run_padding(x, start, end, mode, v1_bytes=struct.pack("=f", value)), want)


# ---- every dtype with strides on both tensors ------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("mode", MODES)
def test_strides_on_input_and_output(rng, dtype, mode):
    """The input is a transposed view (DML strides in elements); the output has a row pitch
    of 11 for 9 columns and a gap between planes.  Bytes outside the output stay put."""
    base = random_array(rng, (4, 3, 5), dtype)
    x = base.transpose(1, 2, 0)  # (3, 5, 4), strides (5, 1, 15) elements
    x_strides = [s // base.itemsize for s in x.strides]
    start, end = [1, 0, 2], [0, 3, 3]
    out_shape = (4, 8, 9)
    out_strides = [100, 11, 1]
    extent = sum((n - 1) * s for n, s in zip(out_shape, out_strides)) + 1
    sentinel = random_array(rng, (extent + 8,), dtype)
    buf = sentinel.copy()
    raw = Raw()
    desc = padding_desc(raw, raw.tensor(dtype, x.shape, x_strides), raw.tensor(dtype, out_shape, out_strides),
                        MODE[mode], 6.0, start, end)
    hr, msg = execute(desc, [base], [buf], [base.nbytes + 8], [buf.nbytes])
    assert hr == 0, msg
    y = np.lib.stride_tricks.as_strided(buf, out_shape, [s * buf.itemsize for s in out_strides])
    np.testing.assert_array_equal(y, ref_pad(x, start, end, mode, np.array(6).astype(dtype)))
    touched = np.zeros(buf.shape, bool)
    np.lib.stride_tricks.as_strided(touched, out_shape, [s * touched.itemsize for s in out_strides])[...] = True
    np.testing.assert_array_equal(buf[~touched], sentinel[~touched])


@pytest.mark.parametrize("ndim", [1, 5, 8])
def test_broadcast_input_and_many_dims(rng, ndim):
    """Stride 0 on an input dimension repeats it; 8 dimensions with padding on each."""
    shape = (2,) * ndim
    x = random_array(rng, (2,), np.int32)
    strides = [0] * (ndim - 1) + [1]
    full = np.broadcast_to(x, shape)
    start, end = [1] * ndim, [2] * ndim
    raw = Raw()
    y = np.empty((5,) * ndim, np.int32)
    for mode in MODES:
        desc = padding_desc(raw, raw.tensor(np.int32, shape, strides), raw.tensor_for(y), MODE[mode], -3.0, start, end)
        hr, msg = execute(desc, [x], [y])
        assert hr == 0, msg
        np.testing.assert_array_equal(y, ref_pad(full, start, end, mode, -3), err_msg=mode)


# ---- PADDING's FLOAT PaddingValue: the conversion matrix ------------------------------------------

F32 = [0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.0, 10.6, -10.6, 127.0, 127.9, 128.0, -128.0, -128.9, -129.0, 255.5,
       256.0, 32767.5, -32768.5, 65535.9, 65536.0, 2.0 ** 24 + 2, 2147483520.0, 2.0 ** 31, -2.0 ** 31,
       -2147483904.0, 4294967040.0, 2.0 ** 32, 2.0 ** 53, 9.223371e18, 2.0 ** 63, -2.0 ** 63, -9.3e18,
       18446742974197923840.0, 2.0 ** 64, 3.4028234663852886e38, -3.4028234663852886e38, float("inf"),
       float("-inf"), float("nan"), -float("nan"), 65504.0, 65519.0, 65520.0, 1e-8, 2.0 ** -24, 2.0 ** -25,
       2.0 ** -25 * 1.5, 3 * 2.0 ** -25, 2.0 ** -14 * 1.0009765625, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11,
       1e-40, 6.1e-5, 0.1, 1 / 3]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_float_value_conversion_matrix(dtype):
    x = np.zeros((1,), dtype)
    values = np.array(F32, np.float32)
    # float32 NaN payloads: the FLOAT16 result keeps the sign and top payload bits.
    values = np.concatenate([values, np.array([0x7FA00001, 0xFFC00000, 0x7F800001], np.uint32).view(np.float32)])
    for f in values:
        y = run_padding(x, [1], [0], 0, f)
        want = float_value_reference(f, dtype)
        assert bits(y[:1])[0] == bits(want)[0], (float(f), y[0], want[0])
        assert y[1] == 0


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_python_value_agrees_with_padding(dtype):
    """dmlc.pad converts a Python float as the core converts PADDING's FLOAT (for values a
    float32 holds exactly; NaN stays NaN)."""
    for f in np.array(F32, np.float32):
        core = run_padding(np.zeros(1, dtype), [1], [0], 0, f)[0]
        py = dmlc.pad(np.zeros(1, dtype), 1, 0, value=float(f))[0]
        if np.isnan(core):
            assert np.isnan(py)
        else:
            assert bits(np.array([core]))[0] == bits(np.array([py]))[0], (float(f), core, py)


def test_float16_rounding_against_numpy(rng):
    """Random float32 bit patterns across the whole range, converted by the core's FLOAT16
    path in one operator each, agree bit for bit with NumPy's float32 -> float16 cast."""
    pats = rng.integers(0, 2 ** 32, 1500, dtype=np.uint64).astype(np.uint32)
    # Concentrate on the float16 range and its rounding boundaries.
    near = (rng.integers(0x33000000, 0x47800000, 1500, dtype=np.uint64)).astype(np.uint32)
    for f in np.concatenate([pats, near]).view(np.float32):
        y = run_padding(np.zeros(1, np.float16), [1], [0], 0, f)
        with np.errstate(over="ignore"):
            want = np.float32(f).astype(np.float16)
        assert y[:1].view(np.uint16)[0] == np.array(want).view(np.uint16), hex(np.array(f).view(np.uint32))


# ---- PADDING1's DML_SCALAR_UNION: bits used exactly ---------------------------------------------------

@pytest.mark.parametrize("dtype,pattern", [
    (np.int64, 2 ** 63 - 1), (np.int64, -2 ** 63), (np.int64, 2 ** 53 + 1), (np.int64, 0x0123456789ABCDEF),
    (np.uint64, 2 ** 64 - 1), (np.uint64, 2 ** 63 + 1), (np.uint64, 0xFEDCBA9876543211),
    (np.int32, -2 ** 31), (np.uint32, 0xDEADBEEF), (np.int16, -12345), (np.uint16, 0xFFFF), (np.int8, -1),
    (np.uint8, 0xA5),
    # FLOAT16 bit patterns: signalling and negative NaNs, the smallest subnormal, -0, the largest finite.
    (np.float16, 0x7C01), (np.float16, 0xFE00), (np.float16, 0x0001), (np.float16, 0x8000), (np.float16, 0x7BFF),
    (np.float32, 0x7FA00001), (np.float32, 0x00000001), (np.float64, 0x7FF0000000000001), (np.float64, 0x8000000000000000),
])
def test_padding1_value_bits_exact(dtype, pattern):
    dtype = np.dtype(dtype)
    unsigned = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]
    value = np.array(pattern % 2 ** (8 * dtype.itemsize), unsigned).view(dtype)
    x = random_array(np.random.default_rng(3), (2, 3), dtype) if dtype.kind != "f" else np.ones((2, 3), dtype)
    y = run_padding(x, [1, 2], [2, 1], 0, v1_bytes=value.tobytes())
    assert y.shape == (5, 6)
    border = np.ones(y.shape, bool)
    border[1:3, 2:5] = False
    assert np.all(bits(y)[border] == int(value.view(unsigned)))
    np.testing.assert_array_equal(y[1:3, 2:5], x)
    # The same bits through the Python API, from a NumPy scalar of x's dtype.
    np.testing.assert_array_equal(bits(dmlc.pad(x, [1, 2], [2, 1], value=value[()])), bits(y))
    # And a Python int for the integer types, exactly.
    if dtype.kind in "iu":
        np.testing.assert_array_equal(dmlc.pad(x, [1, 2], [2, 1], value=int(value)), y)


def test_padding1_other_modes_ignore_value(rng):
    x = random_array(rng, (3, 4), np.uint64)
    for mode in MODES[1:]:
        y = run_padding(x, [2, 1], [1, 5], MODE[mode], v1_bytes=b"\xff" * 8)
        np.testing.assert_array_equal(y, ref_pad(x, [2, 1], [1, 5], mode))


# ---- ctypes: the same ABI without cffi ------------------------------------------------------------

def test_ctypes_layout_matches_cffi():
    for name, cls in [("DML_PADDING_OPERATOR_DESC", DML_PADDING_OPERATOR_DESC),
                      ("DML_PADDING1_OPERATOR_DESC", DML_PADDING1_OPERATOR_DESC),
                      ("DML_SCALAR_UNION", DML_SCALAR_UNION)]:
        assert ctypes.sizeof(cls) == ffi.sizeof(name), name
    for field in ("PaddingMode", "PaddingValue", "DimensionCount", "StartPadding", "EndPadding"):
        assert getattr(DML_PADDING_OPERATOR_DESC, field).offset == ffi.offsetof("DML_PADDING_OPERATOR_DESC", field)
        assert getattr(DML_PADDING1_OPERATOR_DESC, field).offset == ffi.offsetof("DML_PADDING1_OPERATOR_DESC", field)


def ctypes_tensor(keep, arr):
    t = rawctypes.tensor(arr, keep)
    keep.append(t)
    return ctypes.pointer(t)


def ctypes_run(lib_c, op_type, desc, x, y):
    od = rawctypes.operator(op_type, desc)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    hr = lib_c.dmlcExecuteOperator(ctypes.byref(od), 1, ctypes.byref(bi), 1, ctypes.byref(bo))
    return hr, lib_c.dmlcGetLastErrorMessage().decode()


@pytest.fixture(scope="module")
def lib_c():
    return rawctypes.library()


def test_ctypes_padding_and_padding1(lib_c):
    keep = []
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int64) * (2 ** 40)
    start, end = (ctypes.c_uint * 2)(1, 2), (ctypes.c_uint * 2)(0, 3)
    y = np.zeros((3, 9), np.int64)
    d = DML_PADDING_OPERATOR_DESC(ctypes_tensor(keep, x), ctypes_tensor(keep, y), 3, 0.0, 2, start, end)  # SYMMETRIC
    assert ctypes_run(lib_c, PADDING, d, x, y) == (0, "")
    np.testing.assert_array_equal(y, ref_pad(x, [1, 2], [0, 3], "symmetric"))
    d = DML_PADDING_OPERATOR_DESC(ctypes_tensor(keep, x), ctypes_tensor(keep, y), 0, -2.5e30, 2, start, end)  # CONSTANT
    assert ctypes_run(lib_c, PADDING, d, x, y) == (0, "")
    np.testing.assert_array_equal(y, ref_pad(x, [1, 2], [0, 3], "constant", -2 ** 63))
    d1 = DML_PADDING1_OPERATOR_DESC(ctypes_tensor(keep, x), ctypes_tensor(keep, y), 0, 11, DML_SCALAR_UNION(), 2,
                                     start, end)
    d1.PaddingValue.Int64 = 2 ** 62 + 3
    assert ctypes_run(lib_c, PADDING1, d1, x, y) == (0, "")
    np.testing.assert_array_equal(y, ref_pad(x, [1, 2], [0, 3], "constant", 2 ** 62 + 3))
    d1.PaddingValueDataType = 1
    y[...] = 77
    hr, msg = ctypes_run(lib_c, PADDING1, d1, x, y)
    assert hr == E_INVALIDARG
    assert msg == "DML_OPERATOR_PADDING1: PaddingValueDataType is FLOAT32, expected INT64 (InputTensor.DataType)"
    assert np.all(y == 77)


# ---- malformed descs -----------------------------------------------------------------------------

def malformed_cases():
    """(name, builder(raw) -> desc, hr, message).  The base desc is the page's example:
    {1, 1, 4, 4} FLOAT32, StartPadding {0, 0, 1, 2}, EndPadding {0, 0, 3, 4}."""
    f32 = np.float32
    X, Y = (1, 1, 4, 4), (1, 1, 8, 10)
    S, E = (0, 0, 1, 2), (0, 0, 3, 4)
    P = "DML_OPERATOR_PADDING: "
    P1 = "DML_OPERATOR_PADDING1: "
    t = lambda raw, shape, dtype=f32, **kw: raw.tensor(dtype, shape, **kw)  # noqa: E731
    return [
        ("output size", lambda r: padding_desc(r, t(r, X), t(r, (1, 1, 7, 10)), 0, 0.0, S, E), E_INVALIDARG,
         P + "OutputTensor.Sizes[2] is 7, expected 8 (InputTensor.Sizes[2] 4 + StartPadding[2] 1 + EndPadding[2] 3)"),
        ("output size last", lambda r: padding_desc(r, t(r, X), t(r, (1, 1, 8, 11)), 2, 0.0, S, E), E_INVALIDARG,
         P + "OutputTensor.Sizes[3] is 11, expected 10 (InputTensor.Sizes[3] 4 + StartPadding[3] 2 + EndPadding[3] 4)"),
        ("DimensionCount", lambda r: padding_desc(r, t(r, X), t(r, Y), 0, 0.0, S, E, ndim=3), E_INVALIDARG,
         P + "DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
        ("DimensionCount v1", lambda r: padding1_desc(r, t(r, X), t(r, Y), 0, 1, b"", S, E, ndim=9), E_INVALIDARG,
         P1 + "DimensionCount is 9, expected 4 (InputTensor.DimensionCount)"),
        ("StartPadding NULL", lambda r: padding_desc(r, t(r, X), t(r, Y), 0, 0.0, None, E, ndim=4), E_POINTER,
         P + "StartPadding is NULL"),
        ("EndPadding NULL", lambda r: padding1_desc(r, t(r, X), t(r, Y), 0, 1, b"", S, None, ndim=4), E_POINTER,
         P1 + "EndPadding is NULL"),
        ("mode 5", lambda r: padding_desc(r, t(r, X), t(r, Y), 5, 0.0, S, E), E_INVALIDARG,
         P + "PaddingMode is 5, expected DML_PADDING_MODE_CONSTANT (0), DML_PADDING_MODE_EDGE (1), "
             "DML_PADDING_MODE_REFLECTION (2), DML_PADDING_MODE_SYMMETRIC (3) or DML_PADDING_MODE_WRAP (4)"),
        ("mode -1", lambda r: padding1_desc(r, t(r, X), t(r, Y), 0xFFFFFFFF, 1, b"", S, E), E_INVALIDARG,
         P1 + "PaddingMode is -1, expected DML_PADDING_MODE_CONSTANT (0)"),
        ("value type", lambda r: padding1_desc(r, t(r, X), t(r, Y), 0, 11, b"", S, E), E_INVALIDARG,
         P1 + "PaddingValueDataType is INT64, expected FLOAT32 (InputTensor.DataType)"),
        ("value type unknown", lambda r: padding1_desc(r, t(r, X), t(r, Y), 0, 99, b"", S, E), E_INVALIDARG,
         P1 + "PaddingValueDataType is 99 (not a DML_TENSOR_DATA_TYPE), expected FLOAT32 (InputTensor.DataType)"),
        ("value type UNKNOWN", lambda r: padding1_desc(r, t(r, X), t(r, Y), 1, 0, b"", S, E), E_INVALIDARG,
         P1 + "PaddingValueDataType is UNKNOWN, expected FLOAT32 (InputTensor.DataType)"),
        ("size overflow", lambda r: padding_desc(r, t(r, (4,)), t(r, (4,)), 0, 0.0, (0xFFFFFFFF,), (1,)),
         E_INVALIDARG, P + "InputTensor.Sizes[0] 4 + StartPadding[0] 4294967295 + EndPadding[0] 1 is 4294967300, "
                           "more than a tensor size can hold (4294967295)"),
        ("byte overflow", lambda r: padding_desc(r, t(r, (1, 1, 1), np.float64),
                                                 t(r, (0xFFFFFFFF,) * 3, np.float64), 0, 0.0, (0xFFFFFFFE,) * 3,
                                                 (0, 0, 0)), E_INVALIDARG,
         P + "OutputTensor: the tensor's size in bytes overflows 64 bits"),
        ("output type", lambda r: padding_desc(r, t(r, X), t(r, Y, np.int32), 0, 0.0, S, E), E_INVALIDARG,
         P + "OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
        ("output rank", lambda r: padding_desc(r, t(r, X), t(r, (1, 8, 10)), 0, 0.0, S, E), E_INVALIDARG,
         P + "OutputTensor.DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
        ("9 dims", lambda r: padding_desc(r, t(r, (1,) * 9), t(r, (1,) * 9), 0, 0.0, (0,) * 9, (0,) * 9),
         E_INVALIDARG, P + "InputTensor.DimensionCount is 9, expected 1 to 8"),
        ("0 dims", lambda r: padding_desc(r, t(r, ()), t(r, ()), 0, 0.0, (), ()), E_INVALIDARG,
         P + "InputTensor.DimensionCount is 0, expected 1 to 8"),
        ("input NULL", lambda r: padding_desc(r, ffi.NULL, t(r, Y), 0, 0.0, S, E), E_POINTER,
         P + "InputTensor is NULL"),
        ("output NULL", lambda r: padding1_desc(r, t(r, X), ffi.NULL, 0, 1, b"", S, E), E_POINTER,
         P1 + "OutputTensor is NULL"),
        ("zero size", lambda r: padding_desc(r, t(r, (1, 0, 4, 4)), t(r, Y), 0, 0.0, S, E), E_INVALIDARG,
         P + "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
        ("output stride 0", lambda r: padding_desc(r, t(r, X), t(r, Y, strides=(80, 80, 10, 0)), 0, 0.0, S, E),
         E_INVALIDARG, P + "OutputTensor.Strides[3] is 0 with Sizes[3] 10; an output element may not be written twice"),
        ("total size", lambda r: padding_desc(r, t(r, X, total=60), t(r, Y), 0, 0.0, S, E), E_INVALIDARG,
         P + "InputTensor.TotalTensorSizeInBytes is 60, expected at least 64 (DMLCalcBufferTensorSize)"),
        ("bad data type", lambda r: padding_desc(r, t(r, X, dml_type=12), t(r, Y), 0, 0.0, S, E), E_INVALIDARG,
         P + "InputTensor.DataType UINT4 is not supported"),
    ]


CASES = malformed_cases()


@pytest.mark.parametrize("name,build,hr,msg", CASES, ids=[c[0] for c in CASES])
def test_malformed_desc(name, build, hr, msg):
    assert_create_fails(build, hr, msg)


def test_bad_bindings_leave_output_untouched(rng):
    x = random_array(rng, (4, 4), np.float32)
    y = np.full((6, 7), 42, np.float32)
    raw = Raw()
    desc = padding_desc(raw, raw.tensor_for(x), raw.tensor_for(y), 1, 0.0, (1, 2), (1, 1))
    hr, msg = execute(desc, [x], [y], None, [y.nbytes - 4])
    assert hr == E_INVALIDARG
    assert msg == "DML_OPERATOR_PADDING: outputs[0].SizeInBytes is 164, smaller than the tensor's " \
                  "TotalTensorSizeInBytes 168"
    assert np.all(y == 42)
    # An output overlapping the input.
    buf = np.zeros(64, np.float32)
    hr, msg = execute(desc, [buf[:16]], [buf[4:46]])
    assert hr == E_INVALIDARG and "outputs[0] overlaps inputs[0]" in msg
    assert np.all(buf == 0)


def test_operator_reused_from_many_threads(rng):
    """One created operator executed concurrently (it is immutable after creation)."""
    import threading
    x = random_array(rng, (64, 100), np.float32)
    raw = Raw()
    desc = padding_desc(raw, raw.tensor_for(x), raw.tensor(np.float32, (67, 109)), 2, 0.0, (1, 4), (2, 5))
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    outs = [np.empty((67, 109), np.float32) for _ in range(4)]
    errors = []

    def work(y):
        b = Raw()
        for _ in range(50):
            hr = lib.dmlcExecute(op[0], 1, b.bindings([x]), 1, b.bindings([y]))
            if hr:
                errors.append(hr)

    threads = [threading.Thread(target=work, args=(y,)) for y in outs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lib.dmlcReleaseOperator(op[0])
    assert errors == []
    want = ref_pad(x, [1, 4], [2, 5], "reflection")
    for y in outs:
        np.testing.assert_array_equal(y, want)
