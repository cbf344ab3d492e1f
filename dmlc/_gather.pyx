# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""GATHER for arrays: x and an index array, fitted to the desc's common dimension count,
checked and run by the core.

dmlc.gather is defined here, not in a Python wrapper (dmlc.gather re-exports it), so a small
call runs no Python frame; annotation_typing=False keeps its annotations documentation only.
"""
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_GATHER_OPERATOR_DESC, DML_OPERATOR_GATHER,
                         DMLC_BUFFER_BINDING, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, may_overlap, normalize_axis)
from dmlc._args import index_of

cnp.import_array()

# Index dtypes the core reads as they are; narrower integers are widened to these.
_WIDER = {1: {"i": np.int32, "u": np.uint32}, 2: {"i": np.int32, "u": np.uint32}}


cdef cnp.ndarray index_input(object indices, str fname, str name):
    """indices as an int32/int64/uint32/uint64 array the core can read: any integer dtype
    (int8/int16/uint8/uint16 widened), bool and floats a TypeError."""
    cdef cnp.ndarray a = as_ndarray(indices, name)
    if cnp.PyArray_SIZE(a) == 0 and not isinstance(indices, np.ndarray):
        a = a.astype(np.int64)  # [] is float64 to NumPy; an empty list holds no index to type
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fname}: {name} has dtype {a.dtype}, expected an integer dtype")
    if a.dtype.itemsize < 4:
        a = a.astype(_WIDER[a.dtype.itemsize][a.dtype.kind])
    return as_input(a, name)


cdef object gather_impl(x, indices, axis, out, str fname):
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray ix = index_input(indices, fname, "indices")
    cdef int r = cnp.PyArray_NDIM(a), q = cnp.PyArray_NDIM(ix), D
    cdef Py_ssize_t ax
    cdef cnp.ndarray xd, ixd, result, od
    cdef Tensor tin, tidx, tout
    cdef DML_GATHER_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    if r < 1 or r > 8:
        raise ValueError(f"{fname}: x has {r} dimensions, expected 1 to 8")
    ax = normalize_axis(axis if type(axis) is int else index_of(axis, fname, "axis"), r, fname)
    # DirectML's tensors share one dimension count D: the gathered shape x.shape[:axis] +
    # indices.shape + x.shape[axis+1:] has r + q - 1 dimensions (r for 0-d indices, which
    # the core gives a leading 1), and x and indices get leading ones up to D.
    D = r + q - 1 if q > 0 else r
    if D > 8:
        raise ValueError(f"{fname}: the result would have {r + q - 1} dimensions (x {r} + indices {q} - 1), "
                         f"expected at most 8")
    shape = (<object>a).shape[:ax] + (<object>ix).shape + (<object>a).shape[ax + 1:]
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:
        raise ValueError(f"{fname}: x.shape[{ax}] is 0: there is nothing to gather from")
    xd = a.reshape((1,) * (D - r) + (<object>a).shape)
    ixd = ix.reshape((1,) * (D - q) + (<object>ix).shape)
    od = result.reshape((1,) * (D - (r + q - 1)) + shape)  # 0-d indices: the core's leading 1
    if out is not None:
        # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
        if may_overlap(xd, od):
            xd = xd.copy()
        if may_overlap(ixd, od):
            ixd = ixd.copy()
    bind(&tin, xd, dml_type)
    bind(&tidx, ixd, dml_type_of(ixd, "indices"))
    bind(&tout, od, dml_type)
    d.InputTensor = &tin.desc
    d.IndicesTensor = &tidx.desc
    d.OutputTensor = &tout.desc
    d.Axis = <unsigned>(ax + D - r)
    d.IndexDimensions = <unsigned>q
    op.Type = DML_OPERATOR_GATHER
    op.Desc = &d
    ins[0] = tin.binding
    ins[1] = tidx.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def gather(x: ArrayLike, indices: ArrayLike, axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Take slices of x along one axis (DirectML GATHER).

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        Which positions of ``axis`` to take: any integer dtype (int32, int64, uint32 and
        uint64 go to the core as they are, narrower ones are widened), any shape, 0-d too.
        A negative index counts from the end; an index still outside ``[0, n)``
        (``n = x.shape[axis]``) is clamped into it, so ``gather`` never raises on index
        values.
    axis : int
        The axis of x to index; negative counts from the end.
    out : ndarray, optional
        Where to write the result: x's dtype and the result's shape; it may be a strided
        view.

    Returns
    -------
    ndarray
        Shape ``x.shape[:axis] + indices.shape + x.shape[axis+1:]``, x's dtype.

    Notes
    -----
    ``gather(x, i, axis)`` is ``np.take(x, np.where(i < 0, i + n, i), axis, mode="clip")``
    (NumPy's ``"clip"`` sends every negative index to 0, so negative indices get ``n``
    added first) and, for 1-d in-range indices, ``torch.index_select(x, axis, i)``.  The
    result has at most 8 dimensions, as DirectML's tensors have.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> table = np.arange(12, dtype=np.float32).reshape(4, 3)
    >>> dmlc.gather(table, [[3, 0], [-1, 9]], 0)        # 9 is clamped to 3
    array([[[ 9., 10., 11.],
            [ 0.,  1.,  2.]],
    <BLANKLINE>
           [[ 9., 10., 11.],
            [ 9., 10., 11.]]], dtype=float32)
    """
    return gather_impl(x, indices, axis, out, "gather")
