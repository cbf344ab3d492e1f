"""dmlc's operators on Dask arrays: arrays larger than memory, on disk or on a cluster.

The functions take the in-memory API's arguments (minus ``out=``) and return lazy Dask
arrays; dmlc's kernels run inside each block's task.  Computed, a result equals the
in-memory function applied to the computed input, bit for bit, for every chunking.

>>> import numpy as np, dask.array as da, dmlc.dask as dd
>>> x = da.from_array(np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8), chunks=(1, 1, 4, 4))
>>> y = dd.max_pool(x, 3, strides=2, start_padding=1)
>>> y.chunks
((1,), (1,), (2, 2), (2, 2))
>>> bool((y.compute() == dmlc.max_pool(x.compute(), 3, strides=2, start_padding=1)).all())
True

Arguments are checked when the graph is built, by the in-memory functions themselves, so
the errors and their messages are the in-memory ones.  ``import dmlc`` never imports Dask;
this module needs the ``dask`` extra (``pip install ".[dask]"`` in dmlc's checkout).

``from_npy`` and ``to_npy`` read and write .npy files block by block, in memory bounded by
a few blocks per worker.  There is no ``max_unpool``: its indices are data, so any output
block may take values from any input block, and a Dask version would read the whole input
for every output block.
"""
import builtins  # this module's slice is dmlc.slice's Dask version; Python's is builtins.slice
import functools
import itertools
import math
import operator

import numpy as np
import dask.array as da
from dask.base import tokenize

import dmlc
import dmlc._resample  # noqa: F401  (dmlc._resample._resample2 in block tasks)
from dmlc._args import dtype_arg as _dtype_arg
from dmlc._enums import DepthSpaceOrder, PaddingMode, enum_value
from dmlc._max_pooling import _indices_dtype
from dmlc._split_join import _sections_or_sizes
from dmlc.dask._blocks import bounds_of, chunks_from_bounds, known_chunks, new_array, region_layers
from dmlc.dask._npy import from_npy, to_npy

# The API: from_npy and to_npy, and every function marked @_public below, each named as the
# in-memory function it runs block by block.
__all__ = ["from_npy", "to_npy"]


def _public(fn):
    """Lists fn in __all__ (what ``dir()`` and ``from dmlc.dask import *`` give); its name
    must be a public dmlc function's, the one it runs on the blocks."""
    if fn.__name__ not in dmlc.__all__:
        raise AssertionError(f"dmlc.dask.{fn.__name__} has no in-memory dmlc.{fn.__name__}")
    __all__.append(fn.__name__)
    return fn


def __dir__():
    """The public API only (what ``from dmlc.dask import *`` gives), not the modules and
    helpers this one uses."""
    return sorted(__all__)

_UINT_MAX = 0xFFFFFFFF


# ---------------------------------------------------------------------------------------
# Argument checks: the in-memory functions run on stand-ins of the real arrays.

class _ValidateOnly:
    """Given as ``out=`` to an in-memory function, it stops the call right after the
    argument checks: every function checks its arguments (and derives the output shape)
    before it looks at ``out``, and rejects this object there with a TypeError naming its
    type.  (A test of every argument error keeps that promise checked.)"""


_VALIDATE_ONLY = _ValidateOnly()


def _check_arguments(fn, *args, **kwargs):
    """Run fn's argument checks on args; its errors propagate unchanged."""
    try:
        fn(*args, out=_VALIDATE_ONLY, **kwargs)
    except TypeError as exc:
        if type(_VALIDATE_ONLY).__name__ in str(exc):  # "out must be ..., not _ValidateOnly"
            return
        raise
    raise AssertionError(f"{fn.__name__} accepted out={_VALIDATE_ONLY!r}")  # pragma: no cover


def _stand_in(x):
    """An array with x's shape and dtype that takes no memory (every stride 0)."""
    return np.broadcast_to(np.zeros((), x.dtype), x.shape)


def _empty_stand_in(x):
    """x's shape and dtype with no batch (axis 0 of length 0): the in-memory function
    checks every argument and returns an empty result of the output's other sizes."""
    return np.empty((0,) + x.shape[1:] if x.ndim else (), x.dtype)


def _check_sizes(*shapes):
    """DirectML's sizes are 32-bit: the check the in-memory call makes when it binds each
    non-empty array (after its argument checks)."""
    for shape in shapes:
        for i, n in enumerate(shape):
            if n > _UINT_MAX:
                raise ValueError(f"dimension {i} has size {n}; DirectML sizes are 32-bit (at most {_UINT_MAX})")


def _as_dask(x):
    return x if isinstance(x, da.Array) else da.asarray(x)


def _per_axis(values, n, default=None):
    """An argument the in-memory function accepted, one Python int per axis (the
    in-memory rule: one int for all axes, or one per axis; None is the default)."""
    if values is None:
        values = default
    if type(values) is int or (hasattr(values, "__index__") and not isinstance(values, np.ndarray)):
        return [operator.index(values)] * n
    if isinstance(values, np.ndarray):
        values = values.tolist() if values.ndim else [values.item()] * n
    return [operator.index(v) for v in values]


def _normalize_axis(axis, nd):
    axis = operator.index(axis)
    return axis + nd if axis < 0 else axis


# ---------------------------------------------------------------------------------------
# max_pool

