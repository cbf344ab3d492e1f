"""dmlcInferOutputSizes: the output sizes a desc implies, from the rules dmlcCreateOperator checks."""
import numpy as np
import pytest

import dmlc
from dmlc.ffi import ffi, lib
from rawdesc import Raw

E_INVALIDARG = dmlc._core.HRESULTS["E_INVALIDARG"]
E_POINTER = dmlc._core.HRESULTS["E_POINTER"]


class Descs(Raw):
    def tensor(self, sizes, dml_type=None):
        """A float32 DML_TENSOR_DESC* of sizes; TotalTensorSizeInBytes is not read here."""
        return super().tensor(np.float32, sizes, total=0)


def infer(op, count=1, flags=0):
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(op, flags, count, out)
    msg = ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    if hr != 0:
        return hr, msg
    return [tuple(out[i].Sizes[j] for j in range(out[i].DimensionCount)) for i in range(count)]


def test_depth_to_space_and_space_to_depth():
    d = Descs()
    op = d.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
              {"InputTensor": d.tensor((2, 8, 3, 5)), "OutputTensor": ffi.NULL, "BlockSize": 2})
    assert infer(op) == [(2, 2, 6, 10)]
    op = d.op(lib.DML_OPERATOR_SPACE_TO_DEPTH, "DML_SPACE_TO_DEPTH_OPERATOR_DESC",
              {"InputTensor": d.tensor((1, 3, 4, 6)), "OutputTensor": ffi.NULL, "BlockSize": 2})
    assert infer(op) == [(1, 12, 2, 3)]


def test_padding_and_empty_inputs():
    d = Descs()
    start, end = d.new("UINT[]", [0, 1, 2]), d.new("UINT[]", [3, 0, 1])
    op = d.op(lib.DML_OPERATOR_PADDING, "DML_PADDING_OPERATOR_DESC",
              {"InputTensor": d.tensor((0, 4, 5)), "OutputTensor": ffi.NULL, "DimensionCount": 3,
               "StartPadding": start, "EndPadding": end})
    # Sizes of 0 are allowed here (NumPy's empty arrays), and follow the same rule.
    assert infer(op) == [(3, 5, 8)]


def test_max_pooling_floor_ceil_and_indices():
    d = Descs()
    two, one, zero = (d.new("UINT[]", [v, v]) for v in (2, 1, 0))
    three = d.new("UINT[]", [3, 3])

    def pool(sizes, strides, window, padding):
        return d.op(lib.DML_OPERATOR_MAX_POOLING2, "DML_MAX_POOLING2_OPERATOR_DESC",
                    {"InputTensor": d.tensor(sizes), "OutputTensor": ffi.NULL, "OutputIndicesTensor": ffi.NULL,
                     "DimensionCount": 2, "Strides": strides, "WindowSize": window, "StartPadding": padding,
                     "EndPadding": padding, "Dilations": one})

    op = pool((1, 2, 7, 8), two, three, zero)
    assert infer(op, 2) == [(1, 2, 3, 3), (1, 2, 3, 3)]
    assert infer(op, 2, lib.DMLC_INFER_FLAG_CEIL_MODE) == [(1, 2, 3, 4), (1, 2, 3, 4)]
    # PyTorch's and ONNX's ceil mode: 17 x 14, window 2, stride 3, padding 1 and 1: the plain
    # ceil size (7, 6) less each last window, which would start in the end padding (at 6 * 3 - 1
    # = 17 and 5 * 3 - 1 = 14): the floor size here.
    op = pool((2, 3, 17, 14), three, two, one)
    assert infer(op, 2) == [(2, 3, 6, 5), (2, 3, 6, 5)]
    assert infer(op, 2, lib.DMLC_INFER_FLAG_CEIL_MODE) == [(2, 3, 6, 5), (2, 3, 6, 5)]
    # MAX_POOLING1/2 have two output slots whether or not indices are asked for.
    assert infer(op, 1) == (E_INVALIDARG, "DML_OPERATOR_MAX_POOLING2: outputCount is 1, expected 2")


def test_split_reads_part_sizes_and_join_sums():
    d = Descs()
    parts = d.new("DML_TENSOR_DESC[]", 2)
    for i, n in enumerate((1, 3)):
        parts[i] = d.tensor((2, n, 5))[0]
    op = d.op(lib.DML_OPERATOR_SPLIT, "DML_SPLIT_OPERATOR_DESC",
              {"InputTensor": d.tensor((2, 4, 5)), "OutputCount": 2, "OutputTensors": parts, "Axis": 1})
    assert infer(op, 2) == [(2, 1, 5), (2, 3, 5)]
    op = d.op(lib.DML_OPERATOR_JOIN, "DML_JOIN_OPERATOR_DESC",
              {"InputCount": 2, "InputTensors": parts, "OutputTensor": ffi.NULL, "Axis": 1})
    assert infer(op) == [(2, 4, 5)]
    bad = d.op(lib.DML_OPERATOR_SPLIT, "DML_SPLIT_OPERATOR_DESC",
               {"InputTensor": d.tensor((2, 5, 5)), "OutputCount": 2, "OutputTensors": parts, "Axis": 1})
    assert infer(bad, 2) == (E_INVALIDARG, "DML_OPERATOR_SPLIT: OutputTensors[0..1].Sizes[1] sum to 4, expected 5 "
                                           "(InputTensor.Sizes[1]; Axis is 1)")


def test_bad_calls_name_the_problem():
    d = Descs()
    op = d.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
              {"InputTensor": d.tensor((1, 4, 1, 1)), "OutputTensor": ffi.NULL, "BlockSize": 2})
    out = ffi.new("DMLC_TENSOR_SIZES[]", 1)
    assert lib.dmlcInferOutputSizes(op, 4, 1, out) == E_INVALIDARG
    assert "flags is 0x4, expected a combination of DMLC_INFER_FLAGS" in ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    assert lib.dmlcInferOutputSizes(op, 0, 1, ffi.NULL) == E_POINTER
    assert lib.dmlcInferOutputSizes(ffi.NULL, 0, 1, out) == E_POINTER
    assert infer(op, 2) == (E_INVALIDARG, "DML_OPERATOR_DEPTH_TO_SPACE1: outputCount is 2, expected 1")
    huge = d.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                {"InputTensor": d.tensor((1, 1, 65536, 65536)), "OutputTensor": ffi.NULL, "BlockSize": 1})
    assert infer(huge) == [(1, 1, 65536, 65536)]
    huge = d.op(lib.DML_OPERATOR_SPACE_TO_DEPTH1, "DML_SPACE_TO_DEPTH1_OPERATOR_DESC",
                {"InputTensor": d.tensor((1, 2, 65536, 65536)), "OutputTensor": ffi.NULL, "BlockSize": 65536})
    assert infer(huge) == (E_INVALIDARG, "DML_OPERATOR_SPACE_TO_DEPTH1: OutputTensor.Sizes[1] would be 8589934592 "
                                         "(InputTensor.Sizes[1] 2 * BlockSize 65536 * BlockSize 65536), more than a "
                                         "tensor size can hold (4294967295)")


@pytest.mark.parametrize("shape", [(1, 8, 2, 3), (0, 8, 2, 3), (3, 0, 1, 1)])
def test_python_shapes_match_the_core(shape):
    x = np.zeros(shape, np.float32)
    assert dmlc.depth_to_space(x, 2).shape == (shape[0], shape[1] // 4, shape[2] * 2, shape[3] * 2)
