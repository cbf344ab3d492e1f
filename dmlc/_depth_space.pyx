# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 for arrays: fills the desc; the core does the rest.

dmlc.depth_to_space and dmlc.space_to_depth are defined here, not in a Python wrapper
(dmlc.depth_space re-exports them): a small call costs about a microsecond, and a Python
frame in between was a sixth of it.  annotation_typing=False keeps their annotations
documentation only, never C types or exact-type checks.
"""
from typing import Optional, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (enum_arg, Tensor, DML_OPERATOR_DESC, DML_DEPTH_TO_SPACE1_OPERATOR_DESC, DML_DEPTH_SPACE_ORDER,
                         DML_OPERATOR_DEPTH_TO_SPACE1, DML_OPERATOR_SPACE_TO_DEPTH1, UINT, as_input, dml_type_of,
                         run_unary)
from dmlc._args import index_of
from dmlc._enums import DepthSpaceOrder, spellings

cnp.import_array()

cdef dict ORDERS = spellings(DepthSpaceOrder)


cdef object depth_space(x, block_size, order, bint to_space, out, str fname):
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


def depth_to_space(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray:
    """Move blocks of channels into space (DirectML DEPTH_TO_SPACE1).

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        Any of the eleven supported dtypes; C must be divisible by ``block_size**2``.
    block_size : int
        Width and height of the moved blocks, at least 1.
    order : {"depth_column_row", "column_row_depth"} or DepthSpaceOrder
        ``depth_column_row`` (ONNX DCR, DirectML's DEPTH_TO_SPACE):
        ``out[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*Co + c, h, w]``;
        ``column_row_depth`` (ONNX CRD, PyTorch ``pixel_shuffle``):
        ``out[n, c, h*b+i, w*b+j] = x[n, c*b*b + i*b + j, h, w]``.
    out : ndarray or writable CPU tensor, optional
        Where to write the result, shape ``(N, C // b**2, H*b, W*b)`` and x's dtype: an
        ndarray, or a PyTorch tensor or any object with ``__dlpack__``, the array interface
        or the buffer protocol, written in place and returned.

    Returns
    -------
    ndarray
        The rearranged array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.depth_to_space(np.arange(4).reshape(1, 4, 1, 1), 2)[0, 0]
    array([[0, 1],
           [2, 3]])
    """
    return depth_space(x, block_size, order, True, out, "depth_to_space")


def space_to_depth(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray:
    """Move blocks of space into channels (DirectML SPACE_TO_DEPTH1), the inverse of
    :func:`depth_to_space` with the same ``order``.

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        H and W must be divisible by ``block_size``.
    block_size : int
        Width and height of the moved blocks, at least 1.
    order : {"depth_column_row", "column_row_depth"} or DepthSpaceOrder
        See :func:`depth_to_space`.
    out : ndarray or writable CPU tensor, optional
        Where to write the result, shape ``(N, C*b*b, H // b, W // b)`` (any object
        :func:`depth_to_space` takes as ``out``).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.space_to_depth(np.arange(4).reshape(1, 1, 2, 2), 2).ravel()
    array([0, 1, 2, 3])
    """
    return depth_space(x, block_size, order, False, out, "space_to_depth")
