# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""SPLIT / JOIN for arrays: binds the whole array and its parts and runs the core.

Parts that are empty on the axis (a size of 0 in split's list, a zero-length array given
to join) have no DirectML tensor: they are left out of the desc, as are all parts when
the whole array is empty.

dmlc.split and dmlc.join are defined here, not in a Python wrapper (dmlc.split_join
re-exports them): a small call costs about a microsecond, and a Python frame between the
caller and this module was a fifth of it.  annotation_typing=False keeps their annotations
documentation only, never C types or exact-type checks (np.int64 axes stay welcome).
"""
import operator
from typing import List, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from libc.stdlib cimport malloc, free
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_SPLIT_OPERATOR_DESC, DML_JOIN_OPERATOR_DESC,
                         DML_OPERATOR_SPLIT, DML_OPERATOR_JOIN, DML_TENSOR_DESC, DMLC_BUFFER_BINDING,
                         DMLC_TENSOR_SIZES, HRESULT, UINT, as_input, as_output, finish_output, bind, dml_type_of,
                         dmlcInferOutputSizes, execute, input_ready, may_overlap, normalize_axis, raise_hr)
from dmlc._pool cimport new_array
from dmlc._args import index_of

cnp.import_array()

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


cdef struct Parts:
    # The DML descs and bindings of the parts of one call: in the caller's stack arrays for
    # a few parts, in a _Heap's for more (their count is the caller's).
    Tensor* tensors
    DML_TENSOR_DESC* descs
    DMLC_BUFFER_BINDING* bindings
    UINT count


cdef class _Heap:
    """Storage for the descs and bindings of more than SMALL parts."""
    cdef Tensor* tensors
    cdef DML_TENSOR_DESC* descs
    cdef DMLC_BUFFER_BINDING* bindings

    def __cinit__(self, Py_ssize_t n):
        self.tensors = <Tensor*>malloc(n * sizeof(Tensor))
        self.descs = <DML_TENSOR_DESC*>malloc(n * sizeof(DML_TENSOR_DESC))
        self.bindings = <DMLC_BUFFER_BINDING*>malloc(n * sizeof(DMLC_BUFFER_BINDING))
        if not self.tensors or not self.descs or not self.bindings:
            raise MemoryError(f"out of memory binding {n} arrays")

    def __dealloc__(self):
        free(self.tensors)
        free(self.descs)
        free(self.bindings)


cdef inline int add_part(Parts* p, cnp.ndarray a, int dml_type) except -1:
    cdef Tensor* t = &p.tensors[p.count]
    bind(t, a, dml_type)
    p.descs[p.count] = t.desc
    p.bindings[p.count] = t.binding
    p.count += 1
    return 0


cdef inline Py_ssize_t size_at(object sizes, Py_ssize_t part, Py_ssize_t i) except -1:
    """Part i's size on the axis: sizes[i], or part for equal sections (sizes None)."""
    return part if sizes is None else sizes[i]


