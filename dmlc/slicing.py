"""dmlc.slice (DirectML SLICE1).

slice is a Cython function (dmlc._slicing), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._slicing import slice

__all__ = ["slice"]

# help(), pickle and Sphinx name it where users import it from.
slice.__module__ = __name__
