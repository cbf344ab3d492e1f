"""The C core's rough edges, through the raw API (cffi): DMLCalcBufferTensorSize's formula
with strides, outputs whose strides make elements share memory, data-type names in
messages, binding counts, and the thread count (DMLC_NUM_THREADS, fork)."""
import functools
import os
import subprocess
import sys

import numpy as np
import pytest

import dmlc
from support import DML_TYPE, child_cwd, child_env, library_has_threads
from dmlc.ffi import E_INVALIDARG, S_OK, ffi, lib
from rawdesc import Raw, create

TYPES = " (expected FLOAT64, FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or UINT8)"
NOT_TWICE = "an output element may not be written twice"


def calc_size(dml_type, sizes, strides=None):
    size = ffi.new("UINT64*")
    hr = lib.dmlcCalcBufferTensorSize(dml_type, len(sizes), ffi.new("UINT[]", list(sizes)),
                                      ffi.new("UINT[]", list(strides)) if strides is not None else ffi.NULL, size)
    return hr, size[0], dmlc.ffi.last_error()


def directml_formula(elem_size, sizes, strides):
    """DirectML's DMLCalcBufferTensorSize with strides, in exact integers:
    (sum of (size - 1) * stride, plus 1) * element size, rounded up to 4."""
    if 0 in sizes:
        return 0
    last = sum((n - 1) * s for n, s in zip(sizes, strides))
    return ((last + 1) * elem_size + 3) // 4 * 4


# ---- DMLCalcBufferTensorSize ----------------------------------------------------------

def test_calc_size_with_strides_counts_the_last_element_not_the_elements():
    # The example: more than 2**64 INT32 elements, 18446744065119617028 bytes.
    hr, size, msg = calc_size(6, [2 ** 31, 2 ** 31, 7], [2 ** 30, 2 ** 30, 0])
    assert (hr, msg) == (S_OK, "")
    assert size == 18446744065119617028 == directml_formula(4, [2 ** 31, 2 ** 31, 7], [2 ** 30, 2 ** 30, 0])


@pytest.mark.parametrize("dtype", list(DML_TYPE))
@pytest.mark.parametrize("sizes,strides", [
    ([2 ** 32 - 1] * 8, [0] * 8),                      # 2**256 elements, one address
    ([2 ** 32 - 1, 2 ** 32 - 1, 3], [1, 0, 2 ** 31]),
    ([5, 2 ** 32 - 1, 2 ** 32 - 1], [2 ** 32 - 1, 0, 1]),
    ([3, 4], [0, 0]),
    ([3, 0, 2 ** 32 - 1], [2 ** 32 - 1, 1, 2 ** 32 - 1]),  # empty: nothing addressed
])
def test_calc_size_with_strides_matches_directml_formula(dtype, sizes, strides):
    hr, size, msg = calc_size(DML_TYPE[dtype], sizes, strides)
    assert (hr, msg) == (S_OK, "")
    assert size == directml_formula(dtype.itemsize, sizes, strides)


def test_calc_size_overflow_still_refused():
    # The last element's byte offset itself beyond 64 bits.
    hr, _, msg = calc_size(11, [2 ** 32 - 1, 2 ** 32 - 1, 2], [2 ** 32 - 1, 2 ** 32 - 1, 2 ** 32 - 1])
    assert (hr, msg) == (E_INVALIDARG, "dmlcCalcBufferTensorSize: the tensor's size in bytes overflows 64 bits")
    hr, _, msg = calc_size(11, [2 ** 31, 2 ** 31, 7], [2 ** 30, 2 ** 30, 0])  # 8-byte elements: 2**65 bytes
    assert (hr, msg) == (E_INVALIDARG, "dmlcCalcBufferTensorSize: the tensor's size in bytes overflows 64 bits")
    hr, _, msg = calc_size(1, [2 ** 32 - 1] * 3)  # packed: the element count is the size
    assert (hr, msg) == (E_INVALIDARG, "dmlcCalcBufferTensorSize: the tensor's size in bytes overflows 64 bits")


