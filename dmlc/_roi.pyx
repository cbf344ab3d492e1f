# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""ROI_POOLING and ROI_ALIGN1 for arrays: x, a table of regions (and batch indices), fitted
to the desc; the core checks and runs it.

dmlc.roi_pool and dmlc.roi_align are defined here, not in a Python wrapper (dmlc.roi re-exports
them), so a small call runs no Python frame; annotation_typing=False keeps its annotations
documentation only.
"""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (UINT, Tensor, DML_OPERATOR_DESC, DML_ROI_POOLING_OPERATOR_DESC, DML_OPERATOR_ROI_POOLING,
                         DML_ROI_ALIGN1_OPERATOR_DESC, DML_OPERATOR_ROI_ALIGN1, DML_INTERPOLATION_MODE,
                         DML_REDUCE_FUNCTION, DML_TENSOR_DESC, DMLC_BUFFER_BINDING, DML_TENSOR_DATA_TYPE_UINT64,
                         enum_arg, as_input, as_ndarray, as_output, bind, dml_type_of, execute, finish_output,
                         infer_shape, may_overlap)

from dmlc._args import flag_of, index_of, ints_per_axis
from dmlc._core import schema_dtypes
from dmlc._enums import InterpolationMode, spellings

cnp.import_array()

# The data types ROI_POOLING's schema entry accepts (src/schema.def), and their names.
cdef tuple _DTYPES = schema_dtypes("ROI_POOLING")
cdef str _DTYPE_NAMES = " or ".join(", ".join(str(dt) for dt in _DTYPES).rsplit(", ", 1))
cdef dict _MODES = spellings(InterpolationMode)
# DML_REDUCE_FUNCTION's AVERAGE and MAX, by roi_align's mode.
cdef dict _REDUCTIONS = {"avg": 2, "max": 7}


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
                        Tensor* troi, const DML_TENSOR_DESC** slot, object out, str fname, tuple shape=None,
                        Tensor* tidx=NULL, cnp.ndarray idx=None):
    """The ending the ROI functions share: the output's shape from the core (or shape, where
    it is the caller's parameter), out= checked, empty results returned, inputs that share
    out='s memory read from copies, then the call (idx: the batch indices, bound to tidx)."""
    cdef Tensor tout
    cdef DMLC_BUFFER_BINDING ins[3]
    cdef cnp.ndarray result
    cdef UINT nin = 2 if idx is None else 3
    bind(tin, a, dml_type)
    bind(troi, r, dml_type)
    if idx is not None:
        bind(tidx, idx, DML_TENSOR_DATA_TYPE_UINT64)
    slot[0] = NULL
    result = as_output(out, infer_shape(op, 0, 1, 0) if shape is None else shape, a.dtype, "out")
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
        if idx is not None and may_overlap(idx, result):
            idx = idx.copy()
            bind(tidx, idx, DML_TENSOR_DATA_TYPE_UINT64)
    bind(&tout, result, dml_type)
    slot[0] = &tout.desc
    ins[0] = tin.binding
    ins[1] = troi.binding
    if idx is not None:
        ins[2] = tidx.binding
    execute(op, nin, ins, 1, &tout.binding)
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


cdef cnp.ndarray batch_input(object batch_indices, Py_ssize_t rows, Py_ssize_t n):
    """batch_indices as R uint64 values in [0, n): any integer dtype; a negative one is a
    ValueError here (the core, reading UINT64, refuses those >= n at execution)."""
    cdef cnp.ndarray b = as_ndarray(batch_indices, "batch_indices")
    if cnp.PyArray_SIZE(b) == 0 and not isinstance(batch_indices, np.ndarray):
        b = b.astype(np.int64)
    b = as_input(b, "batch_indices")  # the dtypes dmlc supports; of those, the integer ones
    if b.dtype.kind not in "iu":
        raise TypeError(f"roi_align: batch_indices has dtype {b.dtype}, expected an integer dtype")
    if cnp.PyArray_NDIM(b) != 1 or cnp.PyArray_SIZE(b) != rows:
        raise ValueError(f"roi_align: batch_indices has shape {(<object>b).shape}, expected ({rows},): one per region")
    if b.dtype.kind == "i" and rows and b.min() < 0:
        k = int(np.argmax(b < 0))
        raise ValueError(f"roi_align: batch_indices[{k}] is {b[k]}, expected an index in [0, {n})")
    return as_input(b.astype(np.uint64, copy=False), "batch_indices")


