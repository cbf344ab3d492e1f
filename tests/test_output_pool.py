"""The output pool: large outputs reuse freed outputs' memory, within a limit the user sets
and can see, and the pool gives it back on request; arrays own their memory and the pool
never holds memory an array still uses."""
import gc
import subprocess
import sys
import threading

import numpy as np
import pytest

import dmlc
from support import child_env

MB = 1 << 20
SHAPE = (4, 16, 256, 256)  # 16 MiB of float32


@pytest.fixture(autouse=True)
def fresh_pool():
    """Each test starts with an empty pool at the default limit, and leaves one."""
    limit = dmlc.get_output_pool_limit()
    dmlc.release_output_pool()
    yield
    dmlc.set_output_pool_limit(limit)
    dmlc.release_output_pool()


def big(seed=0, shape=SHAPE):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_a_freed_output_is_reused_and_owns_its_memory():
    x = big()
    y = dmlc.depth_to_space(x, 2)
    assert y.flags.owndata and y.base is None and y.flags.c_contiguous and y.flags.writeable
    assert y.ctypes.data % 64 == 0
    addr = y.ctypes.data
    before = dmlc.output_pool_info()
    del y
    held = dmlc.output_pool_info()
    assert held["held_bytes"] == before["held_bytes"] + x.nbytes and held["held_buffers"] == before["held_buffers"] + 1
    w = dmlc.pad(x, 0, 0)  # another operator's output of the same size takes the held buffer
    assert w.ctypes.data == addr and w.flags.owndata
    info = dmlc.output_pool_info()
    assert info["reused"] == held["reused"] + 1 and info["held_bytes"] == before["held_bytes"]
    np.testing.assert_array_equal(w, x)


def test_views_keep_the_memory_out_of_the_pool():
    x = big(1)
    y = dmlc.pad(x, [0, 0, 1, 2], [0, 0, 2, 1], mode="wrap")
    want = np.pad(x, [(0, 0), (0, 0), (1, 2), (2, 1)], mode="wrap")
    views = [y[3], y[::2, 1:], y.reshape(-1)[5:], y.view(np.int32), y.T, memoryview(y)]
    del y
    gc.collect()
    assert dmlc.output_pool_info()["held_bytes"] == 0
    z = dmlc.pad(x, [0, 0, 1, 2], [0, 0, 2, 1], value=-1)
    for v in views[:5]:
        assert not np.shares_memory(v, z)
    np.testing.assert_array_equal(views[0], want[3])
    np.testing.assert_array_equal(views[1], want[::2, 1:])
    np.testing.assert_array_equal(views[4], want.T)
    np.testing.assert_array_equal(np.asarray(views[5]), want)
    del views, v, z
    assert dmlc.output_pool_info()["held_buffers"] == 2  # y's memory, then z's


def test_only_large_outputs_and_only_near_sizes():
    x = big(2)
    small = dmlc.pad(x[:1, :8, :64], 0, 0)  # 128 KiB: NumPy's allocator
    del small
    assert dmlc.output_pool_info()["held_bytes"] == 0
    y = dmlc.pad(x, 0, 0)
    del y
    fresh = dmlc.output_pool_info()["fresh"]
    half = dmlc.pad(x[:2], 0, 0)          # 8 MiB does not take the 16 MiB buffer
    larger = dmlc.pad(x, [0, 0, 0, 0], [0, 0, 0, 64])  # 20 MiB cannot
    assert dmlc.output_pool_info()["fresh"] == fresh + 2
    assert dmlc.output_pool_info()["held_bytes"] == x.nbytes
    near = dmlc.pad(x, [0, 0, 0, 0], [0, 0, 0, 16])  # a sixteenth more: fresh too (capacity is what was asked)
    same = dmlc.pad(x, 0, 0)               # the same size takes it
    assert dmlc.output_pool_info()["held_bytes"] == 0
    np.testing.assert_array_equal(same, x)
    np.testing.assert_array_equal(half, x[:2])
    np.testing.assert_array_equal(larger[..., :256], x)
    assert near.shape == (4, 16, 256, 272)


