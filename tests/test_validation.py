"""Malformed descs and bindings (SPEC section 3) through the raw C API: each returns the
right HRESULT and message, and leaves the output buffer untouched."""
import numpy as np
import pytest

from dmlc.ffi import ffi, lib, E_INVALIDARG, E_POINTER
from rawdesc import Raw

D2S = "DML_OPERATOR_DEPTH_TO_SPACE1"
SENTINEL = 0x5A5A5A5A
TYPES = " (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or UINT8)"


def d2s_case(**change):
    """A valid DEPTH_TO_SPACE1 (float32 {1,8,2,3} -> {1,2,4,6}, block 2) with fields changed.
    change keys: in_/out_ tensor kwargs for Raw.tensor, block, order, in_desc/out_desc (raw values)."""
    raw = Raw()
    tin = dict(dtype=np.float32, sizes=(1, 8, 2, 3))
    tout = dict(dtype=np.float32, sizes=(1, 2, 4, 6))
    tin.update(change.get("in_", {}))
    tout.update(change.get("out_", {}))
    ti = change.get("in_desc", raw.tensor(**tin))
    to = change.get("out_desc", raw.tensor(**tout))
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": to, "BlockSize": change.get("block", 2),
                   "Order": change.get("order", 0)})
    return raw, desc


