"""Arrays from other libraries (PyTorch tensors, DLPack-only objects, the array interface,
the buffer protocol) in and out of every function; unaligned memory; out= arrays whose
elements share memory.  NumPy results of the same calls are the references."""
import array
import os
import re
import tracemalloc

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import dmlc
from dmlc import _interop

def have_torch():
    try:
        import torch  # noqa: F401
        return True
    except ImportError:
        return False


needs_torch = pytest.mark.skipif(not have_torch(), reason="PyTorch is not installed")


class DLPackOnly:
    """A producer with nothing but DLPack: the memory of a NumPy array, which it keeps."""

    def __init__(self, base):
        self.base = base

    def __dlpack__(self, **kwargs):
        return self.base.__dlpack__(**kwargs)


class DLPackWithDevice(DLPackOnly):
    """...and __dlpack_device__.  On a device NumPy cannot read (anything but the CPU's
    memory, which pinned and managed CUDA memory are), __dlpack__ fails as a GPU producer's
    would: NumPy refuses the capsule it gets."""

    def __init__(self, base, device=(1, 0)):
        super().__init__(base)
        self.device_tuple = device

    def __dlpack_device__(self):
        return self.device_tuple

    def __dlpack__(self, **kwargs):
        if self.device_tuple[0] not in (1, 3, 13):
            raise BufferError(f"cannot export device {self.device_tuple} memory to the CPU")
        return super().__dlpack__(**kwargs)


class ArrayInterfaceOnly:
    def __init__(self, base):
        self.base = base
        self.__array_interface__ = base.__array_interface__


SUPPORTED = "(expected float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64)"

def data(shape, dtype, seed=0):
    return (np.random.default_rng(seed).standard_normal(shape) * 50).astype(dtype)


def floats(dtype):
    """avg_pool and lp_pool take float dtypes only: float64 where a test asks for an integer one."""
    return dtype if np.dtype(dtype).kind == "f" else np.float64


# max_unpool's indices: where max_pool found the maxima of a (2, 3, 4, 6) array.
UNPOOL_SHAPE = (2, 3, 4, 6)
UNPOOL_INDICES = dmlc.max_pool(data(UNPOOL_SHAPE, np.float32, 9), 2, return_indices=True, indices_dtype="uint64")[1]

# gather's indices: negative and out-of-range ones included.
GATHER_INDICES = np.array([[4, -1], [0, 7]], np.int64)
# gather_elements' and scatter_elements' along axis 1 of a (4, 5, 3) array, out of range both ways.
ELEMENT_INDICES = np.array([[[4, -1, 0], [7, 2, -6]]] * 4, np.int64)
# gather_nd's and scatter_nd's index pairs into the first two axes of a (4, 5, 3) array,
# out of range both ways (clamped by the gather, skipped by the scatter).
ND_INDICES = np.array([[3, -1], [0, 7], [-5, 2]], np.int64)

# roi_pool's regions [batch, x1, y1, x2, y2]: inside, inverted and past the edges.
ROIS = np.array([[0, 0, 0, 9, 7], [1, 6, 2, 1, 1], [1, -4, 3, 20, 20]], np.float64)
ROI_BATCH = np.array([0, 1, 1], np.int64)
# reverse_subsequences' lengths along axis 1 of a (4, 5, 3) array: 0, 1, some and past the end.
REVERSE_LENGTHS = np.array([[0, 1, 3], [5, 9, 2], [4, 2, 1], [7, 0, 5]], np.int64)

