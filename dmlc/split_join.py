"""dmlc.split and dmlc.join (DirectML SPLIT / JOIN)."""
from typing import List, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

import operator

from dmlc._args import index_of
from dmlc._split_join import join as _join
from dmlc._split_join import split as _split

__all__ = ["split", "join"]


def _sections_or_sizes(value, fname):
    """(sections, None) for an int, (None, [sizes]) for a sequence of ints."""
    if isinstance(value, bool):
        raise TypeError(f"{fname}: sections_or_sizes must be an int or a sequence of ints, not bool")
    try:
        return operator.index(value), None
    except TypeError:
        pass
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{fname}: sections_or_sizes must be an int or a sequence of ints, "
                        f"not {type(value).__name__}") from None
    return None, [index_of(v, fname, f"sizes[{i}]") for i, v in enumerate(items)]


def split(x: ArrayLike, sections_or_sizes: Union[int, Sequence[int]], axis: int, *,
          out: Optional[Sequence[np.ndarray]] = None) -> List[np.ndarray]:
    """Split an array into parts along an axis (DirectML SPLIT).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    sections_or_sizes : int or sequence of ints
        An int ``k`` splits ``x.shape[axis]`` into ``k`` equal parts (as ``np.split``; it
        must divide the axis).  A sequence gives the size of each part on ``axis``
        (DirectML's output sizes, ``torch.split``'s list form, *not* ``np.split``'s split
        points); the sizes must sum to ``x.shape[axis]`` and may be 0 (an empty part).
    axis : int
        The axis to split; negative values count from the end.
    out : list of ndarray or writable CPU tensors, optional
        One array per part, each with x's dtype and the part's shape.  They may be views
        with any strides (into one larger array, say), PyTorch tensors, or any objects
        with ``__dlpack__``, the array interface or the buffer protocol.

    Returns
    -------
    list of ndarray
        The parts, in order (``out``'s arrays if given); one part is a copy of ``x``.
        Each is a new array, never a view of ``x``.

    See Also
    --------
    join : the inverse.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    >>> [p[0, 0].tolist() for p in dmlc.split(x, [2, 1, 3], axis=2)]
    [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]
    >>> [p.ravel().tolist() for p in dmlc.split(x, 2, axis=-1)]
    [[1.0, 3.0, 5.0, 7.0, 9.0, 11.0], [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]]
    """
    if type(sections_or_sizes) is int:  # the common case without a call; the rest as documented
        sections, sizes = sections_or_sizes, None
    else:
        sections, sizes = _sections_or_sizes(sections_or_sizes, "split")
    try:
        return _split(x, sections, sizes, axis if type(axis) is int else index_of(axis, "split", "axis"), out, "split")
    except MemoryError as e:
        if e.args:  # NumPy's and the core's say what they could not allocate
            raise
        # Python's own lists of parts say nothing: 2**32 - 1 sections of an empty axis are
        # 2**32 - 1 arrays, and even the list holding them does not fit.
        count = sections if sections is not None else len(sizes)
        raise MemoryError(f"split: not enough memory for {count} parts (one array each)") from None


def join(arrays: Sequence[ArrayLike], axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Join arrays along an axis (DirectML JOIN), the inverse of :func:`split`.

    Parameters
    ----------
    arrays : sequence of array_like
        At least one array; all with the same dtype (mixed dtypes raise ``TypeError``:
        nothing is promoted) and the same number of dimensions (1 to 8), with equal sizes
        except on ``axis``.  Arrays may be views into one buffer, or overlap each other.
    axis : int
        The axis to join along; negative values count from the end.
    out : ndarray or writable CPU tensor, optional
        Where to write the result (any strides: a slice of a larger array, say; a PyTorch
        tensor or any object with ``__dlpack__``, the array interface or the buffer
        protocol), written in place and returned.

    Returns
    -------
    ndarray
        ``np.concatenate(arrays, axis)`` (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.join([np.array([[1, 2]]), np.array([[3, 4], [5, 6]])], axis=0)
    array([[1, 2],
           [3, 4],
           [5, 6]])
    """
    if isinstance(arrays, (list, tuple)):
        items = arrays
    else:
        try:
            items = list(arrays)
        except TypeError:
            raise TypeError(f"join: arrays must be a sequence of arrays, not {type(arrays).__name__}") from None
    return _join(items, axis if type(axis) is int else index_of(axis, "join", "axis"), out, "join")
