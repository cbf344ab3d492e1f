# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""GATHER, GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND1 and SCATTER_ND for arrays: x and an
index array (and updates), fitted to the desc's common dimension count, checked and run by
the core.

dmlc.gather, dmlc.gather_elements, dmlc.scatter_elements, dmlc.gather_nd and
dmlc.scatter_nd are defined here, not in a Python wrapper (dmlc.gather re-exports them), so a small
call runs no Python frame; annotation_typing=False keeps its annotations documentation only.
"""
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_GATHER_OPERATOR_DESC, DML_OPERATOR_GATHER,
                         DML_GATHER_ELEMENTS_OPERATOR_DESC, DML_OPERATOR_GATHER_ELEMENTS,
                         DML_SCATTER_ELEMENTS_OPERATOR_DESC, DML_OPERATOR_SCATTER_ELEMENTS,
                         DML_GATHER_ND1_OPERATOR_DESC, DML_OPERATOR_GATHER_ND1,
                         DML_SCATTER_ND_OPERATOR_DESC, DML_OPERATOR_SCATTER_ND,
                         DMLC_BUFFER_BINDING, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, index_input, may_overlap, normalize_axis, same_elements)
from dmlc._args import index_of

cnp.import_array()

cdef object gather_impl(x, indices, axis, out, str fname):
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray ix = index_input(indices, fname, "indices")
    cdef int r = cnp.PyArray_NDIM(a), q = cnp.PyArray_NDIM(ix), D
    cdef Py_ssize_t ax
    cdef cnp.ndarray xd, ixd, result, od
    cdef Tensor tin, tidx, tout
    cdef DML_GATHER_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[2]
    if r < 1 or r > 8:
        raise ValueError(f"{fname}: x has {r} dimensions, expected 1 to 8")
    ax = normalize_axis(axis if type(axis) is int else index_of(axis, fname, "axis"), r, fname)
    # DirectML's tensors share one dimension count D: the gathered shape x.shape[:axis] +
    # indices.shape + x.shape[axis+1:] has r + q - 1 dimensions (r for 0-d indices, which
    # the core gives a leading 1), and x and indices get leading ones up to D.
    D = r + q - 1 if q > 0 else r
    if D > 8:
        raise ValueError(f"{fname}: the result would have {r + q - 1} dimensions (x {r} + indices {q} - 1), "
                         f"expected at most 8")
    shape = (<object>a).shape[:ax] + (<object>ix).shape + (<object>a).shape[ax + 1:]
    result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if cnp.PyArray_SIZE(a) == 0:
        raise ValueError(f"{fname}: x.shape[{ax}] is 0: there is nothing to gather from")
    xd = a.reshape((1,) * (D - r) + (<object>a).shape)
    ixd = ix.reshape((1,) * (D - q) + (<object>ix).shape)
    od = result.reshape((1,) * (D - (r + q - 1)) + shape)  # 0-d indices: the core's leading 1
    if out is not None:
        # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
        if may_overlap(xd, od):
            xd = xd.copy()
        if may_overlap(ixd, od):
            ixd = ixd.copy()
    bind(&tin, xd, dml_type)
    bind(&tidx, ixd, dml_type_of(ixd, "indices"))
    bind(&tout, od, dml_type)
    d.InputTensor = &tin.desc
    d.IndicesTensor = &tidx.desc
    d.OutputTensor = &tout.desc
    d.Axis = <unsigned>(ax + D - r)
    d.IndexDimensions = <unsigned>q
    op.Type = DML_OPERATOR_GATHER
    op.Desc = &d
    ins[0] = tin.binding
    ins[1] = tidx.binding
    execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def gather(x: ArrayLike, indices: ArrayLike, axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Take slices of x along one axis (DirectML GATHER).

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        Which positions of ``axis`` to take: any integer dtype (int32, int64, uint32 and
        uint64 go to the core as they are, narrower ones are widened), any shape, 0-d too.
        A negative index counts from the end; an index still outside ``[0, n)``
        (``n = x.shape[axis]``) is clamped into it, so ``gather`` never raises on index
        values.
    axis : int
        The axis of x to index; negative counts from the end.
    out : ndarray, optional
        Where to write the result: x's dtype and the result's shape; it may be a strided
        view.

    Returns
    -------
    ndarray
        Shape ``x.shape[:axis] + indices.shape + x.shape[axis+1:]``, x's dtype.

    Notes
    -----
    ``gather(x, i, axis)`` is ``np.take(x, np.where(i < 0, i + n, i), axis, mode="clip")``
    (NumPy's ``"clip"`` sends every negative index to 0, so negative indices get ``n``
    added first) and, for 1-d in-range indices, ``torch.index_select(x, axis, i)``.  The
    result has at most 8 dimensions, as DirectML's tensors have.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> table = np.arange(12, dtype=np.float32).reshape(4, 3)
    >>> dmlc.gather(table, [[3, 0], [-1, 9]], 0)        # 9 is clamped to 3
    array([[[ 9., 10., 11.],
            [ 0.,  1.,  2.]],
    <BLANKLINE>
           [[ 9., 10., 11.],
            [ 9., 10., 11.]]], dtype=float32)
    """
    return gather_impl(x, indices, axis, out, "gather")


