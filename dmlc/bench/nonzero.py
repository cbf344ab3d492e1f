"""Benchmark workloads: nonzero_coordinates of a (8, 64, 224, 224) float32 mask at 10%
density (a segmentation's pixels) against np.argwhere, np.nonzero, torch.nonzero and ONNX
Runtime's NonZero (its output is the transpose, and its size depends on the data, so ONNX
Runtime allocates it), beside the runner's copies of the input."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_session
from dmlc.bench.element_wise_identity import _elem


def onnx_nonzero(dtype, shape):
    from onnx import TensorProto, helper
    node = helper.make_node("NonZero", ["x"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, [len(shape), None])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(dtype, shape, density, torch, ort):
    rng = np.random.default_rng(0)
    x = ((rng.random(shape, np.float32) < density) * rng.standard_normal(shape, np.float32)).astype(dtype)
    count = int(np.count_nonzero(x))
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.nonzero_coordinates(x))),
        Candidate("dmlc int32", lambda: (lambda: dmlc.nonzero_coordinates(x, indices_dtype="int32"))),
        Candidate("numpy argwhere", lambda: (lambda: np.argwhere(x))),
        Candidate("numpy nonzero", lambda: (lambda: np.nonzero(x))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        cands.append(Candidate("torch nonzero", lambda: (lambda: torch.nonzero(tx))))
    if ort is not None:
        def make_ort():
            sess = ort_session(onnx_nonzero(dtype, list(shape)))
            return lambda: sess.run(None, {"x": x})
        cands.append(Candidate("onnxruntime", make_ort))

    def check():
        np.testing.assert_array_equal(dmlc.nonzero_coordinates(x), np.argwhere(x))

    label = f"{np.dtype(dtype).name} {tuple(shape)} {density:.0%} non-zero"
    # Read the input, write the counted rows (the result the caller keeps).
    return Workload("nonzero_coordinates", label, x.nbytes + count * x.ndim * 8, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (1, 8, 56, 56) if quick else (8, 64, 224, 224)
    return [_workload(np.float32, shape, 0.1, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (4, 16), 0.5, torch, ort)]
