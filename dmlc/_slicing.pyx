# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""SLICE1 for arrays: fills the desc; the core does the rest.

dmlc.slice is defined here, not in a Python wrapper (dmlc.slicing re-exports it), so x
goes through the binding's one input path (as_ndarray) and a small call runs no Python
frame; annotation_typing=False keeps its annotations documentation only, never C types or
exact-type checks.
"""
import builtins
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_SLICE1_OPERATOR_DESC, DML_OPERATOR_SLICE1, INT, UINT,
                         as_input, as_ndarray, dml_type_of, run_unary)

from dmlc._args import ints_per_axis

cnp.import_array()

_UINT_MAX = 2**32 - 1
_INT_MIN, _INT_MAX = -2**31, 2**31 - 1


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


def slice(x: ArrayLike, offsets: Union[int, Sequence[int]], sizes: Union[int, Sequence[int]],
          strides: Union[int, Sequence[int]] = 1, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Copy a strided window of an array (DirectML SLICE1).

    Along each axis ``i`` the window is ``[offsets[i], offsets[i] + sizes[i])`` of ``x``,
    walked with step ``strides[i]``: from the window's start when the step is positive,
    from its end when it is negative.  The output keeps every element the walk reaches,
    ``1 + (sizes[i] - 1) // abs(strides[i])`` of them.  In NumPy terms, with
    ``o = offsets[i]`` and ``n = sizes[i]``, axis ``i`` is ``x[o : o + n : s]`` for a step
    ``s > 0``, and for ``s < 0`` ``x[o + n - 1 :: s]`` stopped before index ``o``
    (``x[o + n - 1 : o - 1 : s]`` when ``o > 0``).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.  Views are read in place
        (those with negative strides too, through their mirror image).
    offsets : int or sequence of int
        Start of the window in each dimension (one int for all), 0 to 2**32 - 1.
    sizes : int or sequence of int
        Length of the window in each dimension; ``offsets + sizes`` may not pass the end
        of ``x``.  A size of 0 gives an empty result along that axis.
    strides : int or sequence of int, default 1
        Step in each dimension, non-zero, -2**31 to 2**31 - 1; negative steps reverse.
    out : ndarray, optional
        Where to write the result: x's dtype and the shape above.

    Returns
    -------
    ndarray
        The slice (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    >>> dmlc.slice(x, [0, 1], [4, 3], [-2, 2])
    array([[14., 16.],
           [ 6.,  8.]], dtype=float32)
    >>> dmlc.slice(np.arange(10), 2, 7, -3)  # the window 2..8, from its end
    array([8, 5, 2])
    """
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    if nd < 1 or nd > 8:
        raise ValueError(f"slice: x has {nd} dimensions; DirectML tensors have 1 to 8")
    offs = ints_per_axis(offsets, nd, "slice", "offsets", 0, _UINT_MAX)
    lens = ints_per_axis(sizes, nd, "slice", "sizes", 0, _UINT_MAX)
    steps = ints_per_axis(strides, nd, "slice", "strides", _INT_MIN, _INT_MAX)
    if 0 in steps:
        i = steps.index(0)
        raise ValueError(f"slice: strides{'' if np.ndim(strides) == 0 else f'[{i}]'} is 0; a step must not be 0")
    # An axis with a negative stride is read in its mirror image (positive strides, which DML
    # tensors have): element t of the window [o, o + n) is element N - 1 - t of the mirror,
    # so the window becomes [N - o - n, N - o) walked with the opposite step.  A window
    # that does not fit is left for the core to report in the caller's terms.
    view_strides = (<object>a).strides
    back = [] if min(view_strides) >= 0 else [
        k for k in range(nd) if view_strides[k] < 0 and a.shape[k] > 1 and offs[k] + lens[k] <= a.shape[k]]
    if back:
        a = a[tuple(builtins.slice(None, None, -1) if k in back else builtins.slice(None) for k in range(nd))]
        for k in back:
            offs[k], steps[k] = a.shape[k] - offs[k] - lens[k], -steps[k]
    return slice1(a, offs, lens, steps, out, "slice")
