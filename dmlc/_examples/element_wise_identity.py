"""Examples for DML_ELEMENT_WISE_IDENTITY.  Its page has no worked example; it sends the
reader to "Using strides to express padding and memory layout", whose 2 x 3 tensor of the
letters A..F stored column-major (strides {1, 2}) is example 1 here: the identity with
those input strides and a packed output rewrites it row-major.  Example 2 is DxDispatch's
sample model dml_element_wise_identity.json (microsoft/DirectML, DxDispatch/models): a
ScaleBias of {2, 10} over 1, 2, 3."""
import numpy as np

import dmlc
from dmlc._examples import Example

PAGE = "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC"

# The letters as their UINT8 character codes: the buffer holds A D B E C F (column-major).
LETTERS = np.frombuffer(b"ADBECF", np.uint8).copy()
ROW_MAJOR = np.frombuffer(b"ABCDEF", np.uint8).reshape(2, 3).copy()


def _strided(buffer, sizes, strides):
    """The DML tensor {sizes, strides (elements)} over buffer, as a NumPy view."""
    return np.lib.stride_tricks.as_strided(buffer, sizes, [s * buffer.itemsize for s in strides], writeable=False)


EXAMPLES = [
    Example(
        name="ELEMENT_WISE_IDENTITY example 1 (column-major to row-major, from the page on strides)",
        page=PAGE,
        params={"InputTensor.Sizes": [2, 3], "InputTensor.Strides": [1, 2], "OutputTensor.Strides": "NULL (packed)",
                "ScaleBias": "NULL"},
        inputs={"InputTensor buffer (ASCII 'ADBECF')": LETTERS},
        expected={"OutputTensor (ASCII 'ABC', 'DEF')": ROW_MAJOR},
        run=lambda i: {"OutputTensor (ASCII 'ABC', 'DEF')":
                       dmlc.identity(_strided(i["InputTensor buffer (ASCII 'ADBECF')"], (2, 3), (1, 2)))},
    ),
    Example(
        name="ELEMENT_WISE_IDENTITY example 2 (ScaleBias, DxDispatch's sample model)",
        page=PAGE,
        params={"ScaleBias": {"Scale": 2, "Bias": 10}},
        inputs={"InputTensor": np.array([1, 2, 3], np.float32)},
        expected={"OutputTensor": np.array([12, 14, 16], np.float32)},
        run=lambda i: {"OutputTensor": dmlc.identity(i["InputTensor"], scale=2, bias=10)},
    ),
]
