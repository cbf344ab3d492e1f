"""Benchmark workloads: one_hot of 8192 indices into depth 1000, float32 (a classifier's
targets), beside NumPy (np.eye(depth)[indices]), torch.nn.functional.one_hot (which returns
int64), a float32 torch zero_().scatter_ into a preallocated output, ONNX Runtime's OneHot and
a one-thread memcpy of the output's bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_one_hot(dtype, ishape, depth, axis=-1, values=(0, 1), index_dtype=np.int64):
    """An ONNX model y = OneHot(i, depth, values) over indices of shape ishape, depth and
    values (off, on) as initializers; the tests use it as their ONNX Runtime oracle."""
    from onnx import helper, numpy_helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits = [numpy_helper.from_array(np.array(depth, np.int64), "depth"),
             numpy_helper.from_array(np.array(values, dtype), "values")]
    ishape = list(ishape)
    a = axis + len(ishape) + 1 if axis < 0 else axis
    graph = helper.make_graph([helper.make_node("OneHot", ["i", "depth", "values"], ["y"], axis=axis)], "g",
                              [helper.make_tensor_value_info("i", helper.np_dtype_to_tensor_dtype(
                                  np.dtype(index_dtype)), ishape)],
                              [helper.make_tensor_value_info("y", elem, ishape[:a] + [depth] + ishape[a:])],
                              initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]).SerializeToString()


def _workload(dtype, n, depth, torch, ort):
    rng = np.random.default_rng(0)
    idx = rng.integers(0, depth, n).astype(np.int64)
    out = np.empty((n, depth), dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.one_hot(idx, depth, dtype=dtype))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.one_hot(idx, depth, dtype=dtype, out=out))),
        Candidate("numpy eye[i]", lambda: (lambda: np.eye(depth, dtype=dtype)[idx])),
    ]
    if torch is not None:
        ti, tout = torch.from_numpy(idx), torch.from_numpy(out)
        ti2 = ti[:, None]
        cands.append(Candidate("torch one_hot", lambda: (lambda: torch.nn.functional.one_hot(ti, depth))))
        cands.append(Candidate("torch scatter_ out=", lambda: (lambda: tout.zero_().scatter_(1, ti2, 1.0))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_one_hot(dtype, (n,), depth), {"i": idx},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.one_hot(idx, depth, dtype=dtype), np.eye(depth, dtype=dtype)[idx])

    nbytes = out.nbytes
    return Workload("one_hot", f"{np.dtype(dtype).name} ({n},) depth {depth}", nbytes + idx.nbytes, nbytes, cands,
                    check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    return [_workload(np.float32, 256 if quick else 8192, 100 if quick else 1000, torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    return [_workload(np.float32, 16, 10, torch, ort)]
