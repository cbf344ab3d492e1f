"""Examples of the DML_TILE page: its worked example ({1, 1, 2, 3} FLOAT32 by {1, 1, 3, 3})
and the one in its description ([[1, 2], [3, 4]] by [1, 2])."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_TILE_OPERATOR_DESC"


def _example(number, x, repeats, expected):
    return Example(
        name=f"TILE example {number}",
        page=PAGE,
        params={"RepeatsCount": len(repeats), "Repeats": repeats},
        inputs={"InputTensor": x},
        expected={"OutputTensor": expected},
        run=lambda i: {"OutputTensor": dmlc.tile(i["InputTensor"], repeats)},
    )


EXAMPLES = [
    _example(1, np.array([[[[1, 2, 3], [4, 5, 6]]]], np.float32), [1, 1, 3, 3],
             np.array([[[[1, 2, 3, 1, 2, 3, 1, 2, 3],
                         [4, 5, 6, 4, 5, 6, 4, 5, 6],
                         [1, 2, 3, 1, 2, 3, 1, 2, 3],
                         [4, 5, 6, 4, 5, 6, 4, 5, 6],
                         [1, 2, 3, 1, 2, 3, 1, 2, 3],
                         [4, 5, 6, 4, 5, 6, 4, 5, 6]]]], np.float32)),
    _example(2, np.array([[1, 2], [3, 4]], np.float32), [1, 2],
             np.array([[1, 2, 1, 2], [3, 4, 3, 4]], np.float32)),
]
