# cython: language_level=3, boundscheck=False, wraparound=False
"""DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_DEPTH_SPACE_ORDER,
                         DML_OPERATOR_DEPTH_TO_SPACE1, DML_OPERATOR_SPACE_TO_DEPTH1, UINT, as_input, dml_type_of,
                         run_unary)
from dmlc._args import index_of

cnp.import_array()


def depth_space(x, block_size, int order, bint to_space, out, str fname):
    """to_space: depth_to_space, else space_to_depth; order: a DML_DEPTH_SPACE_ORDER value."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_DEPTH_TO_SPACE1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if type(block_size) is not int:
        block_size = index_of(block_size, fname, "block_size")
    if block_size < 1 or block_size > 0xFFFFFFFF:
        raise ValueError(f"{fname}: block_size is {block_size}, expected 1 to 4294967295")
    if cnp.PyArray_NDIM(a) != 4:
        raise ValueError(f"{fname}: x must have 4 dimensions (N, C, H, W), got {cnp.PyArray_NDIM(a)}")
    d.InputTensor = &tin.desc
    d.BlockSize = <UINT>block_size
    d.Order = <DML_DEPTH_SPACE_ORDER>order
    op.Type = DML_OPERATOR_DEPTH_TO_SPACE1 if to_space else DML_OPERATOR_SPACE_TO_DEPTH1
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out)
