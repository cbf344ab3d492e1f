"""dmlc bench --threads (the scaling of dmlc's rows with the thread count) and --busy (the
same calls beside processes that keep cores busy): wiring and arguments, never timing."""
import os
import re
import subprocess
import sys
import time

import pytest

import dmlc
import dmlc.bench
from dmlc import cli
from support import child_cwd, child_env


def test_threads_prints_each_dmlc_row_on_each_count(capsys, monkeypatch):
    seen, asked = [], [None]
    set_num_threads = dmlc.set_num_threads

    def record(n):  # (a single-threaded build would report 1 whatever was asked)
        asked[0] = n
        set_num_threads(n)

    def fake_batch_time(fn, batch):  # wiring, not timing: "takes" 1 ms per thread it was given
        seen.append(asked[0])
        return 1e-3 * asked[0]
    monkeypatch.setattr(dmlc, "set_num_threads", record)
    monkeypatch.setattr(dmlc.bench, "_batch_time", fake_batch_time)
    before = dmlc.get_num_threads()
    assert cli.main(["bench", "--quick", "--filter", "join", "--threads", "1,2,4"]) == 0
    assert dmlc.get_num_threads() == before and asked[0] == before  # the count is restored after each row
    out = capsys.readouterr().out
    assert out.startswith(f"dmlc {dmlc.__version__}, threads 1,2,4; ")
    assert re.search(r"^workload\s+implementation\s+1 thread\s+2 threads\s+4 threads\s+1/4$", out, re.M)
    workloads = [w for w in dmlc.bench.collect(quick=True, filt="join") if w.threads is None]
    rows = [(w, c) for w in workloads for c in w.candidates if c.name.startswith("dmlc")]
    # the counts take turns, a batch each per round in alternate order, at least five rounds per row
    assert rows and len(seen) >= 15 * len(rows) and seen[:15] == [1, 2, 4, 4, 2, 1] * 2 + [1, 2, 4]
    for w, c in rows:
        label = re.escape(f"{w.group} {w.label}")
        assert re.search(rf"^{label}\s+{re.escape(c.name)}\s+1\.000 ms\s+2\.000 ms\s+4\.000 ms\s+0\.25x$", out, re.M)
    assert "numpy" not in out.split("\n", 1)[1]  # peers are not rows of the scaling table


@pytest.mark.parametrize("value", ["", "0", "1,0", "2,,4", "a", "1.5", "-1", "1025", "1, 2 ,x"])
def test_threads_refuses_what_is_not_a_list_of_counts(capsys, value):
    with pytest.raises(SystemExit) as e:
        cli.main(["bench", "--threads", value])
    assert e.value.code == 2
    assert f"--threads: {value!r}: expected thread counts from 1 to 1024 separated by commas" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "", str(4 * (os.cpu_count() or 1) + 1)])
def test_busy_refuses_what_is_not_a_bounded_count(capsys, value):
    with pytest.raises(SystemExit) as e:
        cli.main(["bench", "--busy", value])
    assert e.value.code == 2
    assert f"--busy: {value!r}: expected a number of busy processes from 0 to {4 * (os.cpu_count() or 1)}" in (
        capsys.readouterr().err)


def test_busy_processes_spin_during_the_block_and_are_gone_after():
    with dmlc.bench.busy_processes(2) as procs:
        assert len(procs) == 2 and all(p.poll() is None for p in procs)
    assert all(p.returncode is not None for p in procs)
    with dmlc.bench.busy_processes(0) as procs:
        assert procs == []


def test_busy_processes_end_when_the_benchmark_is_killed():
    """A benchmark killed outright (no finally runs) leaves no spinning process behind."""
    code = ("import os, sys, dmlc.bench as b\n"
            "with b.busy_processes(1) as procs:\n"
            "    print(procs[0].pid, flush=True)\n"
            "    os.kill(os.getpid(), 9)\n")
    r = subprocess.run([sys.executable, "-c", code], env=child_env(), cwd=child_cwd(), capture_output=True, text=True,
                       timeout=120)
    pid = int(r.stdout)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        try:  # a zombie until someone reaps it (init does): gone as far as spinning goes
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        pytest.fail("the busy process outlived the benchmark")


def test_busy_is_said_in_the_header(capsys, monkeypatch):
    monkeypatch.setattr(dmlc.bench, "collect", lambda quick, filt: [])
    assert cli.main(["bench", "--busy", "1"]) == 0
    assert "; beside 1 busy process\n" in capsys.readouterr().out