# name -> (inputs(dtype): {argument name as messages give it: array}, call(args, **kw));
# each call's result is one array or a list of them.  Every public function, every array
# argument (out= in the tests of out=).
CALLS = {
    "depth_to_space": (lambda d: {"x": data((2, 8, 3, 5), d)},
                       lambda a, **kw: dmlc.depth_to_space(a["x"], 2, order="column_row_depth", **kw)),
    "space_to_depth": (lambda d: {"x": data((2, 3, 4, 6), d)}, lambda a, **kw: dmlc.space_to_depth(a["x"], 2, **kw)),
    "pad": (lambda d: {"x": data((3, 4, 5), d)},
            lambda a, **kw: dmlc.pad(a["x"], (0, 1, 2), (1, 0, 3), mode="reflection", **kw)),
    "split": (lambda d: {"x": data((3, 6, 2), d)}, lambda a, **kw: dmlc.split(a["x"], [1, 0, 5], 1, **kw)),
    "join": (lambda d: {"arrays[0]": data((3, 4, 2), d), "arrays[1]": data((3, 1, 2), d, 1)},
             lambda a, **kw: dmlc.join([a["arrays[0]"], a["arrays[1]"]], -2, **kw)),
    "max_pool": (lambda d: {"x": data((2, 3, 6, 7), d)},
                 lambda a, **kw: dmlc.max_pool(a["x"], 3, strides=2, start_padding=1, **kw)),
    "avg_pool": (lambda d: {"x": data((2, 3, 6, 7), floats(d))},
                 lambda a, **kw: dmlc.avg_pool(a["x"], 3, strides=2, start_padding=1, include_padding=True, **kw)),
    "lp_pool": (lambda d: {"x": data((2, 3, 6, 7), floats(d))},
                lambda a, **kw: dmlc.lp_pool(a["x"], 3, 3, strides=2, start_padding=1, **kw)),
    "identity": (lambda d: {"x": data((2, 3, 4), d)}, lambda a, **kw: dmlc.identity(a["x"], **kw)),
    "slice": (lambda d: {"x": data((3, 5, 6), d)},
              lambda a, **kw: dmlc.slice(a["x"], [1, 0, 2], [2, 5, 3], [1, -2, 2], **kw)),
    "tile": (lambda d: {"x": data((2, 3), d)}, lambda a, **kw: dmlc.tile(a["x"], [2, 3], **kw)),
    "cast": (lambda d: {"x": data((2, 3, 4), d)}, lambda a, **kw: dmlc.cast(a["x"], np.int16, **kw)),
    "fill_constant": (lambda d: {}, lambda a, **kw: dmlc.fill_constant((2, 3), -2.5, np.float32, **kw)),
    "fill_sequence": (lambda d: {}, lambda a, **kw: dmlc.fill_sequence((2, 3), 1, 2, np.float32, **kw)),
    "diagonal_matrix": (lambda d: {}, lambda a, **kw: dmlc.diagonal_matrix((2, 3, 4), np.float32, offset=1, **kw)),
    "diagonal_fill": (lambda d: {"x": data((2, 3, 4), d)}, lambda a, **kw: dmlc.diagonal_fill(a["x"], -1, 1, 3, **kw)),
    "resample": (lambda d: {"x": data((2, 3, 4), d)},
                 lambda a, **kw: dmlc.resample(a["x"], scales=[1, 2, 0.5], **kw)),
    "upsample_2d": (lambda d: {"x": data((1, 2, 3, 4), d)}, lambda a, **kw: dmlc.upsample_2d(a["x"], (2, 3), **kw)),
    "max_unpool": (lambda d: {"x": data((2, 3, 2, 3), d), "indices": UNPOOL_INDICES},
                   lambda a, **kw: dmlc.max_unpool(a["x"], a["indices"], UNPOOL_SHAPE, **kw)),
    "gather": (lambda d: {"x": data((4, 5, 3), d), "indices": GATHER_INDICES},
               lambda a, **kw: dmlc.gather(a["x"], a["indices"], 1, **kw)),
    "gather_elements": (lambda d: {"x": data((4, 5, 3), d), "indices": ELEMENT_INDICES},
                        lambda a, **kw: dmlc.gather_elements(a["x"], a["indices"], 1, **kw)),
    "scatter_elements": (lambda d: {"x": data((4, 5, 3), d), "indices": ELEMENT_INDICES,
                                    "updates": data((4, 2, 3), d, 1)},
                         lambda a, **kw: dmlc.scatter_elements(a["x"], a["indices"], a["updates"], 1, **kw)),
    "gather_nd": (lambda d: {"x": data((4, 5, 3), d), "indices": ND_INDICES},
                  lambda a, **kw: dmlc.gather_nd(a["x"], a["indices"], **kw)),
    "scatter_nd": (lambda d: {"x": data((4, 5, 3), d), "indices": ND_INDICES, "updates": data((3, 3), d, 1)},
                   lambda a, **kw: dmlc.scatter_nd(a["x"], a["indices"], a["updates"], **kw)),
    "one_hot": (lambda d: {"indices": GATHER_INDICES},
                lambda a, **kw: dmlc.one_hot(a["indices"], 5, axis=1, values=(-1, 3), **kw)),
    "roi_pool": (lambda d: {"x": data((2, 3, 6, 7), floats(d)), "rois": ROIS},
                 lambda a, **kw: dmlc.roi_pool(a["x"], a["rois"], (2, 3), 0.5, **kw)),
    "roi_align": (lambda d: {"x": data((2, 3, 6, 7), floats(d)), "rois": ROIS[:, 1:], "batch_indices": ROI_BATCH},
                  lambda a, **kw: dmlc.roi_align(a["x"], a["rois"], a["batch_indices"], (2, 3), **kw)),
    "argmax": (lambda d: {"x": data((3, 4, 5), d)}, lambda a, **kw: dmlc.argmax(a["x"], (0, 2), **kw)),
    "argmin": (lambda d: {"x": data((3, 4, 5), d)},
               lambda a, **kw: dmlc.argmin(a["x"], 1, select_last_index=True, **kw)),
    "top_k": (lambda d: {"x": data((3, 4, 5), d)}, lambda a, **kw: dmlc.top_k(a["x"], 2, 1, largest=False, **kw)),
    "cumsum": (lambda d: {"x": data((3, 4, 5), d)}, lambda a, **kw: dmlc.cumsum(a["x"], 1, reverse=True, **kw)),
    "cumprod": (lambda d: {"x": data((3, 4, 5), d)},
                lambda a, **kw: dmlc.cumprod(a["x"], 0, exclusive=True, **kw)),
    "nonzero_coordinates": (lambda d: {"x": data((3, 4, 5), d)},
                            lambda a, **kw: dmlc.nonzero_coordinates(a["x"], **kw)),
    "reverse_subsequences": (lambda d: {"x": data((4, 5, 3), d), "lengths": REVERSE_LENGTHS},
                             lambda a, **kw: dmlc.reverse_subsequences(a["x"], a["lengths"], 1, **kw)),
}
# The functions whose result's size depends on the data: no out= (the tests of out= skip them).
NO_OUT = {"nonzero_coordinates"}
OUT_CALLS = [name for name in CALLS if name not in NO_OUT]
# (function, argument) for every array argument of every public function.
ARGUMENTS = [(name, arg) for name, (inputs, _) in CALLS.items() for arg in inputs(np.float32)]
ARG_IDS = [f"{name}-{arg}" for name, arg in ARGUMENTS]


