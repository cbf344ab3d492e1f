"""Examples of the DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT pages: one
{1, 1, 3, 4} FLOAT32 input scanned along its rows (Axis 3) inclusive, exclusive and in the
DECREASING direction, and along its columns (Axis 2).  (The CUMULATIVE_PRODUCT page calls
its InputTensor batch normalization's input: a copy-paste; it is the tensor scanned.)"""
import numpy as np

import dmlc
from dmlc._examples import Example

X = np.array([[[[2, 1, 3, 5], [3, 8, 7, 3], [9, 6, 2, 4]]]], np.float32)
INC, DEC = "DML_AXIS_DIRECTION_INCREASING", "DML_AXIS_DIRECTION_DECREASING"


def _example(op, number, axis, direction, exclusive, expected):
    fn, flag = (dmlc.cumsum, "HasExclusiveSum") if op == "CUMULATIVE_SUMMATION" else (dmlc.cumprod,
                                                                                     "HasExclusiveProduct")
    return Example(
        name=f"{op} example {number}",
        page=f"DML_{op}_OPERATOR_DESC",
        params={"Axis": axis, "AxisDirection": direction, flag: exclusive},
        inputs={"InputTensor": X},
        expected={"OutputTensor": np.array(expected, np.float32).reshape(X.shape)},
        run=lambda i: {"OutputTensor": fn(i["InputTensor"], axis, exclusive=exclusive, reverse=direction == DEC)},
    )


EXAMPLES = [
    _example("CUMULATIVE_SUMMATION", 1, 3, INC, False, [[2, 3, 6, 11], [3, 11, 18, 21], [9, 15, 17, 21]]),
    _example("CUMULATIVE_SUMMATION", 2, 3, INC, True, [[0, 2, 3, 6], [0, 3, 11, 18], [0, 9, 15, 17]]),
    _example("CUMULATIVE_SUMMATION", 3, 3, DEC, False, [[11, 9, 8, 5], [21, 18, 10, 3], [21, 12, 6, 4]]),
    _example("CUMULATIVE_SUMMATION", 4, 2, INC, False, [[2, 1, 3, 5], [5, 9, 10, 8], [14, 15, 12, 12]]),
    _example("CUMULATIVE_PRODUCT", 1, 3, INC, False, [[2, 2, 6, 30], [3, 24, 168, 504], [9, 54, 108, 432]]),
    _example("CUMULATIVE_PRODUCT", 2, 3, INC, True, [[1, 2, 2, 6], [1, 3, 24, 168], [1, 9, 54, 108]]),
    _example("CUMULATIVE_PRODUCT", 3, 3, DEC, False, [[30, 15, 15, 5], [504, 168, 21, 3], [432, 48, 8, 4]]),
    _example("CUMULATIVE_PRODUCT", 4, 2, INC, False, [[2, 1, 3, 5], [6, 8, 21, 15], [54, 48, 42, 60]]),
]
