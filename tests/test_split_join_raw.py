"""DML_OPERATOR_SPLIT / DML_OPERATOR_JOIN as raw DirectML structs, through cffi and ctypes:
strides on every tensor, parts bound as sub-ranges of one buffer, and every malformed
desc with its message."""
import ctypes

import numpy as np
import pytest

from dmlc.ffi import E_INVALIDARG, E_OUTOFMEMORY, E_POINTER, ffi, lib
from rawctypes import (DML_JOIN_OPERATOR_DESC, DML_SPLIT_OPERATOR_DESC, DML_TENSOR_DESC, DMLC_BUFFER_BINDING,
                       binding as ctypes_binding, library as ctypes_lib, operator, tensor as ctypes_tensor)
from rawdesc import Raw, create, padded
from reference import ref_split
from support import ALL_DTYPES, random_array

SPLIT, JOIN = lib.DML_OPERATOR_SPLIT, lib.DML_OPERATOR_JOIN


def elem_strides(a):
    return [s // a.itemsize for s in a.strides]


def tensor_array(raw, tensors):
    """A DML_TENSOR_DESC[] (the structs themselves, as OutputTensors/InputTensors want)."""
    arr = raw.new("DML_TENSOR_DESC[]", len(tensors))
    for i, t in enumerate(tensors):
        arr[i] = t[0]
    return arr


def split_desc(raw, whole, parts, axis, count=None):
    arr = tensor_array(raw, parts) if parts is not None else ffi.NULL
    return raw.op(SPLIT, "DML_SPLIT_OPERATOR_DESC", {
        "InputTensor": whole, "OutputCount": len(parts) if count is None else count, "OutputTensors": arr,
        "Axis": axis})


def join_desc(raw, parts, whole, axis, count=None):
    arr = tensor_array(raw, parts) if parts is not None else ffi.NULL
    return raw.op(JOIN, "DML_JOIN_OPERATOR_DESC", {
        "InputCount": len(parts) if count is None else count, "InputTensors": arr, "OutputTensor": whole,
        "Axis": axis})


def strided_tensor(raw, a):
    """Desc of a NumPy view with its real strides (in elements)."""
    return raw.tensor(a.dtype, a.shape, elem_strides(a))


def run(desc, inputs, outputs):
    """Runs desc with each array in a buffer padded to TotalTensorSizeInBytes's multiple of 4."""
    raw = Raw()
    ins = [padded(a)[0] for a in inputs]
    outs = [padded(a)[0] for a in outputs]
    hr = lib.dmlcExecuteOperator(desc, len(ins), raw.bindings(ins, [-(-a.nbytes // 4) * 4 for a in ins]),
                                 len(outs), raw.bindings(outs, [-(-a.nbytes // 4) * 4 for a in outs]))
    for a, o in zip(outputs, outs):
        a[...] = o
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


# ---- cffi -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cffi_split_and_join_every_dtype(rng, dtype):
    x = random_array(rng, (2, 3, 7, 5), dtype)
    for axis, sizes in ((0, [1, 1]), (1, [2, 1]), (2, [3, 1, 3]), (3, [5])):
        want = ref_split(x, sizes, axis)
        outs = [np.zeros_like(w) for w in want]
        raw = Raw()
        d = split_desc(raw, raw.tensor_for(x), [raw.tensor_for(w) for w in want], axis)
        assert run(d, [x], outs) == (0, "")
        for o, w in zip(outs, want):
            np.testing.assert_array_equal(o, w)
        y = np.zeros_like(x)
        d = join_desc(raw, [raw.tensor_for(w) for w in want], raw.tensor_for(y), axis)
        assert run(d, outs, [y]) == (0, "")
        np.testing.assert_array_equal(y, x)


def view_binding(raw, bindings, i, base, view):
    """Binds view (a NumPy view into base) as base's buffer at the view's byte offset."""
    bindings[i].Buffer = ffi.cast("void*", base.ctypes.data)
    bindings[i].Offset = view.ctypes.data - base.ctypes.data
    bindings[i].SizeInBytes = base.nbytes - bindings[i].Offset


def test_cffi_strides_on_every_tensor(rng):
    """A transposed input split into views of larger buffers, joined back into another view."""
    base = random_array(rng, (6, 5, 4), np.float32)
    x = base.transpose(2, 0, 1)            # (4, 6, 5), strides {1, 20, 4}
    sizes = [2, 4]
    want = ref_split(x, sizes, 1)
    raw = Raw()
    bigs = [np.full((4, 9, 7), -1, np.float32) for _ in sizes]
    outs = [big[:, :w.shape[1] * 2:2, 1:6] for big, w in zip(bigs, want)]  # start one element in
    d = split_desc(raw, strided_tensor(raw, x), [strided_tensor(raw, o) for o in outs], 1)
    b_out = raw.new("DMLC_BUFFER_BINDING[]", 2)
    for i, (big, o) in enumerate(zip(bigs, outs)):
        view_binding(raw, b_out, i, big, o)
    assert lib.dmlcExecuteOperator(d, 1, raw.bindings([base]), 2, b_out) == 0
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(o, w)
    untouched = bigs[0].copy()
    untouched[:, :4:2, 1:6] = -1
    assert np.all(untouched == -1)

    big = np.full((6, 8, 6), -1, np.float32)
    y = big.transpose(2, 0, 1)[1:5, :6, 2:7]  # (4, 6, 5), strides {1, 48, 6}, 13 elements in
    d = join_desc(raw, [strided_tensor(raw, o) for o in outs], strided_tensor(raw, y), 1)
    b_in = raw.new("DMLC_BUFFER_BINDING[]", 2)
    for i, (bg, o) in enumerate(zip(bigs, outs)):
        view_binding(raw, b_in, i, bg, o)
    b_y = raw.new("DMLC_BUFFER_BINDING[]", 1)
    view_binding(raw, b_y, 0, big, y)
    assert lib.dmlcExecuteOperator(d, 2, b_in, 1, b_y) == 0, ffi.string(lib.dmlcGetLastErrorMessage())
    np.testing.assert_array_equal(y, x)
    assert np.sum(big != -1) == x.size


def test_cffi_join_inputs_are_sub_ranges_of_one_buffer(rng):
    """JOIN's inputs bound as sub-ranges of one buffer at different (overlapping) offsets."""
    buf = random_array(rng, (64,), np.int32)
    shapes = [(2, 3), (2, 5), (2, 1), (2, 3)]
    offsets = [0, 8, 20, 2]  # elements; the last overlaps the first
    parts = [buf[o:o + s[0] * s[1]].reshape(s) for o, s in zip(offsets, shapes)]
    want = np.concatenate(parts, 1)
    out = np.zeros_like(want)
    raw = Raw()
    d = join_desc(raw, [raw.tensor_for(p) for p in parts], raw.tensor_for(out), 1)
    b_in = raw.new("DMLC_BUFFER_BINDING[]", 4)
    for i, (o, p) in enumerate(zip(offsets, parts)):
        b_in[i].Buffer = ffi.cast("void*", buf.ctypes.data)
        b_in[i].Offset = o * 4
        b_in[i].SizeInBytes = -(-p.nbytes // 4) * 4
    assert lib.dmlcExecuteOperator(d, 4, b_in, 1, raw.bindings([out])) == 0
    np.testing.assert_array_equal(out, want)


def test_cffi_split_outputs_are_sub_ranges_of_one_buffer(rng):
    x = random_array(rng, (3, 10), np.uint16)
    sizes = [4, 2, 4]
    want = ref_split(x, sizes, 1)
    buf = np.full(200, 0xBEEF, np.uint16)
    offsets = [100, 2, 40]  # elements, in no particular order
    raw = Raw()
    d = split_desc(raw, raw.tensor_for(x), [raw.tensor_for(w) for w in want], 1)
    b_out = raw.new("DMLC_BUFFER_BINDING[]", 3)
    for i, (o, w) in enumerate(zip(offsets, want)):
        b_out[i].Buffer = ffi.cast("void*", buf.ctypes.data)
        b_out[i].Offset = o * 2
        b_out[i].SizeInBytes = -(-w.nbytes // 4) * 4
    assert lib.dmlcExecuteOperator(d, 1, raw.bindings([x]), 3, b_out) == 0
    for o, w in zip(offsets, want):
        np.testing.assert_array_equal(buf[o:o + w.size].reshape(w.shape), w)
    written = np.zeros(200, bool)
    for o, w in zip(offsets, want):
        written[o:o + w.size] = True
    assert np.all(buf[~written] == 0xBEEF)


def test_cffi_operator_reused(rng):
    x = random_array(rng, (4, 6), np.float64)
    raw = Raw()
    outs = [np.zeros((4, 2)), np.zeros((4, 4))]
    d = split_desc(raw, raw.tensor_for(x), [raw.tensor_for(o) for o in outs], 1)
    op = raw.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(d, op) == 0
    try:
        for _ in range(3):
            x = random_array(rng, (4, 6), np.float64)
            assert lib.dmlcExecute(op[0], 1, raw.bindings([x]), 2, raw.bindings(outs)) == 0
            np.testing.assert_array_equal(outs[0], x[:, :2])
            np.testing.assert_array_equal(outs[1], x[:, 2:])
        # binding counts that differ from OutputCount
        assert lib.dmlcExecute(op[0], 1, raw.bindings([x]), 1, raw.bindings(outs[:1])) == E_INVALIDARG
        assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == \
            "DML_OPERATOR_SPLIT: outputCount is 1, expected 2"
        assert lib.dmlcExecute(op[0], 2, raw.bindings([x, x]), 2, raw.bindings(outs)) == E_INVALIDARG
        assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == \
            "DML_OPERATOR_SPLIT: inputCount is 2, expected 1"
    finally:
        lib.dmlcReleaseOperator(op[0])


def test_cffi_join_binding_counts(rng):
    parts = [np.ones((2, 2), np.int8)] * 3
    out = np.zeros((6, 2), np.int8)
    raw = Raw()
    d = join_desc(raw, [raw.tensor_for(p) for p in parts], raw.tensor_for(out), 0)
    assert run(d, parts[:2], [out]) == (E_INVALIDARG, "DML_OPERATOR_JOIN: inputCount is 2, expected 3")
    assert run(d, parts, [out, out]) == (E_INVALIDARG, "DML_OPERATOR_JOIN: outputCount is 2, expected 1")
    assert np.all(out == 0)
    assert run(d, parts, [out]) == (0, "")
    assert np.all(out == 1)


# ---- ctypes -------------------------------------------------------------------------------

def test_ctypes_layout_matches_cffi():
    assert ctypes.sizeof(DML_SPLIT_OPERATOR_DESC) == ffi.sizeof("DML_SPLIT_OPERATOR_DESC")
    assert ctypes.sizeof(DML_JOIN_OPERATOR_DESC) == ffi.sizeof("DML_JOIN_OPERATOR_DESC")
    assert DML_SPLIT_OPERATOR_DESC.Axis.offset == ffi.offsetof("DML_SPLIT_OPERATOR_DESC", "Axis")
    assert DML_SPLIT_OPERATOR_DESC.OutputTensors.offset == ffi.offsetof("DML_SPLIT_OPERATOR_DESC", "OutputTensors")
    assert DML_JOIN_OPERATOR_DESC.InputTensors.offset == ffi.offsetof("DML_JOIN_OPERATOR_DESC", "InputTensors")
    assert DML_JOIN_OPERATOR_DESC.OutputTensor.offset == ffi.offsetof("DML_JOIN_OPERATOR_DESC", "OutputTensor")


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.int64, np.float16])
def test_ctypes_split_then_join(rng, dtype):
    so = ctypes_lib()
    keep = []
    x = random_array(rng, (3, 8, 5), dtype)
    sizes = [3, 1, 4]
    want = ref_split(x, sizes, 1)
    outs = [np.zeros_like(w) for w in want]
    parts = (DML_TENSOR_DESC * 3)(*[ctypes_tensor(w, keep) for w in want])
    tin = ctypes_tensor(x, keep)
    d = DML_SPLIT_OPERATOR_DESC(ctypes.pointer(tin), 3, parts, 1)
    op = operator(SPLIT, d)
    bi = (DMLC_BUFFER_BINDING * 1)(ctypes_binding(x))
    bo = (DMLC_BUFFER_BINDING * 3)(*[ctypes_binding(o) for o in outs])
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, bi, 3, bo) == 0, so.dmlcGetLastErrorMessage()
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(o, w)

    # JOIN the parts back into a strided view of a larger array, inputs at offsets of one buffer
    buf = np.concatenate([o.ravel() for o in outs])
    bigbuf = np.zeros(3 * 8 * 12 + 8, dtype)  # room for the rounding of TotalTensorSizeInBytes
    big = bigbuf[:3 * 8 * 12].reshape(3, 8, 12)
    view = big[:, :, 1::2][:, :, :5]
    tout = ctypes_tensor(view, keep, [s // view.itemsize for s in view.strides])
    d2 = DML_JOIN_OPERATOR_DESC(3, parts, ctypes.pointer(tout), 1)
    op2 = operator(JOIN, d2)
    offsets = np.cumsum([0] + [o.nbytes for o in outs[:-1]])
    bi2 = (DMLC_BUFFER_BINDING * 3)(*[DMLC_BUFFER_BINDING(buf.ctypes.data, int(off), -(-o.nbytes // 4) * 4)
                          for off, o in zip(offsets, outs)])
    buf_padded = np.zeros(buf.nbytes + 8, np.uint8)  # room for the rounding of the last range
    buf_padded[:buf.nbytes] = buf.view(np.uint8)
    for b in bi2:
        b.Buffer = buf_padded.ctypes.data
    bo2 = (DMLC_BUFFER_BINDING * 1)(DMLC_BUFFER_BINDING(big.ctypes.data, view.ctypes.data - big.ctypes.data,
                                bigbuf.nbytes - (view.ctypes.data - big.ctypes.data)))
    assert so.dmlcExecuteOperator(ctypes.byref(op2), 3, bi2, 1, bo2) == 0, so.dmlcGetLastErrorMessage()
    np.testing.assert_array_equal(view, x)
    assert np.all(big[:, :, 0::2] == 0) and np.all(big[:, :, 11] == 0)


def test_ctypes_error_message():
    so = ctypes_lib()
    keep = []
    x = np.zeros((2, 4), np.float32)
    tin = ctypes_tensor(x, keep)
    parts = (DML_TENSOR_DESC * 2)(ctypes_tensor(np.zeros((2, 2), np.float32), keep),
                             ctypes_tensor(np.zeros((2, 3), np.float32), keep))
    d = DML_SPLIT_OPERATOR_DESC(ctypes.pointer(tin), 2, parts, 1)
    op = operator(SPLIT, d)
    hr = so.dmlcExecuteOperator(ctypes.byref(op), 0, None, 0, None)
    assert hr & 0xFFFFFFFF == 0x80070057
    assert so.dmlcGetLastErrorMessage().decode() == (
        "DML_OPERATOR_SPLIT: OutputTensors[0..1].Sizes[1] sum to 5 (2 + 3), expected 4 "
        "(InputTensor.Sizes[1]; Axis is 1)")


# ---- malformed descs ------------------------------------------------------------------------

def make_split(mutate=None, dims=(1, 1, 6, 2), sizes=(2, 1, 3), axis=2, dtype=np.float32):
    """A SPLIT desc of the page's example 1 with one thing changed by mutate(cfg)."""
    cfg = {"in": {"dtype": dtype, "sizes": list(dims)}, "axis": axis, "count": None, "null_parts": False,
           "null_in": False, "outs": []}
    for s in sizes:
        o = list(dims)
        o[axis] = s
        cfg["outs"].append({"dtype": dtype, "sizes": o})
    if mutate:
        mutate(cfg)
    if cfg["null_parts"]:
        cfg["count"] = len(cfg["outs"])
    raw = Raw()
    whole = ffi.NULL if cfg["null_in"] else raw.tensor(**cfg["in"])
    parts = None if cfg["null_parts"] else [raw.tensor(**o) for o in cfg["outs"]]
    return raw, split_desc(raw, whole, parts, cfg["axis"], cfg["count"])


def make_join(mutate=None, dims=(1, 1, 6, 2), sizes=(2, 1, 3), axis=2, dtype=np.float32):
    cfg = {"out": {"dtype": dtype, "sizes": list(dims)}, "axis": axis, "count": None, "null_parts": False,
           "null_out": False, "ins": []}
    for s in sizes:
        o = list(dims)
        o[axis] = s
        cfg["ins"].append({"dtype": dtype, "sizes": o})
    if mutate:
        mutate(cfg)
    if cfg["null_parts"]:
        cfg["count"] = len(cfg["ins"])
    raw = Raw()
    whole = ffi.NULL if cfg["null_out"] else raw.tensor(**cfg["out"])
    parts = None if cfg["null_parts"] else [raw.tensor(**o) for o in cfg["ins"]]
    return raw, join_desc(raw, parts, whole, cfg["axis"], cfg["count"])


def _set(path, value):
    def mutate(cfg):
        obj = cfg
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return mutate


SPLIT_ERRORS = [
    ("count 0", _set(["count"], 0), E_INVALIDARG, "DML_OPERATOR_SPLIT: OutputCount is 0, expected at least 1"),
    ("parts NULL", _set(["null_parts"], True), E_POINTER,
     "DML_OPERATOR_SPLIT: OutputTensors is NULL (OutputCount is 3)"),
    ("input NULL", _set(["null_in"], True), E_POINTER, "DML_OPERATOR_SPLIT: InputTensor is NULL"),
    ("axis", _set(["axis"], 4), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: Axis is 4, expected 0 to 3 (InputTensor.DimensionCount is 4)"),
    ("axis huge", _set(["axis"], 0xFFFFFFFF), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: Axis is 4294967295, expected 0 to 3 (InputTensor.DimensionCount is 4)"),
    ("rank of an output", _set(["outs", 1, "sizes"], [1, 1, 2]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[1].DimensionCount is 3, expected 4 (InputTensor.DimensionCount)"),
    ("type of an output", _set(["outs", 2, "dtype"], np.int32), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[2].DataType is INT32, expected FLOAT32 (InputTensor.DataType)"),
    ("size off the axis", _set(["outs", 1, "sizes"], [2, 1, 1, 2]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[1].Sizes[0] is 2, expected 1 (InputTensor.Sizes[0]; only Axis 2 may differ)"),
    ("size off the axis, last dim", _set(["outs", 0, "sizes"], [1, 1, 2, 3]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0].Sizes[3] is 3, expected 2 (InputTensor.Sizes[3]; only Axis 2 may differ)"),
    ("sum too large", _set(["outs", 1, "sizes"], [1, 1, 2, 2]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0..2].Sizes[2] sum to 7 (2 + 2 + 3), expected 6 (InputTensor.Sizes[2]; "
     "Axis is 2)"),
    ("sum too small", _set(["count"], 2), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0..1].Sizes[2] sum to 3 (2 + 1), expected 6 (InputTensor.Sizes[2]; "
     "Axis is 2)"),
    ("one output, wrong size", lambda c: c.update(outs=c["outs"][:1]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0].Sizes[2] is 2, expected 6 (InputTensor.Sizes[2]; Axis is 2 and one part "
     "is a copy)"),
    ("zero size", _set(["outs", 1, "sizes"], [1, 1, 0, 2]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[1].Sizes[2] is 0; sizes must be at least 1"),
    ("input 9 dims", _set(["in", "sizes"], [1] * 9), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("output 0 dims", _set(["outs", 0, "sizes"], []), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0].DimensionCount is 0, expected 1 to 8"),
    ("unknown type", _set(["outs", 1, "dml_type"], 99), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[1].DataType 99 (not a DML_TENSOR_DATA_TYPE) is not supported"),
    ("zero output stride", lambda c: c["outs"][2].update(strides=[6, 6, 0, 1]), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[2].Strides[2] is 0 with Sizes[2] 3; an output element may not be written twice"),
    ("total bytes", lambda c: c["outs"][0].update(total=12), E_INVALIDARG,
     "DML_OPERATOR_SPLIT: OutputTensors[0].TotalTensorSizeInBytes is 12, expected at least 16"),
]


@pytest.mark.parametrize("name,mutate,hr,msg", SPLIT_ERRORS, ids=[e[0] for e in SPLIT_ERRORS])
def test_split_malformed(name, mutate, hr, msg):
    raw, desc = make_split(mutate)
    got_hr, got_msg = create(desc)
    assert (got_hr, got_msg[:len(msg)]) == (hr, msg)


JOIN_ERRORS = [
    ("count 0", _set(["count"], 0), E_INVALIDARG, "DML_OPERATOR_JOIN: InputCount is 0, expected at least 1"),
    ("parts NULL", _set(["null_parts"], True), E_POINTER, "DML_OPERATOR_JOIN: InputTensors is NULL (InputCount is 3)"),
    ("output NULL", _set(["null_out"], True), E_POINTER, "DML_OPERATOR_JOIN: OutputTensor is NULL"),
    ("axis", _set(["axis"], 7), E_INVALIDARG,
     "DML_OPERATOR_JOIN: Axis is 7, expected 0 to 3 (OutputTensor.DimensionCount is 4)"),
    ("rank of an input", _set(["ins", 0, "sizes"], [1, 1, 1, 2, 2]), E_INVALIDARG,
     "DML_OPERATOR_JOIN: InputTensors[0].DimensionCount is 5, expected 4 (OutputTensor.DimensionCount)"),
    ("type of an input", _set(["ins", 1, "dtype"], np.float16), E_INVALIDARG,
     "DML_OPERATOR_JOIN: InputTensors[1].DataType is FLOAT16, expected FLOAT32 (OutputTensor.DataType)"),
    ("size off the axis", _set(["ins", 2, "sizes"], [1, 4, 3, 2]), E_INVALIDARG,
     "DML_OPERATOR_JOIN: InputTensors[2].Sizes[1] is 4, expected 1 (OutputTensor.Sizes[1]; only Axis 2 may differ)"),
    ("sum", _set(["ins", 0, "sizes"], [1, 1, 1, 2]), E_INVALIDARG,
     "DML_OPERATOR_JOIN: InputTensors[0..2].Sizes[2] sum to 5 (1 + 1 + 3), expected 6 (OutputTensor.Sizes[2]; "
     "Axis is 2)"),
    ("output 9 dims", _set(["out", "sizes"], [1] * 9), E_INVALIDARG,
     "DML_OPERATOR_JOIN: OutputTensor.DimensionCount is 9, expected 1 to 8"),
    ("zero output stride", lambda c: c["out"].update(strides=[12, 12, 0, 1]), E_INVALIDARG,
     "DML_OPERATOR_JOIN: OutputTensor.Strides[2] is 0 with Sizes[2] 6; an output element may not be written twice"),
    ("size-1 dimension may have stride 0", lambda c: c["out"].update(strides=[0, 0, 2, 1], total=8), E_INVALIDARG,
     "DML_OPERATOR_JOIN: OutputTensor.TotalTensorSizeInBytes is 8, expected at least 48"),
    ("input Type", _set(["ins", 1, "dml_type"], 0), E_INVALIDARG,
     "DML_OPERATOR_JOIN: InputTensors[1].DataType UNKNOWN is not supported"),
]


@pytest.mark.parametrize("name,mutate,hr,msg", JOIN_ERRORS, ids=[e[0] for e in JOIN_ERRORS])
def test_join_malformed(name, mutate, hr, msg):
    raw, desc = make_join(mutate)
    got_hr, got_msg = create(desc)
    assert (got_hr, got_msg[:len(msg)]) == (hr, msg)


def test_join_zero_input_stride_broadcasts():
    """Inputs may broadcast (stride 0), only outputs may not."""
    raw, desc = make_join(lambda c: c["ins"][1].update(strides=[0, 0, 0, 0]))
    assert create(desc) == (0, "")
    parts = [np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2), np.array([7, 0, 0, 0], np.float32),
             np.arange(6, dtype=np.float32).reshape(1, 1, 3, 2)]
    out = np.zeros((1, 1, 6, 2), np.float32)
    assert run(desc, parts, [out]) == (0, "")
    np.testing.assert_array_equal(out[0, 0, 2], [7, 7])
    np.testing.assert_array_equal(out[0, 0, :2], parts[0][0, 0])


def test_tensor_desc_type_not_buffer():
    raw, desc = make_split()
    d = ffi.cast("DML_SPLIT_OPERATOR_DESC*", desc.Desc)
    arr = ffi.cast("DML_TENSOR_DESC*", d.OutputTensors)
    arr[1].Type = 0
    assert create(desc) == (E_INVALIDARG, "DML_OPERATOR_SPLIT: OutputTensors[1].Type is 0, expected "
                                          "DML_TENSOR_TYPE_BUFFER (1)")
    arr[1].Type = 1
    arr[1].Desc = ffi.NULL
    assert create(desc) == (E_POINTER, "DML_OPERATOR_SPLIT: OutputTensors[1].Desc is NULL")


def test_huge_count_is_out_of_memory_not_a_crash():
    """An OutputCount far beyond what memory holds fails cleanly before any tensor is read."""
    raw, desc = make_split(_set(["count"], 0xFFFFFFFF))
    hr, msg = create(desc)
    assert hr == E_OUTOFMEMORY
    assert msg.startswith("DML_OPERATOR_SPLIT:")


def test_execute_rejects_overlapping_outputs_and_leaves_them_untouched():
    raw, desc = make_split()
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 6, 2)
    buf = np.full(32, -1, np.float32)
    b_out = raw.new("DMLC_BUFFER_BINDING[]", 3)
    for i, off in enumerate([0, 2, 12]):  # outputs[1] starts inside outputs[0]
        b_out[i].Buffer = ffi.cast("void*", buf.ctypes.data)
        b_out[i].Offset = off * 4
        b_out[i].SizeInBytes = 48
    hr = lib.dmlcExecuteOperator(desc, 1, raw.bindings([x]), 3, b_out)
    assert hr == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == \
        "DML_OPERATOR_SPLIT: outputs[1] overlaps outputs[0]"
    assert np.all(buf == -1)


def test_execute_rejects_short_binding():
    raw, desc = make_join()
    parts = [np.zeros((1, 1, s, 2), np.float32) for s in (2, 1, 3)]
    out = np.full((1, 1, 6, 2), -1, np.float32)
    hr = lib.dmlcExecuteOperator(desc, 3, raw.bindings(parts, [16, 4, 24]), 1, raw.bindings([out]))
    assert hr == E_INVALIDARG
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == (
        "DML_OPERATOR_JOIN: inputs[1].SizeInBytes is 4, smaller than the tensor's TotalTensorSizeInBytes 8")
    assert np.all(out == -1)


def test_one_operator_executed_from_many_threads(rng):
    """The operator is immutable after creation: concurrent executions share it."""
    import threading
    shape = (4, 64, 256)
    raw = Raw()
    outs_shape = [(4, 64, 100), (4, 64, 156)]
    d = split_desc(raw, raw.tensor(np.float32, shape), [raw.tensor(np.float32, s) for s in outs_shape], 2)
    op = raw.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(d, op) == 0
    xs = [random_array(rng, shape, np.float32) for _ in range(4)]
    results = [None] * 4

    def work(i):
        outs = [np.empty(s, np.float32) for s in outs_shape]
        for _ in range(25):
            hr = lib.dmlcExecute(op[0], 1, raw.bindings([xs[i]]), 2, raw.bindings(outs))
            assert hr == 0
        results[i] = outs

    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        lib.dmlcReleaseOperator(op[0])
    for x, outs in zip(xs, results):
        np.testing.assert_array_equal(outs[0], x[:, :, :100])
        np.testing.assert_array_equal(outs[1], x[:, :, 100:])
