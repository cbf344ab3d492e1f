"""A cffi handle on libdirectml_py for callers that build raw DML_*_OPERATOR_DESC structs.

>>> from dmlc.ffi import ffi, lib
>>> lib.dmlcGetVersion() > 0
True

``ffi`` knows every declaration of ``directml_py.h`` (it reads the header's cdef blocks,
so the two cannot drift apart); ``lib`` is the opened library.
"""
import os
import re

import cffi

__all__ = ["ffi", "lib", "last_error", "cdef_source", "S_OK", "E_NOTIMPL", "E_POINTER", "E_INVALIDARG",
           "E_OUTOFMEMORY"]

from dmlc import get_include, get_library_path
from dmlc._core import HRESULTS

# The HRESULTs the core returns (directml_py.h's macros, which cffi's cdef cannot read).
S_OK = HRESULTS["S_OK"]
E_NOTIMPL = HRESULTS["E_NOTIMPL"]
E_POINTER = HRESULTS["E_POINTER"]
E_INVALIDARG = HRESULTS["E_INVALIDARG"]
E_OUTOFMEMORY = HRESULTS["E_OUTOFMEMORY"]


def cdef_source(header=None):
    """The declarations between the header's @cdef-begin/@cdef-end markers, as cffi takes them."""
    header = header or os.path.join(get_include(), "directml_py.h")
    with open(header, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"/\* @cdef-begin \w+ \*/\n(.*?)/\* @cdef-end \w+ \*/", text, re.S)
    return "\n".join(blocks).replace("DMLC_API ", "")


ffi = cffi.FFI()
ffi.cdef(cdef_source())
lib = ffi.dlopen(get_library_path())


def last_error():
    """The calling thread's last dmlc error message."""
    return ffi.string(lib.dmlcGetLastErrorMessage()).decode("utf-8", "replace")