def test_every_public_function_is_covered():
    public = {n for n in dmlc.__all__ if callable(getattr(dmlc, n)) and not n.startswith(("get_", "set_"))
              and n not in ("output_pool_info", "release_output_pool", "DepthSpaceOrder", "PaddingMode",
                            "InterpolationMode", "AxisDirection")}
    assert public == set(CALLS)


def as_list(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def reference(name, dtype=np.float32):
    """(arguments, call, results as a list): the NumPy call whose results the tests compare to."""
    inputs, call = CALLS[name]
    args = inputs(dtype)
    return args, call, as_list(call(args))


def with_arg(args, arg, value):
    return {**args, arg: value}


def unaligned(a):
    """A copy of a whose data address is 1 byte past an aligned one (np.frombuffer with an
    offset, as reading a binary file gives)."""
    blob = np.zeros(a.nbytes + 1, np.uint8)
    u = np.frombuffer(blob, a.dtype, count=a.size, offset=1).reshape(a.shape)
    u[...] = a
    assert u.ctypes.data % a.itemsize and u.flags.writeable
    return u


def wrap_out(want, make):
    """out= for a call whose results are want (a list): one object, or a list of them."""
    outs = [make(w) for w in want]
    return outs, (outs if len(want) > 1 else outs[0])


def check_out(name, make, read):
    """Runs CALLS[name] with out= objects made by make(array); the call must return those
    objects, holding (read(obj)) the results."""
    args, call, want = reference(name)
    outs, out = wrap_out(want, make)
    if name == "split":
        out = outs
    got = call(args, out=out)
    assert all(g is o for g, o in zip(as_list(got), outs))
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(read(o), w)


# ---- Inputs -----------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
def test_torch_inputs(name, arg):
    import torch
    args, call, want = reference(name)
    got = as_list(call(with_arg(args, arg, torch.from_numpy(args[arg]))))
    assert all(type(g) is np.ndarray for g in got)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    # A transposed (non-contiguous) tensor is read through its strides (1-d arguments have no transpose).
    if args[arg].ndim < 2:
        return
    t = torch.from_numpy(np.ascontiguousarray(np.swapaxes(args[arg], 0, -1))).transpose(0, -1)
    assert not t.is_contiguous()
    for g, w in zip(as_list(call(with_arg(args, arg, t))), want):
        np.testing.assert_array_equal(g, w)


@needs_torch
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                                   "uint16", "uint32", "uint64"])
def test_torch_every_dtype(dtype):
    import torch
    x = np.arange(2 * 8 * 2 * 2).astype(dtype).reshape(2, 8, 2, 2)
    t = torch.from_numpy(x)
    np.testing.assert_array_equal(dmlc.depth_to_space(t, 2), dmlc.depth_to_space(x, 2))
    out = torch.from_numpy(np.zeros((2, 2, 4, 4), dtype))
    assert dmlc.depth_to_space(t, 2, out=out) is out
    np.testing.assert_array_equal(out.numpy(), dmlc.depth_to_space(x, 2))


