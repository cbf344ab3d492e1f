# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""NONZERO_COORDINATES for arrays: the index dtype checked here, the rest in the core.

dmlc.nonzero_coordinates is defined here (dmlc.nonzero re-exports it), so x goes through
the binding's one input path (as_ndarray / as_input).
"""
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_NONZERO_COORDINATES_OPERATOR_DESC,
                         DML_OPERATOR_NONZERO_COORDINATES, DML_TENSOR_DATA_TYPE_UINT32, DMLC_BUFFER_BINDING,
                         as_input, as_ndarray, bind, dml_type_of, execute)

from dmlc._args import indices_dtype_of
from dmlc._cast import cast
from dmlc._pool cimport new_array

cnp.import_array()

# The scratch of one call of the core, in bytes (see nonzero_coordinates).
_PART_BYTES = 8 << 20


def nonzero_coordinates(x: ArrayLike, *, indices_dtype: DTypeLike = "int64") -> np.ndarray:
    """Coordinates of the non-zero elements, one row each (DirectML NONZERO_COORDINATES).

    An element is non-zero unless it equals 0: ``-0.0`` and ``+0.0`` are zero, a NaN is
    not.  The rows follow the elements' row-major order, as ``np.argwhere(x)`` and
    ``torch.nonzero(x)``; ONNX NonZero returns the transpose.

    The core runs on parts of ``x`` of a few MiB of scratch each (DirectML's worst case,
    a row per element, zero past the count); the result is a fresh C-contiguous array of
    the counted rows.  There is no ``out=``: the result's size depends on the data.

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
    cdef int dml_type, c, k
    cdef Py_ssize_t n, inner, step, r, cnt, j0
    cdef cnp.ndarray scratch, res
    cdef cnp.npy_intp dims[2]
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    dtype = indices_dtype_of(indices_dtype, fname)
    a = as_input(a, "x")
    dml_type = dml_type_of(a, "x")
    n = cnp.PyArray_SIZE(a)
    if n == 0:
        return np.empty((0, nd), dtype)
    if dtype.itemsize == 4 and n > np.iinfo(dtype).max:
        raise ValueError(f"{fname}: indices_dtype is {dtype.name}, which cannot hold the count of x.size {n} "
                         "elements; use int64")
    # x goes to the core in parts of at most _PART_BYTES // (4 * nd) elements, whole runs of
    # the innermost axes: a part's scratch (DirectML's worst case, a row of 4-byte
    # coordinates per element, zero past the count) stays in the cache and in the output
    # pool, where x's own worst case (x.size rows) would be memory faulted in and zeroed.
    # Axis c is the one cut: the axes after it fit a part whole.
    cdef tuple shape = (<object>a).shape
    inner = 1
    c = nd
    while c > 0 and inner * shape[c - 1] <= _PART_BYTES // (4 * nd):
        c -= 1
        inner *= shape[c]
    if c == 0:  # x is one part: its counted rows converted by the core's CAST
        dims[0] = n
        dims[1] = nd
        scratch = new_array(2, dims, cnp.NPY_UINT32, 4)
        cnt = _core_rows(a, scratch, dml_type)
        return cast(scratch[:cnt], dtype)
    c -= 1
    step = max(1, _PART_BYTES // (4 * nd) // inner)
    dims[0] = step * inner * nd
    scratch = new_array(1, dims, cnp.NPY_UINT32, 4)
    # x's worst case as address space only: the pages the counted rows do not reach are never
    # touched, and the shrink at the end gives the rest back (realloc: no copy).
    res = np.empty((n, nd), dtype)
    r = 0
    for outer in np.ndindex(*shape[:c]):
        lead = tuple([slice(i, i + 1) for i in outer])
        for j0 in range(0, shape[c], step):
            part = a[lead + (slice(j0, j0 + step),)]  # every axis kept: the part's coordinates are x's
            rows = scratch[:part.size * nd].reshape(part.size, nd)
            cnt = _core_rows(part, rows, dml_type)
            if cnt:
                dst = res[r:r + cnt]
                cast(rows[:cnt], dtype, out=dst)
                if j0:
                    dst[:, c] += j0
                for k in range(c):
                    if outer[k]:
                        dst[:, k] = outer[k]
                r += cnt
    part = rows = dst = None
    res.resize((r, nd), refcheck=False)
    return res


cdef Py_ssize_t _core_rows(cnp.ndarray part, cnp.ndarray rows, int dml_type) except -1:
    """The core's NONZERO_COORDINATES of part into rows (UINT32, part.size rows of
    part.ndim coordinates, zero past the count); returns the count."""
    cdef Tensor tin, tcount, tcoords
    cdef DMLC_BUFFER_BINDING outs[2]
    cdef DML_NONZERO_COORDINATES_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef cnp.ndarray count = np.empty((1,), np.uint32)
    bind(&tin, part, dml_type)
    bind(&tcount, count, DML_TENSOR_DATA_TYPE_UINT32)
    bind(&tcoords, rows, DML_TENSOR_DATA_TYPE_UINT32)
    d.InputTensor = &tin.desc
    d.OutputCountTensor = &tcount.desc
    d.OutputCoordinatesTensor = &tcoords.desc
    outs[0] = tcount.binding
    outs[1] = tcoords.binding
    op.Type = DML_OPERATOR_NONZERO_COORDINATES
    op.Desc = &d
    execute(&op, 1, &tin.binding, 2, outs)
    return count[0]
