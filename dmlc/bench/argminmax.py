"""Benchmark workloads: argmax over the last axis of (64, 32000) (a language model's next
token) and over all of (8, 64, 224, 224), and argmin likewise, against NumPy, PyTorch, ONNX
Runtime (ArgMax/ArgMin, keepdims), beside the runner's copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner
from dmlc.bench.element_wise_identity import _elem


def onnx_arg(op, dtype, shape, axis):
    from onnx import TensorProto, helper
    out_shape = [1 if a == axis else n for a, n in enumerate(shape)]
    node = helper.make_node(op, ["x"], ["y"], axis=axis, keepdims=1)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(name, dtype, shape, axis, torch, ort):
    """axis None: the whole tensor (the flat index)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    fn, npfn = (dmlc.argmax, np.argmax) if name == "argmax" else (dmlc.argmin, np.argmin)
    out_shape = np.empty(shape, np.bool_).sum(axis=axis).shape if axis is not None else ()
    out = np.empty(out_shape, np.int64)
    cands = [
        Candidate("dmlc", lambda: (lambda: fn(x, axis))),
        Candidate("dmlc out=", lambda: (lambda: fn(x, axis, out=out))),
        Candidate(f"numpy {name}", lambda: (lambda: npfn(x, axis))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        tfn = torch.argmax if name == "argmax" else torch.argmin
        cands.append(Candidate(f"torch {name}", lambda: ((lambda: tfn(tx)) if axis is None else
                                                         (lambda: tfn(tx, axis)))))
    if ort is not None:
        # ONNX's ArgMax takes one axis: the whole tensor is the flat view's axis 0.
        flat = x.reshape(-1) if axis is None else x
        oshape = (1,) if axis is None else tuple(1 if a == axis else n for a, n in enumerate(shape))
        oout = np.empty(oshape, np.int64)
        op = "ArgMax" if name == "argmax" else "ArgMin"
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_arg(op, dtype, list(flat.shape),
                                                                          0 if axis is None else axis),
                                                                 {"x": flat}, {"y": oout})))

    def check():
        np.testing.assert_array_equal(fn(x, axis), npfn(x, axis))

    where = "all" if axis is None else f"axis {axis}"
    label = f"{np.dtype(dtype).name} {tuple(shape)} {where}"
    return Workload(name, label, x.nbytes + out.nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    rows = (8, 32000) if quick else (64, 32000)
    whole = (1, 8, 56, 56) if quick else (8, 64, 224, 224)
    return [_workload("argmax", np.float32, rows, 1, torch, ort),
            _workload("argmax", np.float32, whole, None, torch, ort),
            _workload("argmin", np.float32, rows, 1, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload("argmax", f32, (4, 16), 1, torch, ort)]
