"""Malformed descs and bindings (docs/tensors.rst) through the raw C API: the rules every
operator shares (tensor descs, data types, sizes, strides, bindings, NULL pointers), each
returning the right HRESULT and message and leaving the output buffer untouched.  A valid
DEPTH_TO_SPACE1 desc is the vehicle; DEPTH_TO_SPACE1's own rules are in test_depth_space_raw.py."""
import numpy as np
import pytest

from dmlc.ffi import ffi, lib, E_INVALIDARG, E_POINTER
from rawdesc import SENTINEL, Raw, d2s_case, d2s_run as run

D2S = "DML_OPERATOR_DEPTH_TO_SPACE1"
TYPES = " (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or UINT8)"


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
    ("zero size", dict(in_=dict(sizes=(1, 8, 0, 3), total=192)), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.Sizes[2] is 0; sizes must be at least 1"),
    ("type mismatch", dict(out_=dict(dtype=np.int32)), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
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
    """The vehicle itself is valid: each failure above comes from its one change."""
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
    # Each function names itself: the one the caller called.
    assert lib.dmlcExecuteOperator(ffi.NULL, 0, ffi.NULL, 0, ffi.NULL) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == b"dmlcExecuteOperator: desc is NULL"
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(ffi.NULL, op) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == b"dmlcCreateOperator: desc is NULL"
    assert lib.dmlcInferOutputSizes(ffi.NULL, 0, 1, ffi.new("DMLC_TENSOR_SIZES[]", 1)) == E_POINTER
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == b"dmlcInferOutputSizes: desc is NULL"
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
