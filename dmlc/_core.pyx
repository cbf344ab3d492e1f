# cython: language_level=3, boundscheck=False, wraparound=False
"""Binding of libdirectml_py: array -> DML buffer tensor, error mapping, threads.

Every operator module of the package cimports these helpers; none of them does operator
arithmetic, which lives in the C core.
"""
import numpy as np
cimport numpy as cnp
from cpython.long cimport PyLong_AsLongAndOverflow
from libc.stdint cimport uintptr_t

from dmlc._args import index_of
from dmlc._interop import copy_into, input_array, output_array
from dmlc._pool cimport new_array

cnp.import_array()

# The core's type table, src/dtypes.def, compiled in: the one source of dtype facts.
cdef extern from *:
    """
    typedef struct dmlc_dtype_row { const char* name; int value; int size; const char* kind; } dmlc_dtype_row;
    static const dmlc_dtype_row dmlc_dtype_rows[] = {
    #define DMLC_DTYPE(NAME, VALUE, SIZE, T, KIND, LOWEST, COMPARE) {#NAME, VALUE, SIZE, #KIND},
    #include "dtypes.def"
    #undef DMLC_DTYPE
    };
    #define DMLC_DTYPE_COUNT ((int)(sizeof dmlc_dtype_rows / sizeof dmlc_dtype_rows[0]))
    """
    ctypedef struct dmlc_dtype_row:
        const char* name
        int value
        int size
        const char* kind
    const dmlc_dtype_row* dmlc_dtype_rows
    int DMLC_DTYPE_COUNT

# The operators the core implements, src/schema.def compiled in.
cdef extern from *:
    """
    #include "directml_py.h"
    typedef struct dmlc_op_row { const char* name; int value; const char* family; } dmlc_op_row;
    static const dmlc_op_row dmlc_op_rows[] = {
    #define DMLC_SCHEMA(NAME, FAMILY, FLAGS, TYPES, FIELDS) {#NAME, DML_OPERATOR_##NAME, #FAMILY},
    #include "schema.def"
    #undef DMLC_SCHEMA
    };
    #define DMLC_OP_COUNT ((int)(sizeof dmlc_op_rows / sizeof dmlc_op_rows[0]))
    """
    ctypedef struct dmlc_op_row:
        const char* name
        int value
        const char* family
    const dmlc_op_row* dmlc_op_rows
    int DMLC_OP_COUNT

#: The implemented operators: (name without DML_OPERATOR_, DML_OPERATOR_TYPE value, family).
OPERATORS = tuple((dmlc_op_rows[i].name.decode(), dmlc_op_rows[i].value, dmlc_op_rows[i].family.decode())
                  for i in range(DMLC_OP_COUNT))
#: The operator families (src/ops/<family>.c), in schema.def's order.
FAMILIES = tuple(dict.fromkeys(family for _, _, family in OPERATORS))

# The desc layouts, src/schema.def compiled in (src/schema.h builds the table).
cdef extern from *:
    """
    #include "directml_py.h"
    #include "schema.h"
    """
    ctypedef struct dmlc_field:
        const char* name
        const char* ctype
        const char* count_name
        unsigned short offset
        unsigned char size
        unsigned char kind
        unsigned char type
        unsigned char flags
    ctypedef struct dmlc_schema:
        int type
        const char* name
        unsigned flags
        unsigned types
        unsigned size
        unsigned field_count
        const dmlc_field* fields
    const dmlc_schema* dmlc_schema_find(DML_OPERATOR_TYPE type)
    unsigned DMLC_SCHEMA_IN_PLACE, DMLC_SCHEMA_INFER_READS_OUTPUTS, DMLC_SCHEMA_SIGNED_INDICES
    unsigned DMLC_FIELD_OPTIONAL, DMLC_FIELD_INDICES, DMLC_FIELD_RANK, DMLC_FIELD_SPATIAL
    unsigned DMLC_TYPES_INDEX, DMLC_TYPES_SIGNED_INDEX

