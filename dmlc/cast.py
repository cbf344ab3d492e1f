"""dmlc.cast (DirectML CAST).

cast is a Cython function (dmlc._cast), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._cast import cast

__all__ = ["cast"]

# help(), pickle and Sphinx name it where users import it from.
cast.__module__ = __name__
