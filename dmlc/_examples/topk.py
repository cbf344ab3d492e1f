"""Examples of the DML_TOP_K and DML_TOP_K1 pages: one {1, 1, 3, 4} FLOAT32 input, K 2 along
its rows (Axis 3) and its columns (Axis 2), UINT32 indices; TOP_K1 also least first
(INCREASING).  Ties, which the pages describe but do not show, in both directions: equal
values by ascending index."""
import numpy as np

import dmlc
from dmlc._examples import Example

X = np.array([[[[0, 1, 10, 11], [3, 2, 9, 8], [4, 5, 6, 7]]]], np.float32)
INC, DEC = "DML_AXIS_DIRECTION_INCREASING", "DML_AXIS_DIRECTION_DECREASING"


def _example(op, number, x, axis, k, direction, values, indices):
    params = {"Axis": axis, "K": k}
    if op == "TOP_K1":
        params["AxisDirection"] = direction
    return Example(
        name=f"{op} example {number}",
        page=f"DML_{op}_OPERATOR_DESC",
        params=params,
        inputs={"InputTensor": x},
        expected={"OutputValueTensor": np.array(values, x.dtype), "OutputIndexTensor": np.array(indices, np.uint32)},
        run=lambda i: dict(zip(("OutputValueTensor", "OutputIndexTensor"),
                               dmlc.top_k(i["InputTensor"], k, axis, largest=direction == DEC,
                                          indices_dtype="uint32"))),
    )


TIES = np.array([2, 7, 1, 7, 2], np.float32)
EXAMPLES = [
    _example("TOP_K", 1, X, 3, 2, DEC, [[[[11, 10], [9, 8], [7, 6]]]], [[[[3, 2], [2, 3], [3, 2]]]]),
    _example("TOP_K", 2, X, 2, 2, DEC, [[[[4, 5, 10, 11], [3, 2, 9, 8]]]], [[[[2, 2, 0, 0], [1, 1, 1, 1]]]]),
    _example("TOP_K1", 1, X, 3, 2, DEC, [[[[11, 10], [9, 8], [7, 6]]]], [[[[3, 2], [2, 3], [3, 2]]]]),
    _example("TOP_K1", 2, X, 2, 2, DEC, [[[[4, 5, 10, 11], [3, 2, 9, 8]]]], [[[[2, 2, 0, 0], [1, 1, 1, 1]]]]),
    _example("TOP_K1", 3, X, 3, 2, INC, [[[[0, 1], [2, 3], [4, 5]]]], [[[[0, 1], [1, 0], [0, 1]]]]),
    _example("TOP_K1", "ties, DECREASING", TIES, 0, 4, DEC, [7, 7, 2, 2], [1, 3, 0, 4]),
    _example("TOP_K1", "ties, INCREASING", TIES, 0, 4, INC, [1, 2, 2, 7], [2, 0, 4, 1]),
]
