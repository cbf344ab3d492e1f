"""dmlc's benchmark: every data-movement and pooling workload against NumPy, PyTorch and
ONNX Runtime (when installed) and memcpy of the same bytes, in one run.

Run it with ``python bench/run.py`` from a checkout or ``dmlc bench`` (``--quick`` for a
subset, ``--filter TEXT`` to pick workloads, ``--threads 1,2,4`` for the scaling of dmlc's
rows with the thread count, ``--busy N`` to time everything beside N processes that keep a
core busy each).  Each module of this package (one per
operator family of src/schema.def, in its order, then any others) provides
``workloads(quick)``: a list of :class:`Workload`.  Times are the best of several runs;
GB/s counts the bytes read plus the bytes written once.
"""
import argparse
import contextlib
import dataclasses
import importlib
import os
import subprocess
import sys
import time
from typing import Callable, List, Optional

import numpy as np


def _modules():
    """This package's workload modules: the operator families first, in schema.def's order."""
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


def _batch_size(fn):
    """Warms fn up (pages in its outputs, builds caches) and gives how many calls make a
    batch: one for calls of a millisecond or more, else enough to take over 2 ms."""
    t0 = time.perf_counter()
    fn()
    batch = 1
    if time.perf_counter() - t0 < 1e-3:
        while True:
            t0 = time.perf_counter()
            for _ in range(batch):
                fn()
            if time.perf_counter() - t0 > 2e-3:
                break
            batch *= 2
    return batch


def _batch_time(fn, batch):
    t0 = time.perf_counter()
    for _ in range(batch):
        fn()
    return (time.perf_counter() - t0) / batch


def best_time(fn, min_runs=3, max_runs=20, budget=1.5):
    """Best time of one call; calls shorter than a millisecond are timed in batches."""
    batch = _batch_size(fn)
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or (len(times) < max_runs and time.perf_counter() - start < budget):
        times.append(_batch_time(fn, batch))
    return min(times)


def scaling_times(make, threads, min_rounds=5, max_rounds=100, budget=2.0):
    """One call's best time on each thread count of threads.  make() builds the call under
    each count, then the counts take turns, a batch each per round, in alternate order, so
    every count meets the same load (a busy machine changes from one second to the next,
    and a batch that always ran second would always run late in the scheduler's slice).
    The best batch still shows threads that cost time: a call that waits for a worker the
    OS has not scheduled pays that wait in every batch."""
    fns, batches = [], []
    for n in threads:
        with _threads(n, None):
            fns.append(make())
            batches.append(_batch_size(fns[-1]))
    times = [[] for _ in threads]
    start, rounds = time.perf_counter(), 0
    while rounds < min_rounds or (rounds < max_rounds and time.perf_counter() - start < budget):
        order = range(len(threads)) if rounds % 2 == 0 else reversed(range(len(threads)))
        for i in order:
            # dmlc's count alone (these rows are dmlc's calls): PyTorch's set_num_threads
            # wakes its OpenMP team, which then spins beside the batch
            with _threads(threads[i], None):
                times[i].append(_batch_time(fns[i], batches[i]))
        rounds += 1
    return [min(t) for t in times]


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


def run(quick=False, filt=None, stream=sys.stdout, progress=sys.stderr, threads=None, busy=0):
    """The table (threads None), or the scaling table for those thread counts; with busy,
    beside that many spinning processes (see busy_processes)."""
    with busy_processes(busy):
        if threads:
            return run_scaling(threads, quick, filt, stream, progress, busy)
        return _run(quick, filt, stream, progress, busy)


def _header(stream, busy, threads=None):
    import dmlc
    count = f"{dmlc.get_num_threads()} threads" if threads is None else "threads " + ",".join(map(str, threads))
    print(f"dmlc {dmlc.__version__}, {count}; numpy {np.__version__}"
          + (f"; torch {optional_torch().__version__}" if optional_torch() else "; torch not installed")
          + (f"; onnxruntime {optional_ort().__version__}" if optional_ort() else "; onnxruntime not installed")
          + (f"; beside {busy} busy process{'es' if busy > 1 else ''}" if busy else ""),
          file=stream)


def _run(quick, filt, stream, progress, busy):
    workloads = collect(quick, filt)
    rows = []
    _header(stream, busy)
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


