# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""CAST for arrays: fills the desc; the core does the rest.

dmlc.cast is defined here, not in a Python wrapper (dmlc.cast re-exports it), so a small
call runs no Python frame; annotation_typing=False keeps its annotations documentation only.
"""
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_CAST_OPERATOR_DESC, DML_OPERATOR_CAST, as_input,
                         dml_type_of, run_unary)

from dmlc._args import check_out, dtype_arg

cnp.import_array()


def cast(x: ArrayLike, dtype: DTypeLike, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Convert an array to another dtype (DirectML CAST): ``x.astype(dtype)`` with defined edges.

    Any of the eleven dtypes to any of the eleven.  The conversions, exactly:

    * same dtype: a copy of the bits;
    * float to float and integer to float: round to nearest even, overflow to ``±inf``,
      subnormals and ``-0.0`` kept, NaN stays NaN (its payload is not kept); a 64-bit
      integer rounds once from its exact value (``np.int64(2**53 + 2**29 + 1)`` becomes the
      float32 ``2**53 + 2**30``, not ``2**53`` as a detour through float64 would give);
    * float to integer: truncate toward zero, then saturate to the dtype's range (``±inf``
      too), and **NaN becomes 0** (NumPy and ONNX leave these cases undefined; PyTorch gives
      platform-dependent values);
    * integer to integer: the low bits, two's complement (int32 200 becomes int8 -56, uint64
      ``2**64 - 1`` becomes int64 -1), as NumPy, PyTorch and ONNX Runtime do.

    Parameters
    ----------
    x : array_like
        0 to 8 dimensions, any of the eleven supported dtypes; views (strided, broadcast)
        are read in place.
    dtype : dtype-like
        The result's dtype: anything ``np.dtype()`` accepts that names float16, float32,
        float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64 (``"f2"``,
        ``np.int64``...).  bool, complex and other dtypes raise ``TypeError``.
    out : ndarray, optional
        Where to write the result: x's shape, ``dtype``, any strides.  It must not share
        memory with ``x``.

    Returns
    -------
    ndarray
        The converted array (``out`` if given).

    See Also
    --------
    numpy.ndarray.astype, torch.Tensor.to : the same where their results are defined.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.cast(np.array([-1.7, 2.5, np.nan, np.inf, 300.0]), "int8")
    array([ -1,   2,   0, 127, 127], dtype=int8)
    >>> dmlc.cast(np.array([200, -1], np.int32), np.uint8)
    array([200, 255], dtype=uint8)
    """
    cdef cnp.dtype dt = dtype_arg(dtype, "cast")
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef Tensor tin
    cdef DML_CAST_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if nd > 8:
        raise ValueError(f"cast: x has {nd} dimensions; DirectML tensors have at most 8")
    if nd == 0:  # DirectML tensors have at least one dimension: one element of shape (1,)
        r = cast(a.reshape(1), dt).reshape(())
        if out is None:
            return r
        check_out(out, (), dt)[...] = r
        return out
    d.InputTensor = &tin.desc
    op.Type = DML_OPERATOR_CAST
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, "cast", False, dt)
