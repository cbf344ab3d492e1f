"""dmlc's benchmark: every data-movement and pooling workload against NumPy, PyTorch and
ONNX Runtime (when installed) and memcpy of the same bytes, in one run.

Run it with ``python bench/run.py`` from a checkout or ``dmlc bench`` (``--quick`` for a
subset, ``--filter TEXT`` to pick workloads).  Each module of this package (one per
operator family of src/ops.def, in its order, then any others) provides
``workloads(quick)``: a list of :class:`Workload`.  Times are the best of several runs;
GB/s counts the bytes read plus the bytes written once.
"""
import argparse
import contextlib
import dataclasses
import importlib
import sys
import time
from typing import Callable, List, Optional

import numpy as np


def _modules():
    """This package's workload modules: the operator families first, in ops.def's order."""
    import pkgutil

    from dmlc._core import FAMILIES
    found = {m.name for m in pkgutil.iter_modules(__path__)}
    return [f for f in FAMILIES if f in found] + sorted(found - set(FAMILIES))


@dataclasses.dataclass
class Candidate:
    name: str                        # "dmlc", "dmlc out=", "numpy", "torch out=", "onnxruntime", ...
    make: Callable[[], Callable[[], object]]  # builds the timed zero-argument call (allocation happens here)


@dataclasses.dataclass
class Workload:
    group: str                       # "depth_to_space"
    label: str                       # "float32 (8,256,128,128) b2 DCR"
    bytes_moved: int                 # bytes read + bytes written
    memcpy_bytes: int                # bytes the memcpy baseline copies
    candidates: List[Candidate]
    check: Optional[Callable[[], None]] = None  # asserts the candidates agree (run once, untimed)
    threads: Optional[int] = None    # run dmlc and PyTorch on this many threads (ONNX Runtime: see ort_runner)


def optional_torch():
    try:
        import torch
        torch.set_num_threads(max(1, torch.get_num_threads()))
        return torch
    except Exception:
        return None


def optional_ort():
    try:
        import onnx  # noqa: F401
        import onnxruntime
        return onnxruntime
    except Exception:
        return None


def ort_session(model_bytes, threads=None):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    if threads is not None:
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
    return ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])


def ort_runner(model_bytes, inputs, outputs, threads=None):
    """A zero-argument call running an ONNX model with inputs and outputs bound to
    preallocated NumPy arrays (IO binding), so it times the kernel, not allocation;
    threads: its intra-op threads (None: ONNX Runtime's default, one per core)."""
    import onnxruntime as ort
    sess = ort_session(model_bytes, threads)
    binding = sess.io_binding()
    for name, arr in inputs.items():
        binding.bind_input(name, "cpu", 0, arr.dtype, list(arr.shape), arr.ctypes.data)
    for name, arr in outputs.items():
        binding.bind_output(name, "cpu", 0, arr.dtype, list(arr.shape), arr.ctypes.data)
    del ort
    return lambda: sess.run_with_iobinding(binding)


def memcpy_candidate(nbytes):
    src = np.ones(nbytes, np.uint8)
    dst = np.empty_like(src)
    return Candidate("memcpy", lambda: (lambda: np.copyto(dst, src)))


def copy_candidate(nbytes, torch):
    """The same bytes copied by PyTorch on its threads (as many as dmlc's, by default): the
    memory wall a multi-threaded operator can reach, beside the single-threaded memcpy."""
    src = torch.from_numpy(np.ones(nbytes, np.uint8))
    dst = torch.empty_like(src)
    return Candidate("torch.copy_", lambda: (lambda: dst.copy_(src)))


#: Rows that are not implementations of the workload, only what its bytes cost to copy.
BASELINES = ("memcpy", "torch.copy_")


def best_time(fn, min_runs=3, max_runs=20, budget=1.5):
    """Best time of one call; calls shorter than a millisecond are timed in batches."""
    t0 = time.perf_counter()
    fn()  # warm up: page in the outputs, build caches
    batch = 1
    if time.perf_counter() - t0 < 1e-3:
        while True:
            t0 = time.perf_counter()
            for _ in range(batch):
                fn()
            if time.perf_counter() - t0 > 2e-3:
                break
            batch *= 2
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or (len(times) < max_runs and time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - t0) / batch)
    return min(times)


def _fmt_time(t):
    return f"{t * 1e3:9.3f} ms" if t >= 1e-4 else f"{t * 1e6:9.2f} us"


def collect(quick=False, filt=None):
    out = []
    for name in _modules():
        mod = importlib.import_module(f"dmlc.bench.{name}")
        for w in getattr(mod, "workloads", lambda quick: [])(quick):  # (plot.py has none)
            if filt and filt.lower() not in f"{w.group} {w.label}".lower():
                continue
            out.append(w)
    return out


