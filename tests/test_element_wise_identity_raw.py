"""DML_OPERATOR_ELEMENT_WISE_IDENTITY as a C caller drives it: raw descs through cffi and
ctypes, every dtype, strides in and out, ScaleBias, in-place execution (output bound to the
input's memory), and malformed descs with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_scale_bias
from support import ALL_DTYPES, assert_same_bits, random_array

OP = "DML_OPERATOR_ELEMENT_WISE_IDENTITY"
STRUCT = "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC"


def identity_desc(raw, tin, tout, scale_bias=None):
    sb = raw.new("DML_SCALE_BIAS*", {"Scale": scale_bias[0], "Bias": scale_bias[1]}) if scale_bias else ffi.NULL
    return raw.op(lib.DML_OPERATOR_ELEMENT_WISE_IDENTITY, STRUCT, {"InputTensor": tin, "OutputTensor": tout,
                                                                  "ScaleBias": sb})


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_transposed_by_input_strides(rng, dtype):
    x = random_array(rng, (2, 3, 4, 5), dtype)
    raw = Raw()
    # The NCHW buffer read as NHWC: sizes {2, 4, 5, 3}, strides {60, 5, 1, 20}.
    tin = raw.tensor(dtype, (2, 4, 5, 3), strides=(60, 5, 1, 20))
    y = np.zeros((2, 4, 5, 3), dtype)
    hr, msg = execute(identity_desc(raw, tin, raw.tensor_for(y)), [x], [y])
    assert (hr, msg) == (0, "")
    assert_same_bits(y, np.ascontiguousarray(x.transpose(0, 2, 3, 1)))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_scale_bias_through_cffi(rng, dtype):
    x = random_array(rng, (7, 8), dtype)
    raw = Raw()
    y = np.zeros_like(x)
    hr, msg = execute(identity_desc(raw, raw.tensor_for(x), raw.tensor_for(y), (0.25, -7.5)), [x], [y])
    assert (hr, msg) == (0, "")
    assert_same_bits(y, ref_scale_bias(x, 0.25, -7.5))


def test_broadcast_input_and_strided_output():
    raw = Raw()
    x = np.arange(3, dtype=np.int32)
    out = np.full(40, SENTINEL, np.uint32).view(np.int32)
    # Input {4, 3} with strides {0, 1}: every row is x.  Output rows 10 elements apart.
    desc = identity_desc(raw, raw.tensor(np.int32, (4, 3), strides=(0, 1)), raw.tensor(np.int32, (4, 3), strides=(10, 2)))
    hr, msg = execute(desc, [x], [out], [16], [out.nbytes])
    assert (hr, msg) == (0, "")
    grid = out.reshape(4, 10)
    np.testing.assert_array_equal(grid[:, 0:6:2], np.tile(x, (4, 1)))
    assert (grid[:, 1:6:2].view(np.uint32) == SENTINEL).all() and (grid[:, 6:].view(np.uint32) == SENTINEL).all()


def test_in_place_through_cffi(rng):
    """DirectML lets the output alias the input for this operator: the same buffer bound to
    both slots, with a created operator executed repeatedly."""
    x = random_array(rng, (64, 33), np.float32)
    buf = x.copy()
    raw = Raw()
    desc = identity_desc(raw, raw.tensor_for(buf), raw.tensor_for(buf), (2.0, 1.0))
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    try:
        b = raw.bindings([buf])
        want = x
        for _ in range(3):
            assert lib.dmlcExecute(op[0], 1, b, 1, b) == 0, ffi.string(lib.dmlcGetLastErrorMessage())
            want = ref_scale_bias(want, 2.0, 1.0)
            assert_same_bits(buf, want)
    finally:
        lib.dmlcReleaseOperator(op[0])
    # Without ScaleBias, in place is a copy onto itself: nothing changes.
    before = buf.copy()
    hr, msg = execute(identity_desc(raw, raw.tensor_for(buf), raw.tensor_for(buf)), [buf], [buf])
    assert (hr, msg) == (0, "")
    assert_same_bits(buf, before)


def test_in_place_with_equal_strided_layouts_and_offsets():
    """Both tensors strided alike, bound at the same Buffer + Offset: allowed; the elements
    between the strided ones are not touched."""
    buf = np.arange(32, dtype=np.float64)
    raw = Raw()
    t = raw.tensor(np.float64, (3, 4), strides=(8, 2))
    desc = identity_desc(raw, t, t, (-1.0, 0.0))
    b = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", buf.ctypes.data), "Offset": 8,
                                         "SizeInBytes": 200})
    assert lib.dmlcExecuteOperator(desc, 1, b, 1, b) == 0, ffi.string(lib.dmlcGetLastErrorMessage())
    want = np.arange(32, dtype=np.float64)
    want[1:1 + 24].reshape(3, 8)[:, :8:2] *= -1
    np.testing.assert_array_equal(buf, want)


ALIAS_BAD = [
    # (id, input strides, output strides, output offset in elements, message)
    ("transposed layouts", (1, 4), (4, 1), 0,
     f"{OP}: outputs[0] overlaps inputs[0], but the tensors' strides differ; in place, InputTensor and OutputTensor "
     "need the same layout"),
    ("shifted by one element", None, None, 1,
     f"{OP}: outputs[0] overlaps inputs[0] without aliasing it exactly; in place, both must be bound at the same "
     "address"),
]


@pytest.mark.parametrize("case", ALIAS_BAD, ids=[c[0] for c in ALIAS_BAD])
def test_overlaps_other_than_exact_aliasing_are_refused(case):
    _, sin, sout, offset, message = case
    buf = np.arange(24, dtype=np.float32)
    before = buf.copy()
    raw = Raw()
    desc = identity_desc(raw, raw.tensor(np.float32, (4, 4), strides=sin), raw.tensor(np.float32, (4, 4), strides=sout),
                         (2.0, 0.0))
    bi = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", buf.ctypes.data), "SizeInBytes": 64})
    bo = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", buf.ctypes.data), "Offset": 4 * offset,
                                          "SizeInBytes": 64})
    assert lib.dmlcExecuteOperator(desc, 1, bi, 1, bo) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == message
    np.testing.assert_array_equal(buf, before)


def test_other_operators_still_refuse_aliasing():
    """In place is this operator's: a TILE with repeats of 1 (a copy, too) may not alias."""
    buf = np.arange(8, dtype=np.float32)
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_TILE, "DML_TILE_OPERATOR_DESC", {
        "InputTensor": raw.tensor_for(buf), "OutputTensor": raw.tensor_for(buf), "RepeatsCount": 1,
        "Repeats": raw.uints([1])})
    hr, msg = execute(desc, [buf], [buf])
    assert (hr, msg) == (E_INVALIDARG, "DML_OPERATOR_TILE: outputs[0] overlaps inputs[0]; outputs may not alias inputs")


