# cython: language_level=3, boundscheck=False, wraparound=False
"""DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (enum_arg, Tensor, DML_OPERATOR_DESC, DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_DEPTH_SPACE_ORDER,
                         DML_OPERATOR_DEPTH_TO_SPACE1, DML_OPERATOR_SPACE_TO_DEPTH1, UINT, as_input, dml_type_of,
                         run_unary)
from dmlc._args import index_of
from dmlc._enums import DepthSpaceOrder, spellings

cnp.import_array()

cdef dict ORDERS = spellings(DepthSpaceOrder)


def depth_space(x, block_size, order, bint to_space, out, str fname):
    """to_space: depth_to_space, else space_to_depth; order: as the public functions take it."""
    cdef int v
    cdef cnp.ndarray a
    cdef int dml_type
    cdef Tensor tin
    cdef DML_DEPTH_TO_SPACE1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    v = enum_arg(order, ORDERS, DepthSpaceOrder, fname, "order")  # first, as before the call
    a = as_input(x, "x")
    dml_type = dml_type_of(a, "x")
    if type(block_size) is not int:
        block_size = index_of(block_size, fname, "block_size")
    if block_size < 1 or block_size > 0xFFFFFFFF:
        raise ValueError(f"{fname}: block_size is {block_size}, expected 1 to 4294967295")
    if cnp.PyArray_NDIM(a) != 4:
        raise ValueError(f"{fname}: x must have 4 dimensions (N, C, H, W), got {cnp.PyArray_NDIM(a)}")
    d.InputTensor = &tin.desc
    d.BlockSize = <UINT>block_size
    d.Order = <DML_DEPTH_SPACE_ORDER><int>v
    op.Type = DML_OPERATOR_DEPTH_TO_SPACE1 if to_space else DML_OPERATOR_SPACE_TO_DEPTH1
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out)
