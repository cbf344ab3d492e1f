"""Plain-NumPy references for every dmlc operator, written from the operator pages (docs/operators/) independently of the
C core: the one home of each (test files import them, never redefine them).

Where a second, differently written formulation of the same rule exists (ref_loop for max
pooling, the reshape/transpose form of depth/space), it is here too, and a test checks that
the two agree."""
import itertools
import math

import numpy as np

__all__ = ["MODES", "NP_MODE", "crd_depth_to_space", "crd_space_to_depth", "dcr_depth_to_space",
           "dcr_space_to_depth", "float_value_reference", "lowest", "np_pad", "output_sizes", "ref_depth_to_space",
           "ref_loop", "ref_max_pool", "ref_pad", "ref_space_to_depth", "ref_split", "source_index",
           "ref_scale_bias", "ref_slice", "ref_slice1", "ref_tile", "window_indices"]
__all__ += ["avg_pool_loop", "ref_avg_pool", "ref_max_unpool", "unpool_loop"]
__all__ += ["pool_windows", "ref_lp_pool"]
__all__ += ["ref_gather"]


# ---- DEPTH_TO_SPACE(1), SPACE_TO_DEPTH(1) --------------------------------------------------

def ref_depth_to_space(x, b, order="depth_column_row"):
    """out[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*Co + c, h, w]  (DCR)
                                 x[n, c*b*b + i*b + j, h, w]  (CRD)"""
    n, c, h, w = x.shape
    co = c // (b * b)
    out = np.empty((n, co, h * b, w * b), x.dtype)
    for i in range(b):
        for j in range(b):
            for cc in range(co):
                src = (i * b + j) * co + cc if order == "depth_column_row" else cc * b * b + i * b + j
                out[:, cc, i::b, j::b] = x[:, src]
    return out


