"""Raw DirectML structs through cffi, for tests that drive libdirectml_py as a C caller would."""
import numpy as np

from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from support import DML_TYPE

__all__ = ["SENTINEL", "Raw", "create", "d2s_case", "d2s_run", "execute", "infer", "padded", "pool_window_cases",
           "execute_from_threads", "strided_output"]


class Raw:
    """Keeps every cffi allocation of one desc alive while the test uses it."""

    def __init__(self):
        self.keep = []

    def new(self, ctype, init=None):
        obj = ffi.new(ctype, init)
        self.keep.append(obj)
        return obj

    def uints(self, values):
        return self.new("UINT[]", list(values)) if values is not None else ffi.NULL

    def tensor(self, dtype=None, sizes=(), strides=None, total=None, dml_type=None, ndim=None):
        """A DML_TENSOR_DESC*; total defaults to dmlcCalcBufferTensorSize's value."""
        dml_type = DML_TYPE[np.dtype(dtype)] if dml_type is None else dml_type
        if total is None:
            size = ffi.new("UINT64*")
            hr = lib.dmlcCalcBufferTensorSize(dml_type, len(sizes), self.uints(sizes), self.uints(strides), size)
            total = size[0] if hr == 0 else 0
        buf = self.new("DML_BUFFER_TENSOR_DESC*", {
            "DataType": dml_type, "Flags": 0, "DimensionCount": len(sizes) if ndim is None else ndim,
            "Sizes": self.uints(sizes), "Strides": self.uints(strides), "TotalTensorSizeInBytes": total,
            "GuaranteedBaseOffsetAlignment": 0})
        return self.new("DML_TENSOR_DESC*", {"Type": lib.DML_TENSOR_TYPE_BUFFER, "Desc": buf})

    def tensor_for(self, arr, strides=None):
        """A packed (or strided, in elements) tensor desc describing arr's shape and dtype."""
        return self.tensor(arr.dtype, arr.shape, strides)

    def op(self, op_type, struct, fields):
        d = self.new(f"{struct}*", fields)
        return self.new("DML_OPERATOR_DESC*", {"Type": op_type, "Desc": d})

    def bindings(self, arrays, sizes=None):
        """DMLC_BUFFER_BINDING[] over NumPy arrays (None = unbound slot)."""
        b = self.new("DMLC_BUFFER_BINDING[]", max(1, len(arrays)))
        for i, a in enumerate(arrays):
            if a is None:
                continue
            b[i].Buffer = ffi.cast("void*", a.ctypes.data)
            b[i].Offset = 0
            b[i].SizeInBytes = a.nbytes if sizes is None else sizes[i]
        return b


def create(desc):
    """dmlcCreateOperator on desc: (hr, message).  A created operator is released; a
    failure must leave the returned operator NULL."""
    op = ffi.new("DMLC_OPERATOR**")
    hr = lib.dmlcCreateOperator(desc, op)
    if hr == 0:
        lib.dmlcReleaseOperator(op[0])
    else:
        assert op[0] == ffi.NULL
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


def assert_create_fails(build, hr, msg):
    """A malformed-desc table row: build(raw) makes the desc (raw owns its memory, which must
    outlive the call); creating it fails with hr and a message starting with msg."""
    raw = Raw()
    got, message = create(build(raw))
    assert got == hr, message
    assert message.startswith(msg), message


