"""Examples for DML_FILL_VALUE_CONSTANT and DML_FILL_VALUE_SEQUENCE: the pages' worked
examples (13.0 over a {1,1,2,4} FLOAT32 tensor; sequences 3, 5, 7 in FLOAT32 and 10, 8, 6, 4
in UINT8, whose ValueDelta -2 is the UINT8 0xFE taken modulo 256), then DxDispatch's sample
model dml_fill_value_sequence.json (3.2 + 1.5k over five FLOAT32 elements); DIAGONAL_MATRIX's
three (the identity, Offset 1, Offset -1 over a 3x2 output) and DIAGONAL_MATRIX1's first, whose
page prints Value 7 above an identity of ones: the desc's Value is what the rule writes, so the
output here carries 7s."""
import numpy as np

import dmlc
from dmlc._examples import Example

CONSTANT = "DML_FILL_VALUE_CONSTANT_OPERATOR_DESC"
SEQUENCE = "DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC"
DIAGONAL = "DML_DIAGONAL_MATRIX_OPERATOR_DESC"
DIAGONAL1 = "DML_DIAGONAL_MATRIX1_OPERATOR_DESC"

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
    Example(
        name="DIAGONAL_MATRIX example 1 (default identity matrix)",
        page=DIAGONAL,
        params={"Offset": 0, "Value": 1.0, "OutputTensor.Sizes": [1, 1, 3, 3], "DataType": "FLOAT32"},
        inputs={},
        expected={"OutputTensor": np.array([[[[1, 0, 0], [0, 1, 0], [0, 0, 1]]]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.diagonal_matrix((1, 1, 3, 3), np.float32)},
    ),
    Example(
        name="DIAGONAL_MATRIX example 2 (shift ones right/up)",
        page=DIAGONAL,
        params={"Offset": 1, "Value": 1.0, "OutputTensor.Sizes": [1, 1, 3, 3], "DataType": "FLOAT32"},
        inputs={},
        expected={"OutputTensor": np.array([[[[0, 1, 0], [0, 0, 1], [0, 0, 0]]]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.diagonal_matrix((1, 1, 3, 3), np.float32, offset=1)},
    ),
    Example(
        name="DIAGONAL_MATRIX example 3 (shift ones left/down)",
        page=DIAGONAL,
        params={"Offset": -1, "Value": 1.0, "OutputTensor.Sizes": [1, 1, 3, 2], "DataType": "FLOAT32"},
        inputs={},
        expected={"OutputTensor": np.array([[[[0, 0], [1, 0], [0, 1]]]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.diagonal_matrix((1, 1, 3, 2), np.float32, offset=-1)},
    ),
    Example(
        name="DIAGONAL_MATRIX1 example 1 (identity-like, Value 7; the page prints ones)",
        page=DIAGONAL1,
        params={"ValueDataType": "FLOAT32", "Value": 7, "DiagonalFillBegin": 0, "DiagonalFillEnd": 1,
                "OutputTensor.Sizes": [1, 1, 3, 3]},
        inputs={},
        expected={"OutputTensor": np.array([[[[7, 0, 0], [0, 7, 0], [0, 0, 7]]]], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.diagonal_matrix((1, 1, 3, 3), np.float32, value=7)},
    ),
]
