"""dmlc.dask's thread policy (dmlc/dask/_blocks.py, "Threads"): Dask runs tasks at once and
their dmlc calls share one pool of dmlc.get_num_threads() - 1 workers, so dmlc's threads do
not multiply with the number of tasks (an OpenMP build made a team per calling thread).
The workers are named "dmlc worker" in /proc/self/task/*/comm; a fresh process counts them."""
import subprocess
import sys

import pytest

pytest.importorskip("dask.array")

from support import child_cwd, child_env, library_has_threads  # noqa: E402

CODE = """
import glob, sys
import numpy as np
import dask, dask.array as da
import dmlc, dmlc.dask as dd

def workers():
    names = []
    for path in glob.glob("/proc/self/task/*/comm"):
        try:
            with open(path) as f:
                names.append(f.read().strip())
        except OSError:   # a thread that ended meanwhile
            pass
    return names.count("dmlc worker")

count, tasks = int(sys.argv[1]), int(sys.argv[2])
dmlc.set_num_threads(count)
x = np.random.default_rng(0).random((8, 16, 128, 128), np.float32)   # 8 blocks of 1 MiB: threaded calls
xd = da.from_array(x, chunks=(1, 16, 128, 128))
want = dmlc.max_pool(x, 2, strides=2), dmlc.pad(x, 2, 2), dmlc.depth_to_space(x, 2)
got = dask.compute(dd.max_pool(xd, 2, strides=2), dd.pad(xd, 2, 2), dd.depth_to_space(xd, 2),
                   scheduler="threads", num_workers=tasks)
assert all(np.array_equal(g, w) for g, w in zip(got, want))
print(workers())
"""


def dmlc_workers_after(count, tasks):
    r = subprocess.run([sys.executable, "-c", CODE, str(count), str(tasks)], env=child_env(), cwd=child_cwd(),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return int(r.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread names from /proc")
@pytest.mark.skipif(not library_has_threads(), reason="a single-threaded build has no workers")
@pytest.mark.parametrize("count,tasks", [(2, 4), (3, 8), (2, 1)])
def test_tasks_at_once_share_one_pool(count, tasks):
    """count - 1 workers for the whole process, however many Dask tasks ran dmlc calls at
    once (the in-memory calls made first already needed them all)."""
    assert dmlc_workers_after(count, tasks) == count - 1