@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
@pytest.mark.parametrize("wrap", [DLPackOnly, DLPackWithDevice, ArrayInterfaceOnly, memoryview],
                         ids=["dlpack", "dlpack+device", "array-interface", "buffer"])
def test_protocol_inputs(name, arg, wrap):
    """An object offering only __dlpack__ (or only the array interface, or the buffer
    protocol) in any argument is read as the array it holds, never as a 0-d object array."""
    args, call, want = reference(name)
    for g, w in zip(as_list(call(with_arg(args, arg, wrap(args[arg])))), want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("wrap", [DLPackOnly, ArrayInterfaceOnly, lambda a: memoryview(a)],
                         ids=["dlpack", "array-interface", "buffer"])
def test_read_only_inputs_are_read_in_place(wrap):
    x = np.arange(48, dtype=np.float32).reshape(1, 12, 2, 2)
    x.flags.writeable = False
    view = _interop.input_array(wrap(x), "x")
    assert view.ctypes.data == x.ctypes.data and not view.flags.writeable
    np.testing.assert_array_equal(dmlc.depth_to_space(wrap(x), 2), dmlc.depth_to_space(np.array(x), 2))


def test_buffer_protocol_inputs():
    a = array.array("h", [5, -1, 7, 3])
    np.testing.assert_array_equal(dmlc.pad(a, 1, 2, mode="edge"), [5, 5, -1, 7, 3, 3, 3])
    np.testing.assert_array_equal(dmlc.pad(b"\x01\x02\x03", 1, 0), np.array([0, 1, 2, 3], np.uint8))
    parts = dmlc.split(bytearray(b"abcdef"), [2, 4], 0)
    assert [p.tobytes() for p in parts] == [b"ab", b"cdef"]


def peak_bytes(call):
    """Bytes allocated at the peak of call() (NumPy reports its array data to tracemalloc)."""
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        result = call()
        return tracemalloc.get_traced_memory()[1] - start, result
    finally:
        tracemalloc.stop()


NOCOPY_SHAPE = (1, 16, 128, 128)  # 1 MiB of float32


@pytest.mark.parametrize("wrap", [DLPackOnly, DLPackWithDevice, ArrayInterfaceOnly, lambda a: a],
                         ids=["dlpack", "dlpack+device", "array-interface", "ndarray"])
def test_inputs_are_not_copied(wrap):
    """The core reads the producer's own memory: the only allocation is the result."""
    x = np.random.default_rng(1).standard_normal(NOCOPY_SHAPE).astype(np.float32)
    wrapped = wrap(x)
    peak, y = peak_bytes(lambda: dmlc.depth_to_space(wrapped, 2))
    assert x.nbytes <= peak < x.nbytes * 1.25, f"allocated {peak} bytes for a {x.nbytes}-byte result"
    np.testing.assert_array_equal(y, dmlc.depth_to_space(x, 2))


@needs_torch
def test_torch_input_is_not_copied():
    import torch
    t = torch.randn(NOCOPY_SHAPE)
    peak, y = peak_bytes(lambda: dmlc.space_to_depth(t, 2))
    assert t.numel() * 4 <= peak < t.numel() * 4 * 1.25
    np.testing.assert_array_equal(y, dmlc.space_to_depth(t.numpy(), 2))


# ---- out= ---------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("name", OUT_CALLS)
def test_torch_out(name):
    import torch
    check_out(name, lambda w: torch.from_numpy(np.full(w.shape, -7, w.dtype)), lambda o: o.numpy())


@pytest.mark.parametrize("name", OUT_CALLS)
def test_dlpack_only_out(name):
    check_out(name, lambda w: DLPackOnly(np.full(w.shape, -7, w.dtype)), lambda o: o.base)


@pytest.mark.parametrize("name", OUT_CALLS)
def test_array_interface_out(name):
    check_out(name, lambda w: ArrayInterfaceOnly(np.full(w.shape, -7, w.dtype)), lambda o: o.base)


@needs_torch
def test_torch_max_pool_with_indices_returns_the_pair():
    import torch
    x = np.random.default_rng(2).standard_normal((2, 3, 6, 6)).astype(np.float32)
    want_v, want_i = dmlc.max_pool(x, 2, return_indices=True, indices_dtype="uint64")
    out = (torch.empty(want_v.shape), torch.empty(want_i.shape, dtype=torch.uint64))
    got = dmlc.max_pool(torch.from_numpy(x), 2, return_indices=True, indices_dtype="uint64", out=out)
    assert type(got) is tuple and got[0] is out[0] and got[1] is out[1]
    np.testing.assert_array_equal(out[0].numpy(), want_v)
    np.testing.assert_array_equal(out[1].numpy(), want_i)


def test_dlpack_out_is_written_in_place():
    """The core writes the producer's memory itself: no temporary of the result's size."""
    x = np.random.default_rng(3).standard_normal(NOCOPY_SHAPE).astype(np.float32)
    base = np.zeros((1, 4, 256, 256), np.float32)
    out = DLPackWithDevice(base)
    peak, got = peak_bytes(lambda: dmlc.depth_to_space(x, 2, out=out))
    assert got is out and peak < base.nbytes // 8, f"allocated {peak} bytes"
    np.testing.assert_array_equal(base, dmlc.depth_to_space(x, 2))


def test_buffer_protocol_out():
    out = array.array("f", [0.0] * 7)
    assert dmlc.pad(array.array("f", [1, 2, 3, 4, 5]), 1, 1, mode="edge", out=out) is out
    assert out.tolist() == [1, 1, 2, 3, 4, 5, 5]
    parts = [bytearray(2), bytearray(4)]
    assert dmlc.split(b"abcdef", [2, 4], 0, out=parts) == parts and parts == [b"ab", b"cdef"]


@needs_torch
def test_torch_out_sharing_memory_with_its_input():
    import torch
    t = torch.arange(12, dtype=torch.float64)
    assert dmlc.pad(t[:10], 1, 1, mode="wrap", out=t) is t  # reads a copy of t[:10], as NumPy would
    assert t.tolist() == [9.0] + list(range(10)) + [0.0]


@needs_torch
def test_torch_split_parts_that_overlap_land_in_order():
    import torch
    buf = torch.zeros(4, dtype=torch.int64)
    dmlc.split(np.arange(6, dtype=np.int64), [3, 3], 0, out=[buf[:3], buf[1:]])
    assert buf.tolist() == [0, 3, 4, 5]  # as with NumPy arrays: the later part last


# ---- What is refused ----------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("dtype,shown", [("bfloat16", "torch.bfloat16"), ("bool", "bool"), ("complex64", "complex64")])
@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
def test_torch_unsupported_dtypes(name, arg, dtype, shown):
    import torch
    args, call, _ = reference(name)
    t = torch.zeros(args[arg].shape, dtype=getattr(torch, dtype))
    # indices that NumPy holds (bool, complex) get the function's own message: uint32 or
    # uint64 (max_unpool), an integer dtype (the gathers).
    own = "expected uint32 or uint64" if name == "max_unpool" else "expected an integer dtype"
    want = f"{arg} has dtype {shown}, " + (
        own if arg in ("indices", "lengths") and dtype != "bfloat16" else f"which dmlc does not support {SUPPORTED}")
    with pytest.raises(TypeError, match=re.escape(want)):
        call(with_arg(args, arg, t))


@needs_torch
@pytest.mark.parametrize("dtype,shown", [("bfloat16", "torch.bfloat16"), ("bool", "bool"), ("complex64", "complex64")])
def test_torch_unsupported_out_dtypes(dtype, shown):
    import torch
    with pytest.raises(TypeError, match=re.escape(f"out has dtype {shown}, ")):
        dmlc.depth_to_space(np.zeros((1, 4, 2, 2), np.float32), 2, out=torch.zeros((1, 1, 4, 4),
                                                                                     dtype=getattr(torch, dtype)))


@needs_torch
@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
def test_torch_requires_grad_in_every_argument(name, arg):
    """dmlc's TypeError, not torch's RuntimeError (indices are integers, which cannot require
    grad in torch: a float tensor stands in, refused before its dtype is looked at)."""
    import torch
    args, call, _ = reference(name)
    t = torch.zeros(args[arg].shape, dtype=torch.float64, requires_grad=True)
    with pytest.raises(TypeError, match=re.escape(f"{arg} is a tensor that requires grad; dmlc does not record "
                                                  f"gradients: pass {arg}.detach() (which shares its memory)")):
        call(with_arg(args, arg, t))


@needs_torch
def test_torch_requires_grad():
    import torch
    x = torch.zeros((1, 4, 2, 2), requires_grad=True)
    with pytest.raises(TypeError, match=re.escape("x is a tensor that requires grad; dmlc does not record gradients: "
                                                  "pass x.detach() (which shares its memory)")):
        dmlc.depth_to_space(x, 2)
    with pytest.raises(TypeError, match=re.escape("arrays[1] is a tensor that requires grad; dmlc does not record "
                                                  "gradients: pass arrays[1].detach()")):
        dmlc.join([np.zeros(2, np.float32), torch.zeros(2, requires_grad=True)], 0)
    with pytest.raises(TypeError, match=re.escape("out is a tensor that requires grad; dmlc does not record "
                                                  "gradients: pass out.detach() (which shares its memory)")):
        dmlc.depth_to_space(np.zeros((1, 4, 2, 2), np.float32), 2, out=torch.zeros((1, 1, 4, 4), requires_grad=True))
    out = torch.zeros((1, 1, 4, 4), requires_grad=True)
    assert dmlc.depth_to_space(x.detach(), 2, out=out.detach()) is not None  # detached: accepted


@needs_torch
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="libtorch throws a C++ exception here, which AddressSanitizer preloaded into python "
                           "(a C program) cannot intercept")
