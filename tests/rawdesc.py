"""Raw DirectML structs through cffi, for tests that drive libdirectml_py as a C caller would."""
import numpy as np

from dmlc.ffi import ffi, lib
from conftest import DML_TYPE


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
        return self.new("DML_TENSOR_DESC*", {"Type": 1, "Desc": buf})

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


def execute(desc, inputs, outputs, in_sizes=None, out_sizes=None):
    """Runs desc over NumPy arrays; returns (hr, message)."""
    raw = Raw()
    bi = raw.bindings(inputs, in_sizes)
    bo = raw.bindings(outputs, out_sizes)
    hr = lib.dmlcExecuteOperator(desc, len(inputs), bi, len(outputs), bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


def padded(arr, multiple=4):
    """A copy of arr in a buffer whose byte size is rounded up to `multiple`, as DirectML's
    TotalTensorSizeInBytes rule wants; returns (buffer view of arr's shape, whole buffer)."""
    nbytes = -(-arr.nbytes // multiple) * multiple
    whole = np.zeros(nbytes, np.uint8)
    view = whole[:arr.nbytes].view(arr.dtype).reshape(arr.shape)
    view[...] = arr
    return view, whole
