"""Argument normalisation shared by the public functions."""
import operator


def index_of(value, fname, argname):
    """value as a Python int (anything with __index__), else TypeError naming the argument."""
    if isinstance(value, bool):
        raise TypeError(f"{fname}: {argname} must be an int, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{fname}: {argname} must be an int, not {type(value).__name__}") from None


def ints_per_axis(values, n, fname, argname, lo, hi, per="dimension"):
    """values, one int for all n axes or a sequence of n ints, as a list of Python ints in
    [lo, hi]; ValueError/TypeError name fname, argname and the axis."""
    # The common cases first, without formatting a name per axis for messages never raised.
    if type(values) is int:
        if lo <= values <= hi:
            return [values] * n
    elif (type(values) is list or type(values) is tuple) and len(values) == n:
        out = list(values)
        for v in out:
            if type(v) is not int or v < lo or v > hi:
                break
        else:
            return out
    if isinstance(values, bool):
        raise TypeError(f"{fname}: {argname} must be an int or a sequence of ints, not bool")
    if hasattr(values, "__index__") and not (hasattr(values, "ndim") and values.ndim > 0):
        values = [index_of(values, fname, argname)] * n
        where = [argname] * n
    else:
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise TypeError(f"{fname}: {argname} must be an int or a sequence of ints, not {type(values).__name__}")
        values = list(values)
        if len(values) != n:
            raise ValueError(f"{fname}: {argname} has {len(values)} values, expected {n} (one per {per} of x)")
        where = [f"{argname}[{i}]" for i in range(n)]
        values = [index_of(v, fname, w) for v, w in zip(values, where)]
    for v, w in zip(values, where):
        if v < lo or v > hi:
            raise ValueError(f"{fname}: {w} is {v}, expected {lo} to {hi}")
    return values


def check_out(out, shape, dtype):
    """out as the core's bindings check it (the same messages), for results computed in Python."""
    import numpy as np
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"out has dtype {out.dtype}, expected {dtype}")
    if out.shape != shape:
        raise ValueError(f"out has shape {out.shape}, expected {shape}")
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    return out


def axis_of(axis, ndim, fname, argname="axis"):
    """axis as an int in [0, ndim), counted from the end when negative; TypeError for a
    non-int (bool included), ValueError outside [-ndim, ndim)."""
    a = index_of(axis, fname, argname)
    if not -ndim <= a < ndim:
        raise ValueError(f"{fname}: {argname} is {a}, expected {-ndim} to {ndim - 1} (x has {ndim} dimensions)")
    return a + ndim if a < 0 else a


def flag_of(value, fname, argname):
    """A bool argument: True/False (or NumPy's bool); anything else is a TypeError."""
    if value is True or value is False:
        return value
    import numpy as np
    if isinstance(value, np.bool_):
        return bool(value)
    raise TypeError(f"{fname}: {argname} must be a bool, not {type(value).__name__}")


_INDEX_DTYPE_OF_NAME = {}  # "int64" -> np.dtype("int64"): the names skip np.dtype() on each call


def indices_dtype_of(value, fname, argname="indices_dtype"):
    """The NumPy dtype of an index output: "int64", "int32", "uint64", "uint32" or those
    dtypes; TypeError for what is not a dtype, ValueError for another dtype."""
    if value.__class__ is str:
        dt = _INDEX_DTYPE_OF_NAME.get(value)
        if dt is not None:
            return dt
    import numpy as np
    if isinstance(value, bool) or value is None:
        raise TypeError(f"{fname}: {argname} must be a dtype, not {type(value).__name__}")
    try:
        dt = np.dtype(value)
    except TypeError:
        raise TypeError(f"{fname}: {argname} must be a dtype, not {type(value).__name__}") from None
    # kind and itemsize rather than dt.name, which NumPy works out in Python on each read.
    if dt.kind not in "iu" or dt.itemsize not in (4, 8) or not dt.isnative:
        raise ValueError(f"{fname}: {argname} is {dt}, expected int64, int32, uint64 or uint32")
    if value.__class__ is str:
        _INDEX_DTYPE_OF_NAME[value] = dt
    return dt


# The eleven dtypes of DirectML's tensors (the core's src/dtypes.def has the same list).
_DTYPE_CHARS = frozenset("efdbhilqBHILQ")


def dtype_arg(dtype, fname, argname="dtype"):
    """dtype as a native-order numpy.dtype of the eleven dmlc supports (anything np.dtype()
    accepts: "f2", np.float16, "int64"...); bool, complex and unknown names are a TypeError."""
    import numpy as np
    if dtype is None:
        raise TypeError(f"{fname}: {argname} must name one of dmlc's dtypes, not None")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{fname}: {argname} {dtype!r} is not a NumPy dtype") from None
    if dt.char not in _DTYPE_CHARS or dt.itemsize > 8:
        raise TypeError(f"{fname}: {argname} is {dt}, which dmlc does not support (expected float16, float32, "
                        f"float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64)")
    return dt.newbyteorder("=")
