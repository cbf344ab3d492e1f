# cython: language_level=3, boundscheck=False, wraparound=False
"""SLICE1 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_SLICE1_OPERATOR_DESC, DML_OPERATOR_SLICE1, INT, UINT,
                         as_input, dml_type_of, run_unary)

cnp.import_array()


def slice1(x, offsets, sizes, strides, out, str fname):
    """offsets, sizes, strides: one Python int per dimension of x, already in the ranges of
    UINT (offsets, sizes) and of a non-zero INT (strides)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef UINT off[8]
    cdef UINT size[8]
    cdef INT step[8]
    cdef Tensor tin
    cdef DML_SLICE1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    for i in range(nd):
        off[i] = offsets[i]
        size[i] = sizes[i]
        step[i] = strides[i]
    d.InputTensor = &tin.desc
    d.DimensionCount = nd
    d.InputWindowOffsets = off
    d.InputWindowSizes = size
    d.InputWindowStrides = step
    op.Type = DML_OPERATOR_SLICE1
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, fname)
