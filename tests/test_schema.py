"""The schema (src/schema.def, seen through dmlc.schema) against the header and the core.

src/schema.c proves at compile time that every entry has the header's fields, offsets, sizes
and types; these tests check the same from outside, with cffi reading the header, and with a
layout computed from the schema's field types alone (C's rule: each field at the next
multiple of its alignment), so a schema that agreed with the header only by accident of one
compiler shows up too.  Then what walks the schema: the check of pointers and counts, the
operator cache, the tests' ctypes structs."""
import ctypes

import numpy as np
import pytest

import dmlc
from dmlc import _core, schema
from dmlc.ffi import ffi, lib
from rawdesc import Raw

OPS = schema.operators()
IMPLEMENTED = [name for name, _, _ in _core.OPERATORS]
PTR = ctypes.sizeof(ctypes.c_void_p)

# Size and alignment of each schema field type, and the C type cffi reports for it.
LAYOUT = {"TENSOR": (PTR, PTR), "TENSOR_ARRAY": (PTR, PTR), "UINT": (4, 4), "UINT64": (8, 8), "INT": (4, 4),
          "FLOAT": (4, 4), "BOOL": (4, 4), "ENUM": (4, 4), "UINT_ARRAY": (PTR, PTR), "INT_ARRAY": (PTR, PTR),
          "FLOAT_ARRAY": (PTR, PTR), "SCALE_BIAS": (PTR, PTR), "SIZE_2D": (8, 4), "SCALAR_UNION": (8, 8)}
POINTERS = {"TENSOR", "TENSOR_ARRAY", "UINT_ARRAY", "INT_ARRAY", "FLOAT_ARRAY", "SCALE_BIAS"}
CFFI_NAMES = {"UINT": "unsigned int", "INT": "int", "FLOAT": "float", "UINT64": "uint64_t", "BOOL": "int"}


