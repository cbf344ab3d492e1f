# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""REVERSE_SUBSEQUENCES for arrays: the lengths normalised to the desc's SequenceLengthsTensor
(UINT32 or UINT64, x's dimension count with 1 on the axis, broadcast by zero strides), checked
and run by the core.

dmlc.reverse_subsequences is defined here (dmlc.reverse re-exports it), so a small call runs
no Python frame; annotation_typing=False keeps its annotations documentation only.
"""
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DMLC_BUFFER_BINDING, DML_OPERATOR_DESC, DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC,
                         DML_OPERATOR_REVERSE_SUBSEQUENCES, as_input, as_ndarray, as_output, bind, dml_type_of,
                         execute, finish_output, may_overlap)

from dmlc._args import axis_of

cnp.import_array()

# The lengths' dtypes as the core reads them (UINT32, UINT64): a signed one is its unsigned
# twin of one width once no value is negative (the same bits, no copy); narrower ones widen.
_UNSIGNED = {"i1": np.uint32, "i2": np.uint32, "u1": np.uint32, "u2": np.uint32,
             "i4": np.uint32, "i8": np.uint64}


cdef cnp.ndarray lengths_input(object lengths, tuple shape, Py_ssize_t ax, str fname):
    """lengths as the core's SequenceLengthsTensor: x's shape with 1 on the axis (zero
    strides where it broadcasts), uint32 or uint64."""
    cdef cnp.ndarray a = as_ndarray(lengths, "lengths")
    cdef tuple want = shape[:ax] + shape[ax + 1:]
    if cnp.PyArray_SIZE(a) == 0 and not isinstance(lengths, np.ndarray):
        a = a.astype(np.int64)  # [] is float64 to NumPy; an empty list holds no length to type
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fname}: lengths has dtype {a.dtype}, expected an integer dtype")
    lshape = (<object>a).shape
    if len(lshape) == len(shape):
        if lshape[ax] != 1:
            raise ValueError(f"{fname}: lengths.shape[{ax}] is {lshape[ax]}, expected 1 (one length per sequence "
                             f"along axis {ax})")
        lshape = lshape[:ax] + lshape[ax + 1:]
        a = a.reshape(lshape)
    if lshape != want:
        try:
            a = np.broadcast_to(a, want)
        except ValueError:
            raise ValueError(f"{fname}: lengths has shape "
                             f"{(<object>lengths).shape if hasattr(lengths, 'shape') else lshape}, "
                             f"which does not broadcast to {want} (x.shape without axis {ax})") from None
    key = f"{a.dtype.kind}{a.dtype.itemsize}"
    if a.dtype.kind == "i" and cnp.PyArray_SIZE(a):
        low = a.min()
        if low < 0:
            raise ValueError(f"{fname}: lengths holds {low}, expected lengths of 0 or more")
    if key in _UNSIGNED:
        a = a.view(_UNSIGNED[key]) if a.dtype.itemsize >= 4 else a.astype(_UNSIGNED[key])
    return as_input(a.reshape(shape[:ax] + (1,) + shape[ax + 1:]), "lengths")


def reverse_subsequences(x: ArrayLike, lengths: ArrayLike, axis: int, *,
                         out: Optional[np.ndarray] = None) -> np.ndarray:
    """Reverse the first ``lengths`` elements of every sequence along an axis (DirectML
    REVERSE_SUBSEQUENCES).

    For every position ``p`` of the other axes, with ``n = x.shape[axis]`` and
    ``L = min(lengths[p], n)``: ``out[p, i] = x[p, L - 1 - i]`` for ``i < L`` and
    ``out[p, i] = x[p, i]`` for ``i >= L`` (``p, i`` written as if ``axis`` were last).
    Lengths 0 and 1 copy the sequence; a length past ``n`` reverses all of it.

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    lengths : array_like of int
        One length per sequence: shape ``x.shape`` without ``axis`` (or with 1 there), or
        any shape that broadcasts to it (a per-batch vector of ONNX ReverseSequence,
        ``lengths[:, None]``); any integer dtype (int8 to uint64; bool and floats are a
        ``TypeError``, a negative length a ``ValueError``).
    axis : int
        The axis the sequences run along; negative counts from the end.
    out : ndarray, optional
        Where to write the result: x's dtype and shape; it may be a strided view.  It may not
        share memory with x or lengths (``ValueError``): every element reads another one.

    Returns
    -------
    ndarray
        x's shape and dtype.

    Notes
    -----
    ONNX ReverseSequence is the 2-d case: ``time_axis`` is ``axis``, ``batch_axis`` the
    one axis ``lengths`` runs along (``reverse_subsequences(x, lens[:, None], 0)`` for
    ``x`` of shape ``(T, B, F)`` and ``time_axis=0, batch_axis=1``).  NumPy, with ``x``
    moved so that ``axis`` is last and ``lengths`` of the other axes' shape::

        i = np.arange(n)
        src = np.where(i < L[..., None], L[..., None] - 1 - i, i)   # L = np.minimum(lengths, n)
        out = np.take_along_axis(x, src, -1)

    PyTorch has no single call: ``torch.flip`` of each ``x[p, :L]`` (or
    ``torch.gather`` with ``src``).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    >>> dmlc.reverse_subsequences(x, [2, 4, 3], axis=1)        # DirectML's page, example 1
    array([[ 2.,  1.,  3.,  4.],
           [ 8.,  7.,  6.,  5.],
           [11., 10.,  9., 12.]], dtype=float32)
    >>> dmlc.reverse_subsequences(x, [2, 3, 1, 0], axis=0)     # example 2: lengths 1 and 0 copy
    array([[ 5., 10.,  3.,  4.],
           [ 1.,  6.,  7.,  8.],
           [ 9.,  2., 11., 12.]], dtype=float32)
    """
    return run_reverse(x, lengths, axis, out)


cdef object run_reverse(object x, object lengths, object axis, object out):
    cdef str fname = "reverse_subsequences"
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef Py_ssize_t ax
    cdef cnp.ndarray ln, result
    cdef Tensor tin, tlen, tout
    cdef DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions, expected 1 to 8")
    ax = axis_of(axis, nd, fname)
    shape = (<object>a).shape
    ln = lengths_input(lengths, shape, ax, fname)
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if out is not None:
        # Every element reads another one of its sequence: out may not share x's memory
        # (not even as x itself), nor the lengths'.
        if may_overlap(a, result):
            raise ValueError(f"{fname}: out shares memory with x")
        if may_overlap(ln, result):
            raise ValueError(f"{fname}: out shares memory with lengths")
    bind(&tin, a, dml_type)
    bind(&tlen, ln, dml_type_of(ln, "lengths"))
    bind(&tout, result, dml_type)
    d.InputTensor = &tin.desc
    d.SequenceLengthsTensor = &tlen.desc
    d.OutputTensor = &tout.desc
    d.Axis = <unsigned>ax
    op.Type = DML_OPERATOR_REVERSE_SUBSEQUENCES
    op.Desc = &d
    ins[0] = tin.binding
    ins[1] = tlen.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)
