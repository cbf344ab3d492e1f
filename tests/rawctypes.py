"""directml.h's structs transcribed by hand with ctypes, for tests that drive libdirectml_py
the way a ctypes caller does.

This is deliberately NOT generated from directml_py.h: test_abi.py compares every struct
here with the header as cffi reads it, so a layout change on either side shows up as two
descriptions that disagree.  Every ctypes test in the suite uses these classes, so the
comparison covers what the tests rely on.
"""
import ctypes

import dmlc
from dmlc.ffi import lib
from support import DML_TYPE

__all__ = ["DML_BUFFER_TENSOR_DESC", "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", "DML_DEPTH_TO_SPACE_OPERATOR_DESC",
           "DML_JOIN_OPERATOR_DESC", "DML_MAX_POOLING1_OPERATOR_DESC", "DML_MAX_POOLING2_OPERATOR_DESC",
           "DML_MAX_POOLING_OPERATOR_DESC", "DML_OPERATOR_DESC", "DML_PADDING1_OPERATOR_DESC",
           "DML_PADDING_OPERATOR_DESC", "DML_SCALAR_UNION", "DML_SPACE_TO_DEPTH1_OPERATOR_DESC",
           "DML_SPACE_TO_DEPTH_OPERATOR_DESC", "DML_SPLIT_OPERATOR_DESC", "DML_TENSOR_DESC", "DMLC_BUFFER_BINDING",
           "PUINT", "STRUCTS", "UINT", "binding", "library", "operator", "tensor",
           "DML_SCALE_BIAS", "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", "DML_SLICE_OPERATOR_DESC",
           "DML_SLICE1_OPERATOR_DESC", "DML_TILE_OPERATOR_DESC", "PINT"]
__all__ += ["DML_AVERAGE_POOLING1_OPERATOR_DESC", "DML_AVERAGE_POOLING_OPERATOR_DESC", "DML_MAX_UNPOOLING_OPERATOR_DESC"]

UINT = ctypes.c_uint32
PUINT = ctypes.POINTER(UINT)
ENUM = ctypes.c_int  # every DirectML enum is a 32-bit int


class DML_BUFFER_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("DataType", ENUM), ("Flags", ENUM), ("DimensionCount", UINT), ("Sizes", PUINT), ("Strides", PUINT),
                ("TotalTensorSizeInBytes", ctypes.c_uint64), ("GuaranteedBaseOffsetAlignment", UINT)]


class DML_TENSOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ENUM), ("Desc", ctypes.c_void_p)]


class DML_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("Type", ENUM), ("Desc", ctypes.c_void_p)]


PT = ctypes.POINTER(DML_TENSOR_DESC)


class DML_SCALAR_UNION(ctypes.Union):
    _fields_ = [("Bytes", ctypes.c_uint8 * 8), ("Int8", ctypes.c_int8), ("UInt8", ctypes.c_uint8),
                ("Int16", ctypes.c_int16), ("UInt16", ctypes.c_uint16), ("Int32", ctypes.c_int32),
                ("UInt32", ctypes.c_uint32), ("Int64", ctypes.c_int64), ("UInt64", ctypes.c_uint64),
                ("Float32", ctypes.c_float), ("Float64", ctypes.c_double)]


class DML_SPACE_TO_DEPTH_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT)]


class DML_DEPTH_TO_SPACE_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT)]


class DML_SPACE_TO_DEPTH1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT), ("Order", ENUM)]


class DML_DEPTH_TO_SPACE1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("BlockSize", UINT), ("Order", ENUM)]


class DML_PADDING_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("PaddingMode", ENUM), ("PaddingValue", ctypes.c_float),
                ("DimensionCount", UINT), ("StartPadding", PUINT), ("EndPadding", PUINT)]


class DML_PADDING1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("PaddingMode", ENUM), ("PaddingValueDataType", ENUM),
                ("PaddingValue", DML_SCALAR_UNION), ("DimensionCount", UINT), ("StartPadding", PUINT),
                ("EndPadding", PUINT)]


class DML_SPLIT_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputCount", UINT), ("OutputTensors", PT), ("Axis", UINT)]


class DML_JOIN_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputCount", UINT), ("InputTensors", PT), ("OutputTensor", PT), ("Axis", UINT)]


