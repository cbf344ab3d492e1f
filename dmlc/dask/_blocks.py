"""The graph machinery of dmlc.dask: one task per output block, reading exactly the input
region that block needs.

Every operator here is described by a *plan*: for each output block, the input interval(s)
it reads along each axis and the parameters of the one dmlc call that turns that region
into the block.  The region is gathered, inside the block's own task, from the input
blocks it overlaps (the block itself, or its neighbours for a halo, or blocks far away for
wrap padding).  So

- a task's memory is its region plus its output, whatever the array's width: no
  rechunking, and no input block copied into a grown "overlap" array that lives on;
- a halo or padding wider than a chunk (or than the whole array) just spans more blocks;
- short last chunks and chunks of size 1 are nothing special.

The graph is a plain Dask HighLevelGraph layer (legacy tuple tasks), so every Dask scheduler
runs it: threads, processes, synchronous and dask.distributed (the task functions are
module-level functions and ``functools.partial`` objects, which pickle).

Threads.  Dask does the parallelism across blocks: its threaded scheduler (and each
dask.distributed worker) runs several tasks at once, one per core by default, and each
task's dmlc call releases the GIL.  dmlc's own threads must not multiply on top of that,
so the calls made at once in one process share dmlc's thread count (``dmlc.get_num_threads()``,
by default the CPUs the process may use) instead of each starting its own set:

- one process-wide pool of count - 1 worker threads, whatever the number of tasks;
- one call at a time takes workers; a call made while another holds them runs on its
  task's own thread;
- a worker leaves a call (before its next chunk) while more threads are working on dmlc
  calls than the count, so k tasks in dmlc calls at once use at most max(k, count)
  threads: one thread per call when Dask runs a task per core, and the whole count for
  a task that runs alone (the synchronous scheduler, the last blocks of a graph).

Each call's own thread works from the first moment and returns when its work is done, so
a task never waits for a worker that another task's call (or another process) holds.
tests/test_dask_threads.py checks the pool's size under the threaded scheduler.
"""
import bisect
import functools
import itertools
import math
import operator

import numpy as np
from dask.array.core import Array
from dask.highlevelgraph import HighLevelGraph


def known_chunks(x, fname):
    """x.chunks, after checking that Dask knows every chunk's size."""
    if any(math.isnan(c) for axis in x.chunks for c in axis):
        raise ValueError(f"{fname}: x has unknown chunk sizes (NaN); call x.compute_chunk_sizes() first")
    return x.chunks


def bounds_of(chunks):
    """Block boundaries of one axis: (2, 3, 1) -> [0, 2, 5, 6]."""
    out = [0]
    for c in chunks:
        out.append(out[-1] + c)
    return out


def chunks_from_bounds(bounds, total):
    """Chunk sizes from candidate boundaries: sorted, deduplicated, clipped to [0, total],
    with 0 and total always included; a zero-length axis is one empty chunk."""
    if total == 0:
        return (0,)
    b = sorted({min(max(v, 0), total) for v in bounds} | {0, total})
    return tuple(hi - lo for lo, hi in zip(b, b[1:]))


def merge_intervals(intervals):
    """Drop empty intervals and join touching ones: [(0, 2), (2, 4), (6, 6)] -> [(0, 4)]."""
    out = []
    for lo, hi in intervals:
        if hi <= lo:
            continue
        if out and out[-1][1] == lo:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def pieces_of(bounds, intervals):
    """The (block index, start, stop) pieces, local to each block, that read the
    intervals in order; [] for nothing to read."""
    pieces = []
    for lo, hi in merge_intervals(intervals):
        j = bisect.bisect_right(bounds, lo) - 1
        while lo < hi:
            while bounds[j + 1] <= lo:  # zero-size chunks
                j += 1
            stop = min(hi, bounds[j + 1])
            pieces.append((j, lo - bounds[j], stop - bounds[j]))
            lo = stop
    return pieces


def copy_piece(bounds, block):
    """A copy of one piece of a block, so that the block itself can be released as soon as
    its own output is computed (a view would keep the whole block alive)."""
    return np.array(block[tuple(slice(lo, hi) for lo, hi in bounds) + (Ellipsis,)])


