"""Examples for DML_ROI_POOLING, ROI_ALIGN and ROI_ALIGN1.  They are worked by hand from the rules of
docs/operators/roi_align1.rst and
docs/operators/roi_pooling.rst (Caffe's, as DirectML's page states it): corners times
SpatialScale rounded half away from zero, RH = max(y2 - y1 + 1, 1) rows and RW likewise,
bin (i, j) over rows [floor(i RH / PH), ceil((i + 1) RH / PH)) + y1 and columns likewise,
clipped to the input; its maximum, or 0 for an empty bin."""
import numpy as np

import dmlc
from dmlc._examples import Example

HAND = "worked by hand from the rule (Caffe's ROI pooling)"

# A 4x4 plane: 0 .. 15 row by row, and a second batch of its negatives.
GRID = np.stack([np.arange(16, dtype=np.float32).reshape(1, 4, 4), -np.arange(16, dtype=np.float32).reshape(1, 4, 4)])


def _pool(number, title, rois, pooled, scale, expected):
    rois = np.asarray(rois, np.float32)
    expected = np.asarray(expected, np.float32)

    def run(inputs):
        return {"OutputTensor": dmlc.roi_pool(inputs["InputTensor"], inputs["ROITensor"][0, 0], pooled, scale)}

    return Example(
        name=f"ROI_POOLING example {number} ({title})",
        page="DML_ROI_POOLING_OPERATOR_DESC",
        params={"SpatialScale": str(scale), "PooledSize": "{Width %d, Height %d}" % (pooled[1], pooled[0]),
                "OutputTensor.Sizes": "{" + ", ".join(map(str, expected.shape)) + "}", "Expected output": HAND},
        inputs={"InputTensor": GRID, "ROITensor": rois.reshape((1, 1) + rois.shape)},
        expected={"OutputTensor": expected},
        run=run,
    )


EXAMPLES = [
    # The whole plane in 2x2 bins: RH = RW = 4, bin rows [0, 2) and [2, 4): the maxima 5, 7, 13, 15.
    # Batch 1 (the negatives): each bin's largest is its first element, 0, -2, -8, -10.
    _pool(1, "2x2 bins over the whole plane, both batches", [[0, 0, 0, 3, 3], [1, 0, 0, 3, 3]], (2, 2), 1.0,
          [[[[5, 7], [13, 15]]], [[[0, -2], [-8, -10]]]]),
    # Corners 0.5 * (2, 2, 7, 5) round to (1, 1, 4, 3) (3.5 -> 4, 2.5 -> 3: half away from
    # zero); RW = 4 columns 1..4, RH = 3 rows 1..3.  1x2 bins: columns [1, 3) and [3, 5),
    # clipped to [3, 4); rows [1, 4): maxima 14 and 15.
    _pool(2, "SpatialScale 0.5, a region past the right edge", [[0, 2, 2, 7, 5]], (1, 2), 0.5, [[[[14, 15]]]]),
    # An inverted box (x2 < x1) is one pixel wide: RW = max(0 - 2 + 1, 1) = 1, column 2; rows
    # 0..1 in 2 bins of 1 row: elements (0, 2) = 2 and (1, 2) = 6.
    _pool(3, "an inverted box is one pixel wide", [[0, 2, 0, 0, 1]], (2, 1), 1.0, [[[[2], [6]]]]),
    # A region below the plane: rows 5..6 clip to nothing: every bin is empty, 0.
    _pool(4, "a region outside the input: empty bins give 0", [[0, 0, 5, 1, 6]], (1, 2), 1.0, [[[[0, 0]]]]),
]


# ROI_ALIGN and ROI_ALIGN1, on the plane 0 .. 15 (4x4).
PLANE = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)


def _align(name, page, title, rois, size, expected, **kw):
    rois = np.asarray(rois, np.float32)
    expected = np.asarray(expected, np.float32)
    params = {"ReductionFunction": "MAX" if kw.get("mode") == "max" else "AVERAGE",
              "InterpolationMode": "LINEAR", "SpatialScaleX, SpatialScaleY": "1, 1",
              "InputPixelOffset, OutputPixelOffset": "0.5, -0.5" if kw.get("aligned", True) else "0, -0.5",
              "OutOfBoundsInputValue": str(kw.get("out_of_bounds_value", 0.0)),
              "Minimum/MaximumSamplesPerOutput": f"{kw['sampling_ratio']}, {kw['sampling_ratio']}"
              if kw.get("sampling_ratio") else "1, 4294967295 (adaptive)",
              "OutputTensor.Sizes": "{" + ", ".join(map(str, expected.shape)) + "}", "Expected output": HAND}

    def run(inputs):
        return {"OutputTensor": dmlc.roi_align(inputs["InputTensor"], inputs["ROITensor"],
                                               inputs["BatchIndicesTensor"], size, **kw)}

    return Example(name=f"{name} ({title})", page=page, params=params,
                   inputs={"InputTensor": PLANE, "ROITensor": rois,
                           "BatchIndicesTensor": np.zeros(len(rois), np.uint32)},
                   expected={"OutputTensor": expected}, run=run)


EXAMPLES += [
    # Region [0, 0, 4, 4] to 2x2, adaptive: ceil(4 / 2) = 2 samples per output and axis, step
    # 4 / 4 = 1, sample j at (j + 0.5) - 0.5 = j: output (0, 0) averages elements (0..1, 0..1):
    # (0 + 1 + 4 + 5) / 4 = 2.5.
    _align("ROI_ALIGN example 1", "DML_ROI_ALIGN_OPERATOR_DESC", "average of 2x2 samples per output",
           [[0, 0, 4, 4]], 2, [[[[2.5, 4.5], [10.5, 12.5]]]]),
    # InputPixelOffset 0: one sample per output at (j + 0.5) * 1: 0.5 and 1.5 along each
    # axis, read bilinearly: (0 + 1 + 4 + 5) / 4 = 2.5, (1 + 2 + 5 + 6) / 4 = 3.5, ...
    _align("ROI_ALIGN1 example 1", "DML_ROI_ALIGN1_OPERATOR_DESC", "InputPixelOffset 0, one sample, MAX",
           [[0, 0, 2, 2]], 2, [[[[2.5, 3.5], [6.5, 7.5]]]], mode="max", sampling_ratio=1, aligned=False),
    # The sample of region [5, 0, 7, 1] sits at X = 0.5 * 2 + 5 = 6, beyond W = 4: the
    # OutOfBoundsInputValue.
    _align("ROI_ALIGN1 example 2", "DML_ROI_ALIGN1_OPERATOR_DESC", "a sample outside the input",
           [[5, 0, 7, 1]], 1, [[[[-1]]]], sampling_ratio=1, aligned=False, out_of_bounds_value=-1.0),
]
