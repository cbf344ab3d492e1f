"""Benchmark workloads: GATHER as an embedding lookup (a (50000, 512) float32 table, (8, 1024)
int64 token ids) and along axis 1 of a (256, 4096) array, beside NumPy's take, PyTorch's
indexing and ONNX Runtime's Gather; GATHER_ELEMENTS and SCATTER_ELEMENTS on a (256, 4096)
array with (256, 1024) indices along axis 1, beside np.take_along_axis / np.put_along_axis,
torch.gather / torch.scatter and ONNX Runtime's GatherElements / ScatterElements;
GATHER_ND1 and SCATTER_ND with (8192, 2) index pairs into a (512, 512, 64) array (rows of
64) and (65536, 2) pairs into a (1024, 1024) one (single elements), beside NumPy's advanced
indexing, PyTorch's indexing / index_put and ONNX Runtime's GatherND / ScatterND."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(dtype, x_shape, i_shape, axis):
    """An ONNX Gather (opset 13) model with int64 indices."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    out_shape = list(x_shape[:axis]) + list(i_shape) + list(x_shape[axis + 1:])
    node = helper.make_node("Gather", ["x", "i"], ["y"], axis=axis)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(x_shape)),
                                            helper.make_tensor_value_info("i", 7, list(i_shape))],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def elements_model(op, dtype, x_shape, i_shape, axis):
    """An ONNX GatherElements or ScatterElements (opset 13) model with int64 indices: inputs
    x, i (and u, the updates), output y."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    ins = [helper.make_tensor_value_info("x", elem, list(x_shape)), helper.make_tensor_value_info("i", 7, list(i_shape))]
    if op == "ScatterElements":
        ins.append(helper.make_tensor_value_info("u", elem, list(i_shape)))
    node = helper.make_node(op, [v.name for v in ins], ["y"], axis=axis)
    out_shape = list(x_shape) if op == "ScatterElements" else list(i_shape)
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def nd_model(op, dtype, x_shape, i_shape, batch_dims=0):
    """An ONNX GatherND or ScatterND (opset 13) model with int64 indices: inputs x, i (and u,
    the updates), output y."""
    from onnx import helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    k = i_shape[-1]
    gathered = list(i_shape[:-1]) + list(x_shape[batch_dims + k:])
    ins = [helper.make_tensor_value_info("x", elem, list(x_shape)), helper.make_tensor_value_info("i", 7, list(i_shape))]
    attrs = {}
    if op == "ScatterND":
        ins.append(helper.make_tensor_value_info("u", elem, gathered))
    else:
        attrs["batch_dims"] = batch_dims
    node = helper.make_node(op, [v.name for v in ins], ["y"], **attrs)
    out_shape = list(x_shape) if op == "ScatterND" else gathered
    graph = helper.make_graph([node], "g", ins, [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _nd_workload(name, dtype, x_shape, n_tuples, torch, ort):
    """gather_nd, or scatter_nd (name starting "scatter"), with n_tuples distinct index pairs
    into the first two axes of x."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    flat = rng.choice(x_shape[0] * x_shape[1], n_tuples, replace=False)  # distinct: every implementation agrees
    i = np.stack(np.unravel_index(flat, x_shape[:2]), -1).astype(np.int64)
    scatter = name.startswith("scatter")
    gathered = (n_tuples,) + x_shape[2:]
    u = rng.standard_normal(gathered).astype(dtype)
    y = np.empty(x_shape if scatter else gathered, dtype)
    rows, cols = i[:, 0], i[:, 1]

    def put(out):
        np.copyto(out, x)
        out[rows, cols] = u
        return out

    if scatter:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.scatter_nd(x, i, u))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.scatter_nd(x, i, u, out=y))),
            Candidate("numpy", lambda: (lambda: put(np.empty_like(x)))),
            Candidate("numpy out=", lambda: (lambda: put(y))),
        ]
    else:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.gather_nd(x, i))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.gather_nd(x, i, out=y))),
            Candidate("numpy", lambda: (lambda: x[rows, cols])),
        ]
    if torch is not None:
        def make_torch():
            tx, tr, tc, tu = torch.from_numpy(x), torch.from_numpy(rows), torch.from_numpy(cols), torch.from_numpy(u)
            if scatter:
                return lambda: tx.index_put((tr, tc), tu)
            return lambda: tx[tr, tc]
        cands.append(Candidate("torch", make_torch))
    if ort is not None:
        op = "ScatterND" if scatter else "GatherND"
        feeds = {"x": x, "i": i, "u": u} if scatter else {"x": x, "i": i}
        cands.append(Candidate("onnxruntime", lambda: ort_runner(nd_model(op, dtype, x_shape, i.shape), feeds,
                                                                 {"y": y})))

    def check():
        if scatter:
            np.testing.assert_array_equal(dmlc.scatter_nd(x, i, u), put(np.empty_like(x)))
        else:
            np.testing.assert_array_equal(dmlc.gather_nd(x, i), x[rows, cols])

    label = f"{np.dtype(dtype).name} {x_shape} indices {i.shape}"
    moved = (x.nbytes + 2 * u.nbytes if scatter else 2 * y.nbytes) + i.nbytes
    return Workload(name, label, moved, y.nbytes, cands, check)


