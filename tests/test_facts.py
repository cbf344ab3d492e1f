"""Every fact has one home; these tests fail when a copy of one drifts from it.

- data types: src/dtypes.def (the core's table) against the header's DML_TENSOR_DATA_TYPE
  (as cffi reads it) and NumPy's types of the same names;
- operators: src/op_names.inc (the core's names by value) and src/schema.def (what it
  implements) against the header's DML_OPERATOR_TYPE;
- generated files: tools/generate.py's outputs against the files;
- the version: pyproject.toml against the header's DMLC_VERSION_* and dmlc.__version__.

src/ and pyproject.toml are read from the checkout this file sits in; where the tests run
without one (an installed package tested on its own) they are skipped, and the checkout's
own CI runs them.
"""
import os
import re

import numpy as np
import pytest

import dmlc
from dmlc.ffi import E_INVALIDARG, E_NOTIMPL, ffi, lib
from support import DML_TYPE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
HAVE_SOURCE = os.path.isfile(os.path.join(SRC, "dtypes.def")) and os.path.isfile(os.path.join(ROOT, "pyproject.toml"))
pytestmark = pytest.mark.skipif(not HAVE_SOURCE, reason="no source tree (src/, pyproject.toml) beside tests/")


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


def header():
    """The header the package was built with: the one cffi and the Cython binding read."""
    with open(os.path.join(dmlc.get_include(), "directml_py.h"), encoding="utf-8") as f:
        return f.read()


def macro_rows(path, macro):
    """The arguments of each line that starts with MACRO( in an X-macro file, as stripped
    strings.  A line that starts so but does not parse fails here, not silently."""
    rows = []
    for line in read(*path).splitlines():
        if line.startswith(macro + "("):
            m = re.fullmatch(re.escape(macro) + r"\(([^()]*)\)\s*", line)
            assert m, f"{'/'.join(path)}: cannot read {line!r}"
            rows.append([a.strip() for a in m.group(1).split(",")])
    assert rows, f"{'/'.join(path)} has no {macro} line"
    return rows


def operator_enum():
    """{value: name} of DML_OPERATOR_TYPE as the header spells it; an alias (NAME = OTHER)
    is left out, so each value maps to the name it was declared with."""
    body = re.search(r"typedef enum DML_OPERATOR_TYPE \{(.*?)\} DML_OPERATOR_TYPE;", header(), re.S)
    assert body, "directml_py.h: no typedef enum DML_OPERATOR_TYPE"
    pairs = re.findall(r"\b(DML_OPERATOR_\w+)\s*=\s*(\d+)\s*,?", body.group(1))
    by_value = {}
    for name, value in pairs:
        assert int(value) not in by_value, f"{name} and {by_value[int(value)]} are both {value}"
        by_value[int(value)] = name
    return by_value


# ---- data types ---------------------------------------------------------------------------

def dtype_rows():
    return macro_rows(("src", "dtypes.def"), "DMLC_DTYPE") if HAVE_SOURCE else []


@pytest.mark.parametrize("row", dtype_rows(), ids=lambda row: row[0])
def test_dtypes_def_matches_the_header_and_numpy(row):
    name, value, size, ctype = row[:4]
    assert getattr(lib, "DML_TENSOR_DATA_TYPE_" + name) == int(value), f"{name}: dtypes.def says {value}"
    assert np.dtype(name.lower()).itemsize == int(size), f"{name}: dtypes.def says {size} bytes"
    assert ffi.sizeof(ctype) == int(size), f"{name}: C storage type {ctype} is not {size} bytes"
    assert DML_TYPE[np.dtype(name.lower())] == int(value)


@pytest.mark.parametrize("row", dtype_rows(), ids=lambda row: row[0])
def test_dtypes_def_traits_are_numpys(row):
    """Kind, lowest value and comparison: what max pooling's kernels and the Python layer
    read instead of deriving them again."""
    name, _, _, _, kind, lowest, compare = row
    dt = np.dtype(name.lower())
    assert kind == {"f": "FLOAT", "i": "SIGNED", "u": "UNSIGNED"}[dt.kind]
    assert dmlc._core.DTYPE_KINDS[name] == kind
    if dt.kind == "f":
        want = "-INFINITY"
        if dt == np.float16:  # stored as its bits: those of -inf
            want = "0x%04X" % np.array(-np.inf, np.float16).view(np.uint16)
        assert compare == ("HALF" if dt == np.float16 else "FLOAT")
    else:
        want = "0" if dt.kind == "u" else f"INT{8 * dt.itemsize}_MIN"
        assert compare == "INT"
    assert lowest == want


def test_dtypes_def_lists_every_type_the_tests_run():
    """The tests' table (tests/support.py: every header type NumPy has) is the core's."""
    names = [row[0] for row in dtype_rows()]
    assert len(names) == len(set(names)), names
    assert sorted(names) == sorted(d.name.upper() for d in DML_TYPE)


# ---- operators ----------------------------------------------------------------------------

def test_operator_enum_as_cffi_reads_it():
    """The header text parsed here and cffi's view of the same enum agree, every alias too."""
    by_value = operator_enum()
    for value, name in by_value.items():
        assert getattr(lib, name) == value, name
    for name, value in ffi.typeof("DML_OPERATOR_TYPE").relements.items():
        assert value in by_value, name


