"""Building against the installed package the ways C and Rust users do: pkg-config
(dmlc.pc), CMake (find_package(dmlc) -> dmlc::directml_py), rustc and cargo with a build.rs.
Every program runs without LD_LIBRARY_PATH: the rpath comes with the flags."""
import functools
import os
import shlex
import shutil
import stat
import subprocess
import sys

import pytest

import dmlc
from support import child_env, compiler

HERE = os.path.dirname(os.path.abspath(__file__))
C_PROGRAMS = os.path.join(HERE, "c")
RUST = os.path.join(HERE, "rust")


@functools.lru_cache(maxsize=None)
def dmlc_config(*items):
    # cwd: not a checkout's root, whose unbuilt dmlc/ `python -m` would import first.
    r = subprocess.run([sys.executable, "-m", "dmlc", "config", *items], capture_output=True, text=True,
                       env=child_env(), cwd=HERE, check=True)
    return r.stdout.strip()


def clean_env(**extra):
    """The environment minus the dynamic loader's search path, so a program finds
    libdirectml_py only through its rpath."""
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH")}
    env.update(extra)
    return env


def run(exe, cwd):
    r = subprocess.run([exe], capture_output=True, text=True, env=clean_env(), cwd=cwd, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


# rustc crashes with AddressSanitizer's runtime preloaded, as CI's sanitizer run preloads
# it for the instrumented library; the Rust recipes run in CI's other configurations.
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def same_dir(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def test_config_locates_the_pkgconfig_and_cmake_files():
    pc, cmake = dmlc_config("--pkgconfigdir").split() + dmlc_config("--cmakedir").split()
    assert os.path.isfile(os.path.join(pc, "dmlc.pc"))
    assert os.path.isfile(os.path.join(cmake, "dmlcConfig.cmake"))
    assert os.path.isfile(os.path.join(cmake, "dmlcConfigVersion.cmake"))
    # Both name the package's version, which the header's DMLC_VERSION spells too.
    with open(os.path.join(pc, "dmlc.pc")) as f:
        assert f"\nVersion: {dmlc.__version__}\n" in f.read()
    with open(os.path.join(cmake, "dmlcConfigVersion.cmake")) as f:
        assert f'set(PACKAGE_VERSION "{dmlc.__version__}")' in f.read()
    assert ".".join(map(str, [dmlc._core.HEADER_VERSION >> 16, (dmlc._core.HEADER_VERSION >> 8) & 255,
                              dmlc._core.HEADER_VERSION & 255])) == dmlc.__version__


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="no pkg-config")
def test_pkgconfig_paths_follow_the_file_wherever_it_lies(tmp_path):
    """${pcfiledir}: the same file, copied with the package's layout elsewhere, names the copy."""
    pc = dmlc_config("--pkgconfigdir")
    env = clean_env(PKG_CONFIG_PATH=pc)
    got = subprocess.run(["pkg-config", "--variable=includedir", "dmlc"], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert same_dir(got, dmlc.get_include())
    moved = tmp_path / "elsewhere" / "dmlc"
    shutil.copytree(pc, moved / "pkgconfig")
    env = clean_env(PKG_CONFIG_PATH=str(moved / "pkgconfig"))
    for var, want in (("includedir", moved / "include"), ("libdir", moved)):
        got = subprocess.run(["pkg-config", f"--variable={var}", "dmlc"], env=env, capture_output=True, text=True,
                             check=True).stdout.strip()
        assert same_dir(got, want) if os.path.exists(got) else os.path.normpath(got) == str(want)


@pytest.mark.skipif(shutil.which("pkg-config") is None or compiler() is None, reason="no pkg-config or C compiler")
def test_pkgconfig_builds_a_program_that_runs(tmp_path):
    env = clean_env(PKG_CONFIG_PATH=dmlc_config("--pkgconfigdir"))
    assert subprocess.run(["pkg-config", "--modversion", "dmlc"], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == dmlc.__version__
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "dmlc"], env=env, capture_output=True, text=True,
                           check=True).stdout
    exe = str(tmp_path / "d2s")
    b = subprocess.run([*compiler(), "-std=c99", "-Wall", "-Werror", os.path.join(C_PROGRAMS, "depth_to_space.c"),
                        *shlex.split(flags), "-o", exe], capture_output=True, text=True)
    assert b.returncode == 0, b.stderr
    assert "DEPTH_TO_SPACE1 matches the documented output" in run(exe, tmp_path)


def cmake_version_checks(*requested):
    """What dmlcConfigVersion.cmake answers to find_package(dmlc <r>) for each r, in one
    cmake -P run: "compatible=TRUE exact=" per version."""
    lines = [f'set(version_file "{dmlc_config("--cmakedir")}/dmlcConfigVersion.cmake")',
             "function(check requested major minor)",
             "  set(PACKAGE_FIND_VERSION ${requested})",
             "  set(PACKAGE_FIND_VERSION_MAJOR ${major})",
             "  set(PACKAGE_FIND_VERSION_MINOR ${minor})",
             "  include(${version_file})",
             '  message(STATUS "compatible=${PACKAGE_VERSION_COMPATIBLE} exact=${PACKAGE_VERSION_EXACT}")',
             "endfunction()"]
    for r in requested:
        major, minor = (r.split(".") + ["0"])[:2]
        lines.append(f"check({r} {major} {minor})")
    r = subprocess.run(["cmake", "-P", "/dev/stdin"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                       check=True)
    return [line.split("-- ", 1)[1] for line in r.stdout.splitlines() if line.startswith("-- ")]


@pytest.mark.skipif(shutil.which("cmake") is None or not os.path.exists("/dev/stdin"), reason="no cmake")
def test_cmake_version_rule():
    v = dmlc.__version__
    major, minor, _ = v.split(".")
    assert cmake_version_checks(v, f"{major}.{minor}", f"{major}.{int(minor) + 1}", f"{int(major) + 1}.0") == [
        "compatible=TRUE exact=TRUE", "compatible=TRUE exact=", "compatible=FALSE exact=", "compatible=FALSE exact="]


@pytest.mark.skipif(shutil.which("cmake") is None or compiler() is None or compiler(cxx=True) is None,
                    reason="no cmake or compilers")
def test_cmake_find_package_builds_the_c_programs(tmp_path):
    """tests/c/CMakeLists.txt: find_package(dmlc 0.1 REQUIRED) and dmlc::directml_py."""
    build = tmp_path / "build"
    env = clean_env(CC=shlex.join(compiler()), CXX=shlex.join(compiler(cxx=True)))
    for cmd in (["cmake", "-S", C_PROGRAMS, "-B", str(build), f"-Ddmlc_DIR={dmlc_config('--cmakedir')}"],
                ["cmake", "--build", str(build), "--parallel", "2"]):
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
    assert "DEPTH_TO_SPACE1 matches the documented output" in run(str(build / "depth_to_space"), tmp_path)
    assert "SPACE_TO_DEPTH1 from 4 threads matches the reference" in run(str(build / "space_to_depth"), tmp_path)
    assert f" cases match over {len(dmlc._core.OPERATORS)} operators" in run(str(build / "vectors"), tmp_path)


@pytest.mark.skipif(shutil.which("rustc") is None or UNDER_ASAN, reason="no rustc, or under AddressSanitizer")
def test_rustc_recipe(tmp_path):
    """README's rustc line: rustc's own flags for the search path, the library and the rpath
    (`dmlc config --libs` is C-compiler syntax, which rustc misreads)."""
    libdir = dmlc_config("--libdir")
    exe = str(tmp_path / "pad")
    r = subprocess.run(["rustc", "--edition", "2021", os.path.join(RUST, "src", "main.rs"), "-L", f"native={libdir}",
                        "-l", "dylib=directml_py", "-C", f"link-arg=-Wl,-rpath,{libdir}", "-o", exe],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    assert run(exe, tmp_path).startswith("PADDING (REFLECTION) from Rust: [3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0]")


@pytest.mark.skipif(shutil.which("cargo") is None or UNDER_ASAN, reason="no cargo, or under AddressSanitizer")
def test_cargo_build_rs_recipe(tmp_path):
    """tests/rust: build.rs runs `dmlc config --libdir` (no crates: offline)."""
    wrapper = tmp_path / "bin" / "dmlc"  # the `dmlc` script of the environment under test
    wrapper.parent.mkdir()
    wrapper.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m dmlc \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = child_env()
    env.pop("LD_LIBRARY_PATH", None)
    env.update(PATH=f"{wrapper.parent}{os.pathsep}{env['PATH']}", CARGO_TARGET_DIR=str(tmp_path / "target"))
    r = subprocess.run(["cargo", "run", "--offline", "--quiet", "--manifest-path", os.path.join(RUST, "Cargo.toml")],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("PADDING (REFLECTION) from Rust: [3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0]")
