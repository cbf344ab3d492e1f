# cython: language_level=3, boundscheck=False, wraparound=False
"""DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 for arrays: binds x and the output and runs the core."""
import numpy as np
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_OPERATOR_TYPE,
                         DML_DEPTH_SPACE_ORDER, UINT, as_input, as_output, finish_output, bind, dml_type_of,
                         execute, may_overlap)
from dmlc._args import index_of

cnp.import_array()

cdef enum:
    DEPTH_TO_SPACE1 = 113
    SPACE_TO_DEPTH1 = 114


def depth_space(x, block_size, int order, bint to_space, out, str fname):
    """to_space: depth_to_space, else space_to_depth; order: a DML_DEPTH_SPACE_ORDER value."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin, tout
    cdef DML_DEPTH_TO_SPACE1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray result
    cdef Py_ssize_t n, c, h, w, b
    cdef cnp.npy_intp dims[4]
    if type(block_size) is not int:
        block_size = index_of(block_size, fname, "block_size")
    if block_size < 1 or block_size > 0xFFFFFFFF:
        raise ValueError(f"{fname}: block_size is {block_size}, expected at least 1")
    b = block_size
    if cnp.PyArray_NDIM(a) != 4:
        raise ValueError(f"{fname}: x must have 4 dimensions (N, C, H, W), got {cnp.PyArray_NDIM(a)}")
    n, c, h, w = a.shape[0], a.shape[1], a.shape[2], a.shape[3]
    if to_space:
        if c % (b * b):
            raise ValueError(f"{fname}: x.shape[1] is {c}, not divisible by block_size * block_size ({b * b})")
        dims[0], dims[1], dims[2], dims[3] = n, c // (b * b), h * b, w * b
    else:
        if h % b or w % b:
            raise ValueError(f"{fname}: x.shape[2:] is ({h}, {w}), not divisible by block_size {b}")
        dims[0], dims[1], dims[2], dims[3] = n, c * b * b, h // b, w // b
    if out is None:
        result = cnp.PyArray_EMPTY(4, dims, cnp.PyArray_TYPE(a), 0)
    else:
        result = as_output(out, (dims[0], dims[1], dims[2], dims[3]), a.dtype, "out")
    if cnp.PyArray_SIZE(a) == 0:
        return finish_output(result, out)
    if out is not None and may_overlap(a, result):
        a = a.copy()
    bind(&tin, a, dml_type)
    bind(&tout, result, dml_type)
    d.InputTensor = &tin.desc
    d.OutputTensor = &tout.desc
    d.BlockSize = <UINT>b
    d.Order = <DML_DEPTH_SPACE_ORDER>order
    op.Type = <DML_OPERATOR_TYPE>(DEPTH_TO_SPACE1 if to_space else SPACE_TO_DEPTH1)
    op.Desc = &d
    execute(&op, 1, &tin.binding, 1, &tout.binding)
    return finish_output(result, out)
