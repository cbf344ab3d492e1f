"""C and C++ programs built against the installed header and linked with -ldirectml_py."""
import os
import shutil
import subprocess

import pytest

import dmlc

HERE = os.path.join(os.path.dirname(__file__), "c")


def build_and_run(tmp_path, compiler, source, flags):
    exe = str(tmp_path / "prog")
    libdir = dmlc.get_library_dir()
    cmd = [compiler, *flags, os.path.join(HERE, source), f"-I{dmlc.get_include()}", f"-L{libdir}", "-ldirectml_py",
           f"-Wl,-rpath,{libdir}", "-o", exe]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return subprocess.run([exe], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
@pytest.mark.parametrize("std", ["-std=c99", "-std=c11"])
def test_c_program(tmp_path, std):
    r = build_and_run(tmp_path, "cc", "depth_to_space.c", [std, "-Wall", "-Wextra", "-Werror", "-pedantic"])
    assert r.returncode == 0, r.stderr
    assert "DEPTH_TO_SPACE1 matches the documented output" in r.stdout
    assert ("error: DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.Sizes[1] is 8, not divisible by BlockSize * BlockSize (9)"
            in r.stdout)


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
@pytest.mark.parametrize("std", ["-std=c++11", "-std=c++17"])
def test_cpp_program(tmp_path, std):
    r = build_and_run(tmp_path, "c++", "space_to_depth.cpp", [std, "-Wall", "-Wextra", "-Werror", "-pthread"])
    assert r.returncode == 0, r.stderr
    assert "SPACE_TO_DEPTH1 from 4 threads matches the reference" in r.stdout


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_program_slice_identity_in_place_and_tile(tmp_path):
    r = build_and_run(tmp_path, "cc", "slice_identity.c", ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "SLICE1 with a negative stride matches the documented output",
        "ELEMENT_WISE_IDENTITY ran in place: 38 42 22 26",
        "TILE repeated the 2 x 2 block twice each way",
        "error: DML_OPERATOR_SLICE1: InputWindowStrides[2] is 0; a stride must not be 0",
    ]
