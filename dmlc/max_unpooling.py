"""dmlc.max_unpool (DirectML MAX_UNPOOLING).

max_unpool is a Cython function (dmlc._max_unpooling), with its signature and docstring,
so a small call runs no Python frame; this module is its public home.
"""
from dmlc._max_unpooling import max_unpool

__all__ = ["max_unpool"]

# help(), pickle and Sphinx name it where users import it from.
max_unpool.__module__ = __name__
