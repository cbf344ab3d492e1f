"""Benchmark workloads: cast float32 <-> float16 and int64 -> int32 against NumPy's astype,
PyTorch's .to, ONNX Runtime's Cast and a one-thread memcpy of the larger array's bytes
(the target: within 1.5x of that copy)."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_cast(src, dst, shape):
    """An ONNX model y = Cast(x, to=dst)."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype
    node = helper.make_node("Cast", ["x"], ["y"], to=elem(np.dtype(dst)))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem(np.dtype(src)), shape)],
                              [helper.make_tensor_value_info("y", elem(np.dtype(dst)), shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(src, dst, shape, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 1000).astype(src)
    out = np.empty(shape, dst)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.cast(x, dst))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.cast(x, dst, out=out))),
        Candidate("numpy astype", lambda: (lambda: x.astype(dst))),
        Candidate("numpy copyto", lambda: (lambda: np.copyto(out, x, casting="unsafe"))),
    ]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        tdst = torch.from_numpy(np.empty(0, dst)).dtype
        cands.append(Candidate("torch .to", lambda: (lambda: tx.to(tdst))))
        cands.append(Candidate("torch copy_", lambda: (lambda: tout.copy_(tx))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_cast(src, dst, list(shape)), {"x": x},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.cast(x, dst), x.astype(dst))

    label = f"{np.dtype(src).name}->{np.dtype(dst).name} {tuple(shape)}"
    return Workload("cast", label, x.nbytes + out.nbytes, max(x.nbytes, out.nbytes), cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    return [_workload(np.float32, np.float16, shape, torch, ort),
            _workload(np.float16, np.float32, shape, torch, ort),
            _workload(np.int64, np.int32, shape, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, np.float16, (1, 8, 16, 16), torch, ort)]
