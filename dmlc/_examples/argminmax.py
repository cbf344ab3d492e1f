"""Examples of the DML_ARGMIN and DML_ARGMAX pages: one {3, 3} FLOAT32 input reduced over
its columns (Axes {0}), its rows (Axes {1}) and both (Axes {0, 1}: the flat index), with
UINT32 outputs; and each page's tie example ({3,2,1,2,3} / {1,2,3,2,1}) in both directions.
(The ARGMAX page's third example says "argmin" in its comment; its value is argmax's.)"""
import numpy as np

import dmlc
from dmlc._examples import Example

X = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], np.float32)


def _example(op, number, x, axes, direction, expected):
    fn = dmlc.argmax if op == "ARGMAX" else dmlc.argmin
    last = direction == "DML_AXIS_DIRECTION_DECREASING"
    return Example(
        name=f"{op} example {number}",
        page=f"DML_{op}_OPERATOR_DESC",
        params={"AxisCount": len(axes), "Axes": list(axes), "AxisDirection": direction},
        inputs={"InputTensor": x},
        expected={"OutputTensor": np.array(expected, np.uint32)},
        run=lambda i: {"OutputTensor": fn(i["InputTensor"], tuple(axes), keepdims=True, select_last_index=last,
                                          indices_dtype="uint32")},
    )


INC, DEC = "DML_AXIS_DIRECTION_INCREASING", "DML_AXIS_DIRECTION_DECREASING"
EXAMPLES = [
    _example("ARGMAX", 1, X, [0], INC, [[1, 2, 1]]),
    _example("ARGMAX", 2, X, [1], INC, [[2], [2], [1]]),
    _example("ARGMAX", 3, X, [0, 1], INC, [[7]]),
    _example("ARGMAX", "ties, INCREASING", np.array([3, 2, 1, 2, 3], np.float32), [0], INC, [0]),
    _example("ARGMAX", "ties, DECREASING", np.array([3, 2, 1, 2, 3], np.float32), [0], DEC, [4]),
    _example("ARGMIN", 1, X, [0], INC, [[0, 1, 2]]),
    _example("ARGMIN", 2, X, [1], INC, [[0], [1], [0]]),
    _example("ARGMIN", 3, X, [0, 1], INC, [[4]]),
    _example("ARGMIN", "ties, INCREASING", np.array([1, 2, 3, 2, 1], np.float32), [0], INC, [0]),
    _example("ARGMIN", "ties, DECREASING", np.array([1, 2, 3, 2, 1], np.float32), [0], DEC, [4]),
]
