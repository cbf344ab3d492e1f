"""dmlc.identity (DirectML ELEMENT_WISE_IDENTITY, with its optional DML_SCALE_BIAS).

identity is a Cython function (dmlc._element_wise_identity), with its signature and
docstring, so a small call runs no Python frame; this module is its public home.
"""
from dmlc._element_wise_identity import identity

__all__ = ["identity"]

# help(), pickle and Sphinx name it where users import it from.
identity.__module__ = __name__
