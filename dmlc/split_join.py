"""dmlc.split and dmlc.join (DirectML SPLIT / JOIN).

Both are Cython functions (dmlc._split_join), with their signatures and docstrings, so a
small call runs no Python frame; this module is their public home.
"""
from dmlc._split_join import _sections_or_sizes, join, split  # noqa: F401 (dmlc.dask uses _sections_or_sizes)

__all__ = ["split", "join"]

# help(), pickle and Sphinx name them where users import them from.
split.__module__ = join.__module__ = __name__
