"""dmlc.lp_pool (DirectML LP_POOLING1).

lp_pool is a Cython function (dmlc._lp_pooling), with its signature and docstring, so a
small call runs no Python frame; this module is its public home.
"""
from dmlc._lp_pooling import lp_pool

__all__ = ["lp_pool"]

# help(), pickle and Sphinx name it where users import it from.
lp_pool.__module__ = __name__