@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
def test_torch_meta_device(name, arg):
    import torch
    args, call, _ = reference(name)
    t = torch.empty(args[arg].shape, dtype=getattr(torch, str(args[arg].dtype)), device="meta")
    with pytest.raises(TypeError, match=re.escape(f"{arg} is on a device DLPack cannot export, meta (")):
        call(with_arg(args, arg, t))


@pytest.mark.parametrize("device,kind", [((2, 0), "cuda"), ((10, 1), "rocm"), ((8, 0), "metal"), ((99, 3), "non-CPU")])
def test_other_devices_are_refused(device, kind):
    x = DLPackWithDevice(np.zeros((1, 4, 2, 2), np.float32), device)
    want = (f"is on a {kind} device (DLPack device ({device[0]}, {device[1]})); dmlc reads CPU memory only: copy it "
            f"to the CPU first (for a PyTorch tensor, ")
    with pytest.raises(TypeError, match=re.escape("x " + want + "x.cpu())")):
        dmlc.depth_to_space(x, 2)
    with pytest.raises(TypeError, match=re.escape("out " + want + "out.cpu())")):
        dmlc.space_to_depth(np.zeros((1, 1, 4, 4), np.float32), 2, out=x)


@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
def test_cuda_tensors_are_refused_in_every_argument(name, arg):
    args, call, _ = reference(name)
    with pytest.raises(TypeError, match=re.escape(
            f"{arg} is on a cuda device (DLPack device (2, 0)); dmlc reads CPU memory only: copy it to the CPU first "
            f"(for a PyTorch tensor, {arg}.cpu())")):
        call(with_arg(args, arg, DLPackWithDevice(args[arg], (2, 0))))


