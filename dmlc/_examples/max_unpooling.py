"""Examples for DML_MAX_UNPOOLING.  DirectML's page gives the operator's rule but no worked
example, so these are worked by hand from it and from docs/operators/max_unpooling.rst: the output is zeros,
then out.flat[indices[i]] = input[i] for every input element in row-major order, where
out.flat counts through the whole output (batch and channel included); a later element
wins a duplicate index and an index past the output writes nothing."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_MAX_UNPOOLING_OPERATOR_DESC"
HAND = "worked by hand from the page's rule (the page has no worked example)"


def _example(number, title, x, indices, out_shape, expected):
    def run(inputs):
        return {"OutputTensor": dmlc.max_unpool(inputs["InputTensor"], inputs["IndicesTensor"], out_shape)}

    return Example(
        name=f"MAX_UNPOOLING example {number} ({title})",
        page=PAGE,
        params={"OutputTensor.Sizes": "{" + ", ".join(map(str, out_shape)) + "}",
                "IndicesTensor": indices.dtype.name.upper(), "Expected output": HAND},
        inputs={"InputTensor": x, "IndicesTensor": indices},
        expected={"OutputTensor": np.array(expected, x.dtype).reshape(out_shape)},
        run=run,
    )


EXAMPLES = [
    # MAX_POOLING2's example 1 (2x2 window, stride 2) found 8, 9, 7, 11 at flat indices 1, 6,
    # 8, 11 of a 4x4 plane: row 0 column 1, row 1 column 2, row 2 columns 0 and 3.
    _example(1, "the inverse of 2x2/2 max pooling", np.array([[[[8, 9], [7, 11]]]], np.float32),
             np.array([[[[1, 6], [8, 11]]]], np.uint32), (1, 1, 4, 4),
             [[0, 8, 0, 0],
              [0, 0, 9, 0],
              [7, 0, 0, 11],
              [0, 0, 0, 0]]),
    # Indices count through channels: plane 1 of {1, 2, 2, 2} starts at flat index 4, so 6 is
    # its row 1, column 0.
    _example(2, "indices count through the channels", np.array([[[[5]], [[-7]]]], np.int16),
             np.array([[[[3]], [[6]]]], np.uint64), (1, 2, 2, 2),
             [[[0, 0], [0, 5]],
              [[0, 0], [-7, 0]]]),
    # Elements 0 and 2 both go to index 2: element 2 is later and wins.  Element 3's index,
    # all ones (a max-pooling window of padding only), lies past the output: no write.
    _example(3, "a later element wins; an index past the output writes nothing",
             np.array([[[1, 2, 3, 4]]], np.float32), np.array([[[2, 0, 2, 0xFFFFFFFF]]], np.uint32), (1, 1, 4),
             [2, 0, 3, 0]),
]
