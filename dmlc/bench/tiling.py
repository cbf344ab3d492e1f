"""Benchmark workloads: tile x2 on two axes against NumPy (np.tile), PyTorch (repeat), ONNX
Runtime (Tile) and copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner, threaded_copy_candidate
from dmlc.bench.element_wise_identity import _elem


def onnx_tile(dtype, in_shape, repeats):
    from onnx import helper, numpy_helper
    out_shape = [n * r for n, r in zip(in_shape, repeats)]
    node = helper.make_node("Tile", ["x", "repeats"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), in_shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), out_shape)],
                              initializer=[numpy_helper.from_array(np.array(repeats, np.int64), "repeats")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(dtype, shape, repeats, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    out = np.empty([n * r for n, r in zip(shape, repeats)], dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.tile(x, repeats))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.tile(x, repeats, out=out))),
        Candidate("numpy tile", lambda: (lambda: np.tile(x, repeats))),
        threaded_copy_candidate(out.nbytes),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        cands.append(Candidate("torch repeat", lambda: (lambda: tx.repeat(*repeats))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_tile(dtype, list(shape), repeats), {"x": x},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.tile(x, repeats), np.tile(x, repeats))

    label = f"{np.dtype(dtype).name} {tuple(shape)} x{tuple(repeats)}"
    return Workload("tile", label, x.nbytes + out.nbytes, out.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 56, 56) if quick else (8, 64, 112, 112)
    out = [_workload(np.float32, shape, [1, 1, 2, 2], torch, ort)]
    if not quick:
        out.append(_workload(np.float32, shape, [2, 2, 1, 1], torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 8, 8), [1, 1, 2, 2], torch, ort)]
