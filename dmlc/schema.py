"""The desc layout of every DirectML operator dmlc implements, as the C core has it.

One :class:`Operator` per ``DML_OPERATOR_TYPE`` with an entry in ``src/schema.def``, its
:class:`Field` list in the desc struct's order.  Code that is the same for every operator
walks these instead of naming operators: the tests' ctypes structs, a DxDispatch JSON
reader, the list of fields an example or an error message prints.  Internal: not part of
dmlc's API (the site's Python API page lists that), so it may change with the core.

>>> from dmlc import schema
>>> op = schema.get("PADDING")
>>> [f.name for f in op.inputs], [f.name for f in op.outputs]
(['InputTensor'], ['OutputTensor'])
>>> [(f.name, f.type, f.count) for f in op.attributes][-2:]
[('StartPadding', 'UINT_ARRAY', 'DimensionCount'), ('EndPadding', 'UINT_ARRAY', 'DimensionCount')]

Field types are DirectML's own schema's: ``TENSOR`` (``const DML_TENSOR_DESC*``),
``TENSOR_ARRAY`` (``count`` of them), ``UINT``, ``UINT64``, ``INT``, ``FLOAT``, ``BOOL``,
``ENUM`` (a 32-bit DirectML enum, named by :attr:`Field.ctype`), ``UINT_ARRAY``,
``INT_ARRAY``, ``FLOAT_ARRAY`` (``count`` values), ``SCALE_BIAS``
(``const DML_SCALE_BIAS*``), ``SIZE_2D`` and ``SCALAR_UNION`` (by value).
"""
from dataclasses import dataclass

from dmlc import _core

__all__ = ["Field", "Operator", "get", "operators"]

_DTYPE_NAMES = {value: name for name, value, _ in _core.DTYPES}


def _types(bits):
    return tuple(_DTYPE_NAMES[v] for v in sorted(_DTYPE_NAMES) if bits >> v & 1)


@dataclass(frozen=True)
class Field:
    """One field of a desc struct."""

    name: str          #: "StartPadding"
    kind: str          #: "input" or "output" (a tensor, bound in field order) or "attr"
    type: str          #: the schema type: "TENSOR", "UINT_ARRAY", ...
    ctype: str         #: the header's C type (the pointee for pointers): "UINT", "DML_PADDING_MODE"
    flags: tuple       #: of "optional", "indices", "rank", "spatial"
    link: str          #: an array's count field, or a SCALAR_UNION's data type field, or None
    offset: int        #: offsetof the field in the desc struct, on this machine
    size: int          #: sizeof the field

    @property
    def count(self):
        """The field giving an array's length ("DimensionCount"), or None."""
        return self.link if self.type.endswith("_ARRAY") else None

    @property
    def typed_by(self):
        """The DML_TENSOR_DATA_TYPE field saying what a SCALAR_UNION holds, or None."""
        return self.link if self.type == "SCALAR_UNION" else None

    @property
    def optional(self):
        """A pointer that may be NULL (an optional tensor, ScaleBias)."""
        return "optional" in self.flags

    @property
    def is_tensor(self):
        return self.type in ("TENSOR", "TENSOR_ARRAY")

    @property
    def is_array(self):
        return self.count is not None


@dataclass(frozen=True)
class Operator:
    """One operator's desc: ``DML_<name>_OPERATOR_DESC``."""

    name: str          #: "PADDING" (the DML_OPERATOR_TYPE without its prefix)
    value: int         #: its DML_OPERATOR_TYPE value
    flags: tuple       #: of "in_place", "infer_reads_outputs", "signed_indices"
    data_types: tuple  #: the DML_TENSOR_DATA_TYPE names its data tensors accept
    index_types: tuple  #: those its index tensors (fields flagged "indices") accept
    size: int          #: sizeof the desc struct, on this machine
    fields: tuple      #: of :class:`Field`, in the struct's order
    implemented: bool  #: whether dmlc runs it (every entry of src/schema.def is)

    @property
    def struct(self):
        """The desc struct's C name."""
        return f"DML_{self.name}_OPERATOR_DESC"

    @property
    def inputs(self):
        return [f for f in self.fields if f.kind == "input"]

    @property
    def outputs(self):
        return [f for f in self.fields if f.kind == "output"]

    @property
    def attributes(self):
        return [f for f in self.fields if f.kind == "attr"]

    def field(self, name):
        """The field called name; KeyError if the desc has none."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.struct} has no field {name!r}")


_IMPLEMENTED = {name for name, _, _ in _core.OPERATORS}
_OPERATORS = tuple(
    Operator(name, value, flags, _types(types),
             _types(_core.SCHEMA_SIGNED_INDEX_TYPES if "signed_indices" in flags else _core.SCHEMA_INDEX_TYPES), size,
             tuple(Field(*f) for f in fields), name in _IMPLEMENTED)
    for name, value, flags, types, size, fields in _core.SCHEMA)
_BY_NAME = {op.name: op for op in _OPERATORS}


def operators():
    """Every operator with a schema entry, by DML_OPERATOR_TYPE value."""
    return _OPERATORS


def get(name):
    """The operator called name ("PADDING" or "DML_OPERATOR_PADDING"), or its value;
    KeyError if the schema has none."""
    if isinstance(name, int) and not isinstance(name, bool):
        for op in _OPERATORS:
            if op.value == name:
                return op
        raise KeyError(f"no schema entry for DML_OPERATOR_TYPE {name}")
    key = name[len("DML_OPERATOR_"):] if name.startswith("DML_OPERATOR_") else name
    if key not in _BY_NAME:
        raise KeyError(f"no schema entry for {name!r}")
    return _BY_NAME[key]
