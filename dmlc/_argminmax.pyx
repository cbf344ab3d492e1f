# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""ARGMIN and ARGMAX for arrays: the axes and index dtype checked here, the rest in the core.

dmlc.argmax and dmlc.argmin are defined here (dmlc.argminmax re-exports them), so x goes
through the binding's one input path (as_ndarray / as_input).
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_ARGMAX_OPERATOR_DESC, DML_OPERATOR_ARGMAX,
                         DML_OPERATOR_ARGMIN, DML_OPERATOR_TYPE, UINT, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, may_overlap)

from dmlc._args import axis_of, flag_of, indices_dtype_of

cnp.import_array()


cdef tuple reduced_axes(object axis, int nd, str fname):
    """axis (None, an int or a sequence of distinct ints) as a sorted tuple of axes."""
    if axis is None:
        return tuple(range(nd))
    if hasattr(axis, "__index__") or isinstance(axis, bool):
        return (axis_of(axis, nd, fname),)
    if isinstance(axis, (str, bytes)) or not hasattr(axis, "__len__"):
        raise TypeError(f"{fname}: axis must be None, an int or a tuple of ints, not {type(axis).__name__}")
    axes = [axis_of(a, nd, fname, f"axis[{i}]") for i, a in enumerate(axis)]
    if not axes:
        raise ValueError(f"{fname}: axis is empty, expected at least one axis (or None for all)")
    if len(set(axes)) != len(axes):
        raise ValueError(f"{fname}: axis {tuple(axis)} names an axis twice")
    return tuple(sorted(axes))


cdef object run_arg(DML_OPERATOR_TYPE optype, object x, object axis, object keepdims, object select_last_index,
                    object indices_dtype, object out, str fname):
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef int dml_type
    cdef UINT axes_c[8]
    cdef Tensor tin, tout
    cdef DML_ARGMAX_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray r, view
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    axes = reduced_axes(axis, nd, fname)
    keep = flag_of(keepdims, fname, "keepdims")
    last = flag_of(select_last_index, fname, "select_last_index")
    dtype = indices_dtype_of(indices_dtype, fname)
    shape = (<object>a).shape
    kept_shape = tuple([1 if i in axes else shape[i] for i in range(nd)])
    result_shape = kept_shape if keep else tuple([shape[i] for i in range(nd) if i not in axes])
    reduced = 1
    for i in axes:
        reduced *= shape[i]
    if reduced == 0:
        raise ValueError(f"{fname}: x has shape {shape}, and the reduced axes {axes} hold no element (an empty "
                         f"sequence has no {fname})")
    a = as_input(a, "x")
    dml_type = dml_type_of(a, "x")
    r = as_output(out, result_shape, dtype, "out")
    if cnp.PyArray_SIZE(r) == 0:
        return finish_output(r, out)
    # A view with the reduced axes of size 1 (a reshape is a view of a C-contiguous result,
    # the usual one, and costs a fraction of expand_dims).
    if keep:
        view = r
    elif cnp.PyArray_IS_C_CONTIGUOUS(r):
        view = r.reshape(kept_shape)
    else:
        view = np.expand_dims(r, axes)
    if out is not None and may_overlap(a, view):
        a = a.copy()
    for i in range(len(axes)):
        axes_c[i] = axes[i]
    bind(&tin, a, dml_type)
    bind(&tout, view, dml_type_of(view, "out"))
    d.InputTensor = &tin.desc
    d.OutputTensor = &tout.desc
    d.AxisCount = len(axes)
    d.Axes = axes_c
    d.AxisDirection = 1 if last else 0
    op.Type = optype
    op.Desc = &d
    execute(&op, 1, &tin.binding, 1, &tout.binding)
    return finish_output(r, out)


def argmax(x: ArrayLike, axis: Union[None, int, Sequence[int]] = None, *, keepdims: bool = False,
           select_last_index: bool = False, indices_dtype: DTypeLike = "int64",
           out: Optional[np.ndarray] = None) -> np.ndarray:
    """Index of the greatest element over one or more axes (DirectML ARGMAX).

    The order is total: numbers by value (``-0.0 == +0.0``), every NaN above ``+inf`` and
    equal to every other NaN, so a NaN wins, as in ``np.argmax``.  Of equal elements the
    first is taken, or the last with ``select_last_index``.  Over several axes the index is
    row-major over them in increasing axis order (all axes: the flat index, as
    ``np.argmax(x)``).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    axis : None, int or tuple of ints
        The axes to reduce (negative counts from the end); None reduces all of them.
    keepdims : bool
        Keep the reduced axes with size 1 (ONNX's and DirectML's shape).
    select_last_index : bool
        Of equal elements, the last one's index (ONNX's attribute; DirectML's
        ``DML_AXIS_DIRECTION_DECREASING``).
    indices_dtype : dtype
        int64 (the default), int32, uint64 or uint32; it must hold the reduced element
        count minus one.
    out : ndarray, optional
        Where to write the result: ``indices_dtype``, the result's shape.

    Returns
    -------
    ndarray
        The indices (a 0-d array for a full reduction without keepdims).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], np.float32)
    >>> dmlc.argmax(x, 0)               # np.argmax(x, 0), torch.argmax(x, 0)
    array([1, 2, 1])
    >>> int(dmlc.argmax(x))             # the flat index, as np.argmax(x)
    7
    >>> dmlc.argmax(np.array([3, 2, 1, 2, 3]), select_last_index=True)
    array(4)
    """
    return run_arg(DML_OPERATOR_ARGMAX, x, axis, keepdims, select_last_index, indices_dtype, out, "argmax")


def argmin(x: ArrayLike, axis: Union[None, int, Sequence[int]] = None, *, keepdims: bool = False,
           select_last_index: bool = False, indices_dtype: DTypeLike = "int64",
           out: Optional[np.ndarray] = None) -> np.ndarray:
    """Index of the least element over one or more axes (DirectML ARGMIN).

    As :func:`argmax` with the least element: every NaN is above ``+inf``, so a NaN's
    index comes only from a sequence of NaNs (``np.argmin`` and ``torch.argmin`` return
    a NaN's index instead).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    axis : None, int or tuple of ints
        The axes to reduce (negative counts from the end); None reduces all of them.
    keepdims : bool
        Keep the reduced axes with size 1.
    select_last_index : bool
        Of equal elements, the last one's index (``DML_AXIS_DIRECTION_DECREASING``).
    indices_dtype : dtype
        int64 (the default), int32, uint64 or uint32.
    out : ndarray, optional
        Where to write the result.

    Returns
    -------
    ndarray
        The indices.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], np.float32)
    >>> dmlc.argmin(x, 1)               # np.argmin(x, 1), torch.argmin(x, 1)
    array([0, 1, 0])
    >>> dmlc.argmin(np.array([1.0, np.nan, 0.5]))   # np.argmin gives 1, the NaN
    array(2)
    """
    return run_arg(DML_OPERATOR_ARGMIN, x, axis, keepdims, select_last_index, indices_dtype, out, "argmin")
