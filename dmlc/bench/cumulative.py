"""Benchmark workloads: cumsum and cumprod along the last axis of (64, 100000) (long
sequences, one per row) and along axis 0 of (1000, 4096) (many short sequences side by
side), against NumPy (``dtype=x.dtype``), PyTorch, ONNX Runtime's CumSum (ONNX has no
CumProd) and a memcpy of the input."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner
from dmlc.bench.element_wise_identity import _elem


def onnx_cumsum(dtype, shape, axis):
    from onnx import TensorProto, helper
    axis_init = helper.make_tensor("axis", TensorProto.INT64, [], [axis])
    node = helper.make_node("CumSum", ["x", "axis"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), shape)], [axis_init])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]).SerializeToString()


def _workload(name, dtype, shape, axis, torch, ort):
    rng = np.random.default_rng(0)
    # Products of values near 1 stay finite over long sequences.
    x = (rng.standard_normal(shape) * 0.01 + (1 if name == "cumprod" else 0)).astype(dtype)
    fn, npfn = (dmlc.cumsum, np.cumsum) if name == "cumsum" else (dmlc.cumprod, np.cumprod)
    out = np.empty_like(x)
    cands = [
        Candidate("dmlc", lambda: (lambda: fn(x, axis))),
        Candidate("dmlc out=", lambda: (lambda: fn(x, axis, out=out))),
        Candidate(f"numpy {name}", lambda: (lambda: npfn(x, axis, dtype=x.dtype))),
    ]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(np.empty_like(x))
        tfn = torch.cumsum if name == "cumsum" else torch.cumprod
        cands.append(Candidate(f"torch {name} out=", lambda: (lambda: tfn(tx, axis, out=tout))))
    if ort is not None and name == "cumsum":
        oout = np.empty_like(x)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_cumsum(dtype, list(shape), axis), {"x": x},
                                                                 {"y": oout})))

    def check():
        np.testing.assert_array_equal(fn(x, axis), npfn(x, axis, dtype=x.dtype))

    label = f"{np.dtype(dtype).name} {tuple(shape)} axis {axis}"
    return Workload(name, label, 2 * x.nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    rows = (8, 100000) if quick else (64, 100000)
    cols = (100, 4096) if quick else (1000, 4096)
    return [_workload(name, np.float32, shape, axis, torch, ort)
            for name in ("cumsum", "cumprod") for shape, axis in ((rows, 1), (cols, 0))]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload("cumsum", f32, (4, 16), 1, torch, ort)]
