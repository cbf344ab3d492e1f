"""dmlc.depth_to_space and dmlc.space_to_depth (DirectML DEPTH_TO_SPACE1 / SPACE_TO_DEPTH1).

Both are Cython functions (dmlc._depth_space), with their signatures and docstrings, so a
small call runs no Python frame; this module is their public home.
"""
from dmlc._depth_space import depth_to_space, space_to_depth
from dmlc._enums import DepthSpaceOrder, enum_value

__all__ = ["depth_to_space", "space_to_depth"]

# help(), pickle and Sphinx name them where users import them from.
depth_to_space.__module__ = space_to_depth.__module__ = __name__


def _order(order, fname):
    """order as a DepthSpaceOrder value (dmlc.dask's check, with the in-memory messages)."""
    return enum_value(order, DepthSpaceOrder, fname, "order")
