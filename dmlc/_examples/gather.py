"""Examples for DML_GATHER, transcribed from DirectML's page (its first three worked
examples).  The page's example 3 prints IndexDimensions 2 for indices of sizes {1, 2}, but
its own size rule needs 1 there: with 2, the gathered shape {3} ++ {1, 2} has a first entry
3 that would have to be 1, and the core refuses the desc (tests/test_gather_raw.py checks
that); the output printed is the IndexDimensions 1 result, which is what runs here."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_GATHER_OPERATOR_DESC"


def _example(number, title, axis, index_dimensions, x, indices, expected):
    def run(inputs):
        # dmlc.gather takes the indices' own shape; the page's leading 1s of IndicesTensor
        # (only its last IndexDimensions sizes count) are dropped first.
        ix = inputs["IndicesTensor"]
        return {"OutputTensor": dmlc.gather(inputs["InputTensor"], ix.reshape(ix.shape[ix.ndim - 1:]), axis)}

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
]
