# cython: language_level=3, boundscheck=False, wraparound=False
"""AVERAGE_POOLING1 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_AVERAGE_POOLING1_OPERATOR_DESC, DML_OPERATOR_AVERAGE_POOLING1,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, pool_window, run_unary)

cnp.import_array()


def avg_pool(x, window_size, strides, start_padding, end_padding, dilations, bint include_padding, bint ceil_mode,
             out, str fname):
    """None for strides, paddings and dilations means the default (the window, 0, 1)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int sp
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
    sp = pool_window(a, window_size, strides, start_padding, end_padding, dilations, fname, win, st, sp0, sp1, dil)
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
