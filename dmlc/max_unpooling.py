"""dmlc.max_unpool (DirectML MAX_UNPOOLING)."""
from typing import Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

from dmlc._max_unpooling import max_unpool as _max_unpool

__all__ = ["max_unpool"]


def max_unpool(x: ArrayLike, indices: ArrayLike, output_shape: Sequence[int], *,
               out: Optional[np.ndarray] = None) -> np.ndarray:
    """Scatter values back to where max pooling found them (DirectML MAX_UNPOOLING).

    Parameters
    ----------
    x : array_like, shape (N, C, *spatial)
        The values: 1 to 3 spatial axes (3 to 5 dimensions in all), any of the eleven
        supported dtypes.
    indices : array_like of uint32 or uint64, x's shape
        Where each value goes: its flat row-major index into the whole output, batch and
        channel included, as ``dmlc.max_pool(..., return_indices=True)`` returns them.
    output_shape : sequence of int
        The output's shape: x's N and C, then spatial sizes of its own (usually the
        pooled array's shape).  Unpooling cannot derive it: several input sizes pool to
        the same output.
    out : ndarray, optional
        Where to write the result: x's dtype and ``output_shape``; it may be a strided view.

    Returns
    -------
    ndarray
        Shape ``output_shape``, x's dtype: zeros, with ``out.flat[indices[i]] = x.flat[i]``
        for every element i of x in row-major order.

    Notes
    -----
    The rules are SPEC's where DirectML leaves them open: of two elements with the same
    index the later one (in x's row-major order) wins, and an index past the output (the
    all-ones index of a pooling window that held only padding included) writes nothing.
    Indices count through the whole output as DirectML's (and ONNX's) do; PyTorch's
    ``max_unpool2d`` counts within one ``(n, c)`` plane: add ``(n*C + c) * prod(spatial)``.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[1, 8, 2, 3], [5, 4, 9, 0], [7, 7, 6, 11], [7, 2, 6, 1]], np.float32)[None, None]
    >>> v, i = dmlc.max_pool(x, 2, return_indices=True)
    >>> dmlc.max_unpool(v, i, x.shape)[0, 0]
    array([[ 0.,  8.,  0.,  0.],
           [ 0.,  0.,  9.,  0.],
           [ 7.,  0.,  0., 11.],
           [ 0.,  0.,  0.,  0.]], dtype=float32)
    """
    return _max_unpool(x, indices, output_shape, out, "max_unpool")
