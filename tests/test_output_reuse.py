"""Large outputs (32 MiB to 1 GiB) reuse the most recently freed output buffer instead of
fresh pages; the buffer comes back only when no array uses it any more."""
import gc

import numpy as np

import dmlc

SHAPE = (128, 256, 256)  # 32 MiB of float32 in, about 34 MiB out with padding 1 and 2


def big_input(seed=0):
    return np.random.default_rng(seed).standard_normal(SHAPE).astype(np.float32)


def test_freed_output_is_reused():
    x = big_input()
    y = dmlc.pad(x, [0, 1, 2], [0, 2, 1])
    assert y.nbytes >= 32 << 20 and y.flags.c_contiguous and y.flags.writeable and y.flags.aligned
    addr = y.ctypes.data
    del y
    gc.collect()
    z = dmlc.pad(x, [0, 1, 2], [0, 2, 1], mode="edge")
    assert z.ctypes.data == addr
    np.testing.assert_array_equal(z, np.pad(x, [(0, 0), (1, 2), (2, 1)], mode="edge"))


def test_views_keep_the_buffer():
    x = big_input(1)
    y = dmlc.pad(x, [0, 1, 2], [0, 2, 1], mode="wrap")
    want = np.pad(x, [(0, 0), (1, 2), (2, 1)], mode="wrap")
    views = [y[3], y[::2, 1:], y.reshape(-1)[5:], y.view(np.int32), y.T]
    del y
    gc.collect()
    z = dmlc.pad(x, [0, 1, 2], [0, 2, 1], value=-1)
    for v in views:
        assert not np.shares_memory(v, z)
    np.testing.assert_array_equal(views[0], want[3])
    np.testing.assert_array_equal(views[1], want[::2, 1:])
    np.testing.assert_array_equal(views[4], want.T)


def test_small_and_dissimilar_outputs_are_fresh():
    x = big_input(2)
    y = dmlc.pad(x, [0, 1, 2], [0, 2, 1])
    addr = y.ctypes.data
    del y
    small = dmlc.pad(x[:8], [0, 1, 2], [0, 2, 1])  # 4 MiB: plain np.empty
    assert small.base is None
    bigger = dmlc.pad(x, [0, 1, 200], [0, 2, 100])  # more than a quarter larger: a new buffer
    assert bigger.ctypes.data != addr
    np.testing.assert_array_equal(bigger, np.pad(x, [(0, 0), (1, 2), (200, 100)]))


def test_other_operators_and_out_temporaries():
    x = big_input(3).reshape(8, 16, 256, 256)
    y = dmlc.space_to_depth(x, 2)
    z = dmlc.depth_to_space(y, 2)
    np.testing.assert_array_equal(z, x)
    # out= that the core cannot address (negative strides) goes through a temporary.
    out = np.empty((128, 259, 259), np.float32)[::-1]
    r = dmlc.pad(x.reshape(SHAPE), [0, 1, 2], [0, 2, 1], mode="symmetric", out=out)
    assert r is out
    np.testing.assert_array_equal(out, np.pad(x.reshape(SHAPE), [(0, 0), (1, 2), (2, 1)], mode="symmetric"))
