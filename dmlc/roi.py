"""dmlc.roi_pool and dmlc.roi_align (DirectML ROI_POOLING, ROI_ALIGN1).

They are Cython functions (dmlc._roi), with their signatures and docstrings, so a small call
runs no Python frame; this module is their public home.
"""
from dmlc._roi import roi_align, roi_pool

__all__ = ["roi_pool", "roi_align"]

# help(), pickle and Sphinx name them where users import them from.
roi_pool.__module__ = __name__
roi_align.__module__ = __name__
