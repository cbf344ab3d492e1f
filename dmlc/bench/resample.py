"""Benchmark workloads: resample nearest and linear, 2x up and 0.5x down on the last two
axes, against PyTorch (F.interpolate), ONNX Runtime (Resize) and a copy of the output's
bytes."""
import numpy as np

import dmlc
from dmlc.bench import Candidate, Workload, optional_ort, optional_torch, ort_runner, threaded_copy_candidate
from dmlc.bench.element_wise_identity import _elem


def onnx_resize(dtype, in_shape, out_shape, mode):
    """Resize(x, sizes) with half_pixel coordinates; nearest rounds half up (round_prefer_ceil),
    as PyTorch's nearest-exact."""
    from onnx import helper, numpy_helper
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode=mode,
                            coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", _elem(dtype), in_shape)],
                              [helper.make_tensor_value_info("y", _elem(dtype), out_shape)],
                              initializer=[numpy_helper.from_array(np.array(out_shape, np.int64), "sizes")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def _workload(dtype, shape, factor, mode, torch, ort):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 100).astype(dtype)
    size = tuple(shape[:2]) + tuple(int(n * factor) for n in shape[2:])
    out = np.empty(size, dtype)
    kw = dict(size=size, mode=mode, nearest_rounding="round_prefer_ceil")
    cands = [
        Candidate("dmlc", lambda: (lambda: dmlc.resample(x, **kw))),
        Candidate("dmlc out=", lambda: (lambda: dmlc.resample(x, **kw, out=out))),
        threaded_copy_candidate(out.nbytes),
    ]
    tmode = "nearest-exact" if mode == "nearest" else "bilinear"
    if torch is not None:
        tx = torch.from_numpy(x)
        targs = dict(size=size[2:], mode=tmode) if mode == "nearest" else \
            dict(size=size[2:], mode=tmode, align_corners=False)
        try:
            torch.nn.functional.interpolate(tx, **targs)
            cands.append(Candidate("torch interpolate", lambda: (lambda: torch.nn.functional.interpolate(tx, **targs))))
        except RuntimeError:  # a dtype this PyTorch does not interpolate
            pass
    if ort is not None:
        cands.append(Candidate("onnxruntime", lambda: ort_runner(onnx_resize(dtype, list(shape), list(size), mode),
                                                                 {"x": x}, {"y": out})))

    def check():
        r = dmlc.resample(x, **kw)
        assert r.shape == size
        if mode == "nearest" and torch is not None:
            np.testing.assert_array_equal(r, torch.nn.functional.interpolate(torch.from_numpy(x), **targs).numpy())

    label = f"{np.dtype(dtype).name} {tuple(shape)} {mode} x{factor}"
    return Workload("resample", label, x.nbytes + out.nbytes, out.nbytes, cands, check)


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    shapes = [((2, 16, 56, 56), np.float32)] if quick else [((8, 64, 112, 112), np.float32),
                                                            ((4, 3, 512, 512), np.uint8)]
    return [_workload(dtype, shape, factor, mode, torch, ort)
            for shape, dtype in shapes for mode in ("nearest", "linear") for factor in (2, 0.5)]


def small(torch, ort):
    """The tiny-tensor rows (dmlc/bench/small.py: what a call costs beside its copy)."""
    f32 = np.float32
    return [_workload(f32, (1, 8, 8, 8), 2, "nearest", torch, ort)]
