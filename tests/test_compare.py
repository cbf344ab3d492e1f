"""dmlc run --compare / --ulp / --atol / --strict-zero / --emit-expected (a GPU's .npy
results against dmlc's): the report line by line, the exit statuses, every fault.

Models here pad an input into Out (PADDING, CONSTANT 0), so Out's expected values are
written out by hand next to each test."""
import json
import os
import re

import numpy as np
import pytest

from dmlc import cli

DISPATCH = re.compile(r"^Dispatch '\w+': 1 iterations, \d+\.\d{4} ms median \(CPU\)$")


def model(tmp_path, values, dtype="FLOAT32", pad=(1, 1), extra=None, name="pad.json", commands=()):
    """A model padding values (a list) by pad with zeros into Out; returns its path."""
    n = len(values)
    doc = {
        "resources": {
            "In": {"initialValuesDataType": dtype, "initialValues": values},
            "Out": {"initialValuesDataType": dtype, "initialValues": {"valueCount": n + sum(pad), "value": 0}},
            **(extra or {}),
        },
        "dispatchables": {"pad": {"type": "PADDING", "desc": {
            "InputTensor": {"DataType": dtype, "Sizes": [n]},
            "OutputTensor": {"DataType": dtype, "Sizes": [n + sum(pad)]},
            "PaddingMode": "CONSTANT", "PaddingValue": 0, "StartPadding": [pad[0]], "EndPadding": [pad[1]]}}},
        "commands": [{"type": "dispatch", "dispatchable": "pad", "bindings": {"InputTensor": "In",
                                                                               "OutputTensor": "Out"}},
                     *commands],
    }
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def run(capsys, monkeypatch, cwd, *args):
    """(status, stdout lines without the dispatch timing lines, stderr)."""
    monkeypatch.chdir(cwd)
    status = cli.main(["run", *map(str, args)])
    out, err = capsys.readouterr()
    return status, [line for line in out.splitlines() if not DISPATCH.match(line)], err


def gpu(tmp_path, **files):
    """DIR with name.npy files (arrays) in it."""
    d = tmp_path / "gpu"
    d.mkdir(exist_ok=True)
    for name, arr in files.items():
        np.save(d / f"{name}.npy", arr)
    return d


SAME = "exact; NaN equals NaN; -0 equals +0"


# ---- The report ------------------------------------------------------------------------

def test_all_match(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1.5, -2, 3])
    d = gpu(tmp_path, Out=np.array([0, 1.5, -2, 3, 0], np.float32), In=np.array([1.5, -2, 3], np.float32))
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, err) == (0, "")
    assert out == [f"Compared 'In' with {d}/In.npy: 3 elements, 0 mismatches, max abs error 0, max ULP error 0",
                   f"Compared 'Out' with {d}/Out.npy: 5 elements, 0 mismatches, max abs error 0, max ULP error 0",
                   f"Compare ({SAME}): 2 of 2 resources match"]


def test_mismatch_report(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1, 2, 3])
    file = np.array([0, 1, 2, 3, 0], np.float32)
    file[2] = np.nextafter(np.float32(2), np.float32(3))   # 1 ULP
    file[4] = 0.25
    d = gpu(tmp_path, Out=file)
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, err) == (1, "")
    assert out == [f"Compared 'Out' with {d}/Out.npy: 5 elements, 2 mismatches, max abs error 0.25, max ULP error "
                   f"{0x3E800000}; first mismatch at [2]: dmlc 2.0 (0x40000000), file 2.0000002 (0x40000001)",
                   f"Compare ({SAME}): 1 of 1 resource differs: 'Out'"]