cdef cnp.ndarray updates_input(object updates, cnp.ndarray a, tuple shape, str why, str fname):
    """A scatter's updates: a Python list or scalar takes x's dtype; an array (NumPy,
    DLPack, ...) must have it; the shape must be `shape` (explained by `why`)."""
    cdef cnp.ndarray u = as_input(np.asarray(updates, a.dtype) if isinstance(updates, (list, tuple, int, float))
                                  else updates, "updates")
    if u.dtype != a.dtype:
        raise TypeError(f"{fname}: updates has dtype {u.dtype}, expected {a.dtype} (x's dtype)")
    if (<object>u).shape != shape:
        raise ValueError(f"{fname}: updates has shape {(<object>u).shape}, expected {shape} ({why})")
    return u


cdef tuple prepare(cnp.ndarray a, cnp.ndarray ix, cnp.ndarray u, cnp.ndarray result, object out, str fname,
                   str empty_x):
    """The elements' and ND functions' steps before binding, u the scatter's updates (None
    for a gather): (the finished result, None, None) when the core has nothing to do (an
    empty result; no update to write: x as it is), else (None, x, indices) with out=
    checked (a scatter) or the inputs that share its memory copied (a gather)."""
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out), None, None
    if u is not None and cnp.PyArray_SIZE(u) == 0:
        if not same_elements(a, result):
            np.copyto(result, a)
        return finish_output(result, out), None, None
    if u is None and cnp.PyArray_SIZE(a) == 0:
        raise ValueError(f"{fname}: {empty_x}: there is nothing to gather from")
    if out is not None:
        if u is not None:
            # out=x itself updates x in place (the core skips the copy); any other sharing
            # of memory would make the result depend on the order of reads and writes.
            if may_overlap(a, result) and not same_elements(a, result):
                raise ValueError(f"{fname}: out shares memory with x without being x itself")
            if may_overlap(ix, result) or may_overlap(u, result):
                raise ValueError(f"{fname}: out shares memory with "
                                 f"{'indices' if may_overlap(ix, result) else 'updates'}")
        else:
            # An input that shares memory with out= is read from a copy, as NumPy's ufuncs do.
            if may_overlap(a, result):
                a = a.copy()
            if may_overlap(ix, result):
                ix = ix.copy()
    return None, a, ix