# Names of schema.h's enums and flags, in their values' order.
SCHEMA_KINDS = ("input", "output", "attr")
SCHEMA_TYPES = ("TENSOR", "TENSOR_ARRAY", "UINT", "UINT64", "INT", "FLOAT", "BOOL", "ENUM", "UINT_ARRAY",
                "INT_ARRAY", "FLOAT_ARRAY", "SCALE_BIAS", "SIZE_2D", "SCALAR_UNION")


cdef tuple _flag_names(unsigned flags, tuple table):
    return tuple(name for bit, name in table if flags & bit)


cdef tuple _schema_entry(const dmlc_schema* s):
    cdef unsigned i
    cdef const dmlc_field* f
    fields = []
    for i in range(s.field_count):
        f = &s.fields[i]
        fields.append((f.name.decode(), SCHEMA_KINDS[f.kind], SCHEMA_TYPES[f.type], f.ctype.decode(),
                       _flag_names(f.flags, ((DMLC_FIELD_OPTIONAL, "optional"), (DMLC_FIELD_INDICES, "indices"),
                                             (DMLC_FIELD_RANK, "rank"), (DMLC_FIELD_SPATIAL, "spatial"))),
                       f.count_name.decode() if f.count_name != NULL else None, f.offset, f.size))
    return (s.name.decode()[len("DML_OPERATOR_"):], s.type,
            _flag_names(s.flags, ((DMLC_SCHEMA_IN_PLACE, "in_place"),
                                  (DMLC_SCHEMA_INFER_READS_OUTPUTS, "infer_reads_outputs"),
                                  (DMLC_SCHEMA_SIGNED_INDICES, "signed_indices"))),
            s.types, s.size, tuple(fields))


#: The desc layouts (src/schema.def), by DML_OPERATOR_TYPE value: (name without DML_OPERATOR_,
#: value, operator flags, data types as a bit set by DML_TENSOR_DATA_TYPE value, sizeof the desc,
#: fields), each field (name, kind, type, C type, flags, count field (an array's) or data type
#: field (a SCALAR_UNION's) or None, offset, size).
#: dmlc.schema is the readable view.
SCHEMA = tuple(_schema_entry(dmlc_schema_find(<DML_OPERATOR_TYPE>_v)) for _v in range(256)
               if dmlc_schema_find(<DML_OPERATOR_TYPE>_v) != NULL)
#: DMLC_TYPES_INDEX: the index tensors' types, as a bit set.
SCHEMA_INDEX_TYPES = DMLC_TYPES_INDEX
#: DMLC_TYPES_SIGNED_INDEX: those of operators flagged "signed_indices" (the gathers, scatters).
SCHEMA_SIGNED_INDEX_TYPES = DMLC_TYPES_SIGNED_INDEX


def schema_dtypes(name):
    """The NumPy dtypes an operator's data tensors accept (its schema entry's data types),
    by element size: schema_dtypes("AVERAGE_POOLING1") is float16, float32, float64."""
    bits = next(types for op, _, _, types, _, _ in SCHEMA if op == name)
    return tuple(sorted((dt for _, value, dt in DTYPES if bits >> value & 1), key=lambda dt: (dt.kind, dt.itemsize)))

HEADER_VERSION = DMLC_VERSION
VERSION = f"{DMLC_VERSION_MAJOR}.{DMLC_VERSION_MINOR}.{DMLC_VERSION_PATCH}"

#: The eleven tensor data types: (DML name, DML_TENSOR_DATA_TYPE value, NumPy dtype).
DTYPES = tuple((dmlc_dtype_rows[i].name.decode(), dmlc_dtype_rows[i].value,
                np.dtype(dmlc_dtype_rows[i].name.decode().lower())) for i in range(DMLC_DTYPE_COUNT))