@pytest.mark.parametrize("args,mismatches,rule", [
    (["--ulp", "1"], 1, "within 1 ULP"),           # 2.0000002 is 1 ULP away; 0.25 from 0 is not
    (["--ulp", "0"], 2, "within 0 ULP"),
    (["--atol", "0.25"], 0, "within 0.25"),
    (["--atol", "0.2499"], 1, "within 0.2499"),
    (["--ulp", f"{0x3E800000}"], 0, f"within {0x3E800000} ULP"),
    (["--ulp", f"{0x3E800000 - 1}"], 1, f"within {0x3E800000 - 1} ULP"),
    (["--ulp", "1", "--atol", "0.25"], 0, "within 1 ULP or 0.25"),
])
def test_tolerances(tmp_path, capsys, monkeypatch, args, mismatches, rule):
    path = model(tmp_path, [1, 2, 3])
    file = np.array([0, 1, 2, 3, 0.25], np.float32)
    file[2] = np.nextafter(np.float32(2), np.float32(3))
    d = gpu(tmp_path, Out=file)
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d, *args)
    assert (status, err) == (1 if mismatches else 0, "")
    assert out[0].startswith(f"Compared 'Out' with {d}/Out.npy: 5 elements, {mismatches} mismatch"
                             f"{'' if mismatches == 1 else 'es'}, max abs error 0.25, max ULP error {0x3E800000}")
    assert out[1].startswith(f"Compare ({rule}; NaN equals NaN; -0 equals +0): ")


def test_nan_equals_nan_whatever_its_bits(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, ["nan", 1, "-inf"], pad=(0, 1))
    nans = np.array([0x7FC00000, 0xFFC00001, 0x7F800001], np.uint32).view(np.float32)  # quiet, negative, signalling
    for bits in nans:
        d = gpu(tmp_path, Out=np.array([bits, 1, -np.inf, 0], np.float32))
        status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
        assert (status, err, out[-1]) == (0, "", f"Compare ({SAME}): 1 of 1 resource matches")


def test_nan_against_a_number_is_an_infinite_error(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, ["nan", 1, "inf"], pad=(0, 1))
    d = gpu(tmp_path, Out=np.array([5, 1, np.inf, np.nan], np.float32))
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--atol", "1e30", "--ulp", "99")
    assert (status, err) == (1, "")
    assert out[0] == (f"Compared 'Out' with {d}/Out.npy: 4 elements, 2 mismatches, max abs error inf, max ULP error "
                      f"inf; first mismatch at [0]: dmlc nan (0x7FC00000), file 5.0 (0x40A00000)")


def test_infinities_match_only_themselves(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, ["inf", "-inf"], pad=(0, 0))
    big = np.finfo(np.float32).max
    d = gpu(tmp_path, Out=np.array([big, -np.inf], np.float32))  # 1 ULP below inf, but not inf
    status, out, _ = run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--ulp", "5")
    assert status == 1
    assert out[0] == (f"Compared 'Out' with {d}/Out.npy: 2 elements, 1 mismatch, max abs error inf, max ULP error 1; "
                      f"first mismatch at [0]: dmlc inf (0x7F800000), file 3.4028235e+38 (0x7F7FFFFF)")


def test_signed_zero(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [-0.0, 2], pad=(0, 0))
    d = gpu(tmp_path, Out=np.array([0.0, 2], np.float32))
    status, out, _ = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert status == 0 and out[-1] == f"Compare ({SAME}): 1 of 1 resource matches"
    status, out, _ = run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--strict-zero", "--atol", "1")
    assert status == 1
    assert out == [f"Compared 'Out' with {d}/Out.npy: 2 elements, 1 mismatch, max abs error 0, max ULP error 0; "
                   f"first mismatch at [0]: dmlc -0.0 (0x80000000), file 0.0 (0x00000000)",
                   "Compare (within 1; NaN equals NaN; -0 differs from +0): 1 of 1 resource differs: 'Out'"]


@pytest.mark.parametrize("dtype,lo,hi", [("INT64", -2 ** 63, 2 ** 63 - 1), ("UINT64", 0, 2 ** 64 - 1),
                                         ("INT8", -128, 127), ("UINT16", 0, 65535)])
