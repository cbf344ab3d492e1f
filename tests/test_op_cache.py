"""dmlcExecuteOperator keeps the last operators each thread created and runs one again when
a desc's values are all equal to its key's.  These tests run descs that differ in one value
only, back to back, so a key that missed a field would run the earlier operator and give the
earlier result."""
import threading

import numpy as np
import pytest

import dmlc
from dmlc.ffi import ffi, lib
from rawdesc import SENTINEL, Raw, d2s_case, d2s_run
from reference import (ref_avg_pool, ref_depth_to_space, ref_max_pool, ref_pad, ref_scale_bias, ref_slice,
                       ref_split)
from support import assert_same_bits


def d2s_fields(desc):
    return ffi.cast("DML_DEPTH_TO_SPACE1_OPERATOR_DESC*", desc.Desc)


def test_a_desc_edited_in_place_runs_as_edited():
    """The same desc memory, its values changed between calls: the key holds values, not
    addresses, so each call runs the desc as it is now."""
    x = np.arange(48, dtype=np.float32).reshape(1, 8, 2, 3)
    raw, desc = d2s_case()
    hr, msg, out = d2s_run(raw, desc)
    assert hr == 0, msg
    np.testing.assert_array_equal(out[:48].view(np.float32).reshape(1, 2, 4, 6), ref_depth_to_space(x, 2))

    d2s_fields(desc).Order = 1  # DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH
    hr, msg, out = d2s_run(raw, desc)
    assert hr == 0, msg
    np.testing.assert_array_equal(out[:48].view(np.float32).reshape(1, 2, 4, 6),
                                  ref_depth_to_space(x, 2, "column_row_depth"))

    d2s_fields(desc).BlockSize = 3  # 8 channels do not divide by 9: the earlier operator must not run
    hr, msg, out = d2s_run(raw, desc)
    assert hr != 0
    assert "BlockSize" in msg and "(9)" in msg, msg
    assert np.all(out == SENTINEL)

    d2s_fields(desc).BlockSize = 2
    d2s_fields(desc).Order = 0
    hr, msg, out = d2s_run(raw, desc)
    assert hr == 0 and msg == "", msg
    np.testing.assert_array_equal(out[:48].view(np.float32).reshape(1, 2, 4, 6), ref_depth_to_space(x, 2))


def test_strides_edited_in_place():
    """One input stride array, rewritten between calls to another layout of the same bytes."""
    raw = Raw()
    src = np.arange(64, dtype=np.float32)
    strides = raw.uints([48, 6, 3, 1])
    tin = raw.new("DML_BUFFER_TENSOR_DESC*", {"DataType": lib.DML_TENSOR_DATA_TYPE_FLOAT32, "DimensionCount": 4,
                                              "Sizes": raw.uints([1, 8, 2, 3]), "Strides": strides,
                                              "TotalTensorSizeInBytes": 192})
    ti = raw.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": tin})
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": raw.tensor(np.float32, (1, 2, 4, 6)), "BlockSize": 2,
                   "Order": 0})
    for layout in ([48, 6, 3, 1], [48, 1, 24, 8], [48, 6, 3, 1]):
        for i, s in enumerate(layout):
            strides[i] = s
        x = np.lib.stride_tricks.as_strided(src, (1, 8, 2, 3), [4 * s for s in layout])
        hr, msg, out = d2s_run(raw, desc, buf=None)
        assert hr == 0, msg
        np.testing.assert_array_equal(out[:48].view(np.float32).reshape(1, 2, 4, 6), ref_depth_to_space(x, 2))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_fields_that_keep_the_shapes(rng, dtype):
    """Calls whose tensors are all alike and whose other fields differ, alternating."""
    x = rng.standard_normal((1, 8, 6, 6)).astype(dtype)
    for _ in range(2):
        for order in ("depth_column_row", "column_row_depth"):
            assert_same_bits(dmlc.depth_to_space(x, 2, order=order), ref_depth_to_space(x, 2, order))
        for mode in ("constant", "edge", "reflection", "symmetric", "wrap"):
            assert_same_bits(dmlc.pad(x, [0, 0, 1, 2], [0, 0, 2, 1], mode=mode),
                             ref_pad(x, [0, 0, 1, 2], [0, 0, 2, 1], mode))
        for value in (0.0, -0.0, 5.0, np.nan):  # -0.0 and 0.0 compare equal, but their bits differ
            assert_same_bits(dmlc.pad(x, 1, 1, value=value), ref_pad(x, [1] * 4, [1] * 4, "constant", value))
        for start, end in (([1, 0], [0, 1]), ([0, 1], [1, 0]), ([1, 1], [0, 0])):
            assert_same_bits(dmlc.max_pool(x, 2, start_padding=start, end_padding=end),
                             ref_max_pool(x, [2, 2], [2, 2], start, end, [1, 1])[0])
        for include in (False, True):
            want, bound = ref_avg_pool(x, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], include)
            got = dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1, include_padding=include)
            assert np.all(np.abs(got.astype(np.float64) - want) <= bound)
        for offsets in ([0, 0, 0, 0], [0, 2, 1, 3]):
            assert_same_bits(dmlc.slice(x, offsets, [1, 6, 5, 3]), ref_slice(x, offsets, [1, 6, 5, 3], [1] * 4))
        for scale, bias in ((None, None), (2.0, None), (2.0, 1.0), (None, -0.0)):
            want = x if scale is None and bias is None else ref_scale_bias(x, 1.0 if scale is None else scale,
                                                                           0.0 if bias is None else bias)
            assert_same_bits(dmlc.identity(x, scale=scale, bias=bias), want)
        for sizes in ([2, 6], [6, 2], [4, 4]):
            for got, want in zip(dmlc.split(x, sizes, 1), ref_split(x, sizes, 1)):
                assert_same_bits(got, want)


