"""dmlc.avg_pool (DirectML AVERAGE_POOLING1).

avg_pool is a Cython function (dmlc._average_pooling), with its signature and docstring,
so a small call runs no Python frame; this module is its public home.
"""
from dmlc._average_pooling import avg_pool

__all__ = ["avg_pool"]

# help(), pickle and Sphinx name it where users import it from.
avg_pool.__module__ = __name__
