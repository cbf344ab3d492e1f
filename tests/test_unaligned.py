"""Arrays whose data is not aligned to their element size (a buffer at an odd offset, as
np.frombuffer or dask.distributed's transfers give them) are read through an aligned copy:
the core requires Buffer + Offset aligned to the element size."""
import numpy as np
import pytest

import dmlc


def unaligned(a):
    buf = bytearray(a.nbytes + 1)
    u = np.frombuffer(buf, dtype=a.dtype, offset=1, count=a.size).reshape(a.shape)
    u[...] = a
    assert not u.flags.aligned and u.flags.c_contiguous
    return u


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64])
def test_unaligned_inputs(dtype):
    x = np.arange(64).astype(dtype).reshape(1, 4, 4, 4)
    u = unaligned(x)
    np.testing.assert_array_equal(dmlc.max_pool(u, 2, return_indices=True)[1], dmlc.max_pool(x, 2, return_indices=True)[1])
    np.testing.assert_array_equal(dmlc.pad(u, 1, 2, mode="reflection"), dmlc.pad(x, 1, 2, mode="reflection"))
    np.testing.assert_array_equal(dmlc.depth_to_space(u, 2), dmlc.depth_to_space(x, 2))
    np.testing.assert_array_equal(dmlc.space_to_depth(u, 2), dmlc.space_to_depth(x, 2))
    for p, q in zip(dmlc.split(u, 2, 3), dmlc.split(x, 2, 3)):
        np.testing.assert_array_equal(p, q)
    np.testing.assert_array_equal(dmlc.join([u, x, u], 1), np.concatenate([x, x, x], 1))


def test_unaligned_out():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    out = unaligned(np.zeros((1, 1, 2, 2), np.float32))
    assert dmlc.max_pool(x, 2, out=out) is out
    np.testing.assert_array_equal(out, [[[[5, 7], [13, 15]]]])
