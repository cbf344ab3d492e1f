"""dmlc.gather, dmlc.gather_elements, dmlc.scatter_elements, dmlc.gather_nd and
dmlc.scatter_nd (DirectML GATHER, GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND1 and
SCATTER_ND).

Each is a Cython function (dmlc._gather), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._gather import gather, gather_elements, gather_nd, scatter_elements, scatter_nd

__all__ = ["gather", "gather_elements", "scatter_elements", "gather_nd", "scatter_nd"]

# help(), pickle and Sphinx name it where users import it from.
for _f in (gather, gather_elements, scatter_elements, gather_nd, scatter_nd):
    _f.__module__ = __name__
del _f
