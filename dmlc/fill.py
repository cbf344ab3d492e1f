"""dmlc.fill_constant and dmlc.fill_sequence (DirectML FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE).

They are Cython functions (dmlc._fill), with their signatures and docstrings, so a small
call runs no Python frame; this module is their public home.
"""
from dmlc._fill import fill_constant, fill_sequence

__all__ = ["fill_constant", "fill_sequence"]

# help(), pickle and Sphinx name them where users import them from.
fill_constant.__module__ = __name__
fill_sequence.__module__ = __name__
