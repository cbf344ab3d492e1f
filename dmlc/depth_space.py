"""dmlc.depth_to_space and dmlc.space_to_depth (DirectML DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1)."""
from typing import Optional, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._depth_space import depth_space as _depth_space
from dmlc._enums import DepthSpaceOrder, enum_value

__all__ = ["depth_to_space", "space_to_depth"]


def _order(order, fname):
    return enum_value(order, DepthSpaceOrder, fname, "order")


def depth_to_space(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray:
    """Move blocks of channels into space (DirectML DEPTH_TO_SPACE1).

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        Any of the eleven supported dtypes; C must be divisible by ``block_size**2``.
    block_size : int
        Width and height of the moved blocks, at least 1.
    order : {"depth_column_row", "column_row_depth"} or DepthSpaceOrder
        ``depth_column_row`` (ONNX DCR, DirectML's DEPTH_TO_SPACE):
        ``out[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*Co + c, h, w]``;
        ``column_row_depth`` (ONNX CRD, PyTorch ``pixel_shuffle``):
        ``out[n, c, h*b+i, w*b+j] = x[n, c*b*b + i*b + j, h, w]``.
    out : ndarray or writable CPU tensor, optional
        Where to write the result, shape ``(N, C // b**2, H*b, W*b)`` and x's dtype: an
        ndarray, or a PyTorch tensor or any object with ``__dlpack__``, the array interface
        or the buffer protocol, written in place and returned.

    Returns
    -------
    ndarray
        The rearranged array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.depth_to_space(np.arange(4).reshape(1, 4, 1, 1), 2)[0, 0]
    array([[0, 1],
           [2, 3]])
    """
    return _depth_space(x, block_size, order, True, out, "depth_to_space")


def space_to_depth(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray:
    """Move blocks of space into channels (DirectML SPACE_TO_DEPTH1), the inverse of
    :func:`depth_to_space` with the same ``order``.

    Parameters
    ----------
    x : array_like, shape (N, C, H, W)
        H and W must be divisible by ``block_size``.
    block_size : int
        Width and height of the moved blocks, at least 1.
    order : {"depth_column_row", "column_row_depth"} or DepthSpaceOrder
        See :func:`depth_to_space`.
    out : ndarray or writable CPU tensor, optional
        Where to write the result, shape ``(N, C*b*b, H // b, W // b)`` (any object
        :func:`depth_to_space` takes as ``out``).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.space_to_depth(np.arange(4).reshape(1, 1, 2, 2), 2).ravel()
    array([0, 1, 2, 3])
    """
    return _depth_space(x, block_size, order, False, out, "space_to_depth")
