"""dmlc.argmax and dmlc.argmin (DirectML ARGMAX, ARGMIN).

They are Cython functions (dmlc._argminmax), with their signatures and docstrings, so a
small call runs no Python frame; this module is their public home.
"""
from dmlc._argminmax import argmax, argmin

__all__ = ["argmax", "argmin"]

# help(), pickle and Sphinx name them where users import them from.
argmax.__module__ = __name__
argmin.__module__ = __name__
