"""Benchmark workloads: every function on a tiny tensor, where a call costs far more than
its copy: what the Python API, the core's operator creation and the output allocation
cost per call.  Rows are named ``small_<function>``; each family's module gives its own
(its ``small(torch, ort)``), in the families' order, so the first six are the shapes the
per-call targets are stated for (depth/space, padding, split/join, max pooling), each with
and without ``out=``."""
import importlib

from dmlc.bench import _modules, optional_ort, optional_torch


def _small(w):
    w.group = "small_" + w.group
    return w


def workloads(quick):
    torch, ort = optional_torch(), optional_ort()
    rows = []
    for name in _modules():
        module = importlib.import_module(f"{__package__}.{name}")
        if name != "small" and hasattr(module, "small"):
            rows.extend(_small(w) for w in module.small(torch, ort))
    return rows