def test_tensor_whose_elements_overflow_but_whose_strides_fit():
    """An input that revisits memory (zero strides) may address few bytes yet count more
    than 2**64 bytes of elements; the kernels measure work in those, so creation refuses
    it with a message that says which."""
    raw = Raw()
    tin = raw.tensor(np.uint8, (2 ** 31, 2 ** 31, 8, 1), strides=(2 ** 28, 2 ** 28, 0, 0))
    tout = raw.tensor(np.uint8, (2 ** 31, 2 ** 31 // 4, 16, 2))
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": tin, "OutputTensor": tout, "BlockSize": 2, "Order": 0})
    assert create(desc) == (E_INVALIDARG, "DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor: the tensor's elements times "
                                          "their size (1 bytes) overflow 64 bits, although its Strides address "
                                          "fewer bytes")


# ---- Outputs whose strides make elements share memory ----------------------------------

def d2s(raw, out_sizes, out_strides, in_sizes=(1, 4, 1, 1)):
    return raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", {
        "InputTensor": raw.tensor(np.float32, in_sizes), "OutputTensor": raw.tensor(np.float32, out_sizes, out_strides),
        "BlockSize": 2, "Order": 0})


def split(raw, whole, parts, axis):
    outs = raw.new("DML_TENSOR_DESC[]", len(parts))
    for i, (sizes, strides) in enumerate(parts):
        outs[i] = raw.tensor(np.float32, sizes, strides)[0]
    return raw.op(lib.DML_OPERATOR_SPLIT, "DML_SPLIT_OPERATOR_DESC", {
        "InputTensor": raw.tensor(np.float32, whole), "OutputCount": len(parts), "OutputTensors": outs, "Axis": axis})


def pad(raw, sizes, strides):
    n = len(sizes)
    return raw.op(lib.DML_OPERATOR_PADDING, "DML_PADDING_OPERATOR_DESC", {
        "InputTensor": raw.tensor(np.float32, sizes), "OutputTensor": raw.tensor(np.float32, sizes, strides),
        "PaddingMode": 0, "PaddingValue": 0.0, "DimensionCount": n, "StartPadding": raw.uints([0] * n),
        "EndPadding": raw.uints([0] * n)})


def join(raw, parts, whole, whole_strides, axis):
    ins = raw.new("DML_TENSOR_DESC[]", len(parts))
    for i, sizes in enumerate(parts):
        ins[i] = raw.tensor(np.float32, sizes)[0]
    return raw.op(lib.DML_OPERATOR_JOIN, "DML_JOIN_OPERATOR_DESC", {
        "InputCount": len(parts), "InputTensors": ins, "OutputTensor": raw.tensor(np.float32, whole, whole_strides),
        "Axis": axis})


def max_pool2(raw, out_strides, idx_strides):
    one = raw.uints([1, 1])
    return raw.op(lib.DML_OPERATOR_MAX_POOLING2, "DML_MAX_POOLING2_OPERATOR_DESC", {
        "InputTensor": raw.tensor(np.float32, (1, 2, 3, 3)),
        "OutputTensor": raw.tensor(np.float32, (1, 2, 3, 3), out_strides),
        "OutputIndicesTensor": raw.tensor(np.uint32, (1, 2, 3, 3), idx_strides),
        "DimensionCount": 2, "Strides": one, "WindowSize": one, "StartPadding": raw.uints([0, 0]),
        "EndPadding": raw.uints([0, 0]), "Dilations": one})


