"""DirectML's enums as Python IntEnums, and the one parser every function uses for them."""
import enum

__all__ = ["AxisDirection", "DepthSpaceOrder", "InterpolationMode", "PaddingMode", "parse_enum", "enum_value", "spellings"]


class DepthSpaceOrder(enum.IntEnum):
    """DML_DEPTH_SPACE_ORDER."""

    DEPTH_COLUMN_ROW = 0
    COLUMN_ROW_DEPTH = 1


class PaddingMode(enum.IntEnum):
    """DML_PADDING_MODE."""

    CONSTANT = 0
    EDGE = 1
    REFLECTION = 2
    SYMMETRIC = 3
    WRAP = 4


class InterpolationMode(enum.IntEnum):
    """DML_INTERPOLATION_MODE."""

    NEAREST_NEIGHBOR = 0
    LINEAR = 1


class AxisDirection(enum.IntEnum):
    """DML_AXIS_DIRECTION."""

    INCREASING = 0
    DECREASING = 1


_PREFIX = {DepthSpaceOrder: "DML_DEPTH_SPACE_ORDER_", PaddingMode: "DML_PADDING_MODE_",
           InterpolationMode: "DML_INTERPOLATION_MODE_", AxisDirection: "DML_AXIS_DIRECTION_"}
_ALIASES = {
    InterpolationMode: {"nearest": 0, "bilinear": 1, "trilinear": 1},
    DepthSpaceOrder: {"dcr": 0, "crd": 1},
    PaddingMode: {"reflect": 2},
}
_TABLES = {}


def _table(cls):
    table = _TABLES.get(cls)
    if table is None:
        table = {}
        for m in cls:
            table[m.name.lower()] = m
            table[(_PREFIX[cls] + m.name).lower()] = m
        for alias, value in _ALIASES.get(cls, {}).items():
            table[alias] = cls(value)
        _TABLES[cls] = table
    return table


_FAST = {}


def spellings(cls):
    """{spelling: int value} for the spellings enum_value finds first (a member's name in
    lower case, DirectML's full name in lower case, an alias): for callers in Cython that
    look a str up themselves and call enum_value for anything else."""
    return {k: int(m) for k, m in _table(cls).items()}


def enum_value(value, cls, fname, argname):
    """parse_enum(...)'s value as an int, with a dict lookup first for the common spellings
    (a member, or a name as written in the docs): a few tens of nanoseconds per call."""
    fast = _FAST.get(cls)
    if fast is None:
        fast = _FAST[cls] = {**{k: int(m) for k, m in _table(cls).items()}, **{m: int(m) for m in cls}}
    if type(value) is str or type(value) is cls:
        v = fast.get(value)
        if v is not None:
            return v
    return int(parse_enum(value, cls, fname, argname))


def parse_enum(value, cls, fname, argname):
    """Return the cls member that value names: a member, a string (case-insensitive; the
    short name, DirectML's full name or a listed alias) or a valid int."""
    if type(value) is cls:
        return value
    if isinstance(value, str):
        member = _table(cls).get(value.lower())
        if member is None:
            aliases = _ALIASES.get(cls, {})

            def name(m):
                also = [a for a, v in aliases.items() if v == m]
                return repr(m.name.lower()) + (f" (or {', '.join(map(repr, also))})" if also else "")
            names = ", ".join(name(m) for m in cls)
            raise ValueError(f"{fname}: {argname} is {value!r}, expected one of {names}")
        return member
    if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"{fname}: {argname} is {value}, expected one of "
                             f"{', '.join(f'{m.value} ({m.name})' for m in cls)}") from None
    raise TypeError(f"{fname}: {argname} must be a string or {cls.__name__}, not {type(value).__name__}")