@pytest.mark.parametrize("name", OUT_CALLS)
def test_cuda_out_is_refused_by_every_function(name):
    args, call, want = reference(name)
    outs = [DLPackWithDevice(np.zeros(w.shape, w.dtype), (2, 0)) for w in want]
    with pytest.raises(TypeError, match=re.escape("is on a cuda device (DLPack device (2, 0)); dmlc reads CPU")):
        call(args, out=outs if len(outs) > 1 or name == "split" else outs[0])


def test_device_attribute_is_named():
    x = DLPackWithDevice(np.zeros(4, np.float32), (2, 1))
    x.device = "cuda:1"
    with pytest.raises(TypeError, match=re.escape("x is on a cuda device, cuda:1 (DLPack device (2, 1))")):
        dmlc.pad(x, 1, 1)


def test_cpu_addressable_devices_are_accepted():
    # CUDA pinned host memory and managed memory are ordinary CPU addresses (NumPy takes them).
    for device in [(3, 0), (13, 0)]:
        np.testing.assert_array_equal(dmlc.pad(DLPackWithDevice(np.ones(2, np.float32), device), 1, 0), [0, 1, 1])


@pytest.mark.parametrize("wrap", [DLPackOnly, ArrayInterfaceOnly, memoryview], ids=["dlpack", "array-interface",
                                                                              "buffer"])