def roi_align(x: ArrayLike, rois: ArrayLike, batch_indices: ArrayLike, output_size: Union[int, Sequence[int]], *,
              spatial_scale: Union[float, Sequence[float]] = 1.0, sampling_ratio: int = 0, mode: str = "avg",
              aligned: bool = True, interpolation: Union[str, InterpolationMode] = "linear",
              out_of_bounds_value: float = 0.0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Regions of interest sampled and pooled to a fixed size (DirectML ROI_ALIGN1; ONNX RoiAlign).

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        float16, float32 or float64.
    rois : array_like, shape (R, 4)
        One region per row, ``[x1, y1, x2, y2]`` in the coordinates ``spatial_scale`` takes
        to x's; converted to x's dtype; every value must be finite (ValueError otherwise).
    batch_indices : array_like of int, shape (R,)
        The batch of each region, in ``[0, N)`` (ValueError otherwise).
    output_size : int or (int, int)
        The output's (height, width) per region; one int for both.
    spatial_scale : float or (float, float), default 1.0
        Multiplies the corners; a pair is (y, x).
    sampling_ratio : int, default 0
        Samples per output along each axis: 0 adapts them to the region,
        ``ceil(region size / output size)`` (at least 1); k > 0 takes k.
    mode : {"avg", "max"}, default "avg"
        The samples' average or maximum (a NaN wins).
    aligned : bool, default True
        True shifts the region by half a pixel (ONNX ``half_pixel``, torchvision
        ``aligned=True``); False does not (ONNX ``output_half_pixel``).
    interpolation : {"linear", "nearest"} or InterpolationMode, default "linear"
        How a sample reads x: bilinearly, or the nearest element.
    out_of_bounds_value : float, default 0.0
        The value of a sample more than one pixel outside x.
    out : ndarray, optional
        Where to write the result: x's dtype and shape ``(R, C, height, width)``; it may be
        a strided view.

    Returns
    -------
    ndarray
        Shape ``(R, C, height, width)``, x's dtype.

    Notes
    -----
    Per region and axis (x shown; y alike), in float64: ``X1 = x1 * scale``, ``size = x2 *
    scale - X1`` (an empty or mirrored region is allowed), ``s`` samples per output
    (``sampling_ratio``, or ``ceil(|size| / width)`` clamped to at least 1), sample ``j``
    (output ``ox`` owns ``j`` in ``[ox*s, ox*s + s)``) at ``X = (j + 0.5) * size / (width*s)
    + X1 - offset`` with ``offset`` 0.5 when ``aligned``.  A sample with ``X < -1``, ``X > W``
    (or Y alike) is ``out_of_bounds_value``; otherwise X, Y are clamped into x and read
    bilinearly (or at the nearest element).  Linear averages are within a few float32 ulps
    (float64 for float64 x) of the exact value.

    ============================  ==========================================================
    ONNX ``RoiAlign`` (opset 16)  ``roi_align(x, rois, batch_indices, (output_height,
                                  output_width), spatial_scale=spatial_scale,
                                  sampling_ratio=sampling_ratio, mode=mode, aligned=
                                  coordinate_transformation_mode == "half_pixel")``; ONNX
                                  widens regions narrower than one pixel in
                                  ``output_half_pixel`` mode, dmlc does not, and ONNX
                                  Runtime's ``max`` takes the largest weighted corner term,
                                  not the largest sample
    torchvision ``roi_align``     the same mapping with ``aligned`` as given and its boxes
                                  ``[batch, x1, y1, x2, y2]`` split into batch_indices and rois
    ============================  ==========================================================

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> dmlc.roi_align(x, [[0, 0, 4, 4]], [0], 2)[0, 0]
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    >>> dmlc.roi_align(x, [[0, 0, 4, 4]], [0], 2, mode="max", sampling_ratio=2)[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
    """
    cdef cnp.ndarray a = float_input(x, "roi_align")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray r = region_table(rois, 4, a, "roi_align", "[x1, y1, x2, y2]")
    cdef cnp.ndarray idx
    cdef Tensor tin, troi, tidx
    cdef DML_ROI_ALIGN1_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef object ratio
    height, width = ints_per_axis(output_size, 2, "roi_align", "output_size", 1, 0xFFFFFFFF, per="output axis")
    if isinstance(spatial_scale, (tuple, list)):
        if len(spatial_scale) != 2:
            raise ValueError(f"roi_align: spatial_scale has {len(spatial_scale)} values, expected one or a (y, x) pair")
        d.SpatialScaleY = real_arg(spatial_scale[0], "roi_align", "spatial_scale[0]")
        d.SpatialScaleX = real_arg(spatial_scale[1], "roi_align", "spatial_scale[1]")
    else:
        d.SpatialScaleY = d.SpatialScaleX = real_arg(spatial_scale, "roi_align", "spatial_scale")
    ratio = index_of(sampling_ratio, "roi_align", "sampling_ratio")
    if ratio < 0 or ratio > 0xFFFFFFFF:
        raise ValueError(f"roi_align: sampling_ratio is {ratio}, expected 0 (adaptive) or a count of samples")
    if not isinstance(mode, str) or mode not in _REDUCTIONS:
        raise ValueError(f"roi_align: mode is {mode!r}, expected 'avg' or 'max'")
    d.InterpolationMode = <DML_INTERPOLATION_MODE>enum_arg(interpolation, _MODES, InterpolationMode, "roi_align",
                                                           "interpolation")
    d.AlignRegionsToCorners = 0
    d.InputPixelOffset = 0.5 if flag_of(aligned, "roi_align", "aligned") else 0.0
    d.OutputPixelOffset = -0.5
    d.OutOfBoundsInputValue = real_arg(out_of_bounds_value, "roi_align", "out_of_bounds_value")
    d.MinimumSamplesPerOutput = ratio if ratio else 1
    d.MaximumSamplesPerOutput = ratio if ratio else 0xFFFFFFFF
    d.ReductionFunction = <DML_REDUCE_FUNCTION>_REDUCTIONS[mode]
    idx = batch_input(batch_indices, (<object>r).shape[0], (<object>a).shape[0])
    d.InputTensor = &tin.desc
    d.ROITensor = &troi.desc
    d.BatchIndicesTensor = &tidx.desc
    op.Type = DML_OPERATOR_ROI_ALIGN1
    op.Desc = &d
    return run_regions(&op, a, dml_type, &tin, r, &troi, &d.OutputTensor, out, "roi_align",
                       ((<object>r).shape[0], (<object>a).shape[1], height, width), &tidx, idx)
