"""Examples of the resampling pages.  The one worked example they give is on
DML_RESAMPLE_GRAD1's page: [[1, 2], [3, 4]] scaled by 0.5 x 1.5 to [1, 1, 2] with RESAMPLE2,
nearest, the ONNX-default offsets (InputPixelOffsets 1.0, OutputPixelOffsets -0.5: half_pixel
with round_prefer_floor) and RoundingDirection INCREASING.  The RESAMPLE, RESAMPLE1 and
UPSAMPLE_2D pages have none."""
import numpy as np

import dmlc
from dmlc._examples import Example

EXAMPLES = [
    Example(
        name="RESAMPLE2 example (from DML_RESAMPLE_GRAD1's page)",
        page="DML_RESAMPLE_GRAD1_OPERATOR_DESC",
        params={"InterpolationMode": "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                "RoundingDirection": "DML_AXIS_DIRECTION_INCREASING", "DimensionCount": 2,
                "Scales": [0.5, 1.5], "InputPixelOffsets": [1.0, 1.0], "OutputPixelOffsets": [-0.5, -0.5]},
        inputs={"InputTensor": np.array([[1, 2], [3, 4]], np.float32)},
        expected={"OutputTensor": np.array([[1, 1, 2]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.resample(i["InputTensor"], scales=[0.5, 1.5], size=[1, 3])},
    ),
]
