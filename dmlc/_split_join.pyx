# cython: language_level=3, boundscheck=False, wraparound=False
"""SPLIT / JOIN for arrays: binds the whole array and its parts and runs the core.

Parts that are empty on the axis (a size of 0 in split's list, a zero-length array given
to join) have no DirectML tensor: they are left out of the desc, as are all parts when
the whole array is empty.
"""
import numpy as np
cimport numpy as cnp
from libc.stdlib cimport malloc, free
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_SPLIT_OPERATOR_DESC, DML_JOIN_OPERATOR_DESC,
                         DML_OPERATOR_SPLIT, DML_OPERATOR_JOIN, DML_TENSOR_DESC, DMLC_BUFFER_BINDING, UINT,
                         as_input, as_output, finish_output, bind, dml_type_of, execute, infer_shape, may_overlap)
from dmlc._pool cimport new_array

cnp.import_array()

cdef Py_ssize_t normalize_axis(object axis, int nd, str fname) except -1:
    """axis (a Python int of any size) as 0 to nd - 1."""
    if axis < -nd or axis >= nd:
        raise ValueError(f"{fname}: axis is {axis}, expected -{nd} to {nd - 1} for arrays of {nd} dimensions")
    return axis + nd if axis < 0 else axis


cdef int check_ndim(int nd, str what, str fname) except -1:
    if nd < 1 or nd > 8:
        raise ValueError(f"{fname}: {what} has {nd} dimensions, expected 1 to 8")
    return 0


DEF SMALL = 8


cdef cnp.ndarray empty_like_but(cnp.ndarray a, Py_ssize_t axis, Py_ssize_t n):
    """A new C-ordered array of a's shape and dtype with n on axis (np.empty without the
    Python call, which costs as much as a small split; large ones through the output pool)."""
    cdef cnp.npy_intp dims[8]
    cdef int i, nd = cnp.PyArray_NDIM(a)
    for i in range(nd):
        dims[i] = cnp.PyArray_DIMS(a)[i]
    dims[axis] = n
    return new_array(nd, dims, cnp.PyArray_TYPE(a), cnp.PyArray_ITEMSIZE(a))


cdef class _Parts:
    """The DML descs and bindings of the parts of one call: inline for a few parts,
    malloc'd for more (their count is the caller's)."""
    cdef Tensor small_tensors[SMALL]
    cdef DML_TENSOR_DESC small_descs[SMALL]
    cdef DMLC_BUFFER_BINDING small_bindings[SMALL]
    cdef Tensor* tensors
    cdef DML_TENSOR_DESC* descs
    cdef DMLC_BUFFER_BINDING* bindings
    cdef UINT count

    def __cinit__(self, Py_ssize_t n):
        self.count = 0
        if n <= SMALL:
            self.tensors = self.small_tensors
            self.descs = self.small_descs
            self.bindings = self.small_bindings
            return
        self.tensors = <Tensor*>malloc(n * sizeof(Tensor))
        self.descs = <DML_TENSOR_DESC*>malloc(n * sizeof(DML_TENSOR_DESC))
        self.bindings = <DMLC_BUFFER_BINDING*>malloc(n * sizeof(DMLC_BUFFER_BINDING))
        if not self.tensors or not self.descs or not self.bindings:
            raise MemoryError(f"out of memory binding {n} arrays")

    def __dealloc__(self):
        if self.tensors != self.small_tensors:
            free(self.tensors)
            free(self.descs)
            free(self.bindings)

    cdef int add(self, cnp.ndarray a, int dml_type) except -1:
        cdef Tensor* t = &self.tensors[self.count]
        bind(t, a, dml_type)
        self.descs[self.count] = t.desc
        self.bindings[self.count] = t.binding
        self.count += 1
        return 0