cdef object elements_impl(x, indices, updates, axis, out, str fname, bint scatter):
    """GATHER_ELEMENTS (scatter False) and SCATTER_ELEMENTS: x, indices and updates have one
    dimension count, so they are the desc's tensors as they are."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray ix = index_input(indices, fname, "indices")
    cdef cnp.ndarray u = None, result
    cdef int r = cnp.PyArray_NDIM(a), d
    cdef Py_ssize_t ax
    cdef Tensor tin, tidx, tupd, tout
    cdef DML_GATHER_ELEMENTS_OPERATOR_DESC g
    cdef DML_SCATTER_ELEMENTS_OPERATOR_DESC sc
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[3]
    if r < 1 or r > 8:
        raise ValueError(f"{fname}: x has {r} dimensions, expected 1 to 8")
    ax = normalize_axis(axis if type(axis) is int else index_of(axis, fname, "axis"), r, fname)
    xshape, ishape = (<object>a).shape, (<object>ix).shape
    if len(ishape) != r:
        raise ValueError(f"{fname}: indices has {len(ishape)} dimensions, expected {r} (x.ndim)")
    for d in range(r):
        if d != ax and ishape[d] != xshape[d]:
            raise ValueError(f"{fname}: indices.shape[{d}] is {ishape[d]}, expected {xshape[d]} "
                             f"(x.shape[{d}]; only axis {ax} may differ)")
    if scatter:
        u = updates_input(updates, a, ishape, "indices.shape", fname)
    result = as_output(out, xshape if scatter else ishape, a.dtype, "out")
    done, a, ix = prepare(a, ix, u, result, out, fname, f"x.shape[{ax}] is 0")
    if done is not None:
        return done
    bind(&tin, a, dml_type)
    bind(&tidx, ix, dml_type_of(ix, "indices"))
    bind(&tout, result, dml_type)
    ins[0] = tin.binding
    ins[1] = tidx.binding
    if scatter:
        bind(&tupd, u, dml_type)
        ins[2] = tupd.binding
        sc.InputTensor = &tin.desc
        sc.IndicesTensor = &tidx.desc
        sc.UpdatesTensor = &tupd.desc
        sc.OutputTensor = &tout.desc
        sc.Axis = <unsigned>ax
        op.Type = DML_OPERATOR_SCATTER_ELEMENTS
        op.Desc = &sc
        execute(&op, 3, ins, 1, &tout.binding)
    else:
        g.InputTensor = &tin.desc
        g.IndicesTensor = &tidx.desc
        g.OutputTensor = &tout.desc
        g.Axis = <unsigned>ax
        op.Type = DML_OPERATOR_GATHER_ELEMENTS
        op.Desc = &g
        execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def gather_elements(x: ArrayLike, indices: ArrayLike, axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Pick one element of x along an axis for every index (DirectML GATHER_ELEMENTS).

    ``out[p] = x[p with p[axis] = indices[p]]`` for every position ``p`` of indices.

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        x's number of dimensions and x's sizes on every axis but ``axis`` (any size there):
        any integer dtype (int32, int64, uint32 and uint64 go to the core as they are,
        narrower ones are widened).  A negative index counts from the end; an index still
        outside ``[0, n)`` (``n = x.shape[axis]``) is clamped into it, so
        ``gather_elements`` never raises on index values.
    axis : int
        The axis of x to index; negative counts from the end.
    out : ndarray, optional
        Where to write the result: x's dtype and indices' shape; it may be a strided view.

    Returns
    -------
    ndarray
        Shape ``indices.shape``, x's dtype.

    Notes
    -----
    ``gather_elements(x, i, axis)`` is ``np.take_along_axis(x, np.clip(i, -n, n - 1), axis)``
    and, for in-range indices, ``torch.gather(x, axis, i)`` and ONNX GatherElements
    (NumPy, PyTorch and ONNX Runtime raise on out-of-range indices; dmlc clamps them, as
    WebNN's gatherElements does).  It is the inverse of :func:`dmlc.scatter_elements`.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32)
    >>> dmlc.gather_elements(x, [[1, 2, 0], [2, 0, 0]], 0)
    array([[4., 8., 3.],
           [7., 2., 3.]], dtype=float32)
    >>> dmlc.gather_elements(x, [[-1], [0], [7]], 1)     # -1 is the last; 7 is clamped to 2
    array([[3.],
           [4.],
           [9.]], dtype=float32)
    """
    return elements_impl(x, indices, None, axis, out, "gather_elements", False)