def run(raw, desc, in_bytes=192, out_bytes=192, in_off=0, out_off=0, nin=1, nout=1, buf=None, in_buf=True, out_buf=True):
    src = np.arange(64, dtype=np.float32) if buf is None else buf
    dst = np.full(64, SENTINEL, np.uint32) if buf is None else buf
    bi = raw.new("DMLC_BUFFER_BINDING[]", 2)
    bo = raw.new("DMLC_BUFFER_BINDING[]", 2)
    if in_buf:
        bi[0] = {"Buffer": ffi.cast("void*", src.ctypes.data), "Offset": in_off, "SizeInBytes": in_bytes}
    if out_buf:
        bo[0] = {"Buffer": ffi.cast("void*", dst.ctypes.data), "Offset": out_off, "SizeInBytes": out_bytes}
    hr = lib.dmlcExecuteOperator(desc, nin, bi, nout, bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode(), dst


def no_strides(*a, **k):
    return None


BAD = [
    # (id, desc changes, run kwargs, HRESULT, message)
    ("input NULL", dict(in_desc=ffi.NULL), {}, E_POINTER, f"{D2S}: InputTensor is NULL"),
    ("output NULL", dict(out_desc=ffi.NULL), {}, E_POINTER, f"{D2S}: OutputTensor is NULL"),
    ("unknown data type", dict(in_=dict(dml_type=99, total=192)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.DataType 99 (not a DML_TENSOR_DATA_TYPE) is not supported" + TYPES),
    ("UNKNOWN data type", dict(out_=dict(dml_type=0, total=192)), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.DataType UNKNOWN is not supported" + TYPES),
    ("4-bit data type", dict(in_=dict(dml_type=13, total=192)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.DataType INT4 is not supported" + TYPES),
    ("3 dims", dict(in_=dict(sizes=(8, 2, 3))), {}, E_INVALIDARG, f"{D2S}: InputTensor.DimensionCount is 3, expected 4"),
    ("5 dims", dict(out_=dict(sizes=(1, 1, 2, 4, 6))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.DimensionCount is 5, expected 4"),
    ("zero size", dict(in_=dict(sizes=(1, 8, 0, 3), total=192)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.Sizes[2] is 0; sizes must be at least 1"),
    ("type mismatch", dict(out_=dict(dtype=np.int32)), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
    ("block 0", dict(block=0), {}, E_INVALIDARG, f"{D2S}: BlockSize is 0, expected at least 1"),
    ("order 2", dict(order=2), {}, E_INVALIDARG,
     f"{D2S}: Order is 2, expected DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW (0) or DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH (1)"),
    ("channels not divisible", dict(block=3), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.Sizes[1] is 8, not divisible by BlockSize * BlockSize (9)"),
    ("output batch", dict(out_=dict(sizes=(2, 2, 4, 6))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
    ("output channels", dict(out_=dict(sizes=(1, 4, 4, 6))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.Sizes[1] is 4, expected 2 (InputTensor.Sizes[1] 8 / (BlockSize 2 * BlockSize 2))"),
    ("output height", dict(out_=dict(sizes=(1, 2, 5, 6))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.Sizes[2] is 5, expected 4 (InputTensor.Sizes[2] 2 * BlockSize 2)"),
    ("output width", dict(out_=dict(sizes=(1, 2, 4, 3))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.Sizes[3] is 3, expected 6 (InputTensor.Sizes[3] 3 * BlockSize 2)"),
    ("zero output stride", dict(out_=dict(strides=(48, 24, 0, 1), total=192)), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.Strides[2] is 0 with Sizes[2] 4; an output element may not be written twice"),
    ("overflowing sizes", dict(in_=dict(sizes=(0xFFFFFFFF, 0xFFFFFFFC, 0xFFFFFFFF, 3), total=192)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor: the tensor's size in bytes overflows 64 bits"),
    ("overflowing strides", dict(in_=dict(strides=(0xFFFFFFFF,) * 4, sizes=(0xFFFFFFFF, 8, 2, 3), total=192)), {},
     E_INVALIDARG, f"{D2S}: InputTensor: the tensor's size in bytes overflows 64 bits"),
    ("total size too small", dict(in_=dict(total=188)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.TotalTensorSizeInBytes is 188, expected at least 192 (DMLCalcBufferTensorSize)"),
    ("strided total too small", dict(in_=dict(strides=(100, 12, 6, 2), total=200)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.TotalTensorSizeInBytes is 200, expected at least 380 (DMLCalcBufferTensorSize)"),
    ("binding too small", {}, dict(in_bytes=100), E_INVALIDARG,
     f"{D2S}: inputs[0].SizeInBytes is 100, smaller than the tensor's TotalTensorSizeInBytes 192"),
    ("output binding too small", {}, dict(out_bytes=191), E_INVALIDARG,
     f"{D2S}: outputs[0].SizeInBytes is 191, smaller than the tensor's TotalTensorSizeInBytes 192"),
    ("unaligned", {}, dict(in_off=2, in_bytes=192), E_INVALIDARG,
     f"{D2S}: inputs[0]: Buffer + Offset is not aligned to the element size 4"),
    ("NULL buffer", {}, dict(in_buf=False), E_POINTER, f"{D2S}: inputs[0].Buffer is NULL"),
    ("NULL output buffer", {}, dict(out_buf=False), E_POINTER, f"{D2S}: outputs[0].Buffer is NULL"),
    ("input count", {}, dict(nin=2), E_INVALIDARG, f"{D2S}: inputCount is 2, expected 1"),
    ("output count", {}, dict(nout=0), E_INVALIDARG, f"{D2S}: outputCount is 0, expected 1"),
    ("address wrap", {}, dict(in_off=2 ** 64 - 8, in_bytes=192), E_INVALIDARG,
     f"{D2S}: inputs[0]: Offset 18446744073709551608 + SizeInBytes 192 run past the end of the address space"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_malformed(case):
    _, change, kw, want_hr, want_msg = case
    raw, desc = d2s_case(**change)
    hr, msg, dst = run(raw, desc, **kw)
    assert hr == want_hr, msg
    assert msg == want_msg
    assert np.all(dst == SENTINEL), "a failed call wrote to the output"


def test_valid_case_runs():
    raw, desc = d2s_case()
    hr, msg, dst = run(raw, desc)
    assert hr == 0 and msg == ""
    assert not np.all(dst[:48] == SENTINEL)


def test_output_overlapping_input_is_rejected():
    raw, desc = d2s_case()
    buf = np.zeros(200, np.float32)
    before = buf.copy()
    hr, msg, _ = run(raw, desc, buf=buf, in_bytes=192, out_bytes=192, out_off=96)
    assert hr == E_INVALIDARG
    assert msg == f"{D2S}: outputs[0] overlaps inputs[0]; outputs may not alias inputs"
    np.testing.assert_array_equal(buf, before)


def test_null_pointers():
    assert lib.dmlcExecuteOperator(ffi.NULL, 0, ffi.NULL, 0, ffi.NULL) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == b"dmlcCreateOperator: desc is NULL"
    raw = Raw()
    desc = raw.new("DML_OPERATOR_DESC*", {"Type": lib.DML_OPERATOR_DEPTH_TO_SPACE1, "Desc": ffi.NULL})
    assert lib.dmlcExecuteOperator(desc, 0, ffi.NULL, 0, ffi.NULL) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == f"{D2S}: desc->Desc is NULL".encode()
    _, good = d2s_case()
    assert lib.dmlcCreateOperator(good, ffi.NULL) == E_POINTER
    assert lib.dmlcExecute(ffi.NULL, 0, ffi.NULL, 0, ffi.NULL) == E_POINTER
    raw, desc = d2s_case()
    assert lib.dmlcExecuteOperator(desc, 1, ffi.NULL, 1, ffi.NULL) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == f"{D2S}: inputs is NULL".encode()


def test_tensor_type_and_desc_pointer():
    raw = Raw()
    bad_type = raw.new("DML_TENSOR_DESC*", {"Type": 0, "Desc": ffi.NULL})
    raw2, desc = d2s_case(in_desc=bad_type)
    hr, msg, _ = run(raw2, desc)
    assert hr == E_INVALIDARG and msg == f"{D2S}: InputTensor.Type is 0, expected DML_TENSOR_TYPE_BUFFER (1)"
    null_desc = raw.new("DML_TENSOR_DESC*", {"Type": 1, "Desc": ffi.NULL})
    raw3, desc = d2s_case(out_desc=null_desc)
    hr, msg, _ = run(raw3, desc)
    assert hr == E_POINTER and msg == f"{D2S}: OutputTensor.Desc is NULL"
    raw4 = Raw()
    nosizes = raw4.new("DML_BUFFER_TENSOR_DESC*", {"DataType": 1, "DimensionCount": 4, "Sizes": ffi.NULL,
                                                    "TotalTensorSizeInBytes": 192})
    t = raw4.new("DML_TENSOR_DESC*", {"Type": 1, "Desc": nosizes})
    raw5, desc = d2s_case(in_desc=t)
    hr, msg, _ = run(raw5, desc)
    assert hr == E_POINTER and msg == f"{D2S}: InputTensor.Sizes is NULL"


def test_zero_input_strides_broadcast():
    """0 strides are allowed on inputs: every channel reads the same plane."""
    raw, desc = d2s_case(in_=dict(strides=(0, 0, 3, 1), total=24))
    src = np.arange(6, dtype=np.float32)
    dst = np.zeros(48, np.float32)
    bi = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", src.ctypes.data), "SizeInBytes": 24})
    bo = raw.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", dst.ctypes.data), "SizeInBytes": 192})
    assert lib.dmlcExecuteOperator(desc, 1, bi, 1, bo) == 0
    want = np.repeat(np.repeat(src.reshape(2, 3), 2, axis=0), 2, axis=1)
    np.testing.assert_array_equal(dst.reshape(2, 4, 6)[0], want)