#: Each type's kind in src/dtypes.def: "FLOAT", "SIGNED" or "UNSIGNED", by DML name.
DTYPE_KINDS = {dmlc_dtype_rows[i].name.decode(): dmlc_dtype_rows[i].kind.decode() for i in range(DMLC_DTYPE_COUNT)}
#: HRESULTs the core returns, from the header.
HRESULTS = {"S_OK": S_OK, "E_NOTIMPL": E_NOTIMPL, "E_POINTER": E_POINTER, "E_INVALIDARG": E_INVALIDARG,
            "E_OUTOFMEMORY": E_OUTOFMEMORY}

cdef UINT64 UINT_MAX = 0xFFFFFFFF

# DML_TENSOR_DATA_TYPE by NumPy kind (0 float, 1 signed, 2 unsigned) and item size.
cdef int TYPE_BY_KIND[3][9]
for _i, (_name, _value, _dt) in enumerate(DTYPES):
    if _dt.itemsize != dmlc_dtype_rows[_i].size:
        raise ImportError(f"dmlc: src/dtypes.def gives {_name} {dmlc_dtype_rows[_i].size} bytes, NumPy {_dt.itemsize}")
    TYPE_BY_KIND["fiu".index(_dt.kind)][_dt.itemsize] = _value
SUPPORTED_DTYPES = ", ".join(str(dt) for dt in sorted((dt for _, _, dt in DTYPES),
                                                       key=lambda dt: ("fiu".index(dt.kind), dt.itemsize)))
SUPPORTED_DTYPES = " or ".join(SUPPORTED_DTYPES.rsplit(", ", 1))


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


cdef int pool_window(cnp.ndarray x, object window_size, object strides, object start_padding, object end_padding,
                     object dilations, str fname, UINT* window, UINT* stride, UINT* start, UINT* end,
                     UINT* dilation) except -1:
    """The window fields of MAX_POOLING2 and AVERAGE_POOLING1 from the Python arguments
    (None: the default, the window for strides, 0 for paddings, 1 for dilations), each
    array holding one value per spatial axis of x; returns the number of spatial axes."""
    cdef int nd = cnp.PyArray_NDIM(x), sp, i
    if nd < 3 or nd > 5:
        raise ValueError(f"{fname}: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got {nd}")
    sp = nd - 2
    uints_per_axis(window_size, sp, fname, "window_size", "spatial axis", 1, window)
    if strides is None:
        for i in range(sp):
            stride[i] = window[i]
    else:
        uints_per_axis(strides, sp, fname, "strides", "spatial axis", 1, stride)
    uints_per_axis(0 if start_padding is None else start_padding, sp, fname, "start_padding", "spatial axis", 0, start)
    uints_per_axis(0 if end_padding is None else end_padding, sp, fname, "end_padding", "spatial axis", 0, end)
    uints_per_axis(1 if dilations is None else dilations, sp, fname, "dilations", "spatial axis", 1, dilation)
    for i in range(sp):
        if cnp.PyArray_DIMS(x)[i + 2] == 0:
            raise ValueError(f"{fname}: x.shape[{i + 2}] is 0; a spatial axis must not be empty")
    return sp


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
    cdef int t = cnp.PyArray_TYPE(a), kind = -1, v = 0
    cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(a)
    if cnp.PyTypeNum_ISFLOAT(t):
        kind = 0
    elif cnp.PyTypeNum_ISSIGNED(t):
        kind = 1
    elif cnp.PyTypeNum_ISUNSIGNED(t):
        kind = 2
    if kind >= 0 and size <= 8:
        v = TYPE_BY_KIND[kind][size]
    if v:
        return v
    raise TypeError(f"{name} has dtype {a.dtype}, which dmlc does not support (expected {SUPPORTED_DTYPES})")


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


