# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""MAX_UNPOOLING for arrays: two inputs (values and indices) and an output whose shape is
the caller's; fills the desc, asks the core to check it, and runs it.

dmlc.max_unpool is defined here, not in a Python wrapper (dmlc.max_unpooling re-exports
it), so a small call runs no Python frame; annotation_typing=False keeps its annotations
documentation only, never C types or exact-type checks.
"""
from typing import Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_MAX_UNPOOLING_OPERATOR_DESC, DML_OPERATOR_MAX_UNPOOLING,
                         DML_TENSOR_TYPE_BUFFER, DML_TENSOR_FLAG_NONE, DML_TENSOR_DATA_TYPE, DMLC_BUFFER_BINDING, UINT,
                         as_input, as_ndarray, as_output, bind, dml_type_of, execute, finish_output, infer_shape,
                         may_overlap)
from dmlc._args import index_of

cnp.import_array()


cdef int shape_tensor(Tensor* t, tuple shape, int dml_type) except -1:
    """A packed tensor desc of shape with nothing bound: the output's sizes for the core's
    check before any memory exists (shape: at most 8 ints of 0 to 2**32 - 1)."""
    cdef int i, nd = len(shape)
    for i in range(nd):
        t.sizes[i] = <UINT>shape[i]
    t.buffer_desc.DataType = <DML_TENSOR_DATA_TYPE>dml_type
    t.buffer_desc.Flags = DML_TENSOR_FLAG_NONE
    t.buffer_desc.DimensionCount = nd
    t.buffer_desc.Sizes = t.sizes
    t.buffer_desc.Strides = NULL
    t.buffer_desc.TotalTensorSizeInBytes = 0
    t.buffer_desc.GuaranteedBaseOffsetAlignment = 0
    t.desc.Type = DML_TENSOR_TYPE_BUFFER
    t.desc.Desc = &t.buffer_desc
    return 0


cdef tuple shape_of(object output_shape, str fname):
    """output_shape as a tuple of Python ints, each 0 to 2**32 - 1."""
    if isinstance(output_shape, (str, bytes)) or not hasattr(output_shape, "__len__"):
        raise TypeError(f"{fname}: output_shape must be a sequence of ints, not {type(output_shape).__name__}")
    values = []
    for i, v in enumerate(output_shape):
        v = v if type(v) is int else index_of(v, fname, f"output_shape[{i}]")
        if v < 0 or v > 0xFFFFFFFF:
            raise ValueError(f"{fname}: output_shape[{i}] is {v}, expected 0 to 4294967295")
        values.append(v)
    if len(values) < 3 or len(values) > 5:
        raise ValueError(f"{fname}: output_shape has {len(values)} values, expected 3 to 5 (N, C and 1 to 3 spatial "
                         f"axes, as x)")
    return tuple(values)


cdef object unpool(x, indices, output_shape, out, str fname):
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef cnp.ndarray ix, result
    cdef Tensor tin, tidx, tout
    cdef DML_MAX_UNPOOLING_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    idx_arr = as_ndarray(indices, "indices")  # the input path x takes; the dtype is checked here
    if idx_arr.dtype.kind != "u" or idx_arr.dtype.itemsize not in (4, 8):
        raise TypeError(f"{fname}: indices has dtype {idx_arr.dtype}, expected uint32 or uint64 (as max_pool returns "
                        f"them)")
    ix = as_input(idx_arr, "indices")
    if nd < 3 or nd > 5:
        raise ValueError(f"{fname}: x must have 3 to 5 dimensions (N, C and 1 to 3 spatial axes), got {nd}")
    shape = shape_of(output_shape, fname)
    # The core checks the indices and the output shape against x (dmlcInferOutputSizes reads
    # MAX_UNPOOLING's output sizes from the desc, as they are its parameter).
    bind(&tin, a, dml_type)
    bind(&tidx, ix, dml_type_of(ix, "indices"))
    shape_tensor(&tout, shape, dml_type)
    d.InputTensor = &tin.desc
    d.IndicesTensor = &tidx.desc
    d.OutputTensor = &tout.desc
    op.Type = DML_OPERATOR_MAX_UNPOOLING
    op.Desc = &d
    shape = infer_shape(&op, 0, 1, 0)
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:  # nothing to place: all zeros (the core takes no empty tensor)
        result[...] = 0
        return finish_output(result, out)
    if out is not None:
        # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
        if may_overlap(a, result):
            a = a.copy()
            bind(&tin, a, dml_type)
        if may_overlap(ix, result):
            ix = ix.copy()
            bind(&tidx, ix, dml_type_of(ix, "indices"))
    bind(&tout, result, dml_type)
    ins[0] = tin.binding
    ins[1] = tidx.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def max_unpool(x: ArrayLike, indices: ArrayLike, output_shape: Sequence[int], *,
               out: Optional[np.ndarray] = None) -> np.ndarray:
    """Scatter values back to where max pooling found them (DirectML MAX_UNPOOLING).

    Parameters
    ----------
    x : array_like, shape (N, C, *spatial)
        The values: 1 to 3 spatial axes (3 to 5 dimensions in all), any of the eleven
        supported dtypes.
    indices : array_like of uint32 or uint64, x's shape
        Where each value goes: its flat row-major index into the whole output, batch and
        channel included, as ``dmlc.max_pool(..., return_indices=True)`` returns them.
    output_shape : sequence of int
        The output's shape: x's N and C, then spatial sizes of its own (usually the
        pooled array's shape).  Unpooling cannot derive it: several input sizes pool to
        the same output.
    out : ndarray, optional
        Where to write the result: x's dtype and ``output_shape``; it may be a strided view.

    Returns
    -------
    ndarray
        Shape ``output_shape``, x's dtype: zeros, with ``out.flat[indices[i]] = x.flat[i]``
        for every element i of x in row-major order.

    Notes
    -----
    Where DirectML leaves them open, the rules are dmlc's (its MAX_UNPOOLING page): of two
    elements with the same index the later one (in x's row-major order) wins, and an index past the output (the
    all-ones index of a pooling window that held only padding included) writes nothing.
    Indices count through the whole output as DirectML's (and ONNX's) do; PyTorch's
    ``max_unpool2d`` counts within one ``(n, c)`` plane: add ``(n*C + c) * prod(spatial)``.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[1, 8, 2, 3], [5, 4, 9, 0], [7, 7, 6, 11], [7, 2, 6, 1]], np.float32)[None, None]
    >>> v, i = dmlc.max_pool(x, 2, return_indices=True)
    >>> dmlc.max_unpool(v, i, x.shape)[0, 0]
    array([[ 0.,  8.,  0.,  0.],
           [ 0.,  0.,  9.,  0.],
           [ 7.,  0.,  0., 11.],
           [ 0.,  0.,  0.,  0.]], dtype=float32)
    """
    return unpool(x, indices, output_shape, out, "max_unpool")
