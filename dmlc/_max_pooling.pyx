# cython: language_level=3, boundscheck=False, wraparound=False
"""MAX_POOLING2 for arrays: binds x, the values and the optional indices, and runs the core."""
import numpy as np
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_MAX_POOLING2_OPERATOR_DESC, DML_OPERATOR_TYPE,
                         DMLC_BUFFER_BINDING, UINT, as_input, as_output, finish_output, bind, dml_type_of, execute,
                         may_overlap, uints_per_axis)

cnp.import_array()

cdef enum:
    MAX_POOLING2 = 110
    DML_UINT32 = 3
    DML_UINT64 = 10


def max_pool(x, window_size, strides, start_padding, end_padding, dilations, bint return_indices,
             indices_dtype, bint ceil_mode, out, str fname):
    """None for strides, paddings and dilations means the default (the window, 0, 1);
    indices_dtype is numpy.uint32 or numpy.uint64 (checked by the caller)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), sp, i
    cdef cnp.npy_intp* dims = cnp.PyArray_DIMS(a)
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef unsigned long long padded, k, size
    cdef Tensor tin, tout, tidx
    cdef DML_MAX_POOLING2_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING outs[2]
    cdef cnp.ndarray result, indices = None
    if nd < 3 or nd > 5:
        raise ValueError(f"{fname}: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got {nd}")
    sp = nd - 2
    uints_per_axis(window_size, sp, fname, "window_size", "spatial axis", 1, win)
    if strides is None:
        for i in range(sp):
            st[i] = win[i]
    else:
        uints_per_axis(strides, sp, fname, "strides", "spatial axis", 1, st)
    uints_per_axis(0 if start_padding is None else start_padding, sp, fname, "start_padding", "spatial axis", 0, sp0)
    uints_per_axis(0 if end_padding is None else end_padding, sp, fname, "end_padding", "spatial axis", 0, sp1)
    uints_per_axis(1 if dilations is None else dilations, sp, fname, "dilations", "spatial axis", 1, dil)

    # Output sizes: SPEC's floor formula, or its ceil form with ceil_mode.  The core checks
    # them again; the arithmetic here only shapes the result.
    shape = [dims[0], dims[1]]
    for i in range(sp):
        if dims[i + 2] == 0:
            raise ValueError(f"{fname}: x.shape[{i + 2}] is 0; a spatial axis must not be empty")
        padded = <unsigned long long>dims[i + 2] + sp0[i] + sp1[i]
        k = (<unsigned long long>win[i] - 1) * dil[i] + 1
        if k > padded:
            raise ValueError(f"{fname}: the dilated window (window_size[{i}] {win[i]} - 1) * dilations[{i}] {dil[i]} "
                             f"+ 1 = {k} is larger than the padded input x.shape[{i + 2}] {dims[i + 2]} + "
                             f"start_padding[{i}] {sp0[i]} + end_padding[{i}] {sp1[i]} = {padded}")
        size = (padded - k + (st[i] - 1 if ceil_mode else 0)) // st[i] + 1
        if size > 0xFFFFFFFF or padded > 0xFFFFFFFF:
            raise ValueError(f"{fname}: axis {i + 2} of the padded input or the output exceeds DirectML's "
                             f"32-bit sizes (at most 4294967295)")
        shape.append(size)
    shape = tuple(shape)

    if return_indices:
        if out is None:
            out_values = out_indices = None
        elif isinstance(out, (tuple, list)) and len(out) == 2:
            out_values, out_indices = out
        else:
            raise TypeError(f"{fname}: with return_indices, out must be a pair (values, indices) of arrays or None")
    else:
        out_values, out_indices = out, None
    result = as_output(out_values, shape, a.dtype, "out")
    if return_indices:
        indices = as_output(out_indices, shape, np.dtype(indices_dtype), "out indices")
    if cnp.PyArray_SIZE(result) == 0:
        if return_indices:
            return finish_output(result, out_values), finish_output(indices, out_indices)
        return finish_output(result, out_values)
    if (out_values is not None and may_overlap(a, result)) or (indices is not None and out_indices is not None
                                                               and may_overlap(a, indices)):
        a = a.copy()
    if indices is not None and may_overlap(result, indices):
        raise ValueError(f"{fname}: the values and indices outputs share memory")

    bind(&tin, a, dml_type)
    bind(&tout, result, dml_type)
    d.InputTensor = &tin.desc
    d.OutputTensor = &tout.desc
    d.OutputIndicesTensor = NULL
    outs[0] = tout.binding
    outs[1].Buffer = NULL
    outs[1].Offset = 0
    outs[1].SizeInBytes = 0
    if indices is not None:
        bind(&tidx, indices, DML_UINT64 if indices.dtype.itemsize == 8 else DML_UINT32)
        d.OutputIndicesTensor = &tidx.desc
        outs[1] = tidx.binding
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    op.Type = <DML_OPERATOR_TYPE>MAX_POOLING2
    op.Desc = &d
    execute(&op, 1, &tin.binding, 2, outs)
    if return_indices:
        return finish_output(result, out_values), finish_output(indices, out_indices)
    return finish_output(result, out_values)
