"""C and C++ programs built against the installed header and linked with -ldirectml_py,
with the compiler CI names in $CC/$CXX (cc and c++ by default)."""
import concurrent.futures
import functools
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

import dmlc
from support import compiler

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


SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


@functools.lru_cache(None)
def tsan_compiler():
    """A C compiler that builds and runs a ThreadSanitizer program here, else None."""
    cc = shutil.which("cc")
    if cc is None or not os.path.isdir(SRC):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "t.c"), os.path.join(tmp, "t")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        env = plain_env()
        ok = subprocess.run([cc, "-fsanitize=thread", src, "-o", exe], capture_output=True).returncode == 0
        return cc if ok and subprocess.run([exe], env=env, capture_output=True).returncode == 0 else None


def plain_env():
    # The sanitizer stage of CI preloads AddressSanitizer into this process; a
    # ThreadSanitizer program must not inherit that.
    return {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}


@pytest.mark.skipif(tsan_compiler() is None, reason="no C compiler with ThreadSanitizer, or no src/ checkout")
def test_thread_count_is_race_free_under_thread_sanitizer(tmp_path):
    """dmlcSetThreadCount/dmlcGetThreadCount from several threads while another executes:
    the core built with -fsanitize=thread (its thread pool included: two threads execute
    large operators at once) must report no data race."""
    sources = sorted(glob.glob(os.path.join(SRC, "*.c")) + glob.glob(os.path.join(SRC, "ops", "*.c"))
                     + glob.glob(os.path.join(SRC, "kernels", "*.c"))) + [os.path.join(HERE, "thread_count.c")]
    cc, exe = tsan_compiler(), str(tmp_path / "thread_count")

    def compile_one(i):
        obj = str(tmp_path / f"{i}.o")
        subprocess.run([cc, "-std=gnu11", "-O0", "-fsanitize=thread", "-DDMLC_BUILDING_LIBRARY",
                        f"-I{dmlc.get_include()}", "-c", sources[i], "-o", obj], check=True, capture_output=True)
        return obj

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:  # max_pooling.c alone takes seconds
        objects = list(pool.map(compile_one, range(len(sources))))
    subprocess.run([cc, "-fsanitize=thread", *objects, "-pthread", "-lm", "-o", exe], check=True, capture_output=True)
    r = subprocess.run([exe], env=plain_env(), capture_output=True, text=True, timeout=120)
    assert "ThreadSanitizer" not in r.stderr, r.stderr
    assert (r.returncode, r.stdout) == (0, "thread counts set, read and used from 6 threads\n")


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_c_program_slice_identity_in_place_and_tile(tmp_path):
    r = build_and_run(tmp_path, compiler(), "slice_identity.c", ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "SLICE1 with a negative stride matches the documented output",
        "ELEMENT_WISE_IDENTITY ran in place: 38 42 22 26",
        "TILE repeated the 2 x 2 block twice each way",
        "error: DML_OPERATOR_SLICE1: InputWindowStrides[2] is 0; a stride must not be 0",
    ]

@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_unloading_the_library_while_a_thread_that_called_it_lives(tmp_path):
    """unload.c: a host dlopens libdirectml_py, calls dmlcInferOutputSizes and
    dmlcExecuteOperator from a worker thread, dlcloses the library, then lets the worker
    end: its per-thread cache's destructor must still be there (the library pins itself
    when it registers one) rather than the worker dying of SIGSEGV.  Under CI's sanitizer
    stage this runs with AddressSanitizer preloaded, and .ci/run also runs it built with it."""
    exe = str(tmp_path / "unload")
    subprocess.run([*compiler(), "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-pthread",
                    os.path.join(HERE, "unload.c"), f"-I{dmlc.get_include()}", "-ldl", "-o", exe],
                   check=True, capture_output=True, text=True)
    r = subprocess.run([exe, dmlc.get_library_path()], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, "unload: a thread that called the library ended after dlclose\n"), \
        (r.returncode, r.stdout, r.stderr)
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stderr) == (2, "usage: unload LIBRARY_PATH (or DMLC_LIBRARY=LIBRARY_PATH unload)\n")


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
    assert f"vectors: {cases} of {cases} cases match over {len(dmlc._core.OPERATORS)} operators" in r.stdout
    if features == "generic":
        assert 'CPU features in use: "")' in r.stdout


@pytest.mark.skipif(not os.path.exists(os.path.join(HERE, "..", "..", "src", "schema.def")),
                    reason="gen_vectors.py reads src/, which ships with the source tree only")
def test_vectors_table_is_what_its_generator_writes():
    """vectors.h is committed output of gen_vectors.py: both change together."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "gen_vectors.py"), "--check"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
