"""DML_OPERATOR_NONZERO_COORDINATES as a C caller drives it: raw descs through cffi and
ctypes, every input dtype and index type, fewer coordinates than dimensions, outputs of
more dimensions, strided tensors, the zeroed tail, dmlcInferOutputSizes, and a table of
malformed descs with their exact messages, through cffi and again through ctypes."""
import ctypes

import numpy as np
import pytest

import rawctypes
from dmlc.ffi import E_INVALIDARG, E_POINTER, ffi, lib
from rawdesc import SENTINEL, Raw, create, execute, infer
from reference import ref_nonzero
from support import ALL_DTYPES, random_array

OP = "DML_OPERATOR_NONZERO_COORDINATES"
INDEX_TYPES = [np.uint32, np.uint64, np.int32, np.int64]


def nz_desc(raw, tin, tcount, tcoords):
    return raw.op(lib.DML_OPERATOR_NONZERO_COORDINATES, "DML_NONZERO_COORDINATES_OPERATOR_DESC", {
        "InputTensor": tin, "OutputCountTensor": tcount, "OutputCoordinatesTensor": tcoords})


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_and_index_type(rng, dtype):
    x = random_array(rng, (3, 4, 5), dtype) * (rng.random((3, 4, 5)) < 0.3).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[0, 0, :3] = [-0.0, np.nan, 0.0]
    raw = Raw()
    for k, idt in enumerate(INDEX_TYPES):
        cdt = INDEX_TYPES[(k + 1) % 4]
        count, want = ref_nonzero(x, dtype=idt)
        c = np.full(1, 99, cdt)
        y = np.full(want.shape, 99, idt)  # the tail must be overwritten with zeros
        desc = nz_desc(raw, raw.tensor_for(x), raw.tensor_for(c), raw.tensor_for(y))
        assert execute(desc, [x], [c, y]) == (0, "")
        assert c[0] == count
        np.testing.assert_array_equal(y, want)


def test_the_pages_example_through_a_created_operator_run_twice():
    x = np.array([[[[1.0, 0.0, 0.0, 2.0], [-0.0, 3.5, 0.0, -5.2]]]], np.float32)
    raw = Raw()
    desc = nz_desc(raw, raw.tensor_for(x), raw.tensor(np.uint32, (1, 1, 1, 1)), raw.tensor(np.uint32, (1, 1, 8, 2)))
    handle = ffi.new("DMLC_OPERATOR**")
    assert lib.dmlcCreateOperator(desc, handle) == 0
    try:
        for _ in range(2):
            c, y = np.full(1, 7, np.uint32), np.full(16, 7, np.uint32)
            assert lib.dmlcExecute(handle[0], 1, raw.bindings([x]), 2, raw.bindings([c, y])) == 0
            assert c[0] == 4
            assert y.reshape(8, 2).tolist() == [[0, 0], [0, 3], [1, 1], [1, 3]] + [[0, 0]] * 4
    finally:
        lib.dmlcReleaseOperator(handle[0])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_coordinates_kept(n):
    """{1, 2, 3, 4} has effective rank 3: N may be 3 or 4 (the dropped coordinate is 0)."""
    x = np.zeros((1, 2, 3, 4), np.int8)
    x[0, 1, 2, 3] = x[0, 0, 1, 0] = 1
    raw = Raw()
    c, y = np.zeros(1, np.uint32), np.full((24, n), 5, np.uint32)
    desc = nz_desc(raw, raw.tensor_for(x), raw.tensor_for(c), raw.tensor_for(y))
    hr, msg = execute(desc, [x], [c, y])
    if n < 3:
        assert (hr, msg) == (E_INVALIDARG, f"{OP}: OutputCoordinatesTensor.Sizes[1] is 2, expected 3 to 4 (the "
                             "coordinates kept: at least InputTensor's DimensionCount less its leading sizes of 1, at "
                             "most its DimensionCount)")
        assert (y == 5).all() and c[0] == 0
        return
    assert (hr, msg) == (0, "")
    assert c[0] == 2
    np.testing.assert_array_equal(y, ref_nonzero(x, n, np.uint32)[1])


