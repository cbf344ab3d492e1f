"""Examples of the DML_SPLIT_OPERATOR_DESC page, and the JOIN that inverts each of them
(the page: "this operator is the inverse of DML_JOIN_OPERATOR_DESC")."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_SPLIT_OPERATOR_DESC"

# InputTensor (Sizes {1, 1, 6, 2}, FLOAT32), shared by both examples.
INPUT = np.array([[[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]]]], dtype=np.float32)

# Example 1: OutputCount 3, Axis 2, output sizes {1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 3, 2}.
AXIS2 = [
    np.array([[[[1, 2], [3, 4]]]], dtype=np.float32),
    np.array([[[[5, 6]]]], dtype=np.float32),
    np.array([[[[7, 8], [9, 10], [11, 12]]]], dtype=np.float32),
]

# Example 2: OutputCount 2, Axis 3, output sizes {1, 1, 6, 1} each.
AXIS3 = [
    np.array([[[[1], [3], [5], [7], [9], [11]]]], dtype=np.float32),
    np.array([[[[2], [4], [6], [8], [10], [12]]]], dtype=np.float32),
]


def _sizes(parts, axis):
    return [p.shape[axis] for p in parts]


def _split_example(number, axis, parts):
    sizes = _sizes(parts, axis)
    return Example(
        name=f"SPLIT example {number} (Axis {axis})",
        page=PAGE,
        params={"OutputCount": len(parts), "Axis": axis,
                "OutputTensors": ", ".join(f"Sizes {{{', '.join(map(str, p.shape))}}}" for p in parts)},
        inputs={"InputTensor": INPUT},
        expected={f"OutputTensors[{i}]": p for i, p in enumerate(parts)},
        run=lambda i: {f"OutputTensors[{k}]": p for k, p in enumerate(dmlc.split(i["InputTensor"], sizes, axis))},
    )


def _join_example(number, axis, parts):
    return Example(
        name=f"JOIN, the inverse of SPLIT example {number} (Axis {axis})",
        page=PAGE,
        params={"InputCount": len(parts), "Axis": axis},
        inputs={f"InputTensors[{i}]": p for i, p in enumerate(parts)},
        expected={"OutputTensor": INPUT},
        run=lambda i: {"OutputTensor": dmlc.join([i[f"InputTensors[{k}]"] for k in range(len(parts))], axis)},
    )


EXAMPLES = [
    _split_example(1, 2, AXIS2),
    _split_example(2, 3, AXIS3),
    _join_example(1, 2, AXIS2),
    _join_example(2, 3, AXIS3),
]