cdef object split_parts(x, sections, sizes, object axis_arg, out, str fname):
    """split once its arguments have their types: sections, a number of equal parts, or
    None with sizes, a list of ints; axis_arg a Python int."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef Py_ssize_t n, i, k, axis
    cdef Tensor tin
    cdef DML_SPLIT_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef Tensor small_tensors[SMALL]
    cdef DML_TENSOR_DESC small_descs[SMALL]
    cdef DMLC_BUFFER_BINDING small_bindings[SMALL]
    cdef Parts parts
    cdef _Heap heap = None
    cdef cnp.ndarray r
    cdef Py_ssize_t part = 0  # every part's size with sections (sizes is None then)
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
        k = sections
        if n % k:
            raise ValueError(f"{fname}: x.shape[{axis}] is {n}, which does not divide into {sections} equal sections; "
                             f"pass a list of sizes instead")
        part = n // k
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
            raise TypeError(f"{fname}: out must be a list of arrays (one per part), not {type(out).__name__}")
        if len(out) != k:
            raise ValueError(f"{fname}: out has {len(out)} arrays, expected {k} (one per part)")
    results = [None] * k
    if out is None:
        for i in range(k):
            results[i] = empty_like_but(a, axis, size_at(sizes, part, i))
    else:
        shape = list((<object>a).shape)
        for i in range(k):
            shape[axis] = size_at(sizes, part, i)
            results[i] = as_output(out[i], tuple(shape), a.dtype, f"out[{i}]")
    if cnp.PyArray_SIZE(a) == 0:
        return results if out is None else [finish_output(results[i], out[i]) for i in range(k)]
    if out is not None:
        # An input that shares memory with out= is read from a copy (as NumPy's ufuncs do);
        # an output that may share memory with an earlier one is written through a
        # temporary, so the parts land in order, the later one last.
        for i in range(k):
            r = results[i]
            if size_at(sizes, part, i) and may_overlap(a, r):
                a = a.copy()
                break
        for i in range(1, k):
            r = results[i]
            if not size_at(sizes, part, i):  # (a temporary overlaps nothing; out[i] may be a tensor r views)
                continue
            for j in range(i):
                if size_at(sizes, part, j) and may_overlap(r, <cnp.ndarray>results[j]):
                    results[i] = np.empty_like(r)
                    break
    if k <= SMALL:
        parts = Parts(&small_tensors[0], &small_descs[0], &small_bindings[0], 0)
    else:
        heap = _Heap(k)
        parts = Parts(heap.tensors, heap.descs, heap.bindings, 0)
    for i in range(k):
        if size_at(sizes, part, i):
            add_part(&parts, <cnp.ndarray>results[i], dml_type)
    bind(&tin, a, dml_type)
    d.InputTensor = &tin.desc
    d.OutputCount = parts.count
    d.OutputTensors = parts.descs
    d.Axis = <UINT>axis
    op.Type = DML_OPERATOR_SPLIT
    op.Desc = &d
    execute(&op, 1, &tin.binding, parts.count, parts.bindings)
    return results if out is None else [finish_output(results[i], out[i]) for i in range(k)]


cdef object join_arrays(arrays, object axis_arg, out, str fname):
    """join once its arguments have their types: arrays a list or tuple of array-likes of
    one dtype, axis_arg a Python int."""
    cdef Py_ssize_t k = len(arrays), i, axis
    cdef cnp.ndarray a, a0, result
    cdef int dml_type, nd
    cdef Tensor tout
    cdef DML_JOIN_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef Tensor small_tensors[SMALL]
    cdef DML_TENSOR_DESC small_descs[SMALL]
    cdef DMLC_BUFFER_BINDING small_bindings[SMALL]
    cdef Parts parts
    cdef _Heap heap = None
    cdef DMLC_TENSOR_SIZES sizes
    cdef cnp.npy_intp dims[8]
    cdef HRESULT hr
    cdef bint rebind = out is not None
    if k == 0:
        raise ValueError(f"{fname}: arrays is empty, expected at least one array")
    inputs = [None] * k
    for i in range(k):
        x = arrays[i]
        inputs[i] = x if input_ready(x) else as_input(x, f"arrays[{i}]")  # the name only when needed
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
    if k <= SMALL:
        parts = Parts(&small_tensors[0], &small_descs[0], &small_bindings[0], 0)
    else:
        heap = _Heap(k)
        parts = Parts(heap.tensors, heap.descs, heap.bindings, 0)
    for i in range(k):
        a = inputs[i]
        add_part(&parts, a, dml_type)
        if cnp.PyArray_SIZE(a) == 0:
            rebind = True
    d.InputCount = parts.count
    d.InputTensors = parts.descs
    d.OutputTensor = NULL
    d.Axis = <UINT>axis
    op.Type = DML_OPERATOR_JOIN
    op.Desc = &d
    hr = dmlcInferOutputSizes(&op, 0, 1, &sizes)
    if hr < 0:
        raise_hr(hr)
    if out is None:
        for i in range(sizes.DimensionCount):
            dims[i] = sizes.Sizes[i]
        result = new_array(sizes.DimensionCount, dims, cnp.PyArray_TYPE(a0), cnp.PyArray_ITEMSIZE(a0))
    else:
        result = as_output(out, tuple([sizes.Sizes[i] for i in range(sizes.DimensionCount)]), a0.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if rebind:  # bound again: only the arrays with elements, each read from a copy if it overlaps out=
        parts.count = 0
        for i in range(k):
            a = inputs[i]
            if cnp.PyArray_SIZE(a) == 0:
                continue
            if out is not None and may_overlap(a, result):
                a = a.copy()
                inputs[i] = a  # keeps the copy alive until the call returns
            add_part(&parts, a, dml_type)
    bind(&tout, result, dml_type)
    d.InputCount = parts.count
    d.InputTensors = parts.descs
    d.OutputTensor = &tout.desc
    execute(&op, parts.count, parts.bindings, 1, &tout.binding)
    return finish_output(result, out)


def _sections_or_sizes(value, fname):
    """(sections, None) for an int, (None, [sizes]) for a sequence of ints."""
    if isinstance(value, bool):
        raise TypeError(f"{fname}: sections_or_sizes must be an int or a sequence of ints, not bool")
    try:
        return operator.index(value), None
    except TypeError:
        pass
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{fname}: sections_or_sizes must be an int or a sequence of ints, "
                        f"not {type(value).__name__}") from None
    return None, [index_of(v, fname, f"sizes[{i}]") for i, v in enumerate(items)]


def split(x: ArrayLike, sections_or_sizes: Union[int, Sequence[int]], axis: int, *,
          out: Optional[Sequence[np.ndarray]] = None) -> List[np.ndarray]:
    """Split an array into parts along an axis (DirectML SPLIT).

    Parameters
    ----------
    x : array_like
        1 to 8 dimensions, any of the eleven supported dtypes.
    sections_or_sizes : int or sequence of ints
        An int ``k`` splits ``x.shape[axis]`` into ``k`` equal parts (as ``np.split``; it
        must divide the axis).  A sequence gives the size of each part on ``axis``
        (DirectML's output sizes, ``torch.split``'s list form, *not* ``np.split``'s split
        points); the sizes must sum to ``x.shape[axis]`` and may be 0 (an empty part).
    axis : int
        The axis to split; negative values count from the end.
    out : list of ndarray or writable CPU tensors, optional
        One array per part, each with x's dtype and the part's shape.  They may be views
        with any strides (into one larger array, say), PyTorch tensors, or any objects
        with ``__dlpack__``, the array interface or the buffer protocol.

    Returns
    -------
    list of ndarray
        The parts, in order (``out``'s arrays if given); one part is a copy of ``x``.
        Each is a new array, never a view of ``x``.

    See Also
    --------
    join : the inverse.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 6, 2)
    >>> [p[0, 0].tolist() for p in dmlc.split(x, [2, 1, 3], axis=2)]
    [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]
    >>> [p.ravel().tolist() for p in dmlc.split(x, 2, axis=-1)]
    [[1.0, 3.0, 5.0, 7.0, 9.0, 11.0], [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]]
    """
    cdef object sections, sizes
    if type(sections_or_sizes) is int:  # the common case without a call; the rest as documented
        sections, sizes = sections_or_sizes, None
    else:
        sections, sizes = _sections_or_sizes(sections_or_sizes, "split")
    if type(axis) is not int:
        axis = index_of(axis, "split", "axis")
    try:
        return split_parts(x, sections, sizes, axis, out, "split")
    except MemoryError as e:
        if e.args:  # NumPy's and the core's say what they could not allocate
            raise
        # Python's own lists of parts say nothing: 2**32 - 1 sections of an empty axis are
        # 2**32 - 1 arrays, and even the list holding them does not fit.
        count = sections if sections is not None else len(sizes)
        raise MemoryError(f"split: not enough memory for {count} parts (one array each)") from None


def join(arrays: Sequence[ArrayLike], axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Join arrays along an axis (DirectML JOIN), the inverse of :func:`split`.

    Parameters
    ----------
    arrays : sequence of array_like
        At least one array; all with the same dtype (mixed dtypes raise ``TypeError``:
        nothing is promoted) and the same number of dimensions (1 to 8), with equal sizes
        except on ``axis``.  Arrays may be views into one buffer, or overlap each other.
    axis : int
        The axis to join along; negative values count from the end.
    out : ndarray or writable CPU tensor, optional
        Where to write the result (any strides: a slice of a larger array, say; a PyTorch
        tensor or any object with ``__dlpack__``, the array interface or the buffer
        protocol), written in place and returned.

    Returns
    -------
    ndarray
        ``np.concatenate(arrays, axis)`` (``out`` if given).

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.join([np.array([[1, 2]]), np.array([[3, 4], [5, 6]])], axis=0)
    array([[1, 2],
           [3, 4],
           [5, 6]])
    """
    if not isinstance(arrays, (list, tuple)):
        try:
            arrays = list(arrays)
        except TypeError:
            raise TypeError(f"join: arrays must be a sequence of arrays, not {type(arrays).__name__}") from None
    if type(axis) is not int:
        axis = index_of(axis, "join", "axis")
    return join_arrays(arrays, axis, out, "join")
