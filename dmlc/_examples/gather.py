"""Examples for DML_GATHER, DML_GATHER_ELEMENTS and DML_SCATTER (SCATTER_ELEMENTS),
transcribed from DirectML's pages.  GATHER: the page's five worked examples.  The
page's example 3 prints IndexDimensions 2 for indices of sizes {1, 2}, but
its own size rule needs 1 there: with 2, the gathered shape {3} ++ {1, 2} has a first entry
3 that would have to be 1, and the core refuses the desc (tests/test_gather_raw.py checks
that); the output printed is the IndexDimensions 1 result, which is what runs here.
Examples 4 and 5 are headed "2D, Axis 1" and "2D, Axis 0" but their descs say Axis 2 and
Axis 1 over 3-D tensors; the descs, their pseudocode and their outputs agree, and they run
as printed (the gathered shape's leading 1 is dropped to keep three dimensions).
GATHER_ELEMENTS' example prints its OutputTensor's DataType as UINT32 over FLOAT32 data; the
output has the input's type, FLOAT32.  SCATTER's example 2 prints InputTensor Sizes {2,3}
above a 3x3 input (and a 3x3 output): the input is {3,3}.  Its example 1 sends two updates
to element 3: the later one (7) is what the page shows, and dmlc's rule.

GATHER_ND and GATHER_ND1: their pages' two examples each, then ONNX GatherND's in DirectML's
descs; SCATTER_ND: its page's example.  SCATTER_ND's page prints FLOAT32 indices (an index tensor is
INT32, INT64, UINT32 or UINT64: here UINT32) and tensors of 1, 2 and 1 dimensions where
every tensor of a desc has one DimensionCount: here Input {1,8}, Indices {4,1} and Updates
{1,4}; its title names SCATTER_ELEMENTS.  The pages' formula takes the sizes after a tuple
from Input's last dimensions; their examples (and ONNX) take the ones after the tuple's
axes, which is what runs here."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_GATHER_OPERATOR_DESC"


def _example(number, title, axis, index_dimensions, x, indices, expected):
    def run(inputs):
        # dmlc.gather takes the indices' own shape; the page's leading 1s of IndicesTensor
        # (only its last IndexDimensions sizes count) are dropped first, and the result is
        # given the page's OutputTensor sizes (the desc drops the gathered shape's leading 1s).
        ix = inputs["IndicesTensor"]
        k = index_dimensions if isinstance(index_dimensions, int) else 1
        y = dmlc.gather(inputs["InputTensor"], ix.reshape(ix.shape[ix.ndim - k:]), axis)
        return {"OutputTensor": y.reshape(np.shape(expected))}

    return Example(
        name=f"GATHER example {number} ({title})",
        page=PAGE,
        params={"Axis": axis, "IndexDimensions": index_dimensions},
        inputs={"InputTensor": x, "IndicesTensor": indices},
        expected={"OutputTensor": np.array(expected, x.dtype)},
        run=run,
    )


_X32 = np.array([[1, 2], [3, 4], [5, 6]], np.float32)

EXAMPLES = [
    # output[x] = input[indices[x]]
    _example(1, "1-D remapping", 0, 1, np.array([11, 12, 13, 14], np.float32), np.array([3, 1, 3, 0, 2], np.uint32),
             [14, 12, 14, 11, 13]),
    # output[y, x] = input[indices[y], x]: rows 0, 1, 1, 2
    _example(2, "2-D output, 1-D indices, Axis 0, rows concatenated", 0, 1, _X32,
             np.array([[0, 1, 1, 2]], np.uint32), [[1, 2], [3, 4], [3, 4], [5, 6]]),
    # output[y, x] = input[y, indices[x]]: columns swapped
    _example(3, "2-D, Axis 1, columns swapped; the page prints IndexDimensions 2, its size rule needs 1", 1,
             "2 on the page, 1 by its size rule", _X32, np.array([[1, 0]], np.uint32), [[2, 1], [4, 3], [6, 5]]),
    # output[z, y, x] = input[0, z, indices[y, x]]: columns 0 and 2 of every row
    _example(4, "3-D, Axis 2, nested indices; the page's heading says 2-D, Axis 1", 2, 2,
             np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3), np.array([[[0, 2]]], np.uint32),
             [[[1, 3]], [[4, 6]], [[7, 9]]]),
    # output[z, y, x] = input[0, indices[z, y], x]: rows 0, 1 then rows 1, 2
    _example(5, "3-D, Axis 1, nested indices; the page's heading says 2-D, Axis 0", 1, 2,
             _X32.reshape(1, 3, 2), np.array([[[0, 1], [1, 2]]], np.uint32),
             [[[1, 2], [3, 4]], [[3, 4], [5, 6]]]),
]


def _gather_elements_example():
    def run(inputs):
        return {"OutputTensor": dmlc.gather_elements(inputs["InputTensor"], inputs["IndicesTensor"], 0)}

    return Example(
        name="GATHER_ELEMENTS example (Axis 0: output[y, x] = input[indices[y, x], x]; the page prints the "
             "output DataType UINT32, it is FLOAT32)",
        page="DML_GATHER_ELEMENTS_OPERATOR_DESC",
        params={"Axis": 0},
        inputs={"InputTensor": np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32),
                "IndicesTensor": np.array([[1, 2, 0], [2, 0, 0]], np.uint32)},
        expected={"OutputTensor": np.array([[4, 8, 3], [7, 2, 3]], np.float32)},
        run=run,
    )


def _scatter_example(number, title, x, indices, updates, expected):
    def run(inputs):
        return {"OutputTensor": dmlc.scatter_elements(inputs["InputTensor"], inputs["IndicesTensor"],
                                                      inputs["UpdatesTensor"], 0)}

    return Example(
        name=f"SCATTER_ELEMENTS example {number} ({title})",
        page="DML_SCATTER_OPERATOR_DESC",
        params={"Axis": 0},
        inputs={"InputTensor": x, "IndicesTensor": indices, "UpdatesTensor": updates},
        expected={"OutputTensor": np.array(expected, np.float32)},
        run=run,
    )


EXAMPLES += [
    _gather_elements_example(),
    # output = input; output[indices[x]] = updates[x]: element 3 gets 5, then 7 (the later wins)
    _scatter_example(1, "1-D scatter, a duplicate index: the later update wins", np.arange(5, dtype=np.float32),
                     np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], np.float32), [8, 6, 2, 7, 4]),
    # output[indices[y, x], x] = updates[y, x]
    _scatter_example(2, "2-D scatter along Axis 0; the page prints InputTensor Sizes {2,3} over a 3x3 input",
                     np.zeros((3, 3), np.float32), np.array([[1, 0, 2], [0, 2, 1]], np.uint32),
                     np.array([[10, 11, 12], [20, 21, 22]], np.float32), [[20, 11, 0], [10, 0, 22], [0, 21, 12]]),
]


def _nd_example(opname, number, title, params, x, indices, expected, updates=None):
    """GATHER_ND(1) or SCATTER_ND example: x and indices (and updates) as the page's
    tensors, all of one DimensionCount; the Python call gets them without the leading ones
    the desc's dimension counts leave out."""
    r, q = params["InputDimensionCount"], params["IndicesDimensionCount"]

    def run(inputs):
        xs, ix = inputs["InputTensor"], inputs["IndicesTensor"]
        xs, ix = xs.reshape(xs.shape[xs.ndim - r:]), ix.reshape(ix.shape[ix.ndim - q:])
        if opname == "SCATTER_ND":
            upd = inputs["UpdatesTensor"]
            k = ix.shape[-1]
            upd = upd.reshape(ix.shape[:-1] + xs.shape[k:])
            return {"OutputTensor": dmlc.scatter_nd(xs, ix, upd).reshape(inputs["InputTensor"].shape)}
        res = dmlc.gather_nd(xs, ix, batch_dims=params.get("BatchDimensionCount", 0))
        return {"OutputTensor": res.reshape(np.shape(expected))}

    inputs = {"InputTensor": x, "IndicesTensor": indices}
    if updates is not None:
        inputs["UpdatesTensor"] = updates
    return Example(
        name=f"{opname} example {number} ({title})",
        page=f"DML_{opname}_OPERATOR_DESC",
        params=params,
        inputs=inputs,
        expected={"OutputTensor": np.array(expected, x.dtype)},
        run=run,
    )


