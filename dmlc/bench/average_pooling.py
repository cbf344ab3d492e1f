"""Benchmark workloads: 2x2 stride 2 and 3x3 stride 2 pad 1 average pooling, float32 and
float16, padding excluded from the divisor (PyTorch's count_include_pad=False)."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, in_shape, out_shape, window, strides, pads, dilations=None, ceil_mode=False,
               count_include_pad=False):
    """An ONNX AveragePool (opset 19, the first with dilations) model; pads are ONNX's
    [begin..., end...]."""
    import onnx  # noqa: F401
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
            np.float64: TensorProto.DOUBLE}[np.dtype(dtype).type]
    attrs = dict(kernel_shape=list(window), strides=list(strides), pads=list(pads), ceil_mode=int(ceil_mode),
                 count_include_pad=int(count_include_pad))
    if dilations is not None:
        attrs["dilations"] = list(dilations)
    node = helper.make_node("AveragePool", ["x"], ["y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)]).SerializeToString()


def numpy_avg_pool(x, k, s, p):
    """Average pooling in plain NumPy (square window, symmetric padding excluded from the
    divisor): window sums of the zero-padded input over window counts of ones."""
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p))) if p else x
    sums = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s].sum(axis=(4, 5),
                                                                                                   dtype=np.float32)
    ones = np.pad(np.ones(x.shape[2:], np.float32), p) if p else np.ones(x.shape[2:], np.float32)
    counts = np.lib.stride_tricks.sliding_window_view(ones, (k, k))[::s, ::s].sum(axis=(2, 3))
    return (sums / counts).astype(x.dtype)


def _workload(dtype, shape, k, s, p, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    n, c, h, w = shape
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    y = np.empty((n, c, oh, ow), dtype)
    kw = dict(strides=s, start_padding=p, end_padding=p)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.avg_pool(x, k, **kw))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.avg_pool(x, k, out=y, **kw))),
        Candidate("numpy", lambda: (lambda: numpy_avg_pool(x, k, s, p))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        F = torch.nn.functional
        cands.append(Candidate("torch", lambda: (lambda: F.avg_pool2d(tx, k, s, p, count_include_pad=False))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(dtype, list(shape), list(y.shape), (k, k), (s, s), (p, p, p, p)), {"x": x}, {"y": y})))

    def check():
        got = dmlc.avg_pool(x, k, **kw)
        want = numpy_avg_pool(x, k, s, p)
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)

    moved = x.nbytes + y.nbytes
    label = f"{np.dtype(dtype).name} {tuple(shape)} {k}x{k}/{s}" + (f" p{p}" if p else "")
    return Workload("avg_pool", label, moved, moved, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = []
    for dtype in (np.float32, np.float16):
        for k, s, p in [(2, 2, 0), (3, 2, 1)]:
            out.append(_workload(dtype, shape, k, s, p, torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), 2, 2, 0, torch, ort)]
