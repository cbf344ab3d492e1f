# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""ROI_POOLING for arrays: x, a table of regions, fitted to the desc; the core checks and runs it.

dmlc.roi_pool is defined here, not in a Python wrapper (dmlc.roi re-exports it), so a small call
runs no Python frame; annotation_typing=False keeps its annotations documentation only.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_ROI_POOLING_OPERATOR_DESC, DML_OPERATOR_ROI_POOLING,
                         DML_TENSOR_DESC, DMLC_BUFFER_BINDING, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, infer_shape, may_overlap)

from dmlc._args import ints_per_axis
from dmlc._core import schema_dtypes

cnp.import_array()

# The data types ROI_POOLING's schema entry accepts (src/schema.def), and their names.
cdef tuple _DTYPES = schema_dtypes("ROI_POOLING")
cdef str _DTYPE_NAMES = " or ".join(", ".join(str(dt) for dt in _DTYPES).rsplit(", ", 1))


cdef cnp.ndarray float_input(object x, str fname):
    """x as a float16/32/64 ndarray with 4 dimensions (N, C, H, W)."""
    cdef cnp.ndarray a = as_input(x, "x")
    if a.dtype not in _DTYPES:
        raise TypeError(f"{fname}: x has dtype {a.dtype}; {fname} takes {_DTYPE_NAMES}")
    if cnp.PyArray_NDIM(a) != 4:
        raise ValueError(f"{fname}: x has {cnp.PyArray_NDIM(a)} dimensions, expected 4 (N, C, H, W)")
    return a


cdef cnp.ndarray region_table(object rois, int cols, cnp.ndarray a, str fname, str what):
    """rois as an (R, cols) array of x's dtype (any dtype dmlc supports, converted)."""
    cdef cnp.ndarray r = as_ndarray(rois, "rois")
    if cnp.PyArray_SIZE(r) == 0 and not isinstance(rois, np.ndarray):
        r = r.astype(a.dtype).reshape(0, cols)  # [] is a float64 (0,) array to NumPy: no regions
    r = as_input(r, "rois")  # the dtypes dmlc supports (any of them is converted to x's)
    if cnp.PyArray_NDIM(r) != 2 or (<object>r).shape[1] != cols:
        raise ValueError(f"{fname}: rois has shape {(<object>r).shape}, expected (R, {cols}): rows {what}")
    return as_input(r.astype(a.dtype, copy=False), "rois")


cdef float real_arg(object value, str fname, str argname) except? -1:
    """A float argument: a Python or NumPy real number (a bool or anything else is a TypeError)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{fname}: {argname} must be a real number, not {type(value).__name__}")
    return <float>float(value)


cdef object run_regions(DML_OPERATOR_DESC* op, cnp.ndarray a, int dml_type, Tensor* tin, cnp.ndarray r,
                        Tensor* troi, const DML_TENSOR_DESC** slot, object out, str fname):
    """The ending the ROI functions share: the output's shape from the core, out= checked,
    empty results returned, inputs that share out='s memory read from copies, then the call."""
    cdef Tensor tout
    cdef DMLC_BUFFER_BINDING ins[2]
    cdef cnp.ndarray result
    bind(tin, a, dml_type)
    bind(troi, r, dml_type)
    slot[0] = NULL
    result = as_output(out, infer_shape(op, 0, 1, 0), a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:
        raise ValueError(f"{fname}: x has shape {(<object>a).shape}: there is nothing to pool the regions from")
    if out is not None:
        # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
        if may_overlap(a, result):
            a = a.copy()
            bind(tin, a, dml_type)
        if may_overlap(r, result):
            r = r.copy()
            bind(troi, r, dml_type)
    bind(&tout, result, dml_type)
    slot[0] = &tout.desc
    ins[0] = tin.binding
    ins[1] = troi.binding
    execute(op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def roi_pool(x: ArrayLike, rois: ArrayLike, pooled_size: Union[int, Sequence[int]], spatial_scale: float = 1.0, *,
             out: Optional[np.ndarray] = None) -> np.ndarray:
    """Max pooling over regions of interest (DirectML ROI_POOLING; Caffe's and ONNX's MaxRoiPool).

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        float16, float32 or float64.
    rois : array_like, shape (R, 5)
        One region per row, ``[batch, x1, y1, x2, y2]`` in the coordinates ``spatial_scale``
        takes to x's; any dtype dmlc supports, converted to x's.  ``batch`` is truncated toward zero
        and must land in ``[0, N)``; every value must be finite (ValueError otherwise).
    pooled_size : int or (int, int)
        The output's (height, width) per region; one int for both.
    spatial_scale : float, default 1.0
        Multiplies the corners (finite; in float32, float64 for float64 x).
    out : ndarray, optional
        Where to write the result: x's dtype and shape ``(R, C, height, width)``; it may be a
        strided view.

    Returns
    -------
    ndarray
        Shape ``(R, C, height, width)``, x's dtype: the maximum of each bin of each region.

    Notes
    -----
    Caffe's rule, as DirectML's page writes it: each corner times ``spatial_scale`` is
    rounded half away from zero; the region spans ``RH = max(y2 - y1 + 1, 1)`` rows and
    ``RW = max(x2 - x1 + 1, 1)`` columns (an inverted box is one pixel wide); bin ``(i, j)``
    covers rows ``y1 + floor(i * RH / height)`` up to (not including) ``y1 + ceil((i + 1) *
    RH / height)``, columns likewise, clipped to x.  Its value is the largest element (a
    NaN wins), copied bit for bit; a bin wholly outside x gives 0.  In NumPy, per region::

        b, x1, y1, x2, y2 = int(roi[0]), *(np.round(roi[1:] * scale))  # half away from zero
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        rows = slice(clip(y1 + i * rh // h), clip(y1 + -(-(i + 1) * rh // h)))
        out[r, :, i, j] = x[b, :, rows, cols].max(axis=(1, 2))  # or 0 when empty

    ONNX ``MaxRoiPool(pooled_shape, spatial_scale)`` is ``roi_pool(x, rois, pooled_shape,
    spatial_scale)``, the same result.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> dmlc.roi_pool(x, [[0, 0, 0, 3, 3], [0, 1, 1, 2, 2]], 2)
    array([[[[ 5.,  7.],
             [13., 15.]]],
    <BLANKLINE>
    <BLANKLINE>
           [[[ 5.,  6.],
             [ 9., 10.]]]], dtype=float32)
    """
    cdef cnp.ndarray a = float_input(x, "roi_pool")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray r = region_table(rois, 5, a, "roi_pool", "[batch, x1, y1, x2, y2]")
    cdef Tensor tin, troi
    cdef DML_ROI_POOLING_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    height, width = ints_per_axis(pooled_size, 2, "roi_pool", "pooled_size", 1, 0xFFFFFFFF, per="pooled axis")
    d.InputTensor = &tin.desc
    d.ROITensor = &troi.desc
    d.SpatialScale = real_arg(spatial_scale, "roi_pool", "spatial_scale")
    d.PooledSize.Height = height
    d.PooledSize.Width = width
    op.Type = DML_OPERATOR_ROI_POOLING
    op.Desc = &d
    return run_regions(&op, a, dml_type, &tin, r, &troi, &d.OutputTensor, out, "roi_pool")
