"""Benchmark workloads: LP pooling, P 2 and P 1, 3x3 stride 2 pad 1 (issue 23's speed case on
(8, 64, 112, 112) float32) and 2x2 stride 2, float32 and float16.

PyTorch's F.lp_pool2d has no padding and sums x**p without |x|: for the padded rows its
candidate is the composition a PyTorch user writes for the same result,
``(F.avg_pool2d(|x|**p, k, s, pad, count_include_pad=True) * k*k) ** (1/p)``; for the rows
without padding it is F.lp_pool2d itself (on |x| for odd p)."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, in_shape, out_shape, window, strides, pads, p):
    """An ONNX LpPool (opset 18) model; pads are ONNX's [begin..., end...]."""
    import onnx  # noqa: F401
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
            np.float64: TensorProto.DOUBLE}[np.dtype(dtype).type]
    node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=list(window), strides=list(strides), pads=list(pads),
                            p=int(p))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]).SerializeToString()


def numpy_lp_pool(x, k, s, pad, p):
    """LP pooling in plain NumPy (square window, symmetric zero padding): window sums of
    |x|**p in float64, then the p-th root."""
    a = np.abs(x.astype(np.float64)) ** p
    a = np.pad(a, ((0, 0), (0, 0), (pad, pad), (pad, pad))) if pad else a
    sums = np.lib.stride_tricks.sliding_window_view(a, (k, k), axis=(2, 3))[:, :, ::s, ::s].sum(axis=(4, 5))
    return (sums ** (1.0 / p)).astype(x.dtype)


def _workload(dtype, shape, k, s, pad, p, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    n, c, h, w = shape
    oh, ow = (h + 2 * pad - k) // s + 1, (w + 2 * pad - k) // s + 1
    y = np.empty((n, c, oh, ow), dtype)
    kw = dict(strides=s, start_padding=pad, end_padding=pad)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.lp_pool(x, k, p, **kw))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.lp_pool(x, k, p, out=y, **kw))),
        Candidate("numpy", lambda: (lambda: numpy_lp_pool(x, k, s, pad, p))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        F = torch.nn.functional
        if pad:
            cands.append(Candidate("torch", lambda: (lambda: (F.avg_pool2d(tx.abs() ** p, k, s, pad, count_include_pad=True)
                                                              * (k * k)) ** (1.0 / p))))
        else:
            ta = tx if p % 2 == 0 else tx.abs()
            cands.append(Candidate("torch", lambda: (lambda: F.lp_pool2d(ta, p, k, s))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(dtype, list(shape), list(y.shape), (k, k), (s, s), (pad,) * 4, p), {"x": x}, {"y": y})))

    def check():
        got = dmlc.lp_pool(x, k, p, **kw)
        want = numpy_lp_pool(x, k, s, pad, p)
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)

    moved = x.nbytes + y.nbytes
    label = f"{np.dtype(dtype).name} {tuple(shape)} {k}x{k}/{s}" + (f" p{pad}" if pad else "") + f" P{p}"
    return Workload("lp_pool", label, moved, moved, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 112, 112)
    out = []
    for dtype in (np.float32, np.float16):
        for k, s, pad, p in [(3, 2, 1, 2), (2, 2, 0, 2), (3, 2, 1, 1)]:
            if dtype == np.float16 and p != 2:
                continue
            out.append(_workload(dtype, shape, k, s, pad, p, torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), 2, 2, 0, 2, torch, ort)]
