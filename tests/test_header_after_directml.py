"""directml_py.h after Microsoft's DirectML.h: with DIRECTML_H already defined the header
adds only the dmlc API (DMLC_* and dmlc*), and nothing in it, its layout checks included,
may name a DirectML type that the DirectML.h included first does not declare.

The DirectML.h here is a stand-in for an older one: the Win32 base types, the enums, the
tensor and operator descs, DML_SCALAR_UNION and the descs of the first eleven operators
(depth/space and their version 1, padding and PADDING1, split, join, max pooling 0 to 2),
taken from directml_py.h's own declarations; no DML_SCALE_BIAS, identity, slice, tile,
unpooling or average pooling.  A program including it first compiles warning-free as C99,
C11 and C++11, links with -ldirectml_py and runs DEPTH_TO_SPACE1 through it."""
import os
import re
import subprocess

import pytest

import dmlc
from support import compiler

# The descs an older DirectML.h declares (besides the enums and DML_SCALAR_UNION).
SEED_STRUCTS = {
    "DML_BUFFER_TENSOR_DESC", "DML_TENSOR_DESC", "DML_OPERATOR_DESC",
    "DML_SPACE_TO_DEPTH_OPERATOR_DESC", "DML_DEPTH_TO_SPACE_OPERATOR_DESC", "DML_SPACE_TO_DEPTH1_OPERATOR_DESC",
    "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", "DML_PADDING_OPERATOR_DESC", "DML_PADDING1_OPERATOR_DESC",
    "DML_SPLIT_OPERATOR_DESC", "DML_JOIN_OPERATOR_DESC", "DML_MAX_POOLING_OPERATOR_DESC",
    "DML_MAX_POOLING1_OPERATOR_DESC", "DML_MAX_POOLING2_OPERATOR_DESC",
}

PROGRAM = r"""
#include "DirectML.h"
#include "directml_py.h"
#include <stdio.h>

int main(void)
{
    /* DEPTH_TO_SPACE1, block 2, DEPTH_COLUMN_ROW: {1, 4, 1, 1} -> {1, 1, 2, 2}. */
    static const UINT in_sizes[4] = {1, 4, 1, 1}, out_sizes[4] = {1, 1, 2, 2};
    float x[4] = {1, 2, 3, 4}, y[4] = {0, 0, 0, 0};
    DML_BUFFER_TENSOR_DESC ib = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, NULL, 16, 0};
    DML_BUFFER_TENSOR_DESC ob = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, NULL, 16, 0};
    DML_TENSOR_DESC it = {DML_TENSOR_TYPE_BUFFER, &ib}, ot = {DML_TENSOR_TYPE_BUFFER, &ob};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC d2s = {&it, &ot, 2, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    DML_OPERATOR_DESC op = {DML_OPERATOR_DEPTH_TO_SPACE1, &d2s};
    DMLC_BUFFER_BINDING in_b = {x, 0, 16}, out_b = {y, 0, 16};
    HRESULT hr = dmlcExecuteOperator(&op, 1, &in_b, 1, &out_b);
    printf("%d %g %g %g %g\n", (int)hr, y[0], y[1], y[2], y[3]);
    return hr == 0 ? 0 : 1;
}
"""


def stand_in():
    """An older DirectML.h: DIRECTML_H, the base types, and the seed declarations of
    directml_py.h's own DirectML block (every other typedef struct dropped)."""
    with open(os.path.join(dmlc.get_include(), "directml_py.h"), encoding="utf-8") as f:
        header = f.read()

    def block(name):
        return header[header.index(f"/* @cdef-begin {name} */"):header.index(f"/* @cdef-end {name} */")]

    def keep(m):
        return m.group(0) if m.group(1) != "struct" or m.group(2) in SEED_STRUCTS else ""

    dml = re.sub(r"typedef (struct|union|enum) (\w+) \{.*?\} \2;", keep, block("dml"), flags=re.S)
    # and the aliases of dropped descs (DML_SCATTER_ELEMENTS_OPERATOR_DESC of DML_SCATTER_OPERATOR_DESC)
    dml = re.sub(r"typedef (DML_\w+_OPERATOR_DESC) \w+;\n", lambda m: m.group(0) if m.group(1) in SEED_STRUCTS else "",
                 dml)
    kept = set(re.findall(r"typedef struct (\w+) \{", dml))
    assert kept == SEED_STRUCTS, kept ^ SEED_STRUCTS
    return ("#ifndef DIRECTML_H\n#define DIRECTML_H\n#include <stdint.h>\n" + block("base") + dml
            + "#endif\n")


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
@pytest.mark.parametrize("std", ["-std=c99", "-std=c11", "-std=c++11"])
def test_header_after_an_older_directml_h(tmp_path, std):
    (tmp_path / "DirectML.h").write_text(stand_in())
    cxx = std.startswith("-std=c++")
    src = tmp_path / ("app.cpp" if cxx else "app.c")
    src.write_text(PROGRAM)
    cc = compiler(cxx=cxx)
    if cc is None:
        pytest.skip("no C++ compiler")
    exe = str(tmp_path / "app")
    libdir = dmlc.get_library_dir()
    r = subprocess.run([*cc, std, "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{tmp_path}",
                        f"-I{dmlc.get_include()}", str(src), f"-L{libdir}", "-ldirectml_py", f"-Wl,-rpath,{libdir}",
                        "-o", exe], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, "0 1 2 3 4\n"), r.stderr


def test_the_stand_in_lacks_what_a_newer_directml_h_adds():
    """The stand-in really is older: the types the layout checks named before (and that
    the header may check only where it declares them itself) are absent from it."""
    text = stand_in()
    for name in ("DML_SCALE_BIAS", "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", "DML_SLICE1_OPERATOR_DESC",
                 "DML_TILE_OPERATOR_DESC", "DML_AVERAGE_POOLING1_OPERATOR_DESC", "DML_MAX_UNPOOLING_OPERATOR_DESC"):
        assert f"typedef struct {name} " not in text, name
