"""dmlc.tile (DirectML TILE).

tile is a Cython function (dmlc._tiling), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._tiling import tile

__all__ = ["tile"]

# help(), pickle and Sphinx name it where users import it from.
tile.__module__ = __name__
