"""Benchmark workloads: pad 2 on each side of H and W, every mode."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner

# dmlc mode -> np.pad mode, PyTorch F.pad mode, ONNX Pad mode (None: the library has none).
MODES = {
    "constant": ("constant", "constant", "constant"),
    "edge": ("edge", "replicate", "edge"),
    "reflection": ("reflect", "reflect", "reflect"),
    "symmetric": ("symmetric", None, None),
    "wrap": ("wrap", "circular", "wrap"),
}


def onnx_model(mode, dtype, in_shape, out_shape, pads):
    import onnx  # noqa: F401
    from onnx import TensorProto, helper, numpy_helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.uint8: TensorProto.UINT8}[dtype]
    inits = [numpy_helper.from_array(np.array(pads, np.int64), "pads")]
    inputs = ["x", "pads"]
    if mode == "constant":
        inits.append(numpy_helper.from_array(np.array(0, dtype), "value"))
        inputs.append("value")
    node = helper.make_node("Pad", inputs, ["y"], mode=mode)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)], initializer=inits)
    # Opset 19 is the first with mode="wrap".
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)]).SerializeToString()


def _workload(dtype, shape, p, mode, torch, ort):
    np_mode, torch_mode, ort_mode = MODES[mode]
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    nd = len(shape)
    start = [0] * (nd - 2) + [p, p]
    end = list(start)
    out_shape = tuple(s + 2 * q for s, q in zip(shape, start))
    out = np.empty(out_shape, dtype)
    widths = list(zip(start, end))
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.pad(x, start, end, mode=mode))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.pad(x, start, end, mode=mode, out=out))),
        Candidate("numpy", lambda: (lambda: np.pad(x, widths, mode=np_mode))),
    ]
    if torch is not None and torch_mode is not None:
        tx = torch.from_numpy(x)
        tpads = (p, p, p, p)
        F = torch.nn.functional
        cands.append(Candidate("torch", lambda: (lambda: F.pad(tx, tpads, mode=torch_mode))))
    if ort is not None and ort_mode is not None:
        pads = start + end
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(ort_mode, dtype, list(shape), list(out_shape), pads), {"x": x}, {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.pad(x, start, end, mode=mode), np.pad(x, widths, mode=np_mode))

    label = f"{np.dtype(dtype).name} {tuple(shape)} p{p} {mode}"
    return Workload("pad", label, x.nbytes + out.nbytes, out.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = [_workload(np.float32, shape, 2, mode, torch, ort) for mode in MODES]
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), 1, "constant", torch, ort)]
