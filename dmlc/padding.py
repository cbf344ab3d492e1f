"""dmlc.pad (DirectML PADDING1)."""
import decimal
import math
import numbers
import struct
import sys
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._enums import PaddingMode, enum_value
from dmlc._padding import pad as _pad

__all__ = ["pad"]

_FLOAT_FORMATS = {2: "=e", 4: "=f", 8: "=d"}
_ZEROS = {1: b"\0", 2: b"\0" * 2, 4: b"\0" * 4, 8: b"\0" * 8}


def _mode(mode):
    return enum_value(mode, PaddingMode, "pad", "mode")


def _real(value):
    """value as a Python int or float (exact for integers), else TypeError."""
    if isinstance(value, (np.ndarray, np.generic)):
        if np.ndim(value) != 0:
            raise TypeError(f"pad: value must be a real number, not an array of shape {np.shape(value)}")
        value = value.item()
    if isinstance(value, numbers.Integral):
        return int(value)  # bool: 0 or 1, as NumPy
    if isinstance(value, (numbers.Real, decimal.Decimal)):
        # float, or Fraction/Decimal, which truncation must see exactly, not as a float.
        f = float(value)
        return value if math.isfinite(f) else f
    raise TypeError(f"pad: value must be a real number, not {type(value).__name__}")


def value_bytes(value, dtype):
    """The padding value as dtype's bytes, converted as the C core converts PADDING's
    FLOAT: integers truncate toward zero and saturate to the type's range, NaN gives 0;
    floats round to nearest even (overflowing to infinity).  Python ints are used exactly,
    so int64/uint64 values a float cannot hold survive."""
    size = dtype.itemsize
    if type(value) is int and value == 0:
        return _ZEROS[size]
    t = type(value)
    if t is int or t is float:
        v = value
    elif isinstance(value, np.generic) and value.dtype == dtype:
        return value.tobytes()  # already x's type: its bits exactly (a float16 NaN payload, say)
    else:
        v = _real(value)
    if dtype.kind == "f":
        if not isinstance(v, float):
            try:
                v = float(v)
            except OverflowError:  # an int beyond the float range
                v = math.inf if v > 0 else -math.inf
        try:
            return struct.pack(_FLOAT_FORMATS[size], v)
        except OverflowError:  # rounds past the type's largest finite value
            return struct.pack(_FLOAT_FORMATS[size], math.copysign(math.inf, v))
    info = np.iinfo(dtype)
    if isinstance(v, float):
        if math.isnan(v):
            v = 0
        elif math.isinf(v):
            v = info.max if v > 0 else info.min
    v = math.trunc(v)
    v = info.min if v < info.min else (info.max if v > info.max else v)
    return v.to_bytes(size, sys.byteorder, signed=info.min < 0)


def pad(x: ArrayLike, start_padding: Union[int, Sequence[int]], end_padding: Union[int, Sequence[int]], *,
        mode: Union[str, PaddingMode] = "constant", value: Union[int, float, np.generic] = 0,
        out: Optional[np.ndarray] = None) -> np.ndarray:
    """Pad an array at the start and end of every dimension (DirectML PADDING1).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.  Views with non-negative
        strides are read in place.
    start_padding, end_padding : int or sequence of int
        Elements added before and after each dimension (one per dimension of ``x``, or one
        int for all of them), 0 to 2**32 - 1.  Mirror and wrap padding may be wider than
        the dimension: it continues periodically.
    mode : {"constant", "edge", "reflection", "symmetric", "wrap"} or PaddingMode
        With ``t = o - start`` the input coordinate of output coordinate ``o`` and ``n``
        the input size, outside ``[0, n)``:

        - ``constant``: ``value``;
        - ``edge``: ``x[clip(t, 0, n-1)]``;
        - ``reflection`` (also ``"reflect"``, as ``np.pad``): mirror without repeating
          the edge, period ``2(n-1)``;
        - ``symmetric``: mirror repeating the edge, period ``2n``;
        - ``wrap``: ``x[t mod n]``.

        ``n == 1`` gives the single value in every mode but ``constant``.  These are
        ``np.pad``'s modes of the same names.
    value : real number, default 0
        The constant, converted to ``x.dtype``: integer dtypes truncate toward zero and
        saturate to the dtype's range (NaN gives 0); float dtypes round to nearest even.
        Python ints are converted exactly (an int64 beyond 2**53 stays exact), and a NumPy
        scalar of x's dtype is used bit for bit.  Ignored by the other modes.
    out : ndarray or writable CPU tensor, optional
        Where to write the result: x's dtype, shape ``x.shape + start + end``; an ndarray,
        or a PyTorch tensor or any object with ``__dlpack__``, the array interface or the
        buffer protocol, written in place and returned.

    Returns
    -------
    ndarray
        The padded array (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.pad(np.array([1, 2, 3]), 2, 3, mode="reflection")
    array([3, 2, 1, 2, 3, 2, 1, 2])
    >>> dmlc.pad(np.array([1, 2, 3], np.uint8), [1], [1], value=-5.5)
    array([0, 1, 2, 3, 0], dtype=uint8)
    """
    return _pad(x, start_padding, end_padding, mode, value, out, value_bytes, "pad")