def test_all_leading_ones_and_one_dimension():
    """{1, 1, 1} has effective rank 0: N is 1 to 3; a 1-d input gives one coordinate."""
    raw = Raw()
    for x, n, want in ((np.array([[[2.5]]], np.float64), 1, [[0]]), (np.array([[[0.0]]]), 1, [[0]]),
                       (np.array([0, 3, 0, 0, 9, 0], np.uint16), 1, [[1], [4], [0], [0], [0], [0]])):
        c, y = np.full((1, 1), 9, np.int64), np.full((x.size, n), 9, np.int64)
        assert execute(nz_desc(raw, raw.tensor_for(x), raw.tensor_for(c), raw.tensor_for(y)), [x], [c, y]) == (0, "")
        assert y.tolist() == want and c[0, 0] == np.count_nonzero(x)


def test_strided_input_and_outputs():
    """A transposed {4, 3} input; the count and coordinates written with gaps (columns 2
    apart, rows 5 apart) that must keep their bytes."""
    store = np.array([[0, 1, 0, 9], [2, 0, 0, 3], [0, 7, 4, 0]], np.int32)
    raw = Raw()
    c = np.full(3, 77, np.uint64)
    y = np.full(12 * 5, 77, np.uint64)
    desc = nz_desc(raw, raw.tensor(np.int32, (4, 3), strides=(1, 4)), raw.tensor(np.uint64, (1, 1), strides=(3, 3)),
                   raw.tensor(np.uint64, (12, 2), strides=(5, 2)))
    assert execute(desc, [store], [c, y]) == (0, "")
    count, want = ref_nonzero(store.T, dtype=np.uint64)
    assert c.tolist() == [count, 77, 77]
    grid = y.reshape(12, 5)
    np.testing.assert_array_equal(grid[:, [0, 2]], want)
    assert (grid[:, [1, 3, 4]] == 77).all()


def test_large_input_on_threads(rng):
    """Several blocks (per-block counts, a prefix sum, then the rows): the same rows as one
    block would write."""
    x = (rng.random((5, 300, 701)) < 0.05).astype(np.uint8)
    raw = Raw()
    c, y = np.zeros(1, np.int64), np.full((x.size, 3), -1, np.int64)
    assert execute(nz_desc(raw, raw.tensor_for(x), raw.tensor_for(c), raw.tensor_for(y)), [x], [c, y]) == (0, "")
    want = np.argwhere(x)
    assert c[0] == len(want)
    np.testing.assert_array_equal(y[:len(want)], want)
    assert not y[len(want):].any()


def test_ctypes_nonzero():
    so = rawctypes.library()
    x = np.array([0.0, -0.0, np.nan, 1.0], np.float32)
    c, y = np.zeros(1, np.uint32), np.full((4, 1), 9, np.uint32)
    keep = []
    d = rawctypes.DML_NONZERO_COORDINATES_OPERATOR_DESC(ctypes.pointer(rawctypes.tensor(x, keep)),
                                                         ctypes.pointer(rawctypes.tensor(c, keep)),
                                                         ctypes.pointer(rawctypes.tensor(y, keep)))
    op = rawctypes.operator(lib.DML_OPERATOR_NONZERO_COORDINATES, d)
    bi = rawctypes.binding(x)
    bo = (rawctypes.DMLC_BUFFER_BINDING * 2)(rawctypes.binding(c), rawctypes.binding(y))
    assert so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(bi), 2, bo) == 0
    assert c[0] == 2 and y.ravel().tolist() == [2, 3, 0, 0]


