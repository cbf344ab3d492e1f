"""Examples of the DML_SPACE_TO_DEPTH1 and DML_DEPTH_TO_SPACE1 pages."""
import numpy as np

import dmlc
from dmlc._examples import Example

# The depth tensor, {1, 8, 2, 3} UINT32, and its two space layouts, {1, 2, 4, 6}.
DEPTH = np.array(
    [[[[0, 1, 2], [3, 4, 5]],
      [[9, 10, 11], [12, 13, 14]],
      [[18, 19, 20], [21, 22, 23]],
      [[27, 28, 29], [30, 31, 32]],
      [[36, 37, 38], [39, 40, 41]],
      [[45, 46, 47], [48, 49, 50]],
      [[54, 55, 56], [57, 58, 59]],
      [[63, 64, 65], [66, 67, 68]]]], dtype=np.uint32)

SPACE_DCR = np.array(
    [[[[0, 18, 1, 19, 2, 20],
       [36, 54, 37, 55, 38, 56],
       [3, 21, 4, 22, 5, 23],
       [39, 57, 40, 58, 41, 59]],
      [[9, 27, 10, 28, 11, 29],
       [45, 63, 46, 64, 47, 65],
       [12, 30, 13, 31, 14, 32],
       [48, 66, 49, 67, 50, 68]]]], dtype=np.uint32)

SPACE_CRD = np.array(
    [[[[0, 9, 1, 10, 2, 11],
       [18, 27, 19, 28, 20, 29],
       [3, 12, 4, 13, 5, 14],
       [21, 30, 22, 31, 23, 32]],
      [[36, 45, 37, 46, 38, 47],
       [54, 63, 55, 64, 56, 65],
       [39, 48, 40, 49, 41, 50],
       [57, 66, 58, 67, 59, 68]]]], dtype=np.uint32)


def _example(op, number, order, space):
    to_space = op == "DEPTH_TO_SPACE1"
    fn = dmlc.depth_to_space if to_space else dmlc.space_to_depth
    src, dst = (DEPTH, space) if to_space else (space, DEPTH)
    return Example(
        name=f"{op} example {number} ({order})",
        page=f"DML_{op}_OPERATOR_DESC",
        params={"BlockSize": 2, "Order": f"DML_DEPTH_SPACE_ORDER_{order}"},
        inputs={"InputTensor": src},
        expected={"OutputTensor": dst},
        run=lambda i: {"OutputTensor": fn(i["InputTensor"], 2, order=order.lower())},
    )


EXAMPLES = [
    _example("SPACE_TO_DEPTH1", 1, "DEPTH_COLUMN_ROW", SPACE_DCR),
    _example("SPACE_TO_DEPTH1", 2, "COLUMN_ROW_DEPTH", SPACE_CRD),
    _example("DEPTH_TO_SPACE1", 1, "DEPTH_COLUMN_ROW", SPACE_DCR),
    _example("DEPTH_TO_SPACE1", 2, "COLUMN_ROW_DEPTH", SPACE_CRD),
]