def test_read_only_out(wrap):
    base = np.zeros((1, 1, 4, 4), np.float32)
    base.flags.writeable = False
    out = wrap(base)
    with pytest.raises(ValueError, match="^out is read-only$"):
        dmlc.depth_to_space(np.ones((1, 4, 2, 2), np.float32), 2, out=out)


@pytest.mark.parametrize("out", [[0.0] * 4, "abcd", 3.0, None.__class__], ids=["list", "str", "float", "type"])
def test_out_without_memory(out):
    with pytest.raises(TypeError, match=re.escape(
            "out must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array interface or "
            f"the buffer protocol), not {type(out).__name__}")):
        dmlc.pad(np.ones(2, np.float32), 1, 1, out=out)


# ---- Unaligned memory ----------------------------------------------------------------------

@pytest.mark.parametrize("name,arg", ARGUMENTS, ids=ARG_IDS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int64])
def test_unaligned_inputs_are_copied(name, arg, dtype):
    args, call, want = reference(name, dtype)
    for g, w in zip(as_list(call(with_arg(args, arg, unaligned(args[arg])))), want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name", OUT_CALLS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int64])
def test_unaligned_out_is_written_through_an_aligned_copy(name, dtype):
    args, call, want = reference(name, dtype)
    outs = [unaligned(np.full(w.shape, 7, w.dtype)) for w in want]
    got = as_list(call(args, out=outs if len(want) > 1 else outs[0]))  # split, top_k: one out per result
    assert all(g is o for g, o in zip(got, outs))
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(o, w)


def test_unaligned_input_read_from_a_file(tmp_path):
    """The case that reaches users: floats at an odd offset of a binary file."""
    x = np.arange(1 * 8 * 2 * 2, dtype="<f4").reshape(1, 8, 2, 2)
    path = tmp_path / "blob.bin"
    path.write_bytes(b"\x07" + x.tobytes())
    blob = path.read_bytes()
    y = np.frombuffer(blob, np.float32, offset=1).reshape(x.shape)
    np.testing.assert_array_equal(dmlc.depth_to_space(y, 2), dmlc.depth_to_space(x, 2))


# ---- out= whose elements share memory -----------------------------------------------------

def test_out_with_a_zero_stride_is_refused():
    buf = np.zeros(16, np.float32)
    with pytest.raises(ValueError, match=re.escape(
            "out has stride 0 on axis 1 of length 5: its elements share memory, and each element of out must have "
            "memory of its own")):
        dmlc.join([np.ones((2, 2), np.float32), np.ones((2, 3), np.float32)], 1, out=as_strided(buf, (2, 5), (4, 0)))


def test_out_whose_rows_overlap_is_refused_and_untouched():
    """The issue's case: join into as_strided(buf, (2, N), (4, 4)), whose result depended
    on thread timing."""
    n = 48_960
    buf = np.zeros(n + 1, np.float32)
    a, b = np.ones((1, n), np.float32), np.full((1, n), 2, np.float32)
    with pytest.raises(ValueError, match=re.escape(
            "out has strides (4, 4) for shape (2, 48960): axes 0 and 1 overlap, since axis 1's stride 4 is less "
            "than 8, the bytes axis 0 spans; each element of out must have memory of its own")):
        dmlc.join([a, b], 0, out=as_strided(buf, (2, n), (4, 4)))
    assert not buf.any()


def test_out_overlap_across_several_axes_and_negative_strides():
    buf = np.zeros(32, np.float32)
    with pytest.raises(ValueError, match=re.escape(
            "out has strides (12, 4, 8) for shape (3, 2, 2): axis 0 overlaps axes 1 and 2, since its stride 12 is "
            "less than 16, the bytes those axes span")):
        dmlc.pad(np.ones((3, 2, 2), np.float32), 0, 0, out=as_strided(buf, (3, 2, 2), (12, 4, 8)))
    with pytest.raises(ValueError, match=re.escape(
            "out has strides (-4, -4) for shape (2, 5): axes 0 and 1 overlap, since axis 1's stride 4 is less than "
            "8, the bytes axis 0 spans")):
        dmlc.join([np.ones((1, 5), np.float32)] * 2, 0, out=as_strided(buf[9:], (2, 5), (-4, -4)))
    parts = [np.zeros((2, 2), np.float32), as_strided(buf, (2, 2), (4, 4))]
    with pytest.raises(ValueError, match=re.escape("out[1] has strides (4, 4) for shape (2, 2): axes 0 and 1 overlap")):
        dmlc.split(np.ones((2, 4), np.float32), 2, 1, out=parts)
    with pytest.raises(ValueError, match=re.escape(
            "out indices has strides (0, 4, 4) for shape (1, 2, 2): axes 1 and 2 overlap")):
        dmlc.max_pool(np.ones((1, 2, 4), np.float32), 2, return_indices=True,
                      out=(np.zeros((1, 2, 2), np.float32), as_strided(np.zeros(4, np.uint32), (1, 2, 2), (0, 4, 4))))


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_out_in_any_axis_order_or_with_gaps_is_accepted(order):
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    want = dmlc.pad(x, 1, 1)
    storage = np.zeros(tuple(want.shape[a] + 2 for a in order), np.int32)
    out = storage[1:-1, 1:-1, 1:-1].transpose(np.argsort(order))
    assert out.shape == want.shape and not out.flags.c_contiguous
    assert dmlc.pad(x, 1, 1, out=out) is out
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("make", [lambda w: unaligned(np.full(w.shape, 7, w.dtype)),
                                  lambda w: np.full(w.shape, 7, w.dtype.newbyteorder()),
                                  lambda w: np.full(w.shape[::-1], 7, w.dtype).T[..., ::-1]],
                         ids=["unaligned", "byte-swapped", "negative strides"])
@pytest.mark.parametrize("name", OUT_CALLS)
def test_foreign_out_the_core_cannot_write_goes_through_a_temporary(name, make):
    """An out= object whose memory the core cannot address directly gets the result through
    an aligned, native, positively strided copy, and is still the object returned."""
    check_out(name, lambda w: ArrayInterfaceOnly(make(w)), lambda o: o.base)


def test_byte_swapped_ndarray_out():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.zeros((4, 5), ">f4")
    assert dmlc.pad(x, 1, 1, out=out) is out
    np.testing.assert_array_equal(out, np.pad(x, 1))
    with pytest.raises(TypeError, match=re.escape("out has dtype >f8, expected float32")):
        dmlc.pad(x, 1, 1, out=np.zeros((4, 5), ">f8"))


def test_numpy_scalar_out_has_no_memory_to_write():
    with pytest.raises(TypeError, match=re.escape("out (float32) has no memory to write in place")):
        dmlc.pad(np.ones(1, np.float32), 0, 0, out=np.float32(0))
