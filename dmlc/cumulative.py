"""dmlc.cumsum and dmlc.cumprod (DirectML CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT).

They are Cython functions (dmlc._cumulative), with their signatures and docstrings, so a
small call runs no Python frame; this module is their public home.
"""
from dmlc._cumulative import cumprod, cumsum

__all__ = ["cumsum", "cumprod"]

# help(), pickle and Sphinx name them where users import them from.
cumsum.__module__ = __name__
cumprod.__module__ = __name__
