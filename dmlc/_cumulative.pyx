# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT for arrays: the axis and flags checked
here, the rest in the core.

dmlc.cumsum and dmlc.cumprod are defined here (dmlc.cumulative re-exports them), so a
small call runs no Python frame.
"""
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_CUMULATIVE_SUMMATION_OPERATOR_DESC,
                         DML_OPERATOR_CUMULATIVE_PRODUCT, DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_TYPE,
                         as_input, dml_type_of, run_unary)

from dmlc._args import axis_of, flag_of

cnp.import_array()


cdef object run_scan(DML_OPERATOR_TYPE optype, object x, object axis, object exclusive, object reverse, object out,
                     str fname):
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    # CUMULATIVE_PRODUCT's desc has the same layout (the header asserts it).
    cdef DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    d.Axis = axis_of(axis, nd, fname)
    d.HasExclusiveSum = 1 if flag_of(exclusive, fname, "exclusive") else 0
    d.AxisDirection = 1 if flag_of(reverse, fname, "reverse") else 0
    d.InputTensor = &tin.desc
    op.Type = optype
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, fname, True)


def cumsum(x: ArrayLike, axis: int, *, exclusive: bool = False, reverse: bool = False,
           out: Optional[np.ndarray] = None) -> np.ndarray:
    """Running sums along an axis (DirectML CUMULATIVE_SUMMATION), in x's dtype.

    ``y[..., i, ...] = x[..., 0, ...] + ... + x[..., i, ...]``, added one element at a time
    from the start of the axis (from its end with ``reverse``), each step rounded:
    float32 and float64 in their own precision, float16 in float32 with each result
    rounded once to float16, integers in their own width, wrapping around (int8
    ``[100, 100]`` gives ``[100, -56]``).  The first result is the first element itself
    (``-0.0`` stays ``-0.0``).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes; views are read in place.
    axis : int
        The axis to sum along (negative counts from the end); required, there is no
        flattened form.
    exclusive : bool
        Each result leaves its own element out: the first is 0 (ONNX CumSum's
        ``exclusive``; DirectML's ``HasExclusiveSum``).
    reverse : bool
        Sum from the end of the axis (ONNX's ``reverse``; ``DML_AXIS_DIRECTION_DECREASING``).
    out : ndarray, optional
        Where to write the result: x's shape and dtype.  It may be ``x`` itself (in place);
        any other memory shared with ``x`` is read from a copy.

    Returns
    -------
    ndarray
        The sums, x's shape and dtype (``out`` if given).

    See Also
    --------
    numpy.cumsum : ``np.cumsum(x, axis, dtype=x.dtype)`` gives the same bits for float32,
        float64 and the integers (NumPy widens small integers unless told the dtype, and
        sums float16 in float16).
    torch.cumsum : the same for float16 and float64; on the CPU it sums float32 in double.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[2, 1, 3, 5], [3, 8, 7, 3]], np.float32)
    >>> dmlc.cumsum(x, 1)                   # np.cumsum(x, 1), torch.cumsum(x, 1)
    array([[ 2.,  3.,  6., 11.],
           [ 3., 11., 18., 21.]], dtype=float32)
    >>> dmlc.cumsum(x, 1, exclusive=True, reverse=True)
    array([[ 9.,  8.,  5.,  0.],
           [18., 10.,  3.,  0.]], dtype=float32)
    """
    return run_scan(DML_OPERATOR_CUMULATIVE_SUMMATION, x, axis, exclusive, reverse, out, "cumsum")


def cumprod(x: ArrayLike, axis: int, *, exclusive: bool = False, reverse: bool = False,
            out: Optional[np.ndarray] = None) -> np.ndarray:
    """Running products along an axis (DirectML CUMULATIVE_PRODUCT), in x's dtype.

    As :func:`cumsum` with ``*`` for ``+``: one rounded multiplication per element, in the
    same precisions; integers wrap around (uint8 ``[16, 16]`` gives ``[16, 0]``); the
    exclusive first result is 1.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes; views are read in place.
    axis : int
        The axis to multiply along (negative counts from the end); required.
    exclusive : bool
        Each result leaves its own element out: the first is 1 (DirectML's
        ``HasExclusiveProduct``).
    reverse : bool
        Multiply from the end of the axis (``DML_AXIS_DIRECTION_DECREASING``).
    out : ndarray, optional
        Where to write the result: x's shape and dtype; it may be ``x`` itself (in place).

    Returns
    -------
    ndarray
        The products, x's shape and dtype (``out`` if given).

    See Also
    --------
    numpy.cumprod : ``np.cumprod(x, axis, dtype=x.dtype)`` gives the same bits for float32,
        float64 and the integers.
    torch.cumprod : the same for float16 and float64.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([2, 4, 8, 3], np.float32)
    >>> dmlc.cumprod(x, 0)                  # np.cumprod(x), torch.cumprod(x, 0)
    array([  2.,   8.,  64., 192.], dtype=float32)
    >>> dmlc.cumprod(x, 0, exclusive=True)
    array([ 1.,  2.,  8., 64.], dtype=float32)
    """
    return run_scan(DML_OPERATOR_CUMULATIVE_PRODUCT, x, axis, exclusive, reverse, out, "cumprod")
