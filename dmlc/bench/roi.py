"""Benchmark workloads: ROI pooling and ROI align 7x7 of 1000 regions on (2, 256, 64, 64) float32
(issue 23's speed cases), beside ONNX Runtime's MaxRoiPool and RoiAlign and, for pooling, a
NumPy loop over regions.  torchvision (whose roi_pool / roi_align are PyTorch's) is not a
dependency, so PyTorch has no row."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, ort_runner


def onnx_model(dtype, in_shape, rois_shape, out_shape, pooled, scale):
    """An ONNX MaxRoiPool model (opset 16; ONNX Runtime implements it for float32)."""
    from onnx import TensorProto, helper
    elem = {np.float32: TensorProto.FLOAT, np.float16: TensorProto.FLOAT16,
            np.float64: TensorProto.DOUBLE}[np.dtype(dtype).type]
    node = helper.make_node("MaxRoiPool", ["x", "rois"], ["y"], pooled_shape=list(pooled), spatial_scale=float(scale))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, in_shape),
                                            helper.make_tensor_value_info("rois", elem, rois_shape)],
                              [helper.make_tensor_value_info("y", elem, out_shape)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]).SerializeToString()


def numpy_roi_pool(x, rois, pooled, scale):
    """Caffe's ROI pooling in NumPy: one region at a time, every channel of a bin at once."""
    ph, pw = pooled
    n, c, h, w = x.shape
    out = np.zeros((len(rois), c, ph, pw), x.dtype)
    ct = np.float64 if x.dtype == np.float64 else np.float32  # the product's type: float32 but for float64
    v = (rois[:, 1:].astype(ct) * ct(scale)).astype(np.float64)
    corners = np.sign(v) * np.floor(np.abs(v) + 0.5)  # half away from zero
    for r, (b, (x1, y1, x2, y2)) in enumerate(zip(rois[:, 0].astype(int), corners.astype(np.int64))):
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        for i in range(ph):
            h0, h1 = np.clip([y1 + i * rh // ph, y1 - (-(i + 1) * rh // ph)], 0, h)
            for j in range(pw):
                w0, w1 = np.clip([x1 + j * rw // pw, x1 - (-(j + 1) * rw // pw)], 0, w)
                if h0 < h1 and w0 < w1:
                    out[r, :, i, j] = x[b, :, h0:h1, w0:w1].max(axis=(1, 2))
    return out


def _regions(rng, count, n, h, w, scale):
    """count regions of 4 to 32 input pixels a side, anywhere in the (scaled) plane."""
    x1 = rng.uniform(0, w - 4, count) / scale
    y1 = rng.uniform(0, h - 4, count) / scale
    x2 = x1 + rng.uniform(4, 32, count) / scale
    y2 = y1 + rng.uniform(4, 32, count) / scale
    return np.stack([rng.integers(0, n, count), x1, y1, x2, y2], 1)


def _workload(dtype, shape, count, pooled, ort, numpy_row=True):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    scale = 0.25
    rois = _regions(rng, count, shape[0], shape[2], shape[3], scale).astype(dtype)
    y = np.empty((count, shape[1]) + tuple(pooled), dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.roi_pool(x, rois, pooled, scale))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.roi_pool(x, rois, pooled, scale, out=y))),
    ]
    if numpy_row:
        cands.append(Candidate("numpy", lambda: (lambda: numpy_roi_pool(x, rois, pooled, scale))))
    if ort is not None and dtype == np.float32:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_model(dtype, list(shape), list(rois.shape), list(y.shape), pooled, scale), {"x": x, "rois": rois},
            {"y": y})))

    def check():
        np.testing.assert_array_equal(dmlc.roi_pool(x, rois, pooled, scale), numpy_roi_pool(x, rois, pooled, scale))

    moved = x.nbytes + y.nbytes
    label = f"{np.dtype(dtype).name} {tuple(shape)} {count} regions {pooled[0]}x{pooled[1]}"
    return Workload("roi_pool", label, moved, moved, cands, check)


def onnx_align_model(in_shape, count, pooled, scale):
    """An ONNX RoiAlign model (opset 16, average, half_pixel, adaptive sampling), float32."""
    from onnx import TensorProto, helper
    node = helper.make_node("RoiAlign", ["x", "rois", "b"], ["y"], output_height=pooled[0], output_width=pooled[1],
                            spatial_scale=float(scale), sampling_ratio=0, mode="avg",
                            coordinate_transformation_mode="half_pixel")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape),
                                            helper.make_tensor_value_info("rois", TensorProto.FLOAT, [count, 4]),
                                            helper.make_tensor_value_info("b", TensorProto.INT64, [count])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [count, in_shape[1]] + list(pooled))])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]).SerializeToString()


def _align_workload(dtype, shape, count, pooled, ort):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    scale = 0.25
    table = _regions(rng, count, shape[0], shape[2], shape[3], scale)
    rois, batch = table[:, 1:].astype(dtype), table[:, 0].astype(np.int64)
    y = np.empty((count, shape[1]) + tuple(pooled), dtype)
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.roi_align(x, rois, batch, pooled, spatial_scale=scale))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.roi_align(x, rois, batch, pooled, spatial_scale=scale, out=y))),
    ]
    if ort is not None and dtype == np.float32:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(
            onnx_align_model(list(shape), count, pooled, scale), {"x": x, "rois": rois, "b": batch}, {"y": y})))

    def check():
        got = dmlc.roi_align(x, rois[:4], batch[:4], pooled, spatial_scale=scale)
        assert got.shape == (4, shape[1]) + tuple(pooled) and np.all(np.isfinite(got))

    moved = x.nbytes + y.nbytes
    label = f"{np.dtype(dtype).name} {tuple(shape)} {count} regions {pooled[0]}x{pooled[1]}"
    return Workload("roi_align", label, moved, moved, cands, check)


def workloads(quick):
    ort = optional_ort()
    shape, count = ((1, 32, 32, 32), 100) if quick else ((2, 256, 64, 64), 1000)
    return [_workload(np.float32, shape, count, (7, 7), ort), _workload(np.float16, shape, count, (7, 7), ort),
            _align_workload(np.float32, shape, count, (7, 7), ort), _align_workload(np.float16, shape, count, (7, 7), ort)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 16, 16), 4, (2, 2), ort, numpy_row=False),
            _align_workload(f32, (1, 8, 16, 16), 4, (2, 2), ort)]
