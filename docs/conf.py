"""Sphinx configuration of dmlc's documentation site.

Build it from a checkout with dmlc built in place (or installed) and the docs extra:
``pip install ".[docs,dask]"`` then ``python -m sphinx -W -n -b html docs docs/_build/html``.
Before reading the sources, the build writes docs/_generated/: each operator's call examples
(docs/_ext/dmlc_calls.py, checked against dmlc while they are written), the pictures
(docs/_ext/dmlc_figures.py, each asserted against a NumPy reference).  The benchmark plot
is a committed PNG (_static/bench_quick.png) that ``dmlc bench --quick --plot`` wrote.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
# dmlc built in place in the checkout, when it is; otherwise the installed dmlc, which the
# checkout's unbuilt dmlc/ must not shadow (python -m sphinx puts the current folder first).
if any(f.startswith("_core.") and f.endswith((".so", ".pyd")) for f in os.listdir(os.path.join(ROOT, "dmlc"))):
    sys.path.insert(0, ROOT)
else:
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != ROOT]

import dmlc  # noqa: E402

project = "dmlc"
author = "the dmlc authors"
copyright = "the dmlc authors"
release = version = dmlc.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "numpydoc",
    "myst_parser",  # (CHANGELOG.md, included by changelog.rst)
    "dmlc_sphinx",
]

exclude_patterns = ["_build", "_generated/**", "Thumbs.db", ".DS_Store"]
templates_path = []
source_suffix = {".rst": "restructuredtext"}  # Markdown only where a page includes it
html_theme = "furo"
html_title = f"dmlc {release}"
html_static_path = ["_static"]
html_last_updated_fmt = None

nitpicky = True
# The signatures come from the .pyi stubs and the modules' annotations: their typing and
# NumPy names have no page of their own here (no intersphinx: the build reads no network).
nitpick_ignore_regex = [
    ("py:class", r"(np|numpy|typing|numpy\.typing)\..*"),
    ("py:class", r"ArrayLike|DTypeLike|Sequence|Optional|Union|Tuple|List|Iterable|Callable|Any|Dict|int|float|str|bool|"
                 r"None"),
    ("py:obj", r"(numpy|torch)\..*"),  # "See Also" names NumPy's and PyTorch's own functions
    ("py:class", r"dask\.array\..*|da\.Array"),
    ("py:func", r"dask\..*"),
]

numpydoc_show_class_members = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()
autodoc_typehints = "signature"
autodoc_member_order = "bysource"

doctest_global_setup = """
import numpy as np
import dmlc
"""
doctest_test_doctest_blocks = "default"
