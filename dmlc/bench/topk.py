"""Benchmark workloads: top_k with k=50 over the last axis of (64, 32000) (sampling a
language model's next token; random rows, then sorted ascending ones) and k=10 of one
10^6-element row, against torch.topk (sorted), ONNX Runtime's TopK and NumPy's
argpartition then a sort of the k, beside the runner's copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner
from dmlc.bench.element_wise_identity import _elem


def onnx_top_k(dtype, shape, k):
    from onnx import TensorProto, helper
    k_init = helper.make_tensor("k", TensorProto.INT64, [1], [k])
    out_shape = list(shape[:-1]) + [k]
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=-1, largest=1, sorted=1)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), shape)],
                              [helper.make_tensor_value_info("v", _elem(dtype), out_shape),
                               helper.make_tensor_value_info("i", TensorProto.INT64, out_shape)], [k_init])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]).SerializeToString()


def numpy_top_k(x, k):
    """The k greatest along the last axis, sorted: argpartition, then a sort of the k."""
    part = np.argpartition(x, -k, axis=-1)[..., -k:]
    vals = np.take_along_axis(x, part, -1)
    order = np.argsort(-vals, axis=-1, kind="stable")
    return np.take_along_axis(vals, order, -1), np.take_along_axis(part, order, -1)


def _workload(dtype, shape, k, torch, ort, ascending=False):
    """ascending: each row sorted ascending, the order that makes every element a new
    candidate for a scan that keeps the K best so far."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    if ascending:
        x = np.sort(x, axis=-1)
    out_shape = tuple(shape[:-1]) + (k,)
    out = (np.empty(out_shape, dtype), np.empty(out_shape, np.int64))
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.top_k(x, k))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.top_k(x, k, out=out))),
        Candidate("numpy argpartition+sort", lambda: (lambda: numpy_top_k(x, k))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        cands.append(Candidate("torch topk", lambda: (lambda: torch.topk(tx, k, sorted=True))))
    if ort is not None:
        ov, oi = np.empty(out_shape, dtype), np.empty(out_shape, np.int64)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_top_k(dtype, list(shape), k), {"x": x},
                                                                 {"v": ov, "i": oi})))

    def check():
        v, i = dmlc.top_k(x, k)
        nv, ni = numpy_top_k(x, k)
        np.testing.assert_array_equal(v, nv)
        np.testing.assert_array_equal(i, ni)  # random normal floats: no ties

    label = f"{np.dtype(dtype).name} {tuple(shape)} k {k}" + (" ascending" if ascending else "")
    return Workload("top_k", label, x.nbytes + out[0].nbytes + out[1].nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    rows = (8, 32000) if quick else (64, 32000)
    row = (100000,) if quick else (1000000,)
    return [_workload(np.float32, rows, 50, torch, ort),
            _workload(np.float32, rows, 50, torch, ort, ascending=True),
            _workload(np.float32, row, 10, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (4, 16), 4, torch, ort)]
