"""Examples of the DML_REVERSE_SUBSEQUENCES page: one {1, 1, 3, 4} FLOAT32 input, UINT32
lengths, reversed along its rows (Axis 3) and along its columns (Axis 2, where lengths 1 and 0
leave their columns as they are).  The page labels the lengths "SequenceTensor"; the desc's
field is SequenceLengthsTensor."""
import numpy as np

import dmlc
from dmlc._examples import Example

X = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)


def _example(number, lengths, axis, output):
    return Example(
        name=f"REVERSE_SUBSEQUENCES example {number}",
        page="DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC",
        params={"Axis": axis},
        inputs={"InputTensor": X, "SequenceLengthsTensor": np.array(lengths, np.uint32)},
        expected={"OutputTensor": np.array(output, np.float32)},
        run=lambda i: {"OutputTensor": dmlc.reverse_subsequences(i["InputTensor"], i["SequenceLengthsTensor"], axis)},
    )


EXAMPLES = [
    _example(1, [[[[2], [4], [3]]]], 3, [[[[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]]]]),
    _example("2 (along a different axis; lengths 1 and 0 copy)", [[[[2, 3, 1, 0]]]], 2,
             [[[[5, 10, 3, 4], [1, 6, 7, 8], [9, 2, 11, 12]]]]),
]
