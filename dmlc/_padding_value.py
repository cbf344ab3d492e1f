"""The padding value's bytes in x's dtype, as dmlc.pad documents the conversion
(dmlc._padding calls value_bytes for any value but the default 0)."""
import decimal
import math
import numbers
import struct
import sys

import numpy as np

_FLOAT_FORMATS = {2: "=e", 4: "=f", 8: "=d"}
_ZEROS = {1: b"\0", 2: b"\0" * 2, 4: b"\0" * 4, 8: b"\0" * 8}


def _real(value, fname="pad"):
    """value as a Python int or float (exact for integers), else TypeError."""
    if isinstance(value, (np.ndarray, np.generic)):
        if np.ndim(value) != 0:
            raise TypeError(f"{fname}: value must be a real number, not an array of shape {np.shape(value)}")
        value = value.item()
    if isinstance(value, numbers.Integral):
        return int(value)  # bool: 0 or 1, as NumPy
    if isinstance(value, (numbers.Real, decimal.Decimal)):
        # float, or Fraction/Decimal, which truncation must see exactly, not as a float.
        f = float(value)
        return value if math.isfinite(f) else f
    raise TypeError(f"{fname}: value must be a real number, not {type(value).__name__}")


def value_bytes(value, dtype, fname="pad"):
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
        v = _real(value, fname)
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
