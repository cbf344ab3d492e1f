# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""ONE_HOT for arrays: indices get a size-1 dimension at axis (DirectML's tensors share one
dimension count), (off, on) becomes a two-element ValuesTensor of the result's dtype, and the
core does the rest.

dmlc.one_hot is defined here, not in a Python wrapper (dmlc.one_hot re-exports it), so a
small call runs no Python frame; annotation_typing=False keeps its annotations documentation.
"""
import decimal
import numbers
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_ONE_HOT_OPERATOR_DESC, DML_OPERATOR_ONE_HOT, DMLC_BUFFER_BINDING,
                         as_output, bind, bind_buffer, dml_type_of, execute, finish_output, index_input, may_overlap)

from dmlc._args import dtype_arg, index_of
from dmlc._padding_value import value_bytes

cnp.import_array()


_FLOAT32 = np.dtype(np.float32)
_DEFAULT_VALUES = (0, 1)
_DEFAULT_BYTES = {}  # dtype -> the default (off, on) as its bytes


cdef void insert_unit_dimension(Tensor* t, int nd, int at) noexcept:
    """Gives the bound nd-dimensional t a dimension of size 1 at `at` (stride 0: never
    stepped), without a NumPy view: np.expand_dims costs more than the rest of a small call."""
    cdef int i = nd
    while i > at:
        t.sizes[i] = t.sizes[i - 1]
        t.strides[i] = t.strides[i - 1]
        i -= 1
    t.sizes[at] = 1
    t.strides[at] = 0
    t.buffer_desc.DimensionCount = nd + 1


cdef void bind_pair(Tensor* t, uint64_t* pair, int nd, int dml_type, int itemsize) noexcept:
    """t as a ValuesTensor of nd dimensions, sizes {1, ..., 1, 2}, over pair's two elements."""
    cdef int i
    for i in range(nd):
        t.sizes[i] = 1
        t.strides[i] = 0
    t.sizes[nd - 1] = 2
    t.strides[nd - 1] = 1
    bind_buffer(t, pair, nd, dml_type, itemsize)


cdef tuple off_on(object values, cnp.dtype dt):
    """values as (OffValue, OnValue), each dt's bytes: a pair of real numbers, or a
    2-element ndarray (any shape) whose elements are taken in its row-major order."""
    if isinstance(values, np.ndarray):
        if values.size != 2:
            raise ValueError(f"one_hot: values has {values.size} elements (shape {values.shape}), expected 2 "
                             f"(off, on)")
        pair = values.reshape(-1)
        pair = (pair[0], pair[1])
    elif isinstance(values, (list, tuple)):
        if len(values) != 2:
            raise ValueError(f"one_hot: values has {len(values)} items, expected 2 (off, on)")
        pair = values
    else:
        raise TypeError(f"one_hot: values must be a pair (off, on) or a 2-element ndarray, "
                        f"not {type(values).__name__}")
    for k in range(2):
        v = pair[k]
        if isinstance(v, (complex, np.complexfloating)) or not isinstance(v, (numbers.Real, np.number, decimal.Decimal)):
            raise TypeError(f"one_hot: values[{k}] must be a real number, not {type(v).__name__}")
    return value_bytes(pair[0], dt, "one_hot"), value_bytes(pair[1], dt, "one_hot")