cdef bint input_ready(object x):
    """True if as_input(x, ...) would return x itself: an ndarray of a supported dtype in
    native byte order that the core reads in place.  Lets callers with many inputs skip
    formatting each one's name for messages."""
    cdef cnp.ndarray a
    cdef int t
    cdef Py_ssize_t size
    if not cnp.PyArray_Check(x):
        return False
    a = <cnp.ndarray>x
    t = cnp.PyArray_TYPE(a)
    size = cnp.PyArray_ITEMSIZE(a)
    if not cnp.PyArray_ISNOTSWAPPED(a) or size > 8:
        return False
    if cnp.PyTypeNum_ISFLOAT(t):
        t = TYPE_BY_KIND[0][size]
    elif cnp.PyTypeNum_ISSIGNED(t):
        t = TYPE_BY_KIND[1][size]
    elif cnp.PyTypeNum_ISUNSIGNED(t):
        t = TYPE_BY_KIND[2][size]
    else:
        return False
    return t != 0 and in_place_ok(a)


cdef int enum_arg(object value, dict table, object cls, str fname, str argname) except -1:
    cdef object v = None
    if type(value) is str:
        v = table.get(value)
    elif type(value) is cls:
        v = int(value)
    if v is None:
        from dmlc._enums import enum_value
        v = enum_value(value, cls, fname, argname)
    return v


cdef Py_ssize_t normalize_axis(object axis, int nd, str fname) except -1:
    """axis (a Python int of any size) as 0 to nd - 1; ValueError naming fname outside -nd to nd - 1."""
    cdef int overflow = 0
    cdef long v
    if type(axis) is int:  # the common case in C; big ints and int subclasses below
        v = PyLong_AsLongAndOverflow(axis, &overflow)
        if not overflow and -nd <= v < nd:
            return v + nd if v < 0 else v
    if axis < -nd or axis >= nd:
        raise ValueError(f"{fname}: axis is {axis}, expected -{nd} to {nd - 1} for arrays of {nd} dimensions")
    return axis + nd if axis < 0 else axis


cdef cnp.ndarray as_ndarray(object x, str name):
    if cnp.PyArray_Check(x):
        return <cnp.ndarray>x
    return <cnp.ndarray>input_array(x, name)  # DLPack, array interface, buffer, array-like


cdef cnp.ndarray as_input(object x, str name):
    cdef cnp.ndarray a = as_ndarray(x, name)
    if not cnp.PyArray_ISNOTSWAPPED(a):
        a = a.astype(a.dtype.newbyteorder("="))
    dml_type_of(a, name)
    if not in_place_ok(a):
        # A fresh C-ordered copy, aligned (np.ascontiguousarray would keep an unaligned
        # contiguous array, e.g. np.frombuffer(blob, np.float32, offset=1), as it is).
        a = np.array(a, order="C")
    return a


# Index dtypes the core reads as they are; narrower integers are widened to these.
_WIDER = {1: {"i": np.int32, "u": np.uint32}, 2: {"i": np.int32, "u": np.uint32}}


cdef cnp.ndarray index_input(object indices, str fname, str name):
    """indices as an int32/int64/uint32/uint64 array the core can read: any integer dtype
    (int8/int16/uint8/uint16 widened), bool and floats a TypeError."""
    cdef cnp.ndarray a = as_ndarray(indices, name)
    if cnp.PyArray_SIZE(a) == 0 and not isinstance(indices, np.ndarray):
        a = a.astype(np.int64)  # [] is float64 to NumPy; an empty list holds no index to type
    if a.dtype.kind not in "iu":
        raise TypeError(f"{fname}: {name} has dtype {a.dtype}, expected an integer dtype")
    if a.dtype.itemsize < 4:
        a = a.astype(_WIDER[a.dtype.itemsize][a.dtype.kind])
    return as_input(a, name)


