"""Examples for DML_MAX_POOLING2.  DirectML's page gives the operator's rules but no worked
example, so these are worked by hand from those rules: the output size
(padded size - dilated window) / stride + 1, the maximum of the in-bounds elements with
ties keeping the first in window order, padded positions never taking part, and indices
that count through the whole input tensor."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_MAX_POOLING2_OPERATOR_DESC"
HAND = "worked by hand from the page's rules (the page has no worked example)"

# One 4x4 FLOAT32 input; (2, 0), (2, 1) and (3, 0) hold equal values.
GRID = np.array(
    [[[[1, 8, 2, 3],
       [5, 4, 9, 0],
       [7, 7, 6, 11],
       [7, 2, 6, 1]]]], dtype=np.float32)

# All negative: padding never counts as a value (as a zero it would win every border).
NEGATIVE = -np.arange(1, 26, dtype=np.int32).reshape(1, 1, 5, 5)


def _example(number, title, x, window, strides, start, end, dilations, values, indices):
    def run(inputs):
        v, i = dmlc.max_pool(inputs["InputTensor"], window, strides=strides, start_padding=start, end_padding=end,
                             dilations=dilations, return_indices=True)
        return {"OutputTensor": v, "OutputIndicesTensor": i}

    def braces(v):
        return "{" + ", ".join(map(str, v)) + "}"

    return Example(
        name=f"MAX_POOLING2 example {number} ({title})",
        page=PAGE,
        params={"WindowSize": braces(window), "Strides": braces(strides), "StartPadding": braces(start),
                "EndPadding": braces(end), "Dilations": braces(dilations),
                "OutputIndicesTensor": "UINT32", "Expected output": HAND},
        inputs={"InputTensor": x},
        expected={"OutputTensor": np.array(values, x.dtype).reshape((1, 1) + np.shape(values)),
                  "OutputIndicesTensor": np.array(indices, np.uint32).reshape((1, 1) + np.shape(indices))},
        run=run,
    )


EXAMPLES = [
    # Window (1, 0) holds 7, 7, 7, 2: the first 7, at row 2 column 0, flat index 8.
    _example(1, "2x2 window, stride 2; ties keep the first", GRID, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1],
             [[8, 9], [7, 11]], [[1, 6], [8, 11]]),
    # Output (oh, ow) covers rows 2oh-1 .. 2oh+1 and columns 2ow-1 .. 2ow+1 of the input;
    # the largest in-bounds value is its top-left in-bounds element.
    _example(2, "3x3 window, stride 2, padding 1; padding is not a value", NEGATIVE, [3, 3], [2, 2], [1, 1], [1, 1],
             [1, 1], [[-1, -2, -4], [-6, -7, -9], [-16, -17, -19]], [[0, 1, 3], [5, 6, 8], [15, 16, 18]]),
    # Dilation 2: window element t covers o + 2t, so output (1, 0) reads rows 1 and 3,
    # columns 0 and 2: 5, 9, 7, 6.
    _example(3, "2x2 window, dilation 2, stride 1", GRID, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2],
             [[7, 11], [9, 4]], [[8, 11], [6, 5]]),
    # 1-D, EndPadding 3: the last window covers columns 4 and 5, both padding: the lowest
    # value (-inf) and an index of all ones.
    _example(4, "1-D, a window of padding only", np.array([[[1, -2, 3]]], np.float32), [2], [2], [0], [3], [1],
             [1, 3, -np.inf], [0, 2, 0xFFFFFFFF]),
]