class DML_MAX_POOLING_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT), ("Strides", PUINT),
                ("WindowSize", PUINT), ("StartPadding", PUINT), ("EndPadding", PUINT)]


class DML_MAX_POOLING1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("OutputIndicesTensor", PT), ("DimensionCount", UINT),
                ("Strides", PUINT), ("WindowSize", PUINT), ("StartPadding", PUINT), ("EndPadding", PUINT)]


class DML_MAX_POOLING2_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("OutputIndicesTensor", PT), ("DimensionCount", UINT),
                ("Strides", PUINT), ("WindowSize", PUINT), ("StartPadding", PUINT), ("EndPadding", PUINT),
                ("Dilations", PUINT)]


PINT = ctypes.POINTER(ctypes.c_int32)


class DML_SCALE_BIAS(ctypes.Structure):
    _fields_ = [("Scale", ctypes.c_float), ("Bias", ctypes.c_float)]


class DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("ScaleBias", ctypes.POINTER(DML_SCALE_BIAS))]


class DML_SLICE_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT), ("Offsets", PUINT),
                ("Sizes", PUINT), ("Strides", PUINT)]


class DML_SLICE1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT), ("InputWindowOffsets", PUINT),
                ("InputWindowSizes", PUINT), ("InputWindowStrides", PINT)]


class DML_TILE_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("RepeatsCount", UINT), ("Repeats", PUINT)]
class DML_AVERAGE_POOLING_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT), ("Strides", PUINT),
                ("WindowSize", PUINT), ("StartPadding", PUINT), ("EndPadding", PUINT), ("IncludePadding", ctypes.c_int)]


class DML_AVERAGE_POOLING1_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("OutputTensor", PT), ("DimensionCount", UINT), ("Strides", PUINT),
                ("WindowSize", PUINT), ("StartPadding", PUINT), ("EndPadding", PUINT), ("Dilations", PUINT),
                ("IncludePadding", ctypes.c_int)]


class DML_MAX_UNPOOLING_OPERATOR_DESC(ctypes.Structure):
    _fields_ = [("InputTensor", PT), ("IndicesTensor", PT), ("OutputTensor", PT)]


class DMLC_BUFFER_BINDING(ctypes.Structure):
    _fields_ = [("Buffer", ctypes.c_void_p), ("Offset", ctypes.c_uint64), ("SizeInBytes", ctypes.c_uint64)]


# Every struct above by its C name, for the layout comparison with cffi.
STRUCTS = {cls.__name__: cls for cls in (
    DML_BUFFER_TENSOR_DESC, DML_TENSOR_DESC, DML_OPERATOR_DESC, DML_SCALAR_UNION,
    DML_SPACE_TO_DEPTH_OPERATOR_DESC, DML_DEPTH_TO_SPACE_OPERATOR_DESC, DML_SPACE_TO_DEPTH1_OPERATOR_DESC,
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_PADDING_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC,
    DML_SPLIT_OPERATOR_DESC, DML_JOIN_OPERATOR_DESC, DML_MAX_POOLING_OPERATOR_DESC,
    DML_MAX_POOLING1_OPERATOR_DESC, DML_MAX_POOLING2_OPERATOR_DESC, DMLC_BUFFER_BINDING,
    DML_SCALE_BIAS, DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, DML_SLICE_OPERATOR_DESC, DML_SLICE1_OPERATOR_DESC,
    DML_TILE_OPERATOR_DESC)}
STRUCTS.update({cls.__name__: cls for cls in (
    DML_AVERAGE_POOLING_OPERATOR_DESC, DML_AVERAGE_POOLING1_OPERATOR_DESC, DML_MAX_UNPOOLING_OPERATOR_DESC)})


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


def operator(op_type, desc):
    """A DML_OPERATOR_DESC over a ctypes desc struct (which must outlive it)."""
    return DML_OPERATOR_DESC(op_type, ctypes.cast(ctypes.pointer(desc), ctypes.c_void_p))


def binding(a, nbytes=None):
    """A DMLC_BUFFER_BINDING of array a; SizeInBytes defaults to a.nbytes rounded up to 4."""
    return DMLC_BUFFER_BINDING(a.ctypes.data, 0, -(-a.nbytes // 4) * 4 if nbytes is None else nbytes)
