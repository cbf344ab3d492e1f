# cython: language_level=3, annotation_typing=False
"""RESAMPLE2 and UPSAMPLE_2D for arrays: dmlc.resample and dmlc.upsample_2d are defined here
(dmlc.resample re-exports them), so a small call runs no Python frame; annotation_typing=False
keeps their annotations documentation only.  Bounds checks and negative indices stay on:
this module indexes Python sequences (``shape[-2]``), never a hot loop.

The arguments are normalised first (ONNX Resize's and PyTorch's vocabulary into one scale
and two pixel offsets per axis, ``_desc_args``, which dmlc.dask.resample shares); then the
desc is filled and run.
"""
import math
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_RESAMPLE2_OPERATOR_DESC, DML_UPSAMPLE_2D_OPERATOR_DESC,
                         DML_OPERATOR_RESAMPLE2, DML_OPERATOR_UPSAMPLE_2D, DML_INTERPOLATION_MODE,
                         DML_AXIS_DIRECTION, DML_TENSOR_DESC, FLOAT, UINT, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, may_overlap)

from dmlc._args import index_of, ints_per_axis
from dmlc._enums import AxisDirection, InterpolationMode, enum_value

cnp.import_array()

# coordinate_transformation -> (InputPixelOffset, OutputPixelOffset) of an axis, the
# DirectML provider of ONNX Runtime's mapping: x = ((o - out) / scale) - in.
_OFFSETS = {
    "half_pixel": (0.5, -0.5),
    "pytorch_half_pixel": (0.5, -0.5),
    "align_corners": (0.0, 0.0),
    "asymmetric": (0.0, 0.0),
    "tf_half_pixel_for_nn": (0.0, -0.5),
}
# nearest_rounding -> (RoundingDirection, what it adds to InputPixelOffset).
_ROUNDING = {
    "round_prefer_floor": (AxisDirection.INCREASING, 0.5),   # ceil(x - 0.5)
    "round_prefer_ceil": (AxisDirection.DECREASING, -0.5),   # floor(x + 0.5)
    "floor": (AxisDirection.DECREASING, 0.0),
    "ceil": (AxisDirection.INCREASING, 0.0),
}
_REFUSED = {"cubic", "tf_crop_and_resize"}


def _mode(mode, fname):
    if isinstance(mode, str) and mode.lower() in _REFUSED:
        raise ValueError(f"{fname}: mode {mode!r} is not available: DirectML's RESAMPLE interpolates "
                         f"'nearest' or 'linear'")
    return enum_value(mode, InterpolationMode, fname, "mode")