def test_new_arrays_under_one_desc(rng):
    """One key, other buffers: the bindings are read on every call."""
    for _ in range(3):
        x = rng.standard_normal((1, 8, 16, 16)).astype(np.float32)
        parts = dmlc.split(x, 2, 1)
        assert_same_bits(dmlc.join(parts, 1), x)
        assert_same_bits(dmlc.max_pool(x, 2), ref_max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1])[0])


def test_threads_that_end(rng):
    """Each thread has its own operators, freed when it ends; many short-lived threads,
    each running descs another thread ran too."""
    x = rng.standard_normal((2, 8, 8, 8)).astype(np.float32)
    want = [ref_pad(x, [0, 0, 1, 1], [0, 0, 1, 1], "edge"), ref_depth_to_space(x, 2),
            ref_max_pool(x, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1])[0]]
    errors = []

    def work():
        try:
            for _ in range(20):
                got = [dmlc.pad(x, [0, 0, 1, 1], [0, 0, 1, 1], mode="edge"), dmlc.depth_to_space(x, 2),
                       dmlc.max_pool(x, 2)]
                for g, w in zip(got, want):
                    np.testing.assert_array_equal(g, w)
        except Exception as e:  # reported by the main thread
            errors.append(e)

    for _ in range(4):
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors, errors[0]


def test_more_descs_than_slots_in_turn(rng):
    """Six descs in a loop, more than a thread keeps: each still runs as itself."""
    x = rng.standard_normal((1, 4, 8, 8)).astype(np.float32)
    for _ in range(3):
        for k in range(1, 7):
            np.testing.assert_array_equal(dmlc.pad(x, k, 0), ref_pad(x, [k] * 4, [0] * 4, "constant"))


def infer(desc, count=1, flags=0):
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(desc, flags, count, out)
    if hr != 0:
        return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    return [tuple(out[i].Sizes[j] for j in range(out[i].DimensionCount)) for i in range(count)]


