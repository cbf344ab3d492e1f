# cython: language_level=3, boundscheck=False, wraparound=False
"""MAX_POOLING2 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_MAX_POOLING2_OPERATOR_DESC, DML_OPERATOR_MAX_POOLING2,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, run_unary, uints_per_axis)

cnp.import_array()


def max_pool(x, window_size, strides, start_padding, end_padding, dilations, bint return_indices,
             indices_dtype, bint ceil_mode, out, str fname):
    """None for strides, paddings and dilations means the default (the window, 0, 1);
    indices_dtype is numpy.uint32 or numpy.uint64 (checked by the caller)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), sp, i
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef Tensor tin
    cdef DML_MAX_POOLING2_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
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
    for i in range(sp):
        if cnp.PyArray_DIMS(a)[i + 2] == 0:
            raise ValueError(f"{fname}: x.shape[{i + 2}] is 0; a spatial axis must not be empty")

    if return_indices:
        if out is None:
            out_values = out_indices = None
        elif isinstance(out, (tuple, list)) and len(out) == 2:
            out_values, out_indices = out
        else:
            raise TypeError(f"{fname}: with return_indices, out must be a pair (values, indices) of arrays or None")
    else:
        out_values, out_indices = out, None
    d.InputTensor = &tin.desc
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    op.Type = DML_OPERATOR_MAX_POOLING2
    op.Desc = &d
    d.OutputIndicesTensor = NULL
    return run_unary(&op, DMLC_INFER_FLAG_CEIL_MODE if ceil_mode else 0, &tin, a, dml_type, 2,
                     &d.OutputTensor, out_values, &d.OutputIndicesTensor,
                     indices_dtype if return_indices else None, out_indices, fname)