def test_infer_output_sizes():
    raw = Raw()
    desc = nz_desc(raw, raw.tensor(np.float32, (1, 2, 0, 4), total=0), ffi.NULL, ffi.NULL)
    assert infer(desc, 2) == [(1,), (0, 4)]
    desc = nz_desc(raw, raw.tensor(np.int8, (3, 5)), ffi.NULL, ffi.NULL)
    assert infer(desc, 2) == [(1,), (15, 2)]
    assert infer(desc, 1) == (E_INVALIDARG, f"{OP}: outputCount is 1, expected 2")


# ---- malformed descs ------------------------------------------------------------------------

# The base desc: {2, 3} FLOAT32 into a {1} UINT32 count and {6, 2} UINT32 coordinates.
IN, CNT, CRD = dict(dtype=np.float32, sizes=(2, 3)), dict(dtype=np.uint32, sizes=(1,)), dict(dtype=np.uint32,
                                                                                             sizes=(6, 2))
BAD = [
    # (id, in, count, coordinates, HRESULT, message without the operator)
    ("valid", IN, CNT, CRD, 0, ""),
    ("valid INT64 and more dimensions", IN, dict(CNT, dtype=np.int64, sizes=(1, 1, 1)),
     dict(CRD, dtype=np.int32, sizes=(1, 1, 6, 2)), 0, ""),
    ("input NULL", None, CNT, CRD, E_POINTER, "InputTensor is NULL"),
    ("count NULL", IN, None, CRD, E_POINTER, "OutputCountTensor is NULL"),
    ("coordinates NULL", IN, CNT, None, E_POINTER, "OutputCoordinatesTensor is NULL"),
    ("count not 1", IN, dict(CNT, sizes=(2,)), CRD, E_INVALIDARG,
     "OutputCountTensor.Sizes[0] is 2, expected 1 (it holds one value)"),
    ("count of 9 dimensions", IN, dict(CNT, sizes=(1,) * 9), CRD, E_INVALIDARG,
     "OutputCountTensor.DimensionCount is 9, expected 1 to 8"),
    ("coordinates of 1 dimension", IN, CNT, dict(CRD, sizes=(12,)), E_INVALIDARG,
     "OutputCoordinatesTensor.DimensionCount is 1, expected 2 to 8"),
    ("coordinates leading size", IN, CNT, dict(CRD, sizes=(2, 6, 2)), E_INVALIDARG,
     "OutputCoordinatesTensor.Sizes[0] is 2, expected 1 (a leading size)"),
    ("M not the element count", IN, CNT, dict(CRD, sizes=(5, 2)), E_INVALIDARG,
     "OutputCoordinatesTensor.Sizes[0] is 5, expected 6 (InputTensor's element count)"),
    ("N below the effective rank", IN, CNT, dict(CRD, sizes=(6, 1)), E_INVALIDARG,
     "OutputCoordinatesTensor.Sizes[1] is 1, expected 2 to 2 (the coordinates kept"),
    ("N above the DimensionCount", IN, CNT, dict(CRD, sizes=(6, 3)), E_INVALIDARG,
     "OutputCoordinatesTensor.Sizes[1] is 3, expected 2 to 2 (the coordinates kept"),
    ("count FLOAT32", IN, dict(CNT, dtype=np.float32), CRD, E_INVALIDARG,
     "OutputCountTensor.DataType is FLOAT32, expected INT32, INT64, UINT32 or UINT64"),
    ("coordinates UINT16", IN, CNT, dict(CRD, dtype=np.uint16), E_INVALIDARG,
     "OutputCoordinatesTensor.DataType is UINT16, expected INT32, INT64, UINT32 or UINT64"),
    ("input of 9 dimensions", dict(IN, sizes=(1,) * 9), CNT, CRD, E_INVALIDARG,
     "InputTensor.DimensionCount is 9, expected 1 to 8"),
    ("input size 0", dict(IN, sizes=(2, 0), total=4), CNT, CRD, E_INVALIDARG,
     "InputTensor.Sizes[1] is 0; sizes must be at least 1"),
    ("unsupported type", dict(IN, dml_type=13), CNT, CRD, E_INVALIDARG, "InputTensor.DataType INT4 is not supported"),
    ("coordinates written twice", IN, CNT, dict(CRD, strides=(0, 1), total=8), E_INVALIDARG,
     "OutputCoordinatesTensor.Strides[0] is 0 with Sizes[0] 6; an output element may not be written twice"),
    ("count INT32 too narrow", dict(IN, dtype=np.int8, sizes=(65536, 32768)), dict(CNT, dtype=np.int32),
     dict(CRD, sizes=(1 << 31, 2)), E_INVALIDARG,
     "OutputCountTensor.DataType is INT32, which cannot hold 2147483648 (InputTensor's element count)"),
    ("coordinate INT32 too narrow", dict(IN, dtype=np.int8, sizes=(1, (1 << 31) + 1)), dict(CNT, dtype=np.uint32),
     dict(CRD, dtype=np.int32, sizes=((1 << 31) + 1, 1)), E_INVALIDARG,
     "OutputCoordinatesTensor.DataType is INT32, which cannot hold 2147483648 (the largest coordinate)"),
    ("count total size", IN, dict(CNT, total=2), CRD, E_INVALIDARG,
     "OutputCountTensor.TotalTensorSizeInBytes is 2, expected at least 4 (DMLCalcBufferTensorSize)"),
]


