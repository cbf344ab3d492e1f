# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""TILE for arrays: fills the desc; the core does the rest.

dmlc.tile is defined here, not in a Python wrapper (dmlc.tiling re-exports it), so x goes
through the binding's one input path (as_ndarray) and a small call runs no Python frame;
annotation_typing=False keeps its annotations documentation only, never C types or
exact-type checks.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_TILE_OPERATOR_DESC, DML_OPERATOR_TILE, UINT, as_input,
                         as_ndarray, dml_type_of, run_unary)

from dmlc._args import check_out, index_of

cnp.import_array()


cdef object run_tile(x, repeats, out, str fname):
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


def tile(x: ArrayLike, repeats: Union[int, Sequence[int]], *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Repeat an array along each axis (DirectML TILE).

    ``out[o] = x[o mod x.shape]``: the output's axis ``i`` is ``repeats[i]`` copies of x's
    axis ``i`` one after the other, as ``np.tile``.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    repeats : int or sequence of int
        Copies along each axis, each 1 to 2**32 - 1.  As in ``np.tile``, fewer values than
        x has dimensions are padded with 1s at the front (an int tiles the last axis only);
        unlike ``np.tile``, more values than dimensions are an error (DirectML's TILE keeps
        the rank: add axes to x first) and so is a repeat of 0.
    out : ndarray, optional
        Where to write the result: x's dtype, shape ``x.shape * repeats``.

    Returns
    -------
    ndarray
        The tiled array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.tile(np.array([[1, 2], [3, 4]]), [1, 2])
    array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    >>> dmlc.tile(np.array([[1, 2], [3, 4]]), 2).shape  # the last axis, as np.tile
    (2, 4)
    """
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    if (type(repeats) is list or type(repeats) is tuple) and all(type(r) is int and 1 <= r <= 2**32 - 1 for r in repeats):
        reps = list(repeats)  # the common case, without formatting names for messages never raised
    elif isinstance(repeats, bool):
        raise TypeError("tile: repeats must be an int or a sequence of ints, not bool")
    else:
        if hasattr(repeats, "__index__") and not (isinstance(repeats, np.ndarray) and repeats.ndim > 0):
            reps, names = [index_of(repeats, "tile", "repeats")], ["repeats"]
        else:
            if isinstance(repeats, (str, bytes)) or not hasattr(repeats, "__len__"):
                raise TypeError(f"tile: repeats must be an int or a sequence of ints, not {type(repeats).__name__}")
            reps = [index_of(r, "tile", f"repeats[{i}]") for i, r in enumerate(repeats)]
            names = [f"repeats[{i}]" for i in range(len(reps))]
        for r, name in zip(reps, names):
            if r < 1 or r > 2**32 - 1:
                raise ValueError(f"tile: {name} is {r}, expected 1 to 4294967295")
    if len(reps) > nd:
        raise ValueError(f"tile: repeats has {len(reps)} values, but x has {nd} dimensions; DirectML's TILE keeps the "
                         f"rank (add axes to x to tile along new ones)")
    if nd == 0:  # repeats is empty: a copy of the one element
        if out is None:
            return a.copy()
        check_out(out, (), a.dtype)[...] = a
        return out
    return run_tile(a, [1] * (nd - len(reps)) + reps, out, "tile")
