"""Examples for DML_AVERAGE_POOLING and AVERAGE_POOLING1.  DirectML's pages give the
operators' rules but no worked example, so these are worked by hand from them and from
docs/operators/average_pooling1.rst: the output size (padded size - dilated window) / stride + 1 (or its ceil),
the sum of the window's elements inside the input divided by their count, or with
IncludePadding by the count of window positions inside the padded input; a window with
nothing to divide by gives NaN."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_AVERAGE_POOLING1_OPERATOR_DESC"
HAND = "worked by hand from the page's rules (the page has no worked example)"

# The 4x4 FLOAT32 input of MAX_POOLING2's examples.
GRID = np.array(
    [[[[1, 8, 2, 3],
       [5, 4, 9, 0],
       [7, 7, 6, 11],
       [7, 2, 6, 1]]]], dtype=np.float32)

RAMP = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)


def _example(number, title, x, window, strides, start, end, dilations, include, expected, ceil_mode=False):
    def run(inputs):
        return {"OutputTensor": dmlc.avg_pool(inputs["InputTensor"], window, strides=strides, start_padding=start,
                                              end_padding=end, dilations=dilations, include_padding=include,
                                              ceil_mode=ceil_mode)}

    def braces(v):
        return "{" + ", ".join(map(str, v)) + "}"

    expected = np.asarray(expected, x.dtype)
    return Example(
        name=f"AVERAGE_POOLING1 example {number} ({title})",
        page=PAGE,
        params={"WindowSize": braces(window), "Strides": braces(strides), "StartPadding": braces(start),
                "EndPadding": braces(end), "Dilations": braces(dilations), "IncludePadding": str(include).upper(),
                "OutputTensor.Sizes": braces((1, 1) + expected.shape), "Expected output": HAND},
        inputs={"InputTensor": x},
        expected={"OutputTensor": expected.reshape((1, 1) + expected.shape)},
        run=run,
    )


def _ninths(*sums):
    # Each value is one float32 division, as the operator computes it.
    return np.array(sums, np.float32) / np.float32(9)


EXAMPLES = [
    # (1 + 8 + 5 + 4) / 4, (2 + 3 + 9 + 0) / 4, (7 + 7 + 7 + 2) / 4, (6 + 11 + 6 + 1) / 4.
    _example(1, "2x2 window, stride 2", GRID, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], False, [[4.5, 3.5], [5.75, 6]]),
    # Output (0, 0) covers rows and columns -1..1: 0, 1, 4, 5 are inside, so (0+1+4+5) / 4.
    _example(2, "3x3 window, stride 2, padding 1; padding excluded", RAMP, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1],
             False, [[2.5, 4], [8.5, 10]]),
    # The same windows divided by 9, the positions inside the padded input: sums 10, 24, 51, 90.
    _example(3, "3x3 window, stride 2, padding 1; IncludePadding", RAMP, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], True,
             _ninths(10, 24, 51, 90).reshape(2, 2)),
    # Dilation 2: output (0, 0) reads rows 0 and 2, columns 0 and 2: (1 + 2 + 7 + 6) / 4.
    _example(4, "2x2 window, dilation 2, stride 1", GRID, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], False,
             [[4, 7.25], [6.75, 1.75]]),
    # 1-D, EndPadding 1: the last window covers column 2 (6) and a padded position:
    # 6 / 1 without IncludePadding, 6 / 2 with it.
    _example(5, "1-D, a window half in the end padding", np.array([[[4, 8, 6]]], np.float32), [2], [2], [0], [1], [1],
             False, [6, 6]),
    _example(6, "1-D, the same with IncludePadding", np.array([[[4, 8, 6]]], np.float32), [2], [2], [0], [1], [1],
             True, [6, 3]),
    # Window 1, stride 2, EndPadding 2: output 2 sits on position 4, padding: nothing inside
    # the input to divide by (NaN); with IncludePadding one position of the padded input, 0 / 1.
    _example(7, "1-D, a window of padding only", np.array([[[4, 8, 6]]], np.float32), [1], [2], [0], [2], [1],
             False, [4, 6, np.nan]),
    _example(8, "1-D, a window of padding only, IncludePadding", np.array([[[4, 8, 6]]], np.float32), [1], [2], [0],
             [2], [1], True, [4, 6, 0]),
    # Ceil mode: n 5, window 2, stride 2: ceil((5 - 2) / 2) + 1 = 3 outputs; the last window
    # starts at 4 and runs past the padded input (5): 5 / 1 with or without IncludePadding.
    _example(9, "ceil mode, a window past the input's end", np.array([[[1, 2, 3, 4, 5]]], np.float32), [2], [2], [0],
             [0], [1], True, [1.5, 3.5, 5], ceil_mode=True),
]
