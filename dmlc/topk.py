"""dmlc.top_k (DirectML TOP_K1; TOP_K is TOP_K1 with DECREASING).

It is a Cython function (dmlc._topk), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._topk import top_k

__all__ = ["top_k"]

# help(), pickle and Sphinx name it where users import it from.
top_k.__module__ = __name__
