"""Examples of the DML_SLICE and DML_SLICE1 pages: one 4x4 FLOAT32 input, 1..16, sliced with
positive strides, then (SLICE1) with a negative one, which walks the window from its end.
The SLICE examples run the SLICE operator itself, through a raw desc (dmlc.slice is
SLICE1)."""
import numpy as np

import dmlc
from dmlc._examples import Example

INPUT = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)


def run_slice(x, offsets, sizes, strides):
    """DML_OPERATOR_SLICE on a packed array, through dmlc.ffi: the output array."""
    from dmlc.ffi import ffi, last_error, lib
    out = np.empty(sizes, x.dtype)
    keep = []

    def uints(values):
        keep.append(ffi.new("UINT[]", list(values)))
        return keep[-1]

    def tensor(a):
        buf = ffi.new("DML_BUFFER_TENSOR_DESC*", {"DataType": lib.DML_TENSOR_DATA_TYPE_FLOAT32, "DimensionCount": a.ndim,
                                                  "Sizes": uints(a.shape), "TotalTensorSizeInBytes": a.nbytes})
        keep.append(buf)
        keep.append(ffi.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": buf}))
        return keep[-1]

    x = np.ascontiguousarray(x, np.float32)
    desc = ffi.new("DML_SLICE_OPERATOR_DESC*", {"InputTensor": tensor(x), "OutputTensor": tensor(out),
                                                "DimensionCount": x.ndim, "Offsets": uints(offsets),
                                                "Sizes": uints(sizes), "Strides": uints(strides)})
    op = ffi.new("DML_OPERATOR_DESC*", {"Type": lib.DML_OPERATOR_SLICE, "Desc": desc})
    bindings = [ffi.new("DMLC_BUFFER_BINDING*", {"Buffer": ffi.cast("void*", a.ctypes.data), "SizeInBytes": a.nbytes})
                for a in (x, out)]
    if lib.dmlcExecuteOperator(op, 1, bindings[0], 1, bindings[1]) != 0:
        raise ValueError(last_error())
    return out


def _slice(number, offsets, sizes, strides, expected):
    return Example(
        name=f"SLICE example {number}",
        page="DML_SLICE_OPERATOR_DESC",
        params={"Offsets": offsets, "Sizes": sizes, "Strides": strides},
        inputs={"InputTensor": INPUT},
        expected={"OutputTensor": np.array(expected, np.float32).reshape(1, 1, *np.shape(expected))},
        run=lambda i: {"OutputTensor": run_slice(i["InputTensor"], offsets, sizes, strides)},
    )


def _slice1(number, offsets, sizes, strides, expected):
    return Example(
        name=f"SLICE1 example {number}",
        page="DML_SLICE1_OPERATOR_DESC",
        params={"InputWindowOffsets": offsets, "InputWindowSizes": sizes, "InputWindowStrides": strides},
        inputs={"InputTensor": INPUT},
        expected={"OutputTensor": np.array(expected, np.float32).reshape(1, 1, *np.shape(expected))},
        run=lambda i: {"OutputTensor": dmlc.slice(i["InputTensor"], offsets, sizes, strides)},
    )


EXAMPLES = [
    _slice(1, [0, 0, 1, 2], [1, 1, 3, 2], [1, 1, 1, 1], [[7, 8], [11, 12], [15, 16]]),
    _slice(2, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 3], [[5, 8], [13, 16]]),
    _slice1(1, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, 2, 2], [[2, 4], [10, 12]]),
    _slice1(2, [0, 0, 0, 1], [1, 1, 4, 3], [1, 1, -2, 2], [[14, 16], [6, 8]]),
]
