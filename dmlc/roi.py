"""dmlc.roi_pool (DirectML ROI_POOLING).

roi_pool is a Cython function (dmlc._roi), with its signature and docstring, so a small call
runs no Python frame; this module is its public home.
"""
from dmlc._roi import roi_pool

__all__ = ["roi_pool"]

# help(), pickle and Sphinx name it where users import it from.
roi_pool.__module__ = __name__
