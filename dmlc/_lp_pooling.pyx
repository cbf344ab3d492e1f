# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""LP_POOLING1 for arrays: fills the desc; the core does the rest.

dmlc.lp_pool is defined here, not in a Python wrapper (dmlc.lp_pooling re-exports it), so a
small call runs no Python frame; annotation_typing=False keeps its annotations documentation
only, never C types or exact-type checks.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_LP_POOLING1_OPERATOR_DESC, DML_OPERATOR_LP_POOLING1,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, pool_window, run_unary)

from dmlc._core import schema_dtypes

cnp.import_array()

# The data types LP_POOLING1's schema entry accepts (src/schema.def), and their names.
cdef tuple _DTYPES = schema_dtypes("LP_POOLING1")
cdef str _DTYPE_NAMES = " or ".join(", ".join(str(dt) for dt in _DTYPES).rsplit(", ", 1))


cdef UINT exponent(object p) except? 0:
    """P from p: a Python or NumPy int from 1 to 2**32 - 1 (a bool or a float is a TypeError:
    the norm's exponent is whole, as DirectML's UINT P and ONNX's int p)."""
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
        raise TypeError(f"lp_pool: p must be an int, got {type(p).__name__} {p!r}")
    if p < 1 or p > 0xFFFFFFFF:
        raise ValueError(f"lp_pool: p is {p}, expected an int from 1 to 4294967295")
    return <UINT>p


def lp_pool(x: ArrayLike, window_size: Union[int, Sequence[int]], p: int = 2, *,
            strides: Optional[Union[int, Sequence[int]]] = None,
            start_padding: Optional[Union[int, Sequence[int]]] = None,
            end_padding: Optional[Union[int, Sequence[int]]] = None,
            dilations: Optional[Union[int, Sequence[int]]] = None, ceil_mode: bool = False,
            out: Optional[np.ndarray] = None) -> np.ndarray:
    """LP norm over sliding windows (DirectML LP_POOLING1): ``(sum |x|**p) ** (1/p)``.

    Parameters
    ----------
    x : array_like, shape (N, C, *spatial)
        1 to 3 spatial axes (3 to 5 dimensions in all); float16, float32 or float64.
    window_size : int or sequence of int
        The window along each spatial axis (one int for all of them).
    p : int, default 2
        The norm's exponent, 1 or more (a float is a TypeError): 1 sums ``|x|``, 2 is the
        Euclidean norm of the window.
    strides : int or sequence of int, optional
        The step between windows; defaults to ``window_size`` (as PyTorch's ``lp_pool2d``;
        DirectML and ONNX have no default).
    start_padding, end_padding : int or sequence of int, optional
        Padding before and after each spatial axis, default 0; they may differ.  Padding
        adds nothing to a window's sum.
    dilations : int or sequence of int, optional
        The step between window elements, default 1.
    ceil_mode : bool, default False
        PyTorch's and ONNX's ceil mode: output size per axis ``ceil((n + start + end - k)
        / stride) + 1`` instead of the floor, with ``k = (window - 1) * dilation + 1``,
        less one where that last window would start in the end padding (``(size - 1) *
        stride >= n + start``).  A last window may run past the end padding.
    out : ndarray, optional
        Where to write the result: x's dtype and the output's shape; it may be a strided view.

    Returns
    -------
    ndarray
        The norms, shape ``(N, C, *out_spatial)``, of x's dtype.

    Notes
    -----
    Output ``o`` is ``(sum over t of |x[o*stride - start_padding + t*dilation]|**p) **
    (1/p)`` over the window elements ``t`` inside ``x`` (per spatial axis): padding and a
    window's part past the input add nothing, and a window with no element inside gives 0.
    A NaN in the window gives NaN, an infinity +inf.  The sums of ``|x|**p`` are float64
    for every dtype, in a fixed order, and the root is rounded once to x's dtype, so the
    result does not depend on the array's layout or on how the work is split; where the
    sum overflows float64 the result is inf.

    The same computation elsewhere:

    ============================  ==========================================================
    NumPy                         ``(np.abs(w) ** p).sum() ** (1 / p)`` over each window ``w``
    ONNX ``LpPool``               ``lp_pool(x, kernel_shape, p, strides=strides, start_padding=
                                  pads[:d], end_padding=pads[d:], dilations=dilations,
                                  ceil_mode=ceil_mode)``: the same result
    PyTorch ``F.lp_pool2d``       ``lp_pool(x, k, p, strides=s)`` for even ``p`` or ``x >= 0``
                                  (PyTorch sums ``x**p`` without ``abs``, so odd ``p`` on
                                  negative values differs), without padding (PyTorch has
                                  none), and not on ceil-mode partial windows (PyTorch
                                  scales them by window / valid count)
    ============================  ==========================================================

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> dmlc.lp_pool(x, 2)[0, 0]
    array([[ 6.4807405,  9.899495 ],
           [21.400934 , 25.337719 ]], dtype=float32)
    >>> dmlc.lp_pool(x, 2, 1)[0, 0]
    array([[10., 18.],
           [42., 50.]], dtype=float32)
    >>> dmlc.lp_pool(-np.ones((1, 1, 4, 4)), 3, 2, strides=2, start_padding=1, end_padding=1)[0, 0]
    array([[2.        , 2.44948974],
           [2.44948974, 3.        ]])
    """
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int sp
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef Tensor tin
    cdef DML_LP_POOLING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef bint ceil = ceil_mode
    if a.dtype not in _DTYPES:
        raise TypeError(f"lp_pool: x has dtype {a.dtype}; LP pooling takes {_DTYPE_NAMES}")
    d.P = exponent(p)
    sp = pool_window(a, window_size, strides, start_padding, end_padding, dilations, "lp_pool", win, st, sp0, sp1, dil)
    d.InputTensor = &tin.desc
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    op.Type = DML_OPERATOR_LP_POOLING1
    op.Desc = &d
    return run_unary(&op, DMLC_INFER_FLAG_CEIL_MODE if ceil else 0, &tin, a, dml_type, 1, &d.OutputTensor, out)