def test_integers_exactly(tmp_path, capsys, monkeypatch, dtype, lo, hi):
    """Differences of 64-bit integers are exact (2**64 - 1 between INT64's ends); --ulp N
    is an absolute difference of N."""
    np_dtype = np.dtype(dtype.lower())
    path = model(tmp_path, [lo, hi, lo + 5], dtype=dtype, pad=(0, 0))
    d = gpu(tmp_path, Out=np.array([hi, hi, lo + 2], np_dtype))
    status, out, _ = run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--ulp", "3")
    assert status == 1
    assert out[0] == (f"Compared 'Out' with {d}/Out.npy: 3 elements, 1 mismatch, max abs error {hi - lo}, max ULP "
                      f"error {hi - lo}; first mismatch at [0]: dmlc {lo}, file {hi}")
    d = gpu(tmp_path, Out=np.array([lo, hi, lo + 2], np_dtype))
    assert run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--ulp", "3")[0] == 0
    assert run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--ulp", "2")[0] == 1
    assert run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--atol", "3.9")[0] == 0
    assert run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--atol", "2.9")[0] == 1


def test_float16_and_float64_ulps(tmp_path, capsys, monkeypatch):
    for dtype, np_dtype in [("FLOAT16", np.float16), ("FLOAT64", np.float64)]:
        path = model(tmp_path, [1, -1], dtype=dtype, pad=(0, 0))
        ones = np.array([1, -1], np_dtype)
        file = np.array([np.nextafter(ones[0], np_dtype(0)), np.nextafter(ones[1], np_dtype(-2))], np_dtype)
        d = gpu(tmp_path, Out=file)
        worst = float(np.max(np.abs(file.astype(np.float64) - ones)))
        for ulp, status, mismatches in [("1", 0, "0 mismatches"), ("0", 1, "2 mismatches")]:
            got = run(capsys, monkeypatch, tmp_path, path, "--compare", d, "--ulp", ulp)
            assert got[0] == status
            assert f"2 elements, {mismatches}, max abs error {worst:.6g}, max ULP error 1" in got[1][0]


def test_file_shape_gives_the_index(tmp_path, capsys, monkeypatch):
    """A file written with DxDispatch's writeFile dimensions: the index is in its shape."""
    path = model(tmp_path, [1, 2, 3, 4, 5, 6], pad=(1, 1),
                 commands=[{"type": "writeFile", "resource": "Out", "targetPath": "cpu/Out.npy",
                            "dimensions": [2, 4]}])
    file = np.array([[0, 1, 2, 3], [4, 5, 7, 0]], np.float32)
    d = gpu(tmp_path, Out=file)
    status, out, _ = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert status == 1
    assert out[1].endswith("first mismatch at [1, 2]: dmlc 6.0 (0x40C00000), file 7.0 (0x40E00000)")
    assert np.load(tmp_path / "cpu" / "Out.npy").shape == (2, 4)  # the model's own writeFile ran too


def test_rounded_buffer_counts(tmp_path, capsys, monkeypatch):
    """3 FLOAT16 values live in 8 bytes: a file of 3 or of 4 elements fits, 2 or 5 do not."""
    path = model(tmp_path, [1, 2, 3], dtype="FLOAT16", pad=(0, 0))
    for n in (3, 4):
        d = gpu(tmp_path, Out=np.array([1, 2, 3, 0][:n], np.float16))
        assert run(capsys, monkeypatch, tmp_path, path, "--compare", d)[0] == 0
    for n in (2, 5):
        d = gpu(tmp_path, Out=np.zeros(n, np.float16))
        status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
        assert (status, out) == (2, [])
        assert err == (f"dmlc run: {path}: --compare {d}/Out.npy: holds {n} elements, but resource 'Out' has 4 "
                       f"(8 bytes; a file of 3 or 4 elements fits it)\n")


# ---- Faults: exit 2, nothing runs ---------------------------------------------------------

