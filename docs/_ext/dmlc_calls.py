"""The four ways to call each DirectML operator dmlc implements, written out from one example
per operator: the Python function, the raw desc struct through cffi, a C program and a
DxDispatch JSON model.

Each operator page includes ``_generated/ops/<OPERATOR>.rst``, which this module writes.
Every snippet is checked when it is written or run by CI, so a page never shows a call that
does not give what it says:

- the Python example's output is what dmlc returns (and ``sphinx-build -b doctest`` runs it);
- the cffi example is a ``testcode`` block whose expected output is that same result;
- the JSON model is run here with ``python -m dmlc run`` and its printed values compared with
  that result before the page is written;
- the C program is written beside the page with the values it must print
  (``<OPERATOR>.c``, ``<OPERATOR>.expected``); ``tests/test_docs.py`` compiles and runs it.

The struct fields, their C types and their order are read from ``include/directml_py.h``.
"""
import json
import os
import re
import tempfile
import textwrap

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HEADER = os.path.join(ROOT, "include", "directml_py.h")


def _f32(expr):
    return f"np.array({expr}, np.float32)"


#: One example per operator type of src/schema.def: the input arrays (Python expressions, used
#: verbatim in the snippets), the Python call, and the desc's non-tensor fields.  Tensor
#: fields bind the arrays by name: inputs by their variable, outputs "y" (or y0, y1, ... for
#: several) in field order; "outputs", where given, is what those hold instead of the Python
#: call's result.
CASES = {
    "SPACE_TO_DEPTH": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)"},
        python="dmlc.space_to_depth(x, 2)",
        fields={"BlockSize": 2}),
    "DEPTH_TO_SPACE": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)"},
        python="dmlc.depth_to_space(x, 2)",
        fields={"BlockSize": 2}),
    "SPACE_TO_DEPTH1": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)"},
        python='dmlc.space_to_depth(x, 2, order="column_row_depth")',
        fields={"BlockSize": 2, "Order": "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"}),
    "DEPTH_TO_SPACE1": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)"},
        python='dmlc.depth_to_space(x, 2, order="column_row_depth")',
        fields={"BlockSize": 2, "Order": "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"}),
    "PADDING": dict(
        arrays={"x": _f32("[[1, 2, 3]]")},
        python='dmlc.pad(x, [0, 2], [0, 3], mode="reflection")',
        fields={"PaddingMode": "DML_PADDING_MODE_REFLECTION", "PaddingValue": 0.0, "DimensionCount": 2,
                "StartPadding": [0, 2], "EndPadding": [0, 3]}),
    "PADDING1": dict(
        arrays={"x": "np.array([[1, 2], [3, 4]], np.int64)"},
        python="dmlc.pad(x, 1, 1, value=2**53 + 1)",
        fields={"PaddingMode": "DML_PADDING_MODE_CONSTANT", "PaddingValueDataType": "DML_TENSOR_DATA_TYPE_INT64",
                "PaddingValue": ("Int64", 2**53 + 1), "DimensionCount": 2, "StartPadding": [1, 1], "EndPadding": [1, 1]}),
    "SPLIT": dict(
        arrays={"x": "np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)"},
        python="dmlc.split(x, [2, 1, 3], axis=2)",
        fields={"OutputCount": 3, "Axis": 2}),
    "JOIN": dict(
        arrays={"a": _f32("[[1, 2], [3, 4]]"), "b": _f32("[[5, 6]]")},
        python="dmlc.join([a, b], axis=0)",
        fields={"InputCount": 2, "Axis": 0}),
    "MAX_POOLING": dict(
        arrays={"x": _f32("[[[[1, 8, 2, 3], [5, 4, 9, 0], [7, 7, 6, 11], [7, 2, 6, 1]]]]")},
        python="dmlc.max_pool(x, 2)",
        fields={"DimensionCount": 2, "Strides": [2, 2], "WindowSize": [2, 2], "StartPadding": [0, 0],
                "EndPadding": [0, 0]}),
    "MAX_POOLING1": dict(
        arrays={"x": _f32("[[[1, -2, 3, 5]]]")},
        python="dmlc.max_pool(x, 2, strides=1, end_padding=1, return_indices=True)",
        fields={"DimensionCount": 1, "Strides": [1], "WindowSize": [2], "StartPadding": [0], "EndPadding": [1]}),
    "MAX_POOLING2": dict(
        arrays={"x": _f32("[[[4, 1, 0, 6, 2, 3, 9]]]")},
        python="dmlc.max_pool(x, 2, strides=2, dilations=3, start_padding=1, return_indices=True)",
        fields={"DimensionCount": 1, "Strides": [2], "WindowSize": [2], "StartPadding": [1], "EndPadding": [0],
                "Dilations": [3]}),
    "ELEMENT_WISE_IDENTITY": dict(
        arrays={"x": _f32("[[1, 2, 3], [4, 5, 6]]")},
        python="dmlc.identity(x, scale=2, bias=10)",
        fields={"ScaleBias": (2.0, 10.0)}),
    "SLICE": dict(
        arrays={"x": "np.arange(1, 26, dtype=np.float32).reshape(5, 5)"},
        python="dmlc.slice(x, [1, 1], [3, 3], [1, 2])",
        fields={"DimensionCount": 2, "Offsets": [1, 1], "Sizes": [3, 2], "Strides": [1, 2]}),
    "SLICE1": dict(
        arrays={"x": "np.arange(1, 17, dtype=np.float32).reshape(4, 4)"},
        python="dmlc.slice(x, [0, 1], [4, 3], [-2, 2])",
        fields={"DimensionCount": 2, "InputWindowOffsets": [0, 1], "InputWindowSizes": [4, 3],
                "InputWindowStrides": [-2, 2]}),
    "TILE": dict(
        arrays={"x": _f32("[[1, 2], [3, 4]]")},
        python="dmlc.tile(x, [2, 3])",
        fields={"RepeatsCount": 2, "Repeats": [2, 3]}),
    "MAX_UNPOOLING": dict(
        arrays={"v": _f32("[[[[8, 9], [7, 11]]]]"), "i": "np.array([[[[1, 6], [8, 11]]]], np.uint32)"},
        python="dmlc.max_unpool(v, i, (1, 1, 4, 4))",
        fields={}),
    "AVERAGE_POOLING": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)"},
        python="dmlc.avg_pool(x, 3, strides=2, start_padding=1, end_padding=1)",
        fields={"DimensionCount": 2, "Strides": [2, 2], "WindowSize": [3, 3], "StartPadding": [1, 1],
                "EndPadding": [1, 1], "IncludePadding": False}),
    "AVERAGE_POOLING1": dict(
        arrays={"x": _f32("[[[1, 2, 3, 4, 5, 6]]]")},
        python="dmlc.avg_pool(x, 2, strides=2, dilations=2, start_padding=1, include_padding=True)",
        fields={"DimensionCount": 1, "Strides": [2], "WindowSize": [2], "StartPadding": [1], "EndPadding": [0],
                "Dilations": [2], "IncludePadding": True}),
    "LP_POOLING": dict(
        arrays={"x": _f32("[[[[3, 4, 0, 12], [0, 0, 5, 0], [1, 2, 6, 0], [2, 4, 0, 8]]]]")},
        python="dmlc.lp_pool(x, 2, 2)",
        fields={"DimensionCount": 2, "Strides": [2, 2], "WindowSize": [2, 2], "StartPadding": [0, 0],
                "EndPadding": [0, 0], "P": 2}),
    "LP_POOLING1": dict(
        arrays={"x": _f32("[[[3, -1, -4, 0, 5, 0, 3]]]")},
        python="dmlc.lp_pool(x, 3, 3, strides=1, dilations=2)",
        fields={"DimensionCount": 1, "Strides": [1], "WindowSize": [3], "StartPadding": [0], "EndPadding": [0],
                "Dilations": [2], "P": 3}),
    "GATHER": dict(
        arrays={"x": _f32("[10, 20, 30, 40, 50]"), "i": "np.array([4, 0, -1, 7], np.int64)"},
        python="dmlc.gather(x, i, axis=0)",
        fields={"Axis": 0, "IndexDimensions": 1}),
    "GATHER_ELEMENTS": dict(
        arrays={"x": _f32("[[1, 2, 3], [4, 5, 6]]"), "i": "np.array([[2, -1], [0, 7]], np.int64)"},
        python="dmlc.gather_elements(x, i, axis=1)",
        fields={"Axis": 1}),
    "SCATTER_ELEMENTS": dict(
        arrays={"x": _f32("[0, 1, 2, 3, 4]"), "i": "np.array([3, 1, 3, -1, 9], np.int32)",
                "u": _f32("[5, 6, 7, 8, 9]")},
        python="dmlc.scatter_elements(x, i, u, axis=0)",
        fields={"Axis": 0}),
    "GATHER_ND": dict(
        arrays={"x": _f32("[[0, 1], [2, 3]]"), "i": "np.array([[1], [-2], [7]], np.int64)"},
        python="dmlc.gather_nd(x, i)",
        fields={"InputDimensionCount": 2, "IndicesDimensionCount": 2}),
    "GATHER_ND1": dict(
        arrays={"x": _f32("[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]"), "i": "np.array([[[1]], [[0]]], np.uint32)"},
        python="dmlc.gather_nd(x, i, batch_dims=1)",
        fields={"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1}),
    "SCATTER_ND": dict(
        arrays={"x": _f32("[[1, 2], [3, 4], [5, 6], [7, 8]]"), "i": "np.array([[3], [-1], [0], [9]], np.int32)",
                "u": _f32("[[10, 11], [12, 13], [14, 15], [16, 17]]")},
        python="dmlc.scatter_nd(x, i, u)",
        fields={"InputDimensionCount": 2, "IndicesDimensionCount": 2}),
    "ONE_HOT": dict(
        # IndicesTensor has a size-1 dimension at Axis, which dmlc.one_hot inserts itself.
        arrays={"i": "np.array([[2], [0], [-1], [5]], np.int64)", "v": _f32("[[-1, 0.5]]")},
        python="dmlc.one_hot(i[:, 0], 3, values=v)",
        fields={"Axis": 1}),
    "UPSAMPLE_2D": dict(
        arrays={"x": _f32("[[[[1, 2], [3, 4]]]]")},
        python='dmlc.upsample_2d(x, 2, mode="linear")',
        fields={"ScaleSize": {"Width": 2, "Height": 2}, "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR"}),
    "RESAMPLE": dict(
        arrays={"x": _f32("[[1, 2], [3, 4]]")},
        python='dmlc.resample(x, scales=[2, 2], nearest_rounding="round_prefer_ceil")',
        fields={"InterpolationMode": "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR", "ScaleCount": 2,
                "Scales": [2.0, 2.0]}),
    "RESAMPLE1": dict(
        arrays={"x": _f32("[0, 10, 20]")},
        python='dmlc.resample(x, scales=[2], mode="linear", coordinate_transformation="asymmetric")',
        fields={"InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR", "DimensionCount": 1, "Scales": [2.0],
                "InputPixelOffsets": [0.0], "OutputPixelOffsets": [0.0]}),
    "RESAMPLE2": dict(
        arrays={"x": _f32("[1, 2, 3, 4]")},
        python='dmlc.resample(x, size=[2], nearest_rounding="floor", coordinate_transformation="asymmetric")',
        fields={"InterpolationMode": "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                "RoundingDirection": "DML_AXIS_DIRECTION_DECREASING", "DimensionCount": 1,
                "Scales": [0.5], "InputPixelOffsets": [0.0], "OutputPixelOffsets": [0.0]}),
    "ROI_POOLING": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)",
                "rois": _f32("[[0, 0, 0, 3, 3], [0, 2, 1, 5, 3]]")},
        python="dmlc.roi_pool(x, rois, 2)",
        fields={"SpatialScale": 1.0, "PooledSize": {"Width": 2, "Height": 2}}),
    "ROI_ALIGN": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)", "rois": _f32("[[0, 0, 4, 4], [1, 1, 3, 2]]"),
                "b": "np.array([0, 0], np.uint64)"},
        python="dmlc.roi_align(x, rois, b, 2)",
        fields={"ReductionFunction": "DML_REDUCE_FUNCTION_AVERAGE", "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR",
                "SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "OutOfBoundsInputValue": 0.0,
                "MinimumSamplesPerOutput": 1, "MaximumSamplesPerOutput": 4294967295}),
    "ROI_ALIGN1": dict(
        arrays={"x": "np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)", "rois": _f32("[[0, 0, 2, 2], [5, 0, 7, 1]]"),
                "b": "np.array([0, 0], np.uint64)"},
        python='dmlc.roi_align(x, rois, b, 2, mode="max", sampling_ratio=1, aligned=False, out_of_bounds_value=-1.0)',
        fields={"ReductionFunction": "DML_REDUCE_FUNCTION_MAX", "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR",
                "SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "InputPixelOffset": 0.0, "OutputPixelOffset": -0.5,
                "OutOfBoundsInputValue": -1.0, "MinimumSamplesPerOutput": 1, "MaximumSamplesPerOutput": 1,
                "AlignRegionsToCorners": False}),
    "ARGMIN": dict(
        arrays={"x": _f32("[[4, 1, 3], [2, 6, 1]]")},
        python="dmlc.argmin(x, (0, 1), keepdims=True)",
        fields={"AxisCount": 2, "Axes": [0, 1], "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}),
    "ARGMAX": dict(
        arrays={"x": _f32("[[1, 5, 5], [7, 0, 7]]")},
        python="dmlc.argmax(x, 1, keepdims=True, select_last_index=True)",
        fields={"AxisCount": 1, "Axes": [1], "AxisDirection": "DML_AXIS_DIRECTION_DECREASING"}),
    "TOP_K": dict(
        arrays={"x": _f32("[[0, 1, 10, 11], [3, 2, 9, 8], [4, 5, 6, 7]]")},
        python='dmlc.top_k(x, 2, indices_dtype="uint32")',
        fields={"Axis": 1, "K": 2}),
    "TOP_K1": dict(
        arrays={"x": _f32("[[2, 7, 1, 7, 2]]")},
        python='dmlc.top_k(x, 3, largest=False, indices_dtype="uint32")',
        fields={"Axis": 1, "K": 3, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}),
    "CUMULATIVE_SUMMATION": dict(
        arrays={"x": _f32("[[2, 1, 3, 5], [3, 8, 7, 3]]")},
        python="dmlc.cumsum(x, 1, exclusive=True, reverse=True)",
        fields={"Axis": 1, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING", "HasExclusiveSum": True}),
    "CUMULATIVE_PRODUCT": dict(
        arrays={"x": _f32("[[2, 1, 3, 5], [3, 8, 7, 3]]")},
        python="dmlc.cumprod(x, 0)",
        fields={"Axis": 0, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveProduct": False}),
    "NONZERO_COORDINATES": dict(
        arrays={"x": _f32("[[0, 5, 0], [7, 0, -0.0]]")},
        python="dmlc.nonzero_coordinates(x)",
        # The desc's outputs: the count, and x.size rows of which those past the count are zero.
        outputs="(np.array([2]), np.array([[0, 1], [1, 0], [0, 0], [0, 0], [0, 0], [0, 0]]))",
        fields={}),
    "CAST": dict(
        arrays={"x": _f32("[1.9, -1.9, 300, -300]")},
        python="dmlc.cast(x, np.int8)",
        fields={}),
    "FILL_VALUE_CONSTANT": dict(
        arrays={},
        python='dmlc.fill_constant((2, 3), 2.5, "float32")',
        fields={"ValueDataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "Value": ("Float32", 2.5)}),
    "FILL_VALUE_SEQUENCE": dict(
        arrays={},
        python='dmlc.fill_sequence((2, 3), 10, -2, "int32")',
        fields={"ValueDataType": "DML_TENSOR_DATA_TYPE_INT32", "ValueStart": ("Int32", 10), "ValueDelta": ("Int32", -2)}),
    "DIAGONAL_MATRIX": dict(
        arrays={},
        python='dmlc.diagonal_matrix((3, 4), "float32", offset=1, value=2.5)',
        fields={"Offset": 1, "Value": 2.5}),
    "DIAGONAL_MATRIX1": dict(
        arrays={"x": "np.arange(1, 13, dtype=np.int32).reshape(3, 4)"},
        python="dmlc.diagonal_fill(x, None, 0)",
        fields={"ValueDataType": "DML_TENSOR_DATA_TYPE_INT32", "Value": ("Int32", 0),
                "DiagonalFillBegin": -2147483648, "DiagonalFillEnd": 0}),
    "REVERSE_SUBSEQUENCES": dict(
        arrays={"x": _f32("[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]"),
                "lengths": "np.array([[2], [4], [3]], np.uint32)"},
        python="dmlc.reverse_subsequences(x, lengths, axis=1)",
        fields={"Axis": 1}),
}

_C_TYPES = {"float32": "FLOAT", "float16": "UINT16", "float64": "DOUBLE", "int64": "INT64", "int32": "INT32",
            "uint32": "UINT32", "uint64": "UINT64", "int8": "INT8", "uint8": "UINT8", "int16": "INT16",
            "uint16": "UINT16"}


def struct_fields(op):
    """[(C type, field name)] of DML_<op>_OPERATOR_DESC, in the header's order."""
    text = open(HEADER).read()
    m = re.search(r"typedef struct DML_%s_OPERATOR_DESC \{(.*?)\}" % op, text, re.S)
    alias = re.search(r"typedef DML_(\w+)_OPERATOR_DESC DML_%s_OPERATOR_DESC;" % op, text)
    if m is None and alias:  # DML_SCATTER_ELEMENTS_OPERATOR_DESC is DML_SCATTER_OPERATOR_DESC
        return struct_fields(alias.group(1))
    if m is None:
        raise LookupError(f"DML_{op}_OPERATOR_DESC is not in {HEADER}")
    out = []
    for line in m.group(1).strip().splitlines():
        line = line.split("/*")[0].strip().rstrip(";")
        if line:
            ctype, name = line.rsplit(None, 1)
            if name.startswith("*"):
                ctype, name = ctype + "*", name[1:]
            out.append((ctype, name))
    return out


def implemented_operators():
    """The operator names of src/schema.def, in its order."""
    text = open(os.path.join(ROOT, "src", "schema.def")).read()
    return re.findall(r"^DMLC_SCHEMA\((\w+),", text, re.M)


def _is_tensor(ctype):
    return ctype.startswith("const DML_TENSOR_DESC")


class Example:
    """One operator's example, evaluated: the arrays, the Python result, the slots."""

    def __init__(self, op):
        import dmlc
        self.op, self.case = op, CASES[op]
        self.fields = struct_fields(op)
        env = {"np": np, "dmlc": dmlc}
        self.arrays = {k: eval(v, env) for k, v in self.case["arrays"].items()}
        env.update(self.arrays)
        # "outputs": what the desc's output tensors hold, where the Python function returns
        # something else (NONZERO_COORDINATES: DirectML's count and worst-case rows).
        result = eval(self.case.get("outputs", self.case["python"]), env)
        self.results = list(result) if isinstance(result, (list, tuple)) else [result]
        # Tensor slots in field order: (field, [array names]); outputs are the Output* fields.
        self.inputs, self.outputs = [], []
        names = iter(self.case["arrays"])
        out_names = iter(["y"] if len(self.results) == 1 else [f"y{k}" for k in range(len(self.results))])
        self.out_arrays = {}
        results = iter(self.results)
        for ctype, name in self.fields:
            if not _is_tensor(ctype):
                continue
            plural = name.endswith("Tensors")
            if name.startswith("Output"):
                count = len(self.results) if plural else 1
                if name == "OutputIndicesTensor" and len(self.results) < 2:
                    self.outputs.append((name, []))
                    continue
                slot = [next(out_names) for _ in range(count)]
                for s in slot:
                    self.out_arrays[s] = next(results)
                self.outputs.append((name, slot))
            else:
                count = len(self.arrays) if plural else 1
                self.inputs.append((name, [next(names) for _ in range(count)]))
        self.values = dict(self.case["fields"])

    def walk(self):
        """(C type, field, kind, value) of every desc field in order.  kind: "tensor" or
        "tensors" (value: the names of the arrays bound there), "absent" (an optional tensor
        left NULL), or "value" (value: the field's value in CASES)."""
        slots = dict(self.inputs + self.outputs)
        for ctype, name in self.fields:
            if not _is_tensor(ctype):
                yield ctype, name, "value", self.values[name]
            elif not slots[name]:
                yield ctype, name, "absent", None
            else:
                yield ctype, name, "tensors" if name.endswith("Tensors") else "tensor", slots[name]

    def bindings(self, bind, unbound):
        """The input and the output bindings, each one written by bind(array name); an
        absent optional output's slot is written unbound."""
        ins = [bind(s) for _, slot in self.inputs for s in slot]
        outs = []
        for _, slot in self.outputs:
            outs += [bind(s) for s in slot] or [unbound]
        return ins, outs

    # -- Python ---------------------------------------------------------------------------
    def python(self):
        lines = [">>> import numpy as np, dmlc"]
        lines += [f">>> {k} = {v}" for k, v in self.case["arrays"].items()]
        lines.append(f">>> {self.case['python']}")
        import dmlc  # noqa: F401  (the repr of the result, as the doctest will see it)
        env = {"np": np, "dmlc": __import__("dmlc"), **self.arrays}
        lines += [line or "<BLANKLINE>" for line in repr(eval(self.case["python"], env)).splitlines()]
        return "\n".join(lines)

    # -- cffi -----------------------------------------------------------------------------
    def cffi(self):
        def pyval(ctype, name, v):
            if v is None:
                return "ffi.NULL"
            if ctype == "const DML_SCALE_BIAS*":
                return f'new("DML_SCALE_BIAS*", {{"Scale": {v[0]}, "Bias": {v[1]}}})'
            if ctype == "DML_SCALAR_UNION":
                return f'{{"{v[0]}": {v[1]}}}'
            if isinstance(v, str):
                return f"lib.{v}"
            if isinstance(v, list):
                return f'new("{ctype.replace("const ", "").rstrip("*")}[]", {v})'
            if isinstance(v, bool):
                return str(int(v))
            return repr(v)

        code = [
            "import numpy as np",
            "from dmlc.ffi import ffi, lib",
            "",
            "keep = []  # cffi frees what nothing references: every struct and array lives here",
            "",
            "def new(ctype, init):",
            "    keep.append(ffi.new(ctype, init))",
            "    return keep[-1]",
            "",
            "def tensor(a):  # the DML_TENSOR_DESC of a packed array",
            '    buffer = new("DML_BUFFER_TENSOR_DESC*", {',
            '        "DataType": getattr(lib, "DML_TENSOR_DATA_TYPE_" + a.dtype.name.upper()),',
            '        "DimensionCount": a.ndim, "Sizes": new("UINT[]", a.shape),',
            '        "TotalTensorSizeInBytes": -(-a.nbytes // 4) * 4})  # DirectML rounds up to 4 bytes',
            '    return new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": buffer})',
            "",
            "def binding(a):",
            '    return {"Buffer": ffi.cast("void*", a.ctypes.data), "SizeInBytes": a.nbytes}',
            "",
        ]
        code += [f"{k} = {v}" for k, v in self.case["arrays"].items()]
        for k, a in self.out_arrays.items():
            code.append(f"{k} = np.zeros({a.shape}, np.{a.dtype.name})")
        items = []
        for ctype, name, kind, v in self.walk():
            if kind == "absent":
                items.append(f'"{name}": ffi.NULL')
            elif kind == "tensors":
                items.append(f'"{name}": new("DML_TENSOR_DESC[]", [{", ".join(f"tensor({s})[0]" for s in v)}])')
            elif kind == "tensor":
                items.append(f'"{name}": tensor({v[0]})')
            else:
                items.append(f'"{name}": {pyval(ctype, name, v)}')
        code.append(f'desc = new("DML_{self.op}_OPERATOR_DESC*", {{')
        code += [f"    {it}," for it in items]
        code.append("})")
        code.append(f'op = new("DML_OPERATOR_DESC*", {{"Type": lib.DML_OPERATOR_{self.op}, "Desc": desc}})')
        ins, outs = self.bindings(lambda s: f"binding({s})", '{"Buffer": ffi.NULL}')
        if ins:
            code.append(f'inputs = new("DMLC_BUFFER_BINDING[]", [{", ".join(ins)}])')
        code.append(f'outputs = new("DMLC_BUFFER_BINDING[]", [{", ".join(outs)}])')
        code.append("hr = lib.dmlcExecuteOperator(op, len(inputs), inputs, len(outputs), outputs)" if ins else
                    "hr = lib.dmlcExecuteOperator(op, 0, ffi.NULL, len(outputs), outputs)  # no inputs")
        code.append("assert hr == 0, ffi.string(lib.dmlcGetLastErrorMessage()).decode()")
        for k in self.out_arrays:
            code.append(f"print(repr({k}))")
        expected = "\n".join(repr(a) for a in self.out_arrays.values())
        return "\n".join(code), expected

    # -- C --------------------------------------------------------------------------------
    def c(self):
        decl, buffers = [], []
        all_arrays = list(self.arrays.items()) + list(self.out_arrays.items())
        for k, a in all_arrays:
            ct = _C_TYPES[a.dtype.name]
            if k in self.arrays:
                vals = ", ".join(_c_number(v) for v in a.ravel())
                decl.append(f"    {ct} {k}[{a.size}] = {{{vals}}};")
            else:
                decl.append(f"    {ct} {k}[{a.size}];")
        for k, a in all_arrays:
            dt = "DML_TENSOR_DATA_TYPE_" + a.dtype.name.upper()
            buffers.append(f"    UINT {k}Sizes[{a.ndim}] = {{{', '.join(map(str, a.shape))}}};")
            buffers.append(f"    DML_BUFFER_TENSOR_DESC {k}Buffer = {{{dt}, DML_TENSOR_FLAG_NONE, {a.ndim}, {k}Sizes, NULL, "
                           f"sizeof {k}, 0}};")
            buffers.append(f"    DML_TENSOR_DESC {k}Tensor = {{DML_TENSOR_TYPE_BUFFER, &{k}Buffer}};")
        init, extra = [], []
        for ctype, name, kind, v in self.walk():
            if kind == "tensors":
                arr = name[0].lower() + name[1:]
                extra.append(f"    DML_TENSOR_DESC {arr}[{len(v)}] = {{{', '.join(f'{s}Tensor' for s in v)}}};")
                init.append(f"        .{name} = {arr},")
            elif kind == "tensor":
                init.append(f"        .{name} = &{v[0]}Tensor,")
            elif kind == "absent" or v is None:
                init.append(f"        .{name} = NULL,")
            elif ctype == "const DML_SCALE_BIAS*":
                extra.append(f"    DML_SCALE_BIAS scaleBias = {{{_c_number(v[0])}, {_c_number(v[1])}}};")
                init.append(f"        .{name} = &scaleBias,")
            elif ctype == "DML_SCALAR_UNION":
                suffix = "LL" if v[0] == "Int64" else "ULL" if v[0] == "UInt64" else ""
                init.append(f"        .{name} = {{.{v[0]} = {v[1]}{suffix}}},")
            elif isinstance(v, dict):
                init.append(f"        .{name} = {{{', '.join(f'.{k} = {x}' for k, x in v.items())}}},")
            elif isinstance(v, list):
                arr = name[0].lower() + name[1:]
                base = ctype.replace("const ", "").rstrip("*")
                extra.append(f"    {base} {arr}[{len(v)}] = {{{', '.join(map(str, v))}}};")
                init.append(f"        .{name} = {arr},")
            elif isinstance(v, bool):
                init.append(f"        .{name} = {int(v)},")
            elif isinstance(v, str):
                init.append(f"        .{name} = {v},")
            else:
                init.append(f"        .{name} = {_c_number(v)},")
        ins, outs = self.bindings(lambda s: f"{{{s}, 0, sizeof {s}}}", "{NULL, 0, 0}")
        prints = []
        for k, a in self.out_arrays.items():
            fmt, cast = {"f": ("%g", "(double)"), "i": ("%lld", "(long long)"), "u": ("%llu", "(unsigned long long)")}[a.dtype.kind]
            prints.append(f'    for (size_t i = 0; i < {a.size}; ++i) printf("{fmt}%s", {cast}{k}[i], i + 1 < {a.size} ? " " : "\\n");')
        lines = ["#include <stdio.h>", "", '#include "directml_py.h"', "", "int main(void)", "{"]
        lines += decl + buffers + extra
        lines.append(f"    DML_{self.op}_OPERATOR_DESC desc = {{")
        lines += init
        lines.append("    };")
        lines.append(f"    DML_OPERATOR_DESC op = {{DML_OPERATOR_{self.op}, &desc}};")
        if ins:
            lines.append(f"    DMLC_BUFFER_BINDING inputs[{len(ins)}] = {{{', '.join(ins)}}};")
        lines.append(f"    DMLC_BUFFER_BINDING outputs[{len(outs)}] = {{{', '.join(outs)}}};")
        inputs = "inputs" if ins else "NULL"  # an operator without inputs (the fills)
        lines.append(f"    HRESULT hr = dmlcExecuteOperator(&op, {len(ins)}, {inputs}, {len(outs)}, outputs);")
        lines.append("    if (FAILED(hr)) {")
        lines.append('        fprintf(stderr, "%s\\n", dmlcGetLastErrorMessage());')
        lines.append("        return 1;")
        lines.append("    }")
        lines += prints
        lines += ["    return 0;", "}"]
        expected = "\n".join(" ".join(_c_number(v) if a.dtype.kind == "f" else str(int(v)) for v in a.ravel())
                             for a in self.out_arrays.values())
        return "\n".join(lines) + "\n", expected + "\n"

    # -- DxDispatch JSON ------------------------------------------------------------------
    def json_model(self):
        res, bindings, desc = {}, {}, {}
        for k, a in self.arrays.items():
            res[k] = {"initialValuesDataType": a.dtype.name.upper(), "initialValues": [_json_number(v) for v in a.ravel()]}
        for k, a in self.out_arrays.items():
            res[k] = {"initialValuesDataType": a.dtype.name.upper(), "initialValues": {"valueCount": int(a.size), "value": 0}}
        every = {**self.arrays, **self.out_arrays}
        for ctype, name, kind, v in self.walk():
            if kind in ("tensor", "tensors"):
                tds = [{"DataType": every[s].dtype.name.upper(), "Sizes": list(every[s].shape)} for s in v]
                desc[name] = tds if kind == "tensors" else tds[0]
                bindings[name] = v if kind == "tensors" else v[0]
            elif kind == "absent" or v is None:
                continue
            elif ctype == "const DML_SCALE_BIAS*":
                desc[name] = {"Scale": v[0], "Bias": v[1]}
            elif ctype == "DML_SCALAR_UNION":
                desc[name] = v[1]
            else:
                desc[name] = v
        model = {"resources": res,
                 "dispatchables": {"op": {"type": f"DML_OPERATOR_{self.op}", "desc": desc}},
                 "commands": [{"type": "dispatch", "dispatchable": "op", "bindings": bindings}]
                 + [{"type": "print", "resource": k} for k in self.out_arrays]}
        return _dump_json(model)

    def run_json(self, text):
        """Runs the model as ``dmlc run`` does; returns what it prints after checking the
        printed resources against the Python results."""
        import io

        from dmlc.model import Model
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "model.json")
            with open(path, "w") as f:
                f.write(text)
            out = io.StringIO()
            Model.load(path).run(out)
        printed = dict(re.findall(r"^Resource '(\w+)': (.*)$", out.getvalue(), re.M))
        for k, a in self.out_arrays.items():
            got = np.array([float(v) for v in printed[k].split(",")])
            if not np.array_equal(got, a.ravel().astype(np.float64)):
                raise AssertionError(f"{self.op}: dmlc run printed {k} = {got}, the Python API gives {a.ravel()}")
        # The dispatch line's time differs from run to run: the page shows the one of its build.
        return out.getvalue()


def _c_number(v):
    if isinstance(v, (float, np.floating)):
        return "%g" % v
    return str(int(v))


def _json_number(v):
    return float(v) if isinstance(v, np.floating) and not float(v).is_integer() else int(v)


def _dump_json(model, indent=""):
    """JSON as DxDispatch's samples lay it out: an object or array holding no object (tensor
    descs, sizes, values) on one line, the rest one member per line."""
    def flat(v):
        return not isinstance(v, dict) and not (isinstance(v, list) and any(isinstance(e, (dict, list)) for e in v))
    if isinstance(model, dict) and not all(flat(v) for v in model.values()) or \
            isinstance(model, list) and not all(flat(v) for v in model):
        inner = indent + "    "
        if isinstance(model, dict):
            items = [f"{inner}{json.dumps(k)}: {_dump_json(v, inner)}" for k, v in model.items()]
            return "{\n" + ",\n".join(items) + f"\n{indent}}}"
        return "[\n" + ",\n".join(inner + _dump_json(v, inner) for v in model) + f"\n{indent}]"
    return json.dumps(model, separators=(", ", ": "))


def page_fragment(op):
    """The reST of the 'Calling it' section of an operator page, and the C program with the
    values it prints."""
    ex = Example(op)
    code, expected = ex.cffi()
    model = ex.json_model()
    run_output = ex.run_json(model)
    c_source, c_expected = ex.c()
    rst = [
        "Python",
        "~~~~~~",
        "",
        ".. doctest::",
        "",
        textwrap.indent(ex.python(), "   "),
        "",
        "Raw struct through cffi (any language's FFI does the same)",
        "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
        "",
        ".. testcode::",
        "",
        textwrap.indent(code, "   "),
        "",
        ".. testoutput::",
        "",
        textwrap.indent(expected, "   "),
        "",
        "C",
        "~",
        "",
        "Compile with ``cc -std=c99 prog.c $(dmlc config --cflags --libs)``; it prints",
        "``" + c_expected.strip().replace("\n", " / ") + "``.",
        "",
        ".. code-block:: c",
        "",
        textwrap.indent(c_source, "   "),
        "",
        "DxDispatch JSON",
        "~~~~~~~~~~~~~~~",
        "",
        "Run with ``dmlc run model.json`` (or DirectML's own DxDispatch on a GPU):",
        "",
        ".. code-block:: json",
        "",
        textwrap.indent(model, "   "),
        "",
        ".. code-block:: console",
        "",
        "   $ dmlc run model.json",
        textwrap.indent(run_output.rstrip(), "   "),
        "",
    ]
    return "\n".join(rst), c_source, c_expected


def struct_block(op):
    """The desc struct as the header declares it, as a C code block."""
    fields = struct_fields(op)
    body = "\n".join(f"       {t} {n};" if not t.endswith("*") else f"       {t} {n};" for t, n in fields)
    return (f".. code-block:: c\n\n   typedef struct DML_{op}_OPERATOR_DESC {{\n{body}\n"
            f"   }} DML_{op}_OPERATOR_DESC;\n")


def generate(outdir):
    """Writes ops/<OP>.rst, ops/<OP>.struct.rst, ops/<OP>.c and ops/<OP>.expected for every
    operator of src/schema.def under outdir."""
    os.makedirs(os.path.join(outdir, "ops"), exist_ok=True)
    for op in implemented_operators():
        if op not in CASES:
            raise LookupError(f"DML_OPERATOR_{op} is in src/schema.def but has no example in docs/_ext/dmlc_calls.py")
        rst, c_source, c_expected = page_fragment(op)
        for suffix, text in ((".rst", rst), (".struct.rst", struct_block(op)), (".c", c_source),
                             (".expected", c_expected)):
            _write_if_changed(os.path.join(outdir, "ops", op + suffix), text)


def _write_if_changed(path, text):
    """Sphinx rebuilds pages whose includes changed: leave unchanged files untouched."""
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, "w") as f:
        f.write(text)