def test_inferred_sizes_follow_the_desc_and_the_flags():
    """dmlcInferOutputSizes keeps the sizes it gave last under the inputs' and fields' values
    and the flags: a desc edited in place, and the ceil-mode flag, give their own sizes."""
    raw = Raw()
    sizes = raw.uints([1, 16, 3, 5])
    tin = raw.new("DML_BUFFER_TENSOR_DESC*", {"DataType": lib.DML_TENSOR_DATA_TYPE_FLOAT32, "DimensionCount": 4,
                                              "Sizes": sizes})
    ti = raw.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": tin})
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": ffi.NULL, "BlockSize": 2})
    assert infer(desc) == [(1, 4, 6, 10)]
    d2s_fields(desc).BlockSize = 4
    assert infer(desc) == [(1, 1, 12, 20)]
    sizes[1] = 32
    assert infer(desc) == [(1, 2, 12, 20)]
    d2s_fields(desc).BlockSize = 3
    hr, msg = infer(desc)
    assert hr != 0 and "BlockSize" in msg, msg
    d2s_fields(desc).BlockSize = 4
    assert infer(desc) == [(1, 2, 12, 20)]
    assert ffi.string(lib.dmlcGetLastErrorMessage()) == b""

    window, strides = raw.uints([3, 3]), raw.uints([2, 2])
    zeros, ones = raw.uints([0, 0]), raw.uints([1, 1])
    pool = raw.op(lib.DML_OPERATOR_MAX_POOLING2, "DML_MAX_POOLING2_OPERATOR_DESC",
                  {"InputTensor": raw.tensor(np.float32, (1, 2, 8, 8)), "OutputTensor": ffi.NULL,
                   "OutputIndicesTensor": ffi.NULL, "DimensionCount": 2, "Strides": strides, "WindowSize": window,
                   "StartPadding": zeros, "EndPadding": zeros, "Dilations": ones})
    for _ in range(2):
        assert infer(pool, 2) == [(1, 2, 3, 3)] * 2
        assert infer(pool, 2, lib.DMLC_INFER_FLAG_CEIL_MODE) == [(1, 2, 4, 4)] * 2
    assert infer(pool, 1)[0] != 0  # another output count: the error, not the sizes kept for 2


def test_inferred_sizes_of_operators_whose_outputs_are_parameters():
    """SPLIT's parts and MAX_UNPOOLING's output carry sizes inference reads: their keys hold
    them, so a desc whose outputs were edited in place gives its own sizes, not the last."""
    raw = Raw()
    part_sizes = [raw.uints([2, 1]), raw.uints([2, 3])]
    parts = raw.new("DML_TENSOR_DESC[2]")
    for k, s in enumerate(part_sizes):
        parts[k].Type = lib.DML_TENSOR_TYPE_BUFFER
        parts[k].Desc = raw.new("DML_BUFFER_TENSOR_DESC*", {"DataType": lib.DML_TENSOR_DATA_TYPE_INT8,
                                                            "DimensionCount": 2, "Sizes": s})
    split = raw.op(lib.DML_OPERATOR_SPLIT, "DML_SPLIT_OPERATOR_DESC",
                   {"InputTensor": raw.tensor(np.int8, (2, 4)), "OutputCount": 2, "OutputTensors": parts, "Axis": 1})
    assert infer(split, 2) == [(2, 1), (2, 3)]
    part_sizes[0][1], part_sizes[1][1] = 3, 1
    assert infer(split, 2) == [(2, 3), (2, 1)]

    out_sizes = raw.uints([1, 1, 4, 4])
    tout = raw.new("DML_BUFFER_TENSOR_DESC*", {"DataType": lib.DML_TENSOR_DATA_TYPE_FLOAT32, "DimensionCount": 4,
                                               "Sizes": out_sizes})
    unpool = raw.op(lib.DML_OPERATOR_MAX_UNPOOLING, "DML_MAX_UNPOOLING_OPERATOR_DESC",
                    {"InputTensor": raw.tensor(np.float32, (1, 1, 2, 2)),
                     "IndicesTensor": raw.tensor(np.uint32, (1, 1, 2, 2)),
                     "OutputTensor": raw.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": tout})})
    assert infer(unpool) == [(1, 1, 4, 4)]
    out_sizes[2] = 5
    assert infer(unpool) == [(1, 1, 5, 4)]


def test_counts_that_disagree_with_the_rank_are_refused_not_read():
    """An array whose count is not the input's rank is refused by creation before it is
    read; the cache must not read it either (a 2-value array with DimensionCount 4 here: CI runs
    this under AddressSanitizer, which reports a read past it)."""
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_PADDING, "DML_PADDING_OPERATOR_DESC",
                  {"InputTensor": raw.tensor(np.float32, (2, 3)), "OutputTensor": raw.tensor(np.float32, (4, 5)),
                   "PaddingMode": 0, "PaddingValue": 0.0, "DimensionCount": 4,
                   "StartPadding": raw.uints([1, 1]), "EndPadding": raw.uints([1, 1])})
    for _ in range(2):
        hr, msg = infer(desc)
        assert hr != 0 and "DimensionCount" in msg, msg
