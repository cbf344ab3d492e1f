"""Benchmark workloads: reverse_subsequences of (512, 64, 256) float32 along axis 0 and along
axis 1 with one length per batch (ONNX ReverseSequence's layout: time axis 0 with batch axis
1, and time axis 1 with batch axis 0; dmlc's lengths broadcast over the last axis), against
ONNX Runtime's ReverseSequence, PyTorch and NumPy advanced indexing with the reversed
positions (torch has no single op), beside the runner's copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner
from dmlc.bench.element_wise_identity import _elem


def reverse_sequence_model(dtype, shape, time_axis):
    """An ONNX model y = ReverseSequence(x, lens): lens (int64) along the batch axis, the
    other of axes 0 and 1."""
    from onnx import TensorProto, helper
    batch_axis = 1 - time_axis
    node = helper.make_node("ReverseSequence", ["x", "lens"], ["y"], batch_axis=batch_axis, time_axis=time_axis)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), list(shape)),
                                            helper.make_tensor_value_info("lens", TensorProto.INT64,
                                                                          [shape[batch_axis]])],
                              [helper.make_tensor_value_info("y", _elem(dtype), list(shape))])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _sources(xp, n, lens, time_axis):
    """Each output row's source position along the time axis: L - 1 - t for t < L, else t
    (xp: numpy or torch), shaped (n, B) (time axis 0) or (B, n)."""
    t = xp.arange(n)[:, None]
    L = lens[None, :]
    src = xp.where(t < L, L - 1 - t, t)
    return src if time_axis == 0 else src.T


def numpy_reverse(x, lens, time_axis):
    """Advanced indexing with the reversed positions: x[src, b] (time axis 0) or x[b, src]."""
    n, b = x.shape[time_axis], np.arange(x.shape[1 - time_axis])
    src = _sources(np, n, np.minimum(lens, n), time_axis)
    return x[src, b[None, :]] if time_axis == 0 else x[b[:, None], src]


def torch_reverse(torch, tx, tlens, time_axis):
    n, b = tx.shape[time_axis], torch.arange(tx.shape[1 - time_axis])
    src = _sources(torch, n, torch.clamp(tlens, max=n), time_axis)
    return tx[src, b[None, :]] if time_axis == 0 else tx[b[:, None], src]


def _workload(dtype, shape, time_axis, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    lens = rng.integers(1, shape[time_axis] + 1, shape[1 - time_axis]).astype(np.int64)
    dlens = lens[:, None]  # dmlc: one length per batch, broadcast over the last axis
    out = np.empty(shape, dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.reverse_subsequences(x, dlens, time_axis))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.reverse_subsequences(x, dlens, time_axis, out=out))),
        Candidate("numpy indexing", lambda: (lambda: numpy_reverse(x, lens, time_axis))),
    ]
    if torch is not None:
        tx, tl = torch.from_numpy(x), torch.from_numpy(lens)
        cands.append(Candidate("torch indexing", lambda: (lambda: torch_reverse(torch, tx, tl, time_axis))))
    if ort is not None:
        oy = np.empty(shape, dtype)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(reverse_sequence_model(dtype, shape, time_axis),
                                                                 {"x": x, "lens": lens}, {"y": oy})))

    def check():
        np.testing.assert_array_equal(dmlc.reverse_subsequences(x, dlens, time_axis), numpy_reverse(x, lens, time_axis))

    label = f"{np.dtype(dtype).name} {tuple(shape)} axis {time_axis}"
    return Workload("reverse_subsequences", label, 2 * x.nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (128, 64, 256) if quick else (512, 64, 256)
    return [_workload(np.float32, shape, 0, torch, ort), _workload(np.float32, shape, 1, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    return [_workload(np.float32, (16, 4, 8), 0, torch, ort)]
