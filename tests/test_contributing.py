"""CONTRIBUTING.md's "Adding an operator" as a test: every operator type of src/schema.def has
each piece the steps name.  Where a piece is missing today the test names it in MISSING, and
fails as soon as the piece appears (so the list only shrinks) or another one goes missing."""
import glob
import importlib
import inspect
import json
import os
import re

import pytest

import dmlc
from dmlc import _core, schema
from dmlc._examples import all_examples

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
HAVE_SOURCE = os.path.exists(os.path.join(ROOT, "src", "schema.def"))
# The package's own files (the bench rows, the stubs): from the dmlc under test, which is the
# checkout's in place and the installed one when the tests run against a wheel.
PACKAGE = os.path.dirname(os.path.abspath(dmlc.__file__))
OPERATORS = _core.OPERATORS  # (name, value, family)

# Pieces missing today, by operator type: DirectML's pages give worked examples for the
# latest version of each desc, which `dmlc examples` transcribes; the earlier versions run
# through raw descs and models only.  The RESAMPLE, RESAMPLE1 and UPSAMPLE_2D pages give no
# worked example at all (the one resampling example is RESAMPLE2's, on RESAMPLE_GRAD1's page).
MISSING = {
    "example": {"SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "PADDING1", "MAX_POOLING", "MAX_POOLING1", "AVERAGE_POOLING",
                "LP_POOLING",
                "RESAMPLE", "RESAMPLE1", "UPSAMPLE_2D"},
}


def _have(piece, names):
    """Asserts that the operators lacking `piece` are exactly MISSING's."""
    lacking = {name for name, _, _ in OPERATORS if name not in names}
    assert lacking == MISSING.get(piece, set()), f"{piece}: missing for {sorted(lacking)}"


def test_schema_entry():
    _have("schema", {op.name for op in schema.operators()})


def test_example_in_dmlc_examples():
    """An example counts for an operator type when its page is the type's desc page or its
    name starts with the type ("SLICE1 example 2", "JOIN, the inverse of SPLIT ...")."""
    covered = set()
    for ex in all_examples():
        for name, _, _ in OPERATORS:
            if ex.page == f"DML_{name}_OPERATOR_DESC" or re.match(rf"{name}\b", ex.name):
                covered.add(name)
    _have("example", covered)


@pytest.mark.parametrize("family", _core.FAMILIES)
def test_bench_rows(family):
    """Each family has its workload module in dmlc.bench, with its tiny-tensor rows (the
    per-call cost, which dmlc/bench/small.py collects) in its small(torch, ort)."""
    module = importlib.import_module(f"dmlc.bench.{family}")
    assert callable(module.workloads)
    from dmlc.bench import BASELINES
    for w in module.workloads(True):  # the runner times the baselines itself, once per workload
        names = [c.name for c in w.candidates]
        assert not set(names) & set(BASELINES), f"{w.group} {w.label}: {names} repeats a baseline"
    assert callable(getattr(module, "small", None)), f"dmlc/bench/{family}.py has no small(torch, ort)"
    from dmlc.bench import Workload, small
    rows = module.small(None, None)
    assert rows and all(isinstance(w, Workload) for w in rows), f"dmlc/bench/{family}.py: small() gave {rows!r}"
    assert {"small_" + w.group for w in rows} <= {w.group for w in small.workloads(True)}


@pytest.mark.parametrize("family", _core.FAMILIES)
def test_python_function_with_a_stub(family):
    """Each family's public functions are Cython functions of dmlc/_<family>.pyx with a
    stub in dmlc/_<family>.pyi, re-exported by the generated dmlc/<family>.py under that
    module's name, and by dmlc."""
    module = importlib.import_module(f"dmlc.{family}")
    assert module.__all__
    stub = os.path.join(PACKAGE, f"_{family}.pyi")
    with open(stub, encoding="utf-8") as f:
        stubs = re.findall(r"^def ([a-z]\w*)\(", f.read(), re.M)
    assert module.__all__ == stubs
    for name in module.__all__:
        fn = getattr(module, name)
        assert getattr(dmlc, name) is fn and name in dmlc.__all__
        assert not inspect.isfunction(fn) and type(fn).__name__ == "cython_function_or_method", name
        assert fn.__module__ == f"dmlc.{family}" and fn.__qualname__ == name
        assert inspect.signature(fn).return_annotation is not inspect.Signature.empty, name


@pytest.mark.parametrize("name,value,family", OPERATORS)
def test_raw_tests(name, value, family):
    """tests/test_<family>_raw.py builds the type's desc itself."""
    with open(os.path.join(TESTS, f"test_{family}_raw.py"), encoding="utf-8") as f:
        text = f.read()
    assert re.search(rf"DML_OPERATOR_{name}\b|DML_{name}_OPERATOR_DESC|\"{name}\"", text), name


def _model_types():
    types = set()
    shipped = os.path.join(os.path.dirname(dmlc.__file__), "models")  # DxDispatch's own samples
    for path in glob.glob(os.path.join(TESTS, "models", "*.json")) + glob.glob(os.path.join(shipped, "*.json")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        types.update(t.removeprefix("DML_OPERATOR_") for t in re.findall(r'"type":\s*"(\w+)"', text))
    return types


def test_dxdispatch_model():
    """A DxDispatch model of the type under tests/models/ or among DxDispatch's samples that
    dmlc ships (dmlc/models/); test_cli.py runs them."""
    _have("model", _model_types())


@pytest.mark.skipif(not HAVE_SOURCE, reason="tests/c ships with the source tree only")
def test_c_vectors():
    """Rows in tests/c/vectors.h, so the C program (and aarch64 under qemu in CI) runs it."""
    with open(os.path.join(TESTS, "c", "vectors.h"), encoding="utf-8") as f:
        _have("vectors", set(re.findall(r"\.type = DML_OPERATOR_(\w+),", f.read())))


def test_max_pooling_model_runs(tmp_path, capsys, monkeypatch):
    """tests/models/max_pooling.json: MAX_POOLING (the first version, no indices) from JSON."""
    from dmlc import cli
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", os.path.join(TESTS, "models", "max_pooling.json")]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Resource")]
    assert out == ["Resource 'Out': 9, 4, 9, 9"]
    with open(os.path.join(TESTS, "models", "max_pooling.json"), encoding="utf-8") as f:
        assert json.load(f)["dispatchables"]["pool"]["type"] == "DML_OPERATOR_MAX_POOLING"
