# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""AVERAGE_POOLING1 for arrays: fills the desc; the core does the rest.

dmlc.avg_pool is defined here, not in a Python wrapper (dmlc.average_pooling re-exports
it), so a small call runs no Python frame; annotation_typing=False keeps its annotations
documentation only, never C types or exact-type checks.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_AVERAGE_POOLING1_OPERATOR_DESC, DML_OPERATOR_AVERAGE_POOLING1,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, pool_window, run_unary)

from dmlc._core import schema_dtypes

cnp.import_array()

# The data types AVERAGE_POOLING1's schema entry accepts (src/schema.def), and their names.
cdef tuple _DTYPES = schema_dtypes("AVERAGE_POOLING1")
cdef str _DTYPE_NAMES = " or ".join(", ".join(str(dt) for dt in _DTYPES).rsplit(", ", 1))


cdef object pool(x, window_size, strides, start_padding, end_padding, dilations, bint include_padding,
                 bint ceil_mode, out, str fname):
    """None for strides, paddings and dilations means the default (the window, 0, 1)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int sp
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef Tensor tin
    cdef DML_AVERAGE_POOLING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if a.dtype not in _DTYPES:
        raise TypeError(f"{fname}: x has dtype {a.dtype}; average pooling takes {_DTYPE_NAMES}")
    sp = pool_window(a, window_size, strides, start_padding, end_padding, dilations, fname, win, st, sp0, sp1, dil)
    d.InputTensor = &tin.desc
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    d.IncludePadding = 1 if include_padding else 0
    op.Type = DML_OPERATOR_AVERAGE_POOLING1
    op.Desc = &d
    return run_unary(&op, DMLC_INFER_FLAG_CEIL_MODE if ceil_mode else 0, &tin, a, dml_type, 1, &d.OutputTensor, out)


def avg_pool(x: ArrayLike, window_size: Union[int, Sequence[int]], *,
             strides: Optional[Union[int, Sequence[int]]] = None,
             start_padding: Optional[Union[int, Sequence[int]]] = None,
             end_padding: Optional[Union[int, Sequence[int]]] = None,
             dilations: Optional[Union[int, Sequence[int]]] = None, include_padding: bool = False,
             ceil_mode: bool = False, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Average over sliding windows (DirectML AVERAGE_POOLING1).

    Parameters
    ----------
    x : array_like, shape (N, C, *spatial)
        1 to 3 spatial axes (3 to 5 dimensions in all); float16, float32 or float64.
    window_size : int or sequence of int
        The window along each spatial axis (one int for all of them).
    strides : int or sequence of int, optional
        The step between windows; defaults to ``window_size`` (as PyTorch's ``avg_pool2d``;
        DirectML and ONNX have no default).
    start_padding, end_padding : int or sequence of int, optional
        Padding before and after each spatial axis, default 0; they may differ.
    dilations : int or sequence of int, optional
        The step between window elements, default 1.
    include_padding : bool, default False
        Divide by the number of window positions inside the padded input (PyTorch's
        ``count_include_pad=True``) instead of the number of elements inside ``x``.
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
        The averages, shape ``(N, C, *out_spatial)``, of x's dtype.

    Notes
    -----
    Each output is the sum of its window's elements inside ``x`` divided by their count,
    or with ``include_padding`` by the count of window positions inside the padded input
    (``n + start + end`` along each axis), which is the window's size except where a
    ceil-mode window runs past the end padding.  A window with nothing to divide by (only
    padding, or past the padded input) gives NaN.  Sums are float32 for float16 and
    float32 input and float64 for float64, in a fixed order, so the result does not depend
    on the array's layout or on how the work is split.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> dmlc.avg_pool(x, 2)[0, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    >>> dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1)[0, 0]
    array([[ 2.5,  4. ],
           [ 8.5, 10. ]], dtype=float32)
    >>> dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1, include_padding=True)[0, 0]
    array([[ 1.1111112,  2.6666667],
           [ 5.6666665, 10.       ]], dtype=float32)
    """
    # (bool() of the flags in this order, as before the call)
    cdef bint counts_padding = include_padding
    cdef bint ceil = ceil_mode
    return pool(x, window_size, strides, start_padding, end_padding, dilations, counts_padding, ceil, out, "avg_pool")
