"""NumPy's .npy files as Dask arrays, read and written block by block in bounded memory.

``dask.array.from_array(np.memmap(...))`` looks bounded but is not: Dask copies an
array-like that has ``.copy()`` when it builds the graph, so a 2 GiB file costs 2 GiB before
anything runs; and a map of a whole file that lives as long as the computation counts in the
process's RSS every page any task touched.  Here each task maps the file, copies its own
block out (or in) and unmaps it, so a computation holds a few blocks per worker however
large the file.  The tasks carry the file's path, not its data: on a dask.distributed
cluster the workers must see the file at that path (a shared file system).
"""
import itertools
import math
import os

import numpy as np
from dask.array.core import Array, normalize_chunks
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from dmlc.model import read_npy_header

__all__ = ["from_npy", "to_npy"]


def _header(path, fname):
    """(shape, fortran_order, dtype, data offset) of an .npy file, checked against its size."""
    with open(path, "rb") as f:
        try:
            shape, fortran, dtype = read_npy_header(f)
        except (ValueError, EOFError) as e:
            raise ValueError(f"{fname}: {os.fspath(path)!r} is not an .npy file dmlc can map: {e}") from None
        return shape, fortran, dtype, f.tell()


def _map(path, offset, shape, dtype, fortran, mode):
    return np.memmap(path, dtype, mode, offset=offset, shape=shape, order="F" if fortran else "C")


def _read_block(path, offset, shape, dtype, fortran, region):
    """One block of the file, copied out of a map that lives only for this call."""
    if any(s.stop == s.start for s in region):
        return np.empty(tuple(s.stop - s.start for s in region), dtype)
    whole = _map(path, offset, shape, dtype, fortran, "r")
    block = np.array(whole[region], dtype, order="C")  # (a 0-d region gives a scalar of native order)
    del whole  # unmapped now: the pages it touched leave this process's RSS
    return block


class _NpyTarget:
    """The target of ``dask.array.store``: each block written through a map of its own."""

    def __init__(self, path, offset, shape, dtype):
        self.path, self.offset, self.shape, self.dtype = path, offset, shape, dtype
        self.ndim = len(shape)

    def __setitem__(self, region, block):
        if any(s.stop == s.start for s in region):
            return
        whole = _map(self.path, self.offset, self.shape, self.dtype, False, "r+")
        whole[region] = block
        del whole  # no flush: the OS writes the pages back, and this process does not hold them


def from_npy(path, chunks="auto"):
    """An .npy file as a Dask array, each block read from the file by its own task.

    Parameters
    ----------
    path : str or os.PathLike
        An .npy file (format 1.0 or 2.0, any numeric dtype, C or Fortran order).
    chunks
        As :func:`dask.array.from_array`'s: ``"auto"`` (Dask's ``array.chunk-size``), a
        block shape, or the chunks of each axis.

    Returns
    -------
    dask.array.Array
        Its blocks are read when computed, each through a map of the file that lives only
        while the block is copied out, so a computation holds a few blocks per worker
        whatever the file's size.

    >>> import numpy as np, dmlc.dask as dd, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "x.npy")
    >>> np.save(path, np.arange(12, dtype=np.float32).reshape(3, 4))
    >>> x = dd.from_npy(path, chunks=(2, 2))
    >>> x.chunks
    ((2, 1), (2, 2))
    >>> x[1:, 1:].compute()
    array([[ 5.,  6.,  7.],
           [ 9., 10., 11.]], dtype=float32)
    """
    path = os.path.abspath(os.fspath(path))
    shape, fortran, dtype, offset = _header(path, "from_npy")
    chunks = normalize_chunks(chunks, shape, dtype=dtype)
    name = f"dmlc-from-npy-{tokenize(path, os.stat(path).st_mtime_ns, shape, fortran, dtype.str, offset, chunks)}"
    bounds = [np.cumsum((0,) + c).tolist() for c in chunks]
    graph = {}
    for index in itertools.product(*(range(len(c)) for c in chunks)):
        region = tuple(slice(b[i], b[i + 1]) for b, i in zip(bounds, index))
        graph[(name,) + index] = (_read_block, path, offset, shape, dtype, fortran, region)
    return Array(HighLevelGraph.from_collections(name, graph, dependencies=()), name, chunks, dtype)


def to_npy(path, x, *, compute=True):
    """Write the Dask array x to the .npy file path (C order), block by block.

    The file is created at its full size first (sparse where the file system allows), then
    ``dask.array.store`` writes each block through a map of its own, so writing holds a
    few blocks per worker whatever the array's size.  With ``compute=False`` the writes
    are returned as a Dask object to compute later (with others, in one pass).

    >>> import numpy as np, dask.array as da, dmlc.dask as dd, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "y.npy")
    >>> dd.to_npy(path, da.arange(6, chunks=4).reshape(2, 3))
    >>> np.load(path)
    array([[0, 1, 2],
           [3, 4, 5]])
    """
    import dask.array as da

    x = da.asarray(x)
    if any(math.isnan(c) for axis in x.chunks for c in axis):
        raise ValueError("to_npy: x has unknown chunk sizes (NaN); call x.compute_chunk_sizes() first")
    if x.dtype.hasobject:
        raise TypeError(f"to_npy: x has dtype {x.dtype}; an .npy file of Python objects cannot be written by blocks")
    path = os.fspath(path)
    created = np.lib.format.open_memmap(path, "w+", x.dtype, x.shape)
    offset = created.offset
    del created
    return da.store(x, _NpyTarget(path, offset, x.shape, x.dtype), lock=False, compute=compute)
