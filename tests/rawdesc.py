"""Raw DirectML structs through cffi, for tests that drive libdirectml_py as a C caller would."""
import numpy as np

from dmlc.ffi import ffi, lib
from support import DML_TYPE

__all__ = ["SENTINEL", "Raw", "create", "d2s_case", "d2s_run", "execute", "infer", "padded"]


class Raw:
    """Keeps every cffi allocation of one desc alive while the test uses it."""

    def __init__(self):
        self.keep = []

    def new(self, ctype, init=None):
        obj = ffi.new(ctype, init)
        self.keep.append(obj)
        return obj

    def uints(self, values):
        return self.new("UINT[]", list(values)) if values is not None else ffi.NULL

    def tensor(self, dtype=None, sizes=(), strides=None, total=None, dml_type=None, ndim=None):
        """A DML_TENSOR_DESC*; total defaults to dmlcCalcBufferTensorSize's value."""
        dml_type = DML_TYPE[np.dtype(dtype)] if dml_type is None else dml_type
        if total is None:
            size = ffi.new("UINT64*")
            hr = lib.dmlcCalcBufferTensorSize(dml_type, len(sizes), self.uints(sizes), self.uints(strides), size)
            total = size[0] if hr == 0 else 0
        buf = self.new("DML_BUFFER_TENSOR_DESC*", {
            "DataType": dml_type, "Flags": 0, "DimensionCount": len(sizes) if ndim is None else ndim,
            "Sizes": self.uints(sizes), "Strides": self.uints(strides), "TotalTensorSizeInBytes": total,
            "GuaranteedBaseOffsetAlignment": 0})
        return self.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": buf})

    def tensor_for(self, arr, strides=None):
        """A packed (or strided, in elements) tensor desc describing arr's shape and dtype."""
        return self.tensor(arr.dtype, arr.shape, strides)

    def op(self, op_type, struct, fields):
        d = self.new(f"{struct}*", fields)
        return self.new("DML_OPERATOR_DESC*", {"Type": op_type, "Desc": d})

    def bindings(self, arrays, sizes=None):
        """DMLC_BUFFER_BINDING[] over NumPy arrays (None = unbound slot)."""
        b = self.new("DMLC_BUFFER_BINDING[]", max(1, len(arrays)))
        for i, a in enumerate(arrays):
            if a is None:
                continue
            b[i].Buffer = ffi.cast("void*", a.ctypes.data)
            b[i].Offset = 0
            b[i].SizeInBytes = a.nbytes if sizes is None else sizes[i]
        return b


def create(desc):
    """dmlcCreateOperator on desc: (hr, message).  A created operator is released; a
    failure must leave the returned operator NULL."""
    op = ffi.new("DMLC_OPERATOR**")
    hr = lib.dmlcCreateOperator(desc, op)
    if hr == 0:
        lib.dmlcReleaseOperator(op[0])
    else:
        assert op[0] == ffi.NULL
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


def assert_create_fails(build, hr, msg):
    """A malformed-desc table row: build(raw) makes the desc (raw owns its memory, which must
    outlive the call); creating it fails with hr and a message starting with msg."""
    raw = Raw()
    got, message = create(build(raw))
    assert got == hr, message
    assert message.startswith(msg), message


def execute(desc, inputs, outputs, in_sizes=None, out_sizes=None):
    """Runs desc over NumPy arrays; returns (hr, message)."""
    raw = Raw()
    bi = raw.bindings(inputs, in_sizes)
    bo = raw.bindings(outputs, out_sizes)
    hr = lib.dmlcExecuteOperator(desc, len(inputs), bi, len(outputs), bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


def infer(desc, count=1, flags=0):
    """dmlcInferOutputSizes on desc: a list of size tuples, or (hr, message) on failure."""
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(desc, flags, count, out)
    msg = ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    if hr != 0:
        return hr, msg
    return [tuple(out[k].Sizes[j] for j in range(out[k].DimensionCount)) for k in range(count)]


def padded(arr, multiple=4):
    """A copy of arr in a buffer whose byte size is rounded up to `multiple`, as DirectML's
    TotalTensorSizeInBytes rule wants; returns (buffer view of arr's shape, whole buffer)."""
    nbytes = -(-arr.nbytes // multiple) * multiple
    whole = np.zeros(nbytes, np.uint8)
    view = whole[:arr.nbytes].view(arr.dtype).reshape(arr.shape)
    view[...] = arr
    return view, whole


# ---- one valid desc to break: the vehicle of the malformed-desc tests ---------------------------

SENTINEL = 0x5A5A5A5A


def d2s_case(**change):
    """A valid DEPTH_TO_SPACE1 (float32 {1,8,2,3} -> {1,2,4,6}, block 2) with fields changed:
    (raw, desc).  test_validation.py breaks it for the rules every operator shares,
    test_depth_space_raw.py for DEPTH_TO_SPACE1's own.
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


def d2s_run(raw, desc, in_bytes=192, out_bytes=192, in_off=0, out_off=0, nin=1, nout=1, buf=None, in_buf=True,
            out_buf=True):
    """Executes desc from a 64-float input into a 64-word output filled with SENTINEL (or
    both in buf): (hr, message, output)."""
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
