"""dmlc.pad (DirectML PADDING1).

pad is a Cython function (dmlc._padding), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._enums import PaddingMode, enum_value
from dmlc._padding import pad

__all__ = ["pad"]

# help(), pickle and Sphinx name it where users import it from.
pad.__module__ = __name__


def _mode(mode):
    return enum_value(mode, PaddingMode, "pad", "mode")
