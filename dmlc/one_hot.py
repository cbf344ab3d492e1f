"""dmlc.one_hot (DirectML ONE_HOT).

It is a Cython function (dmlc._one_hot), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._one_hot import one_hot

__all__ = ["one_hot"]

# help(), pickle and Sphinx name it where users import it from.
one_hot.__module__ = __name__
