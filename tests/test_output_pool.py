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
])
def test_limit_argument_errors(value, exc, msg):
    with pytest.raises(exc, match="^" + msg.replace("(", r"\(").replace(")", r"\)")):
        dmlc.set_output_pool_limit(value)
    assert dmlc.get_output_pool_limit() > 0


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


@pytest.mark.parametrize("value, msg", [
    ("1G", "dmlc: DMLC_OUTPUT_POOL is '1G', expected a number of bytes (0 turns the pool off)"),
    ("-5", "dmlc: DMLC_OUTPUT_POOL is -5, expected 0 or more bytes"),
])
def test_environment_errors(value, msg, tmp_path):
    r = _import_with(value, tmp_path)
    assert r.returncode != 0
    assert "ImportError: " + msg in r.stderr
