"""Writes tests/c/vectors.h, the table of test vectors that tests/c/vectors.c runs through
every operator.  The table is committed with this script; rerun it after changing it:

    python tests/c/gen_vectors.py            # rewrites tests/c/vectors.h
    python tests/c/gen_vectors.py --check    # exits 1 if vectors.h is not what it writes

Expected outputs come from two places, never from dmlc itself:
  - DirectML's worked examples (the pages' inputs and documented outputs, as
    dmlc/_examples transcribes them; MAX_POOLING2's are worked by hand there);
  - the plain NumPy references of the pytest suites (ref_depth_to_space, ref_pad,
    ref_max_pool, np.split / np.concatenate), on seeded random inputs with the values
    that decide max pooling's rules (NaN, -0, ties, infinities) planted in them.
Small cases store every byte of their input and expected output buffers.  Large cases
(big enough to be split across threads, or to take the streaming-store path on x86) store
a seed from which vectors.c generates the input (splitmix64, below) and a hash of the
expected output buffer (buffer_hash, below).

Every tensor is a buffer plus a DML_BUFFER_TENSOR_DESC; strided tensors leave gaps, which
in an output buffer must keep the 0xA5 bytes vectors.c fills it with.  Byte order is
little-endian (vectors.c checks the host).
"""
import argparse
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: the references and conftest
sys.path.append(os.path.dirname(os.path.dirname(HERE)))  # a checkout built in place, if dmlc is not installed

from test_depth_space import ref_depth_to_space, ref_space_to_depth  # noqa: E402
from test_max_pooling import ref_max_pool  # noqa: E402
from test_padding import ref_pad  # noqa: E402

from reference import (cast_edge_values, pool_windows, ref_arg, ref_top_k, ref_avg_pool, ref_cast, ref_cumulative,  # noqa: E402
                       ref_diagonal, ref_fill_sequence, ref_gather, ref_gather_elements, ref_gather_nd, ref_max_unpool,
                       ref_one_hot,
                       ref_resample, ref_roi_align, ref_roi_pool, ref_scale_bias, ref_scatter_elements, ref_scatter_nd,
                       ref_slice, ref_slice1, ref_tile)
from reference import ref_reverse_subsequences  # noqa: E402

from dmlc import schema  # noqa: E402
from dmlc._examples import depth_space as ex_ds  # noqa: E402
from dmlc._examples import gather as ex_gather  # noqa: E402
from dmlc._examples import max_pooling as ex_mp  # noqa: E402
from dmlc._examples import one_hot as ex_oh  # noqa: E402
from dmlc._examples import padding as ex_pad  # noqa: E402
from dmlc._examples import split_join as ex_sj  # noqa: E402

OUTPUT = os.path.join(HERE, "vectors.h")
FILL = 0xA5  # what vectors.c writes into output buffers before running

DML_TYPE = {np.dtype(np.float32): "FLOAT32", np.dtype(np.float16): "FLOAT16", np.dtype(np.uint32): "UINT32",
            np.dtype(np.uint16): "UINT16", np.dtype(np.uint8): "UINT8", np.dtype(np.int32): "INT32",
            np.dtype(np.int16): "INT16", np.dtype(np.int8): "INT8", np.dtype(np.float64): "FLOAT64",
            np.dtype(np.uint64): "UINT64", np.dtype(np.int64): "INT64"}
ALL_DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8,
              np.uint64, np.uint32, np.uint16, np.uint8]
UINT_OF = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
MODES = ["CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"]


# ---- what vectors.c computes the same way ----------------------------------------------------
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    """splitmix64's finaliser, on a uint64 array (wrapping)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def words(nbytes):
    """Word numbers 1 .. ceil(nbytes / 8) times the golden ratio, wrapping."""
    with np.errstate(over="ignore"):
        return np.arange(1, (nbytes + 7) // 8 + 1, dtype=np.uint64) * np.uint64(GOLDEN)


def splitmix_bytes(seed, nbytes):
    """The generated input of a large case: little-endian 8-byte word i (from 0) is
    splitmix64's output for the state seed + (i + 1) * golden."""
    with np.errstate(over="ignore"):
        z = mix(np.uint64(seed) + words(nbytes))
    return np.frombuffer(z.astype("<u8").tobytes()[:nbytes], np.uint8).copy()


