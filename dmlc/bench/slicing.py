"""Benchmark workloads: slices with steps (every other row and column, a reversal) against
NumPy, PyTorch, ONNX Runtime and copies of the same bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner, threaded_copy_candidate
from dmlc.bench.element_wise_identity import _elem


def onnx_slice(dtype, in_shape, starts, ends, steps):
    """An ONNX model y = Slice(x, starts, ends, axes = all, steps)."""
    from onnx import helper, numpy_helper
    nd = len(in_shape)
    view = np.empty(in_shape, np.uint8)[tuple(slice(a, b, c) for a, b, c in zip(starts, ends, steps))]
    inits = [numpy_helper.from_array(np.array(v, np.int64), n)
             for v, n in ((starts, "starts"), (ends, "ends"), (list(range(nd)), "axes"), (steps, "steps"))]
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), in_shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), list(view.shape))], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(dtype, shape, steps, torch, ort):
    """A slice of the whole of x with these steps per axis (negative: reversed)."""
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    nd = len(shape)
    index = tuple(slice(None, None, s) for s in steps)
    view = x[index]
    out = np.empty(view.shape, dtype)
    offsets, sizes = [0] * nd, list(shape)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.slice(x, offsets, sizes, steps))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.slice(x, offsets, sizes, steps, out=out))),
        Candidate("numpy ascontig", lambda: (lambda: np.ascontiguousarray(view))),
        Candidate("numpy copyto", lambda: (lambda: np.copyto(out, view))),
        threaded_copy_candidate(out.nbytes),
    ]
    if torch is not None and all(s > 0 for s in steps):  # PyTorch has no negative steps
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        cands.append(Candidate("torch contiguous", lambda: (lambda: tx[index].contiguous())))
        cands.append(Candidate("torch copy_", lambda: (lambda: tout.copy_(tx[index]))))
    if ort is not None:
        starts = [0 if s > 0 else n - 1 for n, s in zip(shape, steps)]
        ends = [n if s > 0 else -n - 1 for n, s in zip(shape, steps)]  # past the start, whatever the direction
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_slice(dtype, list(shape), starts, ends, steps),
                                                                 {"x": x}, {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.slice(x, offsets, sizes, steps), view)

    label = f"{np.dtype(dtype).name} {tuple(shape)} step{tuple(steps[-2:])}"
    # Bytes moved: the output written, and the input lines the slice reads.
    return Workload("slice", label, x.nbytes // abs(steps[-2]) + out.nbytes, out.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 16, 112, 112) if quick else (8, 64, 224, 224)
    out = [_workload(np.float32, shape, [1, 1, 2, 2], torch, ort)]
    if not quick:
        out.append(_workload(np.float32, shape, [1, 1, 1, -1], torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), [1, 1, 2, 2], torch, ort)]