def ref_space_to_depth(y, b, order="depth_column_row"):
    n, co, hb, wb = y.shape
    out = np.empty((n, co * b * b, hb // b, wb // b), y.dtype)
    for i in range(b):
        for j in range(b):
            for cc in range(co):
                dst = (i * b + j) * co + cc if order == "depth_column_row" else cc * b * b + i * b + j
                out[:, dst] = y[:, cc, i::b, j::b]
    return out


# The same permutations as one reshape and transpose each (DCR: depth_column_row, CRD:
# column_row_depth): an independent formulation that checks the loops above.
def dcr_depth_to_space(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)


def crd_depth_to_space(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (b * b), h * b, w * b)


def dcr_space_to_depth(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


def crd_space_to_depth(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // b, b, w // b, b).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * b * b, h // b, w // b)


# ---- PADDING, PADDING1 ----------------------------------------------------------------------

MODES = ["constant", "edge", "reflection", "symmetric", "wrap"]
NP_MODE = {"constant": "constant", "edge": "edge", "reflection": "reflect", "symmetric": "symmetric", "wrap": "wrap"}


def source_index(t, n, mode):
    """docs/operators/padding.rst, for an array t of input coordinates (output coordinate - start): the input
    coordinate each reads, or -1 for the constant.  Written from the spec, independently of
    the C core's walk."""
    inside = (t >= 0) & (t < n)
    if mode == "constant":
        return np.where(inside, t, -1)
    if mode == "edge" or n == 1:
        return np.clip(t, 0, n - 1)
    if mode == "wrap":
        return t % n  # NumPy's % is floored: never negative
    if mode == "reflection":
        u = t % (2 * (n - 1))
        return np.where(u < n, u, 2 * (n - 1) - u)
    u = t % (2 * n)  # symmetric
    return np.where(u < n, u, 2 * n - 1 - u)


def ref_pad(x, start, end, mode, value=0):
    """Gathers each axis in turn; constant positions are filled afterwards by a mask."""
    out = np.asarray(x)
    mask = np.zeros((), bool)
    for axis, (s, e) in enumerate(zip(start, end)):
        n = out.shape[axis]
        src = source_index(np.arange(-s, n + e), n, mode)
        out = np.take(out, np.maximum(src, 0), axis=axis)
        shape = [1] * out.ndim
        shape[axis] = len(src)
        mask = mask | (src < 0).reshape(shape)
    out = out.copy()
    out[np.broadcast_to(mask, out.shape)] = value
    return out


def np_pad(x, start, end, mode, value=0):
    kw = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, list(zip(start, end)), mode=NP_MODE[mode], **kw)


def float_value_reference(f32, dtype):
    """What docs/operators/padding.rst says PADDING makes of a FLOAT: integers truncate toward zero and saturate,
    NaN is 0; FLOAT16 rounds to nearest even (NumPy's float32 -> float16 cast does)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array([f32], np.float32).astype(dtype)
    info = np.iinfo(dtype)
    f = float(f32)
    if f != f:
        v = 0
    elif f in (float("inf"), float("-inf")):
        v = info.max if f > 0 else info.min
    else:
        v = min(max(int(f), info.min), info.max)  # int() truncates toward zero
    return np.array([v], dtype)


# ---- SPLIT, JOIN ----------------------------------------------------------------------------

def ref_split(x, sizes, axis):
    """np.split takes split points; DirectML (and dmlc.split's list) takes sizes."""
    return np.split(x, np.cumsum(sizes)[:-1].astype(int), axis=axis)


# ---- MAX_POOLING, MAX_POOLING1, MAX_POOLING2 -----------------------------------------------

def lowest(dtype):
    dtype = np.dtype(dtype)
    return np.array(-np.inf, dtype) if dtype.kind == "f" else np.array(np.iinfo(dtype).min, dtype)


def output_sizes(spatial, window, strides, start, end, dilations, ceil_mode=False):
    """Pooling's output sizes: floor (ceil_mode False), PyTorch's and ONNX's ceil mode
    (True: the ceil size less one where its last window would start in the end padding), or
    "plain": the ceil size itself, which the raw ABI also accepts."""
    out = []
    for n, w, s, a, b, d in zip(spatial, window, strides, start, end, dilations):
        k = (w - 1) * d + 1
        o = (n + a + b - k + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode is True and (o - 1) * s >= n + a:
            o -= 1  # PyTorch's and ONNX's ceil_mode: no last window starting in the end padding
        out.append(o)
    return out


def ref_max_pool(x, window, strides, start, end, dilations, ceil_mode=False):
    """docs/operators/max_pooling2.rst in NumPy: (values, flat uint64 indices; all ones for an empty window).

    Every element gets a rank: its position among the distinct values, NaN above all (all
    NaNs alike) and -0 equal to +0; padding has rank 0.  argmax over each row-major
    flattened window then picks the first maximum, i.e. the first NaN or the first of
    equal values, exactly the rule; the value is that element's own bits."""
    x = np.asarray(x)
    sp = x.ndim - 2
    flat = x.reshape(-1)
    if x.dtype.kind == "f":
        with np.errstate(invalid="ignore"):  # a signalling NaN is still a NaN
            keys = flat.astype(np.float64)
        keys[keys == 0] = 0.0  # -0 and +0 tie
        _, inv = np.unique(keys, return_inverse=True, equal_nan=True)
    else:
        _, inv = np.unique(flat, return_inverse=True)
    ranks = inv.reshape(x.shape).astype(np.int64) + 1
    index = np.arange(x.size, dtype=np.uint64).reshape(x.shape)
    outs = output_sizes(x.shape[2:], window, strides, start, end, dilations, ceil_mode)
    keff = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    pads = [(0, 0), (0, 0)]
    for i in range(sp):
        need = (outs[i] - 1) * strides[i] + keff[i]  # the padded extent the windows cover
        pads.append((start[i], max(end[i], need - x.shape[i + 2] - start[i])))
    axes = tuple(range(2, 2 + sp))
    wr = np.lib.stride_tricks.sliding_window_view(np.pad(ranks, pads), keff, axis=axes)
    wi = np.lib.stride_tricks.sliding_window_view(np.pad(index, pads), keff, axis=axes)
    sel = (slice(None), slice(None)) + tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(outs, strides)) \
        + tuple(slice(None, None, d) for d in dilations)
    wr = wr[sel].reshape(x.shape[0], x.shape[1], *outs, -1)
    wi = wi[sel].reshape(x.shape[0], x.shape[1], *outs, -1)
    arg = wr.argmax(axis=-1)[..., None]
    empty = np.take_along_axis(wr, arg, -1)[..., 0] == 0
    idx = np.take_along_axis(wi, arg, -1)[..., 0]
    values = flat[np.where(empty, 0, idx).astype(np.intp)]
    values[empty] = lowest(x.dtype)
    idx[empty] = np.iinfo(np.uint64).max
    return values, idx


def ref_loop(x, window, strides, start, end, dilations, ceil_mode=False):
    """The same rule written as docs/operators/max_pooling2.rst words it, one window at a time (slow): checks the
    vectorised reference on small cases."""
    sp = x.ndim - 2
    outs = output_sizes(x.shape[2:], window, strides, start, end, dilations, ceil_mode)
    values = np.empty(x.shape[:2] + tuple(outs), x.dtype)
    idx = np.empty(values.shape, np.uint64)
    for pos in itertools.product(*map(range, values.shape)):
        n, c, o = pos[0], pos[1], pos[2:]
        best = None
        for t in itertools.product(*map(range, window)):
            coord = [o[i] * strides[i] - start[i] + t[i] * dilations[i] for i in range(sp)]
            if not all(0 <= q < m for q, m in zip(coord, x.shape[2:])):
                continue
            v = x[(n, c, *coord)]
            if best is None or (not (best != best) and (v != v or v > best)):
                best, where = v, np.ravel_multi_index((n, c, *coord), x.shape)
        values[pos] = lowest(x.dtype) if best is None else best
        idx[pos] = np.iinfo(np.uint64).max if best is None else where
    return values, idx


# ---- ELEMENT_WISE_IDENTITY, SLICE, SLICE1, TILE ----------------------------------------------

def ref_scale_bias(x, scale, bias):
    """docs/operators/element_wise_identity.rst: x*Scale + Bias as two separately rounded float32 operations (NumPy's float32
    arithmetic rounds each ufunc), then one conversion to the type; FLOAT64 in float64
    with the float32 Scale and Bias widened."""
    x = np.asarray(x)
    s, b = np.float32(scale), np.float32(bias)
    with np.errstate(over="ignore", invalid="ignore"):
        if x.dtype == np.float64:
            return x * np.float64(s) + np.float64(b)
        y = x.astype(np.float32) * s
        y = y + b
        return y.astype(x.dtype)


def window_indices(n, offset, size, stride):
    """SLICE1 along one axis: the input indices start + stride*o for every o the window
    holds, start being the window's end for a negative stride."""
    start = offset + (size - 1 if stride < 0 else 0)
    count = 0 if size == 0 else 1 + (size - 1) // abs(stride)
    idx = start + stride * np.arange(count)
    assert size == 0 or (0 <= idx.min() and idx.max() < n and offset + size <= n), "window outside the input"
    return idx


def ref_slice1(x, offsets, sizes, strides):
    x = np.asarray(x)
    return x[np.ix_(*[window_indices(n, o, s, t) for n, o, s, t in zip(x.shape, offsets, sizes, strides)])]


def ref_slice(x, offsets, sizes, strides):
    """SLICE: out[o] = in[offsets + strides*o], Sizes elements per axis."""
    x = np.asarray(x)
    return x[np.ix_(*[o + t * np.arange(s) for o, s, t in zip(offsets, sizes, strides)])]


def ref_tile(x, repeats):
    """out[o] = x[o mod x.shape], written as a gather (np.tile is the oracle elsewhere)."""
    x = np.asarray(x)
    return x[np.ix_(*[np.arange(n * r) % n for n, r in zip(x.shape, repeats)])]
# ---- MAX_UNPOOLING ----------------------------------------------------------------------------

def ref_max_unpool(x, indices, out_shape):
    """docs/operators/max_unpooling.rst: zeros, then out.flat[indices[i]] = x.flat[i] in row-major order; a later
    element wins a duplicate index, an index past the output writes nothing.  The winner of
    each index is found as its last occurrence (the first in reversed order), not by
    relying on NumPy's order of fancy assignment."""
    x = np.asarray(x)
    out = np.zeros(out_shape, x.dtype)
    idx = np.asarray(indices).reshape(-1).astype(np.uint64)
    src = np.flatnonzero(idx < out.size)
    targets, first_reversed = np.unique(idx[src][::-1], return_index=True)
    out.reshape(-1)[targets.astype(np.intp)] = x.reshape(-1)[src[::-1][first_reversed]]
    return out


def unpool_loop(x, indices, out_shape):
    """The same rule, one element at a time (slow): checks ref_max_unpool."""
    out = np.zeros(out_shape, x.dtype)
    flat = out.reshape(-1)
    for v, k in zip(np.asarray(x).reshape(-1), np.asarray(indices).reshape(-1)):
        if int(k) < flat.size:
            flat[int(k)] = v
    return out


# ---- AVERAGE_POOLING, AVERAGE_POOLING1 ----------------------------------------------------------

def pool_windows(x, window, strides, start, end, dilations, ceil_mode=False):
    """The pooling window walk in NumPy: (pads, windows).  windows(a) gives array a (x's
    shape) zero-padded, as (N, C, *out_spatial, window elements), row-major over the
    dilated window; pads holds the padding per axis, the end padding grown where a
    ceil-mode window runs past it; windows(a, extra_end) pads only the ends, by extra_end."""
    sp = x.ndim - 2
    outs = output_sizes(x.shape[2:], window, strides, start, end, dilations, ceil_mode)
    keff = [(w - 1) * d + 1 for w, d in zip(window, dilations)]
    pads = [(0, 0), (0, 0)]
    for i in range(sp):
        need = (outs[i] - 1) * strides[i] + keff[i]  # a ceil-mode window may run past the end padding
        pads.append((start[i], max(end[i], need - x.shape[i + 2] - start[i])))
    axes = tuple(range(2, 2 + sp))

    def windows(a, extra_end=None):
        pa = pads if extra_end is None else [(0, 0), (0, 0)] + [(0, e) for e in extra_end]
        w = np.lib.stride_tricks.sliding_window_view(np.pad(a, pa), keff, axis=axes)
        sel = (slice(None), slice(None)) + tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(outs, strides)) \
            + tuple(slice(None, None, d) for d in dilations)
        return w[sel].reshape(x.shape[0], x.shape[1], *outs, -1)

    return pads, windows


def ref_avg_pool(x, window, strides, start, end, dilations, include_padding=False, ceil_mode=False):
    """docs/operators/average_pooling1.rst in float64: (averages, bounds).  The average is the sum of the window's
    elements inside x over their count, or (include_padding) over the count of window
    positions inside the padded input [-start, n + end); nothing to divide by gives NaN.
    bounds is the error that page allows per output, (n + 1) * (eps * max|x| + tiny) with n the
    elements summed, max|x| over them, eps and tiny of x's dtype (NaN where the exact
    average is not finite: those must match exactly)."""
    x = np.asarray(x)
    pads, windows = pool_windows(x, window, strides, start, end, dilations, ceil_mode)
    with np.errstate(invalid="ignore", over="ignore"):
        values = x.astype(np.float64)
    inside = np.ones(x.shape, np.float64)
    padded = np.pad(np.ones(x.shape, np.float64), [(a, b) for a, b in zip([0, 0] + list(start), [0, 0] + list(end))],
                    constant_values=1)

    finite = np.where(np.isfinite(values), values, 0.0)
    with np.errstate(invalid="ignore"):
        sums = windows(values).sum(axis=-1)  # inf - inf and NaN give NaN, as in any order of summation
    counts = windows(inside).sum(axis=-1)
    if include_padding:
        # padded already holds the start and end padding: only a ceil window's overrun is added.
        divisor = windows(padded, [p[1] - e for p, e in zip(pads[2:], end)]).sum(axis=-1)
    else:
        divisor = counts
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = np.where(divisor > 0, sums / np.where(divisor > 0, divisor, 1), np.nan)
    info = np.finfo(x.dtype)
    maxabs = np.abs(windows(finite)).max(axis=-1)
    bounds = (counts + 1) * (float(info.eps) * maxabs + float(info.smallest_subnormal))
    bounds = np.where(np.isfinite(avg), bounds, np.nan)
    return avg, bounds


def avg_pool_loop(x, window, strides, start, end, dilations, include_padding=False, ceil_mode=False):
    """The same rule written as docs/operators/average_pooling1.rst words it, one window at a time, in float64 (slow):
    checks ref_avg_pool on small cases."""
    sp = x.ndim - 2
    outs = output_sizes(x.shape[2:], window, strides, start, end, dilations, ceil_mode)
    out = np.empty(x.shape[:2] + tuple(outs), np.float64)
    for pos in itertools.product(*map(range, out.shape)):
        n, c, o = pos[0], pos[1], pos[2:]
        total, count, positions = 0.0, 0, 0
        for t in itertools.product(*map(range, window)):
            coord = [o[i] * strides[i] - start[i] + t[i] * dilations[i] for i in range(sp)]
            if all(-a <= q < m + b for q, m, a, b in zip(coord, x.shape[2:], start, end)):
                positions += 1
            if all(0 <= q < m for q, m in zip(coord, x.shape[2:])):
                total += float(x[(n, c, *coord)])
                count += 1
        divisor = positions if include_padding else count
        out[pos] = total / divisor if divisor else np.nan
    return out


# ---- LP_POOLING, LP_POOLING1 ----------------------------------------------------------------

def ref_lp_pool(x, window, strides, start, end, dilations, p, ceil_mode=False):
    """docs/operators/lp_pooling1.rst in long double: (norms, bounds).  The norm is
    (sum of |x|^p)^(1/p) over the window's elements inside x (padding adds nothing, an empty
    window gives 0).  bounds is the error that page allows per output, (n + 3) * eps * y +
    (n + 1) * tiny with n the elements inside, eps and tiny of x's dtype (NaN where y is not
    finite: those must match exactly)."""
    x = np.asarray(x)
    _, windows = pool_windows(x, window, strides, start, end, dilations, ceil_mode)
    with np.errstate(invalid="ignore", over="ignore"):
        terms = np.abs(x.astype(np.longdouble)) ** p
    sums = windows(terms).sum(axis=-1)
    counts = windows(np.ones(x.shape, np.float64)).sum(axis=-1)
    with np.errstate(invalid="ignore", over="ignore"):
        y = sums ** (np.longdouble(1) / np.longdouble(p))
    info = np.finfo(x.dtype)
    bounds = (counts + 3) * float(info.eps) * np.abs(y.astype(np.float64)) + (counts + 1) * float(info.smallest_subnormal)
    bounds = np.where(np.isfinite(y), bounds, np.nan)
    return y, bounds


# ---- GATHER -----------------------------------------------------------------------------------

def ref_gather(x, indices, axis):
    """dmlc.gather's rule: np.take with a negative index counted from the end (+ n) and any
    index still outside [0, n) clamped into it (unsigned values are never negative)."""
    n = x.shape[axis]
    i = np.asarray(indices)
    if i.dtype.kind == "u":
        i = np.minimum(i.astype(np.uint64), n - 1).astype(np.int64)
    i = i.astype(np.int64)
    return np.take(x, np.clip(np.where(i < 0, i + n, i), 0, n - 1), axis)


def _adjusted(indices, n):
    """Index values as int64 with a negative one + n; unsigned ones are never negative
    (uint64 values of 2^63 and more become n, out of range like them)."""
    i = np.asarray(indices)
    if i.dtype.kind == "u":
        return np.minimum(i.astype(np.uint64), n).astype(np.int64)
    i = i.astype(np.int64)
    return np.where(i < 0, i + n, i)


def ref_gather_elements(x, indices, axis):
    """GATHER_ELEMENTS: np.take_along_axis with each index adjusted and clamped into [0, n - 1]."""
    n = x.shape[axis]
    return np.take_along_axis(x, np.clip(_adjusted(indices, n), 0, n - 1), axis)


def ref_scatter_elements(x, indices, updates, axis):
    """SCATTER_ELEMENTS, one update at a time in row-major order of the updates (a later
    duplicate wins); an index outside [0, n) once adjusted writes nothing."""
    out = np.array(x, copy=True)
    i = _adjusted(indices, x.shape[axis])
    for p in np.ndindex(*i.shape):
        if 0 <= i[p] < x.shape[axis]:
            out[p[:axis] + (i[p],) + p[axis + 1:]] = updates[p]
    return out

def ref_one_hot(indices, depth, axis, off, on, dtype):
    """ONE_HOT in NumPy terms: indices of any shape, the new axis of size depth inserted at
    axis; each index adjusted (negative + depth), and a value still outside [0, depth) leaves
    its whole sequence at off."""
    i = _adjusted(np.asarray(indices), depth)
    hot = np.expand_dims(i, axis) == np.arange(depth).reshape((depth,) + (1,) * (i.ndim - axis))
    out = np.full(hot.shape, off, dtype)
    out[hot] = on
    return out


def ref_gather_nd(x, indices, batch_dims=0):
    """GATHER_ND1: out[j, s] = x[j[:b], t, s] with t = indices[j] (its last axis), each
    coordinate adjusted and clamped into [0, n - 1] on its own axis of x."""
    x, i = np.asarray(x), np.asarray(indices)
    b, k = batch_dims, i.shape[-1]
    out = np.empty(i.shape[:-1] + x.shape[b + k:], x.dtype)
    for j in np.ndindex(*i.shape[:-1]):
        t = tuple(int(np.clip(_adjusted(i[j][a], x.shape[b + a]), 0, x.shape[b + a] - 1)) for a in range(k))
        out[j] = x[j[:b] + t]
    return out


def ref_scatter_nd(x, indices, updates):
    """SCATTER_ND: out = x, then out[t] = updates[j] for every tuple t = indices[j] in
    row-major order of j (a later duplicate wins); a tuple with a coordinate outside its
    axis once adjusted writes nothing."""
    out = np.array(x, copy=True)
    i = np.asarray(indices)
    k = i.shape[-1]
    for j in np.ndindex(*i.shape[:-1]):
        t = tuple(int(_adjusted(i[j][a], x.shape[a])) for a in range(k))
        if all(0 <= t[a] < x.shape[a] for a in range(k)):
            out[t] = updates[j]
    return out


def resample_taps(n, m, scale, in_off, out_off, mode, rounding=None):
    """Per output index of an axis (input size n, output size m): (i0, i1, w) of the
    resampling rule, x = ((o - out_off) / scale) - in_off in double.  mode "nearest" with
    rounding None (floor(x + 0.5)), "increasing" (ceil) or "decreasing" (floor): w is 0."""
    o = np.arange(m, dtype=np.float64)
    # The desc's FLOAT fields: float32 values, widened to double.
    scale, in_off, out_off = (np.float64(np.float32(v)) for v in (scale, in_off, out_off))
    x = ((o - out_off) / scale) - in_off
    if mode == "nearest":
        i = {None: np.floor(x + 0.5), "increasing": np.ceil(x), "decreasing": np.floor(x)}[rounding]
        i = np.clip(i, 0, n - 1).astype(np.int64)
        return i, i, np.zeros(m)
    x = np.clip(x, 0, n - 1)
    i0 = np.floor(x)
    return i0.astype(np.int64), np.minimum(i0 + 1, n - 1).astype(np.int64), x - i0


def ref_resample(x, out_shape, scales, in_offs, out_offs, mode, rounding=None):
    """RESAMPLE2's rule in NumPy: nearest a gather (bit for bit); linear separable axis by
    axis in float64 (the exact multilinear sum, up to float64 rounding), weight-0 corners
    left out; float results rounded to x's dtype, int8/uint8 to nearest even."""
    if mode == "nearest":
        idx = [resample_taps(n, m, s, i, o, mode, rounding)[0]
               for n, m, s, i, o in zip(x.shape, out_shape, scales, in_offs, out_offs)]
        return x[np.ix_(*idx)]
    y = x.astype(np.float64)
    for d, (n, m, s, i, o) in enumerate(zip(x.shape, out_shape, scales, in_offs, out_offs)):
        i0, i1, w = resample_taps(n, m, s, i, o, mode)
        shape = [1] * y.ndim
        shape[d] = m
        w = w.reshape(shape)
        a, b = np.take(y, i0, axis=d), np.take(y, i1, axis=d)
        with np.errstate(invalid="ignore"):
            y = np.where(w == 0, a, (1 - w) * a + w * b)
    if x.dtype.kind in "iu":
        return np.rint(y).astype(x.dtype)
    return y.astype(x.dtype)
# ---- ARGMIN, ARGMAX ------------------------------------------------------------------------
__all__ += ["ref_arg"]


def ref_arg(x, axes, greatest, last=False):
    """ARGMAX (greatest) / ARGMIN over `axes`, keepdims: the reduced axes moved to the end in
    increasing order and flattened (so the index is row-major over them); the extreme found
    with np.sort (NaN last, -0 == +0), then the first (or last) element equal to it, every
    NaN equal to every NaN."""
    axes = sorted(a % x.ndim for a in axes)
    kept = [a for a in range(x.ndim) if a not in axes]
    flat = np.transpose(x, kept + axes).reshape([x.shape[a] for a in kept] + [-1])
    s = np.sort(flat, axis=-1)
    extreme = s[..., -1:] if greatest else s[..., :1]
    eq = flat == extreme
    if flat.dtype.kind == "f":
        eq |= np.isnan(flat) & np.isnan(extreme)
    n = flat.shape[-1]
    idx = n - 1 - np.argmax(eq[..., ::-1], axis=-1) if last else np.argmax(eq, axis=-1)
    shape = [1 if a in axes else x.shape[a] for a in range(x.ndim)]
    return idx.reshape(shape)
# ---- TOP_K, TOP_K1 ------------------------------------------------------------------------------
__all__ += ["order_keys", "ref_top_k"]


def order_keys(x):
    """int64 keys that order as the total order of docs/operators/top_k1.rst: floats by value
    with -0 == +0 and every NaN one key above +inf; integers exactly (uint64 with its top
    bit flipped, so the keys still order)."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        bits, mag_mask, inf = {2: (np.int16, 0x7FFF, 0x7C00), 4: (np.int32, 0x7FFFFFFF, 0x7F800000),
                               8: (np.int64, 0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000)}[x.dtype.itemsize]
        b = x.view(bits).astype(np.int64)
        m = b & mag_mask
        return np.where(m > inf, inf + 1, np.where(b < 0, -m, m))
    if x.dtype == np.uint64:
        return (x ^ np.uint64(1 << 63)).view(np.int64)
    return x.astype(np.int64)


def ref_top_k(x, k, axis, largest=True):
    """TOP_K1: a stable argsort of the order keys (complemented for largest, which reverses
    their order and keeps equal keys in ascending index), cut to k; the values taken with
    np.take_along_axis (bits kept)."""
    keys = order_keys(x)
    if largest:
        keys = ~keys
    idx = np.take(np.argsort(keys, axis=axis, kind="stable"), np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx
# ---- CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT --------------------------------------------
__all__ += ["ref_cumulative"]


def ref_cumulative(x, axis, product, exclusive=False, reverse=False):
    """The scans of docs/operators/cumulative_summation.rst, one step at a time along the
    axis (vectorised across the others): the accumulator starts as the first element in
    the accumulation type (float16 in float32, every other dtype its own; NumPy's array
    arithmetic wraps integers silently), each step one rounded + or *, each result
    converted to x's dtype.  Exclusive: 0 or 1 first, then the accumulator before the
    step."""
    x = np.asarray(x)
    acc_t = np.float32 if x.dtype == np.float16 else x.dtype
    seq = np.moveaxis(x, axis, 0)
    if reverse:
        seq = seq[::-1]
    out = np.empty(seq.shape, x.dtype)
    if seq.shape[0] == 0:
        return np.moveaxis(out, 0, axis)
    acc = seq[0].astype(acc_t)
    out[0] = np.full(acc.shape, 1 if product else 0, acc_t).astype(x.dtype) if exclusive else acc.astype(x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(1, seq.shape[0]):
            if exclusive:
                out[i] = acc.astype(x.dtype)
            acc = (acc * seq[i].astype(acc_t) if product else acc + seq[i].astype(acc_t)).astype(acc_t)
            if not exclusive:
                out[i] = acc.astype(x.dtype)
    if reverse:
        out = out[::-1]
    return np.moveaxis(out, 0, axis)


# ---- CAST -------------------------------------------------------------------------------
# dmlc's rules (docs: dmlc.cast), computed element by element on exact Python numbers:
# float -> int truncates, saturates and sends NaN to 0; int -> int keeps the low bits;
# int -> float rounds once, to nearest even, from the exact integer; float -> float is
# NumPy's own conversion (IEEE round to nearest even, overflow to inf, NaN stays NaN).
_FLOAT_FORMAT = {np.dtype(np.float16): (11, 65504.0), np.dtype(np.float32): (24, float(np.finfo(np.float32).max)),
                 np.dtype(np.float64): (53, float(np.finfo(np.float64).max))}


def _int_to_float(v, dtype):
    """The integer v rounded once to dtype (nearest even; beyond its range: +-inf)."""
    mant, biggest = _FLOAT_FORMAT[np.dtype(dtype)]
    m = abs(v)
    shift = m.bit_length() - mant
    if shift > 0:  # keep `mant` significant bits, round the rest to nearest even
        q, r = divmod(m, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        m = q << shift
    if m > biggest:
        return np.array(np.inf if v > 0 else -np.inf, dtype)
    return np.array(float(m) if v >= 0 else -float(m), dtype)


def ref_cast(x, dtype):
    """x cast to dtype by dmlc's rules, as a new array of x's shape."""
    x = np.asarray(x)
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x.copy()
    if x.dtype.kind == "f" and dtype.kind == "f":
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(dtype)
    out = np.empty(x.shape, dtype)
    flat = out.reshape(-1)
    for k, v in enumerate(x.reshape(-1).tolist()):
        if dtype.kind == "f":
            flat[k] = _int_to_float(int(v), dtype)
            continue
        info = np.iinfo(dtype)
        if x.dtype.kind == "f":
            v = 0 if v != v else (info.max if v == np.inf else info.min if v == -np.inf else int(v))
            flat[k] = min(max(v, info.min), info.max)
        else:
            v = int(v) & ((1 << info.bits) - 1)  # the low bits, read as dtype
            flat[k] = v - (1 << info.bits) if info.min < 0 and v > info.max else v
    return out


def cast_edge_values(dtype):
    """The values a cast from dtype must get right: NaN, infinities, signed zeros, subnormals,
    the halfway cases, each integer type's limits and one past them, 2**53 + 1 and more."""
    dtype = np.dtype(dtype)
    limits = []
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        info = np.iinfo(t)
        limits += [int(info.min), int(info.max), int(info.min) - 1, int(info.max) + 1]
    ints = limits + [0, 1, -1, 2, 200, -56, 2**53 + 1, 2**53 + 2**29 + 1, 2**24 + 1, 65504, 65519, 65520, 2047,
                     2049, 2**63 - 2**10, 2**64 - 2**11]
    if dtype.kind == "f":
        fi = np.finfo(dtype)
        vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, float(fi.smallest_subnormal),
                -float(fi.smallest_subnormal), float(fi.smallest_normal) - float(fi.smallest_subnormal),
                float(fi.max), float(fi.min), 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -1.7, 127.9, -128.9, 255.99,
                65535.5, 1.0 + 2.0**-11 + 2.0**-40, 2.0**-24, 2.0**-25, 1.5 * 2.0**-25, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-12, 65520.0, 1e30,
                -1e30, 2.0**63, -(2.0**63), 2.0**64, 4294967295.5, 2147483647.5, -2147483648.5]
        vals += [float(v) for v in ints]
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array(vals, np.float64).astype(dtype)
    info = np.iinfo(dtype)
    return np.array(sorted({v for v in ints if info.min <= v <= info.max}), dtype)


# ---- FILL_VALUE_SEQUENCE -------------------------------------------------------------------
def ref_fill_sequence(shape, start, delta, dtype):
    """Element k (row-major) = start + k * delta: integers modulo 2**bits on Python ints;
    floats as fl64(fl64(k * delta) + start) with start and delta first rounded to dtype,
    then rounded once to dtype (NumPy's float64 -> dtype conversion)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "f":
        s, d = float(np.array(start, dtype)), float(np.array(delta, dtype))
        with np.errstate(over="ignore", invalid="ignore"):
            return (np.arange(n, dtype=np.float64) * d + s).astype(dtype).reshape(shape)
    bits = dtype.itemsize * 8
    vals = [(start + k * delta) % (1 << bits) for k in range(n)]
    return np.array(vals, dtype=np.uint64 if bits == 64 else np.int64).astype(
        {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]).view(dtype).reshape(shape)


def ref_nonzero(x, n=None, dtype=np.int64):
    """NONZERO_COORDINATES: (count, coordinates) with coordinates of x.size rows of the last
    n (default x.ndim) coordinates of the elements that are not equal to 0 (-0.0 equals 0, a
    NaN does not), in row-major order, and zero rows past the count."""
    n = x.ndim if n is None else n
    rows = [idx[x.ndim - n:] for idx in np.ndindex(*x.shape) if not x[idx] == 0]
    coords = np.zeros((x.size, n), dtype)
    if rows:
        coords[:len(rows)] = rows
    return len(rows), coords


def ref_roi_pool(x, rois, pooled, scale):
    """ROI_POOLING (docs/operators/roi_pooling.rst), bin by bin: corners times scale in float32
    (float64 for float64 x) rounded half away from zero; RH = max(y2 - y1 + 1, 1), RW likewise;
    bin (i, j) over rows [floor(i RH / PH), ceil((i + 1) RH / PH)) + y1 and columns likewise,
    clipped to x; the first largest element (a NaN first), or 0 for an empty bin."""
    ph, pw = pooled
    n, c, h, w = x.shape
    ct = np.float64 if x.dtype == np.float64 else np.float32
    out = np.zeros((len(rois), c, ph, pw), x.dtype)

    def corner(v):
        p = float(ct(v) * ct(scale))
        return int(math.copysign(math.floor(abs(p) + 0.5), p))

    def clip(v, hi):
        return min(max(v, 0), hi)

    for r, roi in enumerate(rois):
        b = int(float(roi[0]))
        x1, y1, x2, y2 = (corner(v) for v in roi[1:])
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        for i in range(ph):
            h0, h1 = clip(y1 + i * rh // ph, h), clip(y1 - (-(i + 1) * rh // ph), h)
            for j in range(pw):
                w0, w1 = clip(x1 + j * rw // pw, w), clip(x1 - (-(j + 1) * rw // pw), w)
                if h0 >= h1 or w0 >= w1:
                    continue
                for ch in range(c):
                    cells = x[b, ch, h0:h1, w0:w1].ravel()
                    nan = np.flatnonzero(np.isnan(cells))
                    out[r, ch, i, j] = cells[nan[0]] if len(nan) else cells[np.argmax(cells)]
    return out


def ref_roi_align(x, rois, batch, out_size, scale_y, scale_x, in_offset=0.5, out_offset=-0.5, corners=False,
                  lo=1, hi=2**32 - 1, mode="avg", nearest=False, oob=0.0):
    """ROI_ALIGN1 (docs/operators/roi_align1.rst), sample by sample in float64: per axis
    X1 = x1 * scale, size = x2 * scale - X1, s = clamp(ceil(|size| / n_out), lo, hi) samples
    per output, step size / (n_out s) (or / (n_out s - 1) with corners), sample j at
    ((j - out_offset) step + X1) - in_offset; out of [-1, n] gives oob, otherwise clamped and
    read bilinearly (or at floor(v + 0.5)); the average or maximum (a NaN wins)."""
    oh, ow = out_size
    n, c, h, w = x.shape
    xd = x.astype(np.float64)
    out = np.zeros((len(rois), c, oh, ow))

    def axis(a, b, scale, m):
        a, b = float(a) * scale, float(b) * scale
        size = b - a
        s = min(max(math.ceil(abs(size) / m), lo), hi)
        count = m * s
        step = size / (count - 1) if corners and count > 1 else size / count
        return [((j - out_offset) * step + a) - in_offset for j in range(count)], s

    def taps(v, m):
        if v < -1 or v > m:
            return None
        v = min(max(v, 0.0), m - 1.0)
        if nearest:
            return [(math.floor(v + 0.5), 1.0)]
        i0 = math.floor(v)
        wgt = v - i0
        return [(i0, 1 - wgt)] + ([(min(i0 + 1, m - 1), wgt)] if wgt else [])

    for r, (roi, b) in enumerate(zip(rois, batch)):
        xs, sx = axis(roi[0], roi[2], float(np.float32(scale_x)), ow)
        ys, sy = axis(roi[1], roi[3], float(np.float32(scale_y)), oh)
        for i in range(oh):
            for j in range(ow):
                vals = []
                for yy in ys[i * sy:(i + 1) * sy]:
                    for xx in xs[j * sx:(j + 1) * sx]:
                        ty, tx = taps(yy, h), taps(xx, w)
                        if ty is None or tx is None:
                            vals.append(np.full(c, oob))
                        else:
                            vals.append(sum(wy * wx * xd[int(b), :, iy, ix] for iy, wy in ty for ix, wx in tx))
                v = np.array(vals)
                if mode == "avg":
                    out[r, :, i, j] = v.mean(axis=0)
                else:
                    nan = np.isnan(v).any(axis=0)
                    out[r, :, i, j] = np.where(nan, np.nan, v.max(axis=0))
    return out


# ---- DIAGONAL_MATRIX1 ----------------------------------------------------------------------
def ref_diagonal(shape, begin, end, value, dtype, x=None):
    """The page's pseudocode element by element on Python ints: topX = x - y,
    useValue = (end >= begin) ^ (topX >= begin) ^ (topX < end); Value there (value already of
    dtype), else x's element or 0.  Leading dimensions are batches."""
    out = np.zeros(shape, dtype) if x is None else np.array(x, dtype, copy=True)
    rows, cols = shape[-2], shape[-1]
    flat = out.reshape(-1, rows, cols)
    for y in range(rows):
        for c in range(cols):
            top = c - y
            if (end >= begin) ^ (top >= begin) ^ (top < end):
                flat[:, y, c] = value
    return flat.reshape(shape)


def ref_reverse_subsequences(x, lengths, axis):
    """REVERSE_SUBSEQUENCES: per sequence along axis, L = min(length, n); position i < L
    reads L - 1 - i, the others read themselves.  lengths: x's shape with 1 on axis (or
    anything that broadcasts to it)."""
    x = np.asarray(x)
    n = x.shape[axis]
    shape = list(x.shape)
    shape[axis] = 1
    L = np.minimum(np.broadcast_to(np.asarray(lengths), shape).astype(np.uint64), n).astype(np.int64)
    i = np.arange(n).reshape([-1 if d == axis else 1 for d in range(x.ndim)])
    return np.take_along_axis(x, np.where(i < L, L - 1 - i, i), axis)