def scatter_elements(x: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int, *,
                     out: Optional[np.ndarray] = None) -> np.ndarray:
    """A copy of x with elements along an axis replaced by updates (DirectML SCATTER_ELEMENTS).

    ``out = x``, then ``out[p with p[axis] = indices[p]] = updates[p]`` for every position
    ``p`` of indices, in row-major order.

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        x's number of dimensions and x's sizes on every axis but ``axis`` (any size there):
        any integer dtype (int32, int64, uint32 and uint64 go to the core as they are,
        narrower ones are widened).  A negative index counts from the end; an index still
        outside ``[0, n)`` (``n = x.shape[axis]``) writes nothing, so ``scatter_elements``
        never raises on index values.  Where two indices name one element, the later one
        (in row-major order) wins.
    updates : array_like
        The values written, indices' shape: an array of x's dtype (another dtype is a
        ``TypeError``), or a Python list or scalar, converted to x's dtype.
    axis : int
        The axis of x to index; negative counts from the end.
    out : ndarray, optional
        Where to write the result: x's dtype and shape; it may be a strided view.  ``out=x``
        (that very array) updates x in place, as ``torch.Tensor.scatter_`` does; any other
        sharing of memory between out and an input is a ``ValueError``.

    Returns
    -------
    ndarray
        Shape ``x.shape``, x's dtype; x itself is left unchanged unless it is ``out``.

    Notes
    -----
    For in-range indices without duplicates this is ``torch.Tensor.scatter(x, axis, i,
    updates)``, ONNX ScatterElements and ``np.put_along_axis`` on a copy of x.  Duplicates:
    dmlc applies updates in row-major order, so the later one wins, as DirectML's example
    shows and ``np.put_along_axis`` and ONNX Runtime's CPU do; PyTorch leaves the winner
    unspecified.  Out-of-range indices write nothing (NumPy, PyTorch and ONNX Runtime raise).
    It is the inverse of :func:`dmlc.gather_elements`.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> dmlc.scatter_elements(np.arange(5, dtype=np.float32), [3, 1, 3, 0], [5, 6, 7, 8], 0)
    array([8., 6., 2., 7., 4.], dtype=float32)
    >>> x = np.zeros((2, 3), np.int32)
    >>> dmlc.scatter_elements(x, [[2], [-1]], np.array([[1], [2]], np.int32), 1, out=x)  # in place
    array([[0, 0, 1],
           [0, 0, 2]], dtype=int32)
    """
    return elements_impl(x, indices, updates, axis, out, "scatter_elements", True)


