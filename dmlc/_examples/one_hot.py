"""Examples for DML_ONE_HOT: the page's four worked examples (the one-hot axis innermost,
Axis 2, on/off values 2 and 4, and negative and out-of-range indices).

Example 3's ValuesTensor has sizes {1,1,3,1} and three elements [4, 2, 9]: OffValue is element
0 and OnValue element 1 along the innermost dimension of size > 1 (dimension 2), so 2; the
third is unused.  dmlc.one_hot takes the (off, on) pair, so the run picks those two elements
as the page's rule does (the raw desc with the {1,1,3,1} tensor runs in
tests/test_one_hot_raw.py and tests/c/vectors.h).  Each run gives dmlc.one_hot the indices
without their size-1 Axis dimension, which the function inserts again."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_ONE_HOT_OPERATOR_DESC"


def _example(number, title, indices, values, axis, expected):
    def run(inputs):
        ix = np.squeeze(inputs["IndicesTensor"], axis)
        v = inputs["ValuesTensor"].reshape(-1)
        return {"OutputTensor": dmlc.one_hot(ix, np.shape(expected)[axis], axis=axis, values=(v[0], v[1]))}

    return Example(
        name=f"ONE_HOT example {number} ({title})",
        page=PAGE,
        params={"Axis": axis, "OutputTensor.Sizes": list(np.shape(expected))},
        inputs={"IndicesTensor": indices, "ValuesTensor": values},
        expected={"OutputTensor": np.array(expected, values.dtype)},
        run=run,
    )


_OFF_ON = np.array([[[[0, 1]]]], np.float32)

EXAMPLES = [
    # The one-hot encoding is formed across the rows.
    _example(1, "Axis 3", np.array([[[[0], [3], [2]]]], np.uint32), _OFF_ON, 3,
             [[[[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]]]),
    # Using a different axis: the encoding is formed across the columns.
    _example(2, "a different axis, Axis 2", np.array([[[[0, 2, 1, 0]]]], np.uint32), _OFF_ON, 2,
             [[[[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]]]]),
    # Values {1,1,3,1}: off 4, on 2 (element 1 along dimension 2), 9 unused.
    _example(3, "different on/off values: ValuesTensor {1,1,3,1} = [4, 2, 9], Off 4, On 2",
             np.array([[[[0], [3], [2]]]], np.uint32), np.array([[[[4], [2], [9]]]], np.float32), 3,
             [[[[2, 4, 4, 4], [4, 4, 4, 2], [4, 4, 2, 4]]]]),
    # -3 counts from the end (1); 100 is out of range: its whole row stays OffValue.
    _example(4, "negative and out-of-bounds indices", np.array([[[[-3], [100], [3]]]], np.int32), _OFF_ON, 3,
             [[[[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]]]),
]
