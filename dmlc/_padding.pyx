# cython: language_level=3, boundscheck=False, wraparound=False
"""PADDING1 for arrays: fills the desc; the core does the rest."""
import numpy as np
cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (enum_arg, Tensor, DML_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC, DML_OPERATOR_PADDING1,
                         DML_PADDING_MODE, DML_PADDING_MODE_CONSTANT, DML_TENSOR_DATA_TYPE, UINT, as_input,
                         as_output, bind, dml_type_of, finish_output, infer_shape, run_unary, uints_per_axis)

from dmlc._enums import PaddingMode, spellings

cnp.import_array()

cdef dict MODES = spellings(PaddingMode)
cdef bytes ZEROS = bytes(8)


def pad(x, start_padding, end_padding, mode_arg, value, out, value_bytes, str fname):
    """mode_arg: as dmlc.pad takes it; value_bytes(value, dtype) gives the padding value's
    bytes in x's dtype."""
    cdef cnp.ndarray a
    cdef int dml_type, mode
    cdef int nd, i
    cdef UINT s[8]
    cdef UINT e[8]
    cdef Tensor tin
    cdef DML_PADDING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray result
    cdef bytes bits
    mode = enum_arg(mode_arg, MODES, PaddingMode, fname, "mode")  # first, as before the call
    a = as_input(x, "x")
    dml_type = dml_type_of(a, "x")
    nd = cnp.PyArray_NDIM(a)
    if nd > 8:
        raise ValueError(f"array has {nd} dimensions; DirectML tensors have at most 8")
    uints_per_axis(start_padding, nd, fname, "start_padding", "dimension", 0, s)
    uints_per_axis(end_padding, nd, fname, "end_padding", "dimension", 0, e)
    if type(value) is int and value == 0:  # the default: no call, no dtype object
        bits = ZEROS
    else:
        bits = value_bytes(value, a.dtype)
    if nd == 0:  # DirectML tensors have at least one dimension; nothing to pad
        result = as_output(out, (), a.dtype, "out")
        np.copyto(result, a)
        return finish_output(result, out)
    d.InputTensor = &tin.desc
    d.OutputTensor = NULL
    d.PaddingMode = <DML_PADDING_MODE>mode
    d.PaddingValueDataType = <DML_TENSOR_DATA_TYPE>dml_type
    memset(d.PaddingValue.Bytes, 0, 8)
    memcpy(d.PaddingValue.Bytes, <const char*>bits, min(len(bits), 8))
    d.DimensionCount = nd
    d.StartPadding = s
    d.EndPadding = e
    op.Type = DML_OPERATOR_PADDING1
    op.Desc = &d
    if cnp.PyArray_SIZE(a) == 0:
        # Nothing to read: only a constant can fill the output (NumPy's rule too).
        bind(&tin, a, dml_type)
        result = as_output(out, infer_shape(&op, 0, 1, 0), a.dtype, "out")
        if cnp.PyArray_SIZE(result) and mode != DML_PADDING_MODE_CONSTANT:
            i = [k for k in range(nd) if a.shape[k] == 0][0]
            raise ValueError(f"{fname}: x.shape[{i}] is 0; an empty dimension can only be padded with "
                             f"mode 'constant'")
        result[...] = np.frombuffer(bits, a.dtype)[0]
        return finish_output(result, out)
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out)