def _floats(values, n, fname, argname):
    """values: a sequence of n finite numbers above 0, as Python floats."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{fname}: {argname} must be a sequence of numbers (one per dimension of x), "
                        f"not {type(values).__name__}")
    values = list(values)
    if len(values) != n:
        raise ValueError(f"{fname}: {argname} has {len(values)} values, expected {n} (one per dimension of x)")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, (bool, str, bytes)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{fname}: {argname}[{i}] must be a number, not {type(v).__name__}")
        v = float(v)
        if not (v > 0) or math.isinf(v):
            raise ValueError(f"{fname}: {argname}[{i}] is {v}, expected a finite value above 0")
        out.append(v)
    return out


def _choice(value, table, fname, argname):
    if not isinstance(value, str):
        raise TypeError(f"{fname}: {argname} must be a str, not {type(value).__name__}")
    if value not in table:
        raise ValueError(f"{fname}: {argname} is {value!r}, expected one of {', '.join(map(repr, table))}")
    return table[value]


_LINEAR_DTYPES = {np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int8, np.uint8)}


def _desc_args(shape, dtype, scales, size, mode, coordinate_transformation, nearest_rounding, fname):
    """resample's arguments as RESAMPLE2's fields: (InterpolationMode, RoundingDirection,
    Scales, InputPixelOffsets, OutputPixelOffsets, the output shape), all Python values
    (dmlc.dask.resample cuts the same fields into blocks)."""
    nd = len(shape)
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: x has {nd} dimensions; DirectML tensors have 1 to 8")
    m = _mode(mode, fname)
    offsets = _choice(coordinate_transformation, _OFFSETS, fname, "coordinate_transformation")
    direction, extra = _choice(nearest_rounding, _ROUNDING, fname, "nearest_rounding")
    try:
        dtype = np.dtype(dtype)
    except TypeError:  # another library's dtype: the core checks the type it binds
        dtype = None
    if m == InterpolationMode.LINEAR and dtype is not None and dtype not in _LINEAR_DTYPES:
        raise ValueError(f"{fname}: x has dtype {dtype}; linear interpolation takes float16, float32, "
                         f"float64, int8 or uint8 (nearest takes every dtype)")
    if scales is None and size is None:
        raise ValueError(f"{fname}: give scales or size (or both)")
    if scales is not None:
        scales = _floats(scales, nd, fname, "scales")
    if size is not None:
        size = ints_per_axis(size, nd, fname, "size", 0, 0xFFFFFFFF) if not isinstance(size, int) else None
        if size is None:
            raise TypeError(f"{fname}: size must be a sequence of ints (one per dimension of x), not int")
    else:
        size = [int(math.floor(float(np.float32(n) * np.float32(s)))) for n, s in zip(shape, scales)]
        size = [min(v, 0xFFFFFFFF) for v in size]
    for i, (n, v) in enumerate(zip(shape, size)):
        if n == 0 and v != 0:
            raise ValueError(f"{fname}: size[{i}] is {v}, but x's axis {i} is empty: nothing to resample from")
    if scales is None:
        scales = [float(np.float32(v / n)) if n and v else 1.0 for n, v in zip(shape, size)]
    s_out, in_off, out_off = [], [], []
    for i, (n, v, s) in enumerate(zip(shape, size, scales)):
        io, oo = offsets
        if coordinate_transformation == "align_corners":
            s = float(np.float32((v - 1) / (n - 1))) if n > 1 and v > 1 else 1.0
        elif coordinate_transformation == "pytorch_half_pixel" and v == 1:
            io, oo = 0.0, 0.0
        if s == 1.0 and v == n:
            io, oo = 0.0, 0.0  # copied whatever the transformation
        if m == InterpolationMode.NEAREST_NEIGHBOR:
            io += extra
        s_out.append(s)
        in_off.append(io)
        out_off.append(oo)
    return int(m), int(direction), s_out, in_off, out_off, tuple(size)



cdef object run(cnp.ndarray a, int dml_type, DML_OPERATOR_DESC* op, Tensor* tin, const DML_TENSOR_DESC** slot,
                tuple shape, out):
    cdef Tensor tout
    cdef cnp.ndarray result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if out is not None and may_overlap(a, result):
        a = a.copy()  # an input that shares memory with out= is read from a copy, as NumPy's ufuncs do
    bind(tin, a, dml_type)
    bind(&tout, result, dml_type)
    slot[0] = &tout.desc
    execute(op, 1, &tin.binding, 1, &tout.binding)
    return finish_output(result, out)


def _resample2(x, int mode, int rounding, scales, input_offsets, output_offsets, tuple shape, out):
    """RESAMPLE2 of x into an array of shape (or out): scales and offsets one float per axis
    of x (1 to 8 of them, checked by the caller)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef FLOAT s[8]
    cdef FLOAT io[8]
    cdef FLOAT oo[8]
    cdef Tensor tin
    cdef DML_RESAMPLE2_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    for i in range(nd):
        s[i] = scales[i]
        io[i] = input_offsets[i]
        oo[i] = output_offsets[i]
    d.InputTensor = &tin.desc
    d.InterpolationMode = <DML_INTERPOLATION_MODE>mode
    d.RoundingDirection = <DML_AXIS_DIRECTION>rounding
    d.DimensionCount = nd
    d.Scales = s
    d.InputPixelOffsets = io
    d.OutputPixelOffsets = oo
    op.Type = DML_OPERATOR_RESAMPLE2
    op.Desc = &d
    return run(a, dml_type, &op, &tin, &d.OutputTensor, shape, out)


