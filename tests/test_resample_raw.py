"""DML_OPERATOR_RESAMPLE, RESAMPLE1, RESAMPLE2 and UPSAMPLE_2D as a C caller drives them:
raw descs through cffi and ctypes, the equivalences between the versions, strided tensors,
dmlcInferOutputSizes, and a table of malformed descs with their exact messages, each checked
to leave the output untouched."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute
from reference import ref_resample
from support import ALL_DTYPES, assert_same_bits, random_array


def floats(raw, values):
    return raw.new("FLOAT[]", list(values)) if values is not None else ffi.NULL


def resample_desc(raw, version, tin, tout, scales, ins=None, outs=None, mode=0, rounding=0, count=None):
    n = len(scales) if (count is None and scales is not None) else count
    if version == 0:
        return raw.op(lib.DML_OPERATOR_RESAMPLE, "DML_RESAMPLE_OPERATOR_DESC", {
            "InputTensor": tin, "OutputTensor": tout, "InterpolationMode": mode, "ScaleCount": n,
            "Scales": floats(raw, scales)})
    fields = {"InputTensor": tin, "OutputTensor": tout, "InterpolationMode": mode, "DimensionCount": n,
              "Scales": floats(raw, scales), "InputPixelOffsets": floats(raw, ins),
              "OutputPixelOffsets": floats(raw, outs)}
    if version == 1:
        return raw.op(lib.DML_OPERATOR_RESAMPLE1, "DML_RESAMPLE1_OPERATOR_DESC", fields)
    fields["RoundingDirection"] = rounding
    return raw.op(lib.DML_OPERATOR_RESAMPLE2, "DML_RESAMPLE2_OPERATOR_DESC", fields)


def upsample_desc(raw, tin, tout, h, w, mode=0):
    return raw.op(lib.DML_OPERATOR_UPSAMPLE_2D, "DML_UPSAMPLE_2D_OPERATOR_DESC", {
        "InputTensor": tin, "OutputTensor": tout, "ScaleSize": {"Width": w, "Height": h}, "InterpolationMode": mode})


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_every_version_nearest(rng, dtype):
    x = random_array(rng, (3, 4, 5), dtype)
    size, scales = (3, 7, 4), [1.0, 1.75, 0.8]
    raw = Raw()
    for version, ins, outs, rounding in [(0, [0.5] * 3, [-0.5] * 3, None), (1, [0.2, 0.0, 1.0], [0.0, 0.5, -1.0], None),
                                         (2, [0.2, 0.0, 1.0], [0.0, 0.5, -1.0], "increasing"),
                                         (2, [0.2, 0.0, 1.0], [0.0, 0.5, -1.0], "decreasing")]:
        y = np.zeros(size, dtype)
        desc = resample_desc(raw, version, raw.tensor_for(x), raw.tensor_for(y), scales, ins, outs,
                             rounding=int(rounding == "decreasing"))
        assert execute(desc, [x], [y]) == (0, "")
        assert_same_bits(y, ref_resample(x, size, scales, ins, outs, "nearest", rounding))


def test_resample1_with_half_offsets_is_resample_and_the_resample2_equivalence(rng):
    """RESAMPLE1 with 0.5 / -0.5 is RESAMPLE; RESAMPLE1's floor(x + 0.5) is RESAMPLE2
    DECREASING with InputPixelOffsets lowered by 0.5 (not OutputPixelOffsets, as the
    RESAMPLE2 page says: that holds at Scale 1 only)."""
    x = random_array(rng, (5, 6), np.float32)
    size, scales = (9, 4), [1.8, 0.75]
    raw = Raw()
    got = []
    for version, ins, outs, rounding in [(0, None, None, 0), (1, [0.5, 0.5], [-0.5, -0.5], 0),
                                         (2, [0.0, 0.0], [-0.5, -0.5], 1)]:
        y = np.zeros(size, np.float32)
        assert execute(resample_desc(raw, version, raw.tensor_for(x), raw.tensor_for(y), scales, ins, outs,
                                     rounding=rounding), [x], [y]) == (0, "")
        got.append(y)
    assert_same_bits(got[0], got[1])
    assert_same_bits(got[0], got[2])


def test_linear_and_upsample_2d():
    x = np.arange(1, 5, dtype=np.float32).reshape(1, 1, 2, 2)
    y = np.zeros((1, 1, 4, 4), np.float32)
    raw = Raw()
    assert execute(upsample_desc(raw, raw.tensor_for(x), raw.tensor_for(y), 2, 2, mode=1), [x], [y]) == (0, "")
    np.testing.assert_array_equal(y[0, 0, 0], [1, 1.25, 1.75, 2])
    z = np.zeros((1, 1, 4, 4), np.float32)
    assert execute(resample_desc(raw, 0, raw.tensor_for(x), raw.tensor_for(z), [1, 1, 2, 2], mode=1), [x], [z]) == \
        (0, "")
    assert_same_bits(y, z)
    n = np.zeros((1, 1, 2, 6), np.float32)
    assert execute(upsample_desc(raw, raw.tensor_for(x), raw.tensor_for(n), 1, 3), [x], [n]) == (0, "")
    np.testing.assert_array_equal(n[0, 0], [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]])


def test_strided_input_and_output():
    store = np.arange(12, dtype=np.float64)
    x = store.reshape(3, 4).T  # {4, 3} read with strides {1, 4}
    out = np.full(8 * 6, -1.0)
    raw = Raw()
    desc = resample_desc(raw, 1, raw.tensor(np.float64, (4, 3), strides=(1, 4)),
                         raw.tensor(np.float64, (8, 3), strides=(6, 2)), [2, 1], [0.5, 0.0], [-0.5, 0.0], mode=1)
    assert execute(desc, [store], [out], [96], [out.nbytes]) == (0, "")
    grid = out.reshape(8, 6)
    want = ref_resample(np.ascontiguousarray(x), (8, 3), [2, 1], [0.5, 0.0], [-0.5, 0.0], "linear")
    np.testing.assert_array_equal(grid[:, 0::2], want)
    assert (grid[:, 1::2] == -1).all()


def test_ctypes_resample2():
    so = rawctypes.library()
    x = np.array([[1, 2], [3, 4]], np.float32)
    y = np.zeros((1, 3), np.float32)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    s = (ctypes.c_float * 2)(0.5, 1.5)
    i = (ctypes.c_float * 2)(1.0, 1.0)
    o = (ctypes.c_float * 2)(-0.5, -0.5)
    d = rawctypes.DML_RESAMPLE2_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), 0, 0, 2, s, i, o)
    op = rawctypes.operator(lib.DML_OPERATOR_RESAMPLE2, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y, [[1, 1, 2]])  # DML_RESAMPLE_GRAD1's page
    s[1] = float("nan")
    y[...] = 9
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage() == b"DML_OPERATOR_RESAMPLE2: Scales[1] is nan, expected a finite value above 0"
    assert (y == 9).all()


def test_ctypes_upsample_2d():
    so = rawctypes.library()
    x = np.arange(4, dtype=np.uint8).reshape(1, 1, 2, 2)
    y = np.zeros((1, 1, 2, 4), np.uint8)
    keep = []
    ti, to = rawctypes.tensor(x, keep), rawctypes.tensor(y, keep)
    d = rawctypes.DML_UPSAMPLE_2D_OPERATOR_DESC(ctypes.pointer(ti), ctypes.pointer(to), rawctypes.DML_SIZE_2D(2, 1), 0)
    op = rawctypes.operator(lib.DML_OPERATOR_UPSAMPLE_2D, d)
    bi, bo = rawctypes.binding(x), rawctypes.binding(y)
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo)) == 0
    np.testing.assert_array_equal(y[0, 0], [[0, 0, 1, 1], [2, 2, 3, 3]])  # Width 2, Height 1


# ---- malformed descs ------------------------------------------------------------------------

R2 = "DML_OPERATOR_RESAMPLE2"
IN, OUT = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.float32, sizes=(4, 3))
SC, IO, OO = [2.0, 1.0], [0.5, 0.5], [-0.5, -0.5]
BAD = [
    # (id, version, in, out, scales, ins, outs, mode, rounding, count, HRESULT, message)
    ("valid", 2, IN, OUT, SC, IO, OO, 0, 0, None, 0, ""),
    ("valid linear", 2, IN, OUT, SC, IO, OO, 1, 1, None, 0, ""),
    ("mode 2", 2, IN, OUT, SC, IO, OO, 2, 0, None, E_INVALIDARG,
     f"{R2}: InterpolationMode is 2, expected 0 (NEAREST_NEIGHBOR) or 1 (LINEAR)"),
    ("rounding 2", 2, IN, OUT, SC, IO, OO, 0, 2, None, E_INVALIDARG,
     f"{R2}: RoundingDirection is 2, expected 0 (INCREASING) or 1 (DECREASING)"),
    ("linear int32", 2, dict(IN, dtype=np.int32), dict(OUT, dtype=np.int32), SC, IO, OO, 1, 0, None, E_INVALIDARG,
     f"{R2}: InputTensor.DataType is INT32, but LINEAR interpolation takes FLOAT16, FLOAT32, FLOAT64, INT8 or UINT8 "
     "(NEAREST_NEIGHBOR takes every type)"),
    ("count", 2, IN, OUT, SC, IO, OO, 0, 0, 1, E_INVALIDARG,
     f"{R2}: DimensionCount is 1, expected 2 (InputTensor.DimensionCount)"),
    ("ScaleCount", 0, IN, OUT, SC, None, None, 0, 0, 3, E_INVALIDARG,
     "DML_OPERATOR_RESAMPLE: ScaleCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("scale 0", 2, IN, OUT, [0.0, 1.0], IO, OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: Scales[0] is 0, expected a finite value above 0"),
    ("scale negative", 1, IN, OUT, [2.0, -1.0], IO, OO, 0, 0, None, E_INVALIDARG,
     "DML_OPERATOR_RESAMPLE1: Scales[1] is -1, expected a finite value above 0"),
    ("scale inf", 0, IN, OUT, [float("inf"), 1.0], None, None, 0, 0, None, E_INVALIDARG,
     "DML_OPERATOR_RESAMPLE: Scales[0] is inf, expected a finite value above 0"),
    ("input offset nan", 2, IN, OUT, SC, [0.5, float("nan")], OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: InputPixelOffsets[1] is nan, expected a finite value"),
    ("output offset inf", 2, IN, OUT, SC, IO, [float("-inf"), 0], 0, 0, None, E_INVALIDARG,
     f"{R2}: OutputPixelOffsets[0] is -inf, expected a finite value"),
    ("Scales NULL", 2, IN, OUT, None, IO, OO, 0, 0, 2, E_POINTER, f"{R2}: Scales is NULL"),
    ("InputPixelOffsets NULL", 2, IN, OUT, SC, None, OO, 0, 0, None, E_POINTER, f"{R2}: InputPixelOffsets is NULL"),
    ("OutputPixelOffsets NULL", 1, IN, OUT, SC, IO, None, 0, 0, None, E_POINTER,
     "DML_OPERATOR_RESAMPLE1: OutputPixelOffsets is NULL"),
    ("output rank", 2, IN, dict(OUT, sizes=(4, 3, 1)), SC, IO, OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)"),
    ("output type", 2, IN, dict(OUT, dtype=np.float64), SC, IO, OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: OutputTensor.DataType is FLOAT64, expected FLOAT32 (InputTensor.DataType)"),
    ("output size 0", 2, IN, dict(OUT, sizes=(4, 0), total=4), SC, IO, OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: OutputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("input NULL", 2, None, OUT, SC, IO, OO, 0, 0, None, E_POINTER, f"{R2}: InputTensor is NULL"),
    ("output NULL", 2, IN, None, SC, IO, OO, 0, 0, None, E_POINTER, f"{R2}: OutputTensor is NULL"),
    ("input of 9 dimensions", 2, dict(IN, sizes=(1,) * 9), OUT, [1.0] * 9, [0.0] * 9, [0.0] * 9, 0, 0, None,
     E_INVALIDARG, f"{R2}: InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("output written twice", 2, IN, dict(OUT, strides=(0, 1), total=12), SC, IO, OO, 0, 0, None, E_INVALIDARG,
     f"{R2}: OutputTensor.Strides[0] is 0 with Sizes[0] 4; an output element may not be written twice"),
]


def run_bad(bad, executes):
    _, version, tin, tout, scales, ins, outs, mode, rounding, count, want_hr, want_msg = bad
    raw = Raw()
    desc = resample_desc(raw, version, raw.tensor(**tin) if tin else ffi.NULL,
                         raw.tensor(**tout) if tout else ffi.NULL, scales, ins, outs, mode, rounding, count)
    assert create(desc) == (want_hr, want_msg)
    dst = np.full(12, SENTINEL, np.uint32)
    assert executes(desc, dst) == (want_hr, want_msg)
    if want_hr:
        assert (dst == SENTINEL).all(), "a failed call wrote to the output"


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(bad):
    src = np.arange(6, dtype=np.float32)
    run_bad(bad, lambda desc, dst: execute(desc, [src], [dst]))


U = "DML_OPERATOR_UPSAMPLE_2D"
UIN, UOUT = dict(dtype=np.float32, sizes=(1, 1, 2, 3)), dict(dtype=np.float32, sizes=(1, 1, 4, 3))
UBAD = [
    ("valid", UIN, UOUT, 2, 1, 0, 0, ""),
    ("height 0", UIN, UOUT, 0, 1, 0, E_INVALIDARG, f"{U}: ScaleSize is {{Width 1, Height 0}}, expected both at least 1"),
    ("width 0", UIN, UOUT, 2, 0, 0, E_INVALIDARG, f"{U}: ScaleSize is {{Width 0, Height 2}}, expected both at least 1"),
    ("swapped", UIN, UOUT, 1, 2, 0, E_INVALIDARG,
     f"{U}: OutputTensor.Sizes[2] is 4, expected 2 (InputTensor.Sizes[2] 2 * ScaleSize.Height 1)"),
    ("width", UIN, dict(UOUT, sizes=(1, 1, 4, 4)), 2, 1, 0, E_INVALIDARG,
     f"{U}: OutputTensor.Sizes[3] is 4, expected 3 (InputTensor.Sizes[3] 3 * ScaleSize.Width 1)"),
    ("3 dimensions", dict(UIN, sizes=(1, 2, 3)), dict(UOUT, sizes=(1, 4, 3)), 2, 1, 0, E_INVALIDARG,
     f"{U}: InputTensor.DimensionCount is 3, expected 4 to 5"),
    ("mode 5", UIN, UOUT, 2, 1, 5, E_INVALIDARG, f"{U}: InterpolationMode is 5, expected 0 (NEAREST_NEIGHBOR) or 1"),
    ("linear uint16", dict(UIN, dtype=np.uint16), dict(UOUT, dtype=np.uint16), 2, 1, 1, E_INVALIDARG,
     f"{U}: InputTensor.DataType is UINT16, but LINEAR interpolation takes"),
    ("output past 32 bits", UIN, UOUT, 2**31, 1, 0, E_INVALIDARG,
     f"{U}: OutputTensor.Sizes[2] is 4, expected 4294967296 (InputTensor.Sizes[2] 2 * ScaleSize.Height 2147483648)"),
]


@pytest.mark.parametrize("bad", UBAD, ids=[b[0] for b in UBAD])
def test_malformed_upsample_2d(bad):
    _, tin, tout, h, w, mode, want_hr, want_msg = bad
    raw = Raw()
    desc = upsample_desc(raw, raw.tensor(**tin), raw.tensor(**tout), h, w, mode)
    hr, msg = create(desc)
    assert hr == want_hr and msg.startswith(want_msg), msg
    src = np.arange(6, dtype=np.float32)
    dst = np.full(12, SENTINEL, np.uint32)
    hr, msg = execute(desc, [src], [dst])
    assert hr == want_hr and msg.startswith(want_msg), msg
    if want_hr:
        assert (dst == SENTINEL).all()


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    """The same descs built with ctypes' structs and run with ctypes: the same HRESULTs and
    messages, and the output untouched."""
    so = rawctypes.library()
    _, version, tin, tout, scales, ins, outs, mode, rounding, count, want_hr, want_msg = bad
    if version != 2:
        return  # the cffi table covers the other versions; ctypes lays out RESAMPLE2's struct here
    from test_tiling_raw import ctypes_tensor
    keep = []

    def arr(v):
        return (ctypes.c_float * len(v))(*v) if v is not None else None

    s, i, o = arr(scales), arr(ins), arr(outs)
    d = rawctypes.DML_RESAMPLE2_OPERATOR_DESC(ctypes_tensor(keep, **tin) if tin else None,
                                              ctypes_tensor(keep, **tout) if tout else None, mode, rounding,
                                              len(scales) if count is None else count, s, i, o)
    op = rawctypes.operator(lib.DML_OPERATOR_RESAMPLE2, d)
    src = np.arange(6, dtype=np.float32)
    dst = np.full(12, SENTINEL, np.uint32)
    bi, bo = rawctypes.binding(src), rawctypes.binding(dst)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 1, ctypes.byref(bo))
    assert (hr, so.dmlcGetLastErrorMessage().decode()) == (want_hr, want_msg)
    if want_hr:
        assert (dst == SENTINEL).all()


def test_infer_output_sizes():
    raw = Raw()
    sizes = ffi.new("DMLC_TENSOR_SIZES[1]")
    # RESAMPLE*: the output's sizes are the parameter, read from the desc.
    desc = resample_desc(raw, 2, raw.tensor(np.float32, (2, 3)), raw.tensor(np.float32, (5, 7)), SC, IO, OO)
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:sizes[0].DimensionCount] == [5, 7]
    desc = resample_desc(raw, 2, raw.tensor(np.float32, (0, 3), total=0), raw.tensor(np.float32, (2, 7), total=0),
                         SC, IO, OO)
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        f"{R2}: OutputTensor.Sizes[0] is 2, but InputTensor.Sizes[0] is 0: nothing to resample from")
    desc = upsample_desc(raw, raw.tensor(np.float32, (1, 2, 3, 4)), ffi.NULL, 3, 2)
    assert lib.dmlcInferOutputSizes(desc, 0, 1, sizes) == 0
    assert list(sizes[0].Sizes)[:4] == [1, 2, 9, 8]


def test_resample3_is_not_implemented():
    raw = Raw()
    desc = raw.op(175, "DML_TILE_OPERATOR_DESC", {"InputTensor": ffi.NULL, "OutputTensor": ffi.NULL,
                                                   "RepeatsCount": 0, "Repeats": ffi.NULL})
    hr, msg = create(desc)
    assert hr == lib.E_NOTIMPL if hasattr(lib, "E_NOTIMPL") else hr != 0
    assert "DML_OPERATOR_RESAMPLE3" in msg
