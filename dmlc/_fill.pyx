# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE and DIAGONAL_MATRIX1 for arrays: fill the desc; the
core does the rest.

The functions are defined here, not in a Python wrapper (dmlc.fill re-exports them), so a
small call runs no Python frame; annotation_typing=False keeps annotations documentation.
"""
import numbers
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_TENSOR_DESC, DML_SCALAR_UNION, DML_FILL_VALUE_CONSTANT_OPERATOR_DESC,
                         DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, DML_DIAGONAL_MATRIX1_OPERATOR_DESC,
                         DML_OPERATOR_FILL_VALUE_CONSTANT, DML_OPERATOR_FILL_VALUE_SEQUENCE,
                         DML_OPERATOR_DIAGONAL_MATRIX1, DML_TENSOR_DATA_TYPE, DMLC_BUFFER_BINDING, as_input,
                         as_output, bind, dml_type_of, execute, finish_output, run_unary)

from dmlc._args import dtype_arg, index_of
from dmlc._padding_value import value_bytes

cnp.import_array()


cdef tuple shape_arg(object shape, str fname):
    """shape as a tuple of 0 to 8 Python ints >= 0 (an int is a 1-d shape)."""
    if isinstance(shape, (bool, np.bool_)):
        raise TypeError(f"{fname}: shape must be an int or a sequence of ints, not bool")
    if hasattr(shape, "__index__"):
        shape = (index_of(shape, fname, "shape"),)
    elif isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__"):
        raise TypeError(f"{fname}: shape must be an int or a sequence of ints, not {type(shape).__name__}")
    else:
        shape = tuple([index_of(v, fname, f"shape[{i}]") for i, v in enumerate(shape)])
    if len(shape) > 8:
        raise ValueError(f"{fname}: shape has {len(shape)} dimensions; DirectML tensors have at most 8")
    for i, v in enumerate(shape):
        if v < 0:
            raise ValueError(f"{fname}: shape[{i}] is {v}, expected 0 or more")
        if v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: shape[{i}] is {v}; DirectML sizes are 32-bit (at most 4294967295)")
    return shape


cdef object run_fill(DML_OPERATOR_DESC* op, const DML_TENSOR_DESC** slot, tuple shape, cnp.dtype dt, object out,
                     bint absent_input=False):
    """Binds the output (out, or a new array) of shape as the desc's only tensor and executes.
    absent_input: the desc has one input slot whose optional tensor is left out (DIAGONAL_MATRIX1
    without InputTensor), bound with Buffer NULL."""
    cdef Tensor tout
    cdef DMLC_BUFFER_BINDING none
    cdef cnp.ndarray r = as_output(out, shape, dt, "out")
    cdef cnp.ndarray view = r
    if cnp.PyArray_SIZE(r) == 0:
        return finish_output(r, out)
    if len(shape) == 0:  # DirectML tensors have at least one dimension
        view = r.reshape(1)
    bind(&tout, view, dml_type_of(view, "out"))
    slot[0] = &tout.desc
    none.Buffer = NULL
    none.Offset = 0
    none.SizeInBytes = 0
    execute(op, 1 if absent_input else 0, &none if absent_input else NULL, 1, &tout.binding)
    return finish_output(r, out)


def fill_constant(shape: Union[int, Sequence[int]], value: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
    """An array of one value (DirectML FILL_VALUE_CONSTANT): ``np.full(shape, value, dtype)``.

    Parameters
    ----------
    shape : int or sequence of int
        0 to 8 sizes, each 0 or more (``()`` gives a 0-d array; a size 0 an empty one).
    value : real number
        Converted to ``dtype`` as ``dmlc.pad`` converts its value: integers truncate toward
        zero and saturate to the dtype's range, NaN becomes 0; float dtypes round to nearest
        even (overflowing to infinity).  Python ints are exact (int64/uint64 values a float
        cannot hold included); a NumPy scalar of ``dtype`` keeps its bits (a NaN payload).
    dtype : dtype-like
        One of the eleven dtypes (``"f2"``, ``np.int64``...); bool and complex raise
        ``TypeError``.
    out : ndarray, optional
        Where to write: ``shape`` and ``dtype``, any strides.

    Returns
    -------
    ndarray
        The filled array (``out`` if given).

    Examples
    --------
    >>> import dmlc
    >>> dmlc.fill_constant((2, 3), -1.7, "int8")
    array([[-1, -1, -1],
           [-1, -1, -1]], dtype=int8)
    """
    cdef cnp.dtype dt = dtype_arg(dtype, "fill_constant")
    cdef tuple sh = shape_arg(shape, "fill_constant")
    cdef bytes bits = value_bytes(value, dt, "fill_constant")
    cdef DML_FILL_VALUE_CONSTANT_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    d.ValueDataType = <DML_TENSOR_DATA_TYPE>dml_type_of(np.empty(0, dt), "dtype")
    memset(d.Value.Bytes, 0, 8)
    memcpy(d.Value.Bytes, <const char*>bits, len(bits))
    op.Type = DML_OPERATOR_FILL_VALUE_CONSTANT
    op.Desc = &d
    return run_fill(&op, &d.OutputTensor, sh, dt, out)


cdef int sequence_value(object v, cnp.dtype dt, str argname, DML_SCALAR_UNION* u) except -1:
    """start/delta into the union: integer dtypes take ints in [-2^(w-1), 2^w - 1] modulo 2^w;
    float dtypes round any real number to dtype (nearest even)."""
    w = dt.itemsize * 8  # a Python int: 1 << 64 must not overflow
    memset(u.Bytes, 0, 8)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, np.number)) \
            or isinstance(v, np.complexfloating):
        raise TypeError(f"fill_sequence: {argname} must be a real number, not {type(v).__name__}")
    if dt.kind == "f":
        bits = value_bytes(v, dt, "fill_sequence")
        memcpy(u.Bytes, <const char*>bits, dt.itemsize)
        return 0
    if not isinstance(v, numbers.Integral):
        raise TypeError(f"fill_sequence: {argname} is {v!r}; {dt} takes an integer {argname}")
    v = int(v)
    if v < -(1 << (w - 1)) or v > (1 << w) - 1:
        raise ValueError(f"fill_sequence: {argname} is {v}, expected {-(1 << (w - 1))} to {(1 << w) - 1} for {dt} "
                         f"(taken modulo 2**{w})")
    v %= 1 << w
    if w == 8:
        u.UInt8 = v
    elif w == 16:
        u.UInt16 = v
    elif w == 32:
        u.UInt32 = v
    else:
        u.UInt64 = v
    return 0


def fill_sequence(shape: Union[int, Sequence[int]], start: float, delta: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
    """An arithmetic sequence in row-major order (DirectML FILL_VALUE_SEQUENCE).

    Element k (its row-major number) is ``start + k * delta``: for integers
    ``np.arange(n, dtype=dtype) * delta + start`` (wrapping modulo 2**bits, as
    ``torch.arange`` for integer steps), reshaped to ``shape``.  Floats compute
    ``k * delta`` then ``+ start`` in float64, each rounded (never a fused multiply-add), then
    round once to ``dtype``: ``(np.arange(n) * delta + start).astype(dtype)`` exactly, which
    stays within one rounding of the exact value (an accumulated ``value += delta`` would not).

    Parameters
    ----------
    shape : int or sequence of int
        0 to 8 sizes, each 0 or more.
    start, delta : int or float
        Integer dtypes: integers in ``[-2**(w-1), 2**w - 1]`` (w the dtype's bits), taken
        modulo ``2**w`` (so ``delta=-2`` counts down in uint8 too); a float is a
        ``TypeError``, a wider integer a ``ValueError``.  Float dtypes: any real numbers,
        first rounded to ``dtype``.
    dtype : dtype-like
        One of the eleven dtypes.
    out : ndarray, optional
        Where to write: ``shape`` and ``dtype``, any strides (k stays the row-major number).

    Returns
    -------
    ndarray
        The sequence (``out`` if given).

    Examples
    --------
    >>> import dmlc
    >>> dmlc.fill_sequence((2, 2), 10, -2, "uint8")
    array([[10,  8],
           [ 6,  4]], dtype=uint8)
    >>> dmlc.fill_sequence(5, 3.2, 1.5, "float32")
    array([3.2, 4.7, 6.2, 7.7, 9.2], dtype=float32)
    """
    cdef cnp.dtype dt = dtype_arg(dtype, "fill_sequence")
    cdef tuple sh = shape_arg(shape, "fill_sequence")
    cdef DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    sequence_value(start, dt, "start", &d.ValueStart)
    sequence_value(delta, dt, "delta", &d.ValueDelta)
    d.ValueDataType = <DML_TENSOR_DATA_TYPE>dml_type_of(np.empty(0, dt), "dtype")
    op.Type = DML_OPERATOR_FILL_VALUE_SEQUENCE
    op.Desc = &d
    return run_fill(&op, &d.OutputTensor, sh, dt, out)


cdef int diagonal_bound(object v, str fname, str argname, object default, long long lo, long long hi) except? -1:
    """begin/end/offset as a Python int in [lo, hi] (None: default)."""
    if v is None and default is not None:
        return default
    v = index_of(v, fname, argname)
    if v < lo or v > hi:
        raise ValueError(f"{fname}: {argname} is {v}, expected {lo} to {hi} (a DirectML INT)")
    return v


cdef int diagonal_value(object value, cnp.dtype dt, str fname, DML_SCALAR_UNION* u) except -1:
    """value converted as dmlc.pad converts its value, into the union's low bytes."""
    cdef bytes bits = value_bytes(value, dt, fname)
    memset(u.Bytes, 0, 8)
    memcpy(u.Bytes, <const char*>bits, len(bits))
    return 0


def diagonal_matrix(shape: Sequence[int], dtype: DTypeLike = "float32", *, offset: int = 0, value: float = 1,
                    out: Optional[np.ndarray] = None) -> np.ndarray:
    """A stack of identity-like matrices (DirectML DIAGONAL_MATRIX, run as DIAGONAL_MATRIX1).

    ``result[..., y, x]`` is ``value`` where ``x - y == offset`` and 0 elsewhere: for 2-d
    shapes ``np.eye(n, m, k=offset, dtype=dtype) * value``; leading dimensions are batches
    (``torch.eye(n, m).expand(*batch, n, m)``, ONNX EyeLike per matrix).

    Parameters
    ----------
    shape : sequence of int
        2 to 8 sizes, each 0 or more (a size 0 gives an empty array); the last two are the
        matrices' rows and columns, which need not be square.
    dtype : dtype-like, default "float32"
        One of the eleven dtypes (``"f2"``, ``np.int64``...); bool and complex raise
        ``TypeError``.
    offset : int, default 0
        The diagonal: positive to the right of the main one, negative below it.  ``offset``
        and ``offset + 1`` must be DirectML INTs: ``-2**31 <= offset <= 2**31 - 2``.
    value : real number, default 1
        Converted as ``dmlc.pad`` converts its value: integers truncate toward zero and
        saturate, NaN becomes 0, floats round to nearest even; Python ints are exact for
        int64/uint64, and a NumPy scalar of ``dtype`` keeps its bits.
    out : ndarray, optional
        Where to write: ``shape`` and ``dtype``, any strides.

    Returns
    -------
    ndarray
        The matrices (``out`` if given).

    Examples
    --------
    >>> import dmlc
    >>> dmlc.diagonal_matrix((2, 3), "int32", offset=1, value=7)
    array([[0, 7, 0],
           [0, 0, 7]], dtype=int32)
    """
    cdef cnp.dtype dt = dtype_arg(dtype, "diagonal_matrix")
    cdef tuple sh = shape_arg(shape, "diagonal_matrix")
    cdef DML_DIAGONAL_MATRIX1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if len(sh) < 2:
        raise ValueError(f"diagonal_matrix: shape has {len(sh)} dimensions, expected 2 to 8 (a stack of matrices)")
    d.DiagonalFillBegin = diagonal_bound(offset, "diagonal_matrix", "offset", None, -(1 << 31), (1 << 31) - 2)
    d.DiagonalFillEnd = d.DiagonalFillBegin + 1
    diagonal_value(value, dt, "diagonal_matrix", &d.Value)
    d.ValueDataType = <DML_TENSOR_DATA_TYPE>dml_type_of(np.empty(0, dt), "dtype")
    d.InputTensor = NULL
    op.Type = DML_OPERATOR_DIAGONAL_MATRIX1
    op.Desc = &d
    return run_fill(&op, &d.OutputTensor, sh, dt, out, True)


def diagonal_fill(x: ArrayLike, begin: Optional[int], end: Optional[int], value: float = 0, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
    """x with a band of diagonals set to value (DirectML DIAGONAL_MATRIX1 with an InputTensor).

    The last two dimensions are the matrices (rows y, columns x), the others batches.
    ``result[..., y, x]`` is ``value`` where the diagonal ``x - y`` lies in
    ``[begin, end)``, or, when ``end < begin``, outside ``[end, begin)``; elsewhere
    ``x[..., y, x]``.  ``begin == end`` selects nothing.  So ``np.triu(x, k)`` is
    ``diagonal_fill(x, None, k)``, ``np.tril(x, k)`` is ``diagonal_fill(x, k + 1, None)``
    (``torch.triu``/``torch.tril``, ONNX Trilu), and ``diagonal_fill(x, 0, 1, v)`` is
    ``np.fill_diagonal`` on every matrix (``torch.diagonal(x, dim1=-2, dim2=-1).fill_(v)``).

    Parameters
    ----------
    x : array_like
        2 to 8 dimensions, any of the eleven dtypes; views are read in place.
    begin, end : int or None
        DirectML INTs (``-2**31`` to ``2**31 - 1``); None means ``-2**31`` for ``begin`` and
        ``2**31 - 1`` for ``end``.
    value : real number, default 0
        Converted to x's dtype as ``dmlc.pad`` converts its value.
    out : ndarray, optional
        Where to write: x's shape and dtype, any strides.  An ``out`` sharing memory with
        ``x`` reads x from a copy.

    Returns
    -------
    ndarray
        The result (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.diagonal_fill(np.arange(1, 10).reshape(3, 3), None, 0)
    array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]])
    """
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_DIAGONAL_MATRIX1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if nd < 2 or nd > 8:
        raise ValueError(f"diagonal_fill: x has {nd} dimensions, expected 2 to 8 (a stack of matrices)")
    d.DiagonalFillBegin = diagonal_bound(begin, "diagonal_fill", "begin", -(1 << 31), -(1 << 31), (1 << 31) - 1)
    d.DiagonalFillEnd = diagonal_bound(end, "diagonal_fill", "end", (1 << 31) - 1, -(1 << 31), (1 << 31) - 1)
    diagonal_value(value, a.dtype, "diagonal_fill", &d.Value)
    d.ValueDataType = <DML_TENSOR_DATA_TYPE>dml_type
    d.InputTensor = &tin.desc
    op.Type = DML_OPERATOR_DIAGONAL_MATRIX1
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, "diagonal_fill")
