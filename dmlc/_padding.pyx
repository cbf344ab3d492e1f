# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""PADDING1 for arrays: fills the desc; the core does the rest.

dmlc.pad is defined here, not in a Python wrapper (dmlc.padding re-exports it), so a
small call runs no Python frame; annotation_typing=False keeps its annotations
documentation only, never C types or exact-type checks.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from libc.string cimport memcpy, memset
from dmlc._core cimport (enum_arg, Tensor, DML_OPERATOR_DESC, DML_PADDING1_OPERATOR_DESC, DML_OPERATOR_PADDING1,
                         DML_PADDING_MODE, DML_PADDING_MODE_CONSTANT, DML_TENSOR_DATA_TYPE, UINT, as_input,
                         as_output, bind, dml_type_of, finish_output, infer_shape, run_unary, uints_per_axis)

from dmlc._enums import PaddingMode, spellings
from dmlc._padding_value import value_bytes

cnp.import_array()

cdef dict MODES = spellings(PaddingMode)
cdef bytes ZEROS = bytes(8)


cdef object pad_array(x, start_padding, end_padding, mode_arg, value, out, str fname):
    """pad's arguments as it takes them (mode_arg: its mode)."""
    cdef cnp.ndarray a
    cdef int dml_type, mode
    cdef int nd, i
    cdef UINT s[8]
    cdef UINT e[8]
    cdef Tensor tin
    cdef DML_PADDING1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray result
    cdef bytes bits
    mode = enum_arg(mode_arg, MODES, PaddingMode, fname, "mode")  # first, as before the call
    a = as_input(x, "x")
    dml_type = dml_type_of(a, "x")
    nd = cnp.PyArray_NDIM(a)
    if nd > 8:
        raise ValueError(f"array has {nd} dimensions; DirectML tensors have at most 8")
    uints_per_axis(start_padding, nd, fname, "start_padding", "dimension", 0, s)
    uints_per_axis(end_padding, nd, fname, "end_padding", "dimension", 0, e)
    if type(value) is int and value == 0:  # the default: no call, no dtype object
        bits = ZEROS
    else:
        bits = value_bytes(value, a.dtype)
    if nd == 0:  # DirectML tensors have at least one dimension; nothing to pad
        result = as_output(out, (), a.dtype, "out")
        np.copyto(result, a)
        return finish_output(result, out)
    d.InputTensor = &tin.desc
    d.OutputTensor = NULL
    d.PaddingMode = <DML_PADDING_MODE>mode
    d.PaddingValueDataType = <DML_TENSOR_DATA_TYPE>dml_type
    memset(d.PaddingValue.Bytes, 0, 8)
    memcpy(d.PaddingValue.Bytes, <const char*>bits, min(len(bits), 8))
    d.DimensionCount = nd
    d.StartPadding = s
    d.EndPadding = e
    op.Type = DML_OPERATOR_PADDING1
    op.Desc = &d
    if cnp.PyArray_SIZE(a) == 0:
        # Nothing to read: only a constant can fill the output (NumPy's rule too).
        bind(&tin, a, dml_type)
        result = as_output(out, infer_shape(&op, 0, 1, 0), a.dtype, "out")
        if cnp.PyArray_SIZE(result) and mode != DML_PADDING_MODE_CONSTANT:
            i = [k for k in range(nd) if a.shape[k] == 0][0]
            raise ValueError(f"{fname}: x.shape[{i}] is 0; an empty dimension can only be padded with "
                             f"mode 'constant'")
        result[...] = np.frombuffer(bits, a.dtype)[0]
        return finish_output(result, out)
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out)


def pad(x: ArrayLike, start_padding: Union[int, Sequence[int]], end_padding: Union[int, Sequence[int]], *,
        mode: Union[str, PaddingMode] = "constant", value: Union[int, float, np.generic] = 0,
        out: Optional[np.ndarray] = None) -> np.ndarray:
    """Pad an array at the start and end of every dimension (DirectML PADDING1).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.  Views with non-negative
        strides are read in place.
    start_padding, end_padding : int or sequence of int
        Elements added before and after each dimension (one per dimension of ``x``, or one
        int for all of them), 0 to 2**32 - 1.  Mirror and wrap padding may be wider than
        the dimension: it continues periodically.
    mode : {"constant", "edge", "reflection", "symmetric", "wrap"} or PaddingMode
        With ``t = o - start`` the input coordinate of output coordinate ``o`` and ``n``
        the input size, outside ``[0, n)``:

        - ``constant``: ``value``;
        - ``edge``: ``x[clip(t, 0, n-1)]``;
        - ``reflection`` (also ``"reflect"``, as ``np.pad``): mirror without repeating
          the edge, period ``2(n-1)``;
        - ``symmetric``: mirror repeating the edge, period ``2n``;
        - ``wrap``: ``x[t mod n]``.

        ``n == 1`` gives the single value in every mode but ``constant``.  These are
        ``np.pad``'s modes of the same names.
    value : real number, default 0
        The constant, converted to ``x.dtype``: integer dtypes truncate toward zero and
        saturate to the dtype's range (NaN gives 0); float dtypes round to nearest even.
        Python ints are converted exactly (an int64 beyond 2**53 stays exact), and a NumPy
        scalar of x's dtype is used bit for bit.  Ignored by the other modes.
    out : ndarray or writable CPU tensor, optional
        Where to write the result: x's dtype, shape ``x.shape + start + end``; an ndarray,
        or a PyTorch tensor or any object with ``__dlpack__``, the array interface or the
        buffer protocol, written in place and returned.

    Returns
    -------
    ndarray
        The padded array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.pad(np.array([1, 2, 3]), 2, 3, mode="reflection")
    array([3, 2, 1, 2, 3, 2, 1, 2])
    >>> dmlc.pad(np.array([1, 2, 3], np.uint8), [1], [1], value=-5.5)
    array([0, 1, 2, 3, 0], dtype=uint8)
    """
    return pad_array(x, start_padding, end_padding, mode, value, out, "pad")
