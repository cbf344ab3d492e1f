"""Examples for DML_LP_POOLING and LP_POOLING1.  DirectML's pages give the operators' rules
but no worked example, so these are worked by hand from them and from
docs/operators/lp_pooling1.rst: the output size (padded size - dilated window) / stride + 1
(or its ceil), and per window (sum of |x|^P)^(1/P) over its elements inside the input, 0
for a window of padding only."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_LP_POOLING1_OPERATOR_DESC"
HAND = "worked by hand from the page's rules (the page has no worked example)"

# The 4x4 FLOAT32 input of MAX_POOLING2's examples.
GRID = np.array(
    [[[[1, 8, 2, 3],
       [5, 4, 9, 0],
       [7, 7, 6, 11],
       [7, 2, 6, 1]]]], dtype=np.float32)


def _example(number, title, x, window, strides, start, end, dilations, p, expected, ceil_mode=False):
    def run(inputs):
        return {"OutputTensor": dmlc.lp_pool(inputs["InputTensor"], window, p, strides=strides, start_padding=start,
                                             end_padding=end, dilations=dilations, ceil_mode=ceil_mode)}

    def braces(v):
        return "{" + ", ".join(map(str, v)) + "}"

    # The exact norms, rounded once to the input's type, as the operator computes them.
    expected = np.asarray(expected, np.float64).astype(x.dtype)
    return Example(
        name=f"LP_POOLING1 example {number} ({title})",
        page=PAGE,
        params={"WindowSize": braces(window), "Strides": braces(strides), "StartPadding": braces(start),
                "EndPadding": braces(end), "Dilations": braces(dilations), "P": str(p),
                "OutputTensor.Sizes": braces((1, 1) + expected.shape), "Expected output": HAND},
        inputs={"InputTensor": x},
        expected={"OutputTensor": expected.reshape((1, 1) + expected.shape)},
        run=run,
    )


EXAMPLES = [
    # sqrt(1 + 64 + 25 + 16), sqrt(4 + 9 + 81 + 0), sqrt(49 + 49 + 49 + 4), sqrt(36 + 121 + 36 + 1).
    _example(1, "P 2, 2x2 window, stride 2", GRID, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], 2,
             np.sqrt([[106.0, 94.0], [151.0, 194.0]])),
    # P 1 sums |x|: 1 + 8 + 5 + 4, 2 + 3 + 9 + 0, 7 + 7 + 7 + 2, 6 + 11 + 6 + 1.
    _example(2, "P 1, 2x2 window, stride 2", GRID, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], 1, [[18, 14], [23, 24]]),
    # Output (0, 0) covers rows and columns -1..1 of a 4x4 grid of -1: 2 x 2 elements inside,
    # |-1|^2 each, padding adds nothing: sqrt(4); then sqrt(6), sqrt(6), sqrt(9).
    _example(3, "P 2, 3x3 window, stride 2, padding 1", np.full((1, 1, 4, 4), -1, np.float32), [3, 3], [2, 2], [1, 1],
             [1, 1], [1, 1], 2, np.sqrt([[4.0, 6.0], [6.0, 9.0]])),
    # Dilation 2: output (0, 0) reads rows 0 and 2, columns 0 and 2: cbrt(1 + 8 + 343 + 216).
    _example(4, "P 3, 2x2 window, dilation 2, stride 1", GRID, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], 3,
             np.cbrt([[1.0 + 8 + 343 + 216, 512.0 + 27 + 343 + 1331], [125.0 + 729 + 343 + 216, 64.0 + 0 + 8 + 1]])),
    # Window 1, stride 2, EndPadding 2: output 2 sits on position 4, padding only: 0.
    _example(5, "1-D, a window of padding only", np.array([[[-4, 8, 6]]], np.float32), [1], [2], [0], [2], [1], 2,
             [4, 6, 0]),
    # Ceil mode: n 5, window 2, stride 2: ceil((5 - 2) / 2) + 1 = 3 outputs; the last window
    # starts at 4 and runs past the input: |5| alone.
    _example(6, "ceil mode, a window past the input's end", np.array([[[1, -2, 3, -4, 5]]], np.float32), [2], [2], [0],
             [0], [1], 1, [3, 7, 5], ceil_mode=True),
]
