"""Examples for DML_CAST.  Its page has no worked example (it states only that the sizes
match and which types each level takes; it also describes InputTensor as "the tensor to
write the results to", a slip for OutputTensor).  These show dmlc's conversion rules at
their edges: float to integer truncates, saturates and sends NaN to 0; integer to integer
keeps the low bits; a 64-bit integer rounds to float32 once, from its exact value."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_CAST_OPERATOR_DESC"

EXAMPLES = [
    Example(
        name="CAST example 1 (FLOAT32 to INT8: truncate, saturate, NaN to 0)",
        page=PAGE,
        params={"InputTensor.DataType": "FLOAT32", "OutputTensor.DataType": "INT8"},
        inputs={"InputTensor": np.array([-1.7, 2.5, np.nan, np.inf, -300.0, -0.0], np.float32)},
        expected={"OutputTensor": np.array([-1, 2, 0, 127, -128, 0], np.int8)},
        run=lambda i: {"OutputTensor": dmlc.cast(i["InputTensor"], np.int8)},
    ),
    Example(
        name="CAST example 2 (INT32 to INT8: the low bits, two's complement)",
        page=PAGE,
        params={"InputTensor.DataType": "INT32", "OutputTensor.DataType": "INT8"},
        inputs={"InputTensor": np.array([200, -129, 127], np.int32)},
        expected={"OutputTensor": np.array([-56, 127, 127], np.int8)},
        run=lambda i: {"OutputTensor": dmlc.cast(i["InputTensor"], np.int8)},
    ),
    Example(
        name="CAST example 3 (INT64 to FLOAT32: one rounding from the exact integer)",
        page=PAGE,
        params={"InputTensor.DataType": "INT64", "OutputTensor.DataType": "FLOAT32"},
        inputs={"InputTensor": np.array([2**53 + 2**29 + 1, 2**24 + 1, -(2**63)], np.int64)},
        expected={"OutputTensor": np.array([2.0**53 + 2.0**30, 2.0**24, -(2.0**63)], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.cast(i["InputTensor"], np.float32)},
    ),
    Example(
        name="CAST example 4 (FLOAT32 to FLOAT16: nearest even, overflow to infinity)",
        page=PAGE,
        params={"InputTensor.DataType": "FLOAT32", "OutputTensor.DataType": "FLOAT16"},
        inputs={"InputTensor": np.array([1.0 + 2.0**-11, 65520.0, 2.0**-25 * 1.5, -0.0], np.float32)},
        expected={"OutputTensor": np.array([1.0, np.inf, 2.0**-24, -0.0], np.float16)},
        run=lambda i: {"OutputTensor": dmlc.cast(i["InputTensor"], np.float16)},
    ),
]
