"""Benchmark workloads: fill_sequence of 10**7 elements (np.arange, torch.arange, ONNX Runtime's
Range) and fill_constant of the same size (np.full, torch.full); diagonal_matrix of a batch of
matrices (np.eye broadcast into the batch, torch.eye, ONNX Runtime's EyeLike per matrix) and
diagonal_fill (np.triu, torch.triu, ONNX Runtime's Trilu; the main diagonal set as
np.fill_diagonal and torch.diagonal().fill_ do), each beside a one-thread memcpy of the output's
bytes."""
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


def onnx_node(op, dtype, shape, inputs, attrs=None, inits=()):
    """An ONNX model y = op(x, *inits) over a dtype tensor x of shape (EyeLike, Trilu)."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    graph = helper.make_graph([helper.make_node(op, inputs, ["y"], **(attrs or {}))], "g",
                              [helper.make_tensor_value_info("x", elem, list(shape))],
                              [helper.make_tensor_value_info("y", elem, list(shape))], initializer=list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]).SerializeToString()


def _diagonal_matrix(dtype, shape, torch, ort):
    """A batch of identity matrices: shape (..., n, m)."""
    out = np.empty(shape, dtype)
    n, m = shape[-2:]
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.diagonal_matrix(shape, dtype))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.diagonal_matrix(shape, dtype, out=out))),
        Candidate("numpy eye", lambda: (lambda: np.copyto(out, np.eye(n, m, dtype=dtype)))),
    ]
    if torch is not None:
        tout = torch.from_numpy(out)
        tdt = tout.dtype
        cands.append(Candidate("torch eye", lambda: (lambda: tout.copy_(torch.eye(n, m, dtype=tdt)))))
    if ort is not None and len(shape) == 2:  # EyeLike takes one 2-d matrix
        x = np.zeros(shape, dtype)
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_node("EyeLike", dtype, shape, ["x"]), {"x": x},
                                                                 {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.diagonal_matrix(shape, dtype),
                                      np.broadcast_to(np.eye(n, m, dtype=dtype), shape))

    return Workload("diagonal_matrix", f"{np.dtype(dtype).name} {tuple(shape)}", out.nbytes, out.nbytes, cands, check)


def _diagonal_fill(dtype, shape, torch, ort):
    """np.triu(x) of a batch of matrices (diagonal_fill(x, None, 0)) and the main diagonal set
    to 0 (diagonal_fill(x, 0, 1))."""
    x = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    out = np.empty(shape, dtype)
    cands = [
        Candidate("dmlc triu", lambda: (lambda: dmlc.diagonal_fill(x, None, 0))),
        Candidate("dmlc triu out=", lambda: (lambda: dmlc.diagonal_fill(x, None, 0, out=out))),
        Candidate("numpy triu", lambda: (lambda: np.triu(x))),
        Candidate("dmlc diagonal out=", lambda: (lambda: dmlc.diagonal_fill(x, 0, 1, out=out))),
        Candidate("numpy fill_diagonal", lambda: (lambda: [np.fill_diagonal(a, 0) for a in out.reshape(-1, *shape[-2:])])),
    ]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(out)
        cands.append(Candidate("torch triu out=", lambda: (lambda: torch.triu(tx, out=tout))))
        cands.append(Candidate("torch diagonal().fill_", lambda: (lambda: tout.diagonal(dim1=-2, dim2=-1).fill_(0))))
    if ort is not None:
        from onnx import numpy_helper  # only where ONNX Runtime (and so onnx) is installed
        k = numpy_helper.from_array(np.array(0, np.int64), "k")
        cands.append(Candidate("onnxruntime Trilu", lambda: ort_runner(
            onnx_node("Trilu", dtype, shape, ["x", "k"], {"upper": 1}, [k]), {"x": x}, {"y": out})))

    def check():
        np.testing.assert_array_equal(dmlc.diagonal_fill(x, None, 0), np.triu(x))

    return Workload("diagonal_fill", f"{np.dtype(dtype).name} {tuple(shape)}", 2 * out.nbytes, out.nbytes, cands,
                    check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    n = 10**5 if quick else 10**7
    return [_sequence(np.float32, n, torch, ort), _sequence(np.int64, n, torch, ort),
            _constant(np.float32, (n,), torch),
            _diagonal_matrix(np.float32, (64, 64) if quick else (4096, 4096), torch, ort),
            _diagonal_matrix(np.float32, (8, 64, 64) if quick else (64, 512, 512), torch, ort),
            _diagonal_fill(np.float32, (4, 64, 64) if quick else (64, 512, 512), torch, ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_sequence(f32, 2048, torch, ort),
            _constant(f32, (1, 8, 16, 16), torch),
            _diagonal_matrix(f32, (16, 16), torch, ort),
            _diagonal_fill(f32, (2, 16, 16), torch, ort)]
