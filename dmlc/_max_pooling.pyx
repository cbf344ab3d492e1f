# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""MAX_POOLING2 for arrays: fills the desc; the core does the rest.

dmlc.max_pool is defined here, not in a Python wrapper (dmlc.max_pooling re-exports it):
a small call costs about a microsecond and a half, and a Python frame between the caller
and this module was a sixth of it.  annotation_typing=False keeps its annotations
documentation only, never C types or exact-type checks.
"""
from typing import Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_MAX_POOLING2_OPERATOR_DESC, DML_OPERATOR_MAX_POOLING2,
                         DMLC_INFER_FLAG_CEIL_MODE, UINT, as_input, dml_type_of, pool_window, run_unary)

cnp.import_array()

# (a C-level dict: the lookup of the common "uint32" without a global name or a method call)
cdef dict _INDEX_DTYPES = {"uint32": np.dtype(np.uint32), "uint64": np.dtype(np.uint64)}


def _indices_dtype(indices_dtype):
    """indices_dtype as numpy.uint32 or numpy.uint64, else TypeError or ValueError."""
    if type(indices_dtype) is str and indices_dtype in _INDEX_DTYPES:
        return _INDEX_DTYPES[indices_dtype]
    try:
        dt = np.dtype(indices_dtype)
    except TypeError:
        raise TypeError(f"max_pool: indices_dtype must be 'uint32' or 'uint64', not {indices_dtype!r}") from None
    if dt not in (np.dtype(np.uint32), np.dtype(np.uint64)):
        raise ValueError(f"max_pool: indices_dtype is {dt}, expected uint32 or uint64")
    return dt


def max_pool(x: ArrayLike, window_size: Union[int, Sequence[int]], *,
             strides: Optional[Union[int, Sequence[int]]] = None,
             start_padding: Optional[Union[int, Sequence[int]]] = None,
             end_padding: Optional[Union[int, Sequence[int]]] = None,
             dilations: Optional[Union[int, Sequence[int]]] = None, return_indices: bool = False,
             indices_dtype: Union[str, np.dtype] = "uint32", ceil_mode: bool = False,
             out: Union[None, np.ndarray, Tuple[np.ndarray, np.ndarray]] = None,
             ) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """Maximum over sliding windows (DirectML MAX_POOLING2), optionally with the position
    of each maximum.

    Parameters
    ----------
    x : array_like, shape (N, C, *spatial)
        1 to 3 spatial axes (3 to 5 dimensions in all); any of the eleven supported dtypes.
    window_size : int or sequence of int
        The window along each spatial axis (one int for all of them).
    strides : int or sequence of int, optional
        The step between windows; defaults to ``window_size`` (as PyTorch's ``max_pool2d``;
        DirectML and ONNX have no default).
    start_padding, end_padding : int or sequence of int, optional
        Padding before and after each spatial axis, default 0.  Padded positions never take
        part in a maximum: the padding is not a value.
    dilations : int or sequence of int, optional
        The step between window elements, default 1.
    return_indices : bool, default False
        Also return where each maximum came from: its flat row-major index into the whole
        of ``x`` (batch and channel included), as DirectML's OutputIndicesTensor.
    indices_dtype : {"uint32", "uint64"}
        The indices' dtype.  ``uint32`` requires ``x.size < 2**32``.
    ceil_mode : bool, default False
        PyTorch's and ONNX's ceil mode: output size per axis ``ceil((n + start + end - k)
        / stride) + 1`` instead of the floor, with ``k = (window - 1) * dilation + 1``,
        less one where that last window would start in the end padding (``(size - 1) *
        stride >= n + start``).  Example: n 17, window 2, stride 3, padding 1 and 1: 6.
    out : ndarray or writable CPU tensor, or a pair (values, indices) with ``return_indices``, optional
        Where to write the results (ndarrays, PyTorch tensors, any objects with
        ``__dlpack__``, the array interface or the buffer protocol); returned as given.

    Returns
    -------
    ndarray, or (ndarray, ndarray) with ``return_indices``
        The maxima, shape ``(N, C, *out_spatial)``, and their indices.

    Notes
    -----
    The rules are DirectML's: ties keep the first element in window order (row-major
    over the window), a NaN beats every number and the first NaN wins, and a window with
    no element inside ``x`` gives the dtype's lowest value (``-inf`` for floats) and an
    index of all ones.  PyTorch's indices count within one (n, c) plane: add
    ``(n*C + c) * prod(spatial)`` to compare.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> dmlc.max_pool(x, 2)[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    >>> v, i = dmlc.max_pool(x, 3, strides=2, start_padding=1, end_padding=1, return_indices=True)
    >>> i[0, 0]
    array([[ 5,  7],
           [13, 15]], dtype=uint32)
    """
    # (bool() and the indices dtype in this order, each only when it is not already what it must be)
    cdef bint with_indices = return_indices
    cdef object dt = None
    if type(indices_dtype) is str:
        dt = _INDEX_DTYPES.get(indices_dtype)
    if dt is None:
        dt = _indices_dtype(indices_dtype)
    cdef bint ceil = ceil_mode
    return pool(x, window_size, strides, start_padding, end_padding, dilations, with_indices, dt, ceil, out,
                "max_pool")


cdef object pool(x, window_size, strides, start_padding, end_padding, dilations, bint return_indices,
                 indices_dtype, bint ceil_mode, out, str fname):
    """max_pool once its flags are bools; None for strides, paddings and dilations means
    the default (the window, 0, 1); indices_dtype is numpy.uint32 or numpy.uint64."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int sp
    cdef UINT win[3]
    cdef UINT st[3]
    cdef UINT sp0[3]
    cdef UINT sp1[3]
    cdef UINT dil[3]
    cdef Tensor tin
    cdef DML_MAX_POOLING2_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    sp = pool_window(a, window_size, strides, start_padding, end_padding, dilations, fname, win, st, sp0, sp1, dil)

    if return_indices:
        if out is None:
            out_values = out_indices = None
        elif isinstance(out, (tuple, list)) and len(out) == 2:
            out_values, out_indices = out
        else:
            raise TypeError(f"{fname}: with return_indices, out must be a pair (values, indices) of arrays or None")
    else:
        out_values, out_indices = out, None
    d.InputTensor = &tin.desc
    d.DimensionCount = sp
    d.Strides = st
    d.WindowSize = win
    d.StartPadding = sp0
    d.EndPadding = sp1
    d.Dilations = dil
    op.Type = DML_OPERATOR_MAX_POOLING2
    op.Desc = &d
    d.OutputIndicesTensor = NULL
    return run_unary(&op, DMLC_INFER_FLAG_CEIL_MODE if ceil_mode else 0, &tin, a, dml_type, 2,
                     &d.OutputTensor, out_values, &d.OutputIndicesTensor,
                     indices_dtype if return_indices else None, out_indices, fname)