OVERLAPPING = [
    ("depth_to_space ties", lambda r: d2s(r, (1, 1, 2, 2), (0, 0, 1, 1)),
     "DML_OPERATOR_DEPTH_TO_SPACE1: OutputTensor.Strides[3] is 1, less than 2, the span of dimension 2 "
     "(1 + (Sizes[2] 2 - 1) * Strides[2] 1): dimensions 2 and 3 overlap, and " + NOT_TWICE),
    ("split rows inside rows", lambda r: split(r, (3, 8), [((3, 4), (2, 1)), ((3, 4), None)], 1),
     "DML_OPERATOR_SPLIT: OutputTensors[0].Strides[0] is 2, less than 4, the span of dimension 1 "
     "(1 + (Sizes[1] 4 - 1) * Strides[1] 1): dimensions 0 and 1 overlap, and " + NOT_TWICE),
    ("split second output", lambda r: split(r, (3, 8), [((3, 4), None), ((3, 4), (1, 2))], 1),
     "DML_OPERATOR_SPLIT: OutputTensors[1].Strides[1] is 2, less than 3, the span of dimension 0 "
     "(1 + (Sizes[0] 3 - 1) * Strides[0] 1): dimensions 0 and 1 overlap, and " + NOT_TWICE),
    ("padding, one dimension against two", lambda r: pad(r, (3, 2, 2), (3, 1, 2)),
     "DML_OPERATOR_PADDING: OutputTensor.Strides[0] is 3, less than 4, the span of dimensions 1 and 2 "
     "(1 + (Sizes[1] 2 - 1) * Strides[1] 1 + (Sizes[2] 2 - 1) * Strides[2] 2): dimension 0 overlaps them, and "
     + NOT_TWICE),
    ("padding, interleaved without a shared element", lambda r: pad(r, (2, 3), (3, 2)),
     "DML_OPERATOR_PADDING: OutputTensor.Strides[0] is 3, less than 5, the span of dimension 1 "
     "(1 + (Sizes[1] 3 - 1) * Strides[1] 2): dimensions 0 and 1 overlap, and " + NOT_TWICE),
    ("join, the issue's as_strided (2, N) (4, 4)", lambda r: join(r, [(1, 5), (1, 5)], (2, 5), (1, 1), 0),
     "DML_OPERATOR_JOIN: OutputTensor.Strides[1] is 1, less than 2, the span of dimension 0 "
     "(1 + (Sizes[0] 2 - 1) * Strides[0] 1): dimensions 0 and 1 overlap, and " + NOT_TWICE),
    ("max pooling values", lambda r: max_pool2(r, (18, 9, 3, 2), None),
     "DML_OPERATOR_MAX_POOLING2: OutputTensor.Strides[2] is 3, less than 5, the span of dimension 3 "
     "(1 + (Sizes[3] 3 - 1) * Strides[3] 2): dimensions 2 and 3 overlap, and " + NOT_TWICE),
    ("max pooling indices", lambda r: max_pool2(r, None, (9, 1, 3, 1)),
     "DML_OPERATOR_MAX_POOLING2: OutputIndicesTensor.Strides[3] is 1, less than 2, the span of dimension 1 "
     "(1 + (Sizes[1] 2 - 1) * Strides[1] 1): dimensions 1 and 3 overlap, and " + NOT_TWICE),
]


@pytest.mark.parametrize("name,make,msg", OVERLAPPING, ids=[c[0] for c in OVERLAPPING])
def test_output_strides_that_share_memory_are_refused(name, make, msg):
    raw = Raw()
    assert create(make(raw)) == (E_INVALIDARG, msg)


