# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""TOP_K1 for arrays: k, the axis and the index dtype checked here, the rest in the core.

dmlc.top_k is defined here (dmlc.topk re-exports it), so x goes through the binding's one
input path (as_ndarray / as_input).
"""
from typing import Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DMLC_BUFFER_BINDING, DML_OPERATOR_DESC, DML_TOP_K1_OPERATOR_DESC, DML_OPERATOR_TOP_K1, as_input,
                         as_ndarray, as_output, bind, dml_type_of, execute, finish_output, may_overlap)

from dmlc._args import axis_of, flag_of, index_of, indices_dtype_of

cnp.import_array()


def top_k(x: ArrayLike, k: int, axis: int = -1, *, largest: bool = True, indices_dtype: DTypeLike = "int64",
          out: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Tuple[np.ndarray, np.ndarray]:
    """The k greatest (or least) elements along an axis, sorted, and their indices
    (DirectML TOP_K1).

    The order is total: numbers by value (``-0.0 == +0.0``), every NaN above ``+inf`` and
    equal to every other NaN (the order of ``np.sort``).  Values come out sorted, greatest
    first (``largest=True``) or least first; equal values by ascending index in both
    directions.  The values are the elements themselves, bit for bit (NaN payloads and
    ``-0.0`` kept); the indices count from the start of each sequence along ``axis``.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    k : int
        How many elements to take, ``0 <= k <= x.shape[axis]``; 0 gives empty results
        (as ``torch.topk``).
    axis : int
        The axis to select along (negative counts from the end), default the last.
    largest : bool
        The greatest elements, in descending order (DirectML's
        ``DML_AXIS_DIRECTION_DECREASING``), or with False the least, ascending.
    indices_dtype : dtype
        int64 (the default), int32, uint64 or uint32; it must hold ``x.shape[axis] - 1``.
    out : (ndarray, ndarray), optional
        Where to write the values (x's dtype) and indices (``indices_dtype``), both of
        x's shape with k on ``axis``; that pair is returned.

    Returns
    -------
    (ndarray, ndarray)
        The values and their indices.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[0, 1, 10, 11], [3, 2, 9, 8], [4, 5, 6, 7]], np.float32)
    >>> v, i = dmlc.top_k(x, 2)         # torch.topk(x, 2), ONNX TopK(k=2)
    >>> v
    array([[11., 10.],
           [ 9.,  8.],
           [ 7.,  6.]], dtype=float32)
    >>> i
    array([[3, 2],
           [2, 3],
           [3, 2]])
    >>> dmlc.top_k(np.array([2, 7, 7, 1]), 3, largest=False)[1]   # ties by ascending index
    array([3, 0, 1])
    >>> # NumPy: i = np.argsort(x, -1, kind="stable")[..., :k]; v = np.take_along_axis(x, i, -1)
    """
    return run_top_k(x, k, axis, largest, indices_dtype, out)


cdef tuple run_top_k(object x, object k, object axis, object largest, object indices_dtype, object out):
    cdef str fname = "top_k"
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a), ax
    cdef int dml_type
    cdef Tensor tin, tval, tidx
    cdef DML_TOP_K1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray rv, ri
    cdef DMLC_BUFFER_BINDING outs[2]
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    ax = axis_of(axis, nd, fname)
    kk = index_of(k, fname, "k")
    big = flag_of(largest, fname, "largest")
    dtype = indices_dtype_of(indices_dtype, fname)
    shape = (<object>a).shape
    if kk < 0 or kk > shape[ax]:
        raise ValueError(f"{fname}: k is {kk}, expected 0 to {shape[ax]} (x.shape[{ax}])")
    if out is None:
        out_values = out_indices = None
    elif isinstance(out, (tuple, list)) and len(out) == 2:
        out_values, out_indices = out
    else:
        raise TypeError(f"{fname}: out must be a pair (values, indices) of arrays or None, not "
                        f"{type(out).__name__}")
    a = as_input(a, "x")
    dml_type = dml_type_of(a, "x")
    result_shape = shape[:ax] + (kk,) + shape[ax + 1:]
    rv = as_output(out_values, result_shape, a.dtype, "out values")
    ri = as_output(out_indices, result_shape, dtype, "out indices")
    if cnp.PyArray_SIZE(rv) == 0:  # k = 0 or another empty axis: nothing to compute
        return finish_output(rv, out_values), finish_output(ri, out_indices)
    if out is not None and (may_overlap(a, rv) or may_overlap(a, ri)):
        a = a.copy()  # an input that shares memory with out= is read from a copy, as NumPy's ufuncs do
    bind(&tin, a, dml_type)
    bind(&tval, rv, dml_type)
    bind(&tidx, ri, dml_type_of(ri, "out indices"))
    d.InputTensor = &tin.desc
    d.OutputValueTensor = &tval.desc
    d.OutputIndexTensor = &tidx.desc
    d.Axis = ax
    d.K = kk
    d.AxisDirection = 1 if big else 0
    op.Type = DML_OPERATOR_TOP_K1
    op.Desc = &d
    outs[0] = tval.binding
    outs[1] = tidx.binding
    execute(&op, 1, &tin.binding, 2, outs)
    return finish_output(rv, out_values), finish_output(ri, out_indices)

