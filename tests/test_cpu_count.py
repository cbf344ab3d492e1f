"""The default thread count is the CPUs the process may use: its affinity mask, lowered to a
cgroup CPU quota (rounded up), like os.process_cpu_count() and the Go and .NET runtimes; a
container limited to 2 CPUs on a 64-core host runs 2 threads.  DMLC_NUM_THREADS and
dmlc.set_num_threads still win.  The cgroup reading is fed file contents through a small C
program built with the core's src/cpu_count.c (tests/c/cpu_quota.c)."""
import functools
import os
import shutil
import subprocess
import sys

import pytest

import dmlc
from support import child_cwd, child_env, compiler, library_has_threads

HERE = os.path.join(os.path.dirname(__file__), "c")
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
needs_program = pytest.mark.skipif(compiler() is None or not os.path.isdir(SRC), reason="no C compiler, or no src/ checkout")


@functools.lru_cache(None)
def program(tmp):
    exe = os.path.join(tmp, "cpu_quota")
    subprocess.run([*compiler(), "-std=gnu11", "-O1", "-Wall", "-Wextra", "-Werror", "-DDMLC_BUILDING_LIBRARY",
                    f"-I{dmlc.get_include()}", os.path.join(HERE, "cpu_quota.c"), os.path.join(SRC, "cpu_count.c"),
                    "-o", exe], check=True, capture_output=True)
    return exe


@pytest.fixture(scope="module")
def quota(tmp_path_factory):
    exe = program(str(tmp_path_factory.mktemp("cpu_quota")))

    def run(*args):
        r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return int(r.stdout)
    return run


@needs_program
@pytest.mark.parametrize("text,cpus", [
    ("max 100000\n", 0), ("max", 0),                                # no limit
    ("200000 100000\n", 2), ("400000 100000", 4),
    ("150000 100000\n", 2), ("50000 100000\n", 1), ("1 100000\n", 1),  # a part of a CPU is a thread
    ("6400000 100000\n", 64),
    ("", 0), ("abc\n", 0), ("200000\n", 0), ("200000 0\n", 0), ("-1 100000\n", 0), ("0 100000\n", 0),
    ("200000  100000\n", 0), ("99999999999999999999999 100000\n", 0),
])
def test_cgroup2_cpu_max(quota, text, cpus):
    assert quota("v2", text) == cpus


@needs_program
@pytest.mark.parametrize("q,period,cpus", [
    ("-1\n", "100000\n", 0), ("200000\n", "100000\n", 2), ("250000\n", "100000\n", 3), ("50000\n", "100000\n", 1),
    ("200000\n", "0\n", 0), ("x\n", "100000\n", 0), ("200000\n", "\n", 0),
])
def test_cgroup1_cfs_quota(quota, q, period, cpus):
    assert quota("v1", q, period) == cpus


def tree(tmp_path, proc, files):
    """A fake /proc/self/cgroup and /sys/fs/cgroup hierarchy under tmp_path."""
    (tmp_path / "proc").write_text(proc)
    root = tmp_path / "sys"
    root.mkdir()
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return str(tmp_path / "proc"), str(root)


@needs_program
@pytest.mark.parametrize("proc,files,cpus", [
    # cgroup v2: the lowest quota of the process's cgroup and its ancestors.
    ("0::/a/b\n", {"a/b/cpu.max": "max 100000\n", "a/cpu.max": "300000 100000\n"}, 3),
    ("0::/a/b\n", {"a/b/cpu.max": "100000 100000\n", "a/cpu.max": "300000 100000\n"}, 1),
    ("0::/a/b\n", {"a/b/cpu.max": "max 100000\n", "a/cpu.max": "max 100000\n"}, 0),
    ("0::/\n", {"cpu.max": "200000 100000\n"}, 2),                       # in a cgroup namespace: the root
    ("0::/docker/abc\n", {"cpu.max": "200000 100000\n"}, 2),             # own cgroup mounted as the root
    ("0::/\n", {}, 0),                                                  # nothing to read
    # cgroup v1: the cpu controller's hierarchy, mounted at root/cpu.
    ("4:cpu,cpuacct:/job\n3:cpuset:/\n", {"cpu/job/cpu.cfs_quota_us": "200000\n", "cpu/job/cpu.cfs_period_us": "100000\n"}, 2),
    ("4:cpuacct,cpu:/job\n", {"cpu/job/cpu.cfs_quota_us": "-1\n", "cpu/job/cpu.cfs_period_us": "100000\n",
                              "cpu/cpu.cfs_quota_us": "700000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 7),
    ("3:cpuset:/job\n", {"cpu/job/cpu.cfs_quota_us": "200000\n", "cpu/job/cpu.cfs_period_us": "100000\n"}, 0),  # not cpu
    ("4:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, 0),
    # both (a hybrid system): the lower
    ("4:cpu:/\n0::/s\n", {"cpu/cpu.cfs_quota_us": "500000\n", "cpu/cpu.cfs_period_us": "100000\n",
                          "s/cpu.max": "300000 100000\n"}, 3),
    ("garbage\n\n::\n0::relative\n", {}, 0),
])
def test_cgroup_hierarchy(quota, tmp_path, proc, files, cpus):
    assert quota("cgroup", *tree(tmp_path, proc, files)) == cpus


@needs_program
def test_missing_proc_file_means_no_limit(quota, tmp_path):
    assert quota("cgroup", str(tmp_path / "absent"), str(tmp_path)) == 0


def child_count(code_before="", **env):
    code = code_before + "import dmlc; print(dmlc.get_num_threads())"
    r = subprocess.run([sys.executable, "-c", code], env=child_env(**env), cwd=child_cwd(), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return int(r.stdout)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no affinity mask here")
@pytest.mark.skipif(not library_has_threads(), reason="a single-threaded build runs on one thread")
def test_default_count_follows_the_affinity_mask():
    """As under `taskset -c 0`: one CPU allowed, one thread by default; the variable and
    set_num_threads still win."""
    pin = "import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
    assert child_count(pin, DMLC_NUM_THREADS="") == 1
    assert child_count(pin, DMLC_NUM_THREADS="3") == 3
    assert child_count(pin + "import dmlc; dmlc.set_num_threads(2); ") == 2
    if shutil.which("taskset"):
        first = str(sorted(os.sched_getaffinity(0))[0])
        r = subprocess.run(["taskset", "-c", first, sys.executable, "-c", "import dmlc; print(dmlc.get_num_threads())"],
                           env=child_env(DMLC_NUM_THREADS=""), cwd=child_cwd(), capture_output=True, text=True, timeout=120)
        assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr
    if hasattr(os, "process_cpu_count"):   # Python 3.13: the same rule without the cgroup quota
        assert child_count(DMLC_NUM_THREADS="") <= os.process_cpu_count()
    else:
        assert child_count(DMLC_NUM_THREADS="") <= len(os.sched_getaffinity(0))