cdef cnp.ndarray empty_of(tuple shape, cnp.dtype dtype):
    """np.empty(shape, dtype) for an output: large ones through the output pool."""
    cdef cnp.npy_intp dims[32]
    cdef int i, nd = len(shape)
    if nd > 32:
        return np.empty(shape, dtype)
    for i in range(nd):
        dims[i] = shape[i]
    return new_array(nd, dims, dtype.type_num, dtype.itemsize)


cdef cnp.ndarray as_output(object out, tuple shape, cnp.dtype dtype, str name):
    cdef cnp.ndarray o
    if out is None:
        return empty_of(shape, dtype)
    if cnp.PyArray_Check(out):
        o = <cnp.ndarray>out
    else:
        o = <cnp.ndarray>output_array(out, name)  # a view of out's memory
    if o.dtype != dtype and o.dtype.newbyteorder("=") != dtype:  # another byte order: via a temporary below
        raise TypeError(f"{name} has dtype {o.dtype}, expected {dtype}")
    if (<object>o).shape != shape:
        raise ValueError(f"{name} has shape {(<object>o).shape}, expected {shape}")
    if not cnp.PyArray_ISWRITEABLE(o):
        raise ValueError(f"{name} is read-only")
    check_distinct_elements(o, name)
    if not cnp.PyArray_ISNOTSWAPPED(o) or not in_place_ok(o):
        return empty_of(shape, dtype)  # computed here, then copied into out by finish_output
    return o


cdef object finish_output(cnp.ndarray result, object out):
    if out is None or result is out:
        return result
    if not cnp.PyArray_Check(out):
        # result views out's memory (its base holds that memory), or it is a temporary of
        # its own that as_output made because out could not be written in place.
        return out if (<object>result).base is not None else copy_into(out, result)
    np.copyto(out, result)
    return out


cdef int check_distinct_elements(cnp.ndarray o, str name) except -1:
    """Refuses an out= whose strides give two elements the same memory: the core writes each
    element once, on any thread, so which write landed would be a matter of timing.  Taken
    by increasing |stride|, each axis's stride must reach past the bytes the smaller-strided
    axes span (the core's rule, which also refuses interleaved strides).  Example: float32
    strides (4, 4) for shape (2, 5): axis 0 spans bytes 0..7, and axis 1's stride 4 lands
    inside it."""
    cdef int nd = cnp.PyArray_NDIM(o), i
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(o)
    cdef cnp.npy_intp* st = cnp.PyArray_STRIDES(o)
    if cnp.PyArray_IS_C_CONTIGUOUS(o) or cnp.PyArray_IS_F_CONTIGUOUS(o) or cnp.PyArray_SIZE(o) == 0:
        return 0
    axes = sorted((abs(st[i]), i) for i in range(nd) if shape[i] > 1)
    span = cnp.PyArray_ITEMSIZE(o)  # bytes the axes so far span: last offset + item size
    done = []
    for stride, i in axes:
        if stride == 0:
            raise ValueError(f"{name} has stride 0 on axis {i} of length {shape[i]}: its elements share memory, and "
                             f"each element of {name} must have memory of its own")
        if stride < span:
            where = (f"{name} has strides {(<object>o).strides} for shape {(<object>o).shape}: ")
            if len(done) == 1:
                raise ValueError(where + f"axes {min(i, done[0])} and {max(i, done[0])} overlap, since axis {i}'s "
                                 f"stride {stride} is less than {span}, the bytes axis {done[0]} spans; each element "
                                 f"of {name} must have memory of its own")
            others = ", ".join(map(str, done[:len(done) - 1])) + f" and {done[len(done) - 1]}"
            raise ValueError(where + f"axis {i} overlaps axes {others}, since its stride {stride} is less than "
                             f"{span}, the bytes those axes span; each element of {name} must have memory of its own")
        span += (shape[i] - 1) * stride
        done.append(i)
    return 0


