"""dmlc.gather, dmlc.gather_elements and dmlc.scatter_elements (DirectML GATHER,
GATHER_ELEMENTS and SCATTER_ELEMENTS).

Each is a Cython function (dmlc._gather), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._gather import gather, gather_elements, scatter_elements

__all__ = ["gather", "gather_elements", "scatter_elements"]

# help(), pickle and Sphinx name it where users import it from.
for _f in (gather, gather_elements, scatter_elements):
    _f.__module__ = __name__
del _f
