"""Benchmark workloads: fill_sequence of 10**7 elements (np.arange, torch.arange, ONNX Runtime's
Range) and fill_constant of the same size (np.full, torch.full), beside a one-thread memcpy of
the output's bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_range(dtype, n, start, delta):
    """An ONNX model y = Range(start, start + n*delta, delta), the limits as initializers."""
    from onnx import helper, numpy_helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits = [numpy_helper.from_array(np.array(v, dtype), name)
             for name, v in (("s", start), ("l", start + n * delta), ("d", delta))]
    graph = helper.make_graph([helper.make_node("Range", ["s", "l", "d"], ["y"])], "g", [],
                              [helper.make_tensor_value_info("y", elem, [n])], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _sequence(dtype, n, torch, ort):
    out = np.empty(n, dtype)
    start, delta = (3, 2) if np.dtype(dtype).kind != "f" else (0.5, 0.25)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.fill_sequence(n, start, delta, dtype))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.fill_sequence(n, start, delta, dtype, out=out))),
        Candidate("numpy arange", lambda: (lambda: np.arange(start, start + n * delta, delta, dtype))),
    ]
    if torch is not None:
        tdt = torch.from_numpy(np.empty(0, dtype)).dtype
        tout = torch.from_numpy(out)
        cands.append(Candidate("torch arange", lambda: (lambda: torch.arange(start, start + n * delta, delta,
                                                                            dtype=tdt))))
        cands.append(Candidate("torch out=", lambda: (lambda: torch.arange(start, start + n * delta, delta, out=tout))))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_range(dtype, n, start, delta), {}, {"y": out})))

    def check():
        want = (np.arange(n) * np.float64(delta) + start).astype(dtype)
        np.testing.assert_array_equal(dmlc.fill_sequence(n, start, delta, dtype), want)

    return Workload("fill_sequence", f"{np.dtype(dtype).name} ({n},)", out.nbytes, out.nbytes, cands, check)


def _constant(dtype, shape, torch):
    out = np.empty(shape, dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.fill_constant(shape, 7, dtype))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.fill_constant(shape, 7, dtype, out=out))),
        Candidate("numpy full", lambda: (lambda: np.full(shape, 7, dtype))),
        Candidate("numpy fill", lambda: (lambda: out.fill(7))),
    ]
    if torch is not None:
        tout = torch.from_numpy(out)
        cands.append(Candidate("torch fill_", lambda: (lambda: tout.fill_(7))))

    def check():
        np.testing.assert_array_equal(dmlc.fill_constant(shape, 7, dtype), np.full(shape, 7, dtype))

    return Workload("fill_constant", f"{np.dtype(dtype).name} {tuple(shape)}", out.nbytes, out.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    n = 10**5 if quick else 10**7
    return [_sequence(np.float32, n, torch, ort), _sequence(np.int64, n, torch, ort),
            _constant(np.float32, (n,), torch)]
