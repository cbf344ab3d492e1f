"""Examples for DML_FILL_VALUE_CONSTANT and DML_FILL_VALUE_SEQUENCE: the pages' worked
examples (13.0 over a {1,1,2,4} FLOAT32 tensor; sequences 3, 5, 7 in FLOAT32 and 10, 8, 6, 4
in UINT8, whose ValueDelta -2 is the UINT8 0xFE taken modulo 256), then DxDispatch's sample
model dml_fill_value_sequence.json (3.2 + 1.5k over five FLOAT32 elements)."""
import numpy as np

import dmlc
from dmlc._examples import Example

CONSTANT = "DML_FILL_VALUE_CONSTANT_OPERATOR_DESC"
SEQUENCE = "DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC"

EXAMPLES = [
    Example(
        name="FILL_VALUE_CONSTANT example 1",
        page=CONSTANT,
        params={"ValueDataType": "FLOAT32", "Value": 13.0, "OutputTensor.Sizes": [1, 1, 2, 4]},
        inputs={},
        expected={"OutputTensor": np.full((1, 1, 2, 4), 13.0, np.float32)},
        run=lambda i: {"OutputTensor": dmlc.fill_constant((1, 1, 2, 4), 13.0, np.float32)},
    ),
    Example(
        name="FILL_VALUE_SEQUENCE example 1 (1-d ascending step)",
        page=SEQUENCE,
        params={"ValueDataType": "FLOAT32", "ValueStart": 3, "ValueDelta": 2, "OutputTensor.Sizes": [1, 1, 1, 3]},
        inputs={},
        expected={"OutputTensor": np.array([[[[3, 5, 7]]]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.fill_sequence((1, 1, 1, 3), 3, 2, np.float32)},
    ),
    Example(
        name="FILL_VALUE_SEQUENCE example 2 (2-d, UINT8 counting down modulo 256)",
        page=SEQUENCE,
        params={"ValueDataType": "UINT8", "ValueStart": 10, "ValueDelta": "-2 (0xFE)", "OutputTensor.Sizes": [1, 1, 2, 2]},
        inputs={},
        expected={"OutputTensor": np.array([[[[10, 8], [6, 4]]]], np.uint8)},
        run=lambda i: {"OutputTensor": dmlc.fill_sequence((1, 1, 2, 2), 10, -2, np.uint8)},
    ),
    Example(
        name="FILL_VALUE_SEQUENCE example 3 (DxDispatch's sample model)",
        page=SEQUENCE,
        params={"ValueDataType": "FLOAT32", "ValueStart": 3.2, "ValueDelta": 1.5, "OutputTensor.Sizes": [1, 1, 1, 5]},
        inputs={},
        expected={"OutputTensor": (np.arange(5) * np.float64(np.float32(1.5)) + np.float64(np.float32(3.2)))
                  .astype(np.float32).reshape(1, 1, 1, 5)},
        run=lambda i: {"OutputTensor": dmlc.fill_sequence((1, 1, 1, 5), 3.2, 1.5, np.float32)},
    ),
]