def test_op_names_inc_is_the_header_enum_by_value():
    text = read("src", "op_names.inc")
    names = re.findall(r'"([^"]*)"', re.sub(r"/\*.*?\*/", "", text, flags=re.S))
    by_value = operator_enum()
    want = [by_value.get(v, f"<no DML_OPERATOR_TYPE {v}>") for v in range(max(by_value) + 1)]
    wrong = [(i, got, exp) for i, (got, exp) in enumerate(zip(names, want)) if got != exp]
    assert wrong == [], "op_names.inc index, its name, the header's name: " + repr(wrong[:5])
    assert len(names) == len(want), f"op_names.inc has {len(names)} names, the header {len(want)} values"


def test_generated_files_are_up_to_date():
    """tools/generate.py writes op_names.inc, _core.pxd's enums and desc structs (from the
    header and src/schema.def) and dmlc/__init__.py's imports (from src/schema.def's families):
    what it would write now is what the checkout has."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("generate", os.path.join(ROOT, "tools", "generate.py"))
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    stale = [path for path, text in generate.outputs().items() if read(path) != text]
    assert stale == [], f"out of date (run python tools/generate.py): {stale}"


def test_public_functions_are_the_families():
    """dmlc.__all__ holds every family module's functions, and each is that module's object."""
    import importlib
    for family in dmlc._core.FAMILIES:
        module = importlib.import_module(f"dmlc.{family}")
        for name in module.__all__:
            assert name in dmlc.__all__ and getattr(dmlc, name) is getattr(module, name), (family, name)


def schema_names():
    """The operators of src/schema.def, in its order."""
    return re.findall(r"^DMLC_SCHEMA\((\w+), \w+,", read("src", "schema.def"), re.M) if HAVE_SOURCE else []


def test_the_core_implements_exactly_schema_def():
    """dmlcCreateOperator answers E_NOTIMPL for every DML_OPERATOR_TYPE schema.def does not
    list and something else (here: an error about the all-zero desc) for each it does; the
    core's table (dmlc._core.OPERATORS) is schema.def's, values from the header."""
    assert [name for name, _, _ in dmlc._core.OPERATORS] == schema_names()
    implemented = {getattr(lib, "DML_OPERATOR_" + name) for name in schema_names()}
    assert implemented == {value for _, value, _ in dmlc._core.OPERATORS}
    zeros = ffi.new("char[]", 512)  # larger than any desc struct: every field 0 or NULL
    op = ffi.new("DMLC_OPERATOR**")
    for value in operator_enum():
        desc = ffi.new("DML_OPERATOR_DESC*", {"Type": value, "Desc": zeros})
        hr = lib.dmlcCreateOperator(desc, op)
        if hr == 0:
            lib.dmlcReleaseOperator(op[0])
        if value == lib.DML_OPERATOR_INVALID:  # no operator at all, so not "not implemented"
            assert hr == E_INVALIDARG, dmlc.ffi.last_error()
        else:
            assert (hr == E_NOTIMPL) == (value not in implemented), (value, hr, dmlc.ffi.last_error())


# ---- the version ----------------------------------------------------------------------------

def pyproject_project():
    """pyproject.toml's [project] table: (static version or None, names listed as dynamic)."""
    text = read("pyproject.toml")
    try:
        import tomllib
    except ImportError:  # Python < 3.11: read the [project] table's two lines
        table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
        version = re.search(r'^version\s*=\s*"([^"]+)"', table, re.M)
        dynamic = re.search(r"^dynamic\s*=\s*\[([^\]]*)\]", table, re.M)
        return (version.group(1) if version else None,
                re.findall(r'"([^"]+)"', dynamic.group(1)) if dynamic else [])
    project = tomllib.loads(text)["project"]
    return project.get("version"), project.get("dynamic", [])


def test_version_is_one_fact():
    parts = [re.search(rf"^#define DMLC_VERSION_{p} (\d+)\s*$", header(), re.M) for p in ("MAJOR", "MINOR", "PATCH")]
    assert all(parts), "directml_py.h: DMLC_VERSION_MAJOR/MINOR/PATCH"
    major, minor, patch = (int(m.group(1)) for m in parts)
    version = f"{major}.{minor}.{patch}"
    static, dynamic = pyproject_project()
    if static is None:  # read at build time from its one home instead of written here
        assert "version" in dynamic, "pyproject.toml has neither a version nor a dynamic one"
    else:
        assert static == version, f"pyproject.toml's version is {static}, the header's {version}"
    assert dmlc.__version__ == version
    assert lib.dmlcGetVersion() == (major << 16) | (minor << 8) | patch


def test_hresults_are_the_headers():
    # The HRESULT macros of directml_py.h, as every Python consumer sees them.
    text = header()
    from dmlc import ffi as dffi, model
    for name, value in dmlc._core.HRESULTS.items():
        m = re.search(rf"#  define {name} \(\(HRESULT\)(0x[0-9A-Fa-f]+)L\)", text) if name != "S_OK" else None
        expected = 0 if name == "S_OK" else int(m.group(1), 16) - (1 << 32)
        assert value == expected == getattr(dffi, name), name
        if value:
            assert model.HRESULT_NAMES[value] == name


def test_python_type_tables_are_dtypes_def():
    from dmlc import model
    if not HAVE_SOURCE:
        pytest.skip("src/ is not beside the tests (an installed package tested alone)")
    rows = {name: int(value) for name, value, *_ in dtype_rows()}
    assert {name: value for name, value, _ in dmlc._core.DTYPES} == rows
    assert {name: dt.newbyteorder("=") for name, dt in model.DTYPES.items()} == \
        {name: np.dtype(name.lower()) for name in rows}
    assert [name for name, _, _ in dmlc._core.OPERATORS] == schema_names()
