"""dmlc.gather (DirectML GATHER).

gather is a Cython function (dmlc._gather), with its signature and docstring, so a small
call runs no Python frame; this module is its public home.
"""
from dmlc._gather import gather

__all__ = ["gather"]

# help(), pickle and Sphinx name it where users import it from.
gather.__module__ = __name__