def gather(arrays, srcs, lengths, dtype):
    """The region an output block reads.  lengths[a] are the lengths of its successive
    pieces along axis a; arrays holds what each combination of pieces (C order) is read
    from, and srcs how: None (the array is the piece), ("slice", bounds) (a block, the
    piece's bounds in it) or ("item", k) (a tuple of pieces, the k-th).  A region of one
    piece is a view; more pieces are copied into a new array; nothing to read is a new
    empty array."""
    if not arrays:
        return np.empty(tuple(sum(axis) for axis in lengths), dtype)
    views = []
    for a, src in zip(arrays, srcs):
        if src is not None:
            a = a[tuple(slice(lo, hi) for lo, hi in src[1]) + (Ellipsis,)] if src[0] == "slice" else a[src[1]]
        views.append(a)
    if len(views) == 1:
        return views[0]
    starts = []
    for axis in lengths:
        offs = [0]
        for n in axis:
            offs.append(offs[-1] + n)
        starts.append(offs)
    region = np.empty(tuple(offs[-1] for offs in starts), dtype)
    for view, combo in zip(views, itertools.product(*(range(len(axis)) for axis in lengths))):
        region[tuple(slice(starts[a][k], starts[a][k + 1]) for a, k in enumerate(combo))] = view
    return region


def run_block(kernel, params, dtype, srcs, lengths, carry, main, arrays, *scheduled_with):
    """One output block: gather its region, run the operator's kernel on it.  With carry
    (the bounds of pieces of its main block, arrays[main], that later blocks read), it
    returns the pair (block, copies of those pieces).  scheduled_with: copies of pieces
    of the main block made for other blocks, which this one waits for but does not read."""
    out = kernel(gather(arrays, srcs, lengths, dtype), params)
    if carry is None:
        return out
    block = arrays[main]
    return out, tuple(np.array(block[tuple(slice(lo, hi) for lo, hi in b) + (Ellipsis,)]) for b in carry)


def first(value, *after):
    """value, once the tasks after have run (they read the rest of value's task)."""
    return value


