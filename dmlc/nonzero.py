"""dmlc.nonzero_coordinates (DirectML NONZERO_COORDINATES).

It is a Cython function (dmlc._nonzero), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._nonzero import nonzero_coordinates

__all__ = ["nonzero_coordinates"]

# help(), pickle and Sphinx name it where users import it from.
nonzero_coordinates.__module__ = __name__