class _PoolGrid:
    """A pooling's blocks: its accepted arguments (one list of ints per spatial axis), its
    output chunks, and for each output block the windows it holds.

    Chunks: N and C keep x's chunks; along a spatial axis, window o belongs to the input
    chunk holding its last element, o*S - P + k - 1 (k the dilated window), so the first
    window of the chunk starting at b is ceil((b + P + 1 - k) / S)."""

    def __init__(self, x, out_shape, window_size, strides, start_padding, end_padding, dilations):
        sp = x.ndim - 2
        self.window = _per_axis(window_size, sp)
        self.stride = _per_axis(strides, sp, self.window)
        self.start = _per_axis(start_padding, sp, 0)
        self.end = _per_axis(end_padding, sp, 0)
        self.dilation = _per_axis(dilations, sp, 1)
        self.extent = [(k - 1) * d + 1 for k, d in zip(self.window, self.dilation)]
        out_chunks = list(x.chunks[:2])
        for i in range(sp):
            s, shift = self.stride[i], self.start[i] + 1 - self.extent[i]
            cuts = [-(-(b + shift) // s) for b in bounds_of(x.chunks[i + 2])[:-1]]
            out_chunks.append(chunks_from_bounds(cuts, out_shape[i + 2]))
        self.out_chunks = tuple(out_chunks)
        self.in_bounds = [bounds_of(c) for c in x.chunks]
        self.out_bounds = [bounds_of(c) for c in self.out_chunks]

    def block(self, index):
        """The output block at index: the input intervals of its N and C blocks, and per
        spatial axis (o0, o1, lo, hi): it holds windows o0..o1-1, which cover input
        coordinates lo..hi-1 (padding included: negative, or n and beyond)."""
        nc = [[(self.in_bounds[a][index[a]], self.in_bounds[a][index[a] + 1])] for a in range(2)]
        axes = []
        for i in range(len(self.window)):
            o0, o1 = self.out_bounds[i + 2][index[i + 2]], self.out_bounds[i + 2][index[i + 2] + 1]
            axes.append((o0, o1, o0 * self.stride[i] - self.start[i], (o1 - 1) * self.stride[i] - self.start[i]
                         + self.extent[i]))
        return nc, axes


@functools.lru_cache(maxsize=None)
def _empty_window(dtype, indices_dtype):
    """The value and index of a window with no element inside x, as the in-memory kernel
    gives them (the dtype's lowest value, all ones): one window over padding only."""
    v, i = dmlc.max_pool(np.zeros((1, 1, 1), dtype), 1, start_padding=1, return_indices=True,
                         indices_dtype=np.uint32 if indices_dtype is None else indices_dtype)
    return v[0, 0, 0], i[0, 0, 0]


def _globalize(idx, region_shape, offsets, full_shape, padded):
    """Flat indices into a region (at offsets in the whole input) as flat indices into
    the whole input, in place.  Axes the region spans whole merge with the axis before
    them, so a block of whole (C, H, W) planes costs one addition:

        region (2, 3, 4, 4) of x (8, 3, 4, 4) at (6, 0, 0, 0): global = local + 6*48.

    The all-ones index of a window with no element (possible only where the block has
    padding) stays all ones.  Every value fits idx's dtype: the in-memory checks made
    sure the whole input's indices do."""
    groups = []  # (region size, full size, offset) from the innermost axis out
    for r, f, o in zip(reversed(region_shape), reversed(full_shape), reversed(offsets)):
        if groups and groups[-1][0] == groups[-1][1] and groups[-1][2] == 0:
            gr, gf, _ = groups[-1]
            groups[-1] = (r * gr, f * gf, o * gf)
        else:
            groups.append((r, f, o))
    sentinel = np.iinfo(idx.dtype).max
    missing = (idx == sentinel) if padded else None
    if len(groups) == 1:
        if groups[0][2]:
            idx += idx.dtype.type(groups[0][2])
    else:
        rem = idx.copy()
        idx[...] = 0
        stride = 1
        coord = np.empty_like(idx)
        for k, (r, f, o) in enumerate(groups):
            if k == len(groups) - 1:
                coord = rem
            else:
                np.remainder(rem, r, out=coord)
                np.floor_divide(rem, r, out=rem)
            if o:
                coord += idx.dtype.type(o)
            if stride != 1:
                coord *= idx.dtype.type(stride)
            idx += coord
            stride *= f
    if missing is not None and missing.any():
        idx[missing] = sentinel
    return idx


def _max_pool_block(region, p):
    (window, strides, start, end, dilations, indices_dtype, offsets, full_shape, block_shape) = p
    if any(n == 0 for n in region.shape[2:]):
        # Every window of the block lies in the padding (a ceil-mode window past the end,
        # or padding wider than the window): lowest values, all-ones indices.
        value, index = _empty_window(region.dtype, indices_dtype)
        values = np.full(block_shape, value, region.dtype)
        return values if indices_dtype is None else (values, np.full(block_shape, index, indices_dtype))
    out = dmlc.max_pool(region, window, strides=strides, start_padding=start, end_padding=end, dilations=dilations,
                        return_indices=indices_dtype is not None,
                        indices_dtype="uint32" if indices_dtype is None else indices_dtype)
    if indices_dtype is None:
        return out
    values, indices = out
    return values, _globalize(indices, region.shape, offsets, full_shape, any(start) or any(end))


@_public
def max_pool(x, window_size, *, strides=None, start_padding=None, end_padding=None, dilations=None,
             return_indices=False, indices_dtype="uint32", ceil_mode=False):
    """:func:`dmlc.max_pool` on a Dask array: maximum over sliding windows (DirectML
    MAX_POOLING2), optionally with the position of each maximum.

    Parameters
    ----------
    x : dask.array.Array or array_like, shape (N, C, *spatial)
        Anything else goes through ``dask.array.asarray``.
    window_size, strides, start_padding, end_padding, dilations, return_indices, indices_dtype, ceil_mode
        As :func:`dmlc.max_pool`.

    Returns
    -------
    dask.array.Array, or a pair of them with ``return_indices``
        The maxima and, with ``return_indices``, their flat indices into the whole of
        ``x`` (batch and channel included), exactly as in memory.

    Notes
    -----
    Chunks: N and C keep x's chunks.  Along each spatial axis, window ``o`` belongs to
    the input chunk holding its last element, ``o*stride - start_padding + (window-1)*
    dilation``, and output chunks follow input chunks: input chunks of ``c`` elements,
    a multiple of the stride, give output chunks of about ``c / stride`` (exactly, for
    2x2 stride 2, or 3x3 stride 2 with padding 1).  Windows before the first input
    chunk's end join the first output chunk, windows past the last input chunk (end
    padding, ceil mode) the last, and an input chunk where no window ends gives no
    output chunk.  The spatial axes are never rechunked.

    Memory: each output block's task reads the region its windows cover, halo included,
    from the input blocks it overlaps (however many: halos wider than a chunk, or than
    the whole array, just reach further), and pools it in one call.  Since a window
    belongs to the chunk where it *ends*, a block needs only the edges of the blocks
    before it; those edges are copied as the blocks are read, so a block is released
    with its own output.  Peak memory is a few chunks per worker plus those thin edges,
    however wide the array (see ``dmlc.dask._blocks.region_layers``).

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "max_pool"
    x = _as_dask(x)
    known_chunks(x, fname)
    probe = dmlc.max_pool(_empty_stand_in(x), window_size, strides=strides, start_padding=start_padding,
                          end_padding=end_padding, dilations=dilations, return_indices=return_indices,
                          indices_dtype=indices_dtype, ceil_mode=ceil_mode)
    idt = _indices_dtype(indices_dtype) if return_indices else None
    out_shape = (x.shape[0],) + (probe[0] if return_indices else probe).shape[1:]
    if x.size:
        # What the in-memory call checks when it binds the arrays and creates the operator.
        _check_sizes(x.shape, out_shape)
        if idt is not None and x.size > np.iinfo(idt).max:
            raise ValueError(f"DML_OPERATOR_MAX_POOLING2: InputTensor has {x.size} elements, more than "
                             f"{idt.name.upper()} indices can address (at most {np.iinfo(idt).max})")

    g = _PoolGrid(x, out_shape, window_size, strides, start_padding, end_padding, dilations)
    out_chunks = g.out_chunks

    def plan(index):
        intervals, axes = g.block(index)
        offsets = [iv[0][0] for iv in intervals]
        block_shape = [out_chunks[a][index[a]] for a in range(2)]
        sub_start, sub_end = [], []
        for a, (o0, o1, lo, hi) in enumerate(axes, 2):
            first, last = max(lo, 0), min(hi, x.shape[a])
            intervals.append([(first, last)] if first < last else [])
            offsets.append(first)
            sub_start.append(first - lo)
            sub_end.append(hi - last)
            block_shape.append(o1 - o0)
        return "run", intervals, (g.window, g.stride, sub_start, sub_end, g.dilation, idt, tuple(offsets), x.shape,
                                  tuple(block_shape))

    token = tokenize(x, g.window, g.stride, g.start, g.end, g.dilation, str(idt), out_shape)
    name = f"dmlc-max_pool-{token}"
    layers = region_layers(x, name, out_chunks, plan, _max_pool_block, causal=True)
    if idt is None:
        return new_array(layers, [x], name, out_chunks, x.dtype)
    vname, iname = f"dmlc-max_pool-values-{token}", f"dmlc-max_pool-indices-{token}"
    layers[vname] = ({(vname,) + k[1:]: (operator.getitem, k, 0) for k in layers[name][0]}, (name,))
    layers[iname] = ({(iname,) + k[1:]: (operator.getitem, k, 1) for k in layers[name][0]}, (name,))
    return (new_array(layers, [x], vname, out_chunks, x.dtype),
            new_array(layers, [x], iname, out_chunks, idt))


# ---------------------------------------------------------------------------------------
# avg_pool

def _avg_pool_block(region, p):
    fname, extra, window, stride, sub_start, sub_end, dilation, skip, block_shape = p
    # Ceil mode keeps every window of the block, a last one that runs past the end padding
    # included (_avg_pool_axis gives a block whose last window starts in the call's end
    # padding a stride more of it, so the window ceil mode drops there is one after the
    # block's); the call's windows before `skip` and after the block are not the block's.
    # fname: "avg_pool" or "lp_pool" (extra: include_padding, or p), which walk windows alike.
    y = getattr(dmlc, fname)(region, window, strides=stride, start_padding=sub_start, end_padding=sub_end,
                             dilations=dilation, ceil_mode=True, **dict(extra))
    if y.shape[2:] == block_shape[2:]:
        return y
    keep = tuple(builtins.slice(j, j + m) for j, m in zip(skip, block_shape[2:]))
    return np.ascontiguousarray(y[(builtins.slice(None),) * 2 + keep])


def _avg_pool_axis(lo, hi, n, end, stride, extent):
    """One spatial axis of an output block whose windows cover input coordinates [lo, hi):
    the input interval [first, last) its call reads, that call's start and end padding,
    and how many of the call's windows come before the block's.

    Each window's average must be the whole array's: the call reads every element of x the
    windows touch, and its padded input [first - start, last + end) holds every window
    position that the whole padded input [-P, n + E) holds (the include_padding count), no
    more.  Windows that lie in the padding only (the first or last block of an axis) read
    the one element next to them, which they do not touch, and the call's padded input
    begins a whole number of strides earlier, where needed, to hold a window.

    A block whose last window starts in the call's end padding (past x: floor mode with end
    padding of a stride or more, or a block of padding only) gets a stride more end
    padding, which no window of the block reaches: ceil mode drops a last window that
    starts in the end padding, and this makes that one a window after the block's."""
    first, last = max(lo, 0), min(hi, n)
    if first >= last:
        first, last = (0, 1) if hi <= 0 else (n - 1, n)
    stop = max(last, min(hi, n + end))
    skip = max(0, -(-(lo - first) // stride), -(-(extent - (stop - lo)) // stride))
    beyond = stride if hi - extent >= last else 0
    return first, last, first - (lo - skip * stride), stop - last + beyond, skip


@_public
def avg_pool(x, window_size, *, strides=None, start_padding=None, end_padding=None, dilations=None,
             include_padding=False, ceil_mode=False):
    """:func:`dmlc.avg_pool` on a Dask array: average over sliding windows (DirectML
    AVERAGE_POOLING1).

    Parameters
    ----------
    x : dask.array.Array or array_like, shape (N, C, *spatial)
        Anything else goes through ``dask.array.asarray``.
    window_size, strides, start_padding, end_padding, dilations, include_padding, ceil_mode
        As :func:`dmlc.avg_pool`.

    Returns
    -------
    dask.array.Array
        The averages, bit for bit the in-memory ones: each window's sum is taken in the
        same order whatever the chunks, and divided by the same count (the elements of
        ``x`` in the window, or with ``include_padding`` its positions inside the whole
        padded input).

    Notes
    -----
    Chunks, as :func:`max_pool`: N and C keep x's chunks; along each spatial axis window
    ``o`` belongs to the input chunk holding its last element, so input chunks of ``c``
    elements, a multiple of the stride, give output chunks of about ``c / stride``.
    Windows before the first input chunk's end join the first output chunk, windows past
    the last input chunk the last, and an input chunk where no window ends gives no output
    chunk.  The spatial axes are never rechunked.

    Memory, as :func:`max_pool`: each output block's task reads the region its windows
    cover from the input blocks it overlaps and averages it in one call; the edges later
    blocks read are copied as a block is read, so a block is released with its own
    output, and peak memory is a few chunks per worker however wide the array.

    Argument errors are raised here, with the in-memory messages.
    """
    return _window_sum_pool("avg_pool", x, window_size, strides, start_padding, end_padding, dilations, ceil_mode,
                            include_padding=include_padding)


def _window_sum_pool(fname, x, window_size, strides, start_padding, end_padding, dilations, ceil_mode, **extra):
    """avg_pool and lp_pool (dmlc.<fname> with extra: include_padding, or p): the average
    pooling family's window walk, so one plan of blocks and halos serves both."""
    x = _as_dask(x)
    known_chunks(x, fname)
    out_shape = (x.shape[0],) + getattr(dmlc, fname)(
        _empty_stand_in(x), window_size, strides=strides, start_padding=start_padding, end_padding=end_padding,
        dilations=dilations, ceil_mode=ceil_mode, **extra).shape[1:]
    if x.size:
        _check_sizes(x.shape, out_shape)
    # As the in-memory call reads them (bool() of the flag; p an int it accepted).
    extra = tuple((k, bool(v) if k == "include_padding" else int(v)) for k, v in sorted(extra.items()))
    g = _PoolGrid(x, out_shape, window_size, strides, start_padding, end_padding, dilations)
    out_chunks = g.out_chunks

    def plan(index):
        intervals, axes = g.block(index)
        block_shape = [out_chunks[a][index[a]] for a in range(2)]
        sub_start, sub_end, skip = [], [], []
        for i, (o0, o1, lo, hi) in enumerate(axes):
            first, last, s0, s1, k = _avg_pool_axis(lo, hi, x.shape[i + 2], g.end[i], g.stride[i], g.extent[i])
            intervals.append([(first, last)])
            sub_start.append(s0)
            sub_end.append(s1)
            skip.append(k)
            block_shape.append(o1 - o0)
        return "run", intervals, (fname, extra, g.window, g.stride, sub_start, sub_end, g.dilation, skip,
                                  tuple(block_shape))

    name = f"dmlc-{fname}-{tokenize(x, g.window, g.stride, g.start, g.end, g.dilation, extra, out_shape)}"
    layers = region_layers(x, name, out_chunks, plan, _avg_pool_block, causal=True)
    return new_array(layers, [x], name, out_chunks, x.dtype)


# ---------------------------------------------------------------------------------------
# lp_pool

@_public
def lp_pool(x, window_size, p=2, *, strides=None, start_padding=None, end_padding=None, dilations=None,
            ceil_mode=False):
    """:func:`dmlc.lp_pool` on a Dask array: the LP norm ``(sum |x|**p) ** (1/p)`` over
    sliding windows (DirectML LP_POOLING1).

    Parameters
    ----------
    x : dask.array.Array or array_like, shape (N, C, *spatial)
        Anything else goes through ``dask.array.asarray``.
    window_size, p, strides, start_padding, end_padding, dilations, ceil_mode
        As :func:`dmlc.lp_pool`.

    Returns
    -------
    dask.array.Array
        The norms, bit for bit the in-memory ones: each window's sum of ``|x|**p`` is
        taken in the same order whatever the chunks.

    Notes
    -----
    Chunks and memory as :func:`avg_pool`, whose window walk this shares: N and C keep
    x's chunks; along each spatial axis window ``o`` belongs to the input chunk holding
    its last element, so input chunks of ``c`` elements, a multiple of the stride, give
    output chunks of about ``c / stride``; each output block's task reads the region its
    windows cover (halos included) and pools it in one call, and peak memory is a few
    chunks per worker however wide the array.

    Argument errors are raised here, with the in-memory messages.
    """
    return _window_sum_pool("lp_pool", x, window_size, strides, start_padding, end_padding, dilations, ceil_mode, p=p)


# ---------------------------------------------------------------------------------------
# depth_to_space / space_to_depth

def _depth_space_block(region, p):
    block_size, order, to_space, phase = p
    if to_space:
        return dmlc.depth_to_space(region, block_size, order=order)
    if phase is not None:
        # One channel group of DEPTH_COLUMN_ROW space_to_depth: the (i, j) phase of each
        # block, out[n, c, h, w] = x[n, c, h*b + i, w*b + j]; a block size of 1 makes
        # space_to_depth the strided copy that gathers it.
        i, j = phase
        return dmlc.space_to_depth(region[:, :, i::block_size, j::block_size], 1)
    return dmlc.space_to_depth(region, block_size, order=order)


def _depth_space(x, block_size, order, to_space, fname):
    x = _as_dask(x)
    known_chunks(x, fname)
    fn = dmlc.depth_to_space if to_space else dmlc.space_to_depth
    out_shape = (x.shape[0],) + fn(_empty_stand_in(x), block_size, order=order).shape[1:]
    if x.size:
        _check_sizes(x.shape, out_shape)
    b = operator.index(block_size)
    bb = b * b
    order = DepthSpaceOrder(enum_value(order, DepthSpaceOrder, fname, "order"))
    crd = order == DepthSpaceOrder.COLUMN_ROW_DEPTH
    n, c, h, w = x.shape
    in_bounds = [bounds_of(ch) for ch in x.chunks]
    split_groups = False  # space_to_depth DCR with several channel chunks: one chunk per group
    if to_space:
        co = c // bb
        if crd:
            c_chunks = chunks_from_bounds([-(-v // bb) for v in in_bounds[1][:-1]], co)
        else:
            c_chunks = chunks_from_bounds([v for v in in_bounds[1] if v < co], co)
        out_chunks = (x.chunks[0], c_chunks, tuple(v * b for v in x.chunks[2]), tuple(v * b for v in x.chunks[3]))
    else:
        if crd:
            c_chunks = tuple(v * bb for v in x.chunks[1])
        elif len(x.chunks[1]) == 1:
            c_chunks = (c * bb,)
        else:
            split_groups = True
            c_chunks = tuple(x.chunks[1]) * bb
        out_chunks = (x.chunks[0], c_chunks,
                      chunks_from_bounds([-(-v // b) for v in in_bounds[2][:-1]], h // b),
                      chunks_from_bounds([-(-v // b) for v in in_bounds[3][:-1]], w // b))
    out_bounds = [bounds_of(ch) for ch in out_chunks]

    def plan(index):
        (n0, n1), (c0, c1), (h0, h1), (w0, w1) = [(out_bounds[a][index[a]], out_bounds[a][index[a] + 1])
                                                  for a in range(4)]
        phase = None
        if to_space:
            rows, cols = [(h0 // b, h1 // b)], [(w0 // b, w1 // b)]
            if crd:  # out channel k reads in channels k*b*b .. k*b*b + b*b - 1
                chans = [(c0 * bb, c1 * bb)]
            else:    # out channel k reads in channels g*co + k for each group g
                chans = [(g * co + c0, g * co + c1) for g in range(bb)]
        else:
            rows, cols = [(h0 * b, h1 * b)], [(w0 * b, w1 * b)]
            if crd:
                chans = [(c0 // bb, c1 // bb)]
            elif not split_groups:
                chans = [(0, c)]
            else:
                g = index[1] // len(x.chunks[1])
                chans = [(c0 - g * c, c1 - g * c)]
                phase = divmod(g, b)
        return "run", [[(n0, n1)], chans, rows, cols], (b, order, to_space, phase)

    name = f"dmlc-{fname}-{tokenize(x, b, int(order))}"
    return new_array(region_layers(x, name, out_chunks, plan, _depth_space_block), [x], name, out_chunks, x.dtype)


@_public
def depth_to_space(x, block_size, *, order="depth_column_row"):
    """:func:`dmlc.depth_to_space` on a Dask array: move blocks of channels into space
    (DirectML DEPTH_TO_SPACE1).

    Parameters
    ----------
    x : dask.array.Array or array_like, shape (N, C, H, W)
        Anything else goes through ``dask.array.asarray``.
    block_size, order
        As :func:`dmlc.depth_to_space`.

    Returns
    -------
    dask.array.Array, shape (N, C / block_size**2, H * block_size, W * block_size)

    Notes
    -----
    Chunks: N keeps x's chunks; H and W chunks grow by ``block_size``.  The channel axis
    is where this operator needs more than one input chunk: output channel ``k`` reads
    ``block_size**2`` input channels, which are adjacent in ``column_row_depth`` order
    (input channel chunks are divided by ``block_size**2``) and ``C / block_size**2``
    apart in ``depth_column_row`` order (output channel chunks follow the input's chunks
    of the first ``C / block_size**2`` channels, and each output block gathers its
    channels from ``block_size**2`` input chunks).  An input with one channel chunk gives
    one output channel chunk, and each output block is one call on one input block.

    Argument errors are raised here, with the in-memory messages.
    """
    return _depth_space(x, block_size, order, True, "depth_to_space")


@_public
def space_to_depth(x, block_size, *, order="depth_column_row"):
    """:func:`dmlc.space_to_depth` on a Dask array: move blocks of space into channels
    (DirectML SPACE_TO_DEPTH1), the inverse of :func:`depth_to_space`.

    Parameters
    ----------
    x : dask.array.Array or array_like, shape (N, C, H, W)
        Anything else goes through ``dask.array.asarray``.
    block_size, order
        As :func:`dmlc.space_to_depth`.

    Returns
    -------
    dask.array.Array, shape (N, C * block_size**2, H / block_size, W / block_size)

    Notes
    -----
    Chunks: N keeps x's chunks; H and W chunks shrink by ``block_size`` (an input chunk
    boundary inside a block of ``block_size`` rows moves to the block's end, and that
    output chunk reads both input chunks).  The channel axis needs whole input chunks:
    in ``column_row_depth`` order every input channel chunk becomes a chunk
    ``block_size**2`` times as large; in ``depth_column_row`` order an input with one
    channel chunk gives one output channel chunk, and several input channel chunks are
    repeated in each of the ``block_size**2`` channel groups of the output (one task per
    group, each a strided copy of one phase of the block).

    Argument errors are raised here, with the in-memory messages.
    """
    return _depth_space(x, block_size, order, False, "space_to_depth")


# ---------------------------------------------------------------------------------------
# pad

def _pad_axis(o0, o1, s, n, mode):
    """How one axis of the output block [o0, o1) is made: the input interval(s) to read,
    the padding a pad call adds to them, and where the block starts in that call's
    result.  The interval is chosen so that the call's own rule (mirror about its edges,
    clamp to its edges) gives what the whole array's rule gives: it starts at 0 where the
    block holds start padding, ends at n where it holds end padding, and holds every
    position a mirror of the block reads (the whole axis if a mirror goes round more
    than once)."""
    lo, hi = o0 - s, o1 - s  # the block's input coordinates, padding outside [0, n)
    if 0 <= lo and hi <= n:
        return [(lo, hi)], 0, 0, 0
    if mode == PaddingMode.WRAP:
        # Coordinate t reads t mod n: a run of whole or partial copies of the axis.
        runs, t = [], lo
        while t < hi:
            p = t % n
            run = min(hi - t, n - p)
            runs.append((p, p + run))
            t += run
        return runs, 0, 0, 0
    if mode == PaddingMode.CONSTANT:
        a, b = min(max(lo, 0), n), min(max(hi, 0), n)
        b = max(a, b)
    elif mode == PaddingMode.EDGE or n == 1:
        a, b = min(max(lo, 0), n - 1), min(max(hi - 1, 0), n - 1) + 1
    else:
        # Mirror: reflection t -> -t and 2(n-1) - t; symmetric t -> -t-1 and 2n-1 - t.
        r = 1 if mode == PaddingMode.REFLECTION else 0
        if lo < -(n - r) or hi - 1 > 2 * n - 1 - r:
            a, b = 0, n
        else:
            ps = []
            if lo < 0:
                t1 = min(hi, 0)
                ps += [-(t1 - 1) - (1 - r), -lo - (1 - r)]
            if max(lo, 0) < min(hi, n):
                ps += [max(lo, 0), min(hi, n) - 1]
            if hi > n:
                t0 = max(lo, n)
                ps += [2 * n - 1 - r - (hi - 1), 2 * n - 1 - r - t0]
            a, b = min(ps), max(ps) + 1
            if lo < 0:
                a = 0
            if hi > n:
                b = n
    sub_start, sub_end = max(0, a - lo), max(0, hi - b)
    return [(a, b)], sub_start, sub_end, lo - (a - sub_start)


def _pad_block(region, p):
    start, end, mode, value, window = p
    if any(start) or any(end):
        region = dmlc.pad(region, start, end, mode=mode, value=value)
    return region[window] if window else region


@_public
def pad(x, start_padding, end_padding, *, mode="constant", value=0):
    """:func:`dmlc.pad` on a Dask array: pad the start and end of every dimension
    (DirectML PADDING1).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    start_padding, end_padding, mode, value
        As :func:`dmlc.pad`; ``value`` is converted to x's dtype exactly as in memory.

    Returns
    -------
    dask.array.Array, shape ``x.shape + start_padding + end_padding``

    Notes
    -----
    Chunks: every chunk is x's, except that the first chunk of each axis grows by its
    start padding and the last by its end padding.  Interior blocks are x's blocks
    themselves (no task).  An edge block reads the input it mirrors, clamps to or wraps
    round to, however many chunks away (``wrap`` reads the other end of the axis), and
    pads it in one call; padding wider than the axis reads the whole axis for that block.

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "pad"
    x = _as_dask(x)
    known_chunks(x, fname)
    _check_arguments(dmlc.pad, _stand_in(x), start_padding, end_padding, mode=mode, value=value)
    m = PaddingMode(enum_value(mode, PaddingMode, "pad", "mode"))
    nd = x.ndim
    s, e = _per_axis(start_padding, nd), _per_axis(end_padding, nd)
    out_shape = tuple(n + a + b for n, a, b in zip(x.shape, s, e))
    if nd and math.prod(out_shape):
        if x.size == 0 and m != PaddingMode.CONSTANT:
            i = x.shape.index(0)
            raise ValueError(f"{fname}: x.shape[{i}] is 0; an empty dimension can only be padded with mode 'constant'")
        if x.size:
            _check_sizes(x.shape, out_shape)
    out_chunks = []
    for a in range(nd):
        ch = list(x.chunks[a])
        ch[0] += s[a]
        ch[-1] += e[a]
        out_chunks.append(tuple(ch))
    out_chunks = tuple(out_chunks)
    out_bounds = [bounds_of(c) for c in out_chunks]

    def plan(index):
        intervals, sub_start, sub_end, window, interior = [], [], [], [], True
        for a in range(nd):
            o0, o1 = out_bounds[a][index[a]], out_bounds[a][index[a] + 1]
            iv, ss, se, w0 = _pad_axis(o0, o1, s[a], x.shape[a], m)
            interior = interior and (ss, se, w0) == (0, 0, 0) and len(iv) == 1 and iv[0] == (o0 - s[a], o1 - s[a])
            intervals.append(iv)
            sub_start.append(ss)
            sub_end.append(se)
            window.append(builtins.slice(w0, w0 + o1 - o0))
        if interior and nd:
            return "alias", index  # an interior block is x's block
        full = all(w.start == 0 and sum(hi - lo for lo, hi in iv) + ss + se == w.stop
                   for w, iv, ss, se in zip(window, intervals, sub_start, sub_end))
        return "run", intervals, (sub_start, sub_end, m, value, None if full else tuple(window))

    name = f"dmlc-pad-{tokenize(x, s, e, int(m), value)}"
    return new_array(region_layers(x, name, out_chunks, plan, _pad_block), [x], name, out_chunks, x.dtype)


# ---------------------------------------------------------------------------------------
# split / join

@_public
def split(x, sections_or_sizes, axis):
    """:func:`dmlc.split` on a Dask array: parts along an axis (DirectML SPLIT).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    sections_or_sizes, axis
        As :func:`dmlc.split`: a number of equal parts, or the size of each part.

    Returns
    -------
    list of dask.array.Array

    Notes
    -----
    Chunks: the other axes keep x's chunks; along ``axis`` each part keeps the pieces of
    x's chunks that fall inside it.  A part is Dask slicing of x, no copy until computed
    (the computed part is assembled from its blocks, as every Dask result).

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "split"
    x = _as_dask(x)
    known_chunks(x, fname)
    _check_arguments(dmlc.split, _stand_in(x), sections_or_sizes, axis)
    sections, sizes = _sections_or_sizes(sections_or_sizes, fname)
    ax = _normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if sizes is None:
        sizes = [n // sections] * sections
    if x.size:
        _check_sizes(x.shape)
    parts, start = [], 0
    for size in sizes:
        parts.append(x[(builtins.slice(None),) * ax + (builtins.slice(start, start + size),)])
        start += size
    return parts


@_public
def join(arrays, axis):
    """:func:`dmlc.join` on Dask arrays: join along an axis (DirectML JOIN), the inverse of
    :func:`split`.

    Parameters
    ----------
    arrays : sequence of dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``; one dtype for all (nothing is
        promoted), equal shapes except on ``axis``.
    axis : int

    Returns
    -------
    dask.array.Array

    Notes
    -----
    Chunks: along ``axis``, the arrays' chunks one after the other; the other axes keep
    the arrays' chunks (where the arrays' chunks differ, each block is cut where any of
    them has a boundary).  The result's blocks are the arrays' blocks, no copy until
    computed: this is ``dask.array.concatenate`` after the in-memory checks.

    Argument errors are raised here, with the in-memory messages.
    """
    if isinstance(arrays, (list, tuple)):
        items = arrays
    else:
        try:
            items = list(arrays)
        except TypeError:
            return dmlc.join(arrays, axis)  # raises the in-memory TypeError
    xs = [_as_dask(a) for a in items]
    for x in xs:
        known_chunks(x, "join")
    _check_arguments(dmlc.join, [_stand_in(x) for x in xs], axis)
    ax = _normalize_axis(axis, xs[0].ndim)
    if any(x.size for x in xs):
        _check_sizes(*[x.shape for x in xs if x.size])
        shape = list(xs[0].shape)
        shape[ax] = sum(x.shape[ax] for x in xs)
        _check_sizes(shape)
    return da.concatenate(xs, axis=ax)


# ---------------------------------------------------------------------------------------
# identity / slice / tile

def _blocks_plan(x):
    """The plan of an operator whose output block at index is made from x's block at
    index alone: the intervals that read that block whole."""
    bounds = [bounds_of(c) for c in x.chunks]
    return lambda index: [[(bounds[a][k], bounds[a][k + 1])] for a, k in enumerate(index)]


def _identity_block(region, p):
    scale, bias = p
    return dmlc.identity(region, scale=scale, bias=bias)


@_public
def identity(x, *, scale=None, bias=None):
    """:func:`dmlc.identity` on a Dask array: copy it, or compute ``x * scale + bias``
    (DirectML ELEMENT_WISE_IDENTITY).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    scale, bias : float, optional
        As :func:`dmlc.identity` (float dtypes only).

    Returns
    -------
    dask.array.Array
        x's shape, dtype and chunks.

    Notes
    -----
    Each output block is one call on x's block: a view (``X.transpose(0, 2, 3, 1)``, a
    reversal, a broadcast) is materialised block by block, every block a new contiguous
    array, as the in-memory function materialises a view.

    Argument errors are raised here, with the in-memory messages.
    """
    x = _as_dask(x)
    known_chunks(x, "identity")
    _check_arguments(dmlc.identity, _stand_in(x), scale=scale, bias=bias)
    blocks = _blocks_plan(x)
    name = f"dmlc-identity-{tokenize(x, scale, bias)}"
    layers = region_layers(x, name, x.chunks, lambda index: ("run", blocks(index), (scale, bias)), _identity_block)
    return new_array(layers, [x], name, x.chunks, x.dtype)


def _cast_block(region, dtype):
    return dmlc.cast(region, dtype)


@_public
def cast(x, dtype):
    """:func:`dmlc.cast` on a Dask array: convert it to another dtype (DirectML CAST), by
    dmlc's rules (float to integer truncates and saturates, NaN becomes 0; integer to
    integer keeps the low bits; one rounding to nearest even into floats).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    dtype : dtype-like
        As :func:`dmlc.cast`: one of the eleven dtypes.

    Returns
    -------
    dask.array.Array
        x's shape and chunks, ``dtype``.

    Notes
    -----
    Blockwise: each output block is one call on x's block, so the result is the in-memory
    one bit for bit whatever the chunking.  Argument errors are raised here, with the
    in-memory messages.
    """
    x = _as_dask(x)
    known_chunks(x, "cast")
    dt = _dtype_arg(dtype, "cast")
    _check_arguments(dmlc.cast, _stand_in(x), dt)
    blocks = _blocks_plan(x)
    name = f"dmlc-cast-{tokenize(x, dt.str)}"
    layers = region_layers(x, name, x.chunks, lambda index: ("run", blocks(index), dt), _cast_block)
    return new_array(layers, [x], name, x.chunks, dt)


def _slice_block(region, steps):
    return dmlc.slice(region, 0, list(region.shape), list(steps))


@_public
def slice(x, offsets, sizes, strides=1):
    """:func:`dmlc.slice` on a Dask array: a strided window (DirectML SLICE1), negative
    strides included.

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    offsets, sizes, strides
        As :func:`dmlc.slice`.

    Returns
    -------
    dask.array.Array, shape ``1 + (sizes - 1) // abs(strides)`` per axis (0 where a size is 0)

    Notes
    -----
    Chunks: output chunks follow input chunks: along each axis, the elements read from
    one input chunk form one output chunk (in reverse order of the input chunks for a
    negative stride), so a stride of 1 over the whole axis keeps x's chunks, and an input
    chunk the stride steps over gives no output chunk.  Each output block is one call on
    the part of one input block it reads.

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "slice"
    x = _as_dask(x)
    known_chunks(x, fname)
    _check_arguments(dmlc.slice, _stand_in(x), offsets, sizes, strides)
    nd = x.ndim
    offs, lens, steps = _per_axis(offsets, nd), _per_axis(sizes, nd), _per_axis(strides, nd)
    # Output element j of an axis reads input element first + step*j (first is the
    # window's end for a negative step).
    firsts = [o if s > 0 else o + n - 1 for o, n, s in zip(offs, lens, steps)]
    out_shape = tuple(0 if n == 0 else 1 + (n - 1) // abs(s) for n, s in zip(lens, steps))
    out_chunks = []
    for a in range(nd):
        f, s = firsts[a], steps[a]
        # The first output element past each input chunk boundary b: f + s*j >= b going
        # up, f + s*j <= b - 1 going down.
        cuts = [-(-(b - f) // s) if s > 0 else -(-(f - b + 1) // -s) for b in bounds_of(x.chunks[a])[1:-1]]
        out_chunks.append(chunks_from_bounds(cuts, out_shape[a]))
    out_chunks = tuple(out_chunks)
    out_bounds = [bounds_of(c) for c in out_chunks]

    def plan(index):
        intervals = []
        for a in range(nd):
            j0, j1 = out_bounds[a][index[a]], out_bounds[a][index[a] + 1]
            f, s = firsts[a], steps[a]
            lo, hi = (f + s * j0, f + s * (j1 - 1)) if s > 0 else (f + s * (j1 - 1), f + s * j0)
            intervals.append([(lo, hi + 1)] if j1 > j0 else [])
        return "run", intervals, tuple(steps)

    name = f"dmlc-slice-{tokenize(x, offs, lens, steps)}"
    return new_array(region_layers(x, name, out_chunks, plan, _slice_block), [x], name, out_chunks, x.dtype)


def _tile_block(region, repeats):
    return dmlc.tile(region, list(repeats))


def _tile_groups(x, reps):
    """Per axis, the copies of x that one output chunk holds: 1 where x has several
    chunks; where x has one chunk, as many as keep the output block within the larger
    of x's largest block and Dask's ``array.chunk-size``, the last axes first."""
    import dask
    from dask.utils import parse_bytes
    block = x.dtype.itemsize * math.prod(max(c) for c in x.chunks)
    limit = max(block, parse_bytes(dask.config.get("array.chunk-size")))
    groups = [1] * x.ndim
    for a in reversed(range(x.ndim)):
        if len(x.chunks[a]) == 1 and reps[a] > 1:
            groups[a] = reps[a] if block == 0 else max(1, min(reps[a], limit // block))
            block *= groups[a]
    return groups


@_public
def tile(x, repeats):
    """:func:`dmlc.tile` on a Dask array: repeat it along each axis (DirectML TILE).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    repeats
        As :func:`dmlc.tile` (fewer values than x's dimensions are padded with 1s at the
        front).

    Returns
    -------
    dask.array.Array, shape ``x.shape * repeats``

    Notes
    -----
    Chunks: along an axis that x holds in several chunks, the output repeats x's chunks
    ``repeats`` times.  Along an axis that x holds in one chunk, an output chunk holds
    several copies of it, as many as keep an output block within the larger of x's largest
    block and Dask's ``array.chunk-size`` (128 MiB unless configured; the last axes are
    grouped first).  Each output block is one call tiling one input block; a block that
    is one copy of an input block is that block itself (no task).

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "tile"
    x = _as_dask(x)
    known_chunks(x, fname)
    _check_arguments(dmlc.tile, _stand_in(x), repeats)
    nd = x.ndim
    if hasattr(repeats, "__index__") and not (isinstance(repeats, np.ndarray) and repeats.ndim > 0):
        given = [operator.index(repeats)]  # as in memory: an int tiles the last axis
    else:
        given = [operator.index(r) for r in repeats]
    reps = [1] * (nd - len(given)) + given
    groups = _tile_groups(x, reps)
    out_chunks = []
    for a in range(nd):
        n, r, g = x.shape[a], reps[a], groups[a]
        if n == 0:
            out_chunks.append((0,))
        elif len(x.chunks[a]) > 1 or r == 1:
            out_chunks.append(tuple(x.chunks[a]) * r)
        else:
            out_chunks.append((g * n,) * (r // g) + (((r % g) * n,) if r % g else ()))
    out_chunks = tuple(out_chunks)
    whole = _blocks_plan(x)

    def plan(index):
        src, copies = [], []
        for a, k in enumerate(index):
            m = len(x.chunks[a])
            if x.shape[a] == 0:
                src.append(k)
                copies.append(reps[a])
            elif m > 1 or reps[a] == 1:
                src.append(k % m)
                copies.append(1)
            else:
                src.append(0)
                copies.append(out_chunks[a][k] // x.shape[a])
        if nd and all(c == 1 for c in copies):
            return "alias", tuple(src)  # one copy of x's block: the block itself
        return "run", whole(tuple(src)), tuple(copies)

    name = f"dmlc-tile-{tokenize(x, reps, out_chunks)}"
    return new_array(region_layers(x, name, out_chunks, plan, _tile_block), [x], name, out_chunks, x.dtype)


# ---------------------------------------------------------------------------------------
# gather

def _gather_piece(block, local, axis):
    """The positions of one output block that fall in one input chunk of the axis: a 1-d
    gather of that chunk's block with the indices made local to it."""
    return dmlc.gather(block, local, axis)


def _gather_block(axis, pre_post, index_shape, dtype, positions, *pieces):
    """Output block of gather: x's block sizes before and after the axis (pre_post), the
    indices' shape in between.  Piece k is the gather of one input chunk of the axis at the
    flattened index positions positions[k]; together they cover every position once."""
    pre, post = pre_post
    count = math.prod(index_shape)
    if len(pieces) == 1 and positions[0] is None:  # one chunk holds every index, in order
        return pieces[0].reshape(pre + index_shape + post)
    out = np.empty(pre + (count,) + post, dtype)
    lead = (builtins.slice(None),) * axis
    for where, piece in zip(positions, pieces):
        out[lead + (where,)] = piece
    return out.reshape(pre + index_shape + post)


@_public
def gather(x, indices, axis):
    """:func:`dmlc.gather` on a Dask array: slices of x along ``axis`` picked by indices
    (DirectML GATHER).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    indices : array_like of int
        An in-memory integer array (NumPy, a list): its values decide which chunks each
        output block reads, so a Dask array is a TypeError (its chunks would depend on data).
        Negative and out-of-range values as in memory: a negative index counts from the end,
        and one still outside the axis is clamped into its first or last chunk.
    axis : int
        As :func:`dmlc.gather`.

    Returns
    -------
    dask.array.Array, shape ``x.shape[:axis] + indices.shape + x.shape[axis+1:]``

    Notes
    -----
    Chunks: the axes of x other than ``axis`` keep their chunks; the axes that come from
    ``indices`` are one chunk each.  ``axis`` may be chunked and is never rechunked: each
    output block takes from every input chunk of the axis the indices that fall in it (one
    gather per chunk, with indices made local to the chunk) and places them; a chunk that
    holds none of the indices is not read.

    Argument errors are raised here, with the in-memory messages.
    """
    fname = "gather"
    if isinstance(indices, da.Array):
        raise TypeError(f"{fname}: indices must be an in-memory array (NumPy, a list), not a Dask array: the chunks "
                        f"each output block reads depend on its values")
    x = _as_dask(x)
    known_chunks(x, fname)
    _check_arguments(dmlc.gather, _stand_in(x), indices, axis)
    idx = np.asarray(indices)
    if idx.size == 0 and not isinstance(indices, np.ndarray):
        idx = idx.astype(np.int64)
    nd = x.ndim
    ax = _normalize_axis(axis, nd)
    n = x.shape[ax]
    out_shape = x.shape[:ax] + idx.shape + x.shape[ax + 1:]
    out_chunks = tuple(x.chunks[:ax]) + tuple((s,) for s in idx.shape) + tuple(x.chunks[ax + 1:])
    if math.prod(out_shape) == 0:
        return da.empty(out_shape, dtype=x.dtype, chunks=out_chunks)
    if n == 0:
        dmlc.gather(_stand_in(x), idx, ax)  # raises the in-memory error: nothing to gather from
    _check_sizes(x.shape, out_shape)
    # The element each index reads, as the in-memory rule: + n below 0, then clamped.
    flat = idx.reshape(-1)
    if flat.dtype.kind == "u":
        eff = np.minimum(flat, np.uint64(n - 1) if flat.dtype.itemsize == 8 else n - 1).astype(np.int64)
    else:
        eff = flat.astype(np.int64)
        eff = np.clip(np.where(eff < 0, eff + n, eff), 0, n - 1)
    bounds = bounds_of(x.chunks[ax])
    chunk_of = np.searchsorted(np.asarray(bounds[1:]), eff, side="right")
    touched = [(c, np.flatnonzero(chunk_of == c)) for c in range(len(x.chunks[ax]))]
    touched = [(c, where) for c, where in touched if where.size]
    in_order = len(touched) == 1
    token = tokenize(x, flat, ax)
    name, pname = f"dmlc-gather-{token}", f"dmlc-gather-piece-{token}"
    pieces, blocks = {}, {}
    q = idx.ndim
    outer = [range(len(c)) for c in x.chunks[:ax]] + [range(len(c)) for c in x.chunks[ax + 1:]]
    for index in itertools.product(*outer):
        pre, post = index[:ax], index[ax:]
        keys = []
        for c, where in touched:
            local = eff[where] - bounds[c]
            key = (pname, c) + index
            pieces[key] = (_gather_piece, (x.name,) + pre + (c,) + post, local, ax)
            keys.append(key)
        pre_post = (tuple(x.chunks[a][i] for a, i in enumerate(pre)),
                    tuple(x.chunks[ax + 1 + a][i] for a, i in enumerate(post)))
        positions = [None] if in_order else [where for _, where in touched]
        blocks[(name,) + pre + (0,) * q + post] = (_gather_block, ax, pre_post, idx.shape, x.dtype, positions) + \
            tuple(keys)
    layers = {pname: (pieces, []), name: (blocks, [pname])}
    return new_array(layers, [x], name, out_chunks, x.dtype)



# ---------------------------------------------------------------------------------------
# resample

def _resample_taps(n, o0, o1, scale, in_off, out_off, linear, rounding):
    """The input elements output indices o0..o1-1 of an axis read, as the core computes
    them (src/ops/resample.c): x = ((o - out_off) / scale) - in_off in double from the
    FLOAT fields; nearest floor(x) (rounding DECREASING) or ceil(x), clamped into [0, n);
    linear x clamped into [0, n - 1], i0 = floor(x), w = x - i0, i1 = min(i0 + 1, n - 1).
    Returns (i0, i1, w) arrays (w 0 for nearest)."""
    o = np.arange(o0, o1, dtype=np.float64)
    scale, in_off, out_off = (np.float64(np.float32(v)) for v in (scale, in_off, out_off))
    x = ((o - out_off) / scale) - in_off
    if not linear:
        i = np.clip(np.floor(x) if rounding else np.ceil(x), 0, n - 1).astype(np.int64)
        return i, i, np.zeros_like(x)
    x = np.clip(x, 0, n - 1)
    i0 = np.floor(x)
    return i0.astype(np.int64), np.minimum(i0 + 1, n - 1).astype(np.int64), x - i0


def _resample_axis(n, o0, o1, scale, in_off, out_off, linear, rounding):
    """One axis of an output block holding o0..o1-1: the input interval [first, last) its
    call reads and that call's (InputPixelOffset, OutputPixelOffset, output index of its
    first kept element).

    The call resamples the interval alone, with the offsets shifted by first and o0 so
    that it reads the same elements with the same weights as the whole call.  The shifted
    arithmetic is checked here against the whole one (the same double operations as the
    core): where a rounding could differ, the block's call starts at input 0 and output 0
    instead (the whole call's coordinates, more memory for that block only)."""
    i0, i1, w = _resample_taps(n, o0, o1, scale, in_off, out_off, linear, rounding)
    first, last = int(i0.min()), int(max(i0.max(), i1[w != 0].max() if (w != 0).any() else 0)) + 1
    io, oo = float(np.float32(in_off + first)), float(np.float32(out_off - o0))
    if io == in_off + first and oo == out_off - o0:
        j0, j1, v = _resample_taps(last - first, 0, o1 - o0, scale, io, oo, linear, rounding)
        read = w != 0
        if (j0 == i0 - first).all() and (j1[read] == i1[read] - first).all() and (v == w).all():
            return first, last, io, oo, 0
    return 0, last, in_off, out_off, o0


def _resample_block(region, p):
    mode, rounding, scales, ins, outs, call_shape, skip, block_shape = p
    y = dmlc._resample._resample2(region, mode, rounding, list(scales), list(ins), list(outs), call_shape, None)
    if call_shape == block_shape:
        return y
    keep = tuple(builtins.slice(k, k + m) for k, m in zip(skip, block_shape))
    return np.ascontiguousarray(y[keep])


@_public
def resample(x, *, scales=None, size=None, mode="nearest", coordinate_transformation="half_pixel",
             nearest_rounding="round_prefer_floor"):
    """:func:`dmlc.resample` on a Dask array: resize any of its axes (DirectML RESAMPLE2).

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    scales, size, mode, coordinate_transformation, nearest_rounding
        As :func:`dmlc.resample`.

    Returns
    -------
    dask.array.Array
        Bit for bit the in-memory result: every output element reads the same input
        elements with the same weights, in the same order.

    Notes
    -----
    Chunks follow x's, scaled by each axis's output / input ratio (an input chunk boundary
    ``b`` gives the output boundary ``b * m // n``).  Each output block's task reads the
    input interval its taps reach (its halo: one element beyond its coordinates for
    linear) from the input blocks it overlaps and resamples it in one call, so memory is a
    few chunks per worker.

    Argument errors are raised here, with the in-memory messages.
    """
    from dmlc._resample import _desc_args
    fname = "resample"
    x = _as_dask(x)
    known_chunks(x, fname)
    mode_v, rounding, sc, ins, outs, out_shape = _desc_args(tuple(x.shape), x.dtype, scales, size, mode,
                                                             coordinate_transformation, nearest_rounding, fname)
    _check_sizes(x.shape, out_shape)
    linear = mode_v == 1
    if x.size == 0 or math.prod(out_shape) == 0:
        return da.empty(out_shape, dtype=x.dtype, chunks=tuple(chunks_from_bounds([], m) for m in out_shape))
    out_chunks = tuple(chunks_from_bounds([b * m // n for b in bounds_of(c)[1:-1]], m)
                       for c, n, m in zip(x.chunks, x.shape, out_shape))
    out_bounds = [bounds_of(c) for c in out_chunks]

    def plan(index):
        intervals, call_ins, call_outs, call_shape, skip, block_shape = [], [], [], [], [], []
        for a, k in enumerate(index):
            o0, o1 = out_bounds[a][k], out_bounds[a][k + 1]
            first, last, io, oo, k0 = _resample_axis(x.shape[a], o0, o1, sc[a], ins[a], outs[a], linear, rounding)
            intervals.append([(first, last)])
            call_ins.append(io)
            call_outs.append(oo)
            call_shape.append(o1 - o0 + k0)
            skip.append(k0)
            block_shape.append(o1 - o0)
        return "run", intervals, (mode_v, rounding, tuple(sc), tuple(call_ins), tuple(call_outs), tuple(call_shape),
                                  tuple(skip), tuple(block_shape))

    name = f"dmlc-resample-{tokenize(x, mode_v, rounding, sc, ins, outs, out_shape)}"
    layers = region_layers(x, name, out_chunks, plan, _resample_block)
    return new_array(layers, [x], name, out_chunks, x.dtype)



# ---------------------------------------------------------------------------------------
# argmax, argmin: a tree reduction of per-block (value, global index) pairs

def _arg_struct(dtype):
    return np.dtype([("v", dtype), ("i", np.int64)])


def _arg_block(block, axes, greatest, last, shape, block_info=None):
    """The block's winner per kept position, its index made global (row-major over the
    reduced axes of the whole array), the reduced axes kept with size 1."""
    nd = block.ndim
    kept = [a for a in range(nd) if a not in axes]
    out_shape = [1 if a in axes else block.shape[a] for a in range(nd)]
    out = np.empty(out_shape, _arg_struct(block.dtype))
    if block.size == 0:
        return out
    fn = dmlc.argmax if greatest else dmlc.argmin
    local = fn(block, axes, keepdims=True, select_last_index=last).reshape(-1)
    flat = np.transpose(block, kept + list(axes)).reshape(-1, math.prod(block.shape[a] for a in axes))
    out["v"] = np.take_along_axis(flat, local[:, None], 1).reshape(out_shape)
    coords = np.unravel_index(local, [block.shape[a] for a in axes])
    starts = [block_info[0]["array-location"][a][0] for a in axes]
    out["i"] = np.ravel_multi_index([c + s for c, s in zip(coords, starts)], [shape[a] for a in axes]).reshape(out_shape)
    return out


def _arg_pick(x, axis, greatest, last):
    """Of the candidates along `axis` (a tuple), per kept position: the greatest (least) value
    in dmlc's order, of equal values the least (greatest, with last) global index."""
    nd = x.ndim
    kept = [a for a in range(nd) if a not in axis]
    out_shape = [1 if a in axis else x.shape[a] for a in range(nd)]
    out = np.empty(out_shape, x.dtype)
    if x.size == 0:
        return out
    flat = np.transpose(x, kept + list(axis)).reshape(-1, math.prod(x.shape[a] for a in axis))
    v, i = flat["v"], flat["i"]
    pos = (dmlc.argmax if greatest else dmlc.argmin)(v, -1, keepdims=True)
    best = np.take_along_axis(v, pos, 1)
    eq = v == best
    if v.dtype.kind == "f":
        eq |= np.isnan(v) & np.isnan(best)
    idx = np.where(eq, i, -1).max(1) if last else np.where(eq, i, np.iinfo(np.int64).max).min(1)
    out["v"] = best.reshape(out_shape)
    out["i"] = idx.reshape(out_shape)
    return out


def _arg_combine(x, axis, keepdims, greatest, last):
    return _arg_pick(x, axis, greatest, last)


def _arg_chunk(x, axis, keepdims):
    return x  # the blocks are already one pair per chunk along the reduced axes


def _arg_indices(pairs, indices_dtype):
    return pairs["i"].astype(indices_dtype)


def _arg(x, axis, keepdims, select_last_index, indices_dtype, fname):
    x = _as_dask(x)
    known_chunks(x, fname)
    fn = dmlc.argmax if fname == "argmax" else dmlc.argmin
    _check_arguments(fn, _stand_in(x), axis, keepdims=keepdims, select_last_index=select_last_index,
                     indices_dtype=indices_dtype)
    nd = x.ndim
    if axis is None:
        axes = tuple(range(nd))
    elif hasattr(axis, "__index__"):
        axes = (_normalize_axis(axis, nd),)
    else:
        axes = tuple(sorted(_normalize_axis(a, nd) for a in axis))
    idt = np.dtype(indices_dtype)
    reduced = math.prod(x.shape[a] for a in axes)
    if idt.itemsize == 4 and reduced - 1 > np.iinfo(idt).max:  # the core's check, made here for the whole array
        raise ValueError(f"DML_OPERATOR_{fname.upper()}: OutputTensor.DataType is {idt.name.upper()}, which cannot "
                         f"hold index {reduced - 1} (the reduced element count {reduced} - 1)")
    greatest = fname == "argmax"
    out_shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape) if keepdims or a not in axes)
    if x.size == 0:
        return da.empty(out_shape, dtype=idt)
    partial = x.map_blocks(_arg_block, axes, greatest, bool(select_last_index), x.shape,
                           dtype=_arg_struct(x.dtype),
                           chunks=tuple((1,) * len(c) if a in axes else c for a, c in enumerate(x.chunks)),
                           meta=np.empty((0,) * nd, _arg_struct(x.dtype)))
    pick = functools.partial(_arg_combine, greatest=greatest, last=bool(select_last_index))
    pairs = da.reduction(partial, _arg_chunk, pick, axis=axes, keepdims=True, dtype=_arg_struct(x.dtype), combine=pick,
                         concatenate=True, meta=np.empty((0,) * nd, _arg_struct(x.dtype)))
    indices = pairs.map_blocks(_arg_indices, idt, dtype=idt, meta=np.empty((0,) * nd, idt))
    return indices if keepdims else da.squeeze(indices, axis=axes)


@_public
def argmax(x, axis=None, *, keepdims=False, select_last_index=False, indices_dtype="int64"):
    """:func:`dmlc.argmax` on a Dask array: the index of the greatest element over `axis`.

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    axis, keepdims, select_last_index, indices_dtype
        As :func:`dmlc.argmax` (None: all axes, the flat index; a tuple: row-major over them).

    Returns
    -------
    dask.array.Array of ``indices_dtype``

    Notes
    -----
    A tree reduction: each block gives, per kept position, its winner's value and index
    (made global: row-major over the reduced axes of the whole array); the pairs are then
    combined by dmlc's order (NaN above +inf, -0 equal to +0), equal values by the smaller
    index (the larger with ``select_last_index``), so the result is the in-memory one for
    every chunking.  Chunks of the kept axes stay.  Argument errors are raised here, with
    the in-memory messages.
    """
    return _arg(x, axis, keepdims, select_last_index, indices_dtype, "argmax")


@_public
def argmin(x, axis=None, *, keepdims=False, select_last_index=False, indices_dtype="int64"):
    """:func:`dmlc.argmin` on a Dask array: the index of the least element over `axis`.

    As :func:`argmax` with the least element (a NaN's index only when all are NaN).

    Parameters
    ----------
    x : dask.array.Array or array_like
    axis, keepdims, select_last_index, indices_dtype
        As :func:`dmlc.argmin`.

    Returns
    -------
    dask.array.Array of ``indices_dtype``
    """
    return _arg(x, axis, keepdims, select_last_index, indices_dtype, "argmin")


# ---------------------------------------------------------------------------------------
# top_k: each chunk's k best along the axis (indices made global), then one merge of the
# candidates per row (dask's topk pattern).

def _top_k_block(block, k, axis, largest, block_info=None):
    """The block's min(k, length) best along axis as (value, global index) pairs, sorted."""
    offset = block_info[0]["array-location"][axis][0] if block_info else 0
    v, i = dmlc.top_k(block, min(k, block.shape[axis]), axis, largest=largest)
    out = np.empty(v.shape, _arg_struct(block.dtype))
    out["v"] = v
    out["i"] = i + offset
    return out


def _top_k_merge(cand, k, axis, largest):
    """The k best of the candidates.  Along the axis they come chunk after chunk, each
    chunk's sorted with equal values by ascending index, so equal values stand in the order
    of their global indices and top_k's tie rule (ascending position) keeps it."""
    v, pos = dmlc.top_k(cand["v"], k, axis, largest=largest)
    out = np.empty(v.shape, cand.dtype)
    out["v"] = v
    out["i"] = np.take_along_axis(cand["i"], pos, axis)
    return out


def _field(pairs, name, dtype):
    return pairs[name].astype(dtype, copy=False)


@_public
def top_k(x, k, axis=-1, *, largest=True, indices_dtype="int64"):
    """:func:`dmlc.top_k` on a Dask array: the k greatest (or least) along `axis`, sorted,
    and their indices.

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    k, axis, largest, indices_dtype
        As :func:`dmlc.top_k`.

    Returns
    -------
    (dask.array.Array, dask.array.Array)
        The values (x's dtype) and indices (``indices_dtype``); ``axis`` is one chunk of
        size k, the other axes keep their chunks.

    Notes
    -----
    Each chunk gives its own k best along ``axis`` (indices made global), and the
    candidates of a row are merged by the same order and tie rule, so the result is the
    in-memory one, bit for bit, for every chunking.  Argument errors are raised here, with
    the in-memory messages.
    """
    x = _as_dask(x)
    known_chunks(x, "top_k")
    _check_arguments(dmlc.top_k, _stand_in(x), k, axis, largest=largest, indices_dtype=indices_dtype)
    nd = x.ndim
    ax = _normalize_axis(axis, nd)
    k = operator.index(k)
    idt = np.dtype(indices_dtype)
    n = x.shape[ax]
    if idt.itemsize == 4 and n - 1 > np.iinfo(idt).max:  # the core's check, made here for the whole axis
        raise ValueError(f"DML_OPERATOR_TOP_K1: OutputIndexTensor.DataType is {idt.name.upper()}, which cannot hold "
                         f"index {n - 1} (the sequence length InputTensor.Sizes[{ax}] {n} - 1)")
    out_shape = x.shape[:ax] + (k,) + x.shape[ax + 1:]
    if math.prod(out_shape) == 0:
        return da.empty(out_shape, dtype=x.dtype), da.empty(out_shape, dtype=idt)
    big = bool(largest)
    pair = _arg_struct(x.dtype)
    cand = x.map_blocks(_top_k_block, k, ax, big, dtype=pair,
                        chunks=tuple(tuple(min(k, c) for c in cs) if a == ax else cs for a, cs in enumerate(x.chunks)),
                        meta=np.empty((0,) * nd, pair))
    best = cand.rechunk({ax: -1}).map_blocks(_top_k_merge, k, ax, big, dtype=pair,
                                            chunks=tuple((k,) if a == ax else cs for a, cs in enumerate(x.chunks)),
                                            meta=np.empty((0,) * nd, pair))
    return (best.map_blocks(_field, "v", x.dtype, dtype=x.dtype, meta=np.empty((0,) * nd, x.dtype)),
            best.map_blocks(_field, "i", idt, dtype=idt, meta=np.empty((0,) * nd, idt)))


# ---------------------------------------------------------------------------------------
# cumsum, cumprod: the chunks along the axis run one after another, each continuing from
# the previous chunk's final accumulator (dask's cumreduction adds per-chunk totals
# afterwards, which rounds differently); the blocks of the other axes run in parallel.

def _along(axis, nd, index):
    """An index tuple taking `index` (an int or a slice) on `axis` and everything elsewhere."""
    return tuple(index if a == axis else builtins.slice(None) for a in range(nd))


def _scan_block(block, carry=None, *, fn, axis, exclusive, reverse, acc_dtype):
    """One chunk of the scan, continued from `carry` (the accumulator so far, size 1 along
    axis, in acc_dtype; None for the chunk the scan starts with).  Returns the chunk's
    results in acc_dtype (float32 for float16: the core accumulates float16 in float32, and
    float16 -> float32 is exact, so a float32 scan of the widened chunk takes the same
    steps) followed along the axis by the new accumulator.

    With a carry c, the core scans [c, x0, x1, ...]: its results c, c+x0, (c+x0)+x1, ...
    are the whole array's accumulators in order.  The chunk the scan starts with is
    scanned alone, so its first result is x0 itself (-0.0 kept)."""
    nd = block.ndim
    work = block.astype(acc_dtype, copy=False)
    if reverse:  # scanned forwards, flipped back below
        work = np.flip(work, axis)
    if carry is None:
        inc = fn(work, axis)
        first = np.full(_carry_shape(work.shape, axis), 1 if fn is dmlc.cumprod else 0, acc_dtype)
    else:
        inc = fn(np.concatenate([carry, work], axis), axis)[_along(axis, nd, builtins.slice(1, None))]
        first = carry
    out = np.concatenate([first, inc[_along(axis, nd, builtins.slice(None, -1))]], axis) if exclusive else inc
    if reverse:
        out = np.flip(out, axis)
    return np.concatenate([out, inc[_along(axis, nd, builtins.slice(-1, None))]], axis)


def _carry_shape(shape, axis):
    return tuple(1 if a == axis else n for a, n in enumerate(shape))


def _scan(x, axis, exclusive, reverse, fname):
    x = _as_dask(x)
    known_chunks(x, fname)
    fn = dmlc.cumsum if fname == "cumsum" else dmlc.cumprod
    _check_arguments(fn, _stand_in(x), axis, exclusive=exclusive, reverse=reverse)
    nd = x.ndim
    axis = _normalize_axis(axis, nd)
    _check_sizes(x.shape)
    if x.size == 0:
        return da.empty(x.shape, dtype=x.dtype, chunks=x.chunks)
    acc = np.dtype(np.float32) if x.dtype == np.float16 else x.dtype
    nblocks = len(x.chunks[axis])
    pieces = [None] * nblocks
    carry = None
    token = tokenize(x, axis, exclusive, reverse, fname)
    for k in (reversed(range(nblocks)) if reverse else range(nblocks)):
        xk = x.blocks[_along(axis, nd, k)]
        m = xk.shape[axis]
        chunks = tuple((m + 1,) if a == axis else c for a, c in enumerate(xk.chunks))
        args = (xk,) if carry is None else (xk, carry)
        both = da.map_blocks(_scan_block, *args, fn=fn, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse),
                             acc_dtype=acc, dtype=acc, chunks=chunks, meta=np.empty((0,) * nd, acc),
                             name=f"dmlc-{fname}-{k}-{token}")
        out = both[_along(axis, nd, builtins.slice(0, m))]
        carry = both[_along(axis, nd, builtins.slice(m, m + 1))]
        # float16: each result rounded once from the float32 accumulator, as the core does
        pieces[k] = out if acc == x.dtype else out.map_blocks(dmlc.cast, x.dtype, dtype=x.dtype)
    return da.concatenate(pieces, axis)


@_public
def cumsum(x, axis, *, exclusive=False, reverse=False):
    """:func:`dmlc.cumsum` on a Dask array: running sums along `axis`, in x's dtype.

    Parameters
    ----------
    x : dask.array.Array or array_like
        Anything else goes through ``dask.array.asarray``.
    axis, exclusive, reverse
        As :func:`dmlc.cumsum`.

    Returns
    -------
    dask.array.Array
        x's shape, dtype and chunks.

    Notes
    -----
    Bit for bit the in-memory result for every chunking: the chunks along `axis` are scanned
    one after another (from the last with ``reverse``), each continuing from the previous
    chunk's final accumulator (float32 for float16), so every sum is formed in the
    in-memory order.  The blocks of the other axes run in parallel.  (``dask.array.cumsum``
    adds per-chunk totals afterwards, which rounds differently.)  Argument errors are
    raised here, with the in-memory messages.

    Examples
    --------
    >>> import numpy as np, dask.array as da, dmlc.dask as dd
    >>> x = da.from_array(np.array([2, 1, 3, 5, 3, 8], np.float32), chunks=2)
    >>> dd.cumsum(x, 0).compute()
    array([ 2.,  3.,  6., 11., 14., 22.], dtype=float32)
    >>> dd.cumsum(x, 0, exclusive=True, reverse=True).compute()
    array([20., 19., 16., 11.,  8.,  0.], dtype=float32)
    """
    return _scan(x, axis, exclusive, reverse, "cumsum")


@_public
def cumprod(x, axis, *, exclusive=False, reverse=False):
    """:func:`dmlc.cumprod` on a Dask array: running products along `axis`, in x's dtype.

    As :func:`cumsum` with products.

    Parameters
    ----------
    x : dask.array.Array or array_like
    axis, exclusive, reverse
        As :func:`dmlc.cumprod`.

    Returns
    -------
    dask.array.Array

    Examples
    --------
    >>> import numpy as np, dask.array as da, dmlc.dask as dd
    >>> dd.cumprod(da.from_array(np.array([2, 4, 8, 3], np.int8), chunks=1), 0).compute()
    array([  2,   8,  64, -64], dtype=int8)
    """
    return _scan(x, axis, exclusive, reverse, "cumprod")