def test_every_implemented_operator_has_a_schema_entry():
    """The core's operator table (dmlc._core.OPERATORS) is the schema's: every entry of
    src/schema.def is implemented, with the header's DML_OPERATOR_TYPE value."""
    assert sorted(IMPLEMENTED) == sorted(op.name for op in OPS)
    assert all(op.implemented for op in OPS)
    for name, value, _ in _core.OPERATORS:
        op = schema.get(name)
        assert op.value == value == getattr(lib, "DML_OPERATOR_" + name)
        assert schema.get("DML_OPERATOR_" + name) is op and schema.get(value) is op


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_schema_is_the_header(op):
    """Field names in order, offsets, sizes and C types: the schema as the core compiled it,
    and cffi's reading of the header, agree."""
    t = ffi.typeof(op.struct)
    assert [name for name, _ in t.fields] == [f.name for f in op.fields]
    assert ffi.sizeof(t) == op.size
    for f, (name, cf) in zip(op.fields, t.fields):
        assert cf.offset == f.offset == ffi.offsetof(op.struct, name), f.name
        assert ffi.sizeof(cf.type) == f.size, f.name
        ctype = CFFI_NAMES.get(f.ctype, f.ctype)
        if f.type in POINTERS:
            assert cf.type.kind == "pointer" and cf.type.item.cname in (ctype, "const " + ctype), f.name
        elif f.type == "ENUM":
            assert cf.type.kind == "enum" and cf.type.cname in (ctype, "enum " + ctype), f.name
        else:
            assert cf.type.cname in (ctype, f.ctype), f.name


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_schema_layout_follows_from_its_types(op):
    """Each field at the next multiple of its type's alignment after the one before, the
    struct padded to its largest alignment: the layout is a consequence of the field types."""
    offset, align = 0, 1
    for f in op.fields:
        size, a = LAYOUT[f.type]
        offset = -(-offset // a) * a
        assert (f.offset, f.size) == (offset, size), f.name
        offset += size
        align = max(align, a)
    assert op.size == -(-offset // align) * align


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_schema_fields_are_consistent(op):
    """Each array names a UINT count field before it; a count tied to the input's rank comes
    after the first input tensor; tensors are inputs or outputs, everything else attributes."""
    names = [f.name for f in op.fields]
    for i, f in enumerate(op.fields):
        assert f.is_tensor == (f.kind != "attr"), f.name
        if f.is_array:
            assert f.type.endswith("_ARRAY"), f.name
            assert f.count in names[:i] and op.field(f.count).type == "UINT", f.name
        else:
            assert not f.type.endswith("_ARRAY"), f.name
        if f.type == "SCALAR_UNION":  # what it holds is said by a data type field before it
            assert f.typed_by in names[:i] and op.field(f.typed_by).ctype == "DML_TENSOR_DATA_TYPE", f.name
        else:
            assert f.typed_by is None, f.name
        if "rank" in f.flags or "spatial" in f.flags:
            assert f.type == "UINT" and any(g.kind == "input" for g in op.fields[:i]), f.name
    # Every operator writes an output; the generators (FILL_VALUE_*, DIAGONAL_MATRIX) read no input.
    assert op.outputs and (op.inputs or op.name.startswith("FILL_VALUE_") or op.name == "DIAGONAL_MATRIX")
    signed = {"INT32", "INT64"} if "signed_indices" in op.flags else set()
    assert op.data_types and set(op.index_types) == {"UINT32", "UINT64"} | signed


def test_data_types():
    """Each operator's accepted data types: every type, or the float types for average and LP pooling
    and ROI pooling."""
    everything = tuple(name for name, _, _ in sorted(_core.DTYPES, key=lambda d: d[1]))
    for op in OPS:
        floats = op.name.startswith(("AVERAGE_POOLING", "LP_POOLING", "ROI_"))
        want = ("FLOAT32", "FLOAT16", "FLOAT64") if floats else everything
        assert op.data_types == want, op.name
    assert {(op.name, f.name) for op in OPS for f in op.fields if "indices" in f.flags} == {
        ("MAX_POOLING1", "OutputIndicesTensor"), ("MAX_UNPOOLING", "IndicesTensor"),
        ("MAX_POOLING2", "OutputIndicesTensor"), ("GATHER", "IndicesTensor"),
        ("ARGMIN", "OutputTensor"), ("ARGMAX", "OutputTensor"), ("GATHER_ELEMENTS", "IndicesTensor"),
        ("SCATTER_ELEMENTS", "IndicesTensor"), ("TOP_K", "OutputIndexTensor"), ("TOP_K1", "OutputIndexTensor"),
        ("GATHER_ND", "IndicesTensor"), ("GATHER_ND1", "IndicesTensor"), ("SCATTER_ND", "IndicesTensor"),
        ("ONE_HOT", "IndicesTensor"),
        ("NONZERO_COORDINATES", "OutputCountTensor"), ("NONZERO_COORDINATES", "OutputCoordinatesTensor"),
        ("ROI_ALIGN", "BatchIndicesTensor"), ("ROI_ALIGN1", "BatchIndicesTensor"),
        ("REVERSE_SUBSEQUENCES", "SequenceLengthsTensor")}
    # The gathers', scatters' and ONE_HOT's indices may be signed (a negative index counts from
    # the end; REVERSE_SUBSEQUENCES' lengths are UINT32 or UINT64);
    # ARGMIN's, ARGMAX's, TOP_K(1)'s and NONZERO_COORDINATES's index outputs may be NumPy's and PyTorch's int64.
    assert {op.name for op in OPS if "signed_indices" in op.flags} == {"GATHER", "ARGMIN", "ARGMAX", "GATHER_ELEMENTS",
                                                                     "SCATTER_ELEMENTS", "TOP_K", "TOP_K1", "GATHER_ND",
                                                                     "GATHER_ND1", "SCATTER_ND", "NONZERO_COORDINATES",
                                                                     "ONE_HOT"}


def test_get_refuses_unknown_names():
    with pytest.raises(KeyError, match="no schema entry for 'CONVOLUTION'"):
        schema.get("CONVOLUTION")
    with pytest.raises(KeyError, match="no schema entry for DML_OPERATOR_TYPE 53"):
        schema.get(53)
    with pytest.raises(KeyError, match="has no field 'Axis'"):
        schema.get("PADDING").field("Axis")


# ---- The generic check: every non-empty array its count names is there ----------------------

def _array_cases():
    for op in OPS:
        for f in op.fields:
            if f.is_array and not f.optional:
                yield op, f


@pytest.mark.parametrize("op,field", list(_array_cases()), ids=lambda v: getattr(v, "name", ""))
def test_a_null_array_is_refused_by_name(op, field):
    """A desc of zeros but for one array's count (1) and the arrays before it: the array is
    NULL, and every operator answers E_POINTER naming it, before anything reads it,
    at creation and when inferring sizes (where the field is read)."""
    raw = Raw()
    desc = raw.new(op.struct + "*")
    setattr(desc, field.count, 1)
    for other in op.fields:  # the arrays before it are there: this one is the first NULL
        if other is field:
            break
        if other.count == field.count:
            setattr(desc, other.name, raw.new(f"{other.ctype}[1]", [1]) if other.type != "TENSOR_ARRAY"
                    else raw.new("DML_TENSOR_DESC[1]"))
    op_desc = raw.new("DML_OPERATOR_DESC*", {"Type": op.value, "Desc": desc})
    suffix = f" ({field.count} is 1)" if field.type == "TENSOR_ARRAY" else ""
    want = f"DML_OPERATOR_{op.name}: {field.name} is NULL{suffix}"
    pop = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(op_desc, pop) == _core.HRESULTS["E_POINTER"]
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == want
    if field.kind == "output" and "infer_reads_outputs" not in op.flags:
        return
    sizes = ffi.new("DMLC_TENSOR_SIZES[2]")
    assert lib.dmlcInferOutputSizes(op_desc, 0, 1, sizes) == _core.HRESULTS["E_POINTER"]
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == want


def test_an_empty_array_may_be_null():
    """A count of 0 reads nothing: its NULL array is not the failure; the count is."""
    raw = Raw()
    x = np.zeros((2, 3), np.float32)
    desc = raw.op(lib.DML_OPERATOR_TILE, "DML_TILE_OPERATOR_DESC",
                  {"InputTensor": raw.tensor(x.dtype, x.shape), "OutputTensor": raw.tensor(x.dtype, x.shape),
                   "RepeatsCount": 0, "Repeats": ffi.NULL})
    pop = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, pop) == _core.HRESULTS["E_INVALIDARG"]
    assert ffi.string(lib.dmlcGetLastErrorMessage()).decode() == \
        "DML_OPERATOR_TILE: RepeatsCount is 0, expected 2 (InputTensor.DimensionCount)"


def test_rawctypes_structs_come_from_the_schema():
    """tests/rawctypes.py builds every operator desc from the schema: one struct per entry,
    the schema's fields in order, laid out as the core compiled them."""
    import rawctypes
    for op in OPS:
        cls = rawctypes.STRUCTS[op.struct]
        assert getattr(rawctypes, op.struct) is cls
        assert [name for name, _ in cls._fields_] == [f.name for f in op.fields]
        assert ctypes.sizeof(cls) == op.size
        assert [getattr(cls, f.name).offset for f in op.fields] == [f.offset for f in op.fields]


def test_dmlc_schema_is_importable_without_loading_more():
    """dmlc.schema is plain data: what dmlc run and the tests walk."""
    assert dmlc.schema is schema
    op = schema.get("SPLIT")
    assert [(f.name, f.kind, f.type, f.count) for f in op.fields] == [
        ("InputTensor", "input", "TENSOR", None), ("OutputCount", "attr", "UINT", None),
        ("OutputTensors", "output", "TENSOR_ARRAY", "OutputCount"), ("Axis", "attr", "UINT", None)]
    assert op.flags == ("infer_reads_outputs",)
    assert schema.get("ELEMENT_WISE_IDENTITY").flags == ("in_place",)
    assert schema.get("PADDING1").field("PaddingValue").type == "SCALAR_UNION"
    assert schema.get("PADDING1").field("PaddingValue").typed_by == "PaddingValueDataType"
    assert schema.get("PADDING").field("PaddingMode").ctype == "DML_PADDING_MODE"
