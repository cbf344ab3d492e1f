# cython: language_level=3, boundscheck=False, wraparound=False
"""AVERAGE_POOLING1 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_AVERAGE_POOLING1_OPERATOR_DESC, DML_OPERATOR_AVERAGE_POOLING1,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, run_unary, uints_per_axis)

cnp.import_array()


def avg_pool(x, window_size, strides, start_padding, end_padding, dilations, bint include_padding, bint ceil_mode,
             out, str fname):
    """None for strides, paddings and dilations means the default (the window, 0, 1)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), sp, i
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef Tensor tin
    cdef DML_AVERAGE_POOLING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if a.dtype.kind != "f":
        raise TypeError(f"{fname}: x has dtype {a.dtype}; average pooling takes float16, float32 or float64")
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
        if a.shape[i + 2] == 0:
            raise ValueError(f"{fname}: x.shape[{i + 2}] is 0; a spatial axis must not be empty")
    d.InputTensor = &tin.desc
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    d.IncludePadding = 1 if include_padding else 0
    op.Type = DML_OPERATOR_AVERAGE_POOLING1
    op.Desc = &d
    return run_unary(&op, DMLC_INFER_FLAG_CEIL_MODE if ceil_mode else 0, &tin, a, dml_type, 1, &d.OutputTensor, out)
