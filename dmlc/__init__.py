"""dmlc: DirectML's tensor operators, executed on the CPU.

NumPy-first functions (``depth_to_space``, ``pad``, ``split``, ``join``, ``max_pool``, ``identity``,
``slice``, ``tile``, ``max_unpool``, ``avg_pool``, ``lp_pool``, ...), a cffi handle on the shared library
for raw ``DML_*_OPERATOR_DESC`` structs (``dmlc.ffi``), and the locations
of the C header and library for C/C++ builds (``get_include``, ``get_library_path``).

Arrays from other libraries: every function reads any CPU object with ``__dlpack__``
(PyTorch, JAX, ...), the array interface or the buffer protocol in place, read-only ones
included, and ``out=`` may be any writable CPU object of those kinds (the call writes its
memory and returns it).  A tensor on another device, one that requires grad, and dtypes
dmlc lacks (bfloat16, bool, complex) raise ``TypeError``; a read-only ``out=`` and one
whose elements share memory raise ``ValueError``.  Results are NumPy arrays, which
``torch.from_dlpack`` and ``jax.numpy.from_dlpack`` take without a copy.
"""
import os as _os

try:
    from dmlc import _core
except ImportError as _e:  # pragma: no cover - exercised in a subprocess by the tests
    _here = _os.path.dirname(_os.path.abspath(__file__))
    if not any(f.startswith("_core.") and f.endswith((".so", ".pyd")) for f in _os.listdir(_here)):
        raise ImportError(
            f"dmlc is imported from an unbuilt source tree ({_here}): its compiled modules are missing. "
            f"Install it (pip install .) and run from another directory, or build it in place "
            f"(python setup.py build_ext --inplace).") from None
    raise

__version__ = _core.VERSION  # from directml_py.h's DMLC_VERSION_*, the one place it is written

if _core.library_version() != _core.HEADER_VERSION:
    v = _core.library_version()
    raise ImportError(
        f"dmlc {__version__} was built against directml_py.h version 0x{_core.HEADER_VERSION:06x}, "
        f"but the loaded libdirectml_py is version 0x{v:06x}; reinstall dmlc")

from dmlc._core import get_num_threads, set_num_threads  # noqa: E402
from dmlc._pool import (get_output_pool_limit, output_pool_info, release_output_pool,  # noqa: E402
                        set_output_pool_limit)
from dmlc._enums import AxisDirection, DepthSpaceOrder, InterpolationMode, PaddingMode  # noqa: E402
from dmlc.depth_space import depth_to_space, space_to_depth  # noqa: E402
from dmlc.max_pooling import max_pool  # noqa: E402
from dmlc.max_unpooling import max_unpool  # noqa: E402
from dmlc.average_pooling import avg_pool  # noqa: E402
from dmlc.lp_pooling import lp_pool  # noqa: E402
from dmlc.padding import pad  # noqa: E402
from dmlc.split_join import join, split  # noqa: E402
from dmlc.element_wise_identity import identity  # noqa: E402
from dmlc.slicing import slice  # noqa: E402
from dmlc.tiling import tile  # noqa: E402
from dmlc.gather import gather, gather_elements, gather_nd, scatter_elements, scatter_nd  # noqa: E402
from dmlc.one_hot import one_hot  # noqa: E402
from dmlc.resample import resample, upsample_2d  # noqa: E402
from dmlc.roi import roi_align, roi_pool  # noqa: E402
from dmlc.argminmax import argmax, argmin  # noqa: E402
from dmlc.cumulative import cumprod, cumsum  # noqa: E402
from dmlc.topk import top_k  # noqa: E402
from dmlc.nonzero import nonzero_coordinates  # noqa: E402
from dmlc.cast import cast  # noqa: E402
from dmlc.fill import diagonal_fill, diagonal_matrix, fill_constant, fill_sequence  # noqa: E402

_HERE = _os.path.dirname(_os.path.abspath(__file__))


def get_include() -> str:
    """The directory holding ``directml_py.h`` (pass it to the compiler with ``-I``)."""
    return _os.path.join(_HERE, "include")


def get_library_dir() -> str:
    """The directory holding the shared library ``libdirectml_py``."""
    return _HERE


def get_library_path() -> str:
    """The path of the shared library ``libdirectml_py`` (for ctypes, cffi and linkers)."""
    for name in ("libdirectml_py.so", "libdirectml_py.dylib", "directml_py.dll"):
        path = _os.path.join(_HERE, name)
        if _os.path.exists(path):
            return path
    raise FileNotFoundError(f"libdirectml_py is not in {_HERE}; reinstall dmlc")


def __getattr__(name):
    # dmlc.ffi imports cffi and opens the library: only when first asked for.
    if name == "ffi":
        import importlib
        return importlib.import_module("dmlc.ffi")
    raise AttributeError(f"module 'dmlc' has no attribute {name!r}")


__all__ = [
    "DepthSpaceOrder", "PaddingMode",
    "depth_to_space", "space_to_depth",
    "pad",
    "split", "join",
    "max_pool",
    "identity", "slice", "tile",
    "max_unpool", "avg_pool", "lp_pool",
    "gather", "gather_elements", "scatter_elements", "gather_nd", "scatter_nd",
    "one_hot",
    "InterpolationMode", "AxisDirection", "resample", "upsample_2d",
    "roi_pool", "roi_align",
    "argmax", "argmin",
    "cumsum", "cumprod",
    "top_k",
    "nonzero_coordinates",
    "cast", "fill_constant", "fill_sequence", "diagonal_matrix", "diagonal_fill",
    "get_include", "get_library_dir", "get_library_path", "get_num_threads", "set_num_threads",
    "get_output_pool_limit", "set_output_pool_limit", "output_pool_info", "release_output_pool",
]