def split(x, sections, sizes, object axis_arg, out, str fname):
    """sections: a number of equal parts, or None with sizes: a list of non-negative ints."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef Py_ssize_t n, i, k, axis
    cdef Tensor tin
    cdef DML_SPLIT_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef _Parts parts
    cdef cnp.ndarray r
    check_ndim(nd, "x", fname)
    axis = normalize_axis(axis_arg, nd, fname)
    n = a.shape[axis]
    if sections is not None:
        # (Python ints of any size until they are known to be small.)
        if sections < 1:
            raise ValueError(f"{fname}: sections is {sections}, expected at least 1")
        if sections > 0xFFFFFFFF:
            raise ValueError(f"{fname}: sections is {sections}, expected at most 4294967295 (DirectML's OutputCount "
                             f"is a UINT)")
        if n % sections:
            raise ValueError(f"{fname}: x.shape[{axis}] is {n}, which does not divide into {sections} equal sections; "
                             f"pass a list of sizes instead")
        k = sections
        sizes = [n // k] * k
    else:
        k = len(sizes)
        if k == 0:
            raise ValueError(f"{fname}: sizes is empty, expected at least one size")
        total = 0
        for i in range(k):
            if sizes[i] < 0:
                raise ValueError(f"{fname}: sizes[{i}] is {sizes[i]}, expected at least 0")
            total += sizes[i]
        if total != n:
            raise ValueError(f"{fname}: sizes sum to {total} ({' + '.join(map(str, sizes[:16]))}"
                             f"{' + ...' if k > 16 else ''}), expected x.shape[{axis}] {n}")
    if out is not None:
        if not isinstance(out, (list, tuple)):
            raise TypeError(f"{fname}: out must be a list of numpy.ndarray, not {type(out).__name__}")
        if len(out) != k:
            raise ValueError(f"{fname}: out has {len(out)} arrays, expected {k} (one per part)")
    results = [None] * k
    if out is None:
        for i in range(k):
            results[i] = empty_like_but(a, axis, sizes[i])
    else:
        shape = list((<object>a).shape)
        for i in range(k):
            shape[axis] = sizes[i]
            results[i] = as_output(out[i], tuple(shape), a.dtype, f"out[{i}]")
    if cnp.PyArray_SIZE(a) == 0:
        return results if out is None else [finish_output(results[i], out[i]) for i in range(k)]
    if out is not None:
        # An input that shares memory with out= is read from a copy (as NumPy's ufuncs do);
        # an output that may share memory with an earlier one is written through a
        # temporary, so the parts land in order, the later one last.
        for i in range(k):
            r = results[i]
            if sizes[i] and may_overlap(a, r):
                a = a.copy()
                break
        for i in range(1, k):
            r = results[i]
            if not sizes[i] or r is not out[i]:
                continue
            for j in range(i):
                if sizes[j] and may_overlap(r, <cnp.ndarray>results[j]):
                    results[i] = np.empty_like(r)
                    break
    parts = _Parts(k)
    for i in range(k):
        if sizes[i]:
            parts.add(<cnp.ndarray>results[i], dml_type)
    bind(&tin, a, dml_type)
    d.InputTensor = &tin.desc
    d.OutputCount = parts.count
    d.OutputTensors = parts.descs
    d.Axis = <UINT>axis
    op.Type = DML_OPERATOR_SPLIT
    op.Desc = &d
    execute(&op, 1, &tin.binding, parts.count, parts.bindings)
    return results if out is None else [finish_output(results[i], out[i]) for i in range(k)]


def join(arrays, object axis_arg, out, str fname):
    """arrays: a list of array-likes of one dtype."""
    cdef Py_ssize_t k = len(arrays), i, axis
    cdef cnp.ndarray a, a0, result
    cdef int dml_type, nd
    cdef Tensor tout
    cdef DML_JOIN_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef _Parts parts
    if k == 0:
        raise ValueError(f"{fname}: arrays is empty, expected at least one array")
    inputs = [as_input(arrays[i], f"arrays[{i}]") for i in range(k)]
    a0 = inputs[0]
    dml_type = dml_type_of(a0, "arrays[0]")
    nd = cnp.PyArray_NDIM(a0)
    check_ndim(nd, "arrays[0]", fname)
    axis = normalize_axis(axis_arg, nd, fname)
    for i in range(k):
        a = inputs[i]
        if dml_type_of(a, "arrays") != dml_type:  # int64 and longlong are one type here
            raise TypeError(f"{fname}: arrays[{i}] has dtype {a.dtype}, expected {a0.dtype} (arrays[0]); "
                            f"join does not promote dtypes")
        if cnp.PyArray_NDIM(a) != nd:
            raise ValueError(f"{fname}: arrays[{i}] has {cnp.PyArray_NDIM(a)} dimensions, expected {nd} (arrays[0])")
    # The output's shape from the core, over every array (empty ones included).
    parts = _Parts(k)
    for i in range(k):
        parts.add(<cnp.ndarray>inputs[i], dml_type)
    d.InputCount = parts.count
    d.InputTensors = parts.descs
    d.OutputTensor = NULL
    d.Axis = <UINT>axis
    op.Type = DML_OPERATOR_JOIN
    op.Desc = &d
    shape = infer_shape(&op, 0, 1, 0)
    if out is None:
        result = empty_like_but(a0, axis, shape[axis])
    else:
        result = as_output(out, shape, a0.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    parts.count = 0  # bound again: only the arrays with elements, each read from a copy if it overlaps out=
    for i in range(k):
        a = inputs[i]
        if cnp.PyArray_SIZE(a) == 0:
            continue
        if out is not None and may_overlap(a, result):
            a = a.copy()
            inputs[i] = a  # keeps the copy alive until the call returns
        parts.add(a, dml_type)
    bind(&tout, result, dml_type)
    d.InputCount = parts.count
    d.InputTensors = parts.descs
    d.OutputTensor = &tout.desc
    execute(&op, parts.count, parts.bindings, 1, &tout.binding)
    return finish_output(result, out)