def execute(desc, inputs, outputs, in_sizes=None, out_sizes=None):
    """Runs desc over NumPy arrays; returns (hr, message)."""
    raw = Raw()
    bi = raw.bindings(inputs, in_sizes)
    bo = raw.bindings(outputs, out_sizes)
    hr = lib.dmlcExecuteOperator(desc, len(inputs), bi, len(outputs), bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode()


def infer(desc, count=1, flags=0):
    """dmlcInferOutputSizes on desc: a list of size tuples, or (hr, message) on failure."""
    out = ffi.new("DMLC_TENSOR_SIZES[]", count)
    hr = lib.dmlcInferOutputSizes(desc, flags, count, out)
    msg = ffi.string(lib.dmlcGetLastErrorMessage()).decode()
    if hr != 0:
        return hr, msg
    return [tuple(out[k].Sizes[j] for j in range(out[k].DimensionCount)) for k in range(count)]


def pool_window_cases(desc, P0, P1):
    """Malformed-desc rows (name, build, hr, message) of the tensors and window fields that
    AVERAGE_POOLING(1) and LP_POOLING(1) share (src/pooling.c): desc(raw, version, x, y,
    strides=, window=, start=, end=, dilations=, ndim=) builds version 0 or 1 of the desc,
    whose messages start with P0 or P1.  Input {1, 2, 6, 6}, output {1, 2, 3, 3}: 2x2/2."""
    X, Y = (1, 2, 6, 6), (1, 2, 3, 3)

    def t(raw, sizes, dtype=np.float32, **kw):
        return raw.tensor(dtype, sizes, **kw)

    return [
        ("input NULL", lambda r: desc(r, 1, ffi.NULL, t(r, Y)), E_POINTER, P1 + "InputTensor is NULL"),
        ("output NULL", lambda r: desc(r, 0, t(r, X), ffi.NULL), E_POINTER, P0 + "OutputTensor is NULL"),
        ("2 dims", lambda r: desc(r, 1, t(r, (2, 6)), t(r, (2, 3)), (2,), (2,), (0,), (0,), (1,)), E_INVALIDARG,
         P1 + "InputTensor.DimensionCount is 2, expected 3 to 5"),
        ("6 dims", lambda r: desc(r, 0, t(r, (1,) * 6), t(r, (1,) * 6), (1,) * 4, (1,) * 4, (0,) * 4, (0,) * 4),
         E_INVALIDARG, P0 + "InputTensor.DimensionCount is 6, expected 3 to 5"),
        ("output rank", lambda r: desc(r, 1, t(r, X), t(r, (1, 2, 3, 3, 1))), E_INVALIDARG,
         P1 + "OutputTensor.DimensionCount is 5, expected 4 (InputTensor.DimensionCount)"),
        ("output type", lambda r: desc(r, 1, t(r, X), t(r, Y, np.float16)), E_INVALIDARG,
         P1 + "OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)"),
        ("DimensionCount", lambda r: desc(r, 1, t(r, X), t(r, Y), ndim=3), E_INVALIDARG,
         P1 + "DimensionCount is 3, expected 2 (InputTensor.DimensionCount 4 - 2)"),
        ("Strides NULL", lambda r: desc(r, 1, t(r, X), t(r, Y), strides=None), E_POINTER, P1 + "Strides is NULL"),
        ("WindowSize NULL", lambda r: desc(r, 0, t(r, X), t(r, Y), window=None), E_POINTER,
         P0 + "WindowSize is NULL"),
        ("StartPadding NULL", lambda r: desc(r, 0, t(r, X), t(r, Y), start=None), E_POINTER,
         P0 + "StartPadding is NULL"),
        ("EndPadding NULL", lambda r: desc(r, 1, t(r, X), t(r, Y), end=None), E_POINTER, P1 + "EndPadding is NULL"),
        ("Dilations NULL", lambda r: desc(r, 1, t(r, X), t(r, Y), dilations=None), E_POINTER,
         P1 + "Dilations is NULL"),
        ("Strides 0", lambda r: desc(r, 1, t(r, X), t(r, Y), strides=(2, 0)), E_INVALIDARG,
         P1 + "Strides[1] is 0, expected at least 1"),
        ("WindowSize 0", lambda r: desc(r, 0, t(r, X), t(r, Y), window=(0, 2)), E_INVALIDARG,
         P0 + "WindowSize[0] is 0, expected at least 1"),
        ("Dilations 0", lambda r: desc(r, 1, t(r, X), t(r, Y), dilations=(1, 0)), E_INVALIDARG,
         P1 + "Dilations[1] is 0, expected at least 1"),
        ("output N", lambda r: desc(r, 1, t(r, X), t(r, (2, 2, 3, 3))), E_INVALIDARG,
         P1 + "OutputTensor.Sizes[0] is 2, expected 1 (InputTensor.Sizes[0])"),
        ("output C", lambda r: desc(r, 0, t(r, X), t(r, (1, 1, 3, 3))), E_INVALIDARG,
         P0 + "OutputTensor.Sizes[1] is 1, expected 2 (InputTensor.Sizes[1])"),
        ("output size", lambda r: desc(r, 1, t(r, X), t(r, (1, 2, 3, 4))), E_INVALIDARG,
         P1 + "OutputTensor.Sizes[3] is 4, expected 3 ((InputTensor.Sizes[3] 6 + StartPadding[1] 0 + EndPadding[1] 0 "
              "- window 2) / Strides[1] 2 + 1)"),
        ("output size floor or ceil", lambda r: desc(r, 0, t(r, (1, 2, 7, 6)), t(r, (1, 2, 5, 3))), E_INVALIDARG,
         P0 + "OutputTensor.Sizes[2] is 5, expected 3 (floor) or 4 (ceil) ((InputTensor.Sizes[2] 7 + StartPadding[0] 0 "
              "+ EndPadding[0] 0 - window 2) / Strides[0] 2 + 1)"),
        ("window too large", lambda r: desc(r, 1, t(r, X), t(r, (1, 2, 1, 3)), window=(4, 2), dilations=(2, 1)),
         E_INVALIDARG, P1 + "the dilated window (WindowSize[0] 4 - 1) * Dilations[0] 2 + 1 = 7 is larger than the "
                                "padded input InputTensor.Sizes[2] 6 + StartPadding[0] 0 + EndPadding[0] 0 = 6"),
        ("padding overflow", lambda r: desc(r, 0, t(r, X), t(r, Y), start=(0xFFFFFFFF, 0)), E_INVALIDARG,
         P0 + "InputTensor.Sizes[2] 6 + StartPadding[0] 4294967295 + EndPadding[0] 0 is 4294967301, more than a "
              "tensor size can hold (4294967295)"),
        ("dilated window overflow", lambda r: desc(r, 1, t(r, X), t(r, Y), window=(3, 2), dilations=(0xFFFFFFFF, 1)),
         E_INVALIDARG, P1 + "the dilated window (WindowSize[0] 3 - 1) * Dilations[0] 4294967295 + 1 is 8589934591, "
                                "more than a tensor size can hold (4294967295)"),
        ("output stride 0", lambda r: desc(r, 1, t(r, X), t(r, Y, strides=(18, 9, 0, 1))), E_INVALIDARG,
         P1 + "OutputTensor.Strides[2] is 0 with Sizes[2] 3; an output element may not be written twice"),
        ("unsupported type", lambda r: desc(r, 1, t(r, X, dml_type=13), t(r, Y)), E_INVALIDARG,
         P1 + "InputTensor.DataType INT4 is not supported"),
        ("total size", lambda r: desc(r, 1, t(r, X), t(r, Y, total=32)), E_INVALIDARG,
         P1 + "OutputTensor.TotalTensorSizeInBytes is 32, expected at least 72 (DMLCalcBufferTensorSize)"),
    ]


def execute_from_threads(desc, inputs, want, threads=3, repeats=3):
    """Creates desc's operator once and executes it from several threads at once, each
    into its own output: every output has want's bits (want: the one output's expected
    array, from a plain execute)."""
    import threading

    raw = Raw()
    op = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, op) == 0
    results, errors = [], []

    def worker():
        y = np.empty(want.shape, want.dtype)
        for _ in range(repeats):
            if lib.dmlcExecute(op[0], len(inputs), raw.bindings(inputs), 1, raw.bindings([y])) != 0:
                errors.append(1)
        results.append(y)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    lib.dmlcReleaseOperator(op[0])
    assert not errors and len(results) == threads
    for y in results:
        assert y.tobytes() == want.tobytes()


