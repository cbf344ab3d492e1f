# cython: language_level=3, boundscheck=False, wraparound=False
"""PADDING1 for arrays: binds x and the output and runs the core."""
import numpy as np
cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC, DML_OPERATOR_TYPE,
                         DML_PADDING_MODE, DML_TENSOR_DATA_TYPE, UINT, as_input, as_output, finish_output, bind,
                         dml_type_of, execute, may_overlap)
from dmlc._args import index_of

cnp.import_array()

cdef enum:
    PADDING1 = 155
    CONSTANT = 0


cdef list _widths(object pads, int nd, str fname, str argname):
    """pads as a list of nd ints in [0, 2**32): an int is used for every dimension."""
    cdef list out
    if type(pads) is int or not hasattr(pads, "__len__"):
        v = pads if type(pads) is int else index_of(pads, fname, argname)
        out = [v] * nd
    else:
        if len(pads) != nd:
            raise ValueError(f"{fname}: {argname} has {len(pads)} values, expected {nd} (one per dimension of x)")
        out = [v if type(v) is int else index_of(v, fname, f"{argname}[{i}]") for i, v in enumerate(pads)]
    for i, v in enumerate(out):
        if v < 0 or v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: {argname}[{i}] is {v}, expected 0 to 4294967295")
    return out


def pad(x, start_padding, end_padding, int mode, value, out, value_bytes, str fname):
    """mode: a DML_PADDING_MODE value; value_bytes(value, dtype) gives the padding value's
    bytes in x's dtype."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef list starts = _widths(start_padding, nd, fname, "start_padding")
    cdef list ends = _widths(end_padding, nd, fname, "end_padding")
    cdef UINT s[8]
    cdef UINT e[8]
    cdef Tensor tin, tout
    cdef DML_PADDING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray result
    cdef bytes bits = value_bytes(value, a.dtype)
    shape = tuple([a.shape[i] + starts[i] + ends[i] for i in range(nd)])
    for i in range(nd):
        if shape[i] > 0xFFFFFFFF:
            raise ValueError(f"{fname}: dimension {i} would have size {shape[i]} (x.shape[{i}] {a.shape[i]} + "
                             f"start_padding[{i}] {starts[i]} + end_padding[{i}] {ends[i]}); DirectML sizes are "
                             f"32-bit (at most 4294967295)")
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
    for i in range(nd):
        s[i] = <UINT>starts[i]
        e[i] = <UINT>ends[i]
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
