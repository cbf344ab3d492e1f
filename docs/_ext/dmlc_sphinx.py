"""Sphinx glue for dmlc's site: writes docs/_generated/ before the build reads the sources
(operator call examples, the C API reference, pictures) and gives the API pages the
signatures of the .pyi stubs and the modules' own source.

Generated files are written only when their content changes, so an incremental build
rebuilds only what changed.
"""
import ast
import glob
import importlib
import inspect
import os
import re

import dmlc_calls
import dmlc_capi
import dmlc_figures

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
ROOT = os.path.dirname(DOCS)
GENERATED = os.path.join(DOCS, "_generated")


def _stub_signatures():
    """{(module, function): "(args) -> returns"} as written in dmlc/*.pyi and dmlc's .py
    modules (where the function is defined in Python, its own annotations)."""
    sigs = {}
    pkg = os.path.join(ROOT, "dmlc")
    for dirpath, _, files in os.walk(pkg):
        for name in files:
            if not name.endswith((".pyi", ".py")):
                continue
            path = os.path.join(dirpath, name)
            tree = ast.parse(open(path).read())
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                    args = ast.unparse(node.args)
                    ret = ast.unparse(node.returns) if node.returns is not None else None
                    # A .pyi wins over a .py of the same function (the stub is the contract).
                    key = node.name, os.path.relpath(dirpath, ROOT)
                    if name.endswith(".pyi") or key not in sigs:
                        sigs[key] = (f"({args})", ret)
    return sigs


_SIGS = None


def process_signature(app, what, name, obj, options, signature, return_annotation):
    global _SIGS
    if what != "function":
        return None
    if _SIGS is None:
        _SIGS = _stub_signatures()
    module = name.rsplit(".", 1)[0]
    folder = os.path.join(*module.split(".")) if module != "dmlc" else "dmlc"
    # dmlc's own functions are re-exported from private modules: look in the package folder
    # of the public name (dmlc or dmlc/dask).
    found = _SIGS.get((name.rsplit(".", 1)[1], folder))
    if found is None:
        return None
    return found


_STAR = re.compile(r"(?<![*\\])\*(?=\w)")
_PARAM = re.compile(r"^(\s*[\w, ]+ : )(.*)$")


def escape_param_types(app, what, name, obj, options, lines):
    """A parameter's type line such as ``x : array_like, shape (N, C, *spatial)`` is reST
    to numpydoc: its ``*spatial`` would open an emphasis.  Escape such stars (the
    docstrings stay as help() shows them)."""
    for k, line in enumerate(lines):
        m = _PARAM.match(line)
        if m:
            lines[k] = m.group(1) + _STAR.sub(r"\\*", m.group(2))


def _changelog():
    """_generated/CHANGELOG.md: the repository's CHANGELOG.md for docs/changelog.rst to
    include, without its title (the page has its own) and with every heading one level up
    (its "## Unreleased" becomes the page's first section); empty where there is none."""
    path = os.path.join(ROOT, "CHANGELOG.md")
    lines = open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    fenced = False
    for k, line in enumerate(lines):
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("##"):
            lines[k] = line[1:]
    dmlc_calls._write_if_changed(os.path.join(GENERATED, "CHANGELOG.md"), "\n".join(lines) + "\n")


def examples_header(app, what, name, obj, options, lines):
    """numpydoc reads a doctest block that follows another section without an "Examples"
    header as part of that section (and garbles it): give such a block its header."""
    if any(line.strip() == "Examples" for line in lines):
        return
    for k, line in enumerate(lines):
        if line.lstrip().startswith(">>>"):
            indent = line[:len(line) - len(line.lstrip())]
            lines[k:k] = [f"{indent}Examples", f"{indent}--------"] + ([""] if k and lines[k - 1].strip() else [])
            return


def _inputs_stamp():
    """What the generated files depend on: the generators, the header, schema.def and the dmlc
    build they ran."""
    import hashlib

    import dmlc
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(HERE, "*.py"))) + [dmlc_calls.HEADER, os.path.join(ROOT, "src", "schema.def"),
                                                                  os.path.join(ROOT, "CHANGELOG.md")]:
        if os.path.exists(path):
            with open(path, "rb") as f:
                h.update(f.read())
    lib = dmlc.get_library_path()
    h.update(f"{dmlc.__file__} {lib} {os.stat(lib).st_mtime_ns}".encode())
    return h.hexdigest()


def generate(app):
    """Writes _generated/ unless it was written from the same inputs (an html build then a
    doctest build generate once)."""
    stamp_path = os.path.join(GENERATED, "stamp")
    stamp = _inputs_stamp()
    if os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return
    dmlc_calls.generate(GENERATED)
    dmlc_capi.generate(GENERATED)
    _changelog()
    dmlc_figures.generate(os.path.join(GENERATED, "figures"))
    with open(stamp_path, "w") as f:
        f.write(stamp)


def public_functions():
    """[(module name, function name)] of every public function of dmlc and dmlc.dask."""
    out = []
    for modname in ("dmlc", "dmlc.dask"):
        mod = importlib.import_module(modname)
        for n in mod.__all__:
            obj = getattr(mod, n)
            if callable(obj) and not inspect.isclass(obj):
                out.append((modname, n))
    return out


def setup(app):
    app.connect("builder-inited", generate)
    app.connect("autodoc-process-signature", process_signature)
    app.connect("autodoc-process-docstring", escape_param_types, priority=400)  # before numpydoc
    app.connect("autodoc-process-docstring", examples_header, priority=400)
    return {"parallel_read_safe": True, "version": "1"}
