# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""NONZERO_COORDINATES for arrays: the index dtype checked here, the rest in the core.

dmlc.nonzero_coordinates is defined here (dmlc.nonzero re-exports it), so x goes through
the binding's one input path (as_ndarray / as_input).
"""
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_NONZERO_COORDINATES_OPERATOR_DESC,
                         DML_OPERATOR_NONZERO_COORDINATES, DMLC_BUFFER_BINDING, as_input, as_ndarray, bind,
                         dml_type_of, execute)

from dmlc._args import indices_dtype_of
from dmlc._pool cimport new_array

cnp.import_array()


def nonzero_coordinates(x: ArrayLike, *, indices_dtype: DTypeLike = "int64") -> np.ndarray:
    """Coordinates of the non-zero elements, one row each (DirectML NONZERO_COORDINATES).

    An element is non-zero unless it equals 0: ``-0.0`` and ``+0.0`` are zero, a NaN is
    not.  The rows follow the elements' row-major order, as ``np.argwhere(x)`` and
    ``torch.nonzero(x)``; ONNX NonZero returns the transpose.

    The core writes DirectML's worst case, ``x.size`` rows of which the rows past the
    count are zero, into scratch memory; the result is a fresh C-contiguous array of the
    counted rows.  There is no ``out=``: the result's size depends on the data.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    indices_dtype : dtype
        int64 (the default), int32, uint64 or uint32; it must hold ``x.size`` (the count).

    Returns
    -------
    ndarray
        Shape ``(count, x.ndim)``, dtype ``indices_dtype``.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[0, 5, 0], [7, 0, -0.0]], np.float32)
    >>> dmlc.nonzero_coordinates(x)     # np.argwhere(x), torch.nonzero(x)
    array([[0, 1],
           [1, 0]])
    >>> dmlc.nonzero_coordinates(np.array([np.nan, 0.0, -0.0, 2.0]), indices_dtype="uint32")
    array([[0],
           [3]], dtype=uint32)
    """
    cdef str fname = "nonzero_coordinates"
    cdef cnp.ndarray a = as_ndarray(x, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef int dml_type, index_type
    cdef Tensor tin, tcount, tcoords
    cdef DMLC_BUFFER_BINDING outs[2]
    cdef DML_NONZERO_COORDINATES_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray count, coords
    cdef cnp.npy_intp dims[2]
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    dtype = indices_dtype_of(indices_dtype, fname)
    a = as_input(a, "x")
    dml_type = dml_type_of(a, "x")
    if cnp.PyArray_SIZE(a) == 0:
        return np.empty((0, nd), dtype)
    # The scratch rows in 4-byte indices where they hold every value (half the memory of
    # int64's worst case, most of which is the zeroed tail), from the output pool, which
    # keeps the memory faulted in for the next call; the counted rows are then converted.
    # A requested 4-byte type is the scratch's own, so the core's check of its range holds.
    scratch = dtype if dtype.itemsize == 4 or cnp.PyArray_SIZE(a) > 0xFFFFFFFF else np.dtype(np.uint32)
    count = np.empty((1,), scratch)
    dims[0] = cnp.PyArray_SIZE(a)
    dims[1] = nd
    coords = new_array(2, dims, (<cnp.dtype>scratch).type_num, (<cnp.dtype>scratch).itemsize)
    index_type = dml_type_of(count, "indices")
    bind(&tin, a, dml_type)
    bind(&tcount, count, index_type)
    bind(&tcoords, coords, index_type)
    d.InputTensor = &tin.desc
    d.OutputCountTensor = &tcount.desc
    d.OutputCoordinatesTensor = &tcoords.desc
    outs[0] = tcount.binding
    outs[1] = tcoords.binding
    op.Type = DML_OPERATOR_NONZERO_COORDINATES
    op.Desc = &d
    execute(&op, 1, &tin.binding, 2, outs)
    return coords[:int(count[0])].astype(dtype)