def test_the_limit_bounds_what_is_held():
    x = big(3)
    dmlc.set_output_pool_limit(20 * MB)
    assert dmlc.get_output_pool_limit() == 20 * MB
    parts = dmlc.split(x, 2, 0)   # two 8 MiB outputs
    y = dmlc.pad(x, 0, 0)         # 16 MiB
    del parts
    assert dmlc.output_pool_info()["held_bytes"] == 16 * MB
    del y                         # room is made by dropping the oldest
    info = dmlc.output_pool_info()
    assert info["held_bytes"] == 16 * MB and info["held_buffers"] == 1
    dmlc.set_output_pool_limit(8 * MB)  # lowering the limit gives back what is over it
    assert dmlc.output_pool_info()["held_bytes"] == 0
    y = dmlc.pad(x, 0, 0)
    del y                         # larger than the limit: straight back to the system
    assert dmlc.output_pool_info()["held_bytes"] == 0
    dmlc.set_output_pool_limit(0)
    parts = dmlc.split(x, 2, 0)
    del parts
    assert dmlc.output_pool_info()["held_bytes"] == 0


def test_release_gives_everything_back():
    x = big(4)
    ys = [dmlc.pad(x, 0, 0), dmlc.depth_to_space(x, 2)]
    del ys
    assert dmlc.output_pool_info()["held_bytes"] == 2 * x.nbytes
    assert dmlc.release_output_pool() == 2 * x.nbytes
    assert dmlc.output_pool_info()["held_bytes"] == 0
    assert dmlc.release_output_pool() == 0


def test_outputs_through_temporaries_and_indices():
    """Outputs the core cannot write in place go through a temporary; max_pool's indices
    and values both come from the pool."""
    x = big(5)
    out = np.empty((4, 16, 257, 256), np.float32)[:, :, ::-1]  # negative strides: through a temporary
    r = dmlc.pad(x, [0, 0, 1, 0], [0, 0, 0, 0], mode="edge", out=out)
    assert r is out
    np.testing.assert_array_equal(out, np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 0)], mode="edge"))
    assert dmlc.output_pool_info()["held_buffers"] == 1  # the temporary, freed
    v, i = dmlc.max_pool(np.tile(x, (4, 1, 1, 1)), 2, return_indices=True)
    assert v.flags.owndata and i.flags.owndata and not np.shares_memory(v, i)
    del v, i
    v2, i2 = dmlc.max_pool(np.tile(x, (4, 1, 1, 1)), 2, return_indices=True)
    assert dmlc.output_pool_info()["reused"] >= 2
    want = x.reshape(4, 16, 128, 2, 128, 2).max(axis=(3, 5))
    np.testing.assert_array_equal(v2[:4], want)


def test_arrays_from_the_pool_behave_as_numpy_arrays():
    x = big(6)
    y = dmlc.pad(x, 0, 0)
    y.resize((2, 16, 256, 256), refcheck=False)   # shrinks in place
    np.testing.assert_array_equal(y, x[:2])
    y.resize((8, 16, 256, 256), refcheck=False)   # grows: new memory, the old goes back to the pool
    np.testing.assert_array_equal(y[:2], x[:2])
    assert not y[2:].any()
    z = np.copy(y)
    del y
    assert z.shape == (8, 16, 256, 256)


def test_threads_share_the_pool():
    x = big(7)
    want = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="reflect")
    errors = []

    def work():
        try:
            for _ in range(6):
                y = dmlc.pad(x, [0, 0, 1, 1], [0, 0, 1, 1], mode="reflection")
                if not np.array_equal(y, want):
                    errors.append("mismatch")
                del y
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert dmlc.output_pool_info()["held_bytes"] <= dmlc.get_output_pool_limit()


@pytest.mark.parametrize("value, exc, msg", [
    (-1, ValueError, "set_output_pool_limit: limit is -1, expected 0 to 18446744073709551615 bytes"),
    (1 << 64, ValueError, "set_output_pool_limit: limit is 18446744073709551616, expected 0 to"),
    (1.5, TypeError, "set_output_pool_limit: limit must be an int, not float"),
    (True, TypeError, "set_output_pool_limit: limit must be an int, not bool"),
    ("1G", TypeError, "set_output_pool_limit: limit must be an int, not str"),
    (np.float64(5), TypeError, "set_output_pool_limit: limit must be an int, not float64"),
    (np.int64(-1), ValueError, "set_output_pool_limit: limit is -1, expected 0 to 18446744073709551615 bytes"),
])
def test_limit_argument_errors(value, exc, msg):
    with pytest.raises(exc, match="^" + msg.replace("(", r"\(").replace(")", r"\)")):
        dmlc.set_output_pool_limit(value)
    assert dmlc.get_output_pool_limit() > 0


