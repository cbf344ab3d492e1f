"""Benchmark workloads: GATHER as an embedding lookup (a (50000, 512) float32 table, (8, 1024)
int64 token ids) and along axis 1 of a (256, 4096) array, beside NumPy's take, PyTorch's
indexing and ONNX Runtime's Gather."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, memcpy_candidate, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, x_shape, i_shape, axis):
    """An ONNX Gather (opset 13) model with int64 indices."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    out_shape = list(x_shape[:axis]) + list(i_shape) + list(x_shape[axis + 1:])
    node = helper.make_node("Gather", ["x", "i"], ["y"], axis=axis)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(x_shape)),
                                            helper.make_tensor_value_info("i", 7, list(i_shape))],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(name, dtype, x_shape, i_shape, axis, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    i = rng.integers(0, x_shape[axis], i_shape, dtype=np.int64)
    y = np.empty(x_shape[:axis] + i_shape + x_shape[axis + 1:], dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.gather(x, i, axis))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.gather(x, i, axis, out=y))),
        Candidate("numpy", lambda: (lambda: np.take(x, i, axis))),
        Candidate("numpy out=", lambda: (lambda: np.take(x, i, axis, out=y))),
        memcpy_candidate(y.nbytes),
    ]
    if torch is not None:
        def make_torch():
            tx, ti = torch.from_numpy(x), torch.from_numpy(i)
            if axis == 0:
                return lambda: tx[ti]
            flat = ti.reshape(-1)
            return lambda: torch.index_select(tx, axis, flat)
        cands.append(Candidate("torch", make_torch))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_model(dtype, x_shape, i_shape, axis),
                                                                 {"x": x, "i": i}, {"y": y})))

    def check():
        np.testing.assert_array_equal(dmlc.gather(x, i, axis), np.take(x, i, axis))

    label = f"{np.dtype(dtype).name} {x_shape} indices {i_shape} axis {axis}"
    return Workload(name, label, y.nbytes * 2 + i.nbytes, y.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    table = (5000, 512) if quick else (50000, 512)
    return [
        _workload("gather_embedding", np.float32, table, (8, 1024), 0, torch, ort),
        _workload("gather_axis1", np.float32, (256, 4096), (1024,), 1, torch, ort),
    ]
