# cython: language_level=3, boundscheck=False, wraparound=False
"""PADDING1 for arrays: binds x and the output and runs the core."""
import numpy as np
cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC, DML_OPERATOR_TYPE,
                         DML_PADDING_MODE, DML_TENSOR_DATA_TYPE, UINT, as_input, as_output, finish_output, bind,
                         dml_type_of, execute, may_overlap, uints_per_axis)

cnp.import_array()

cdef enum:
    PADDING1 = 155
    CONSTANT = 0


def pad(x, start_padding, end_padding, int mode, value, out, value_bytes, str fname):
    """mode: a DML_PADDING_MODE value; value_bytes(value, dtype) gives the padding value's
    bytes in x's dtype."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef cnp.npy_intp* dims = cnp.PyArray_DIMS(a)
    cdef UINT s[8]
    cdef UINT e[8]
    cdef Tensor tin, tout
    cdef DML_PADDING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray result
    cdef bytes bits
    cdef unsigned long long size
    if nd > 8:
        raise ValueError(f"array has {nd} dimensions; DirectML tensors have at most 8")
    uints_per_axis(start_padding, nd, fname, "start_padding", "dimension", 0, s)
    uints_per_axis(end_padding, nd, fname, "end_padding", "dimension", 0, e)
    bits = value_bytes(value, a.dtype)
    shape = []
    for i in range(nd):
        size = <unsigned long long>dims[i] + s[i] + e[i]
        if size > 0xFFFFFFFF:
            raise ValueError(f"{fname}: dimension {i} would have size {size} (x.shape[{i}] {dims[i]} + "
                             f"start_padding[{i}] {s[i]} + end_padding[{i}] {e[i]}); DirectML sizes are "
                             f"32-bit (at most 4294967295)")
        shape.append(size)
    shape = tuple(shape)
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if nd == 0:
        np.copyto(result, a)
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:
        # Nothing to read: only a constant can fill the output (NumPy's rule too).
        if mode != CONSTANT:
            i = [k for k in range(nd) if a.shape[k] == 0][0]
            raise ValueError(f"{fname}: x.shape[{i}] is 0; an empty dimension can only be padded with "
                             f"mode 'constant'")
        result[...] = np.frombuffer(bits, a.dtype)[0]
        return finish_output(result, out)
    if out is not None and may_overlap(a, result):
        a = a.copy()
    bind(&tin, a, dml_type)
    bind(&tout, result, dml_type)
    d.InputTensor = &tin.desc
    d.OutputTensor = &tout.desc
    d.PaddingMode = <DML_PADDING_MODE>mode
    d.PaddingValueDataType = <DML_TENSOR_DATA_TYPE>dml_type
    memset(d.PaddingValue.Bytes, 0, 8)
    memcpy(d.PaddingValue.Bytes, <const char*>bits, len(bits))
    d.DimensionCount = nd
    d.StartPadding = s
    d.EndPadding = e
    op.Type = <DML_OPERATOR_TYPE>PADDING1
    op.Desc = &d
    execute(&op, 1, &tin.binding, 1, &tout.binding)
    return finish_output(result, out)