def one_hot(indices: ArrayLike, depth: int, *, axis: int = -1, values: Union[Sequence[float], np.ndarray] = _DEFAULT_VALUES,
            dtype: Optional[DTypeLike] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
    """One-hot encode integer indices (DirectML ONE_HOT).

    The result has ``indices``' shape with ``depth`` inserted at ``axis``; along that axis
    each sequence is ``off`` everywhere but at the position its index names, which is
    ``on``.  For in-range indices and ``axis=-1`` this is ``np.eye(depth, dtype=dtype)[indices]``
    (with ``off``/``on`` 0/1) and ``torch.nn.functional.one_hot(indices, depth)`` (which
    returns int64); for any ``axis`` and ``values`` it is ONNX ``OneHot``.

    Parameters
    ----------
    indices : array_like of int
        Any integer dtype (int32, int64, uint32 and uint64 go to the core as they are,
        narrower ones are widened; bool and float raise ``TypeError``), 0 to 7 dimensions.
        A negative index counts from the end (``i + depth``); an index still outside
        ``[0, depth)`` leaves its whole sequence at ``off`` (no ``IndexError``).
    depth : int
        The size of the new axis, 0 or more (0 gives an empty result).
    axis : int, default -1
        Where the new axis goes in the result: ``-(q+1) <= axis <= q`` for ``q``-dimensional
        indices (-1 appends it, as ``torch.nn.functional.one_hot``; ONNX's ``axis``).
    values : pair of real numbers or 2-element ndarray, default (0, 1)
        ``(off, on)``.  Python numbers are converted to ``dtype`` as ``dmlc.pad`` converts its
        value (integers truncate toward zero and saturate, NaN becomes 0; floats round to
        nearest even); NumPy scalars of ``dtype`` keep their bits.
    dtype : dtype-like, optional
        The result's dtype, one of the eleven; None means ``values.dtype`` when ``values`` is
        an ndarray, else float32.
    out : ndarray, optional
        Where to write: the result's shape and dtype, any strides.

    Returns
    -------
    ndarray
        ``indices.shape[:axis] + (depth,) + indices.shape[axis:]`` (``axis`` made
        non-negative), of ``dtype``.

    Notes
    -----
    ``one_hot(i, n)`` equals ``np.where(np.arange(n) == np.where(i < 0, i + n, i)[..., None],
    on, off)``; ``np.eye(n)[i]`` and PyTorch raise on out-of-range indices, where dmlc
    (as DirectML and ONNX) gives a sequence of ``off``.

    Examples
    --------
    >>> import dmlc
    >>> dmlc.one_hot([0, 3, -1, 7], 4, dtype="int8")
    array([[1, 0, 0, 0],
           [0, 0, 0, 1],
           [0, 0, 0, 1],
           [0, 0, 0, 0]], dtype=int8)
    >>> dmlc.one_hot([2, 0], 3, axis=0, values=(-1.0, 5.0))
    array([[-1.,  5.],
           [-1., -1.],
           [ 5., -1.]], dtype=float32)
    """
    cdef cnp.ndarray ix = index_input(indices, "one_hot", "indices")
    cdef int q = cnp.PyArray_NDIM(ix), D
    cdef cnp.ndarray result
    cdef uint64_t pair[2]  # (off, on): the ValuesTensor's two elements, 8-byte aligned
    cdef int dml_type
    cdef cnp.dtype dt
    cdef Tensor tidx, tval, tout
    cdef DML_ONE_HOT_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    if q > 7:
        raise ValueError(f"one_hot: indices has {q} dimensions, expected at most 7 (the result has one more, and "
                         f"DirectML tensors have at most 8)")
    n = index_of(depth, "one_hot", "depth")
    if n < 0 or n > 0xFFFFFFFF:
        raise ValueError(f"one_hot: depth is {n}, expected 0 to 4294967295 (a DirectML size)")
    ax = index_of(axis, "one_hot", "axis")
    if ax < -(q + 1) or ax > q:
        raise ValueError(f"one_hot: axis is {ax}, expected {-(q + 1)} to {q} (indices has {q} dimensions, the "
                         f"result {q + 1})")
    if ax < 0:
        ax += q + 1
    if dtype is None:
        dt = dtype_arg(values.dtype, "one_hot", "values.dtype") if isinstance(values, np.ndarray) else _FLOAT32
    else:
        dt = dtype_arg(dtype, "one_hot")
    if values is _DEFAULT_VALUES:
        pair_bytes = _DEFAULT_BYTES.get(dt)
        if pair_bytes is None:
            pair_bytes = _DEFAULT_BYTES[dt] = off_on(values, dt)
        off, on = pair_bytes
    else:
        off, on = off_on(values, dt)
    shape = (<object>ix).shape[:ax] + (n,) + (<object>ix).shape[ax:]
    result = as_output(out, shape, dt, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    D = q + 1
    if out is not None and may_overlap(ix, result):
        ix = ix.copy()  # read from a copy, as NumPy's ufuncs do
    dml_type = dml_type_of(result, "out")
    bind(&tidx, ix, dml_type_of(ix, "indices"))
    insert_unit_dimension(&tidx, q, ax)  # DirectML's IndicesTensor has size 1 at Axis
    memcpy(pair, <const char*>off, dt.itemsize)
    memcpy(<char*>pair + dt.itemsize, <const char*>on, dt.itemsize)
    bind_pair(&tval, pair, D, dml_type, dt.itemsize)
    bind(&tout, result, dml_type)
    d.IndicesTensor = &tidx.desc
    d.ValuesTensor = &tval.desc
    d.OutputTensor = &tout.desc
    d.Axis = <unsigned>ax
    op.Type = DML_OPERATOR_ONE_HOT
    op.Desc = &d
    ins[0] = tidx.binding
    ins[1] = tval.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)