def test_ctypes_identity_with_scale_bias_in_place():
    so = rawctypes.library()
    so.dmlcGetLastErrorMessage.restype = ctypes.c_char_p
    x = np.array([1, 2, 3], np.float32)
    keep = []
    t = rawctypes.tensor(x, keep)
    sb = rawctypes.DML_SCALE_BIAS(2.0, 10.0)
    d = rawctypes.DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC(ctypes.pointer(t), ctypes.pointer(t), ctypes.pointer(sb))
    op = rawctypes.operator(lib.DML_OPERATOR_ELEMENT_WISE_IDENTITY, d)
    b = rawctypes.binding(x)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(b), 1, ctypes.byref(b)) == 0
    np.testing.assert_array_equal(x, [12, 14, 16])  # DxDispatch's dml_element_wise_identity.json, in place
    # The same desc on an integer tensor: refused, nothing written.
    xi = np.array([1, 2, 3], np.int32)
    ti = rawctypes.tensor(xi, keep)
    d.InputTensor = d.OutputTensor = ctypes.pointer(ti)
    bi = rawctypes.binding(xi)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bi)) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == (b"DML_OPERATOR_ELEMENT_WISE_IDENTITY: ScaleBias is set, but "
                                            b"InputTensor.DataType is INT32; a scale and bias apply only to FLOAT16, "
                                            b"FLOAT32 and FLOAT64")
    np.testing.assert_array_equal(xi, [1, 2, 3])


