"""Benchmark workloads: depth_to_space / space_to_depth, block 2, both orders."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner


def numpy_d2s(x, b, crd, out):
    n, c, h, w = x.shape
    co = c // (b * b)
    if crd:
        v = x.reshape(n, co, b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    else:
        v = x.reshape(n, b, b, co, h, w).transpose(0, 3, 4, 1, 5, 2)
    np.copyto(out.reshape(n, co, h, b, w, b), v)
    return out


def numpy_s2d(y, b, crd, out):
    n, co, hb, wb = y.shape
    h, w = hb // b, wb // b
    v = y.reshape(n, co, h, b, w, b)
    if crd:
        np.copyto(out.reshape(n, co, b, b, h, w), v.transpose(0, 1, 3, 5, 2, 4))
    else:
        np.copyto(out.reshape(n, b, b, co, h, w), v.transpose(0, 3, 5, 1, 2, 4))
    return out


def onnx_model(op, b, crd, dtype, in_shape, out_shape):
    import onnx  # noqa: F401  (the ONNX Runtime rows need it)
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16, np.uint8: TensorProto.UINT8}[dtype]
    attrs = {"blocksize": b}
    if op == "DepthToSpace":
        attrs["mode"] = "CRD" if crd else "DCR"
    elif crd:
        raise ValueError("ONNX SpaceToDepth has only the DCR order")
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(direction, dtype, shape, crd, torch, ort):
    b = 2
    order = "column_row_depth" if crd else "depth_column_row"
    rng = np.random.default_rng(0)
    n, c, h, w = shape
    depth = (rng.random(shape) * 100).astype(dtype)
    space_shape = (n, c // 4, h * 2, w * 2)
    if direction == "depth_to_space":
        x, out_shape, fn, ref = depth, space_shape, dmlc.depth_to_space, numpy_d2s
    else:
        x, out_shape, fn, ref = dmlc.depth_to_space(depth, b, order=order), shape, dmlc.space_to_depth, numpy_s2d
    out = np.empty(out_shape, dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: fn(x, b, order=order))),
        Candidate("dmlc out=", lambda: (lambda: fn(x, b, order=order, out=out))),
        Candidate("numpy", lambda: (lambda: ref(x, b, crd, np.empty(out_shape, dtype)))),
        Candidate("numpy out=", lambda: (lambda: ref(x, b, crd, out))),
    ]
    if torch is not None:
        tx = torch.from_numpy(x)
        tout = torch.from_numpy(out)

        def torch_call(into):
            if direction == "depth_to_space":
                if crd:
                    y = torch.nn.functional.pixel_shuffle(tx, b)
                else:
                    y = tx.reshape(n, b, b, c // 4, h, w).permute(0, 3, 4, 1, 5, 2).reshape(space_shape)
            else:
                if crd:
                    y = torch.nn.functional.pixel_unshuffle(tx, b)
                else:
                    y = tx.reshape(n, c // 4, h, b, w, b).permute(0, 3, 5, 1, 2, 4).reshape(shape)
            if into:
                tout.copy_(y)
                return tout
            return y.contiguous()

        cands.append(Candidate("torch", lambda: (lambda: torch_call(False))))
        cands.append(Candidate("torch out=", lambda: (lambda: torch_call(True))))
    if ort is not None:
        op = "DepthToSpace" if direction == "depth_to_space" else "SpaceToDepth"
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(op, b, crd, dtype, list(x.shape), list(out_shape)), {"x": x}, {"y": out})))

    def check():
        np.testing.assert_array_equal(fn(x, b, order=order), ref(x, b, crd, np.empty(out_shape, dtype)))

    label = f"{np.dtype(dtype).name} {tuple(x.shape)} b2 {'CRD' if crd else 'DCR'}"
    return Workload(direction, label, 2 * x.nbytes, x.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shapes = [(2, 64, 64, 64)] if quick else [(8, 256, 128, 128), (8, 64, 256, 256)]
    out = []
    for shape in shapes:
        for direction in ("depth_to_space", "space_to_depth"):
            for crd in (False, True):
                out.append(_workload(direction, np.float32, shape, crd, torch, ort))
    if not quick:
        for dtype in (np.float16, np.uint8):
            for direction in ("depth_to_space", "space_to_depth"):
                out.append(_workload(direction, dtype, (8, 256, 128, 128), False, torch, ort))
    return out


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload("depth_to_space", f32, (1, 16, 8, 8), False, torch, ort),
            _workload("space_to_depth", f32, (1, 16, 8, 8), False, torch, ort)]
