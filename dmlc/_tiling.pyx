# cython: language_level=3, boundscheck=False, wraparound=False
"""TILE for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_TILE_OPERATOR_DESC, DML_OPERATOR_TILE, UINT, as_input,
                         dml_type_of, run_unary)

cnp.import_array()


def tile(x, repeats, out, str fname):
    """repeats: one Python int per dimension of x, 1 to 2**32 - 1."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef UINT reps[8]
    cdef Tensor tin
    cdef DML_TILE_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    for i in range(nd):
        reps[i] = repeats[i]
    d.InputTensor = &tin.desc
    d.RepeatsCount = nd
    d.Repeats = reps
    op.Type = DML_OPERATOR_TILE
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, fname)
