# cython: language_level=3, boundscheck=False, wraparound=False
"""ELEMENT_WISE_IDENTITY for arrays: fills the desc; the core does the rest."""
cimport numpy as cnp
from dmlc._core cimport (Tensor, DML_OPERATOR_DESC, DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, DML_SCALE_BIAS,
                         DML_OPERATOR_ELEMENT_WISE_IDENTITY, as_input, dml_type_of, run_unary)

cnp.import_array()


def identity(x, scale_bias, out, str fname):
    """scale_bias: None, or (scale, bias) as Python floats that float32 holds."""
    cdef cnp.ndarray a = as_input(x, "x")
    cdef int dml_type = dml_type_of(a, "x")
    cdef Tensor tin
    cdef DML_SCALE_BIAS sb
    cdef DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d
    cdef DML_OPERATOR_DESC op
    if cnp.PyArray_NDIM(a) < 1 or cnp.PyArray_NDIM(a) > 8:
        raise ValueError(f"{fname}: x has {cnp.PyArray_NDIM(a)} dimensions; DirectML tensors have 1 to 8")
    d.InputTensor = &tin.desc
    d.ScaleBias = NULL
    if scale_bias is not None:
        sb.Scale = scale_bias[0]
        sb.Bias = scale_bias[1]
        d.ScaleBias = &sb
    op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY
    op.Desc = &d
    return run_unary(&op, 0, &tin, a, dml_type, 1, &d.OutputTensor, out, NULL, None, None, fname, True)
