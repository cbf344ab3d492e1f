"""DML_OPERATOR_SPACE_TO_DEPTH(1) and DML_OPERATOR_DEPTH_TO_SPACE(1) as a C caller drives
them: raw descs through cffi and ctypes, every version and dtype, strides and offsets, a
created operator executed many times, and malformed descs with their messages (the rules
every operator shares are in test_validation.py)."""
import ctypes

import numpy as np
import pytest

import dmlc
import rawctypes
from dmlc.ffi import E_INVALIDARG, ffi, lib
from rawctypes import DML_BUFFER_TENSOR_DESC, DML_OPERATOR_DESC, DML_TENSOR_DESC, DMLC_BUFFER_BINDING, UINT
from rawdesc import SENTINEL, Raw, create, d2s_case, d2s_run as run, execute
from reference import ref_depth_to_space, ref_space_to_depth
from support import ALL_DTYPES, random_array

D2S = "DML_OPERATOR_DEPTH_TO_SPACE1"
S2D = "DML_OPERATOR_SPACE_TO_DEPTH1"
ORDERS = {0: "depth_column_row", 1: "column_row_depth"}
# (operator, its desc struct, whether it has Order, whether it goes depth -> space)
VERSIONS = [("DML_OPERATOR_DEPTH_TO_SPACE", "DML_DEPTH_TO_SPACE_OPERATOR_DESC", False, True),
            ("DML_OPERATOR_SPACE_TO_DEPTH", "DML_SPACE_TO_DEPTH_OPERATOR_DESC", False, False),
            ("DML_OPERATOR_DEPTH_TO_SPACE1", "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", True, True),
            ("DML_OPERATOR_SPACE_TO_DEPTH1", "DML_SPACE_TO_DEPTH1_OPERATOR_DESC", True, False)]


# ---- every version and dtype through cffi ---------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("version", VERSIONS, ids=[v[0][len("DML_OPERATOR_"):] for v in VERSIONS])
def test_versions_through_cffi(rng, dtype, version):
    op_name, struct, has_order, to_space = version
    b = 3
    depth = random_array(rng, (2, 2 * b * b, 2, 3), dtype)
    for order in (0, 1) if has_order else (0,):
        ref = ref_depth_to_space if to_space else ref_space_to_depth
        x = depth if to_space else ref_depth_to_space(depth, b, ORDERS[order])
        want = ref(x, b, ORDERS[order])
        y = np.zeros_like(want)
        raw = Raw()
        fields = {"InputTensor": raw.tensor_for(x), "OutputTensor": raw.tensor_for(y), "BlockSize": b}
        if has_order:
            fields["Order"] = order
        desc = raw.op(getattr(lib, op_name), struct, fields)
        hr, msg = execute(desc, [x], [y], [x.nbytes + 8], [y.nbytes + 8])
        assert (hr, msg) == (0, "")
        np.testing.assert_array_equal(y, want)


# ---- raw structs through ctypes ---------------------------------------------------------------

def test_ctypes_depth_to_space1():
    so = rawctypes.library()
    x = np.arange(1 * 8 * 2 * 3, dtype=np.uint32).reshape(1, 8, 2, 3)
    y = np.zeros((1, 2, 4, 6), np.uint32)
    si, so_ = (UINT * 4)(*x.shape), (UINT * 4)(*y.shape)
    u32, buffer = lib.DML_TENSOR_DATA_TYPE_UINT32, lib.DML_TENSOR_TYPE_BUFFER
    bi = DML_BUFFER_TENSOR_DESC(u32, 0, 4, si, None, x.nbytes, 0)
    bo = DML_BUFFER_TENSOR_DESC(u32, 0, 4, so_, None, y.nbytes, 0)
    ti, to = DML_TENSOR_DESC(buffer, ctypes.addressof(bi)), DML_TENSOR_DESC(buffer, ctypes.addressof(bo))
    d = rawctypes.DML_DEPTH_TO_SPACE1_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 2, 1)
    op = DML_OPERATOR_DESC(lib.DML_OPERATOR_DEPTH_TO_SPACE1, ctypes.addressof(d))
    bind_in = DMLC_BUFFER_BINDING(x.ctypes.data, 0, x.nbytes)
    bind_out = DMLC_BUFFER_BINDING(y.ctypes.data, 0, y.nbytes)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(y, dmlc.depth_to_space(x, 2, order="column_row_depth"))
    # The same desc with a bad block size: E_INVALIDARG, message, output untouched.
    d.BlockSize = 3
    y[...] = 7
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bind_in), 1, ctypes.byref(bind_out))
    assert hr & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == (b"DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.Sizes[1] is 8, not divisible "
                                            b"by BlockSize * BlockSize (9)")
    assert np.all(y == 7)


# ---- raw structs through cffi: create once, execute many, strides and offsets ----------

