"""Examples of the DML_PADDING page: one 4x4 FLOAT32 input, StartPadding {0, 0, 1, 2} and
EndPadding {0, 0, 3, 4}, in each of the four documented modes."""
import numpy as np

import dmlc
from dmlc._examples import Example

INPUT = np.array(
    [[[[1, 2, 3, 4],
       [5, 6, 7, 8],
       [1, 2, 3, 4],
       [5, 6, 7, 8]]]], dtype=np.float32)

START = [0, 0, 1, 2]
END = [0, 0, 3, 4]

CONSTANT = np.array(
    [[[[9, 9, 9, 9, 9, 9, 9, 9, 9, 9],
       [9, 9, 1, 2, 3, 4, 9, 9, 9, 9],
       [9, 9, 5, 6, 7, 8, 9, 9, 9, 9],
       [9, 9, 1, 2, 3, 4, 9, 9, 9, 9],
       [9, 9, 5, 6, 7, 8, 9, 9, 9, 9],
       [9, 9, 9, 9, 9, 9, 9, 9, 9, 9],
       [9, 9, 9, 9, 9, 9, 9, 9, 9, 9],
       [9, 9, 9, 9, 9, 9, 9, 9, 9, 9]]]], dtype=np.float32)

EDGE = np.array(
    [[[[1, 1, 1, 2, 3, 4, 4, 4, 4, 4],
       [1, 1, 1, 2, 3, 4, 4, 4, 4, 4],
       [5, 5, 5, 6, 7, 8, 8, 8, 8, 8],
       [1, 1, 1, 2, 3, 4, 4, 4, 4, 4],
       [5, 5, 5, 6, 7, 8, 8, 8, 8, 8],
       [5, 5, 5, 6, 7, 8, 8, 8, 8, 8],
       [5, 5, 5, 6, 7, 8, 8, 8, 8, 8],
       [5, 5, 5, 6, 7, 8, 8, 8, 8, 8]]]], dtype=np.float32)

# Padding wider than the input's last rows folds back periodically (period 2(n-1) = 6).
REFLECTION = np.array(
    [[[[7, 6, 5, 6, 7, 8, 7, 6, 5, 6],
       [3, 2, 1, 2, 3, 4, 3, 2, 1, 2],
       [7, 6, 5, 6, 7, 8, 7, 6, 5, 6],
       [3, 2, 1, 2, 3, 4, 3, 2, 1, 2],
       [7, 6, 5, 6, 7, 8, 7, 6, 5, 6],
       [3, 2, 1, 2, 3, 4, 3, 2, 1, 2],
       [7, 6, 5, 6, 7, 8, 7, 6, 5, 6],
       [3, 2, 1, 2, 3, 4, 3, 2, 1, 2]]]], dtype=np.float32)

# The edge is mirrored too (period 2n = 8); DML_FEATURE_LEVEL_3_0.
SYMMETRIC = np.array(
    [[[[2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
       [2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
       [6, 5, 5, 6, 7, 8, 8, 7, 6, 5],
       [2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
       [6, 5, 5, 6, 7, 8, 8, 7, 6, 5],
       [6, 5, 5, 6, 7, 8, 8, 7, 6, 5],
       [2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
       [6, 5, 5, 6, 7, 8, 8, 7, 6, 5]]]], dtype=np.float32)


def _example(number, mode, expected, value=None):
    params = {"PaddingMode": f"DML_PADDING_MODE_{mode}"}
    if value is not None:
        params["PaddingValue"] = value
    params.update({"StartPadding": START, "EndPadding": END})
    kwargs = {"mode": mode.lower(), "value": 0 if value is None else value}
    return Example(
        name=f"PADDING example {number} ({mode})",
        page="DML_PADDING_OPERATOR_DESC",
        params=params,
        inputs={"InputTensor": INPUT},
        expected={"OutputTensor": expected},
        run=lambda i: {"OutputTensor": dmlc.pad(i["InputTensor"], START, END, **kwargs)},
    )


EXAMPLES = [
    _example(1, "CONSTANT", CONSTANT, value=9),
    _example(2, "EDGE", EDGE),
    _example(3, "REFLECTION", REFLECTION),
    _example(4, "SYMMETRIC", SYMMETRIC),
]