def buffer_hash(buf):
    """The check of a large expected buffer: the sum (mod 2**64) over its little-endian
    8-byte words w_i (the last one zero-padded) of mix(w_i + (i + 1) * golden), plus the byte
    count.  Position-dependent, and NumPy computes it in one pass."""
    n = len(buf)
    padded = np.zeros((n + 7) // 8 * 8, np.uint8)
    padded[:n] = buf
    with np.errstate(over="ignore"):
        h = mix(padded.view("<u8").astype(np.uint64) + words(n)).sum(dtype=np.uint64)
        return int(h + np.uint64(n))


# ---- tensors: a buffer and a desc ---------------------------------------------------------
def total_bytes(dtype, sizes, strides):
    """DirectML's DMLCalcBufferTensorSize: (last element's index + 1) * size, rounded up to 4."""
    es = np.dtype(dtype).itemsize
    if strides is None:
        n = int(np.prod(sizes))
    else:
        n = sum((s - 1) * t for s, t in zip(sizes, strides)) + 1
    return (n * es + 3) // 4 * 4


class Tensor:
    """One tensor slot: dtype, sizes, strides (elements, None = packed) and its buffer."""

    def __init__(self, dtype, sizes, strides=None, buffer=None, seed=None, hash_=None):
        self.dtype = np.dtype(dtype)
        self.sizes = [int(s) for s in sizes]
        self.strides = None if strides is None else [int(s) for s in strides]
        self.bytes = total_bytes(self.dtype, self.sizes, self.strides)
        self.buffer = buffer  # np.uint8 array of self.bytes, or None with a seed / a hash
        self.seed = seed
        self.hash = hash_

    def view(self, buffer):
        """The logical array that the desc describes inside buffer."""
        es = self.dtype.itemsize
        elems = np.frombuffer(buffer.tobytes()[: len(buffer) // es * es], self.dtype)
        strides = self.strides
        if strides is None:
            strides = list(np.cumprod(([1] + self.sizes[::-1])[:-1])[::-1]) if self.sizes else []
        return np.lib.stride_tricks.as_strided(elems, self.sizes, [s * es for s in strides])


def input_tensor(values, strides=None, rng=None):
    """An input holding `values`: packed, or placed at `strides` in a buffer whose gaps hold
    random bytes (which must never be read into an output)."""
    values = np.asarray(values)
    t = Tensor(values.dtype, values.shape, strides)
    if strides is None:
        raw = np.frombuffer(values.tobytes(), np.uint8)
        t.buffer = np.concatenate([raw, np.zeros(t.bytes - len(raw), np.uint8)])
    else:
        t.buffer = rng.integers(0, 256, t.bytes, dtype=np.uint8)
        write_into(t, t.buffer, values)
        assert np.array_equal(t.view(t.buffer).view(UINT_OF[values.dtype.itemsize]),
                              values.view(UINT_OF[values.dtype.itemsize]))
    return t


def write_into(t, buffer, values):
    es = t.dtype.itemsize
    elems = buffer[: len(buffer) // es * es].view(UINT_OF[es])
    strides = t.strides or list(np.cumprod(([1] + t.sizes[::-1])[:-1])[::-1])
    target = np.lib.stride_tricks.as_strided(elems, t.sizes, [s * es for s in strides], writeable=True)
    target[...] = np.asarray(values).view(UINT_OF[es])


def output_tensor(expected, strides=None):
    """An output whose buffer must end up holding `expected` at its desc's positions and
    the fill byte everywhere else."""
    expected = np.asarray(expected)
    t = Tensor(expected.dtype, expected.shape, strides)
    t.buffer = np.full(t.bytes, FILL, np.uint8)
    write_into(t, t.buffer, expected)
    return t


def generated_input(dtype, sizes, seed):
    t = Tensor(dtype, sizes, seed=seed)
    t.buffer = splitmix_bytes(seed, t.bytes)
    return t


def hashed_output(expected):
    t = output_tensor(expected)
    t.hash = buffer_hash(t.buffer)
    t.buffer = None
    return t


# ---- cases ----------------------------------------------------------------------------
class Case:
    """One run of an operator: its tensors, and its desc's attributes by field name
    (``Axis=1``) or by the short names below (``axis=1``).  Tensors fill the desc's tensor
    fields in order (an optional one left over is NULL); an array's count field that is not
    given is the array's length (or the tensor array's)."""

    def __init__(self, name, op, inputs, outputs, **params):
        self.name, self.op, self.inputs, self.outputs = name, op, inputs, outputs
        self.fields = desc_fields(schema.get(op), params)


# The short names the case builders use, each with the desc fields it may stand for (the
# first one the desc has).  One builder serves a desc's versions, so a short name for a field
# an older version lacks (a MAX_POOLING's dilations, a DEPTH_TO_SPACE's order) is ignored.
SHORT_NAMES = {
    "block": ["BlockSize"], "order": ["Order"], "mode": ["PaddingMode"], "value": ["PaddingValue", "Value"],
    "scalar_type": ["PaddingValueDataType", "ValueDataType"], "scalar_bits": ["PaddingValue", "Value", "ValueStart"],
    "scalar_bits2": ["ValueDelta"], "axis": ["Axis"], "index_dimensions": ["IndexDimensions"],
    "spatial": ["DimensionCount"], "window": ["WindowSize"], "strides": ["Strides"], "dilations": ["Dilations"],
    "start": ["StartPadding"], "end": ["EndPadding"], "offsets": ["Offsets", "InputWindowOffsets"],
    "sizes": ["Sizes", "InputWindowSizes"], "slice_strides": ["Strides", "InputWindowStrides"],
    "repeats": ["Repeats"], "interpolation": ["InterpolationMode"], "rounding": ["RoundingDirection"],
    "scales": ["Scales"], "in_offsets": ["InputPixelOffsets"], "out_offsets": ["OutputPixelOffsets"],
    "axes": ["Axes"], "direction": ["AxisDirection"], "exclusive": ["HasExclusiveSum", "HasExclusiveProduct"],
    "k": ["K"], "include_padding": ["IncludePadding"], "p": ["P"], "input_dims": ["InputDimensionCount"],
    "indices_dims": ["IndicesDimensionCount"], "batch_dims": ["BatchDimensionCount"], "scale_bias": ["ScaleBias"],
    "spatial_scale": ["SpatialScale", "SpatialScaleX"], "scale_y": ["SpatialScaleY"],
    "in_offset": ["InputPixelOffset"], "out_offset": ["OutputPixelOffset"], "oob": ["OutOfBoundsInputValue"],
    "reduction": ["ReductionFunction"], "min_samples": ["MinimumSamplesPerOutput"],
    "max_samples": ["MaximumSamplesPerOutput"], "corners": ["AlignRegionsToCorners"],
}


def desc_fields(op, params):
    """{field name: value} of op's attributes from a case's params (see Case)."""
    names = {f.name for f in op.fields}
    out = {}
    params = dict(params)
    if "scale_h" in params:  # a DML_SIZE_2D (UPSAMPLE_2D's ScaleSize, ROI_POOLING's PooledSize)
        size2d = next(f.name for f in op.attributes if f.type == "SIZE_2D")
        out[size2d] = (params.pop("scale_w"), params.pop("scale_h"))
    if "diagonal" in params:  # DIAGONAL_MATRIX's Offset; DIAGONAL_MATRIX1's begin and end
        for name, v in zip(("Offset",) if "Offset" in names else ("DiagonalFillBegin", "DiagonalFillEnd"),
                           params.pop("diagonal")):
            out[name] = v
    for key, value in params.items():
        if key in names:
            out[key] = value
        elif key in SHORT_NAMES:
            field = next((n for n in SHORT_NAMES[key] if n in names and n not in out), None)
            if field is not None:
                out[field] = value
        else:
            raise ValueError(f"{op.struct} has no field {key!r}")
    return out


def as_bits(a):
    a = np.asarray(a)
    return a.view(UINT_OF[a.dtype.itemsize])


def random_values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def pooling_values(rng, shape, dtype):
    """Random values with what decides max pooling's rules planted: small integers (ties),
    and for floats NaN, -0, +0 and infinities."""
    dtype = np.dtype(dtype)
    x = rng.integers(-6, 7, size=shape).astype(dtype) if dtype.kind != "u" else \
        rng.integers(0, 13, size=shape).astype(dtype)
    flat = x.reshape(-1)
    if dtype.kind == "f":
        picks = rng.choice(flat.size, size=max(1, flat.size // 12), replace=False)
        specials = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf], dtype)
        flat[picks] = specials[rng.integers(0, len(specials), len(picks))]
    return x


def convert_padding_value(value, dtype):
    """DML_PADDING's FLOAT in the tensor's type (docs/operators/padding.rst): integers truncate toward zero,
    then saturate, NaN giving 0; FLOAT16 rounds to nearest even."""
    dtype = np.dtype(dtype)
    v = np.float32(value)
    if dtype.kind == "f":
        with np.errstate(over="ignore"):  # FLOAT16: beyond 65504 rounds to infinity
            return np.array(v, np.float64).astype(dtype)
    if np.isnan(v):
        return np.array(0, dtype)
    info = np.iinfo(dtype)
    t = np.trunc(np.float64(v))
    return np.array(int(min(max(t, info.min), info.max)), dtype)


def padding_case(name, x, start, end, mode, value=0.0, strides=None, out_strides=None, rng=None, v1_bits=None):
    """PADDING (v1_bits None: the FLOAT value) or PADDING1 (value given as the tensor type's bits)."""
    if v1_bits is None:
        fill = convert_padding_value(value, x.dtype)
    else:
        fill = np.frombuffer(int(v1_bits).to_bytes(8, "little")[: x.dtype.itemsize], x.dtype)[0]
    want = ref_pad(as_bits(x), start, end, mode.lower(), as_bits(np.array(fill, x.dtype))).view(x.dtype)
    if mode != "CONSTANT":  # NumPy's own np.pad agrees (since 2.1 it folds wide pads periodically too)
        np_mode = {"EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric", "WRAP": "wrap"}[mode]
        assert np.array_equal(np.pad(as_bits(x), list(zip(start, end)), mode=np_mode), as_bits(want))
    params = dict(mode=mode, start=start, end=end)
    if v1_bits is None:
        params["value"] = float(np.float32(value))
        op = "PADDING"
    else:
        params.update(scalar_type=DML_TYPE[x.dtype], scalar_bits=int(v1_bits))
        op = "PADDING1"
    return Case(name, op, [input_tensor(x, strides, rng)], [output_tensor(want, out_strides)], **params)


def pool_case(name, op, x, window, strides, start, end, dilations=None, ceil=False, indices=None,
              in_strides=None, rng=None):
    sp = x.ndim - 2
    dil = dilations or [1] * sp
    v, i = ref_max_pool(x, window, strides, start, end, dil, ceil)
    outs = [output_tensor(v)]
    if indices is not None:
        outs.append(output_tensor(i.astype(indices)))
    params = dict(spatial=sp, window=window, strides=strides, start=start, end=end)
    if op == "MAX_POOLING2":
        params["dilations"] = dil
    return Case(name, op, [input_tensor(x, in_strides, rng)], outs, **params)


def worked_examples():
    cases = []
    # DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1 pages: {1, 8, 2, 3} UINT32 and its two space layouts.
    for order, space in (("DEPTH_COLUMN_ROW", ex_ds.SPACE_DCR), ("COLUMN_ROW_DEPTH", ex_ds.SPACE_CRD)):
        assert np.array_equal(ref_depth_to_space(ex_ds.DEPTH, 2, order.lower()), space)
        cases.append(Case(f"page DEPTH_TO_SPACE1 ({order})", "DEPTH_TO_SPACE1", [input_tensor(ex_ds.DEPTH)],
                          [output_tensor(space)], block=2, order=order))
        cases.append(Case(f"page SPACE_TO_DEPTH1 ({order})", "SPACE_TO_DEPTH1", [input_tensor(space)],
                          [output_tensor(ex_ds.DEPTH)], block=2, order=order))
    # PADDING page: one 4x4 input in four modes.
    for mode, want, value in (("CONSTANT", ex_pad.CONSTANT, 9.0), ("EDGE", ex_pad.EDGE, 0.0),
                              ("REFLECTION", ex_pad.REFLECTION, 0.0), ("SYMMETRIC", ex_pad.SYMMETRIC, 0.0)):
        assert np.array_equal(ref_pad(ex_pad.INPUT, ex_pad.START, ex_pad.END, mode.lower(), value), want)
        cases.append(Case(f"page PADDING ({mode})", "PADDING", [input_tensor(ex_pad.INPUT)], [output_tensor(want)],
                          mode=mode, value=value, start=ex_pad.START, end=ex_pad.END))
    # SPLIT page, and JOIN as its inverse.
    for axis, parts in ((2, ex_sj.AXIS2), (3, ex_sj.AXIS3)):
        cases.append(Case(f"page SPLIT (Axis {axis})", "SPLIT", [input_tensor(ex_sj.INPUT)],
                          [output_tensor(p) for p in parts], axis=axis))
        cases.append(Case(f"page JOIN (inverse of SPLIT, Axis {axis})", "JOIN", [input_tensor(p) for p in parts],
                          [output_tensor(ex_sj.INPUT)], axis=axis))
    # MAX_POOLING2: the examples worked by hand from the page's rules.
    hand = [(ex_mp.GRID, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1]),
            (ex_mp.NEGATIVE, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            (ex_mp.GRID, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]),
            (np.array([[[1, -2, 3]]], np.float32), [2], [2], [0], [3], [1])]
    assert len(hand) == len(ex_mp.EXAMPLES)
    for k, ((x, w, s, a, b, d), ex) in enumerate(zip(hand, ex_mp.EXAMPLES)):
        v, i = ex.expected["OutputTensor"], ex.expected["OutputIndicesTensor"]
        rv, ri = ref_max_pool(x, w, s, a, b, d)
        assert np.array_equal(rv, v) and np.array_equal(ri.astype(np.uint32), i), ex.name
        cases.append(Case(f"page MAX_POOLING2 example {k + 1}", "MAX_POOLING2", [input_tensor(x)],
                          [output_tensor(v), output_tensor(i)], spatial=x.ndim - 2, window=w, strides=s, start=a,
                          end=b, dilations=d))
    return cases


def numpy_cases(rng):
    cases = []
    # Depth/space: v0 (DCR) and v1 in both orders, every element size, blocks 1 to 4, strided inputs.
    for k, dtype in enumerate(ALL_DTYPES):
        b = 1 + k % 4
        x = random_values(rng, (1 + k % 2, 2 * b * b, 2, 3), dtype)
        order = ("DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH")[k % 2]
        op = ("DEPTH_TO_SPACE", "DEPTH_TO_SPACE1")[k % 3 != 0]
        if op == "DEPTH_TO_SPACE":
            order = "DEPTH_COLUMN_ROW"
        y = ref_depth_to_space(x, b, order.lower())
        cases.append(Case(f"{op} {DML_TYPE[np.dtype(dtype)]} block {b} {order}", op, [input_tensor(x)],
                          [output_tensor(y)], block=b, order=order))
        op2 = op.replace("DEPTH_TO_SPACE", "SPACE_TO_DEPTH")
        assert np.array_equal(ref_space_to_depth(y, b, order.lower()), x)
        cases.append(Case(f"{op2} {DML_TYPE[np.dtype(dtype)]} block {b} {order}", op2, [input_tensor(y)],
                          [output_tensor(x)], block=b, order=order))
    x = random_values(rng, (2, 12, 4, 6), np.float16)  # NHWC memory: strides {288, 1, 72, 12}
    cases.append(Case("DEPTH_TO_SPACE1 FLOAT16 NHWC-strided input, strided output", "DEPTH_TO_SPACE1",
                      [input_tensor(x, [288, 1, 72, 12], rng)],
                      [output_tensor(ref_depth_to_space(x, 2, "column_row_depth"), [400, 120, 14, 1])],
                      block=2, order="COLUMN_ROW_DEPTH"))
    x = random_values(rng, (1, 3, 6, 4), np.int64)
    cases.append(Case("SPACE_TO_DEPTH INT64 broadcast input (stride 0 on C)", "SPACE_TO_DEPTH",
                      [input_tensor(np.broadcast_to(x[:, :1], (1, 3, 6, 4)).copy(), [24, 0, 4, 1], rng)],
                      [output_tensor(ref_space_to_depth(np.broadcast_to(x[:, :1], (1, 3, 6, 4)), 2))], block=2))

    # Padding: every mode and element size, pads wider than the dimension, 1 to 8 dims.
    for k, dtype in enumerate(ALL_DTYPES):
        mode = MODES[k % len(MODES)]
        x = random_values(rng, (2, 3, 4), dtype)
        cases.append(padding_case(f"PADDING {DML_TYPE[np.dtype(dtype)]} {mode} wide", x, [1, 0, 5], [2, 7, 3], mode,
                                  value=-5.5, rng=rng))
    shapes = {1: [5], 2: [3, 4], 5: [2, 1, 3, 2, 2], 8: [2, 1, 2, 1, 2, 1, 2, 2]}
    for k, mode in enumerate(MODES):
        for ndim, shape in shapes.items():
            wide = 4 if ndim <= 2 else 1  # pads past the dimension fold periodically
            start = [(j + k) % (wide + 1) for j in range(ndim)]
            end = [(2 * j + k + 1) % (wide + 1) for j in range(ndim)]
            x = random_values(rng, shape, (np.int8, np.float16, np.float32, np.uint64)[(k + ndim) % 4])
            cases.append(padding_case(f"PADDING {mode} {ndim}-d", x, start, end, mode, value=3.0, rng=rng))
    for value in (np.nan, 1e30, -1e30, 200.75, -0.0):
        for dtype in (np.int8, np.uint16, np.int32, np.uint64, np.float16):
            x = random_values(rng, (5,), dtype)
            cases.append(padding_case(f"PADDING value {value} into {DML_TYPE[np.dtype(dtype)]}", x, [2], [1],
                                      "CONSTANT", value=value, rng=rng))
    x = random_values(rng, (4, 6, 5), np.float32)
    cases.append(padding_case("PADDING REFLECTION strided input and output", x, [0, 2, 3], [1, 1, 4], "REFLECTION",
                              strides=[60, 1, 6], out_strides=[200, 16, 1], rng=rng))
    x = random_values(rng, (3, 7), np.int64)
    cases.append(padding_case("PADDING1 INT64 value beyond 2**53", x, [1, 2], [2, 1], "CONSTANT",
                              v1_bits=(2**62 + 1), rng=rng))
    x = random_values(rng, (2, 9), np.float16)
    cases.append(padding_case("PADDING1 FLOAT16 value bits (a NaN payload)", x, [1, 3], [0, 2], "CONSTANT",
                              v1_bits=0x7E01, rng=rng))
    x = random_values(rng, (6,), np.uint8)
    cases.append(padding_case("PADDING1 UINT8 WRAP", x, [9], [13], "WRAP", v1_bits=7, rng=rng))

    # Split and join: every element size, several ranks and axes, strided parts.
    for k, dtype in enumerate(ALL_DTYPES):
        ndim = 1 + k % 8
        shape = [1 + (k + j) % 2 for j in range(ndim)]
        axis = k % ndim
        shape[axis] = 7
        sizes = ([3, 1, 3], [2, 5], [7])[k % 3]
        x = random_values(rng, shape, dtype)
        parts = np.split(x, np.cumsum(sizes)[:-1].astype(int), axis=axis)
        cases.append(Case(f"SPLIT {DML_TYPE[np.dtype(dtype)]} {ndim}-d axis {axis} into {sizes}", "SPLIT",
                          [input_tensor(x)], [output_tensor(p) for p in parts], axis=axis))
        cases.append(Case(f"JOIN {DML_TYPE[np.dtype(dtype)]} {ndim}-d axis {axis} of {sizes}", "JOIN",
                          [input_tensor(p) for p in parts], [output_tensor(x)], axis=axis))
    x = random_values(rng, (4, 5, 6), np.int16)
    parts = np.split(x, [2, 3], axis=1)
    cases.append(Case("JOIN INT16 strided inputs into a strided output", "JOIN",
                      [input_tensor(parts[0], [1, 4, 20], rng), input_tensor(parts[1], [6, 24, 1], rng),
                       input_tensor(parts[2], [12, 6, 1], rng)],
                      [output_tensor(x, [64, 12, 2])], axis=1))
    cases.append(Case("SPLIT INT16 strided input and outputs", "SPLIT", [input_tensor(x, [1, 4, 20], rng)],
                      [output_tensor(parts[0], [1, 4, 20]), output_tensor(parts[1], [6, 24, 1]),
                       output_tensor(parts[2], [12, 6, 1])], axis=1))

    # Max pooling: the vector path's shapes (2x2/2, 3x3/2 pad 1; FLOAT32, FLOAT16) with NaN,
    # -0 and ties, which a portable kernel must get right too; every other type; 1 to 3
    # spatial dimensions; dilations; ceil-mode sizes; windows of padding only.
    for dtype in (np.float32, np.float16):
        for w, s, a, b in (([2, 2], [2, 2], [0, 0], [0, 0]), ([3, 3], [2, 2], [1, 1], [1, 1]),
                           ([4, 4], [2, 2], [1, 2], [2, 1])):
            x = pooling_values(rng, (1, 2, 7, 37), dtype)  # 37 columns: full and partial groups of 8
            for idx in (None, np.uint32, np.uint64):
                op = "MAX_POOLING" if idx is None else ("MAX_POOLING1" if idx is np.uint64 else "MAX_POOLING2")
                cases.append(pool_case(f"{op} {DML_TYPE[np.dtype(dtype)]} {w}/{s} pad {a},{b}"
                                       + (f" indices {np.dtype(idx).name}" if idx else ""),
                                       op, x, w, s, a, b, indices=idx))
    for k, dtype in enumerate(ALL_DTYPES):
        sp = 1 + k % 3
        shape = [2, 2] + [7 - sp + j for j in range(sp)]
        x = pooling_values(rng, shape, dtype)
        w = [2 + (k + j) % 2 for j in range(sp)]
        s = [1 + (k + j) % 2 for j in range(sp)]
        d = [1 + (k * j) % 2 for j in range(sp)]
        a = [(k + j) % 2 for j in range(sp)]
        b = [j % 3 for j in range(sp)]
        cases.append(pool_case(f"MAX_POOLING2 {DML_TYPE[np.dtype(dtype)]} {sp}-d window {w} strides {s} "
                               f"dilations {d}", "MAX_POOLING2", x, w, s, a, b, dilations=d,
                               indices=(np.uint32, np.uint64)[k % 2]))
    x = pooling_values(rng, (1, 2, 10, 11), np.int32)
    # The plain ceil size (a last window starting in the end padding kept), which the raw ABI
    # accepts beside the floor size and PyTorch's ceil size (ONNX Runtime's DirectML backend
    # passes it).
    cases.append(pool_case("MAX_POOLING2 INT32 ceil-mode size", "MAX_POOLING2", x, [3, 2], [2, 3], [0, 1], [1, 0],
                           ceil="plain", indices=np.uint32))
    x = pooling_values(rng, (1, 1, 3), np.float64)
    cases.append(pool_case("MAX_POOLING2 FLOAT64 windows of padding only", "MAX_POOLING2", x, [2], [3], [0], [6],
                           indices=np.uint64))
    x = pooling_values(rng, (2, 3, 8, 20), np.float32)
    cases.append(pool_case("MAX_POOLING2 FLOAT32 3x3/2 strided (NHWC) input", "MAX_POOLING2", x, [3, 3], [2, 2],
                           [1, 1], [1, 1], indices=np.uint32, in_strides=[480, 1, 60, 3], rng=rng))
    cases += data_movement_cases(rng)
    cases += resample_cases(rng)
    return cases


def lp_pooling_cases(rng):
    """LP_POOLING and LP_POOLING1 on small integers: P 1 (sums of |x|, exact in every float
    type) and P 2 (sums of squares exact in float64, whose square root NumPy rounds once to
    the type, as the operator does), padding, dilations, a strided input, 3-d."""
    cases = []
    for k, dtype in enumerate((np.float32, np.float16, np.float64)):
        name = DML_TYPE[np.dtype(dtype)]
        x = rng.integers(-8, 9, size=(2, 3, 6, 8)).astype(dtype)
        for w, s, a, b, d, p in (([2, 2], [2, 2], [0, 0], [0, 0], [1, 1], 1),
                                 ([3, 3], [2, 2], [1, 1], [1, 1], [1, 1], 2),
                                 ([2, 2], [1, 2], [1, 0], [1, 2], [2, 3], 2)):
            op = "LP_POOLING1" if d != [1, 1] or k == 1 else "LP_POOLING"
            _, windows = pool_windows(x, w, s, a, b, d)
            sums = windows(np.abs(x.astype(np.float64)) ** p).sum(axis=-1)
            want = (sums if p == 1 else np.sqrt(sums)).astype(dtype)
            cases.append(Case(f"{op} {name} P {p} {w}/{s} pad {a},{b} dilations {d}", op,
                              [input_tensor(x, None if k else [144, 48, 1, 6], rng)], [output_tensor(want)],
                              spatial=2, window=w, strides=s, start=a, end=b, dilations=d, p=p))
        x = rng.integers(-8, 9, size=(1, 2, 4, 4, 6)).astype(dtype)
        _, windows = pool_windows(x, [2, 2, 2], [2, 2, 2], [0] * 3, [0] * 3, [1] * 3)
        cases.append(Case(f"LP_POOLING1 {name} P 1 3-d 2x2x2/2", "LP_POOLING1", [input_tensor(x)],
                          [output_tensor(windows(np.abs(x.astype(np.float64))).sum(axis=-1).astype(dtype))],
                          spatial=3, window=[2, 2, 2], strides=[2, 2, 2], start=[0] * 3, end=[0] * 3,
                          dilations=[1] * 3, p=1))
    return cases


def roi_cases(rng):
    """ROI_POOLING in the three float types: regions inside, inverted, past the edges and
    outside (empty bins), corners rounded half away from zero at SpatialScale 0.5, each ROI
    shape ({R, 5}, {1, R, 5}, {1, 1, R, 5}), a strided input and a strided output."""
    cases = []
    rois = np.array([[0, 0, 0, 7, 5], [1, 3, 1, 9, 9], [1, 6, 4, 2, 2], [0, -4, -3, 20, 30], [0, 1, 13, 5, 17]])
    for k, dtype in enumerate((np.float32, np.float16, np.float64)):
        name = DML_TYPE[np.dtype(dtype)]
        x = pooling_values(rng, (2, 3, 6, 5), dtype)
        table = rois.astype(dtype).reshape((1,) * k + rois.shape)
        pooled = [(2, 3), (3, 2), (1, 4)][k]
        want = ref_roi_pool(x, rois.astype(dtype), pooled, 0.5)
        cases.append(Case(f"ROI_POOLING {name} {len(rois)} regions {pooled[0]}x{pooled[1]}, SpatialScale 0.5",
                          "ROI_POOLING", [input_tensor(x, None if k else [120, 30, 5, 1], rng), input_tensor(table)],
                          [output_tensor(want, None if k != 1 else [60, 20, 6, 2])], scale_h=pooled[0],
                          scale_w=pooled[1], spatial_scale=0.5))
    # ROI_ALIGN and ROI_ALIGN1 on small integers at sample coordinates of halves and quarters
    # (exact bilinear weights and sums in float32), so the reference rounded is the value.
    x = rng.integers(-8, 9, size=(2, 3, 5, 6)).astype(np.float32)
    boxes = np.array([[0, 0, 4, 4], [1, 1, 5, 3], [4, 3, 0, 1], [-2, -3, 8, 7]], np.float32)
    batch = np.array([0, 1, 1, 0], np.uint32)
    for name, op, extra, ref in (
            ("AVERAGE, LINEAR, adaptive", "ROI_ALIGN", dict(reduction=2, interpolation=1, min_samples=1,
                                                            max_samples=4294967295), dict()),
            ("MAX, NEAREST, 2 samples, InputPixelOffset 0", "ROI_ALIGN1",
             dict(reduction=7, interpolation=0, min_samples=2, max_samples=2, in_offset=0.0, out_offset=-0.5,
                  corners=0), dict(mode="max", nearest=True, lo=2, hi=2, in_offset=0.0)),
            ("AVERAGE, LINEAR, AlignRegionsToCorners, 1 sample", "ROI_ALIGN1",
             dict(reduction=2, interpolation=1, min_samples=1, max_samples=1, in_offset=0.5, out_offset=-0.5,
                  corners=1), dict(lo=1, hi=1, corners=True))):
        want = ref_roi_align(x, boxes, batch, (2, 2), 1.0, 1.0, oob=-3.0, **ref).astype(np.float32)
        cases.append(Case(f"{op} FLOAT32 {name}", op, [input_tensor(x), input_tensor(boxes), input_tensor(batch)],
                          [output_tensor(want)], spatial_scale=1.0, scale_y=1.0, oob=-3.0, **extra))
    return cases


def resample_cases(rng):
    """RESAMPLE, RESAMPLE1, RESAMPLE2 and UPSAMPLE_2D: nearest for every type (a gather, bit
    for bit), linear for the five linear types on small integers at Scale 2 (weights 1/4
    and 3/4: every sum exact in every type, so the bytes are the reference's)."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        x = random_values(rng, (2, 3, 5), dtype)
        size, scales = (2, 5, 3), [1.0, 1.5, 0.5]
        want = ref_resample(x, size, scales, [0.5] * 3, [-0.5] * 3, "nearest")
        cases.append(Case(f"RESAMPLE {name} nearest", "RESAMPLE", [input_tensor(x)], [output_tensor(want)],
                          interpolation=0, scales=scales))
        ins, outs = [0.25, 0.0, 1.0], [0.0, 0.5, -0.5]
        want = ref_resample(x, size, scales, ins, outs, "nearest")
        cases.append(Case(f"RESAMPLE1 {name} nearest offsets", "RESAMPLE1", [input_tensor(x)], [output_tensor(want)],
                          interpolation=0, scales=scales, in_offsets=ins, out_offsets=outs))
        rounding = ("increasing", "decreasing")[k % 2]
        want = ref_resample(x, size, scales, ins, outs, "nearest", rounding)
        cases.append(Case(f"RESAMPLE2 {name} nearest {rounding}", "RESAMPLE2", [input_tensor(x, [1, 2, 6], rng)],
                          [output_tensor(want)], interpolation=0, rounding=k % 2, scales=scales, in_offsets=ins,
                          out_offsets=outs))
        x4 = random_values(rng, (1, 2, 2, 3), dtype)
        cases.append(Case(f"UPSAMPLE_2D {name} nearest 3x2", "UPSAMPLE_2D", [input_tensor(x4)],
                          [output_tensor(x4.repeat(3, axis=2).repeat(2, axis=3))], interpolation=0, scale_h=3,
                          scale_w=2))
        if np.dtype(dtype) not in (np.float16, np.float32, np.float64, np.int8, np.uint8):
            continue
        x = rng.integers(-8, 9, size=(2, 3, 4)).astype(dtype) if np.dtype(dtype).kind != "u" else \
            rng.integers(0, 17, size=(2, 3, 4)).astype(dtype)
        size, scales = (2, 6, 8), [1.0, 2.0, 2.0]
        want = ref_resample(x, size, scales, [0.5] * 3, [-0.5] * 3, "linear")
        cases.append(Case(f"RESAMPLE {name} linear x2", "RESAMPLE", [input_tensor(x)], [output_tensor(want)],
                          interpolation=1, scales=scales))
        cases.append(Case(f"RESAMPLE2 {name} linear x2", "RESAMPLE2", [input_tensor(x)], [output_tensor(want)],
                          interpolation=1, rounding=1, scales=scales, in_offsets=[0.5] * 3, out_offsets=[-0.5] * 3))
        x4 = x.reshape(1, 2, 3, 4)
        want = ref_resample(x4, (1, 2, 6, 8), [1, 1, 2, 2], [0.5] * 4, [-0.5] * 4, "linear")
        cases.append(Case(f"UPSAMPLE_2D {name} linear 2x2", "UPSAMPLE_2D", [input_tensor(x4)], [output_tensor(want)],
                          interpolation=1, scale_h=2, scale_w=2))
    cases += argminmax_cases(rng)
    return cases


def argminmax_cases(rng):
    """ARGMAX and ARGMIN: ties, NaNs, -0 and infinities planted, one to three axes, both
    directions, every input type and the four index types, a strided input."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        x = pooling_values(rng, (3, 4, 5), dtype)
        axes = ([2], [0], [0, 2], [1, 2], [0, 1, 2])[k % 5]
        idt = (np.uint32, np.uint64, np.int32, np.int64)[k % 4]
        for op, greatest in (("ARGMAX", True), ("ARGMIN", False)):
            direction = (k + greatest) % 2
            want = ref_arg(x, axes, greatest, bool(direction)).astype(idt)
            strides = [1, 3, 12] if k % 3 == 0 else None  # x stored transposed
            cases.append(Case(f"{op} {name} axes {axes} {('INCREASING', 'DECREASING')[direction]} into "
                              f"{DML_TYPE[np.dtype(idt)]}", op, [input_tensor(x, strides, rng)],
                              [output_tensor(want)], axes=axes, direction=direction))
    cases += cast_cases(rng)
    cases += fill_cases()
    cases += diagonal_cases(rng)
    return cases


def cumulative_cases(rng):
    """CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT over every type: each axis, both
    directions, inclusive and exclusive somewhere, integers wrapping (sums of the full
    range; products of small values, which wrap the narrow types), a transposed input."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        for op, product in (("CUMULATIVE_SUMMATION", False), ("CUMULATIVE_PRODUCT", True)):
            x = rng.integers(-5 if np.dtype(dtype).kind != "u" else 0, 6, (3, 4, 5)).astype(dtype) if product \
                else random_values(rng, (3, 4, 5), dtype)
            axis, direction, exclusive = (k + product) % 3, k % 2, (k // 2 + product) % 2
            strides = [1, 3, 12] if k % 3 == 1 else None  # x stored transposed
            want = ref_cumulative(x, axis, product, bool(exclusive), bool(direction))
            cases.append(Case(f"{op} {name} axis {axis} {('INCREASING', 'DECREASING')[direction]}"
                              f"{' exclusive' if exclusive else ''}", op, [input_tensor(x, strides, rng)],
                              [output_tensor(want)], axis=axis, direction=direction, exclusive=exclusive))
    return cases


def topk_cases(rng):
    """TOP_K and TOP_K1 over every type: ties, NaNs, -0 and infinities planted, each axis,
    K from 1 to the axis size, both directions, the four index types, a transposed input."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        x = pooling_values(rng, (3, 4, 5), dtype)
        axis = k % 3
        kk = 1 + k % x.shape[axis]
        idt = (np.uint32, np.uint64, np.int32, np.int64)[k % 4]
        strides = [1, 3, 12] if k % 3 == 2 else None  # x stored transposed
        for op, direction in (("TOP_K", 1), ("TOP_K1", k % 2)):
            values, indices = ref_top_k(x, kk, axis, bool(direction))
            cases.append(Case(f"{op} {name} axis {axis} K {kk} {('INCREASING', 'DECREASING')[direction]} into "
                              f"{DML_TYPE[np.dtype(idt)]}", op, [input_tensor(x, strides, rng)],
                              [output_tensor(values), output_tensor(indices.astype(idt))], axis=axis, k=kk,
                              direction=direction))
    return cases


def nonzero_cases(rng):
    """NONZERO_COORDINATES over every type, with zeros, -0.0 (zero) and NaN (non-zero)
    planted: the four index types for both outputs, fewer coordinates than dimensions
    where leading sizes are 1, outputs of more dimensions than {1} and {M, N}, a transposed
    input, and coordinates written with strides; the rows past the count are zero."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        shape = ((3, 4, 5), (1, 4, 5), (2, 1, 3, 4), (6, 7))[k % 4]
        x = random_values(rng, shape, dtype) * (rng.random(shape) < 0.4).astype(dtype)
        if np.dtype(dtype).kind == "f":
            x.flat[1], x.flat[2] = -0.0, np.nan
        n = len(shape) - (1 if shape[0] == 1 else 0)
        rows = np.argwhere(x)[:, len(shape) - n:]
        cdt, idt = (np.uint32, np.uint64, np.int32, np.int64)[k % 4], (np.uint32, np.int64, np.uint64, np.int32)[k % 4]
        coords = np.zeros((x.size, n), idt)
        coords[:len(rows)] = rows
        lead = k % 3  # extra leading sizes of 1 on both outputs
        count = np.array(len(rows), cdt).reshape((1,) * (1 + lead))
        coords = coords.reshape((1,) * lead + coords.shape)
        strides = list(reversed(_packed(shape[::-1]))) if k % 3 == 2 else None  # x stored transposed
        out_strides = [x.size * (n + 1)] * lead + [n + 1, 1] if k % 4 == 1 else None  # a gap after each row
        cases.append(Case(f"NONZERO_COORDINATES {name} {shape} N {n} into {DML_TYPE[np.dtype(cdt)]} and "
                          f"{DML_TYPE[np.dtype(idt)]}", "NONZERO_COORDINATES",
                          [input_tensor(x, strides, rng)],
                          [output_tensor(count), output_tensor(coords, out_strides)]))
    return cases


def _packed(sizes):
    """Row-major strides (elements) of sizes."""
    return [int(np.prod(sizes[d + 1:])) for d in range(len(sizes))]


def _union_bits(dtype, value):
    """value as dtype, its bits zero-extended to 64: what a DML_SCALAR_UNION holds."""
    v = np.array(value).astype(dtype) if np.dtype(dtype).kind == "f" else np.array(value % (1 << (8 * np.dtype(
        dtype).itemsize)), np.uint64).astype(UINT_OF[np.dtype(dtype).itemsize])
    return int(v.view(UINT_OF[np.dtype(dtype).itemsize]))


def fill_cases():
    """FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE over every type, into packed and strided
    outputs (the union's bits as vectors.c stores them)."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        start, delta = (1.5, -0.25) if np.dtype(dtype).kind == "f" else (-3 if np.dtype(dtype).kind == "i" else 250, 7)
        shape = [2, 3, 5][: 1 + k % 3]
        want = ref_fill_sequence(tuple(shape), start, delta, dtype)
        strides = None if k % 2 else [2 * s for s in np.cumprod(([1] + shape[::-1])[:-1])[::-1]]
        cases.append(Case(f"FILL_VALUE_SEQUENCE {name} {len(shape)}-d", "FILL_VALUE_SEQUENCE", [],
                          [output_tensor(want, strides)], scalar_type=name,
                          scalar_bits=_union_bits(dtype, start), scalar_bits2=_union_bits(dtype, delta)))
        want = np.full(tuple(shape), 7, dtype)
        cases.append(Case(f"FILL_VALUE_CONSTANT {name} {len(shape)}-d", "FILL_VALUE_CONSTANT", [],
                          [output_tensor(want, strides)], scalar_type=name, scalar_bits=_union_bits(dtype, 7)))
    return cases


def diagonal_cases(rng):
    """DIAGONAL_MATRIX (a FLOAT Value converted as PADDING's) and DIAGONAL_MATRIX1 over an input
    (a band, and an inverted one), every type, 2 to 4 dimensions, strided outputs."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        shape = [(3, 4), (2, 3, 2), (1, 2, 2, 3)][k % 3]
        offset, begin, end = (k % 5) - 2, (k % 3) - 1, (k % 4) - 2
        value = np.float32(-2.5 if np.dtype(dtype).kind != "u" else 7.75)
        want = ref_diagonal(shape, offset, offset + 1, convert_padding_value(float(value), dtype), dtype)
        strides = None if k % 2 else [2 * s for s in np.cumprod(([1] + list(shape)[::-1])[:-1])[::-1]]
        cases.append(Case(f"DIAGONAL_MATRIX {name} {len(shape)}-d offset {offset}", "DIAGONAL_MATRIX", [],
                          [output_tensor(want, strides)], value=float(value), diagonal=[offset]))
        x = random_values(rng, shape, dtype)
        want = ref_diagonal(shape, begin, end, np.array(5, dtype), dtype, x)
        cases.append(Case(f"DIAGONAL_MATRIX1 {name} {len(shape)}-d [{begin}, {end})", "DIAGONAL_MATRIX1",
                          [input_tensor(x, None, rng)], [output_tensor(want, strides)], scalar_type=name,
                          scalar_bits=_union_bits(dtype, 5), diagonal=[begin, end]))
    return cases


def cast_cases(rng):
    """CAST: every one of the 121 type pairs over the source type's edge values (NaN kept
    only where the output is an integer: a float NaN's payload is free), through a strided
    input."""
    cases = []
    for src in ALL_DTYPES:
        for dst in ALL_DTYPES:
            x = cast_edge_values(src)
            if np.dtype(src).kind == "f" and np.dtype(dst).kind == "f":
                x = x[~np.isnan(x)]
            cases.append(Case(f"CAST {DML_TYPE[np.dtype(src)]} to {DML_TYPE[np.dtype(dst)]} edge values", "CAST",
                              [input_tensor(x, [2], rng)], [output_tensor(ref_cast(x, dst))]))
    return cases


def data_movement_cases(rng):
    """ELEMENT_WISE_IDENTITY, SLICE, SLICE1, TILE, MAX_UNPOOLING and AVERAGE_POOLING(1): the
    strided copy and its scale and bias, windows with negative strides, repeats, scattered
    indices, and averages over power-of-two counts (exact in every float type, so the bytes
    are the reference's whatever the order of the sums)."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        x = random_values(rng, (2, 3, 5), dtype)
        cases.append(Case(f"ELEMENT_WISE_IDENTITY {name} transposed input", "ELEMENT_WISE_IDENTITY",
                          [input_tensor(x, [3, 1, 6], rng)], [output_tensor(x)]))  # memory order (5, 2, 3)
        if np.dtype(dtype).kind == "f":
            cases.append(Case(f"ELEMENT_WISE_IDENTITY {name} scale -1.5 bias 0.25", "ELEMENT_WISE_IDENTITY",
                              [input_tensor(x)], [output_tensor(ref_scale_bias(x, -1.5, 0.25), [16, 5, 1])],
                              scale_bias=(-1.5, 0.25)))
        ndim = 1 + k % 4
        shape = [4 + (j + k) % 3 for j in range(ndim)]
        x = random_values(rng, shape, dtype)
        offsets = [j % 2 for j in range(ndim)]
        sizes = [n - o - (j % 2) for j, (n, o) in enumerate(zip(shape, offsets))]
        strides = [(1, -2, 2, -1)[(j + k) % 4] for j in range(ndim)]
        cases.append(Case(f"SLICE1 {name} {ndim}-d strides {strides}", "SLICE1", [input_tensor(x)],
                          [output_tensor(ref_slice1(x, offsets, sizes, strides))], offsets=offsets, sizes=sizes,
                          slice_strides=strides))
        ustrides = [abs(s) for s in strides]
        usizes = [1 + (n - o - 1) // s for n, o, s in zip(shape, offsets, ustrides)]
        cases.append(Case(f"SLICE {name} {ndim}-d strides {ustrides}", "SLICE", [input_tensor(x, None)],
                          [output_tensor(ref_slice(x, offsets, usizes, ustrides))], offsets=offsets, sizes=usizes,
                          slice_strides=ustrides))
        repeats = [1 + (j + k) % 3 for j in range(ndim)]
        cases.append(Case(f"TILE {name} {ndim}-d repeats {repeats}", "TILE", [input_tensor(x)],
                          [output_tensor(ref_tile(x, repeats))], repeats=repeats))
        x = pooling_values(rng, (1, 2, 6, 7), dtype)
        v, i = ref_max_pool(x, [2, 2], [2, 2], [0, 1], [0, 1], [1, 1])
        idx = i.astype((np.uint32, np.uint64)[k % 2])
        cases.append(Case(f"MAX_UNPOOLING {name} of a 2x2/2 max pooling's indices", "MAX_UNPOOLING",
                          [input_tensor(v), input_tensor(idx)], [output_tensor(ref_max_unpool(v, idx, x.shape))]))
    dup = np.array([[[5, 0, 5, 9]]], np.uint64)  # a later element wins a duplicate; past the end writes nothing
    v = random_values(rng, (1, 1, 4), np.int16)
    cases.append(Case("MAX_UNPOOLING INT16 duplicate and out-of-range indices", "MAX_UNPOOLING",
                      [input_tensor(v), input_tensor(dup)], [output_tensor(ref_max_unpool(v, dup, (1, 1, 8)))]))
    for k, dtype in enumerate((np.float32, np.float16, np.float64)):
        x = rng.integers(-8, 9, size=(2, 3, 6, 8)).astype(dtype)
        for w, s, a, b, d, include in (([2, 2], [2, 2], [0, 0], [0, 0], [1, 1], False),
                                       ([2, 2], [1, 2], [1, 0], [1, 2], [1, 1], True),
                                       ([2, 2], [2, 1], [0, 0], [0, 0], [2, 3], False)):
            op = "AVERAGE_POOLING1" if d != [1, 1] or k == 1 else "AVERAGE_POOLING"
            want = ref_avg_pool(x, w, s, a, b, d, include)[0].astype(dtype)
            cases.append(Case(f"{op} {DML_TYPE[np.dtype(dtype)]} {w}/{s} pad {a},{b} dilations {d}"
                              + (" including padding" if include else ""), op, [input_tensor(x)],
                              [output_tensor(want)], spatial=2, window=w, strides=s, start=a, end=b, dilations=d,
                              include_padding=include))
        x = rng.integers(-8, 9, size=(1, 2, 4, 4, 6)).astype(dtype)
        cases.append(Case(f"AVERAGE_POOLING1 {DML_TYPE[np.dtype(dtype)]} 3-d 2x2x2/2", "AVERAGE_POOLING1",
                          [input_tensor(x, [192, 96, 24, 6, 1], rng)],
                          [output_tensor(ref_avg_pool(x, [2, 2, 2], [2, 2, 2], [0] * 3, [0] * 3, [1] * 3)[0]
                                         .astype(dtype))], spatial=3, window=[2, 2, 2], strides=[2, 2, 2],
                          start=[0] * 3, end=[0] * 3, dilations=[1] * 3, include_padding=False))
    return cases


def indexing_cases(rng):
    """GATHER: the page's worked examples, then every data type with each of the four index
    types, negative and out-of-range (clamped) indices, a strided input, and an index
    dimension count of 0 and of 2."""
    cases = []
    for k, ex in enumerate(e for e in ex_gather.EXAMPLES if e.page == "DML_GATHER_OPERATOR_DESC"):
        x, idx = ex.inputs["InputTensor"], ex.inputs["IndicesTensor"]
        axis = ex.params["Axis"]
        want = ex.expected["OutputTensor"]
        # example 3 prints IndexDimensions 2 where its size rule needs 1 (its output is 1's)
        index_dimensions = ex.params["IndexDimensions"] if isinstance(ex.params["IndexDimensions"], int) else 1
        cases.append(Case(f"page GATHER example {k + 1}", "GATHER", [input_tensor(x), input_tensor(idx)],
                          [output_tensor(want)], axis=axis, index_dimensions=index_dimensions))
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        idx_dtype = (np.int32, np.int64, np.uint32, np.uint64)[k % 4]
        x = random_values(rng, (4, 5, 3), dtype)
        axis = k % 3
        n = x.shape[axis]
        lo = -n - 2 if np.dtype(idx_dtype).kind == "i" else 0
        idx = rng.integers(lo, n + 2, (1, 1, 6)).astype(idx_dtype)
        want = ref_gather(x, idx[0, 0], axis)
        cases.append(Case(f"GATHER {name} {DML_TYPE[np.dtype(idx_dtype)]} indices, Axis {axis}, clamped", "GATHER",
                          [input_tensor(x, [1, 12, 4], rng), input_tensor(idx)], [output_tensor(want)], axis=axis,
                          index_dimensions=1))
    x = random_values(rng, (1, 6, 4), np.float32)
    idx = rng.integers(-6, 6, (1, 2, 3)).astype(np.int64)
    cases.append(Case("GATHER FLOAT32 IndexDimensions 2 (the leading 1 dropped)", "GATHER",
                      [input_tensor(x), input_tensor(idx)], [output_tensor(ref_gather(x, idx[0], 1)[0])], axis=1,
                      index_dimensions=2))
    idx = np.array([[[-2]]], np.int32)
    cases.append(Case("GATHER FLOAT32 IndexDimensions 0 (one index, a leading 1)", "GATHER",
                      [input_tensor(x), input_tensor(idx)], [output_tensor(ref_gather(x, -2, 2)[None])], axis=2,
                      index_dimensions=0))
    cases += elements_cases(rng)
    cases += nd_cases(rng)
    return cases


def nd_cases(rng):
    """GATHER_ND, GATHER_ND1 and SCATTER_ND: the pages' worked examples, then every data type
    with one of the four index types, coordinates in and out of range (clamped by the
    gathers, skipping the tuple in the scatter), batch dimensions, a strided input, leading
    ones below the dimension counts, and duplicates in the scatter."""
    cases = []
    for ex in ex_gather.EXAMPLES:
        op = ex.name.split()[0]
        if op not in ("GATHER_ND", "GATHER_ND1", "SCATTER_ND"):
            continue
        ins = [input_tensor(ex.inputs[k]) for k in ("InputTensor", "IndicesTensor", "UpdatesTensor") if k in ex.inputs]
        want = ex.expected["OutputTensor"]
        D = ex.inputs["InputTensor"].ndim
        cases.append(Case(f"page {ex.name.split(' (')[0]}", op, ins,
                          [output_tensor(want.reshape((1,) * (D - want.ndim) + want.shape))],
                          input_dims=ex.params["InputDimensionCount"], indices_dims=ex.params["IndicesDimensionCount"],
                          batch_dims=ex.params.get("BatchDimensionCount", 0)))
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        idx_dtype = (np.int32, np.int64, np.uint32, np.uint64)[k % 4]
        iname = DML_TYPE[np.dtype(idx_dtype)]
        x = random_values(rng, (4, 5, 3), dtype)
        b, t = k % 2, 1 + (k // 2) % 2  # batch dimensions, the tuple's length
        signed = np.dtype(idx_dtype).kind == "i"
        jshape = (4, 3) if b else (6,)  # the tuples' shape; batch axis 4 = x.shape[0]
        cols = [rng.integers(-x.shape[b + a] - 2 if signed else 0, x.shape[b + a] + 2, jshape) for a in range(t)]
        idx = np.stack(cols, -1).astype(idx_dtype)
        want = ref_gather_nd(x, idx, b)
        op = "GATHER_ND1" if b else "GATHER_ND"
        cases.append(Case(f"{op} {name} {iname} indices, BatchDimensionCount {b}, tuples of {t}, clamped", op,
                          [input_tensor(x, [1, 12, 4], rng), input_tensor(idx.reshape((1,) * (3 - idx.ndim) + idx.shape))],
                          [output_tensor(want.reshape((1,) * (3 - want.ndim) + want.shape))],
                          input_dims=3, indices_dims=idx.ndim, batch_dims=b))
        # SCATTER_ND: tuples of t over x's first axes, one duplicate, one out of range
        idx = np.stack([rng.integers(-x.shape[a] - 1 if signed else 0, x.shape[a] + 1, 5) for a in range(t)],
                       -1).astype(idx_dtype)
        idx[4] = idx[1]
        u = random_values(rng, (5,) + x.shape[t:], dtype)
        ud = u.reshape((1,) * (3 - u.ndim) + u.shape)
        cases.append(Case(f"SCATTER_ND {name} {iname} indices, tuples of {t}, a duplicate, out of range skipped",
                          "SCATTER_ND", [input_tensor(x, [1, 12, 4], rng),
                                         input_tensor(idx.reshape(1, 5, t)), input_tensor(ud)],
                          [output_tensor(ref_scatter_nd(x, idx, u))], input_dims=3, indices_dims=2))
    return cases


def elements_cases(rng):
    """GATHER_ELEMENTS and SCATTER_ELEMENTS: the pages' worked examples, then every data type
    with one of the four index types, indices in and out of range (clamped by the gather,
    skipped by the scatter), a strided input, and duplicates in the scatter."""
    cases = []
    for ex in ex_gather.EXAMPLES:
        op = ex.name.split()[0]
        if op not in ("GATHER_ELEMENTS", "SCATTER_ELEMENTS"):
            continue
        ins = [input_tensor(ex.inputs[k]) for k in ("InputTensor", "IndicesTensor", "UpdatesTensor") if k in ex.inputs]
        cases.append(Case(f"page {ex.name.split(' (')[0]}", op, ins, [output_tensor(ex.expected["OutputTensor"])],
                          axis=ex.params["Axis"]))
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        idx_dtype = (np.int32, np.int64, np.uint32, np.uint64)[k % 4]
        x = random_values(rng, (4, 5, 3), dtype)
        axis = k % 3
        n = x.shape[axis]
        ishape = list(x.shape)
        ishape[axis] = 4
        lo = -n - 2 if np.dtype(idx_dtype).kind == "i" else 0
        idx = rng.integers(lo, n + 2, ishape).astype(idx_dtype)
        iname = DML_TYPE[np.dtype(idx_dtype)]
        cases.append(Case(f"GATHER_ELEMENTS {name} {iname} indices, Axis {axis}, clamped", "GATHER_ELEMENTS",
                          [input_tensor(x, [1, 12, 4], rng), input_tensor(idx)],
                          [output_tensor(ref_gather_elements(x, idx, axis))], axis=axis))
        u = random_values(rng, ishape, dtype)
        cases.append(Case(f"SCATTER_ELEMENTS {name} {iname} indices, Axis {axis}, out of range skipped",
                          "SCATTER_ELEMENTS", [input_tensor(x, [1, 12, 4], rng), input_tensor(idx), input_tensor(u)],
                          [output_tensor(ref_scatter_elements(x, idx, u, axis))], axis=axis))
    return cases


def one_hot_cases(rng):
    """ONE_HOT: the page's four worked examples (example 3's ValuesTensor {1,1,3,1} as
    printed), then every data type with one of the four index types, every Axis of a 3-d
    desc, indices out of range both ways, and a strided ValuesTensor {1,3,1} whose OnValue
    is its element [0,1,0]."""
    cases = []
    for ex in ex_oh.EXAMPLES:
        cases.append(Case(f"page {ex.name.split(' (')[0]}", "ONE_HOT",
                          [input_tensor(ex.inputs["IndicesTensor"]), input_tensor(ex.inputs["ValuesTensor"])],
                          [output_tensor(ex.expected["OutputTensor"])], axis=ex.params["Axis"]))
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        idx_dtype = (np.int32, np.int64, np.uint32, np.uint64)[k % 4]
        axis, depth = k % 3, 4 + k % 3
        ishape = [3, 2, 5]
        ishape[axis] = 1
        lo = -depth - 2 if np.dtype(idx_dtype).kind == "i" else 0
        idx = rng.integers(lo, depth + 2, ishape).astype(idx_dtype)
        values = random_values(rng, (1, 3, 1), dtype)
        want = ref_one_hot(np.squeeze(idx, axis), depth, axis, values[0, 0, 0], values[0, 1, 0], dtype)
        cases.append(Case(f"ONE_HOT {name} {DML_TYPE[np.dtype(idx_dtype)]} indices, Axis {axis}, depth {depth}",
                          "ONE_HOT", [input_tensor(idx), input_tensor(values, [1, 2, 1], rng)], [output_tensor(want)],
                          axis=axis))
    return cases


def large_cases():
    """Inputs generated from a seed in vectors.c; large enough to be split across threads,
    and the two padding/join cases to take the streaming stores on x86."""
    cases = []

    def gen(dtype, shape, seed):
        t = generated_input(dtype, shape, seed)
        return t, t.view(t.buffer).copy()

    t, x = gen(np.float32, (2, 8, 129, 131), 1)
    for w, a in (([3, 3], [1, 1]), ([2, 2], [0, 0])):
        v, i = ref_max_pool(x, w, [2, 2], a, a, [1, 1])
        cases.append(Case(f"large MAX_POOLING2 FLOAT32 {w}/2 random bits", "MAX_POOLING2", [t],
                          [hashed_output(v), hashed_output(i.astype(np.uint32))], spatial=2, window=w,
                          strides=[2, 2], start=a, end=a, dilations=[1, 1]))
    t, x = gen(np.float16, (1, 16, 96, 256), 2)
    v, i = ref_max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1])
    cases.append(Case("large MAX_POOLING1 FLOAT16 2x2/2 random bits", "MAX_POOLING1", [t],
                      [hashed_output(v), hashed_output(i)], spatial=2, window=[2, 2], strides=[2, 2],
                      start=[0, 0], end=[0, 0]))
    t, x = gen(np.uint16, (4, 64, 64, 32), 3)
    cases.append(Case("large DEPTH_TO_SPACE1 UINT16 CRD", "DEPTH_TO_SPACE1", [t],
                      [hashed_output(ref_depth_to_space(x, 4, "column_row_depth"))], block=4,
                      order="COLUMN_ROW_DEPTH"))
    t, x = gen(np.float32, (6, 250, 300), 4)
    cases.append(Case("large PADDING REFLECTION FLOAT32", "PADDING", [t],
                      [hashed_output(ref_pad(as_bits(x), [1, 5, 7], [2, 6, 9], "reflection").view(np.float32))],
                      mode="REFLECTION", value=0.0, start=[1, 5, 7], end=[2, 6, 9]))
    t, x = gen(np.int32, (4, 1024, 2048), 5)  # 32 MiB in, 34 MiB out: streamed on x86
    cases.append(Case("large PADDING CONSTANT INT32 (streaming size)", "PADDING", [t],
                      [hashed_output(ref_pad(x, [0, 8, 16], [0, 8, 16], "constant", -7))],
                      mode="CONSTANT", value=-7.0, start=[0, 8, 16], end=[0, 8, 16]))
    t1, x1 = gen(np.uint8, (64, 1024, 96), 6)
    t2, x2 = gen(np.uint8, (64, 1024, 160), 7)
    cases.append(Case("large JOIN UINT8 axis 2 (streaming size)", "JOIN", [t1, t2],
                      [hashed_output(np.concatenate([x1, x2], axis=2))], axis=2))
    t, x = gen(np.int64, (3, 40000, 20), 8)
    parts = np.split(x, [4, 12, 13], axis=2)
    cases.append(Case("large SPLIT INT64 axis 2", "SPLIT", [t], [hashed_output(p) for p in parts], axis=2))
    return cases


# ---- C output -------------------------------------------------------------------------
def c_float(v):
    v = float(np.float32(v))
    if np.isnan(v):
        return "NAN"
    if np.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return v.hex() + "f" if v != 0 or np.copysign(1, v) > 0 else "-0.0f"


def c_uints(values):
    return "{" + ", ".join(str(int(v)) for v in values) + "}"


# How vectors.c stores each schema field type (its vec_kind).
KIND = {"UINT": "VEC_U32", "INT": "VEC_U32", "FLOAT": "VEC_U32", "BOOL": "VEC_U32", "ENUM": "VEC_U32",
        "UINT64": "VEC_U64", "UINT_ARRAY": "VEC_ARRAY", "INT_ARRAY": "VEC_ARRAY", "FLOAT_ARRAY": "VEC_ARRAY",
        "SCALE_BIAS": "VEC_SCALE_BIAS", "SIZE_2D": "VEC_SIZE_2D", "SCALAR_UNION": "VEC_SCALAR"}
MAX_FIELDS, MAX_ARRAYS = 16, 6  # vectors.c's VEC_MAX_FIELDS, VEC_MAX_ARRAYS


def field_kind(f):
    if f.type == "TENSOR":
        return "VEC_INPUT" if f.kind == "input" else "VEC_OUTPUT"
    if f.type == "TENSOR_ARRAY":
        return "VEC_INPUTS" if f.kind == "input" else "VEC_OUTPUTS"
    return KIND[f.type]


def layouts(ops):
    """vec_layouts: each operator's fields in its schema's order, with their offsets as the
    compiler lays the header's struct out (so they hold on every target)."""
    lines = []
    for name in ops:
        op = schema.get(name)
        assert len(op.fields) <= MAX_FIELDS, name
        lines.append(f"typedef char vec_fits_{name}[sizeof({op.struct}) <= VEC_DESC_BYTES ? 1 : -1];")
    lines += ["", "static const vec_layout vec_layouts[] = {"]
    for name in ops:
        op = schema.get(name)
        slots = ", ".join(f"{{{field_kind(f)}, offsetof({op.struct}, {f.name})}}" for f in op.fields)
        lines.append(f"    {{DML_OPERATOR_{name}, {len(op.fields)}, {{{slots}}}}},")
    lines += ["};", ""]
    return lines


def _bits32(ftype, v):
    """A 32-bit field's value as vectors.c stores it: floats as their bits, INTs two's complement."""
    if ftype in ("FLOAT", "FLOAT_ARRAY"):
        return int(np.float32(v).view(np.uint32))
    return int(v) & 0xFFFFFFFF


def case_entry(c, tensor):
    """The vec_case initializer of case c; tensor(t) writes a vec_tensor's."""
    op = schema.get(c.op)
    given = dict(c.fields)
    counts = {}  # count field -> the length of an array or tensor array that uses it
    for f in op.fields:
        if f.type == "TENSOR_ARRAY":
            counts[f.count] = len(c.inputs if f.kind == "input" else c.outputs)
        elif f.is_array and f.name in given:
            counts.setdefault(f.count, len(given[f.name]))
    values, arrays = [], []
    tensors = {"input": list(range(len(c.inputs))), "output": list(range(len(c.outputs)))}
    slots = 0
    for f in op.fields:
        if f.type == "TENSOR":
            slots += f.kind == "output"
            if tensors[f.kind]:
                values.append(str(tensors[f.kind].pop(0)))
            else:
                assert f.optional, f"{c.name}: {op.struct}.{f.name} has no tensor"
                values.append("VEC_NULL")
            continue
        if f.type == "TENSOR_ARRAY":
            slots += len(c.outputs) if f.kind == "output" else 0
            tensors[f.kind] = []
            values.append("0")
            continue
        if f.name not in given:
            if f.name in counts:
                values.append(str(counts[f.name]))
            elif f.optional:
                values.append("VEC_NULL")
            else:
                raise ValueError(f"{c.name}: {op.struct}.{f.name} is not given")
            continue
        v = given.pop(f.name)
        if f.is_array or f.type == "SCALE_BIAS":
            assert len(v) <= 8 and len(arrays) < MAX_ARRAYS, c.name
            values.append(str(len(arrays)))
            arrays.append("{" + ", ".join(f"{_bits32(f.type if f.is_array else 'FLOAT', x)}u" for x in v) + "}")
        elif f.type == "ENUM" and isinstance(v, str):
            values.append(f"{f.ctype}_{v}")
        elif f.type == "SIZE_2D":
            values.append(f"0x{int(v[0]) | int(v[1]) << 32:x}u")
        elif f.type in ("UINT64", "SCALAR_UNION"):
            values.append(f"0x{int(v) & 0xFFFFFFFFFFFFFFFF:x}u")
        else:
            values.append(f"{_bits32(f.type, v)}u")
    assert not any(tensors.values()), f"{c.name}: more tensors than {op.struct} has fields for"
    assert not given, f"{c.name}: {sorted(given)} not in {op.struct}"
    fields = [f'.name = "{c.name}"', f".type = DML_OPERATOR_{c.op}", f".inputs = {len(c.inputs)}",
              f".outputs = {len(c.outputs)}", f".slots = {slots}",
              ".out = {" + ", ".join(tensor(t) for t in c.outputs) + "}"]
    if c.inputs:  # C99 has no empty braces: an operator without inputs leaves .in zeroed
        fields.insert(5, ".in = {" + ", ".join(tensor(t) for t in c.inputs) + "}")
    if values:
        fields.append(".fields = {" + ", ".join(values) + "}")
    if arrays:
        fields.append(".arrays = {" + ", ".join(arrays) + "}")
    return "    {" + ",\n     ".join(fields) + "},"


def emit(cases):
    lines = ["/* vectors.h - generated by tests/c/gen_vectors.py (run it to change this file; --check",
             " * compares).  Inputs and expected output buffers of tests/c/vectors.c, from DirectML's",
             " * worked examples and NumPy references; see the script. */", ""]
    blobs = []

    def blob(buf):
        name = f"vec_b{len(blobs)}"
        blobs.append(name)
        text, line = [], ""
        for value in buf.tolist():
            if len(line) > 104:
                text.append(line)
                line = ""
            line += f"{value},"
        text.append(line)
        lines.append(f"static const unsigned char {name}[{len(buf)}] = {{")
        lines.extend("    " + t for t in text)
        lines.append("};")
        return name

    def tensor(t):
        fields = [f".type = DML_TENSOR_DATA_TYPE_{DML_TYPE[t.dtype]}", f".ndim = {len(t.sizes)}",
                  f".sizes = {c_uints(t.sizes)}"]
        if t.strides is not None:
            fields += [".strided = 1", f".strides = {c_uints(t.strides)}"]
        fields.append(f".bytes = {t.bytes}u")
        if t.buffer is not None and t.seed is None:
            fields.append(f".data = {blob(t.buffer)}")
        if t.seed is not None:
            fields.append(f".seed = {t.seed}u")
        if t.hash is not None:
            fields.append(f".hash = 0x{t.hash:016x}u")
        return "{" + ", ".join(fields) + "}"

    entries = [case_entry(c, tensor) for c in cases]
    lines.extend(layouts(sorted({c.op for c in cases}, key=lambda op: schema.get(op).value)))
    lines.append("")
    lines.append("static const vec_case vec_cases[] = {")
    lines.extend(entries)
    lines.append("};")
    return "\n".join(lines) + "\n"


def reverse_cases(rng):
    """REVERSE_SUBSEQUENCES over every type: each axis of a {3, 4, 5} input, UINT32 and UINT64
    lengths from 0 to past the end, a transposed input, lengths broadcast by a zero stride."""
    cases = []
    for k, dtype in enumerate(ALL_DTYPES):
        name = DML_TYPE[np.dtype(dtype)]
        x = random_values(rng, (3, 4, 5), dtype)
        axis = k % 3
        lshape = [3, 4, 5]
        lshape[axis] = 1
        lt = (np.uint32, np.uint64)[k % 2]
        lengths = rng.integers(0, x.shape[axis] + 3, lshape).astype(lt)
        lstrides = None
        if k % 4 == 3:  # one length per position of the first other axis, broadcast over the last
            other = [d for d in range(3) if d != axis]
            lengths = np.broadcast_to(lengths.take([0], other[1]), lshape).copy()
            lstrides = [0, 0, 0]
            lstrides[other[0]] = 1
        strides = [1, 3, 12] if k % 3 == 1 else None  # x stored transposed
        want = ref_reverse_subsequences(x, lengths, axis)
        cases.append(Case(f"REVERSE_SUBSEQUENCES {name} axis {axis} {DML_TYPE[np.dtype(lt)]} lengths"
                          f"{' broadcast' if lstrides else ''}", "REVERSE_SUBSEQUENCES",
                          [input_tensor(x, strides, rng), input_tensor(lengths, lstrides, rng)],
                          [output_tensor(want)], axis=axis))
    return cases


def build():
    rng = np.random.default_rng(20240611)
    cases = worked_examples() + numpy_cases(rng) + large_cases()
    cases += indexing_cases(np.random.default_rng(21))  # its own generator: the cases above keep their values
    cases += lp_pooling_cases(np.random.default_rng(23))
    cases += cumulative_cases(np.random.default_rng(22))
    cases += topk_cases(np.random.default_rng(71))
    cases += nonzero_cases(np.random.default_rng(24))
    cases += roi_cases(np.random.default_rng(24))
    cases += reverse_cases(np.random.default_rng(106))
    cases += one_hot_cases(np.random.default_rng(95))
    ops = {c.op for c in cases}
    with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "src", "schema.def"), encoding="utf-8") as f:
        implemented = set(re.findall(r"^DMLC_SCHEMA\((\w+),", f.read(), re.M))
    assert ops == implemented, sorted(implemented ^ ops)  # every operator dmlc implements
    assert {t.dtype for c in cases for t in c.inputs} == {np.dtype(d) for d in ALL_DTYPES}
    return emit(cases)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed vectors.h instead of writing")
    args = parser.parse_args()
    text = build()
    if args.check:
        with open(OUTPUT) as f:
            if f.read() != text:
                print(f"{OUTPUT} is not what {os.path.basename(__file__)} writes: rerun it", file=sys.stderr)
                return 1
        return 0
    with open(OUTPUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
