"""The public functions' signatures: parameter names, kinds and defaults as users see them
(inspect, help, IDEs), the same whether a function is written in Python or in Cython, and
the type stubs (.pyi) of the Cython ones saying the same."""
import ast
import importlib
import inspect
import os
import typing

import pytest

import dmlc

POS, KW = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
REQUIRED = inspect.Parameter.empty

# (name, kind, default) per parameter, in order; the public module each function lives in.
SIGNATURES = {
    "split": ("dmlc.split_join", [("x", POS, REQUIRED), ("sections_or_sizes", POS, REQUIRED), ("axis", POS, REQUIRED),
                                  ("out", KW, None)]),
    "depth_to_space": ("dmlc.depth_space", [("x", POS, REQUIRED), ("block_size", POS, REQUIRED),
                                            ("order", KW, "depth_column_row"), ("out", KW, None)]),
    "space_to_depth": ("dmlc.depth_space", [("x", POS, REQUIRED), ("block_size", POS, REQUIRED),
                                            ("order", KW, "depth_column_row"), ("out", KW, None)]),
    "avg_pool": ("dmlc.average_pooling", [("x", POS, REQUIRED), ("window_size", POS, REQUIRED), ("strides", KW, None),
                                          ("start_padding", KW, None), ("end_padding", KW, None),
                                          ("dilations", KW, None), ("include_padding", KW, False),
                                          ("ceil_mode", KW, False), ("out", KW, None)]),
    "max_unpool": ("dmlc.max_unpooling", [("x", POS, REQUIRED), ("indices", POS, REQUIRED),
                                          ("output_shape", POS, REQUIRED), ("out", KW, None)]),
    "pad": ("dmlc.padding", [("x", POS, REQUIRED), ("start_padding", POS, REQUIRED), ("end_padding", POS, REQUIRED),
                             ("mode", KW, "constant"), ("value", KW, 0), ("out", KW, None)]),
    "join": ("dmlc.split_join", [("arrays", POS, REQUIRED), ("axis", POS, REQUIRED), ("out", KW, None)]),
    "identity": ("dmlc.element_wise_identity", [("x", POS, REQUIRED), ("scale", KW, None), ("bias", KW, None),
                                                ("out", KW, None)]),
    "slice": ("dmlc.slicing", [("x", POS, REQUIRED), ("offsets", POS, REQUIRED), ("sizes", POS, REQUIRED),
                               ("strides", POS, 1), ("out", KW, None)]),
    "tile": ("dmlc.tiling", [("x", POS, REQUIRED), ("repeats", POS, REQUIRED), ("out", KW, None)]),
    "gather": ("dmlc.gather", [("x", POS, REQUIRED), ("indices", POS, REQUIRED), ("axis", POS, REQUIRED),
                               ("out", KW, None)]),
    "max_pool": ("dmlc.max_pooling", [("x", POS, REQUIRED), ("window_size", POS, REQUIRED), ("strides", KW, None),
                                      ("start_padding", KW, None), ("end_padding", KW, None), ("dilations", KW, None),
                                      ("return_indices", KW, False), ("indices_dtype", KW, "uint32"),
                                      ("ceil_mode", KW, False), ("out", KW, None)]),
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_parameters_kinds_and_defaults(name):
    module, want = SIGNATURES[name]
    f = getattr(dmlc, name)
    got = [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
    assert got == want
    # Exact types too: a default of 0 where False was documented would pass ==.
    assert [type(d) for _, _, d in got] == [type(d) for _, _, d in want]
    assert f.__module__ == module and f.__name__ == name and f.__qualname__ == name
    assert getattr(importlib.import_module(module), name) is f


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_annotations_resolve_and_docstring_is_whole(name):
    f = getattr(dmlc, name)
    hints = typing.get_type_hints(f)
    assert set(hints) == {p for p, _, _ in SIGNATURES[name][1]} | {"return"}
    doc = inspect.getdoc(f)
    for section in ("Parameters", "Returns", "Examples"):
        assert f"\n{section}\n" in doc, section
    for p, _, _ in SIGNATURES[name][1]:
        assert p in doc, p


def _stub_signatures(path):
    """{name: [(parameter, kind, default)]} of the functions in a .pyi file."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            pos = [(x.arg, POS) for x in a.args]
            pos_defaults = [REQUIRED] * (len(a.args) - len(a.defaults)) + [ast.literal_eval(d) for d in a.defaults]
            kw = [(x.arg, KW) for x in a.kwonlyargs]
            kw_defaults = [REQUIRED if d is None else ast.literal_eval(d) for d in a.kw_defaults]
            out[node.name] = [(n, k, d) for (n, k), d in zip(pos + kw, pos_defaults + kw_defaults)]
    return out


@pytest.mark.parametrize("module", ["dmlc._split_join", "dmlc._max_pooling", "dmlc._depth_space", "dmlc._average_pooling",
                                    "dmlc._max_unpooling", "dmlc._padding", "dmlc._element_wise_identity",
                                    "dmlc._slicing", "dmlc._tiling", "dmlc._gather"])
def test_stubs_match_the_compiled_functions(module):
    mod = importlib.import_module(module)
    stub = os.path.join(os.path.dirname(dmlc.__file__), module.split(".")[1] + ".pyi")
    stubs = _stub_signatures(stub)
    assert stubs
    for name, want in stubs.items():
        got = [(p.name, p.kind, p.default) for p in inspect.signature(getattr(mod, name)).parameters.values()]
        assert got == want, name
