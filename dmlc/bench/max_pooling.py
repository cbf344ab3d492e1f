"""Benchmark workloads: 2x2 stride 2 and 3x3 stride 2 pad 1 max pooling, with and without
indices, float32 and float16."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, in_shape, out_shape, window, strides, pads, dilations=None, ceil_mode=False, indices=False):
    """An ONNX MaxPool (opset 12) model; pads are ONNX's [begin..., end...].  Its Indices
    output counts over the whole input tensor, as DirectML's does."""
    import onnx  # noqa: F401
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.float64: TensorProto.DOUBLE,
            np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8}[np.dtype(dtype).type]
    attrs = dict(kernel_shape=list(window), strides=list(strides), pads=list(pads), ceil_mode=int(ceil_mode))
    if dilations is not None:
        attrs["dilations"] = list(dilations)
    outputs = [helper.make_tensor_value_info("y", elem, out_shape)]
    if indices:
        outputs.append(helper.make_tensor_value_info("i", TensorProto.INT64, out_shape))
    node = helper.make_node("MaxPool", ["x"], ["y", "i"] if indices else ["y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape)], outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)]).SerializeToString()


def numpy_max_pool(x, k, s, p, return_indices=False):
    """Max pooling in plain NumPy (square window, symmetric padding): -inf padding and a
    sliding window view; indices by argmax over each flattened window."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf) if p else x
    win = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s]
    if not return_indices:
        return win.max(axis=(4, 5))
    oh, ow = win.shape[2], win.shape[3]
    flat = win.reshape(n, c, oh, ow, k * k)
    arg = flat.argmax(axis=-1)
    values = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    rows = np.arange(oh)[:, None] * s - p + arg // k
    cols = np.arange(ow)[None, :] * s - p + arg % k
    planes = (np.arange(n * c).reshape(n, c, 1, 1) * (h * w))
    return values, (planes + rows * w + cols).astype(np.uint32)


def _workload(dtype, shape, k, s, p, indices, torch, ort, threads=None):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    n, c, h, w = shape
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    y = np.empty((n, c, oh, ow), dtype)
    yi = np.empty((n, c, oh, ow), np.uint32)
    kw = dict(strides=s, start_padding=p, end_padding=p)
    if indices:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.max_pool(x, k, return_indices=True, **kw))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.max_pool(x, k, return_indices=True, out=(y, yi), **kw))),
        ]
    else:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.max_pool(x, k, **kw))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.max_pool(x, k, out=y, **kw))),
        ]
    cands.append(Candidate("numpy", lambda: (lambda: numpy_max_pool(x, k, s, p, indices))))
    if torch is not None:
        tx = torch.from_numpy(x)
        F = torch.nn.functional
        cands.append(Candidate("torch", lambda: (lambda: F.max_pool2d(tx, k, s, p, return_indices=indices))))
    if ort is not None:
        outs = {"y": y}
        if indices:
            outs["i"] = np.empty(y.shape, np.int64)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(dtype, list(shape), list(y.shape), (k, k), (s, s), (p, p, p, p), indices=indices),
            {"x": x}, outs, threads)))

    def check():
        got = dmlc.max_pool(x, k, return_indices=indices, **kw)
        want = numpy_max_pool(x, k, s, p, indices)
        if indices:
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])
        else:
            np.testing.assert_array_equal(got, want)

    moved = x.nbytes + y.nbytes + (yi.nbytes if indices else 0)
    label = f"{np.dtype(dtype).name} {tuple(shape)} {k}x{k}/{s}" + (f" p{p}" if p else "") + (" +idx" if indices else "")
    if threads is not None:
        label += f" {threads} thread" + ("s" if threads > 1 else "")
    return Workload("max_pool", label, moved, moved, cands, check, threads)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = []
    for k, s, p in [(2, 2, 0), (3, 2, 1)]:
        for indices in (False, True):
            out.append(_workload(np.float32, shape, k, s, p, indices, torch, ort))
    out.append(_workload(np.float16, shape, 2, 2, 0, False, torch, ort))
    # One thread on a tensor that stays in cache: the kernel's own speed, no memory wall.
    for k, s, p in [(3, 2, 1), (2, 2, 0)]:
        out.append(_workload(np.float32, (1, 64, 56, 56), k, s, p, False, torch, ort, threads=1))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), 2, 2, 0, False, torch, ort),
            _workload(f32, (1, 8, 16, 16), 2, 2, 0, True, torch, ort)]