@pytest.mark.parametrize("perm", [(0, 1, 2, 3), (0, 2, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2)])
def test_output_in_any_dimension_order_is_accepted(rng, perm):
    """Layouts whose elements are distinct (channels-last, any order of dimensions, padded
    rows) pass the check and are written correctly."""
    x = rng.standard_normal((2, 8, 3, 5)).astype(np.float32)
    want = dmlc.depth_to_space(x, 2)
    shape = want.shape
    # want's shape in memory ordered by perm, each innermost row padded by one element
    storage = np.zeros([shape[p] + (1 if k == 3 else 0) for k, p in enumerate(perm)], np.float32)
    view = storage[..., :shape[perm[3]]].transpose(np.argsort(perm))
    assert view.shape == shape
    raw = Raw()
    tout = raw.tensor(np.float32, shape, [s // 4 for s in view.strides])
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": raw.tensor_for(x), "OutputTensor": tout, "BlockSize": 2, "Order": 0})
    size = ffi.new("UINT64*")
    lib.dmlcCalcBufferTensorSize(1, 4, raw.uints(shape), raw.uints([s // 4 for s in view.strides]), size)
    bi, bo = raw.bindings([x]), raw.new("DMLC_BUFFER_BINDING*", {
        "Buffer": ffi.cast("void*", view.ctypes.data), "SizeInBytes": size[0]})
    assert lib.dmlcExecuteOperator(desc, 1, bi, 1, bo) == S_OK, dmlc.ffi.last_error()
    np.testing.assert_array_equal(view, want)


# ---- Data-type names ---------------------------------------------------------------------

# (the enum's bits, as the core prints them: an int)
@pytest.mark.parametrize("bits,value", [(99, 99), (999, 999), (2 ** 31 - 1, 2 ** 31 - 1), (2 ** 32 - 1, -1),
                                        (2 ** 31, -2 ** 31)])
def test_unknown_data_type_is_named_whole(bits, value):
    raw = Raw()
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC", {
        "InputTensor": raw.tensor(dml_type=bits, sizes=(1, 8, 2, 3), total=192),
        "OutputTensor": raw.tensor(np.float32, (1, 2, 4, 6)), "BlockSize": 2, "Order": 0})
    assert create(desc) == (E_INVALIDARG, f"DML_OPERATOR_DEPTH_TO_SPACE1: InputTensor.DataType {value} "
                                          f"(not a DML_TENSOR_DATA_TYPE) is not supported" + TYPES)
    hr, _, msg = calc_size(bits, [4])
    assert (hr, msg) == (E_INVALIDARG, f"dmlcCalcBufferTensorSize: type {value} (not a DML_TENSOR_DATA_TYPE) is "
                                       f"not supported")


# ---- Binding counts ----------------------------------------------------------------------

def test_execute_counts_are_checked_before_they_are_added():
    raw = Raw()
    x = np.arange(8, dtype=np.float32).reshape(1, 8)
    desc = split(raw, (1, 8), [((1, 4), None), ((1, 4), None)], 1)
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == S_OK
    try:
        bindings = raw.bindings([x])
        for n_in, n_out, msg in [(1, 2 ** 32 - 1, "outputCount is 4294967295, expected 2"),
                                 (2 ** 32 - 1, 2, "inputCount is 4294967295, expected 1")]:
            assert lib.dmlcExecute(op[0], n_in, bindings, n_out, bindings) == E_INVALIDARG
            assert dmlc.ffi.last_error() == "DML_OPERATOR_SPLIT: " + msg
    finally:
        lib.dmlcReleaseOperator(op[0])


def test_execute_with_more_slots_than_the_stack_holds(rng):
    """1 input and 40 outputs: the bound addresses live on the heap, outputs after inputs."""
    x = rng.standard_normal((3, 40)).astype(np.float32)
    parts = [np.full((3, 1), np.nan, np.float32) for _ in range(40)]
    raw = Raw()
    desc = split(raw, (3, 40), [((3, 1), None)] * 40, 1)
    hr = lib.dmlcExecuteOperator(desc, 1, raw.bindings([x]), 40, raw.bindings(parts, [12] * 40))
    assert hr == S_OK, dmlc.ffi.last_error()
    np.testing.assert_array_equal(np.concatenate(parts, axis=1), x)


# ---- The thread count ---------------------------------------------------------------------

def run_child(code, *args, **env):
    r = subprocess.run([sys.executable, "-c", code, *args], env=child_env(**env), cwd=child_cwd(), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr


# The library alone (through ctypes, so each child starts in milliseconds): the count,
# asked three times; a bad DMLC_NUM_THREADS is reported on the first only.
COUNTS = ("import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); "
          "print(*[lib.dmlcGetThreadCount() for _ in range(3)])")


def counts(**env):
    return run_child(COUNTS, dmlc.get_library_path(), **env)


@functools.lru_cache(None)
def cores():
    return int(counts(DMLC_NUM_THREADS="")[0].split()[0])


def single_threaded_warning(shown, why):
    """A single-threaded build runs on one thread whatever the variable says, and says so."""
    return ("1 1 1\n", f'dmlc: DMLC_NUM_THREADS is "{shown}", {why}; using 1 thread instead '
                       f'(this build of dmlc is single-threaded)\n')


@pytest.mark.parametrize("value", ["abc", "-1", "0", "1e3", "4abc", " 4", "4 ", "+4", "0x10", "3.0"])
def test_bad_thread_count_variable_warns_once(value):
    if not library_has_threads():
        assert counts(DMLC_NUM_THREADS=value) == single_threaded_warning(value, "not a whole number from 1 to 1024")
        return
    n = cores()
    threads = "thread (one per core)" if n == 1 else "threads (one per core)"
    assert counts(DMLC_NUM_THREADS=value) == (
        f"{n} {n} {n}\n",
        f'dmlc: DMLC_NUM_THREADS is "{value}", not a whole number from 1 to 1024; using {n} {threads} instead\n')


@pytest.mark.parametrize("value", ["1025", "99999", "4294967297", "1" * 60])
def test_too_large_thread_count_variable_warns_once(value):
    shown = value if len(value) <= 40 else value[:40] + "..."
    if not library_has_threads():
        assert counts(DMLC_NUM_THREADS=value) == single_threaded_warning(shown, "more than the 1024 threads dmlc can run")
        return
    assert counts(DMLC_NUM_THREADS=value) == (
        "1024 1024 1024\n",
        f'dmlc: DMLC_NUM_THREADS is "{shown}", more than the 1024 threads dmlc can run; using 1024 threads instead\n')


@pytest.mark.parametrize("value,want", [("1", "1 1 1\n"), ("7", "7 7 7\n"), ("1024", "1024 1024 1024\n"),
                                        ("0007", "7 7 7\n")])
def test_good_thread_count_variable_is_quiet(value, want):
    assert counts(DMLC_NUM_THREADS=value) == (want if library_has_threads() else "1 1 1\n", "")


def test_unset_or_empty_thread_count_variable_is_quiet():
    env = {k: v for k, v in child_env().items() if k != "DMLC_NUM_THREADS"}
    r = subprocess.run([sys.executable, "-c", COUNTS, dmlc.get_library_path()], env=env, cwd=child_cwd(), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == f"{cores()} {cores()} {cores()}\n"


@pytest.mark.skipif(not library_has_threads(), reason="about thread counts: a single-threaded build runs on one thread")
def test_bad_thread_count_variable_through_python():
    """From Python: one warning, whether the count is asked for or used by an operator."""
    code = ("import dmlc, numpy as np; n = dmlc.get_num_threads(); dmlc.pad(np.zeros(1 << 20, np.float32), 1, 1); "
            "print(n, dmlc.get_num_threads())")
    n = cores()
    threads = "thread (one per core)" if n == 1 else "threads (one per core)"
    assert run_child(code, DMLC_NUM_THREADS="4abc") == (
        f"{n} {n}\n", f'dmlc: DMLC_NUM_THREADS is "4abc", not a whole number from 1 to 1024; using {n} {threads} '
                      f'instead\n')


@pytest.mark.skipif(not library_has_threads(), reason="about thread counts: a single-threaded build runs on one thread")
def test_setting_the_count_first_never_reads_the_variable():
    code = "import dmlc; dmlc.set_num_threads(2); print(dmlc.get_num_threads())"
    assert run_child(code, DMLC_NUM_THREADS="abc") == ("2\n", "")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.skipif(not library_has_threads(), reason="about thread counts: a single-threaded build runs on one thread")
def test_forked_child_keeps_its_threads():
    """dmlc's workers do not survive fork() (no thread does): a child forked before or after
    its parent ran threads, or while a call of the parent is running on another thread,
    makes its own workers and runs threaded calls to the right result (multiprocessing's
    fork start method does exactly this)."""
    code = """
import os, threading
import numpy as np
import dmlc

x = np.arange(4 * 64 * 64 * 64, dtype=np.float32).reshape(4, 64, 64, 64)   # 4 MiB: runs on 2 threads
dmlc.set_num_threads(1)
want = dmlc.depth_to_space(x, 2)

def in_child(fn):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, str(fn()).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        text = f.read()
    os.waitpid(pid, 0)
    return text

def threaded_call():
    return dmlc.get_num_threads(), all(np.array_equal(dmlc.depth_to_space(x, 2), want) for _ in range(5))

dmlc.set_num_threads(2)
print(in_child(threaded_call))
threaded_call()
print(in_child(threaded_call))
print(in_child(lambda: (dmlc.set_num_threads(3), threaded_call())[1]))
stop = False
def busy():
    while not stop:
        dmlc.depth_to_space(x, 2)
t = threading.Thread(target=busy)
t.start()
print(in_child(threaded_call))
stop = True
t.join()
print(dmlc.get_num_threads())
"""
    assert run_child(code) == ("(2, True)\n(2, True)\n(3, True)\n(2, True)\n2\n", "")