def run_scaling(threads, quick=False, filt=None, stream=sys.stdout, progress=sys.stderr, busy=0):
    """Each of dmlc's rows timed on each thread count: the time on each, and the first count's
    time over the last's (how much the threads gain; below 1 they cost).  Rows pinned to
    one thread in the main table are left out (they are the same calls)."""
    workloads = [w for w in collect(quick, filt) if w.threads is None]
    rows = []
    _header(stream, busy, threads)
    width = max([46] + [len(f"{w.group} {w.label}") for w in workloads])
    cols = "".join(f"{f'{n} thread' + ('s' if n > 1 else ''):>13}" for n in threads)
    header = f"{'workload':<{width}} {'implementation':<16}{cols} {f'{threads[0]}/{threads[-1]}':>8}"
    print(header, file=stream)
    print("-" * len(header), file=stream)
    for i, w in enumerate(workloads):
        if progress is not None:
            print(f"[{i + 1}/{len(workloads)}] {w.group} {w.label}", file=progress, flush=True)
        if w.check:
            w.check()
        for cand in w.candidates:
            if not cand.name.startswith("dmlc"):
                continue
            times = scaling_times(cand.make, threads)
            label = f"{w.group} {w.label}"
            print(f"{label:<{width}} {cand.name:<16}" + "".join(f"{_fmt_time(t):>13}" for t in times)
                  + f" {times[0] / times[-1]:7.2f}x", file=stream, flush=True)
            rows.append((w.group, w.label, cand.name, dict(zip(threads, times))))
    print(f"{threads[0]}/{threads[-1]}: time on {threads[0]} thread{'s' if threads[0] > 1 else ''} / time on "
          f"{threads[-1]} (higher is better; below 1.00x the threads cost time).  The thread counts take "
          f"turns, a batch of calls each; a time is each count's best batch.", file=stream)
    return rows


#: The most --busy processes: enough to load every core several times over, no more.
def max_busy():
    return 4 * (os.cpu_count() or 1)


# A busy process spins until its parent (the benchmark) is gone, whatever ended it, or an
# hour has passed: none outlives the run that made it.
_SPIN = ("import os, time\n"
         "parent, end = os.getppid(), time.monotonic() + 3600\n"
         "while os.getppid() == parent and time.monotonic() < end:\n"
         "    t = time.monotonic() + 0.05\n"
         "    while time.monotonic() < t: pass\n")


@contextlib.contextmanager
def busy_processes(n):
    """n processes that keep a core busy each (a CI runner's other jobs, a training job beside
    a notebook) for the duration of the block; ended and reaped when it ends."""
    if not n:
        yield []
        return
    procs = []
    try:
        for _ in range(n):
            procs.append(subprocess.Popen([sys.executable, "-c", _SPIN], stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.2)  # running before the first timed call
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def thread_counts(text):
    """--threads: a comma-separated list of thread counts from 1 to 1024."""
    counts = []
    for part in text.split(","):
        if not part.strip().isdigit() or not 1 <= int(part) <= 1024:
            raise argparse.ArgumentTypeError(f"{text!r}: expected thread counts from 1 to 1024 separated by commas, "
                                             f"such as 1,2,4")
        counts.append(int(part))
    return counts


def busy_count(text):
    """--busy: a whole number from 0 to max_busy()."""
    if not text.strip().isdigit() or int(text) > max_busy():
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number of busy processes from 0 to {max_busy()} "
                                         f"(4 per CPU)")
    return int(text)


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
    parser.add_argument("--threads", metavar="N,N,...", type=thread_counts,
                        help="time dmlc's rows on each of these thread counts (such as 1,2,4) and print the scaling")
    parser.add_argument("--busy", metavar="N", type=busy_count, default=0,
                        help="time everything beside N processes that keep a core busy each (a loaded machine)")
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the results, one panel per operator (needs "
                        'matplotlib: pip install "dmlc[plot]")')


def run_and_plot(args, stream=sys.stdout, progress=sys.stderr):
    """Runs the benchmark for parsed ``add_arguments`` options, then writes ``--plot``'s
    picture; matplotlib's absence is found before anything is timed."""
    if args.plot:
        from dmlc.bench import plot
        if args.threads:
            raise plot.PlotUnavailable("--plot draws the table of one thread count; leave out --threads")
        plot.require()
    rows = run(args.quick, args.filter, stream=stream, progress=progress, threads=args.threads, busy=args.busy)
    if args.plot:
        import dmlc
        plot.save(rows, args.plot, title=f"dmlc {dmlc.__version__} bench" + (" --quick" if args.quick else "")
                  + (f" --filter {args.filter!r}" if args.filter else ""))
        print(f"plot written to {args.plot}", file=progress)
    return rows


def main(argv=None):
    from dmlc._console import quiet_on_broken_pipe

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