cdef object nd_impl(x, indices, updates, batch_dims, out, str fname, bint scatter):
    """GATHER_ND1 (scatter False) and SCATTER_ND: x, indices, updates and the result get
    leading ones up to their common dimension count D; the desc's InputDimensionCount and
    IndicesDimensionCount say which dimensions are theirs."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef cnp.ndarray ix = index_input(indices, fname, "indices")
    cdef cnp.ndarray u = None, result, xd, ixd, ud = None, od
    cdef int r = cnp.PyArray_NDIM(a), q = cnp.PyArray_NDIM(ix), b = 0, k, m, D, e
    cdef Tensor tin, tidx, tupd, tout
    cdef DML_GATHER_ND1_OPERATOR_DESC g
    cdef DML_SCATTER_ND_OPERATOR_DESC sc
    cdef DML_OPERATOR_DESC op
    cdef DMLC_BUFFER_BINDING ins[3]
    if r < 1 or r > 8:
        raise ValueError(f"{fname}: x has {r} dimensions, expected 1 to 8")
    if q < 1 or q > 8:
        raise ValueError(f"{fname}: indices has {q} dimensions, expected 1 to 8 (the last holds the index tuples)")
    if not scatter:
        b = batch_dims if type(batch_dims) is int else index_of(batch_dims, fname, "batch_dims")
        if b < 0 or b >= min(r, q):
            raise ValueError(f"{fname}: batch_dims is {b}, expected 0 to {min(r, q) - 1} "
                             f"(less than x.ndim {r} and indices.ndim {q})")
    xshape, ishape = (<object>a).shape, (<object>ix).shape
    k = ishape[q - 1]
    if k < 1 or k > r - b:
        raise ValueError(f"{fname}: indices.shape[-1] is {k} (the index tuple's length), expected 1 to {r - b} "
                         f"(x.ndim {r}" + (f" - batch_dims {b})" if not scatter else ")"))
    for e in range(b):
        if ishape[e] != xshape[e]:
            raise ValueError(f"{fname}: indices.shape[{e}] is {ishape[e]}, expected {xshape[e]} "
                             f"(x.shape[{e}], batch dimension {e} of batch_dims {b})")
    shape = ishape[:q - 1] + xshape[b + k:]  # the gathered shape: the result, or the updates' shape
    m = len(shape)
    if m > 8:
        raise ValueError(f"{fname}: the {'updates' if scatter else 'result'} would have {m} dimensions "
                         f"(indices {q} - 1 + x {r} - {'' if scatter else 'batch_dims - '}the tuple's length), "
                         f"expected at most 8")
    D = max(r, q, m)
    if scatter:
        u = updates_input(updates, a, shape, "indices.shape[:-1] + x.shape[indices.shape[-1]:]", fname)
    result = as_output(out, xshape if scatter else shape, a.dtype, "out")
    done, a, ix = prepare(a, ix, u, result, out, fname, f"x has shape {xshape}")
    if done is not None:
        return done
    xd = a.reshape((1,) * (D - r) + xshape)
    ixd = ix.reshape((1,) * (D - q) + ishape)
    bind(&tin, xd, dml_type)
    bind(&tidx, ixd, dml_type_of(ixd, "indices"))
    ins[0] = tin.binding
    ins[1] = tidx.binding
    if scatter:
        ud = u.reshape((1,) * (D - m) + shape)
        od = result.reshape((1,) * (D - r) + xshape)
        bind(&tupd, ud, dml_type)
        bind(&tout, od, dml_type)
        ins[2] = tupd.binding
        sc.InputTensor = &tin.desc
        sc.IndicesTensor = &tidx.desc
        sc.UpdatesTensor = &tupd.desc
        sc.OutputTensor = &tout.desc
        sc.InputDimensionCount = <unsigned>r
        sc.IndicesDimensionCount = <unsigned>q
        op.Type = DML_OPERATOR_SCATTER_ND
        op.Desc = &sc
        execute(&op, 3, ins, 1, &tout.binding)
    else:
        od = result.reshape((1,) * (D - m) + shape)
        bind(&tout, od, dml_type)
        g.InputTensor = &tin.desc
        g.IndicesTensor = &tidx.desc
        g.OutputTensor = &tout.desc
        g.InputDimensionCount = <unsigned>r
        g.IndicesDimensionCount = <unsigned>q
        g.BatchDimensionCount = <unsigned>b
        op.Type = DML_OPERATOR_GATHER_ND1
        op.Desc = &g
        execute(&op, 2, ins, 1, &tout.binding)
    return finish_output(result, out)


def gather_nd(x: ArrayLike, indices: ArrayLike, *, batch_dims: int = 0, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Pick blocks of x by index tuples (DirectML GATHER_ND1; GATHER_ND is ``batch_dims=0``).

    Each tuple ``t = indices[j]`` (the last axis of indices holds the tuples, of length
    ``k``) names the block ``x[j[:batch_dims], t]``: ``out[j, s] = x[j[:batch_dims], t,
    s]``.

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        1 to 8 dimensions; ``indices.shape[-1]`` is the tuple's length ``k``, 1 to
        ``x.ndim - batch_dims``; any integer dtype (int32, int64, uint32 and uint64 go to
        the core as they are, narrower ones are widened).  Each coordinate ``t[a]`` indexes
        axis ``batch_dims + a`` of x: a negative one counts from the end, one still outside
        ``[0, n)`` is clamped into it, so ``gather_nd`` never raises on index values.
    batch_dims : int, default 0
        How many leading axes x and indices share (equal sizes): ``0 <= batch_dims <
        min(x.ndim, indices.ndim)``.
    out : ndarray, optional
        Where to write the result: x's dtype and the result's shape; it may be a strided
        view.

    Returns
    -------
    ndarray
        Shape ``indices.shape[:-1] + x.shape[batch_dims + k:]`` (at most 8 dimensions), x's
        dtype.

    Notes
    -----
    This is ONNX GatherND (with ``batch_dims``) and ``tf.gather_nd``; without batch
    dimensions and with in-range indices it is NumPy's ``x[tuple(np.moveaxis(indices, -1,
    0))]`` and PyTorch's ``x[tuple(indices.unbind(-1))]`` (those raise on out-of-range
    indices; dmlc clamps them, as WebNN's gatherND does).  It is the inverse of
    :func:`dmlc.scatter_nd`.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.array([[0, 1], [2, 3]], np.float32)
    >>> dmlc.gather_nd(x, [[1, 0], [0, -1]])          # elements x[1, 0] and x[0, 1]
    array([2., 1.], dtype=float32)
    >>> dmlc.gather_nd(x, [[1], [7]])                 # rows; 7 is clamped to 1
    array([[2., 3.],
           [2., 3.]], dtype=float32)
    >>> dmlc.gather_nd(x, [[1], [0]], batch_dims=1)   # x[0, 1] and x[1, 0]
    array([1., 2.], dtype=float32)
    """
    return nd_impl(x, indices, None, batch_dims, out, "gather_nd", False)


