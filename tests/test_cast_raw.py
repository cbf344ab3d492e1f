"""DML_OPERATOR_CAST as a C caller drives it: raw descs through cffi and ctypes, every type
pair, strides and broadcasting in and out, and malformed descs with their messages."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute, padded
from reference import cast_edge_values, ref_cast
from support import ALL_DTYPES, DML_TYPE, assert_same_bits

OP = "DML_OPERATOR_CAST"
STRUCT = "DML_CAST_OPERATOR_DESC"


def cast_desc(raw, tin, tout):
    return raw.op(lib.DML_OPERATOR_CAST, STRUCT, {"InputTensor": tin, "OutputTensor": tout})


def nan_free(a):
    """a with NaNs zeroed (a NaN's payload is free): compare the rest bit for bit."""
    a = a.copy()
    if a.dtype.kind == "f":
        a[np.isnan(a)] = 0
    return a


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_every_pair_through_cffi(src, dst):
    x, xbuf = padded(cast_edge_values(src))
    y, ybuf = padded(np.zeros(x.shape, dst))
    raw = Raw()
    hr, msg = execute(cast_desc(raw, raw.tensor_for(x), raw.tensor_for(y)), [xbuf], [ybuf])
    assert (hr, msg) == (0, "")
    want = ref_cast(x, dst)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.isnan(y), np.isnan(want))
    assert_same_bits(nan_free(y), nan_free(want))


def test_broadcast_input_and_strided_output():
    raw = Raw()
    x = np.array([1.5, -2.5, 300.0], np.float32)
    out = np.full(40, SENTINEL, np.uint32).view(np.int32)
    # Input {4, 3} with strides {0, 1}: every row is x.  Output rows 10 elements apart.
    desc = cast_desc(raw, raw.tensor(np.float32, (4, 3), strides=(0, 1)), raw.tensor(np.int32, (4, 3), strides=(10, 2)))
    hr, msg = execute(desc, [x], [out], [12], [out.nbytes])
    assert (hr, msg) == (0, "")
    grid = out.reshape(4, 10)
    np.testing.assert_array_equal(grid[:, 0:6:2], np.tile([1, -2, 300], (4, 1)))
    assert (grid[:, 1:6:2].view(np.uint32) == SENTINEL).all() and (grid[:, 6:].view(np.uint32) == SENTINEL).all()


def test_transposing_cast_of_a_large_tensor(rng):
    """NCHW float32 read as NHWC into a packed float16 output, on the threads."""
    x = (rng.standard_normal((4, 16, 40, 48)) * 100).astype(np.float32)
    raw = Raw()
    y = np.zeros((4, 40, 48, 16), np.float16)
    tin = raw.tensor(np.float32, (4, 40, 48, 16), strides=(16 * 40 * 48, 48, 1, 40 * 48))
    hr, msg = execute(cast_desc(raw, tin, raw.tensor_for(y)), [x], [y])
    assert (hr, msg) == (0, "")
    assert_same_bits(y, x.transpose(0, 2, 3, 1).astype(np.float16))


def test_ctypes_cast():
    so = rawctypes.library()
    so.dmlcGetLastErrorMessage.restype = ctypes.c_char_p
    x = np.array([2**53 + 2**29 + 1, -1, 2**62], np.int64)
    y = np.zeros(3, np.float32)
    keep = []
    d = rawctypes.DML_CAST_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                         ctypes.pointer(rawctypes.tensor(y, keep)))
    op = rawctypes.operator(lib.DML_OPERATOR_CAST, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, np.array([2.0**53 + 2.0**30, -1, 2.0**62], np.float32))


def test_infer_output_sizes():
    raw = Raw()
    desc = cast_desc(raw, raw.tensor(np.float32, (3, 0, 2), total=0), ffi.NULL)
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [3, 0, 2]


# ---- malformed descs ------------------------------------------------------------------------

def case(**change):
    """A valid cast, float32 {2, 3} -> int8 {2, 3}, with fields changed: in_/out_ tensor kwargs
    for Raw.tensor, in_desc/out_desc (raw values)."""
    raw = Raw()
    tin = dict(dtype=np.float32, sizes=(2, 3))
    tout = dict(dtype=np.int8, sizes=(2, 3))
    tin.update(change.get("in_", {}))
    tout.update(change.get("out_", {}))
    ti = change.get("in_desc", raw.tensor(**tin))
    to = change.get("out_desc", raw.tensor(**tout))
    return raw, cast_desc(raw, ti, to)


BAD = [
    ("output size", dict(out_=dict(sizes=(2, 4))), E_INVALIDARG,
     f"{OP}: OutputTensor.Sizes[1] is 4, expected 3 (InputTensor.Sizes[1])"),
    ("output rank", dict(out_=dict(sizes=(6,))), E_INVALIDARG,
     f"{OP}: OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("unknown output type", dict(out_=dict(dml_type=12)), E_INVALIDARG,
     f"{OP}: OutputTensor.DataType UINT4 is not supported (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, "
     "INT8, UINT64, UINT32, UINT16 or UINT8)"),
    ("unknown input type", dict(in_=dict(dml_type=0)), E_INVALIDARG,
     f"{OP}: InputTensor.DataType UNKNOWN is not supported (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, "
     "INT8, UINT64, UINT32, UINT16 or UINT8)"),
    ("9 dimensions", dict(in_=dict(sizes=(1,) * 9), out_=dict(sizes=(1,) * 9)), E_INVALIDARG,
     f"{OP}: InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("0 dimensions", dict(in_=dict(sizes=())), E_INVALIDARG, f"{OP}: InputTensor.DimensionCount is 0, expected 1 to 8"),
    ("zero size", dict(in_=dict(sizes=(2, 0)), out_=dict(sizes=(2, 0))), E_INVALIDARG,
     f"{OP}: InputTensor.Sizes[1] is 0; sizes must be at least 1"),
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


def test_output_overlapping_the_input_is_refused():
    buf = np.arange(8, dtype=np.int32)
    before = buf.copy()
    raw = Raw()
    hr, msg = execute(cast_desc(raw, raw.tensor_for(buf), raw.tensor(np.float32, (8,))), [buf], [buf])
    assert (hr, msg) == (E_INVALIDARG, f"{OP}: outputs[0] overlaps inputs[0]; outputs may not alias inputs")
    np.testing.assert_array_equal(buf, before)
    assert DML_TYPE[np.dtype(np.int32)] == lib.DML_TENSOR_DATA_TYPE_INT32
