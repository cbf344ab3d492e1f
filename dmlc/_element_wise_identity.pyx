# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""ELEMENT_WISE_IDENTITY for arrays: fills the desc; the core does the rest.

dmlc.identity is defined here, not in a Python wrapper (dmlc.element_wise_identity
re-exports it), so x goes through the binding's one input path (as_ndarray) and a small
call runs no Python frame; annotation_typing=False keeps its annotations documentation
only, never C types or exact-type checks.
"""
import builtins
import numbers
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, DML_SCALE_BIAS,
                         DML_OPERATOR_ELEMENT_WISE_IDENTITY, as_input, as_ndarray, dml_type_of, run_unary)

from dmlc._args import check_out
from dmlc._slicing import slice1

cnp.import_array()


cdef object run_identity(x, scale_bias, out, str fname):
    """scale_bias: None, or (scale, bias) as Python floats that float32 holds."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_SCALE_BIAS sb
    cdef DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if cnp.PyArray_NDIM(a) < 1 or cnp.PyArray_NDIM(a) > 8:
        raise ValueError(f"{fname}: x has {cnp.PyArray_NDIM(a)} dimensions; DirectML tensors have 1 to 8")
    d.InputTensor = &tin.desc
    d.ScaleBias = NULL
    if scale_bias is not None:
        sb.Scale = scale_bias[0]
        sb.Bias = scale_bias[1]
        d.ScaleBias = &sb
    op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, fname, True)


cdef float32_arg(value, str name):
    """A scale or bias as the Python float of a FLOAT (float32), as DML_SCALE_BIAS holds it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)) \
            or isinstance(value, np.complexfloating):
        raise TypeError(f"identity: {name} must be a real number, not {type(value).__name__}")
    v = float(value)
    with np.errstate(over="ignore"):
        f = np.float32(v)
    if np.isinf(f) and not np.isinf(v):
        raise ValueError(f"identity: {name} is {v!r}, beyond float32's range (DML_SCALE_BIAS holds FLOAT values)")
    return float(f)


cdef tuple flip(set axes, int nd):
    """The index that reverses `axes` of an nd-dimensional array."""
    return tuple([builtins.slice(None, None, -1) if k in axes else builtins.slice(None) for k in range(nd)])


def identity(x: ArrayLike, *, scale: Optional[float] = None, bias: Optional[float] = None,
             out: Optional[np.ndarray] = None) -> np.ndarray:
    """Copy an array, or compute ``x * scale + bias`` (DirectML ELEMENT_WISE_IDENTITY).

    The identity is DirectML's strided copy: it materialises any view of ``x`` in a new
    array (or in ``out``), so ``dmlc.identity(x.transpose(0, 2, 3, 1))`` is an NCHW -> NHWC
    transpose, ``dmlc.identity(np.broadcast_to(v, shape))`` a broadcast, and a view with
    negative strides (``x[::-1]``) a reversal.  Views are read in place, not copied first.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions (a 0-d array is copied as one element), any of the eleven
        supported dtypes.
    scale, bias : float, optional
        If either is given, every element becomes ``x * scale + bias`` (DML_SCALE_BIAS;
        the missing one is 1 or 0).  Float dtypes only.  Both are float32 values, as in
        DirectML; float16 and float32 compute in float32, float64 in float64.  The multiply
        and the add are rounded separately (never a fused multiply-add), then the result
        is rounded once to x's dtype (to nearest even), so float32 results equal NumPy's
        ``np.float32(x * np.float32(scale)) + np.float32(bias)``.
    out : ndarray, optional
        Where to write the result: x's shape and dtype, any strides.  ``out`` may be
        ``x`` itself (DirectML's in-place execution): with a scale and bias the array is
        updated in place; without, nothing needs to move.

    Returns
    -------
    ndarray
        The copy (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> dmlc.identity(x.T)
    array([[0., 3.],
           [1., 4.],
           [2., 5.]], dtype=float32)
    >>> dmlc.identity(x, scale=2, bias=10)
    array([[10., 12., 14.],
           [16., 18., 20.]], dtype=float32)
    """
    sb = None
    if scale is not None or bias is not None:
        sb = (1.0 if scale is None else float32_arg(scale, "scale"), 0.0 if bias is None else float32_arg(bias, "bias"))
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    if nd == 0:  # DirectML tensors have at least one dimension: one element of shape (1,)
        r = run_identity(a.reshape(1), sb, None, "identity").reshape(())
        if out is None:
            return r
        check_out(out, (), r.dtype)[...] = r
        return out
    view = out
    # Negative strides have no DML form.  Axes where out runs backwards are reversed in both
    # arrays (the same element pairs); then axes where x runs backwards are read as SLICE1
    # reads a window with stride -1: the mirror view has positive strides.
    if isinstance(out, np.ndarray) and out.shape == (<object>a).shape:
        back = {k for k in range(nd) if out.strides[k] < 0 and out.shape[k] > 1}
        if back:
            a, view = a[flip(back, nd)], out[flip(back, nd)]
    back = {k for k in range(nd) if a.strides[k] < 0 and a.shape[k] > 1}
    if not back or nd > 8:
        r = run_identity(a, sb, view, "identity")
        return out if out is not None else r
    mirror = a[flip(back, nd)]
    if sb is not None:
        # Scaled first, into a new array (a dtype that takes no scale fails here, before
        # anything is written to out), then reversed.
        mirror = run_identity(mirror, sb, None, "identity")
    r = slice1(mirror, [0] * nd, list((<object>a).shape), [-1 if k in back else 1 for k in range(nd)], view,
               "identity")
    return out if out is not None else r