def strided_output(buffer, shape, strides):
    """The view of `shape` at element `strides` in buffer (an output written with gaps),
    after checking that every element outside it still holds 7, the buffer's fill."""
    view = np.lib.stride_tricks.as_strided(buffer, shape, [s * buffer.itemsize for s in strides])
    touched = np.zeros(buffer.shape, bool)
    np.lib.stride_tricks.as_strided(touched, shape, [s * touched.itemsize for s in strides])[...] = True
    assert np.all(buffer[~touched] == 7)
    return view


def padded(arr, multiple=4):
    """A copy of arr in a buffer whose byte size is rounded up to `multiple`, as DirectML's
    TotalTensorSizeInBytes rule wants; returns (buffer view of arr's shape, whole buffer)."""
    nbytes = -(-arr.nbytes // multiple) * multiple
    whole = np.zeros(nbytes, np.uint8)
    view = whole[:arr.nbytes].view(arr.dtype).reshape(arr.shape)
    view[...] = arr
    return view, whole


# ---- one valid desc to break: the vehicle of the malformed-desc tests ---------------------------

SENTINEL = 0x5A5A5A5A


def d2s_case(**change):
    """A valid DEPTH_TO_SPACE1 (float32 {1,8,2,3} -> {1,2,4,6}, block 2) with fields changed:
    (raw, desc).  test_validation.py breaks it for the rules every operator shares,
    test_depth_space_raw.py for DEPTH_TO_SPACE1's own.
    change keys: in_/out_ tensor kwargs for Raw.tensor, block, order, in_desc/out_desc (raw values)."""
    raw = Raw()
    tin = dict(dtype=np.float32, sizes=(1, 8, 2, 3))
    tout = dict(dtype=np.float32, sizes=(1, 2, 4, 6))
    tin.update(change.get("in_", {}))
    tout.update(change.get("out_", {}))
    ti = change.get("in_desc", raw.tensor(**tin))
    to = change.get("out_desc", raw.tensor(**tout))
    desc = raw.op(lib.DML_OPERATOR_DEPTH_TO_SPACE1, "DML_DEPTH_TO_SPACE1_OPERATOR_DESC",
                  {"InputTensor": ti, "OutputTensor": to, "BlockSize": change.get("block", 2),
                   "Order": change.get("order", 0)})
    return raw, desc


def d2s_run(raw, desc, in_bytes=192, out_bytes=192, in_off=0, out_off=0, nin=1, nout=1, buf=None, in_buf=True,
            out_buf=True):
    """Executes desc from a 64-float input into a 64-word output filled with SENTINEL (or
    both in buf): (hr, message, output)."""
    src = np.arange(64, dtype=np.float32) if buf is None else buf
    dst = np.full(64, SENTINEL, np.uint32) if buf is None else buf
    bi = raw.new("DMLC_BUFFER_BINDING[]", 2)
    bo = raw.new("DMLC_BUFFER_BINDING[]", 2)
    if in_buf:
        bi[0] = {"Buffer": ffi.cast("void*", src.ctypes.data), "Offset": in_off, "SizeInBytes": in_bytes}
    if out_buf:
        bo[0] = {"Buffer": ffi.cast("void*", dst.ctypes.data), "Offset": out_off, "SizeInBytes": out_bytes}
    hr = lib.dmlcExecuteOperator(desc, nin, bi, nout, bo)
    return hr, ffi.string(lib.dmlcGetLastErrorMessage()).decode(), dst
