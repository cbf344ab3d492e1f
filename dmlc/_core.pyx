# cython: language_level=3, boundscheck=False, wraparound=False
"""Binding of libdirectml_py: array -> DML buffer tensor, error mapping, threads.

Every operator module of the package cimports these helpers; none of them does operator
arithmetic, which lives in the C core.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uintptr_t

from dmlc._args import index_of

cnp.import_array()

HEADER_VERSION = DMLC_VERSION

E_NOTIMPL = -2147467263      # 0x80004001
E_POINTER = -2147467261      # 0x80004003
E_INVALIDARG = -2147024809   # 0x80070057
E_OUTOFMEMORY = -2147024882  # 0x8007000E

cdef UINT64 UINT_MAX = 0xFFFFFFFF


def library_version():
    """The DMLC_VERSION of the loaded libdirectml_py."""
    return dmlcGetVersion()


def set_num_threads(n):
    """Set the threads large operators are split across; 0 restores the default."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_num_threads: n must be an int, not {type(n).__name__}")
    if n < 0 or n > 1024:
        raise ValueError(f"set_num_threads: n is {n}, expected 0 to 1024")
    raise_hr(dmlcSetThreadCount(<UINT>n))


def get_num_threads():
    """The threads large operators are split across."""
    return dmlcGetThreadCount()


def last_error_message():
    return dmlcGetLastErrorMessage().decode("utf-8", "replace")


cdef int uints_per_axis(object values, int n, str fname, str argname, str per, UINT minimum, UINT* out) except -1:
    """values into out[0:n]: one int per axis, or one int for all of them, each minimum to
    2**32 - 1.  per names the axes in messages ("dimension", "spatial axis")."""
    cdef Py_ssize_t i
    cdef object v
    if type(values) is int or (hasattr(values, "__index__") and not isinstance(values, np.ndarray)):
        v = values if type(values) is int else index_of(values, fname, argname)
        if v < minimum or v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: {argname} is {v}, expected {minimum} to 4294967295")
        for i in range(n):
            out[i] = <UINT>v
        return 0
    if isinstance(values, np.ndarray):
        values = values.tolist() if values.ndim > 0 else [values.item()] * n
    elif type(values) is not tuple and type(values) is not list:
        try:
            if isinstance(values, (str, bytes)):
                raise TypeError
            values = list(values)
        except TypeError:
            raise TypeError(f"{fname}: {argname} must be an int or a sequence of ints, "
                            f"not {type(values).__name__}") from None
    if len(values) != n:
        raise ValueError(f"{fname}: {argname} has {len(values)} values, expected {n} (one per {per} of x)")
    for i in range(n):
        v = values[i]
        if type(v) is not int:
            v = index_of(v, fname, f"{argname}[{i}]")
        if v < minimum or v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: {argname}[{i}] is {v}, expected {minimum} to 4294967295")
        out[i] = <UINT>v
    return 0


cdef int raise_hr(HRESULT hr) except -1:
    if hr >= 0:
        return 0
    msg = dmlcGetLastErrorMessage().decode("utf-8", "replace")
    if hr == E_INVALIDARG or hr == E_POINTER:
        raise ValueError(msg)
    if hr == E_NOTIMPL:
        raise NotImplementedError(msg)
    if hr == E_OUTOFMEMORY:
        raise MemoryError(msg)
    raise RuntimeError(f"{msg} (HRESULT 0x{hr & 0xFFFFFFFF:08X})")


cdef int dml_type_of(cnp.ndarray a, str name) except -1:
    cdef int t = cnp.PyArray_TYPE(a)
    cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(a)
    if cnp.PyTypeNum_ISFLOAT(t):
        if size == 4: return 1
        if size == 2: return 2
        if size == 8: return 9
    elif cnp.PyTypeNum_ISSIGNED(t):
        if size == 4: return 6
        if size == 8: return 11
        if size == 2: return 7
        if size == 1: return 8
    elif cnp.PyTypeNum_ISUNSIGNED(t):
        if size == 4: return 3
        if size == 8: return 10
        if size == 2: return 4
        if size == 1: return 5
    raise TypeError(f"{name} has dtype {a.dtype}, which dmlc does not support (expected float16, float32, "
                    f"float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64)")


