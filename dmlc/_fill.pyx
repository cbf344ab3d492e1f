# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE for arrays: fill the desc; the core does the rest.

The functions are defined here, not in a Python wrapper (dmlc.fill re-exports them), so a
small call runs no Python frame; annotation_typing=False keeps annotations documentation.
"""
import numbers
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import DTypeLike

cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_TENSOR_DESC, DML_SCALAR_UNION, DML_FILL_VALUE_CONSTANT_OPERATOR_DESC,
                         DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, DML_OPERATOR_FILL_VALUE_CONSTANT,
                         DML_OPERATOR_FILL_VALUE_SEQUENCE, DML_TENSOR_DATA_TYPE, as_output, bind, dml_type_of,
                         execute, finish_output)

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


cdef object run_fill(DML_OPERATOR_DESC* op, const DML_TENSOR_DESC** slot, tuple shape, cnp.dtype dt, object out):
    """Binds the output (out, or a new array) of shape as the desc's only tensor and executes."""
    cdef Tensor tout
    cdef cnp.ndarray r = as_output(out, shape, dt, "out")
    cdef cnp.ndarray view = r
    if cnp.PyArray_SIZE(r) == 0:
        return finish_output(r, out)
    if len(shape) == 0:  # DirectML tensors have at least one dimension
        view = r.reshape(1)
    bind(&tout, view, dml_type_of(view, "out"))
    slot[0] = &tout.desc
    execute(op, 0, NULL, 1, &tout.binding)
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