def region_layers(x, name, out_chunks, plan, kernel, causal=False):
    """The graph layers of an operator over x: {layer name: (tasks, names of the new layers
    it reads)}, the output blocks being the keys (name, *index) of layer `name`.

    plan(index) gives, for the output block at index, either ("run", intervals, params):
    intervals[a] is the list of (start, stop) input intervals read along axis a,
    concatenated in order, and params is handed to kernel(region, params); or
    ("alias", input_index) when the output block *is* that input block unchanged: the
    layer then refers to it and runs nothing.

    Memory.  A task reads directly the blocks it reads whole and the block it reads most
    of (its *main* block); every other piece (a halo from a neighbour, the far end of an
    axis for wrap padding) reaches it as a small copy, so that a block is held only until
    its own output is made, not until every neighbour that reads its edges has run.

    - Otherwise a piece is a copy task of its own, made (with every other copy cut from
      the same block) before the output whose main block it is, so that block is
      released with that output.  But an output still waits for the neighbours it reads:
      if Dask's ordering reads the blocks of a row before the row they need, a row of
      blocks waits.  Dask's ordering is a heuristic, and for halo graphs it often does.
    - So with causal=True, where the plan promises that every output block reads pieces
      only of blocks whose own output comes earlier (in C order of the output index;
      max_pool assigns each window to the block holding its last element), the task
      making a block's output also copies the pieces of its main block that later blocks
      read, and they read them from it.  Every output then runs after the ones before it
      along each coupled axis (a wavefront, lines of blocks in parallel): whatever order
      Dask picks, a block is read just before its output is made, and only the thin
      edges behind the wavefront are held, never a row of blocks.  Peak memory does not
      grow with chunks per row.
    """
    bounds = [bounds_of(c) for c in x.chunks]
    dtype = x.dtype
    wname, cname, pname = name + "-work", name + "-carry", name + "-pieces"
    plans = {}
    for index in itertools.product(*(range(len(c)) for c in out_chunks)):
        p = plan(index)
        if p[0] == "alias":
            plans[index] = ("alias", tuple(p[1]))
            continue
        _, intervals, params = p
        per_axis = [pieces_of(bounds[a], iv) for a, iv in enumerate(intervals)]
        plans[index] = ("run", per_axis, params)
    coupled = {a for p in plans.values() if p[0] == "run" for a, axis in enumerate(p[1])
               if len({blk for blk, _, _ in axis}) > 1}

    layer, pieces, piece_keys = {}, {}, {}
    cuts = {}     # input block -> keys of the copies of its pieces
    owner = {}    # input block -> the output index whose main block it is
    reads = {}    # output index -> (the combinations of pieces it reads, the main one's position)
    for index, p in plans.items():
        if p[0] == "alias":
            continue
        per_axis = p[1]
        if any(not axis for axis in per_axis):
            continue
        combos = list(itertools.product(*per_axis))
        sizes = [math.prod(hi - lo for _, lo, hi in combo) for combo in combos]
        main = sizes.index(max(sizes))
        reads[index] = (combos, main)
        owner.setdefault(tuple(c[0] for c in combos[main]), index)
    # Blocks along a coupled axis form lines, as many as the rest of the grid (batch,
    # channels, other spatial axes) has blocks.  A single line (a long 1-d signal, one
    # column of blocks) holds a couple of blocks whatever the order, and its blocks run in
    # parallel: copy tasks.  Otherwise Dask's ordering can hold about two blocks per line
    # (a row of blocks or more): carry, and the lines run in parallel, each in order.
    lines = math.prod(len(c) for a, c in enumerate(x.chunks) if a not in coupled)
    carrying = causal and (len(coupled) >= 2 or (len(coupled) == 1 and lines > 1))
    carries = {}  # owner output index -> list of piece bounds its task copies for later blocks

    tasks = {}
    for index, p in plans.items():
        key = (name,) + index
        if p[0] == "alias":
            layer[key] = (x.name,) + p[1]
            continue
        per_axis, params = p[1], p[2]
        lengths = tuple(tuple(hi - lo for _, lo, hi in axis) for axis in per_axis)
        if index not in reads:
            # An empty region (a block of padding only): read nothing.
            layer[key] = (functools.partial(run_block, kernel, params, dtype, (), lengths, None, None), [])
            continue
        combos, main = reads[index]
        keys, srcs = [], []
        for k, combo in enumerate(combos):
            blk = tuple(c[0] for c in combo)
            src = tuple((lo, hi) for _, lo, hi in combo)
            whole = all(lo == 0 and hi == x.chunks[a][blk[a]] for a, (lo, hi) in enumerate(src))
            if whole or k == main:
                keys.append((x.name,) + blk)
                srcs.append(None if whole else ("slice", src))
                continue
            o = owner.get(blk)
            if carrying and o is not None and o < index:
                bl = carries.setdefault(o, [])
                if src not in bl:
                    bl.append(src)
                keys.append((cname,) + o)
                srcs.append(("item", bl.index(src)))
                continue
            pkey = piece_keys.get((blk, src))
            if pkey is None:
                pkey = piece_keys[(blk, src)] = (pname, len(piece_keys))
                pieces[pkey] = (functools.partial(copy_piece, src), (x.name,) + blk)
                cuts.setdefault(blk, []).append(pkey)
            keys.append(pkey)
            srcs.append(None)
        tasks[index] = (kernel, params, tuple(srcs), lengths, keys, main)

    work = {}
    for index, (kern, params, srcs, lengths, keys, main) in tasks.items():
        key = (name,) + index
        blk = tuple(c[0] for c in reads[index][0][main])
        # A task also waits for the copies cut from its main block, which it does not
        # read: so they are made while that block is in memory, and the block is released
        # with this output instead of waiting for the neighbours that read them (Dask's
        # ordering would otherwise leave them, and the block, for later).
        extra = [pk for pk in cuts.get(blk, ()) if pk not in keys] if owner.get(blk) == index else []
        if index in carries:
            func = functools.partial(run_block, kern, params, dtype, srcs, lengths, tuple(carries[index]), main)
            work[(wname,) + index] = (func, keys, extra) if extra else (func, keys)
            work[(cname,) + index] = (operator.getitem, (wname,) + index, 1)
            # The output waits for the carried pieces to be taken, so the pair (and the
            # main block inside the task) is not held until the later blocks run.
            layer[key] = (first, (operator.getitem, (wname,) + index, 0), (cname,) + index)
            continue
        func = functools.partial(run_block, kern, params, dtype, srcs, lengths, None, None)
        layer[key] = (func, keys, extra) if extra else (func, keys)
    out = {name: (layer, tuple(n for n, d in ((wname, work), (pname, pieces)) if d))}
    if work:  # the blocks that carry pieces, and those pieces (keys (cname, *index))
        out[wname] = (work, (pname,) if pieces else ())
    if pieces:
        out[pname] = (pieces, ())
    return out


def new_array(layers, inputs, name, chunks, dtype):
    """A Dask array whose blocks are the keys of layers[name]; layers maps each new layer's
    name to (its tasks, the names of the new layers it reads), and every new layer also
    reads the input arrays' graphs."""
    graph = HighLevelGraph.merge(*[x.__dask_graph__() for x in inputs])
    all_layers, all_deps = dict(graph.layers), dict(graph.dependencies)
    input_layers = set().union(*[x.__dask_layers__() for x in inputs])
    for lname, (tasks, reads) in layers.items():
        all_layers[lname] = tasks
        all_deps[lname] = set(reads) | input_layers
    return Array(HighLevelGraph(all_layers, all_deps), name, chunks, meta=np.empty((0,) * len(chunks), dtype))
