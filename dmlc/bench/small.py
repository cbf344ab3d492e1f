"""Benchmark workloads: every function on a tiny tensor, where a call costs far more than
its copy: what the Python API, the core's operator creation and the output allocation
cost per call.  Rows are named ``small_<function>``; the first six are the shapes the
per-call targets are stated for, each with and without ``out=``."""
import numpy as np

from dmlc.bench import optional_ort, optional_torch
from dmlc.bench import (argminmax, average_pooling, cast, cumulative, depth_space, element_wise_identity, fill, gather,
                        lp_pooling, max_pooling, max_unpooling, nonzero, one_hot, padding, resample, roi, slicing, split_join,
                        tiling, topk)


def _small(w):
    w.group = "small_" + w.group
    return w


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    f32 = np.float32
    return [_small(w) for w in [
        depth_space._workload("depth_to_space", f32, (1, 16, 8, 8), False, torch, ort),
        depth_space._workload("space_to_depth", f32, (1, 16, 8, 8), False, torch, ort),
        padding._workload(f32, (1, 8, 16, 16), 1, "constant", torch, ort),
        split_join._split_workload(f32, (1, 8, 16, 16), 2, 1, torch, ort),
        split_join._join_workload(f32, (1, 8, 16, 16), 2, 1, torch, ort),
        max_pooling._workload(f32, (1, 8, 16, 16), 2, 2, 0, False, torch, ort),
        max_pooling._workload(f32, (1, 8, 16, 16), 2, 2, 0, True, torch, ort),
        element_wise_identity._transpose(f32, (1, 8, 16, 16), (0, 2, 3, 1), torch, ort),
        slicing._workload(f32, (1, 8, 16, 16), [1, 1, 2, 2], torch, ort),
        tiling._workload(f32, (1, 8, 8, 8), [1, 1, 2, 2], torch, ort),
        max_unpooling._workload(f32, (1, 8, 16, 16), torch, ort),
        average_pooling._workload(f32, (1, 8, 16, 16), 2, 2, 0, torch, ort),
        lp_pooling._workload(f32, (1, 8, 16, 16), 2, 2, 0, 2, torch, ort),
        gather._workload("gather", f32, (64, 16), (8,), 0, torch, ort),
        gather._elements_workload("gather_elements", f32, (64, 16), (8, 16), 0, torch, ort),
        gather._elements_workload("scatter_elements", f32, (64, 16), (8, 16), 0, torch, ort),
        gather._nd_workload("gather_nd", f32, (16, 8, 4), 8, torch, ort),
        gather._nd_workload("scatter_nd", f32, (16, 8, 4), 8, torch, ort),
        one_hot._workload(f32, 16, 10, torch, ort),
        resample._workload(f32, (1, 8, 8, 8), 2, "nearest", torch, ort),
        roi._workload(f32, (1, 8, 16, 16), 4, (2, 2), ort, numpy_row=False),
        roi._align_workload(f32, (1, 8, 16, 16), 4, (2, 2), ort),
        argminmax._workload("argmax", f32, (4, 16), 1, torch, ort),
        cumulative._workload("cumsum", f32, (4, 16), 1, torch, ort),
        topk._workload(f32, (4, 16), 4, torch, ort),
        nonzero._workload(f32, (4, 16), 0.5, torch, ort),
        cast._workload(f32, np.float16, (1, 8, 16, 16), torch, ort),
        fill._sequence(f32, 2048, torch, ort),
        fill._constant(f32, (1, 8, 16, 16), torch),
        fill._diagonal_matrix(f32, (16, 16), torch, ort),
        fill._diagonal_fill(f32, (2, 16, 16), torch, ort),
    ]]