_ND_X2 = np.array([[0, 1], [2, 3]], np.float32)
_ND_X3 = np.array([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], np.float32)
_ND2 = {"InputDimensionCount": 2, "IndicesDimensionCount": 2}
_ND3 = {"InputDimensionCount": 3, "IndicesDimensionCount": 3}

EXAMPLES += [
    # The page's example 1: output[y, x] = input[indices[y], x], rows 1 and 0
    _nd_example("GATHER_ND", 1, "1-D remapping", _ND2, _ND_X2, np.array([[1], [0]], np.uint32),
                [[2, 3], [0, 1]]),
    # The page's example 2: output[y, x] = input[indices[y, 0], indices[y, 1], x], in 4-D tensors
    _nd_example("GATHER_ND", 2, "2-D remapping", {"InputDimensionCount": 3, "IndicesDimensionCount": 2},
                _ND_X3.reshape(1, 2, 2, 2), np.array([[[[0, 1], [1, 0]]]], np.uint32), [[[[2, 3], [4, 5]]]]),
    # Two more, ONNX GatherND's: tuples naming elements, and indices with a leading axis
    _nd_example("GATHER_ND", "3, ONNX's", "tuples of two name elements", _ND2, _ND_X2,
                np.array([[0, 0], [1, 1]], np.uint32), [[0, 3]]),
    _nd_example("GATHER_ND", "4, ONNX's", "3-D input and indices, the result keeps indices' leading axes", _ND3,
                _ND_X3, np.array([[[0, 1]], [[1, 0]]], np.uint32), [[[2, 3]], [[4, 5]]]),
    # The page's example 1: GATHER_ND's example 1 with BatchDimensionCount 0
    _nd_example("GATHER_ND1", 1, "1-D remapping", dict(_ND2, BatchDimensionCount=0), _ND_X2,
                np.array([[1], [0]], np.uint32), [[2, 3], [0, 1]]),
    # The page's example 2: output[b, x] = input[b, indices[b, x, 0], indices[b, x, 1]], 3 batches
    _nd_example("GATHER_ND1", 2, "2-D remapping with batch count", dict(_ND3, BatchDimensionCount=1),
                np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2),
                np.array([[[[0, 0], [1, 1]], [[1, 1], [0, 0]], [[0, 1], [1, 0]]]], np.uint32),
                [[[[0, 3], [7, 4], [9, 10]]]]),
    # One more, ONNX GatherND's with batch_dims 1: output[b, :] = input[b, indices[b, 0], :]
    _nd_example("GATHER_ND1", "3, ONNX's", "BatchDimensionCount 1: each batch picks its own row",
                dict(_ND3, IndicesDimensionCount=2, BatchDimensionCount=1), _ND_X3,
                np.array([[[1], [0]]], np.uint32), [[[2, 3], [4, 5]]]),
    # output = input; output[indices[j, 0]] = updates[j]
    _nd_example("SCATTER_ND", 1, "1-D scatter; the page prints FLOAT32 indices and tensors of 1, 2 and 1 "
                "dimensions", {"InputDimensionCount": 1, "IndicesDimensionCount": 2},
                np.arange(1, 9, dtype=np.float32).reshape(1, 8), np.array([[4], [3], [1], [7]], np.uint32),
                [[1, 11, 3, 10, 9, 6, 7, 12]], updates=np.array([[9, 10, 11, 12]], np.float32)),
]
