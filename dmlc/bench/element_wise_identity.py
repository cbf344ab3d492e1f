"""Benchmark workloads: identity as a transpose (NCHW <-> NHWC), as a plain copy, and with a
scale and bias, against NumPy, PyTorch, ONNX Runtime and copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import (Candidate, Workload, optional_ort, optional_torch, ort_runner, threaded_copy_candidate)

def _elem(dtype):
    """The ONNX TensorProto type of a NumPy dtype."""
    from onnx import helper
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def onnx_transpose(dtype, in_shape, perm):
    """An ONNX model y = Transpose(x, perm)."""
    from onnx import helper
    out_shape = [in_shape[p] for p in perm]
    node = helper.make_node("Transpose", ["x"], ["y"], perm=list(perm))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), in_shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def onnx_scale_bias(dtype, shape, scale, bias):
    """An ONNX model y = x * scale + bias (Mul then Add)."""
    from onnx import helper, numpy_helper
    inits = [numpy_helper.from_array(np.array(scale, dtype), "s"), numpy_helper.from_array(np.array(bias, dtype), "b")]
    nodes = [helper.make_node("Mul", ["x", "s"], ["t"]), helper.make_node("Add", ["t", "b"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", _elem(dtype), shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), shape)], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _transpose(dtype, shape, perm, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    view = x.transpose(perm)
    out = np.empty(view.shape, dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.identity(view))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.identity(view, out=out))),
        Candidate("numpy ascontig", lambda: (lambda: np.ascontiguousarray(view))),
        Candidate("numpy copyto", lambda: (lambda: np.copyto(out, view))),
        threaded_copy_candidate(x.nbytes),
    ]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        cands.append(Candidate("torch contiguous", lambda: (lambda: tx.permute(*perm).contiguous())))
        cands.append(Candidate("torch copy_", lambda: (lambda: tout.copy_(tx.permute(*perm)))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_transpose(dtype, list(shape), perm), {"x": x},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.identity(view), np.ascontiguousarray(view))

    label = f"{np.dtype(dtype).name} {tuple(shape)} perm{''.join(map(str, perm))}"
    return Workload("identity", label, 2 * x.nbytes, x.nbytes, cands, check)


def _scale_bias(dtype, shape, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    out = np.empty_like(x)
    s, b = 0.5, 3.0

    def numpy_call():
        np.multiply(x, dtype(s), out=out)
        return np.add(out, dtype(b), out=out)

    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.identity(x, scale=s, bias=b))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.identity(x, scale=s, bias=b, out=out))),
        Candidate("numpy out=", lambda: numpy_call),
        threaded_copy_candidate(x.nbytes),
    ]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        cands.append(Candidate("torch out=", lambda: (lambda: torch.mul(tx, s, out=tout).add_(b))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_scale_bias(dtype, list(shape), s, b), {"x": x},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.identity(x, scale=s, bias=b), x * dtype(s) + dtype(b))

    return Workload("identity", f"{np.dtype(dtype).name} {tuple(shape)} scale+bias", 2 * x.nbytes, x.nbytes, cands,
                    check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = [_transpose(np.float32, shape, (0, 2, 3, 1), torch, ort)]
    if not quick:
        nhwc = (shape[0], shape[2], shape[3], shape[1])
        out.append(_transpose(np.float32, nhwc, (0, 3, 1, 2), torch, ort))
        out.append(_transpose(np.uint8, shape, (0, 2, 3, 1), torch, ort))
        out.append(_scale_bias(np.float32, shape, torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_transpose(f32, (1, 8, 16, 16), (0, 2, 3, 1), torch, ort)]
