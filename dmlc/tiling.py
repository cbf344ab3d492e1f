"""dmlc.tile (DirectML TILE)."""
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._args import check_out, index_of
from dmlc._tiling import tile as _tile

__all__ = ["tile"]


def tile(x: ArrayLike, repeats: Union[int, Sequence[int]], *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Repeat an array along each axis (DirectML TILE).

    ``out[o] = x[o mod x.shape]``: the output's axis ``i`` is ``repeats[i]`` copies of x's
    axis ``i`` one after the other, as ``np.tile``.

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    repeats : int or sequence of int
        Copies along each axis, each 1 to 2**32 - 1.  As in ``np.tile``, fewer values than
        x has dimensions are padded with 1s at the front (an int tiles the last axis only);
        unlike ``np.tile``, more values than dimensions are an error (DirectML's TILE keeps
        the rank: add axes to x first) and so is a repeat of 0.
    out : ndarray, optional
        Where to write the result: x's dtype, shape ``x.shape * repeats``.

    Returns
    -------
    ndarray
        The tiled array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.tile(np.array([[1, 2], [3, 4]]), [1, 2])
    array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    >>> dmlc.tile(np.array([[1, 2], [3, 4]]), 2).shape  # the last axis, as np.tile
    (2, 4)
    """
    a = x if type(x) is np.ndarray else np.asarray(x)
    nd = a.ndim
    if (type(repeats) is list or type(repeats) is tuple) and all(type(r) is int and 1 <= r <= 2**32 - 1 for r in repeats):
        reps = list(repeats)  # the common case, without formatting names for messages never raised
    elif isinstance(repeats, bool):
        raise TypeError("tile: repeats must be an int or a sequence of ints, not bool")
    else:
        if hasattr(repeats, "__index__") and not (isinstance(repeats, np.ndarray) and repeats.ndim > 0):
            reps, names = [index_of(repeats, "tile", "repeats")], ["repeats"]
        else:
            if isinstance(repeats, (str, bytes)) or not hasattr(repeats, "__len__"):
                raise TypeError(f"tile: repeats must be an int or a sequence of ints, not {type(repeats).__name__}")
            reps = [index_of(r, "tile", f"repeats[{i}]") for i, r in enumerate(repeats)]
            names = [f"repeats[{i}]" for i in range(len(reps))]
        for r, name in zip(reps, names):
            if r < 1 or r > 2**32 - 1:
                raise ValueError(f"tile: {name} is {r}, expected 1 to 4294967295")
    if len(reps) > nd:
        raise ValueError(f"tile: repeats has {len(reps)} values, but x has {nd} dimensions; DirectML's TILE keeps the "
                         f"rank (add axes to x to tile along new ones)")
    if nd == 0:  # repeats is empty: a copy of the one element
        if out is None:
            return a.copy()
        check_out(out, (), a.dtype)[...] = a
        return out
    return _tile(a, [1] * (nd - len(reps)) + reps, out, "tile")