def test_cffi_space_to_depth_v0_strided_and_offsets():
    raw = Raw()
    # Input {1, 1, 4, 6} stored transposed (W-major): strides {24, 24, 1, 4}.
    space = np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6)
    storage = np.zeros(64, np.float32)
    storage[8:8 + 24] = space[0, 0].T.ravel()  # element offset 8 inside the buffer
    ti = raw.tensor(np.float32, (1, 1, 4, 6), strides=(24, 24, 1, 4))
    to = raw.tensor(np.float32, (1, 4, 2, 3))
    desc = raw.op(lib.DML_OPERATOR_SPACE_TO_DEPTH, "DML_SPACE_TO_DEPTH_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": to, "BlockSize": 2})
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0, dmlc.ffi.last_error()
    try:
        for _ in range(3):
            out = np.zeros((1, 4, 2, 3), np.float32)
            bi = ffi.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", storage.ctypes.data), "Offset": 8 * 4,
                                                  "SizeInBytes": storage.nbytes - 32})
            bo = ffi.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", out.ctypes.data), "Offset": 0,
                                                  "SizeInBytes": out.nbytes})
            assert lib.dmlcExecute(op[0], 1, bi, 1, bo) == 0, dmlc.ffi.last_error()
            np.testing.assert_array_equal(out, dmlc.space_to_depth(space, 2))
    finally:
        lib.dmlcReleaseOperator(op[0])
    lib.dmlcReleaseOperator(ffi.NULL)  # accepts NULL


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


# ---- malformed descs: DEPTH_TO_SPACE1's own rules -----------------------------------------

BAD = [
    # (id, desc changes, run kwargs, HRESULT, message)
    ("3 dims", dict(in_=dict(sizes=(8, 2, 3))), {}, E_INVALIDARG,
     f"{D2S}: InputTensor.DimensionCount is 3, expected 4"),
    ("5 dims", dict(out_=dict(sizes=(1, 1, 2, 4, 6))), {}, E_INVALIDARG,
     f"{D2S}: OutputTensor.DimensionCount is 5, expected 4"),
    ("block 0", dict(block=0), {}, E_INVALIDARG, f"{D2S}: BlockSize is 0, expected at least 1"),
    ("order 2", dict(order=2), {}, E_INVALIDARG,
     f"{D2S}: Order is 2, expected DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW (0) or "
     "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH (1)"),
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
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_malformed(case):
    _, change, kw, want_hr, want_msg = case
    raw, desc = d2s_case(**change)
    hr, msg, dst = run(raw, desc, **kw)
    assert hr == want_hr, msg
    assert msg == want_msg
    assert np.all(dst == SENTINEL), "a failed call wrote to the output"


# ---- malformed descs: SPACE_TO_DEPTH1, the other direction --------------------------------

def s2d_case(block=2, in_sizes=(1, 2, 4, 6), out_sizes=(1, 8, 2, 3)):
    """A SPACE_TO_DEPTH1 desc, float32 {1,2,4,6} -> {1,8,2,3} with block 2 unless changed."""
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_SPACE_TO_DEPTH1, "DML_SPACE_TO_DEPTH1_OPERATOR_DESC",
                  {"InputTensor": raw.tensor(np.float32, in_sizes), "OutputTensor": raw.tensor(np.float32, out_sizes),
                   "BlockSize": block, "Order": 1})
    return raw, desc


S2D_BAD = [
    ("valid", {}, 0, ""),
    ("height not divisible", dict(in_sizes=(1, 2, 5, 6), out_sizes=(1, 8, 2, 3)), E_INVALIDARG,
     f"{S2D}: InputTensor.Sizes[2] is 5, not divisible by BlockSize 2"),
    ("width not divisible", dict(block=4, in_sizes=(1, 2, 4, 6), out_sizes=(1, 32, 1, 1)), E_INVALIDARG,
     f"{S2D}: InputTensor.Sizes[3] is 6, not divisible by BlockSize 4"),
    ("output batch", dict(out_sizes=(2, 8, 2, 3)), E_INVALIDARG,
     f"{S2D}: OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
    ("output channels", dict(out_sizes=(1, 4, 2, 3)), E_INVALIDARG,
     f"{S2D}: OutputTensor.Sizes[1] is 4, expected 8 (InputTensor.Sizes[1] 2 * BlockSize 2 * BlockSize 2)"),
    ("output height", dict(out_sizes=(1, 8, 4, 3)), E_INVALIDARG,
     f"{S2D}: OutputTensor.Sizes[2] is 4, expected 2 (InputTensor.Sizes[2] 4 / BlockSize 2)"),
    ("output width", dict(out_sizes=(1, 8, 2, 6)), E_INVALIDARG,
     f"{S2D}: OutputTensor.Sizes[3] is 6, expected 3 (InputTensor.Sizes[3] 6 / BlockSize 2)"),
    ("block 0", dict(block=0), E_INVALIDARG, f"{S2D}: BlockSize is 0, expected at least 1"),
]


@pytest.mark.parametrize("change,hr,msg", [c[1:] for c in S2D_BAD], ids=[c[0] for c in S2D_BAD])
def test_space_to_depth1_malformed(change, hr, msg):
    raw, desc = s2d_case(**change)  # raw owns the desc's memory: it must outlive the call
    assert create(desc) == (hr, msg)
