"""Arrays from other libraries: any CPU object with ``__dlpack__``, the array interface or
the buffer protocol, as an ndarray over the same memory.

The binding (``dmlc/_core.pyx``) handles ``numpy.ndarray`` itself and calls these only for
other objects, so NumPy callers pay nothing for them.  The rules (README, "Arrays from other
libraries"):

- Inputs are read in place: ``numpy.from_dlpack`` (NumPy >= 2.1: read-only flags and
  devices) for DLPack producers such as PyTorch and JAX, a view for the array interface
  and the buffer protocol, and ``numpy.asarray`` for plain array-likes such as lists,
  which have no memory to share.
- ``out=`` must expose memory to write: a DLPack producer, the array interface or the buffer
  protocol; the call writes into it and returns the object itself.
- Refused with a ``TypeError`` that names the problem: a tensor that requires grad, one on
  another device, and a dtype NumPy cannot hold (bfloat16); bool and complex become NumPy
  arrays here and are refused by the binding's dtype check with the same wording.
"""
import numpy as np

# DLPack's device types (dlpack.h, DLDeviceType) whose memory the CPU addresses directly:
# NumPy's from_dlpack accepts exactly these.
_CPU_DEVICES = {1: "cpu", 3: "cuda_host", 11: "rocm_host", 13: "cuda_managed"}
_DEVICE_NAMES = {2: "cuda", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi", 10: "rocm", 12: "ext_dev",
                 14: "oneapi", 15: "webgpu", 16: "hexagon", 17: "maia"}

_SUPPORTED = ("float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32 or uint64")


def _refuse_grad(obj, name):
    # PyTorch's attribute; JAX and NumPy have none.  Checked before DLPack, whose own error
    # (a BufferError from torch) would not say which argument it was.
    if getattr(obj, "requires_grad", False) is True:
        raise TypeError(f"{name} is a tensor that requires grad; dmlc does not record gradients: pass "
                        f"{name}.detach() (which shares its memory)")


def _device_text(obj):
    """", cuda:1" for an object with a device attribute (PyTorch, JAX), else ""."""
    device = getattr(obj, "device", None)
    return "" if device is None or callable(device) else f", {device}"


def _from_dlpack(obj, name):
    """An ndarray over obj's memory through DLPack, or TypeError saying why not."""
    try:
        # copy=False: read in place or fail, never a silent copy.  NumPy refuses memory on
        # any device but the CPU's; why it refused is worked out below, off the fast path
        # (PyTorch's __dlpack_device__ alone costs as much as the rest of a small call).
        return np.from_dlpack(obj, copy=False)
    except (RuntimeError, BufferError, TypeError, ValueError) as e:
        error = e
    device_of = getattr(obj, "__dlpack_device__", None)
    if device_of is not None:
        try:
            device_type, device_id = device_of()
        except Exception as e:  # e.g. PyTorch's "meta" device, which has no memory at all
            raise TypeError(f"{name} is on a device DLPack cannot export{_device_text(obj)} ({e}); dmlc reads CPU "
                            f"memory only") from None
        if int(device_type) not in _CPU_DEVICES:
            kind = _DEVICE_NAMES.get(int(device_type), "non-CPU")
            raise TypeError(f"{name} is on a {kind} device{_device_text(obj)} (DLPack device ({int(device_type)}, "
                            f"{int(device_id)})); dmlc reads CPU memory only: copy it to the CPU first (for a "
                            f"PyTorch tensor, {name}.cpu())") from None
    dtype = getattr(obj, "dtype", None)
    if "dtype" in str(error).lower() and dtype is not None:
        raise TypeError(f"{name} has dtype {dtype}, which dmlc does not support (expected {_SUPPORTED})") from None
    raise TypeError(f"{name} ({type(obj).__module__}.{type(obj).__qualname__}) cannot be read through DLPack: "
                    f"{error}") from None


def _view(obj, name, copy):
    """An ndarray over obj's memory when obj has the array interface or the buffer protocol,
    else None.  (Buffers go through memoryview: np.asarray(b"ab") is a bytes scalar.)
    copy=False refuses what NumPy can only copy (a NumPy scalar, say): nothing to write."""
    if not (hasattr(obj, "__array_interface__") or hasattr(obj, "__array_struct__")):
        try:
            obj = memoryview(obj)
        except TypeError:
            return None
    try:
        return np.asarray(obj, copy=copy)
    except ValueError:
        raise TypeError(f"{name} ({type(obj).__name__}) has no memory to write in place") from None


def input_array(x, name):
    """x (not an ndarray) as an ndarray, reading x's own memory wherever x has some."""
    _refuse_grad(x, name)
    if hasattr(type(x), "__dlpack__"):
        return _from_dlpack(x, name)
    a = _view(x, name, None)
    return np.asarray(x) if a is None else a  # lists and scalars have no memory to share


def output_array(out, name):
    """out (not an ndarray) as an ndarray over out's memory, which the call writes."""
    _refuse_grad(out, name)
    if hasattr(type(out), "__dlpack__"):
        return _from_dlpack(out, name)
    a = _view(out, name, False)
    if a is None:
        raise TypeError(f"{name} must be a writable array (a numpy.ndarray, or an object with __dlpack__, the array "
                        f"interface or the buffer protocol), not {type(out).__name__}")
    return a


def copy_into(out, result):
    """Writes result into out (not an ndarray) and returns out: for an out= the core could
    not write directly (unaligned memory, say), through the aligned result."""
    np.copyto(output_array(out, "out"), result)
    return out