def _run_bad(tin, tcount, tcoords, bind):
    """The outputs (filled with SENTINEL) and the (hr, message) of executing the desc."""
    src = np.arange(6, dtype=np.float32)
    c, y = np.full(4, SENTINEL, np.uint32), np.full(16, SENTINEL, np.uint32)
    return c, y, bind(src, c, y)


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed(bad):
    _, tin, tcount, tcoords, want_hr, want_msg = bad
    want_msg = f"{OP}: {want_msg}" if want_msg else ""
    raw = Raw()
    desc = nz_desc(raw, raw.tensor(**tin) if tin else ffi.NULL, raw.tensor(**tcount) if tcount else ffi.NULL,
                   raw.tensor(**tcoords) if tcoords else ffi.NULL)
    hr, msg = create(desc)
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    c, y, (hr, msg) = _run_bad(tin, tcount, tcoords, lambda src, c, y: execute(desc, [src], [c, y]))
    assert hr == want_hr and msg.startswith(want_msg) and (want_msg or not msg), msg
    if want_hr:
        assert (c == SENTINEL).all() and (y == SENTINEL).all(), "a failed call wrote to an output"


@pytest.mark.parametrize("bad", BAD, ids=[b[0] for b in BAD])
def test_malformed_through_ctypes(bad):
    so = rawctypes.library()
    _, tin, tcount, tcoords, want_hr, want_msg = bad
    keep = []
    t = rawctypes.malformed_tensor
    d = rawctypes.DML_NONZERO_COORDINATES_OPERATOR_DESC(t(keep, **tin) if tin else None,
                                                         t(keep, **tcount) if tcount else None,
                                                         t(keep, **tcoords) if tcoords else None)
    op = rawctypes.operator(lib.DML_OPERATOR_NONZERO_COORDINATES, d)

    def run(src, c, y):
        bo = (rawctypes.DMLC_BUFFER_BINDING * 2)(rawctypes.binding(c), rawctypes.binding(y))
        hr = so.dmlcExecuteOperator(ctypes.byref(op), 1, ctypes.byref(rawctypes.binding(src)), 2, bo)
        return hr, so.dmlcGetLastErrorMessage().decode()

    c, y, (hr, msg) = _run_bad(tin, tcount, tcoords, run)
    assert hr == want_hr and msg.startswith(f"{OP}: {want_msg}" if want_msg else ""), msg
    if want_hr:
        assert (c == SENTINEL).all() and (y == SENTINEL).all(), "a failed call wrote to an output"