cdef void bind_buffer(Tensor* t, void* data, int nd, int dml_type, UINT64 item) noexcept:
    """t's buffer desc and binding over data, from the nd sizes and element strides already in
    t.sizes and t.strides."""
    cdef UINT64 last = 0
    cdef bint empty = False
    cdef int i
    for i in range(nd):
        if t.sizes[i] == 0:
            empty = True  # only dmlcInferOutputSizes reads an empty tensor
        else:
            last += <UINT64>(t.sizes[i] - 1) * t.strides[i]
    t.buffer_desc.DataType = <DML_TENSOR_DATA_TYPE>dml_type
    t.buffer_desc.Flags = DML_TENSOR_FLAG_NONE
    t.buffer_desc.DimensionCount = nd
    t.buffer_desc.Sizes = t.sizes
    t.buffer_desc.Strides = t.strides
    # DMLCalcBufferTensorSize: the addressed bytes rounded up to 4.  The binding claims the
    # same size; the core never touches the rounding bytes past the last element.
    t.buffer_desc.TotalTensorSizeInBytes = 0 if empty else ((last + 1) * item + 3) & ~(<UINT64>3)
    t.buffer_desc.GuaranteedBaseOffsetAlignment = 0
    t.desc.Type = DML_TENSOR_TYPE_BUFFER
    t.desc.Desc = &t.buffer_desc
    t.binding.Buffer = data
    t.binding.Offset = 0
    t.binding.SizeInBytes = t.buffer_desc.TotalTensorSizeInBytes