def scatter_nd(x: ArrayLike, indices: ArrayLike, updates: ArrayLike, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """A copy of x with the blocks named by index tuples replaced (DirectML SCATTER_ND).

    ``out = x``, then ``out[t, s] = updates[j, s]`` for every tuple ``t = indices[j]``, in
    row-major order of ``j``.

    Parameters
    ----------
    x : array_like
        The data: 1 to 8 dimensions, any of the eleven supported dtypes.
    indices : array_like of int
        1 to 8 dimensions; ``indices.shape[-1]`` is the tuple's length ``k``, 1 to
        ``x.ndim``; any integer dtype (int32, int64, uint32 and uint64 go to the core as
        they are, narrower ones are widened).  A negative coordinate counts from the end; a
        tuple with a coordinate still outside its axis writes nothing, so ``scatter_nd``
        never raises on index values.  Where two tuples name one block, the later one (in
        row-major order) wins.
    updates : array_like
        The values written, shape ``indices.shape[:-1] + x.shape[k:]``: an array of x's
        dtype (another dtype is a ``TypeError``), or a Python list or scalar, converted to
        x's dtype.
    out : ndarray, optional
        Where to write the result: x's dtype and shape; it may be a strided view.  ``out=x``
        (that very array) updates x in place; any other sharing of memory between out and
        an input is a ``ValueError``.

    Returns
    -------
    ndarray
        Shape ``x.shape``, x's dtype; x itself is left unchanged unless it is ``out``.

    Notes
    -----
    For in-range tuples without duplicates this is ONNX ScatterND (reduction "none"),
    ``tf.tensor_scatter_nd_update``, NumPy's ``y = x.copy(); y[tuple(np.moveaxis(indices,
    -1, 0))] = updates`` and PyTorch's ``x.index_put(tuple(indices.unbind(-1)), updates)``.
    Duplicates: the later one wins (ONNX leaves it undefined).  It is the inverse of
    :func:`dmlc.gather_nd`.

    Examples
    --------
    >>> import numpy as np, dmlc
    >>> x = np.arange(8, dtype=np.float32)
    >>> dmlc.scatter_nd(x, [[4], [3], [1], [7]], [9, 10, 11, 12])
    array([ 0., 11.,  2., 10.,  9.,  5.,  6., 12.], dtype=float32)
    >>> dmlc.scatter_nd(np.zeros((2, 2), np.int32), [[1], [-1], [5]], np.array([[1, 2], [3, 4], [5, 6]], np.int32))
    array([[0, 0],
           [3, 4]], dtype=int32)
    """
    return nd_impl(x, indices, updates, None, out, "scatter_nd", True)
