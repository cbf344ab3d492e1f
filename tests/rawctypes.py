"""directml.h's structs in ctypes, for tests that drive libdirectml_py the way a ctypes
caller does.

The operator descs are generated from the schema (dmlc.schema, src/schema.def), so an
operator added there is testable through ctypes at once; the few shared structs below them
are written out.  test_abi.py compares every struct here with the header as cffi reads it
(and test_schema.py the schema with the header), so a layout change on either side shows
up as two descriptions that disagree.
"""
import ctypes

import dmlc
from dmlc import schema
from dmlc.ffi import lib
from support import DML_TYPE

UINT = ctypes.c_uint32
PUINT = ctypes.POINTER(UINT)
PINT = ctypes.POINTER(ctypes.c_int32)
ENUM = ctypes.c_int  # every DirectML enum is a 32-bit int


class DML_BUFFER_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("DataType", ENUM), ("Flags", ENUM), ("DimensionCount", UINT), ("Sizes", PUINT), ("Strides", PUINT),
                ("TotalTensorSizeInBytes", ctypes.c_uint64), ("GuaranteedBaseOffsetAlignment", UINT)]


class DML_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ENUM), ("Desc", ctypes.c_void_p)]


class DML_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ENUM), ("Desc", ctypes.c_void_p)]


class DML_SCALAR_UNION(ctypes.Union):
    _fields_ = [("Bytes", ctypes.c_uint8 * 8), ("Int8", ctypes.c_int8), ("UInt8", ctypes.c_uint8),
                ("Int16", ctypes.c_int16), ("UInt16", ctypes.c_uint16), ("Int32", ctypes.c_int32),
                ("UInt32", ctypes.c_uint32), ("Int64", ctypes.c_int64), ("UInt64", ctypes.c_uint64),
                ("Float32", ctypes.c_float), ("Float64", ctypes.c_double)]


class DML_SCALE_BIAS(ctypes.Structure):
    _fields_ = [("Scale", ctypes.c_float), ("Bias", ctypes.c_float)]


class DML_SIZE_2D(ctypes.Structure):
    _fields_ = [("Width", UINT), ("Height", UINT)]


class DMLC_BUFFER_BINDING(ctypes.Structure):
    _fields_ = [("Buffer", ctypes.c_void_p), ("Offset", ctypes.c_uint64), ("SizeInBytes", ctypes.c_uint64)]


# The ctypes type of each schema field type.
CTYPES = {
    "TENSOR": ctypes.POINTER(DML_TENSOR_DESC), "TENSOR_ARRAY": ctypes.POINTER(DML_TENSOR_DESC),
    "UINT": UINT, "UINT64": ctypes.c_uint64, "INT": ctypes.c_int32, "FLOAT": ctypes.c_float, "BOOL": ctypes.c_int,
    "ENUM": ENUM, "UINT_ARRAY": PUINT, "INT_ARRAY": PINT, "FLOAT_ARRAY": ctypes.POINTER(ctypes.c_float),
    "SCALE_BIAS": ctypes.POINTER(DML_SCALE_BIAS), "SIZE_2D": DML_SIZE_2D, "SCALAR_UNION": DML_SCALAR_UNION,
}


def desc_struct(op):
    """The ctypes Structure of a schema operator's desc."""
    return type(op.struct, (ctypes.Structure,), {"_fields_": [(f.name, CTYPES[f.type]) for f in op.fields]})


# Every struct by its C name, for the layout comparison with cffi; the operator descs are
# also this module's attributes (rawctypes.DML_PADDING_OPERATOR_DESC).
STRUCTS = {cls.__name__: cls for cls in (DML_BUFFER_TENSOR_DESC, DML_TENSOR_DESC, DML_OPERATOR_DESC, DML_SCALAR_UNION,
                                         DML_SCALE_BIAS, DMLC_BUFFER_BINDING)}
STRUCTS.update({op.struct: desc_struct(op) for op in schema.operators()})
globals().update(STRUCTS)

__all__ = sorted(STRUCTS) + ["CTYPES", "PINT", "PUINT", "STRUCTS", "UINT", "binding", "desc_struct", "library",
                             "operator", "tensor"]


def library():
    """libdirectml_py opened with ctypes, with the prototypes the tests call."""
    so = ctypes.CDLL(dmlc.get_library_path())
    so.dmlcExecuteOperator.restype = ctypes.c_int32
    so.dmlcExecuteOperator.argtypes = [ctypes.POINTER(DML_OPERATOR_DESC), UINT, ctypes.POINTER(DMLC_BUFFER_BINDING),
                                       UINT, ctypes.POINTER(DMLC_BUFFER_BINDING)]
    so.dmlcGetLastErrorMessage.restype = ctypes.c_char_p
    so.dmlcGetLastErrorMessage.argtypes = []
    return so


def tensor(a, keep, strides=None):
    """A DML_TENSOR_DESC of array a's shape and dtype (strides in elements, or packed);
    TotalTensorSizeInBytes is the extent rounded up to 4 bytes.  Whatever it points to goes
    into keep, which must outlive the desc."""
    sizes = (UINT * a.ndim)(*a.shape)
    st = (UINT * a.ndim)(*strides) if strides is not None else None
    if strides is None:
        total = a.nbytes
    else:
        total = (sum((n - 1) * s for n, s in zip(a.shape, strides)) + 1) * a.itemsize
    b = DML_BUFFER_TENSOR_DESC(DML_TYPE[a.dtype], 0, a.ndim, sizes, st, -(-total // 4) * 4, 0)
    keep += [sizes, st, b]
    return DML_TENSOR_DESC(lib.DML_TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(b), ctypes.c_void_p))


def malformed_tensor(keep, dtype, sizes, strides=None, total=None, dml_type=None):
    """A pointer to a DML_TENSOR_DESC built field by field, as the malformed-desc tables give
    them (rawdesc.Raw.tensor's arguments): any data type value, any total size (None: what
    dmlcCalcBufferTensorSize says, 0 where it refuses).  Its memory goes into keep."""
    import numpy as np
    from dmlc.ffi import ffi
    dml_type = DML_TYPE[np.dtype(dtype)] if dml_type is None else dml_type
    n = len(sizes)
    sz = (UINT * n)(*sizes)
    st = (UINT * n)(*strides) if strides is not None else None
    if total is None:
        size = ffi.new("UINT64*")
        total = size[0] if lib.dmlcCalcBufferTensorSize(dml_type, n, list(sizes), ffi.NULL, size) == 0 else 0
    b = DML_BUFFER_TENSOR_DESC(dml_type, 0, n, sz, st, total, 0)
    t = DML_TENSOR_DESC(lib.DML_TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(b), ctypes.c_void_p))
    keep += [sz, st, b, t]
    return ctypes.pointer(t)


def operator(op_type, desc):
    """A DML_OPERATOR_DESC over a ctypes desc struct (which must outlive it)."""
    return DML_OPERATOR_DESC(op_type, ctypes.cast(ctypes.pointer(desc), ctypes.c_void_p))


def binding(a, nbytes=None):
    """A DMLC_BUFFER_BINDING of array a; SizeInBytes defaults to a.nbytes rounded up to 4."""
    return DMLC_BUFFER_BINDING(a.ctypes.data, 0, -(-a.nbytes // 4) * 4 if nbytes is None else nbytes)
