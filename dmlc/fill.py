"""dmlc.fill_constant, dmlc.fill_sequence, dmlc.diagonal_matrix and dmlc.diagonal_fill (DirectML
FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE, DIAGONAL_MATRIX(1)).

They are Cython functions (dmlc._fill), with their signatures and docstrings, so a small
call runs no Python frame; this module is their public home.
"""
from dmlc._fill import diagonal_fill, diagonal_matrix, fill_constant, fill_sequence

__all__ = ["fill_constant", "fill_sequence", "diagonal_matrix", "diagonal_fill"]

# help(), pickle and Sphinx name them where users import them from.
fill_constant.__module__ = __name__
fill_sequence.__module__ = __name__
diagonal_matrix.__module__ = __name__
diagonal_fill.__module__ = __name__