@pytest.mark.parametrize("value", [np.int64(5 * MB), np.uint64(5 * MB), np.int32(5 * MB)])
def test_limit_takes_numpy_integers(value):
    """As every other integer argument does (anything with __index__)."""
    before = dmlc.get_output_pool_limit()
    try:
        dmlc.set_output_pool_limit(value)
        assert dmlc.get_output_pool_limit() == 5 * MB and type(dmlc.get_output_pool_limit()) is int
    finally:
        dmlc.set_output_pool_limit(before)


def _import_with(env_value, cwd):
    code = "import dmlc; print(dmlc.get_output_pool_limit())"
    return subprocess.run([sys.executable, "-c", code], env=child_env(DMLC_OUTPUT_POOL=env_value), cwd=cwd,
                          capture_output=True, text=True)


def test_environment_sets_the_limit(tmp_path):
    r = _import_with("0", tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "0", r.stderr
    r = _import_with(str(64 * MB), tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == str(64 * MB), r.stderr
    r = _import_with("", tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == str(256 * MB), r.stderr


@pytest.mark.parametrize("value, want", [
    ("1G", 1 << 30), ("512MiB", 512 * MB), ("512mib", 512 * MB), ("64M", 64 * MB), ("3K", 3 << 10),
    ("3kib", 3 << 10), ("2GiB", 2 << 30), ("0", 0), ("0M", 0), ("0004096", 4096),
    ("17179869183G", 17179869183 << 30),
])
def test_environment_takes_units(value, want, tmp_path):
    r = _import_with(value, tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{want}\n", "")


DEFAULT_USED = "using 268435456 bytes (the default) instead\n"
NOT_BYTES = "not a whole number of bytes, optionally with a unit (K, M, G, KiB, MiB or GiB)"


@pytest.mark.parametrize("value, why, used", [
    ("-5", NOT_BYTES, DEFAULT_USED),
    ("512 MiB", NOT_BYTES, DEFAULT_USED),
    ("512MB", NOT_BYTES, DEFAULT_USED),
    ("MiB", NOT_BYTES, DEFAULT_USED),
    ("1.5G", NOT_BYTES, DEFAULT_USED),
    ("18446744073709551616", "more than the 18446744073709551615 bytes a limit can be",
     "using 18446744073709551615 bytes instead\n"),
    ("17179869184G", "more than the 18446744073709551615 bytes a limit can be",
     "using 18446744073709551615 bytes instead\n"),
])
def test_environment_errors_never_stop_the_import(value, why, used, tmp_path):
    """One line on stderr naming the variable, the value and the limit used instead; dmlc
    imports (no ImportError, no OverflowError)."""
    r = _import_with(value, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == used.split()[1] + "\n"
    assert r.stderr == f'dmlc: DMLC_OUTPUT_POOL is "{value}", {why}; {used}'


def test_long_bad_value_is_shown_cut(tmp_path):
    r = _import_with("x" * 60, tmp_path)
    assert r.returncode == 0 and r.stderr == f'dmlc: DMLC_OUTPUT_POOL is "{"x" * 40}...", {NOT_BYTES}; {DEFAULT_USED}'


# The one rule both tuning variables are read by: ASCII decimal digits and nothing else (a
# unit after them for the pool).  DMLC_NUM_THREADS is read by the C core, DMLC_OUTPUT_POOL
# at import: the same values must be refused by both, and accepted by both.
@pytest.mark.parametrize("value", [" 4", "4 ", " 5 ", "1_000", "\u0664", "\uff14", "+4", "-4", "4.0", "0x10", "4e2",
                                   "4abc"])
def test_both_variables_refuse_the_same_values(value, tmp_path):
    code = "import dmlc; print(dmlc.get_output_pool_limit(), dmlc.get_num_threads())"
    r = subprocess.run([sys.executable, "-c", code], env=child_env(DMLC_OUTPUT_POOL=value, DMLC_NUM_THREADS=value),
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "268435456"
    lines = r.stderr.splitlines()
    assert lines[0] == f'dmlc: DMLC_OUTPUT_POOL is "{value}", {NOT_BYTES}; {DEFAULT_USED.strip()}'
    assert lines[1].startswith(f'dmlc: DMLC_NUM_THREADS is "{value}", not a whole number from 1 to 1024; using ')
    assert len(lines) == 2


@pytest.mark.parametrize("value", ["4", "0004", "16"])
def test_both_variables_accept_the_same_values(value, tmp_path):
    code = "import dmlc; print(dmlc.get_output_pool_limit(), dmlc.get_num_threads())"
    r = subprocess.run([sys.executable, "-c", code], env=child_env(DMLC_OUTPUT_POOL=value, DMLC_NUM_THREADS=value),
                       cwd=tmp_path, capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.split()[0] == str(int(value))