def test_faults_are_all_reported_before_anything_runs(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1, 2, 3], extra={"Raw": {"initialValues": [{"type": "UINT32", "value": 1}]}},
                 commands=[{"type": "print", "resource": "Out"}])
    d = gpu(tmp_path, In=np.zeros(3, np.float64), Out=np.zeros(4, np.float32), Raw=np.zeros(1, np.uint32))
    (d / "Bad.npy").write_bytes(b"not numpy")
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, out) == (2, [])  # no Dispatch line, no print
    assert err.splitlines() == [
        f"dmlc run: {path}: --compare {d}/In.npy: holds float64, but resource 'In' is FLOAT32 (float32)",
        f"dmlc run: {path}: --compare {d}/Out.npy: holds 4 elements, but resource 'Out' has 5 (20 bytes; a file "
        f"of 5 elements fits it)",
        f"dmlc run: {path}: --compare {d}/Raw.npy: resource 'Raw' has no initialValuesDataType, so it cannot be "
        f"compared"]


@pytest.mark.parametrize("content,why", [
    (b"not numpy", "the magic string is not correct; expected b'\\x93NUMPY', got b'not nu'"),
    (b"\x93NUMPY\x01\x00", "EOF: reading array header length, expected 2 bytes got 0"),
    (None, "it holds Python objects (object), not numbers"),
    ("huge", "its header declares shape (1000000000000,) of float32 (4000000000000 bytes), but the file holds 8 "
             "bytes of data"),
    ("npz", "the magic string is not correct; expected b'\\x93NUMPY', got b'PK\\x03\\x04"),  # a zip file
])
def test_unreadable_file(tmp_path, capsys, monkeypatch, content, why):
    """Not an .npy, objects, a header declaring a terabyte (read before any allocation,
    so no MemoryError), an .npz: each an error (status 2), never a mismatch (1)."""
    path = model(tmp_path, [1, 2, 3])
    d = gpu(tmp_path)
    if content is None:
        np.save(d / "Out.npy", np.array([{}, 1], dtype=object), allow_pickle=True)
    elif content == "huge":
        with open(d / "Out.npy", "wb") as f:
            np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (10**12,)})
            f.write(bytes(8))
    elif content == "npz":
        with open(d / "Out.npy", "wb") as f:
            np.savez(f, x=np.zeros(3, np.float32))
    else:
        (d / "Out.npy").write_bytes(content)
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, out) == (2, [])
    assert err.startswith(f"dmlc run: {path}: --compare {d}/Out.npy: cannot read it as a NumPy array: {why}")
    assert err.count("\n") == 1 and (content == "npz" or err.endswith(f"{why}\n"))


def test_directory_faults(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1, 2, 3])
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", tmp_path / "missing")
    assert (status, out, err) == (2, [], f"dmlc run: {path}: --compare {tmp_path}/missing: not a directory\n")
    d = gpu(tmp_path, out=np.zeros(5, np.float32))  # names are case-sensitive, as resource names are
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, out) == (2, [])
    assert err == (f"dmlc run: {path}: --compare {d}: no file there is named after a resource of the model "
                   f"(expected one of In.npy, Out.npy)\n")


def test_model_fault_with_compare_exits_2(tmp_path, capsys, monkeypatch):
    path = tmp_path / "bad.json"
    path.write_text('{"resources": {}, "dispatchables": {}, "commands": [{"type": "print", "resource": "X"}]}')
    d = gpu(tmp_path, Out=np.zeros(1, np.float32))
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", d)
    assert (status, out, err) == (2, [], f"dmlc run: {path}: commands[0].resource: no resource named 'X'\n")
    assert run(capsys, monkeypatch, tmp_path, path)[0] == 1  # without --compare: a failed command


