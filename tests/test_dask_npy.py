"""dmlc.dask's .npy reader and writer (from_npy, to_npy), its public surface, and the
docs/dask.rst's route for arrays larger than memory run under a memory bound."""
import inspect
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dmlc  # noqa: E402
import dmlc.dask as dd  # noqa: E402

from support import child_env  # noqa: E402


def test_dir_shows_the_api_only():
    assert dir(dd) == sorted(dd.__all__)
    assert not {"np", "da", "math", "functools", "dmlc", "tokenize"} & set(dir(dd))
    for name in dd.__all__:
        assert callable(getattr(dd, name)), name


def test_every_public_function_is_listed_under_its_in_memory_name():
    """__all__ comes from the @_public marks: every function dmlc.dask defines without a
    leading underscore is listed, and each distributes the dmlc function of its name."""
    defined = {n for n, f in vars(dd).items()
               if inspect.isfunction(f) and f.__module__ == dd.__name__ and not n.startswith("_")}
    assert defined == set(dd.__all__) - {"from_npy", "to_npy"}
    assert all(n in dmlc.__all__ for n in defined)
    assert len(dd.__all__) == len(set(dd.__all__))


@pytest.mark.parametrize("shape, chunks", [((7, 5, 3), (2, 5, 2)), ((4, 6), "auto"), ((0, 3), (1, 2)), ((), ()),
                                           ((9,), 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, ">u2", np.bool_])
@pytest.mark.parametrize("order", ["C", "F"])
def test_from_npy_reads_what_np_load_reads(tmp_path, shape, chunks, dtype, order):
    a = np.asarray(np.random.default_rng(0).integers(0, 100, shape), dtype=dtype, order=order)
    path = tmp_path / "a.npy"
    np.save(path, a)
    x = dd.from_npy(path, chunks=chunks)
    assert (x.shape, x.dtype) == (a.shape, a.dtype)
    if chunks not in ("auto", ()):
        assert x.chunks == da.core.normalize_chunks(chunks, shape)
    got = x.compute(scheduler="threads")
    np.testing.assert_array_equal(got, a)
    assert got.dtype == a.dtype


def test_to_npy_round_trips_through_np_load(tmp_path):
    a = np.arange(5 * 7 * 3, dtype=np.float32).reshape(5, 7, 3)
    x = da.from_array(a, chunks=(2, 3, 2)).transpose(1, 0, 2)
    dd.to_npy(tmp_path / "t.npy", x)
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), a.transpose(1, 0, 2))
    later = dd.to_npy(tmp_path / "l.npy", x + 1, compute=False)
    assert not np.load(tmp_path / "l.npy").any()  # created, not yet written
    later.compute()
    np.testing.assert_array_equal(np.load(tmp_path / "l.npy"), a.transpose(1, 0, 2) + 1)


def test_from_npy_refuses_what_it_cannot_map(tmp_path):
    (tmp_path / "text.npy").write_text("not numpy")
    with pytest.raises(ValueError, match=r"^from_npy: '.*text.npy' is not an \.npy file dmlc can map: the magic"):
        dd.from_npy(tmp_path / "text.npy")
    np.save(tmp_path / "obj.npy", np.array([{}, 1], object), allow_pickle=True)
    with pytest.raises(ValueError, match=r"^from_npy: '.*obj.npy' is not an \.npy file dmlc can map: it holds Python "
                                         r"objects \(object\), not numbers"):
        dd.from_npy(tmp_path / "obj.npy")
    with open(tmp_path / "short.npy", "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (10**12,)})
    with pytest.raises(ValueError, match=r"^from_npy: '.*short.npy' is not an \.npy file dmlc can map: its header "
                                         r"declares shape \(1000000000000,\) of float32 \(4000000000000 bytes\), but "
                                         r"the file holds 0 bytes of data"):
        dd.from_npy(tmp_path / "short.npy")
    with pytest.raises(TypeError, match=r"^to_npy: x has dtype object; an \.npy file of Python objects"):
        dd.to_npy(tmp_path / "o.npy", da.from_array(np.array([{}, 1], object), chunks=1))


ROUTE = textwrap.dedent('''
    """docs/dask.rst's route (from_npy -> max_pool -> pad -> depth_to_space -> to_npy) on an
    .npy file of 512 MiB, reporting the process's peak RSS."""
    import json, resource, sys
    import dask
    import numpy as np
    import dmlc.dask as dd

    src, dst = sys.argv[1], sys.argv[2]
    x = dd.from_npy(src, chunks=(1, 4, 256, 4096))                    # 16 MiB blocks
    pooled = dd.max_pool(x, 2, strides=2)
    padded = dd.pad(pooled, [0, 0, 1, 1], [0, 0, 1, 1], mode="reflect")
    y = dd.depth_to_space(padded, 2, order="column_row_depth")
    with dask.config.set(scheduler="threads", num_workers=2):
        dd.to_npy(dst, y)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"peak_mib": peak / 1024, "shape": list(y.shape)}))
''')


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's allocator keeps freed memory (quarantine) and adds shadow memory: "
                           "RSS measures the sanitizer, not dmlc")
def test_the_readme_route_runs_in_bounded_memory(tmp_path):
    """512 MiB in, 128 MiB out: the peak RSS of the whole process (imports included, about
    100 MiB) stays under half the input; da.from_array on an np.memmap would hold it all."""
    import dmlc
    shape = (2, 4, 4096, 4096)
    src = tmp_path / "images.npy"
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((256, 4096), np.float32)
    with open(src, "wb") as f:  # written row band by row band: this process never holds the array
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": shape})
        for k in range(2 * 4 * 16):
            f.write((rows + np.float32(k)).tobytes())
    script = tmp_path / "route.py"
    script.write_text(ROUTE)
    # Through a shell that forks Python: Linux carries a process's peak RSS across fork and
    # exec, so a Python started straight from this (large) test process would report it.
    r = subprocess.run(["sh", "-c", '"$0" "$@"; exit $?', sys.executable, str(script), str(src),
                        str(tmp_path / "out.npy")], env=child_env(), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout.strip().splitlines()[-1])
    assert m["shape"] == [2, 1, 4100, 4100]
    assert m["peak_mib"] < 256, m  # (about 190 MiB measured; from_array on an np.memmap: 1080 MiB)
    out = np.load(tmp_path / "out.npy", mmap_mode="r")
    for b in (0, 1):  # the first band of rows of each image, against the in-memory functions
        x = np.fromfile(src, np.float32, count=4 * 4096 * 4096, offset=128 + b * 4 * 4096 * 4096 * 4)
        x = x.reshape(1, 4, 4096, 4096)[:, :, :64]
        want = dmlc.depth_to_space(dmlc.pad(dmlc.max_pool(x, 2, strides=2), [0, 0, 1, 1], [0, 0, 1, 1],
                                            mode="reflect"), 2, order="column_row_depth")
        np.testing.assert_array_equal(out[b:b + 1, :, 2:60], want[:, :, 2:60])