cdef bint in_place_ok(cnp.ndarray a):
    """True if the core can address a's memory as a DML buffer tensor: non-negative strides
    that are whole elements and fit a UINT, and data aligned to the element size."""
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp* st = cnp.PyArray_STRIDES(a)
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(a)
    if (<uintptr_t>cnp.PyArray_DATA(a)) % item:
        return False
    for i in range(nd):
        if shape[i] > 1 and (st[i] < 0 or st[i] % item or <UINT64>(st[i] // item) > UINT_MAX):
            return False
    return True


cdef cnp.ndarray as_input(object x, str name):
    cdef cnp.ndarray a
    if cnp.PyArray_Check(x):
        a = <cnp.ndarray>x
    else:
        a = np.asarray(x)
    if not cnp.PyArray_ISNOTSWAPPED(a):
        a = a.astype(a.dtype.newbyteorder("="))
    dml_type_of(a, name)
    if not in_place_ok(a):
        # A copy, never ascontiguousarray: that returns a contiguous but misaligned array
        # (a buffer at an odd offset, as dask.distributed hands over) unchanged.
        a = np.array(a, order="C")
    return a


cdef cnp.ndarray as_output(object out, tuple shape, cnp.dtype dtype, str name):
    cdef cnp.ndarray o
    if out is None:
        return np.empty(shape, dtype)
    if not cnp.PyArray_Check(out):
        raise TypeError(f"{name} must be a numpy.ndarray, not {type(out).__name__}")
    o = <cnp.ndarray>out
    if o.dtype != dtype:
        raise TypeError(f"{name} has dtype {o.dtype}, expected {dtype}")
    if (<object>o).shape != shape:
        raise ValueError(f"{name} has shape {(<object>o).shape}, expected {shape}")
    if not cnp.PyArray_ISWRITEABLE(o):
        raise ValueError(f"{name} is read-only")
    if not cnp.PyArray_ISNOTSWAPPED(o) or not in_place_ok(o):
        return np.empty(shape, dtype)  # computed here, then copied into out by finish_output
    return o


cdef object finish_output(cnp.ndarray result, object out):
    if out is None or result is out:
        return result
    np.copyto(out, result)
    return out


cdef int bind(Tensor* t, cnp.ndarray a, int dml_type) except -1:
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp* st = cnp.PyArray_STRIDES(a)
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(a)
    cdef UINT64 last = 0
    if nd > 8:
        raise ValueError(f"array has {nd} dimensions; DirectML tensors have at most 8")
    for i in range(nd):
        if <UINT64>shape[i] > UINT_MAX:
            raise ValueError(f"dimension {i} has size {shape[i]}; DirectML sizes are 32-bit (at most {UINT_MAX})")
        t.sizes[i] = <UINT>shape[i]
        # A size-1 dimension is never stepped over: stride 0 says so whatever NumPy holds.
        t.strides[i] = <UINT>(st[i] // item) if shape[i] > 1 else 0
        last += <UINT64>(shape[i] - 1) * t.strides[i]
    t.buffer_desc.DataType = <DML_TENSOR_DATA_TYPE>dml_type
    t.buffer_desc.Flags = DML_TENSOR_FLAG_NONE
    t.buffer_desc.DimensionCount = nd
    t.buffer_desc.Sizes = t.sizes
    t.buffer_desc.Strides = t.strides
    # DMLCalcBufferTensorSize: the addressed bytes rounded up to 4.  The binding claims the
    # same size; the core never touches the rounding bytes past the last element.
    t.buffer_desc.TotalTensorSizeInBytes = ((last + 1) * item + 3) & ~(<UINT64>3)
    t.buffer_desc.GuaranteedBaseOffsetAlignment = 0
    t.desc.Type = DML_TENSOR_TYPE_BUFFER
    t.desc.Desc = &t.buffer_desc
    t.binding.Buffer = cnp.PyArray_DATA(a)
    t.binding.Offset = 0
    t.binding.SizeInBytes = t.buffer_desc.TotalTensorSizeInBytes
    return 0


cdef int execute(const DML_OPERATOR_DESC* desc, UINT nin, const DMLC_BUFFER_BINDING* ins,
                 UINT nout, const DMLC_BUFFER_BINDING* outs) except -1:
    cdef HRESULT hr
    with nogil:
        hr = dmlcExecuteOperator(desc, nin, ins, nout, outs)
    if hr < 0:
        raise_hr(hr)
    return 0


cdef bint may_overlap(cnp.ndarray a, cnp.ndarray b):
    """True if the memory extents of a and b (non-negative strides) intersect."""
    cdef uintptr_t a0 = <uintptr_t>cnp.PyArray_DATA(a), b0 = <uintptr_t>cnp.PyArray_DATA(b)
    cdef uintptr_t a1 = a0 + extent(a), b1 = b0 + extent(b)
    return a0 < b1 and b0 < a1 and a1 > a0 and b1 > b0


cdef uintptr_t extent(cnp.ndarray a):
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp* st = cnp.PyArray_STRIDES(a)
    cdef uintptr_t last = 0
    for i in range(nd):
        if shape[i] == 0:
            return 0
        if shape[i] > 1:
            last += <uintptr_t>((shape[i] - 1) * st[i])
    return last + <uintptr_t>cnp.PyArray_ITEMSIZE(a)