# ---- malformed descs ------------------------------------------------------------------------

def case(**change):
    """A valid identity, float32 {2, 3} -> {2, 3}, with fields changed: in_/out_ tensor
    kwargs for Raw.tensor, sb (a (scale, bias) pair), in_desc/out_desc (raw values)."""
    raw = Raw()
    tin = dict(dtype=np.float32, sizes=(2, 3))
    tout = dict(dtype=np.float32, sizes=(2, 3))
    tin.update(change.get("in_", {}))
    tout.update(change.get("out_", {}))
    ti = change.get("in_desc", raw.tensor(**tin))
    to = change.get("out_desc", raw.tensor(**tout))
    return raw, identity_desc(raw, ti, to, change.get("sb"))


BAD = [
    ("ScaleBias on INT8", dict(in_=dict(dtype=np.int8), out_=dict(dtype=np.int8), sb=(1.0, 0.0)), E_INVALIDARG,
     f"{OP}: ScaleBias is set, but InputTensor.DataType is INT8; a scale and bias apply only to FLOAT16, FLOAT32 and "
     "FLOAT64"),
    ("ScaleBias on UINT64", dict(in_=dict(dtype=np.uint64), out_=dict(dtype=np.uint64), sb=(2.0, 0.0)), E_INVALIDARG,
     f"{OP}: ScaleBias is set, but InputTensor.DataType is UINT64; a scale and bias apply only to FLOAT16, FLOAT32 and "
     "FLOAT64"),
    ("output size", dict(out_=dict(sizes=(2, 4))), E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 4, expected 3 (InputTensor.Sizes[1])"),
    ("output rank", dict(out_=dict(sizes=(6,))), E_INVALIDARG,
     f"{OP}: OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("output type", dict(out_=dict(dtype=np.float16)), E_INVALIDARG,
     f"{OP}: OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
    ("9 dimensions", dict(in_=dict(sizes=(1,) * 9), out_=dict(sizes=(1,) * 9)), E_INVALIDARG,
     f"{OP}: InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("0 dimensions", dict(in_=dict(sizes=())), E_INVALIDARG, f"{OP}: InputTensor.DimensionCount is 0, expected 1 to 8"),
    ("zero output stride", dict(out_=dict(strides=(0, 1))), E_INVALIDARG,
     f"{OP}: OutputTensor.Strides[0] is 0 with Sizes[0] 2; an output element may not be written twice"),
    ("no input", dict(in_desc=ffi.NULL), E_POINTER, f"{OP}: InputTensor is NULL"),
    ("no output", dict(out_desc=ffi.NULL), E_POINTER, f"{OP}: OutputTensor is NULL"),
    ("input too small", dict(in_=dict(total=20)), E_INVALIDARG,
     f"{OP}: InputTensor.TotalTensorSizeInBytes is 20, expected at least 24 (DMLCalcBufferTensorSize)"),
]


@pytest.mark.parametrize("bad", BAD, ids=[c[0] for c in BAD])
def test_malformed(bad):
    _, change, want_hr, want_msg = bad
    raw, desc = case(**change)
    assert create(desc) == (want_hr, want_msg)
    src = np.arange(16, dtype=np.float64)
    dst = np.full(16, SENTINEL, np.uint64)
    hr, msg = execute(desc, [src], [dst])
    assert (hr, msg) == (want_hr, want_msg)
    assert (dst == SENTINEL).all(), "a failed call wrote to the output"


def test_infer_output_sizes_accepts_empty_inputs():
    raw = Raw()
    desc = identity_desc(raw, raw.tensor(np.float32, (3, 0, 2), total=0), ffi.NULL)
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [3, 0, 2]
