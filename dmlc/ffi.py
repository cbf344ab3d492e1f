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

from dmlc import get_include, get_library_path

S_OK = 0
E_NOTIMPL = -2147467263      # 0x80004001
E_POINTER = -2147467261      # 0x80004003
E_INVALIDARG = -2147024809   # 0x80070057
E_OUTOFMEMORY = -2147024882  # 0x8007000E


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