def _upsample2d(x, int mode, UINT height, UINT width, tuple shape, out):
    """UPSAMPLE_2D of x (4-D or 5-D, checked by the caller) by height x width."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_UPSAMPLE_2D_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    d.InputTensor = &tin.desc
    d.ScaleSize.Width = width
    d.ScaleSize.Height = height
    d.InterpolationMode = <DML_INTERPOLATION_MODE>mode
    op.Type = DML_OPERATOR_UPSAMPLE_2D
    op.Desc = &d
    return run(a, dml_type, &op, &tin, &d.OutputTensor, shape, out)


def resample(x: ArrayLike, *, scales: Optional[Sequence[float]] = None, size: Optional[Sequence[int]] = None,
             mode: Union[str, InterpolationMode] = "nearest", coordinate_transformation: str = "half_pixel",
             nearest_rounding: str = "round_prefer_floor", out: Optional[np.ndarray] = None) -> np.ndarray:
    """Resize an array along any of its axes (DirectML RESAMPLE2).

    Per axis of input size ``n`` and output size ``m``, output index ``o`` reads the input
    coordinate ``x = ((o - OutputPixelOffset) / Scale) - InputPixelOffset`` (in double).
    ``"nearest"`` copies element ``floor(x)`` or ``ceil(x)`` (by ``nearest_rounding``),
    clamped into ``[0, n)``; ``"linear"`` clamps ``x`` into ``[0, n - 1]`` and
    interpolates between ``floor(x)`` and the next element, multilinearly over all axes.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions; nearest takes any of the eleven dtypes, linear float16/32/64,
        int8 and uint8 (rounded to nearest, ties to even).
    scales : sequence of float, optional
        One per dimension of x.  Alone, the output size is ``floor(n * scale)`` computed in
        float32 (as ONNX Runtime: 10 x 0.7 gives 7).
    size : sequence of int, optional
        The output shape.  Alone, each scale is ``float32(m / n)``.  With ``scales``, both
        are used as given (a larger output clamps at the edges, a smaller one crops).
    mode : {"nearest", "linear"} or InterpolationMode
    coordinate_transformation : str
        ONNX Resize's names: ``"half_pixel"`` (offsets 0.5, -0.5), ``"pytorch_half_pixel"``
        (the same, or 0, 0 on an axis of output size 1), ``"align_corners"`` (0, 0 with
        scale ``(m - 1) / (n - 1)``, 1 where m or n is 1), ``"asymmetric"`` (0, 0),
        ``"tf_half_pixel_for_nn"`` (0, -0.5).  An axis with scale 1 and an unchanged size
        is copied whatever the transformation (as ONNX Runtime's CPU provider does).
    nearest_rounding : str
        ONNX's ``nearest_mode``: ``"round_prefer_floor"`` (RoundingDirection INCREASING,
        InputPixelOffset + 0.5), ``"round_prefer_ceil"`` (DECREASING, - 0.5), ``"floor"``
        (DECREASING), ``"ceil"`` (INCREASING).  Ignored by linear.
    out : ndarray, optional
        Where to write the result (x's dtype, the output shape).

    Returns
    -------
    ndarray

    Notes
    -----
    How other libraries' resizes map onto it:

    - ONNX ``Resize(mode, coordinate_transformation_mode, nearest_mode, scales or sizes)``:
      ``resample(x, scales=... or size=..., mode=..., coordinate_transformation=...,
      nearest_rounding=...)``.
    - ``F.interpolate(x, size=s, mode="nearest")``: ``size=(N, C, *s)``,
      ``coordinate_transformation="asymmetric"``, ``nearest_rounding="floor"``.
    - ``F.interpolate(x, size=s, mode="nearest-exact")``: ``size=(N, C, *s)`` (half_pixel),
      ``nearest_rounding="round_prefer_ceil"``.
    - ``F.interpolate(..., mode="linear"/"bilinear"/"trilinear")``: ``mode="linear"``
      (half_pixel); with ``align_corners=True``: ``coordinate_transformation="align_corners"``.
    - ``F.interpolate(x, scale_factor=f)``: ``scales=(1, 1, f, ...)``.

    ONNX's cubic mode, ``exclude_outside=1``, ``antialias=1`` and ``tf_crop_and_resize``
    have no DirectML equivalent (``ValueError``).  A scale that only approximates a ratio
    (float32 5/6) can move a nearest tie by one element against ONNX Runtime and PyTorch,
    which compute the ratio in float32 themselves.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.resample(np.array([1., 2.], np.float32), scales=[2], mode="linear")
    array([1.  , 1.25, 1.75, 2.  ], dtype=float32)
    >>> dmlc.resample(np.array([[1, 2], [3, 4]]), size=[2, 4])
    array([[1, 1, 2, 2],
           [3, 3, 4, 4]])
    """
    fname = "resample"
    cdef object a = as_ndarray(x, "x")
    m, direction, s_out, in_off, out_off, size = _desc_args(tuple(a.shape), a.dtype, scales, size, mode,
                                                            coordinate_transformation, nearest_rounding, fname)
    return _resample2(a, m, direction, s_out, in_off, out_off, size, out)


def upsample_2d(x: ArrayLike, scale: Union[int, Sequence[int]], *, mode: Union[str, InterpolationMode] = "nearest",
                out: Optional[np.ndarray] = None) -> np.ndarray:
    """Enlarge the last two axes by whole factors (DirectML UPSAMPLE_2D).

    The output is x's shape with ``H * height`` and ``W * width`` last.  ``"nearest"``
    gives ``x[..., h // height, w // width]``; ``"linear"`` is pixel-centre bilinear with
    clamped edges: ``resample(x, scales=(1, ..., height, width), mode="linear")``.

    Parameters
    ----------
    x : array_like
        4 or 5 dimensions (N, C, [D,] H, W); nearest takes any of the eleven dtypes, linear
        float16/32/64, int8 and uint8.
    scale : int or (int, int)
        The factor of both axes, or ``(height, width)``; each 1 to 2**32 - 1.
    mode : {"nearest", "linear"} or InterpolationMode
    out : ndarray, optional

    Returns
    -------
    ndarray

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.upsample_2d(np.array([[[[1., 2.], [3., 4.]]]], np.float32), 2, mode="linear")[0, 0, 0]
    array([1.  , 1.25, 1.75, 2.  ], dtype=float32)
    """
    fname = "upsample_2d"
    cdef object a = as_ndarray(x, "x")
    shape = tuple(a.shape)
    if len(shape) not in (4, 5):
        raise ValueError(f"{fname}: x has {len(shape)} dimensions, expected 4 or 5 (N, C, [D,] H, W)")
    m = _mode(mode, fname)
    if isinstance(scale, (int, np.integer)) and not isinstance(scale, bool):
        scale = index_of(scale, fname, "scale")
    h, w = ints_per_axis(scale, 2, fname, "scale", 1, 0xFFFFFFFF, per="of height and width")
    size = shape[:-2] + (shape[-2] * h, shape[-1] * w)
    for i, v in enumerate(size):
        if v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: the output's axis {i} would have {v} elements, at most 4294967295")
    return _upsample2d(a, m, h, w, size, out)