@pytest.mark.parametrize("args,message", [
    (["--ulp", "-1"], "argument --ulp: expected a whole number of ULPs, 0 or more, not '-1'"),
    (["--ulp", "1.5"], "argument --ulp: expected a whole number of ULPs, 0 or more, not '1.5'"),
    (["--ulp", "x"], "argument --ulp: expected a whole number of ULPs, 0 or more, not 'x'"),
    (["--atol", "-0.1"], "argument --atol: expected a finite number, 0 or more, not '-0.1'"),
    (["--atol", "nan"], "argument --atol: expected a finite number, 0 or more, not 'nan'"),
    (["--atol", "inf"], "argument --atol: expected a finite number, 0 or more, not 'inf'"),
    (["--atol", "abc"], "argument --atol: expected a finite number, 0 or more, not 'abc'"),
])
def test_bad_tolerances(tmp_path, capsys, monkeypatch, args, message):
    path = model(tmp_path, [1])
    with pytest.raises(SystemExit) as exc:
        run(capsys, monkeypatch, tmp_path, path, "--compare", gpu(tmp_path), *args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: dmlc run") and err.endswith(f"dmlc run: error: {message}\n")


@pytest.mark.parametrize("args", [["--ulp", "2"], ["--atol", "0.5"], ["--strict-zero"]])
def test_tolerance_without_compare(tmp_path, capsys, monkeypatch, args):
    with pytest.raises(SystemExit) as exc:
        run(capsys, monkeypatch, tmp_path, model(tmp_path, [1]), *args)
    assert exc.value.code == 2
    assert capsys.readouterr().err.endswith(
        "dmlc run: error: --ulp, --atol and --strict-zero apply to --compare DIR, which is missing\n")


# ---- --emit-expected ------------------------------------------------------------------------

def test_emit_expected_then_compare(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1, -2, 3], extra={
        "Raw": {"initialValues": [{"type": "UINT32", "value": 1}]},
        "Halves": {"initialValuesDataType": "FLOAT16", "initialValues": [1, 2, 3]}})
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--emit-expected", "ref/new")
    assert (status, err) == (0, "")
    assert out == ["Resource 'In' written to 'ref/new/In.npy'", "Resource 'Out' written to 'ref/new/Out.npy'",
                   "Resource 'Raw' not written: it has no initialValuesDataType",
                   "Resource 'Halves' written to 'ref/new/Halves.npy'"]
    ref = tmp_path / "ref" / "new"
    np.testing.assert_array_equal(np.load(ref / "Out.npy"), np.array([0, 1, -2, 3, 0], np.float32))
    halves = np.load(ref / "Halves.npy")  # the whole 8-byte buffer, as writeFile writes it
    assert halves.dtype == np.float16 and halves.tolist() == [1, 2, 3, 0]
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--compare", "ref/new")
    assert (status, err, out[-1]) == (0, "", f"Compare ({SAME}): 3 of 3 resources match")


def test_emit_expected_cannot_create(tmp_path, capsys, monkeypatch):
    path = model(tmp_path, [1])
    (tmp_path / "file").write_text("")
    status, out, err = run(capsys, monkeypatch, tmp_path, path, "--emit-expected", "file/sub")
    assert status == 1
    assert err == f"dmlc run: {path}: --emit-expected file/sub: cannot create the directory: Not a directory\n"


def test_compare_in_a_subprocess_exit_statuses(tmp_path):
    """The statuses reach the shell: 0, 1, 2."""
    import subprocess
    import sys
    from support import child_env
    path = model(tmp_path, [1, 2])
    d = gpu(tmp_path, Out=np.array([0, 1, 2, 0], np.float32))
    statuses = []
    for file in ([0, 1, 2, 0], [0, 1, 2, 1], [0, 1, 2]):
        np.save(d / "Out.npy", np.array(file, np.float32))
        r = subprocess.run([sys.executable, "-m", "dmlc", "run", str(path), "--compare", str(d)], cwd=tmp_path,
                           env=child_env(), capture_output=True, text=True, timeout=120)
        statuses.append(r.returncode)
    assert statuses == [0, 1, 2]
    assert os.path.exists(d / "Out.npy")
