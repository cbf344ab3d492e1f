"""The example of the DML_NONZERO_COORDINATES_OPERATOR_DESC page: a {1, 1, 2, 4} FLOAT32
input with a -0.0 (zero) and four non-zero elements; OutputCoordinatesTensor {1, 1, 8, 3}
keeps the last three coordinates (one more than the input's effective rank 2: N may be
anything from the effective rank to the DimensionCount), one row per element, and its
rows past the count are zero (the page calls them undefined; its example, and dmlc, write
zeros)."""
import numpy as np

import dmlc
from dmlc._examples import Example

X = np.array([[[[1.0, 0.0, 0.0, 2.0], [-0.0, 3.5, 0.0, -5.2]]]], np.float32)


def _run(inputs):
    """dmlc.nonzero_coordinates gives the counted rows of every coordinate; DirectML's
    outputs are the count, and M = 8 rows of the last N = 3 coordinates, zero past it."""
    rows = dmlc.nonzero_coordinates(inputs["InputTensor"], indices_dtype="uint32")
    coords = np.zeros((1, 1, inputs["InputTensor"].size, 3), np.uint32)
    coords[0, 0, :len(rows)] = rows[:, -3:]
    return {"OutputCountTensor": np.array([[[[len(rows)]]]], np.uint32), "OutputCoordinatesTensor": coords}


EXAMPLES = [
    Example(
        name="NONZERO_COORDINATES example 1",
        page="DML_NONZERO_COORDINATES_OPERATOR_DESC",
        params={},
        inputs={"InputTensor": X},
        expected={"OutputCountTensor": np.array([[[[4]]]], np.uint32),
                  "OutputCoordinatesTensor": np.array([[[[0, 0, 0], [0, 0, 3], [0, 1, 1], [0, 1, 3],
                                                         [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]]],
                                                       np.uint32)},
        run=_run,
    ),
]
