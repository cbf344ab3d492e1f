"""dmlc.reverse_subsequences (DirectML REVERSE_SUBSEQUENCES).

It is a Cython function (dmlc._reverse), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._reverse import reverse_subsequences

__all__ = ["reverse_subsequences"]

# help(), pickle and Sphinx name it where users import it from.
reverse_subsequences.__module__ = __name__
