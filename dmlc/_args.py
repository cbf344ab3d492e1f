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
