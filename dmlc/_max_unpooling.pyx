# cython: language_level=3, boundscheck=False, wraparound=False
"""MAX_UNPOOLING for arrays: two inputs (values and indices) and an output whose shape is
the caller's; fills the desc, asks the core to check it, and runs it."""
import numpy as np
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_MAX_UNPOOLING_OPERATOR_DESC, DML_OPERATOR_MAX_UNPOOLING,
                         DML_TENSOR_TYPE_BUFFER, DML_TENSOR_FLAG_NONE, DML_TENSOR_DATA_TYPE, DMLC_BUFFER_BINDING, UINT,
                         as_input, as_output, bind, dml_type_of, execute, finish_output, infer_shape, may_overlap)
from dmlc._args import index_of

cnp.import_array()


cdef int shape_tensor(Tensor* t, tuple shape, int dml_type) except -1:
    """A packed tensor desc of shape with nothing bound: the output's sizes for the core's
    check before any memory exists (shape: at most 8 ints of 0 to 2**32 - 1)."""
    cdef int i, nd = len(shape)
    for i in range(nd):
        t.sizes[i] = <UINT>shape[i]
    t.buffer_desc.DataType = <DML_TENSOR_DATA_TYPE>dml_type
    t.buffer_desc.Flags = DML_TENSOR_FLAG_NONE
    t.buffer_desc.DimensionCount = nd
    t.buffer_desc.Sizes = t.sizes
    t.buffer_desc.Strides = NULL
    t.buffer_desc.TotalTensorSizeInBytes = 0
    t.buffer_desc.GuaranteedBaseOffsetAlignment = 0
    t.desc.Type = DML_TENSOR_TYPE_BUFFER
    t.desc.Desc = &t.buffer_desc
    return 0


cdef tuple shape_of(object output_shape, str fname):
    """output_shape as a tuple of Python ints, each 0 to 2**32 - 1."""
    if isinstance(output_shape, (str, bytes)) or not hasattr(output_shape, "__len__"):
        raise TypeError(f"{fname}: output_shape must be a sequence of ints, not {type(output_shape).__name__}")
    values = []
    for i, v in enumerate(output_shape):
        v = v if type(v) is int else index_of(v, fname, f"output_shape[{i}]")
        if v < 0 or v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: output_shape[{i}] is {v}, expected 0 to 4294967295")
        values.append(v)
    if len(values) < 3 or len(values) > 5:
        raise ValueError(f"{fname}: output_shape has {len(values)} values, expected 3 to 5 (N, C and 1 to 3 spatial "
                         f"axes, as x)")
    return tuple(values)


def max_unpool(x, indices, output_shape, out, str fname):
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef cnp.ndarray ix, result
    cdef Tensor tin, tidx, tout
    cdef DML_MAX_UNPOOLING_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    idx_arr = indices if cnp.PyArray_Check(indices) else np.asarray(indices)
    if idx_arr.dtype.kind != "u" or idx_arr.dtype.itemsize not in (4, 8):
        raise TypeError(f"{fname}: indices has dtype {idx_arr.dtype}, expected uint32 or uint64 (as max_pool returns "
                        f"them)")
    ix = as_input(idx_arr, "indices")
    if nd < 3 or nd > 5:
        raise ValueError(f"{fname}: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got {nd}")
    shape = shape_of(output_shape, fname)
    # The core checks the indices and the output shape against x (dmlcInferOutputSizes reads
    # MAX_UNPOOLING's output sizes from the desc, as they are its parameter).
    bind(&tin, a, dml_type)
    bind(&tidx, ix, dml_type_of(ix, "indices"))
    shape_tensor(&tout, shape, dml_type)
    d.InputTensor = &tin.desc
    d.IndicesTensor = &tidx.desc
    d.OutputTensor = &tout.desc
    op.Type = DML_OPERATOR_MAX_UNPOOLING
    op.Desc = &d
    shape = infer_shape(&op, 0, 1, 0)
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:  # nothing to place: all zeros (the core takes no empty tensor)
        result[...] = 0
        return finish_output(result, out)
    if out is not None:
        # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
        if may_overlap(a, result):
            a = a.copy()
            bind(&tin, a, dml_type)
        if may_overlap(ix, result):
            ix = ix.copy()
            bind(&tidx, ix, dml_type_of(ix, "indices"))
    bind(&tout, result, dml_type)
    ins[0] = tin.binding
    ins[1] = tidx.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)
