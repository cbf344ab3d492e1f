"""Benchmark workloads: unpooling the values and indices of a 2x2 stride 2 max pooling,
float32 and float16."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, in_shape, out_shape, window, strides):
    """An ONNX MaxUnpool (opset 11) model; its indices (int64) count over the whole output
    tensor, as DirectML's do."""
    import onnx  # noqa: F401
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
            np.float64: TensorProto.DOUBLE}[np.dtype(dtype).type]
    node = helper.make_node("MaxUnpool", ["x", "i"], ["y"], kernel_shape=list(window), strides=list(strides))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape),
                                            helper.make_tensor_value_info("i", TensorProto.INT64, in_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]).SerializeToString()


def numpy_max_unpool(v, i, shape):
    """Unpooling in plain NumPy: zeros, then one fancy assignment through the flat indices."""
    out = np.zeros(shape, v.dtype)
    out.reshape(-1)[i.reshape(-1)] = v.reshape(-1)
    return out


def _workload(dtype, shape, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    v, i = dmlc.max_pool(x, 2, return_indices=True)  # uint32 indices over the whole tensor
    y = np.empty(shape, dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.max_unpool(v, i, shape))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.max_unpool(v, i, shape, out=y))),
        Candidate("numpy", lambda: (lambda: numpy_max_unpool(v, i, shape))),
    ]
    if torch is not None:
        F = torch.nn.functional

        def make_torch():
            tv, ti = F.max_pool2d(torch.from_numpy(x), 2, 2, return_indices=True)  # indices per (n, c) plane
            return lambda: F.max_unpool2d(tv, ti, 2, 2, output_size=shape[2:])
        cands.append(Candidate("torch", make_torch))
    if ort is not None:
        i64 = i.astype(np.int64)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(dtype, list(v.shape), list(shape), (2, 2), (2, 2)), {"x": v, "i": i64}, {"y": y})))

    def check():
        np.testing.assert_array_equal(dmlc.max_unpool(v, i, shape), numpy_max_unpool(v, i, shape))

    moved = v.nbytes + i.nbytes + y.nbytes
    label = f"{np.dtype(dtype).name} {tuple(v.shape)}->{tuple(shape)} 2x2/2"
    return Workload("max_unpool", label, moved, y.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = [_workload(np.float32, shape, torch, ort), _workload(np.float16, shape, torch, ort)]
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), torch, ort)]