def run(quick=False, filt=None, stream=sys.stdout, progress=sys.stderr):
    import dmlc

    workloads = collect(quick, filt)
    rows = []
    print(f"dmlc {dmlc.__version__}, {dmlc.get_num_threads()} threads; numpy {np.__version__}"
          + (f"; torch {optional_torch().__version__}" if optional_torch() else "; torch not installed")
          + (f"; onnxruntime {optional_ort().__version__}" if optional_ort() else "; onnxruntime not installed"),
          file=stream)
    header = f"{'workload':<46} {'implementation':<16} {'time':>12} {'GB/s':>7} {'x memcpy':>9} {'dmlc speedup':>12}"
    print(header, file=stream)
    print("-" * len(header), file=stream)
    for i, w in enumerate(workloads):
        if progress is not None:
            print(f"[{i + 1}/{len(workloads)}] {w.group} {w.label}", file=progress, flush=True)
        if w.check:
            w.check()
        torch = optional_torch()
        baselines = [memcpy_candidate(w.memcpy_bytes)] + ([copy_candidate(w.memcpy_bytes, torch)] if torch else [])
        with _threads(w.threads, torch):
            results = []
            for cand in baselines + w.candidates:
                try:
                    fn = cand.make()
                except Exception as exc:  # a peer that cannot run this workload is reported, not fatal
                    results.append((cand.name, None, f"unavailable: {type(exc).__name__}: {exc}"[:60]))
                    continue
                results.append((cand.name, best_time(fn), ""))
                del fn
        memcpy_t = results[0][1]
        dmlc_t = min((t for n, t, _ in results if n.startswith("dmlc") and t is not None), default=None)
        for name, t, note in results:
            label = f"{w.group} {w.label}"
            if t is None:
                print(f"{label:<46} {name:<16} {note}", file=stream)
                continue
            speed = "" if name.startswith("dmlc") or name in BASELINES or dmlc_t is None else f"{t / dmlc_t:11.2f}x"
            print(f"{label:<46} {name:<16} {_fmt_time(t)} {w.bytes_moved / t / 1e9:7.2f} {t / memcpy_t:9.2f} {speed:>12}",
                  file=stream)
            rows.append((w.group, w.label, name, t, w.bytes_moved))
        print(file=stream, flush=True)
    print("x memcpy: time / time of one single-threaded memcpy of the same bytes (lower is better); "
          "torch.copy_: the same bytes copied by PyTorch on its threads; "
          "dmlc speedup: peer time / best dmlc time.", file=stream)
    return rows


@contextlib.contextmanager
def _threads(n, torch):
    """dmlc and PyTorch on n threads inside the block (n None: as they are)."""
    import dmlc
    if n is None:
        yield
        return
    saved = dmlc.get_num_threads(), torch.get_num_threads() if torch else None
    dmlc.set_num_threads(n)
    if torch:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        dmlc.set_num_threads(saved[0])
        if torch:
            torch.set_num_threads(saved[1])


def add_arguments(parser):
    """The benchmark's options, shared by ``python bench/run.py`` and ``dmlc bench``."""
    parser.add_argument("--quick", action="store_true", help="small shapes and fewer workloads")
    parser.add_argument("--filter", metavar="TEXT", help="only workloads whose name contains TEXT (case-insensitive)")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the results, one panel per operator (needs "
                        'matplotlib: pip install "dmlc[plot]")')


def run_and_plot(args, stream=sys.stdout, progress=sys.stderr):
    """Runs the benchmark for parsed ``add_arguments`` options, then writes ``--plot``'s
    picture; matplotlib's absence is found before anything is timed."""
    if args.plot:
        from dmlc.bench import plot
        plot.require()
    rows = run(args.quick, args.filter, stream=stream, progress=progress)
    if args.plot:
        import dmlc
        plot.save(rows, args.plot, title=f"dmlc {dmlc.__version__} bench" + (" --quick" if args.quick else "")
                  + (f" --filter {args.filter!r}" if args.filter else ""))
        print(f"plot written to {args.plot}", file=progress)
    return rows


def main(argv=None):
    from dmlc.cli import quiet_on_broken_pipe

    p = argparse.ArgumentParser(prog="dmlc bench", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    args = p.parse_args(argv)

    def command():
        from dmlc.bench.plot import PlotUnavailable
        try:
            run_and_plot(args)
        except PlotUnavailable as e:
            print(f"dmlc bench: {e}", file=sys.stderr)
            return 1
        return 0

    return quiet_on_broken_pipe(command)


def threaded_copy_candidate(nbytes, threads=2):
    """A copy of nbytes split over `threads` Python threads (np.copyto releases the GIL):
    the memory bandwidth a multithreaded operator can reach on this machine."""
    from concurrent.futures import ThreadPoolExecutor
    src = np.ones(nbytes, np.uint8)
    dst = np.empty_like(src)
    cuts = [nbytes * k // threads for k in range(threads + 1)]

    def make():
        pool = ThreadPoolExecutor(threads)

        def run():
            for f in [pool.submit(np.copyto, dst[a:b], src[a:b]) for a, b in zip(cuts, cuts[1:])]:
                f.result()
        return run
    return Candidate(f"copy {threads} threads", make)
