"""Benchmark workloads: split into equal parts along a channel axis and the last axis, and
the joins that undo them."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def onnx_model(op, dtype, axis, whole_shape, part_shapes):
    import onnx  # noqa: F401  (the ONNX Runtime rows need it)
    from onnx import TensorProto, helper, numpy_helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.uint8: TensorProto.UINT8}[dtype]
    parts = [f"p{i}" for i in range(len(part_shapes))]
    part_info = [helper.make_tensor_value_info(n, elem, s) for n, s in zip(parts, part_shapes)]
    whole_info = helper.make_tensor_value_info("x", elem, whole_shape)
    if op == "Split":
        sizes = numpy_helper.from_array(np.array([s[axis] for s in part_shapes], np.int64), "sizes")
        node = helper.make_node("Split", ["x", "sizes"], parts, axis=axis)
        graph = helper.make_graph([node], "g", [whole_info], part_info, initializer=[sizes])
    else:
        node = helper.make_node("Concat", parts, ["x"], axis=axis)
        graph = helper.make_graph([node], "g", part_info, [whole_info])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _split_workload(dtype, shape, k, axis, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    views = np.split(x, k, axis)
    outs = [np.empty_like(v) for v in views]
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.split(x, k, axis))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.split(x, k, axis, out=outs))),
        Candidate("numpy", lambda: (lambda: [v.copy() for v in np.split(x, k, axis)])),
        Candidate("numpy out=", lambda: (lambda: [np.copyto(o, v) for o, v in zip(outs, np.split(x, k, axis))])),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        touts = [torch.from_numpy(o) for o in outs]

        def torch_into():
            for o, v in zip(touts, torch.chunk(tx, k, axis)):
                o.copy_(v)

        cands.append(Candidate("torch", lambda: (lambda: [v.contiguous() for v in torch.chunk(tx, k, axis)])))
        cands.append(Candidate("torch out=", lambda: torch_into))
    if ort is not None:
        model = onnx_model("Split", dtype, axis, list(x.shape), [list(o.shape) for o in outs])
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            model, {"x": x}, {f"p{i}": o for i, o in enumerate(outs)})))

    def check():
        for got, want in zip(dmlc.split(x, k, axis), views):
            np.testing.assert_array_equal(got, want)

    label = f"{np.dtype(dtype).name} {shape} {k} parts axis {axis}"
    return Workload("split", label, 2 * x.nbytes, x.nbytes, cands, check)


def _join_workload(dtype, shape, k, axis, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    parts = [v.copy() for v in np.split(x, k, axis)]
    out = np.empty_like(x)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.join(parts, axis))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.join(parts, axis, out=out))),
        Candidate("numpy", lambda: (lambda: np.concatenate(parts, axis))),
        Candidate("numpy out=", lambda: (lambda: np.concatenate(parts, axis, out=out))),
    ]
    if torch is not None:
        tparts = [torch.from_numpy(p) for p in parts]
        tout = torch.from_numpy(out)
        cands.append(Candidate("torch", lambda: (lambda: torch.cat(tparts, axis))))
        cands.append(Candidate("torch out=", lambda: (lambda: torch.cat(tparts, axis, out=tout))))
    if ort is not None:
        model = onnx_model("Concat", dtype, axis, list(x.shape), [list(p.shape) for p in parts])
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            model, {f"p{i}": p for i, p in enumerate(parts)}, {"x": out})))

    def check():
        np.testing.assert_array_equal(dmlc.join(parts, axis), x)

    label = f"{np.dtype(dtype).name} {shape} {k} parts axis {axis}"
    return Workload("join", label, 2 * x.nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shape = (2, 64, 64, 64) if quick else (8, 256, 128, 128)
    out = []
    for make in (_split_workload, _join_workload):
        for k, axis in ((4, 1), (2, 3)):
            out.append(make(np.float32, shape, k, axis, torch, ort))
    if not quick:
        for make in (_split_workload, _join_workload):
            out.append(make(np.uint8, shape, 2, 3, torch, ort))
            # Columns of a point list: runs of one element.
            out.append(make(np.float32, (1 << 22, 2), 2, 1, torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_split_workload(f32, (1, 8, 16, 16), 2, 1, torch, ort),
            _join_workload(f32, (1, 8, 16, 16), 2, 1, torch, ort)]