cdef int bind(Tensor* t, cnp.ndarray a, int dml_type) except -1:
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef cnp.npy_intp* shape = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp* st = cnp.PyArray_STRIDES(a)
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(a)
    if nd > 8:
        raise ValueError(f"array has {nd} dimensions; DirectML tensors have at most 8")
    for i in range(nd):
        if <UINT64>shape[i] > UINT_MAX:
            raise ValueError(f"dimension {i} has size {shape[i]}; DirectML sizes are 32-bit (at most {UINT_MAX})")
        t.sizes[i] = <UINT>shape[i]
        # A size-1 dimension is never stepped over: stride 0 says so whatever NumPy holds.
        t.strides[i] = <UINT>(st[i] // item) if shape[i] > 1 else 0
    bind_buffer(t, cnp.PyArray_DATA(a), nd, dml_type, <UINT64>item)
    return 0


# Calls that bind at most this many bytes run holding the GIL: they take a few
# microseconds, and giving the GIL up and taking it back costs a tenth of a small call.
cdef UINT64 SMALL_CALL_BYTES = 1 << 16


cdef int execute(const DML_OPERATOR_DESC* desc, UINT nin, const DMLC_BUFFER_BINDING* ins,
                 UINT nout, const DMLC_BUFFER_BINDING* outs) except -1:
    cdef HRESULT hr
    cdef UINT64 total = 0
    cdef UINT i
    for i in range(nin):
        total += ins[i].SizeInBytes
    for i in range(nout):
        total += outs[i].SizeInBytes
    if total <= SMALL_CALL_BYTES:
        hr = dmlcExecuteOperator(desc, nin, ins, nout, outs)
    else:
        with nogil:
            hr = dmlcExecuteOperator(desc, nin, ins, nout, outs)
    if hr < 0:
        raise_hr(hr)
    return 0


cdef tuple infer_shape(const DML_OPERATOR_DESC* desc, UINT flags, UINT nslots, UINT slot):
    cdef DMLC_TENSOR_SIZES sizes[2]
    cdef HRESULT hr = dmlcInferOutputSizes(desc, flags, nslots, sizes)
    cdef UINT i
    if hr < 0:
        raise_hr(hr)
    return tuple([sizes[slot].Sizes[i] for i in range(sizes[slot].DimensionCount)])


cdef cnp.ndarray new_output(object out, const DMLC_TENSOR_SIZES* s, cnp.ndarray like, cnp.dtype dtype, str name):
    """out checked against s, or a new array of s with dtype (None: like's dtype)."""
    cdef cnp.npy_intp dims[8]
    cdef UINT i
    if out is None:
        for i in range(s.DimensionCount):
            dims[i] = s.Sizes[i]
        if dtype is None:
            return new_array(s.DimensionCount, dims, cnp.PyArray_TYPE(like), cnp.PyArray_ITEMSIZE(like))
        return new_array(s.DimensionCount, dims, dtype.type_num, dtype.itemsize)
    return as_output(out, tuple([s.Sizes[i] for i in range(s.DimensionCount)]), like.dtype if dtype is None else dtype,
                     name)


cdef object run_unary(DML_OPERATOR_DESC* desc, UINT flags, Tensor* tin, cnp.ndarray x, int dml_type,
                      UINT nslots, const DML_TENSOR_DESC** slot0, object out0,
                      const DML_TENSOR_DESC** slot1=NULL, object dtype1=None, object out1=None, str fname="",
                      bint in_place=False, object dtype0=None):
    cdef DMLC_TENSOR_SIZES sizes[2]
    cdef DMLC_BUFFER_BINDING outs[2]
    cdef Tensor tout0, tout1
    cdef cnp.ndarray r0, r1 = None
    cdef HRESULT hr
    bind(tin, x, dml_type)
    slot0[0] = NULL
    if slot1 != NULL:
        slot1[0] = NULL
    hr = dmlcInferOutputSizes(desc, flags, nslots, sizes)
    if hr < 0:
        raise_hr(hr)
    r0 = new_output(out0, &sizes[0], x, dtype0, "out")
    if dtype1 is not None:
        r1 = new_output(out1, &sizes[1], x, dtype1, "out indices")
    if cnp.PyArray_SIZE(r0) == 0:
        if r1 is None:
            return finish_output(r0, out0)
        return finish_output(r0, out0), finish_output(r1, out1)
    if (out0 is not None and may_overlap(x, r0) and not (in_place and same_elements(x, r0))) or \
            (out1 is not None and may_overlap(x, r1)):
        x = x.copy()  # an input that shares memory with out= is read from a copy, as NumPy's ufuncs do
        bind(tin, x, dml_type)
    if r1 is not None and may_overlap(r0, r1):
        raise ValueError(f"{fname}: the values and indices outputs share memory")
    bind(&tout0, r0, dml_type if dtype0 is None else dml_type_of(r0, "out"))
    slot0[0] = &tout0.desc
    outs[0] = tout0.binding
    outs[1].Buffer = NULL
    outs[1].Offset = 0
    outs[1].SizeInBytes = 0
    if r1 is not None:
        bind(&tout1, r1, DML_TENSOR_DATA_TYPE_UINT64 if r1.dtype.itemsize == 8 else DML_TENSOR_DATA_TYPE_UINT32)
        slot1[0] = &tout1.desc
        outs[1] = tout1.binding
    execute(desc, 1, &tin.binding, nslots, outs)
    if r1 is None:
        return finish_output(r0, out0)
    return finish_output(r0, out0), finish_output(r1, out1)


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


cdef bint same_elements(cnp.ndarray a, cnp.ndarray b):
    """True if a and b have one shape and every element at the same address."""
    cdef int nd = cnp.PyArray_NDIM(a), i
    if cnp.PyArray_DATA(a) != cnp.PyArray_DATA(b) or cnp.PyArray_NDIM(b) != nd or \
            cnp.PyArray_ITEMSIZE(a) != cnp.PyArray_ITEMSIZE(b):
        return False
    for i in range(nd):
        if cnp.PyArray_DIMS(a)[i] != cnp.PyArray_DIMS(b)[i]:
            return False
        if cnp.PyArray_DIMS(a)[i] > 1 and cnp.PyArray_STRIDES(a)[i] != cnp.PyArray_STRIDES(b)[i]:
            return False
    return True
