"""The Python package's surface: version, public names, typing marker, unbuilt-tree message."""
import importlib
import os
import shutil
import subprocess
import sys

import dmlc

PUBLIC_MODULES = ["dmlc", "dmlc.depth_space", "dmlc.padding", "dmlc.split_join", "dmlc.max_pooling", "dmlc.ffi",
                  "dmlc._enums"]


def test_every_public_module_declares_all():
    for name in PUBLIC_MODULES:
        mod = importlib.import_module(name)
        assert mod.__all__, name
        for attr in mod.__all__:
            assert hasattr(mod, attr), f"{name}.{attr}"


def test_version_comes_from_the_header():
    major, minor, patch = (dmlc._core.HEADER_VERSION >> 16) & 0xFF, (dmlc._core.HEADER_VERSION >> 8) & 0xFF, \
        dmlc._core.HEADER_VERSION & 0xFF
    assert dmlc.__version__ == f"{major}.{minor}.{patch}"


def test_typed_package():
    assert os.path.exists(os.path.join(os.path.dirname(dmlc.__file__), "py.typed"))


def test_families_follow_schema_def():
    assert dmlc._core.FAMILIES == tuple(dict.fromkeys(f for _, _, f in dmlc._core.OPERATORS))
    assert ("MAX_POOLING2", 110, "max_pooling") in dmlc._core.OPERATORS


def test_unbuilt_source_tree_says_so(tmp_path):
    # The package's Python files without its compiled modules, as in a fresh checkout.
    src = os.path.dirname(dmlc.__file__)
    shutil.copytree(src, tmp_path / "dmlc", ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dylib", "*.dll"))
    r = subprocess.run([sys.executable, "-c", "import dmlc"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1
    assert "dmlc is imported from an unbuilt source tree" in r.stderr
    assert "python setup.py build_ext --inplace" in r.stderr
