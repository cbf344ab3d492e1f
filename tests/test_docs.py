"""The documentation site (docs/) covers the product: every public function of dmlc and
dmlc.dask has a page with an example, every operator of src/schema.def has its page, its
picture and its call examples, the C program each operator page shows compiles and prints
what the page says, and no comment or page cites a document the repository does not hold.

The site's own build (CI's stage 4b: sphinx -W -n, every example run as a doctest, links,
headless Chromium) checks the pages' content; these tests check that nothing is missing.
They need the checkout's docs/ folder, which the wheel does not carry.
"""
import concurrent.futures
import importlib
import importlib.util
import inspect
import os
import re
import subprocess

import pytest

import dmlc
from support import compiler

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")

pytestmark = pytest.mark.skipif(not os.path.isdir(os.path.join(DOCS, "_ext")),
                                reason="docs/ is in a checkout only (the wheel's tests run without it)")


def _load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(DOCS, "_ext", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    import sys
    sys.path.insert(0, os.path.join(DOCS, "_ext"))  # the generators import each other
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(os.path.join(DOCS, "_ext"))
    return module


def _read(*parts):
    with open(os.path.join(DOCS, *parts), encoding="utf-8") as f:
        return f.read()


def _public_functions():
    out = []
    for modname in ("dmlc", "dmlc.dask"):
        pytest.importorskip("dask") if modname == "dmlc.dask" else None
        mod = importlib.import_module(modname)
        out += [(modname, n) for n in mod.__all__ if callable(getattr(mod, n)) and not inspect.isclass(getattr(mod, n))]
    return out


def _toctree_entries(text):
    """Documents named in a page's toctree directives."""
    entries = []
    for block in re.findall(r"\.\. toctree::\n((?:\n|   .*\n)*)", text + "\n"):
        entries += [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith(":")]
    return entries


def _ops():
    return [(name, str(value), family) for name, value, family in dmlc._core.OPERATORS]


def test_every_public_function_has_a_page_with_an_example():
    functions = _public_functions()
    assert len(functions) >= 20
    listed = _toctree_entries(_read("python-api.rst"))
    for modname, name in functions:
        full = f"{modname}.{name}"
        path = os.path.join("api", f"{full}.rst")
        assert os.path.exists(os.path.join(DOCS, path)), f"{full} has no page docs/{path}"
        page = _read(path)
        assert f".. autofunction:: {full}\n" in page, f"docs/{path} does not document {full}"
        doc = getattr(importlib.import_module(modname), name).__doc__ or ""
        assert ">>>" in page or ">>>" in doc, f"{full}: neither its docstring nor docs/{path} has an example"
        assert f"api/{full}" in listed, f"docs/python-api.rst does not list api/{full}"
    # and no page for a function that is gone
    pages = {f[:-4] for f in os.listdir(os.path.join(DOCS, "api")) if f.endswith(".rst")}
    assert pages == {f"{m}.{n}" for m, n in functions}


def test_every_operator_has_its_page_picture_and_examples():
    calls = _load("dmlc_calls")
    figures = _load("dmlc_figures")
    ops = _ops()
    assert len(ops) == len(calls.implemented_operators()) >= 18
    listed = _toctree_entries(_read("operators", "index.rst"))
    index = _read("operators", "index.rst")
    for op, value, family in ops:
        page_name = op.lower()
        path = os.path.join("operators", page_name + ".rst")
        assert os.path.exists(os.path.join(DOCS, path)), f"DML_OPERATOR_{op} has no page docs/{path}"
        page = _read(path)
        assert page.startswith(f"{op} ({value})\n"), f"docs/{path} is not titled {op} ({value})"
        assert f"/_generated/ops/{op}.rst" in page and f"/_generated/ops/{op}.struct.rst" in page, \
            f"docs/{path} does not include its call examples and desc"
        picture = figures.FAMILY_FIGURE[family]
        assert picture in figures.FIGURES
        assert f".. image:: /_generated/figures/{picture}" in page, f"docs/{path} does not show {picture}"
        for section in ("Semantics", "Validation", "DirectML's quirks and dmlc's choices", "NumPy, PyTorch and ONNX",
                        "Calling it"):
            text = page
            for inc in re.findall(r"\.\. include:: (_\w+\.inc)", page):
                text += _read("operators", inc)
            assert f"\n{section}\n---" in text, f"docs/{path} has no section {section!r}"
        assert op in calls.CASES, f"DML_OPERATOR_{op} has no example in docs/_ext/dmlc_calls.py"
        assert page_name in listed and f"<{page_name}>`" in index


def test_operator_examples_agree_in_every_interface(tmp_path):
    """The generator evaluates each operator's Python example, runs its DxDispatch model
    and compares them; the C programs it writes compile warning-free and print the values
    written beside them."""
    calls = _load("dmlc_calls")
    calls.generate(str(tmp_path))
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler")
    libdir = dmlc.get_library_dir()

    def build_and_run(op):
        exe = str(tmp_path / op.lower())
        subprocess.run([*cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", str(tmp_path / "ops" / f"{op}.c"),
                        f"-I{dmlc.get_include()}", f"-L{libdir}", "-ldirectml_py", f"-Wl,-rpath,{libdir}", "-o", exe],
                       check=True, capture_output=True, text=True)
        return subprocess.run([exe], capture_output=True, text=True, timeout=60).stdout

    ops = calls.implemented_operators()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        printed = dict(zip(ops, pool.map(build_and_run, ops)))
    for op in ops:
        assert printed[op] == (tmp_path / "ops" / f"{op}.expected").read_text(), op


def test_the_c_api_page_declares_every_function_of_the_header(tmp_path):
    capi = _load("dmlc_capi")
    header = open(os.path.join(ROOT, "include", "directml_py.h")).read()
    functions = set(re.findall(r"DMLC_API [^;]*?\b(dmlc\w+)\(", header))
    out = str(tmp_path)
    capi.generate(out)
    text = open(os.path.join(out, "c_api.rst")).read()
    documented = set(re.findall(r"\.\. c:function:: [^(]*?\b(dmlc\w+)\(", text))
    assert functions and documented == functions


def test_figures_match_their_references():
    """Each picture asserts dmlc's output against a NumPy statement of the rule before it
    draws: a wrong picture fails here and in the site's build."""
    pytest.importorskip("matplotlib")
    figures = _load("dmlc_figures")
    import matplotlib.pyplot as plt
    for name, make in figures.FIGURES.items():
        fig = make()
        assert fig.axes, name
        plt.close(fig)


def test_reference_pictures_catch_a_wrong_result(monkeypatch):
    """A dmlc that put one element in the wrong place fails the picture's assertion."""
    pytest.importorskip("matplotlib")
    figures = _load("dmlc_figures")
    real = dmlc.tile

    def wrong_tile(x, repeats, **kw):
        y = real(x, repeats, **kw)
        y[0, 0] += 1
        return y
    monkeypatch.setattr(figures.dmlc, "tile", wrong_tile)
    with pytest.raises(AssertionError):
        figures.tile()


def test_no_file_cites_the_team_specification():
    """Comments, docstrings and pages cite the project's own documentation (docs/), never
    the team's specification, which users do not have."""
    word = "SP" + "EC"  # (spelled apart, so this file does not cite it either)
    cited = re.compile(rf"\b{word}\b(?!S)")
    tracked = subprocess.run(["git", "ls-files", "src", "include", "dmlc", "tests", "tools", "docs", "bench"],
                             cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode:
        pytest.skip("not a git checkout")
    hits = []
    for path in tracked.stdout.split():
        if path.endswith((".png", ".npy", ".bin")):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if cited.search(line):
                    hits.append(f"{path}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)
