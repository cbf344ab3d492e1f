"""C and C++ programs built against the installed header and linked with -ldirectml_py,
with the compiler CI names in $CC/$CXX (cc and c++ by default)."""
import os
import subprocess
import sys

import pytest

import dmlc
from conftest import compiler

HERE = os.path.join(os.path.dirname(__file__), "c")
VECTORS = os.path.join(HERE, "vectors.h")


def build(tmp_path, command, source, flags):
    exe = str(tmp_path / os.path.splitext(source)[0])
    libdir = dmlc.get_library_dir()
    cmd = [*command, *flags, os.path.join(HERE, source), f"-I{dmlc.get_include()}", f"-L{libdir}", "-ldirectml_py",
           f"-Wl,-rpath,{libdir}", "-o", exe]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return exe


def build_and_run(tmp_path, command, source, flags):
    return subprocess.run([build(tmp_path, command, source, flags)], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
@pytest.mark.parametrize("std", ["-std=c99", "-std=c11"])
def test_c_program(tmp_path, std):
    r = build_and_run(tmp_path, compiler(), "depth_to_space.c", [std, "-Wall", "-Wextra", "-Werror", "-pedantic"])
    assert r.returncode == 0, r.stderr
    assert "DEPTH_TO_SPACE1 matches the documented output" in r.stdout
    assert ("error: DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.Sizes[1] is 8, not divisible by BlockSize * BlockSize (9)"
            in r.stdout)


@pytest.mark.skipif(compiler(cxx=True) is None, reason="no C++ compiler")
@pytest.mark.parametrize("std", ["-std=c++11", "-std=c++17"])
def test_cpp_program(tmp_path, std):
    r = build_and_run(tmp_path, compiler(cxx=True), "space_to_depth.cpp",
                      [std, "-Wall", "-Wextra", "-Werror", "-pthread"])
    assert r.returncode == 0, r.stderr
    assert "SPACE_TO_DEPTH1 from 4 threads matches the reference" in r.stdout


@pytest.fixture(scope="module")
def vectors_program(tmp_path_factory):
    if compiler() is None:
        pytest.skip("no C compiler")
    return build(tmp_path_factory.mktemp("vectors"), compiler(), "vectors.c",
                 ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])


@pytest.mark.parametrize("features", ["native", "generic"])
def test_vectors_program_runs_every_operator_over_the_table(vectors_program, features):
    """vectors.c: the worked examples and NumPy vectors of vectors.h through every operator,
    with the CPU's vector paths and with the portable kernels only (what aarch64 runs)."""
    with open(VECTORS) as f:
        cases = f.read().count('{.name = "')
    r = subprocess.run([vectors_program], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, DMLC_CPU_FEATURES=features))
    assert r.returncode == 0, r.stdout + r.stderr
    assert cases > 150
    assert f"vectors: {cases} of {cases} cases match over 11 operators" in r.stdout
    if features == "generic":
        assert 'CPU features in use: "")' in r.stdout


def test_vectors_table_is_what_its_generator_writes():
    """vectors.h is committed output of gen_vectors.py: both change together."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "gen_vectors.py"), "--check"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
