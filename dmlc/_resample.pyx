# cython: language_level=3, boundscheck=False, wraparound=False, annotation_typing=False
"""RESAMPLE2 and UPSAMPLE_2D for arrays: fills the desc from arguments dmlc.resample has
already normalised (one scale and two offsets per axis, the output shape) and runs it."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_RESAMPLE2_OPERATOR_DESC, DML_UPSAMPLE_2D_OPERATOR_DESC,
                         DML_OPERATOR_RESAMPLE2, DML_OPERATOR_UPSAMPLE_2D, DML_INTERPOLATION_MODE,
                         DML_AXIS_DIRECTION, DML_TENSOR_DESC, FLOAT, UINT, as_input, as_ndarray, as_output, bind, dml_type_of, execute,
                         finish_output, may_overlap)

cnp.import_array()


cdef object run(cnp.ndarray a, int dml_type, DML_OPERATOR_DESC* op, Tensor* tin, const DML_TENSOR_DESC** slot,
                tuple shape, out):
    cdef Tensor tout
    cdef cnp.ndarray result = as_output(out, shape, a.dtype, "out")
    if cnp.PyArray_SIZE(result) == 0:
        return finish_output(result, out)
    if out is not None and may_overlap(a, result):
        a = a.copy()  # an input that shares memory with out= is read from a copy, as NumPy's ufuncs do
    bind(tin, a, dml_type)
    bind(&tout, result, dml_type)
    slot[0] = &tout.desc
    execute(op, 1, &tin.binding, 1, &tout.binding)
    return finish_output(result, out)


def input_of(x):
    """x as an ndarray by the binding's one input path (DLPack, the array interface, the
    buffer protocol, array-likes; a device tensor refused), for the shape and dtype the
    argument rules need before the call."""
    return as_ndarray(x, "x")


def resample2(x, int mode, int rounding, scales, input_offsets, output_offsets, tuple shape, out):
    """RESAMPLE2 of x into an array of shape (or out): scales and offsets one float per axis
    of x (1 to 8 of them, checked by the caller)."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef int nd = cnp.PyArray_NDIM(a), i
    cdef FLOAT s[8]
    cdef FLOAT io[8]
    cdef FLOAT oo[8]
    cdef Tensor tin
    cdef DML_RESAMPLE2_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    for i in range(nd):
        s[i] = scales[i]
        io[i] = input_offsets[i]
        oo[i] = output_offsets[i]
    d.InputTensor = &tin.desc
    d.InterpolationMode = <DML_INTERPOLATION_MODE>mode
    d.RoundingDirection = <DML_AXIS_DIRECTION>rounding
    d.DimensionCount = nd
    d.Scales = s
    d.InputPixelOffsets = io
    d.OutputPixelOffsets = oo
    op.Type = DML_OPERATOR_RESAMPLE2
    op.Desc = &d
    return run(a, dml_type, &op, &tin, &d.OutputTensor, shape, out)


def upsample2d(x, int mode, UINT height, UINT width, tuple shape, out):
    """UPSAMPLE_2D of x (4-D or 5-D, checked by the caller) by height x width."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_UPSAMPLE_2D_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    d.InputTensor = &tin.desc
    d.ScaleSize.Width = width
    d.ScaleSize.Height = height
    d.InterpolationMode = <DML_INTERPOLATION_MODE>mode
    op.Type = DML_OPERATOR_UPSAMPLE_2D
    op.Desc = &d
    return run(a, dml_type, &op, &tin, &d.OutputTensor, shape, out)