def _elements_workload(name, dtype, x_shape, i_shape, axis, torch, ort):
    """gather_elements, or scatter_elements (name starting "scatter"), along axis."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    i = rng.integers(0, x_shape[axis], i_shape, dtype=np.int64)
    scatter = name.startswith("scatter")
    if scatter:  # distinct targets along the axis, so every implementation agrees
        i = np.argsort(rng.random(x_shape), axis=axis)[tuple(slice(0, s) for s in i_shape)]
        u = rng.standard_normal(i_shape).astype(dtype)
    y = np.empty(x_shape if scatter else i_shape, dtype)

    def put_along(out):
        np.copyto(out, x)
        np.put_along_axis(out, i, u, axis)
        return out

    if scatter:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.scatter_elements(x, i, u, axis))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.scatter_elements(x, i, u, axis, out=y))),
            Candidate("numpy", lambda: (lambda: put_along(np.empty_like(x)))),
            Candidate("numpy out=", lambda: (lambda: put_along(y))),
        ]
    else:
        cands = [
            Candidate("dmlc", lambda: (lambda: dmlc.gather_elements(x, i, axis))),
            Candidate("dmlc out=", lambda: (lambda: dmlc.gather_elements(x, i, axis, out=y))),
            Candidate("numpy", lambda: (lambda: np.take_along_axis(x, i, axis))),
        ]
    if torch is not None:
        def make_torch():
            tx, ti = torch.from_numpy(x), torch.from_numpy(i)
            if scatter:
                tu = torch.from_numpy(u)
                return lambda: tx.scatter(axis, ti, tu)
            return lambda: torch.gather(tx, axis, ti)
        cands.append(Candidate("torch", make_torch))
    if ort is not None:
        op = "ScatterElements" if scatter else "GatherElements"
        feeds = {"x": x, "i": i, "u": u} if scatter else {"x": x, "i": i}
        cands.append(Candidate("onnxruntime", lambda: ort_runner(elements_model(op, dtype, x_shape, i_shape, axis),
                                                                 feeds, {"y": y})))

    def check():
        if scatter:
            np.testing.assert_array_equal(dmlc.scatter_elements(x, i, u, axis), put_along(np.empty_like(x)))
        else:
            np.testing.assert_array_equal(dmlc.gather_elements(x, i, axis), np.take_along_axis(x, i, axis))

    label = f"{np.dtype(dtype).name} {x_shape} indices {i_shape} axis {axis}"
    moved = (x.nbytes + y.nbytes if scatter else 2 * y.nbytes) + i.nbytes
    return Workload(name, label, moved, y.nbytes, cands, check)


def _workload(name, dtype, x_shape, i_shape, axis, torch, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    i = rng.integers(0, x_shape[axis], i_shape, dtype=np.int64)
    y = np.empty(x_shape[:axis] + i_shape + x_shape[axis + 1:], dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.gather(x, i, axis))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.gather(x, i, axis, out=y))),
        Candidate("numpy", lambda: (lambda: np.take(x, i, axis))),
        Candidate("numpy out=", lambda: (lambda: np.take(x, i, axis, out=y))),
    ]
    if torch is not None:
        def make_torch():
            tx, ti = torch.from_numpy(x), torch.from_numpy(i)
            if axis == 0:
                return lambda: tx[ti]
            flat = ti.reshape(-1)
            return lambda: torch.index_select(tx, axis, flat)
        cands.append(Candidate("torch", make_torch))
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_model(dtype, x_shape, i_shape, axis),
                                                                 {"x": x, "i": i}, {"y": y})))

    def check():
        np.testing.assert_array_equal(dmlc.gather(x, i, axis), np.take(x, i, axis))

    label = f"{np.dtype(dtype).name} {x_shape} indices {i_shape} axis {axis}"
    return Workload(name, label, y.nbytes * 2 + i.nbytes, y.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    table = (5000, 512) if quick else (50000, 512)
    return [
        _workload("gather_embedding", np.float32, table, (8, 1024), 0, torch, ort),
        _workload("gather_axis1", np.float32, (256, 4096), (1024,), 1, torch, ort),
        _elements_workload("gather_elements", np.float32, (256, 4096), (256, 1024), 1, torch, ort),
        _elements_workload("scatter_elements", np.float32, (256, 4096), (256, 1024), 1, torch, ort),
        _nd_workload("gather_nd_rows", np.float32, (128, 512, 64) if quick else (512, 512, 64), 8192, torch, ort),
        _nd_workload("scatter_nd_rows", np.float32, (128, 512, 64) if quick else (512, 512, 64), 8192, torch, ort),
        _nd_workload("gather_nd_elements", np.float32, (1024, 1024), 65536, torch, ort),
        _nd_workload("scatter_nd_elements", np.float32, (1024, 1024), 65536, torch, ort),
    ]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload("gather", f32, (64, 16), (8,), 0, torch, ort),
            _elements_workload("gather_elements", f32, (64, 16), (8, 16), 0, torch, ort),
            _elements_workload("scatter_elements", f32, (64, 16), (8, 16), 0, torch, ort),
            _nd_workload("gather_nd", f32, (16, 8, 4), 8, torch, ort),
            _nd_workload("scatter_nd", f32, (16, 8, 4), 8, torch, ort)]
