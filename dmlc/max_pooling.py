"""dmlc.max_pool (DirectML MAX_POOLING2).

max_pool is a Cython function (dmlc._max_pooling), with its signature and docstring, so a
small call runs no Python frame; this module is its public home.
"""
from dmlc._max_pooling import _indices_dtype, max_pool  # noqa: F401 (dmlc.dask uses _indices_dtype)

__all__ = ["max_pool"]

# help(), pickle and Sphinx name it where users import it from.
max_pool.__module__ = __name__
