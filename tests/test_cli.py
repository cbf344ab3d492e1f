"""The command line: dmlc run (DxDispatch models), examples, bench, config, --help, --version.

Expected outputs are computed here with NumPy formulas or written out by hand, never by
dmlc.  The CLI runs in-process (dmlc.cli.main) where that is enough, and as
`python -m dmlc` in a subprocess, from a scratch directory, where the process matters
(exit statuses, stderr, the installed package, compiling against `dmlc config`).
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys

import numpy as np
import pytest

import dmlc
from dmlc import cli
from reference import crd_depth_to_space, crd_space_to_depth, dcr_depth_to_space, dcr_space_to_depth
from support import child_env, compiler

MODELS = os.path.join(os.path.dirname(__file__), "models")
C_PROGRAMS = os.path.join(os.path.dirname(__file__), "c")
DISPATCH_LINE = re.compile(r"^Dispatch '(\w+)': 1 iterations, \d+\.\d{4} ms median \(CPU\)$")


def dmlc_process(*args, cwd):
    """`python -m dmlc ARGS` away from the checkout, running the dmlc under test."""
    return subprocess.run([sys.executable, "-m", "dmlc", *args], cwd=cwd, env=child_env(), capture_output=True,
                          text=True, timeout=300)


def run_model(path, capsys, monkeypatch, cwd):
    """(exit status, stdout lines without the timing lines, names dispatched, stderr)."""
    monkeypatch.chdir(cwd)
    status = cli.main(["run", str(path)])
    captured = capsys.readouterr()
    lines, dispatched = [], []
    for line in captured.out.splitlines():
        m = DISPATCH_LINE.match(line)
        if m:
            dispatched.append(m.group(1))
        else:
            lines.append(line)
    return status, lines, dispatched, captured.err


def resource_line(name, values):
    """DxDispatch's print line: C++ ostream formatting (%g, 6 digits) for floats."""
    def fmt(v):
        if isinstance(v, (float, np.floating)):
            return "%g" % float(v)
        return str(int(v))
    return f"Resource '{name}': " + ", ".join(fmt(v) for v in np.asarray(values).ravel())


# ---- DxDispatch's own sample models ------------------------------------------------------

def test_dxdispatch_split_sample_prints_what_dxdispatch_prints(tmp_path):
    r = dmlc_process("run", "dml_split.json", cwd=tmp_path)  # a shipped model, by name
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert DISPATCH_LINE.match(lines[0]).group(1) == "split"
    assert lines[1:] == ["Resource 'Out1': 1, 2", "Resource 'Out2': 3, 4", "Resource 'Out3': 5, 6"]
    assert r.stderr == ""


def test_dxdispatch_join_sample_prints_what_dxdispatch_prints(tmp_path):
    shipped = os.path.join(os.path.dirname(dmlc.__file__), "models", "dml_join.json")
    r = dmlc_process("run", shipped, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert DISPATCH_LINE.match(lines[0]).group(1) == "join"
    # A[0:3], B[0:2] and A[4:9] of A = 1..10 and B = 100, 115, 130.
    assert lines[1:] == ["Resource 'Out': 1, 2, 3, 100, 115, 5, 6, 7, 8, 9"]


def test_dxdispatch_slice_and_identity_samples_print_what_dxdispatch_prints(tmp_path):
    r = dmlc_process("run", "dml_slice.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert DISPATCH_LINE.match(lines[0]).group(1) == "slice"
    # 1..25 as 5 x 5, Offsets {1, 1} (of H, W), Sizes {3, 2}, Strides {1, 2}: rows 1..3, columns 1 and 3.
    x = np.arange(1, 26).reshape(5, 5)
    assert lines[1:] == [resource_line("output", x[1:4, 1:4:2])]
    r = dmlc_process("run", "dml_element_wise_identity.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert DISPATCH_LINE.match(lines[0]).group(1) == "identity"
    assert lines[1:] == ["Resource 'Out': 12, 14, 16"]  # 1, 2, 3 with Scale 2 and Bias 10


def test_shipped_models_are_credited_and_unchanged():
    folder = os.path.join(os.path.dirname(dmlc.__file__), "models")
    readme = open(os.path.join(folder, "README.md"), encoding="utf-8").read()
    assert "github.com/microsoft/DirectML" in readme and "MIT License" in readme
    for name in ("dml_split.json", "dml_join.json", "dml_slice.json", "dml_element_wise_identity.json",
                 "dml_fill_value_sequence.json", "dml_cumulative_product.json"):
        assert f"`{name}`" in readme, name
    split = json.load(open(os.path.join(folder, "dml_split.json")))
    assert split["dispatchables"]["split"]["desc"]["OutputCount"] == 3
    assert split["$schema"] == "./_schema.json"  # DxDispatch's header line, kept as it was


# ---- Our models: every operator, every initializer, print and writeFile --------------------

def test_depth_to_space_v0(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, _ = run_model(os.path.join(MODELS, "depth_to_space.json"), capsys, monkeypatch,
                                             tmp_path)
    assert status == 0 and dispatched == ["d2s"]
    x = np.arange(48, dtype=np.float32).reshape(1, 8, 2, 3)
    assert lines == [resource_line("Out", dcr_depth_to_space(x, 2))]


def test_depth_to_space1_column_row_depth(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "depth_to_space1_crd.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    x = (100 + 7 * np.arange(16)).astype(np.uint16).reshape(1, 4, 2, 2)
    assert lines == [resource_line("Out", crd_depth_to_space(x, 2))]
    # By hand: the first output row takes element 0 of channels 0 and 1, then element 1.
    assert lines[0].startswith("Resource 'Out': 100, 128, 107, 135, ")


def test_space_to_depth_v0_and_npy_output(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "space_to_depth.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    x = np.arange(-8, 24, dtype=np.int32).reshape(1, 2, 4, 4)
    want = dcr_space_to_depth(x, 2)
    target = tmp_path / "s2d_out.npy"
    assert lines == [resource_line("Out", want), f"Resource 'Out' written to '{target}'"]
    written = np.load(target)
    assert written.dtype == np.int32 and written.shape == (1, 8, 2, 2)
    np.testing.assert_array_equal(written, want)


def test_space_to_depth1_from_npy_file(tmp_path, capsys, monkeypatch):
    # The .npy path is relative to the model file, not to the current directory.
    status, lines, _, _ = run_model(os.path.join(MODELS, "space_to_depth1_npy.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    x = (np.arange(16) * 0.5 - 3).astype(np.float16).reshape(1, 1, 4, 4)
    assert lines == [resource_line("Out", crd_space_to_depth(x, 2))]


def test_padding_reflection_model_with_comments_and_trailing_commas(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "padding_reflection.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    assert lines == [resource_line("Out", np.pad(x, ((1, 1), (2, 2)), mode="reflect"))]


def test_padding_constant_of_a_strided_input(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "padding_constant_strided.json"), capsys, monkeypatch,
                                    tmp_path)
    assert status == 0
    # Strides [1, 2] over 1..6 read the buffer as the transpose of a 3 x 2 array; the FLOAT
    # padding value -1.5 becomes -1 in INT8 (truncated toward zero).
    x = np.arange(1, 7, dtype=np.int8).reshape(3, 2).T
    assert lines == [resource_line("Out", np.pad(x, 1, constant_values=-1))]


def test_padding1_int64_scalar_union_is_exact_and_printed_verbose(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "padding1_int64.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    # 2**53 + 1 has no double, so only an exact integer path gets it through.  Verbose lines
    # are DxDispatch's "[index] value (0xHEX)", the hex right-aligned in 16 columns.
    assert lines == [
        "Resource 'Out':",
        "[0] 9007199254740993 (0x  20000000000001)",
        "[1] -5 (0xFFFFFFFFFFFFFFFB)",
        "[2] 0 (0x               0)",
        "[3] 5 (0x               5)",
        "[4] 9007199254740993 (0x  20000000000001)",
        "",
    ]


def test_padding1_float16_union_from_bits_and_a_full_tensor_desc(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "padding1_fp16_union.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    # {"UInt16": 15872} is 0x3E00, FLOAT16's 1.5.
    assert lines == ["Resource 'Out': 1.5, 1.5, 1, 2, 3, 1.5"]


def test_split_into_sub_ranges_of_one_buffer(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "split_into_one_buffer.json"), capsys, monkeypatch,
                                    tmp_path)
    assert status == 0
    x = (1 + 3 * np.arange(12)).astype(np.uint32).reshape(2, 6)
    parts = [x[:, 0:2], x[:, 2:3], x[:, 3:6]]  # at element offsets 0, 4 and 6 of All
    assert lines == [resource_line("All", np.concatenate([p.ravel() for p in parts]))]


def test_join_of_npy_list_and_constant_with_npy_and_raw_outputs(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "join_files.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    left = np.array([[-300, 7], [12, 32767]], np.int16)
    want = np.concatenate([left, np.array([[-1], [-2]], np.int16), np.full((2, 2), 9, np.int16)], axis=1)
    npy, raw = tmp_path / "out" / "joined.npy", tmp_path / "out" / "joined.bin"
    assert lines == [resource_line("Out", want), f"Resource 'Out' written to '{npy}'",
                     f"Resource 'Out' written to '{raw}'"]
    written = np.load(npy)
    assert written.dtype == np.int16 and written.shape == (2, 5)
    np.testing.assert_array_equal(written, want)
    assert raw.read_bytes() == want.tobytes()  # 20 bytes: no padding to add


def test_max_pooling2_with_indices(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "max_pooling2_indices.json"), capsys,
                                               monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["pool"]
    # 2x2 windows, stride 2, over
    #   1  5  2  0
    #   3  4  8  7
    #   9  2  6  6
    #   0 11  5  6
    # maxima 5, 8, 11, 6 at flat row-major input indices 1, 6, 13 and 10 (the bottom-right
    # window's three 6s tie: the first in row-major window order wins).
    assert lines == ["Resource 'Out': 5, 8, 11, 6", "Resource 'Indices': 1, 6, 13, 10"]


def test_max_pooling1_without_indices_and_with_padding(tmp_path, capsys, monkeypatch):
    status, lines, _, err = run_model(os.path.join(MODELS, "max_pooling1_padded.json"), capsys, monkeypatch,
                                      tmp_path)
    assert status == 0, err
    # Windows over rows/cols {-1, 0} and {1, 2} of
    #   4 -2  7
    #   1  9  3
    #  -5  0  8
    # padded positions take no part: max(4), max(-2, 7), max(1, -5), max(9, 3, 0, 8).
    assert lines == ["Resource 'Out': 4, 7, 1, 9"]


def test_slice1_with_negative_strides(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "slice1_negative.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["slice"]
    # The DML_SLICE1 page's example 2: a stride of -2 over rows 0..3 starts at row 3; NumPy's
    # x[3::-2, 1:4:2] of 1..16 as 4 x 4.
    x = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    assert lines == [resource_line("Out", x[3::-2, 1:4:2])]
    assert lines == ["Resource 'Out': 14, 16, 6, 8"]


def test_element_wise_identity_transpose_then_scale_bias_in_place(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "element_wise_identity.json"), capsys,
                                               monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["transpose", "scale"]
    x = np.arange(1, 7, dtype=np.float16).reshape(2, 3)
    t = x.T.ravel()
    # FLOAT16 scales in float32: (t * 0.5) - 1, each step rounded, then to half.
    scaled = (t.astype(np.float32) * np.float32(0.5) + np.float32(-1)).astype(np.float16)
    assert lines == [resource_line("Out", t), resource_line("Out", scaled)]


def test_tile_with_derived_repeats_count(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "tile.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    x = np.array([[1, 2], [3, 4]], np.uint16)
    assert lines == [resource_line("Out", np.tile(x, (2, 3)))]


def _slice1_model(**desc_changes):
    doc = parse_model_file("slice1_negative.json")
    doc["dispatchables"]["slice"]["desc"].update(desc_changes)
    return doc


def parse_model_file(name):
    from dmlc.model import parse_json
    with open(os.path.join(MODELS, name)) as f:
        return parse_json(f.read())


@pytest.mark.parametrize("model,message", [
    (lambda: _slice1_model(InputWindowStrides=[1, 1, -2, 2.5]),
     "dispatchables.slice.desc.InputWindowStrides[3]: expected a signed 32-bit integer, got 2.5"),
    (lambda: _slice1_model(InputWindowStrides=[1, 1, -2**31 - 1, 2]),
     "dispatchables.slice.desc.InputWindowStrides[2]: -2147483649 does not fit in a signed 32-bit integer"),
    (lambda: _slice1_model(InputWindowStrides="-2"),
     'dispatchables.slice.desc.InputWindowStrides: expected an array of signed integers, got "-2"'),
    (lambda: _slice1_model(InputWindowStrides=[1, -2, 2]),
     "dispatchables.slice.desc.InputWindowStrides: has 3 values, but DimensionCount is 4"),
    (lambda: _slice1_model(InputWindowStrides=[1, 1, 0, 2]),
     "dispatchables.slice: cannot create the operator: DML_OPERATOR_SLICE1: InputWindowStrides[2] is 0; a stride "
     "must not be 0 (E_INVALIDARG)"),
])
def test_malformed_slice1_models(model, message):
    from dmlc.model import Model, ModelError
    with pytest.raises(ModelError) as e:
        Model.parse(model(), MODELS)
    assert str(e.value) == message


@pytest.mark.parametrize("change,message", [
    ({"ScaleBias": {"Scale": 2}}, "dispatchables.scale.desc.ScaleBias.Bias: required field is missing"),
    ({"ScaleBias": {"Scale": 2, "Bias": 1, "Shift": 0}},
     "dispatchables.scale.desc.ScaleBias.Shift: DML_SCALE_BIAS has no field 'Shift' (its fields: Scale, Bias)"),
    ({"ScaleBias": [2, 1]}, "dispatchables.scale.desc.ScaleBias: expected a DML_SCALE_BIAS object or null, got [2, 1]"),
    ({"ScaleBias": {"Scale": "two", "Bias": 1}},
     'dispatchables.scale.desc.ScaleBias.Scale: expected a number or "nan", "inf", "-inf", got "two"'),
])
def test_malformed_scale_bias_models(change, message):
    from dmlc.model import Model, ModelError
    doc = parse_model_file("element_wise_identity.json")
    doc["dispatchables"]["scale"]["desc"].update(change)
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value) == message


def test_scale_bias_null_copies_and_repeats_count_must_match():
    import io

    from dmlc.model import Model, ModelError
    doc = parse_model_file("element_wise_identity.json")
    doc["dispatchables"]["scale"]["desc"]["ScaleBias"] = None  # JSON null: no ScaleBias, a copy in place
    out = io.StringIO()
    Model.parse(doc, MODELS).run(out)
    printed = [line for line in out.getvalue().splitlines() if line.startswith("Resource")]
    assert printed == ["Resource 'Out': 1, 4, 2, 5, 3, 6"] * 2
    doc = parse_model_file("tile.json")
    doc["dispatchables"]["tile"]["desc"]["RepeatsCount"] = 3
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value) == "dispatchables.tile.desc.RepeatsCount: is 3, but Repeats has 2 values"
def test_max_unpooling_binds_values_and_indices(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "max_unpooling.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["unpool"]
    # 8, 9, 7, 11 to flat indices 1, 6, 8 and 11 of a 4x4 output filled with 5s first: the
    # operator writes zeros everywhere else.
    assert lines == ["Resource 'Out': 0, 8, 0, 0, 0, 0, 9, 0, 7, 0, 0, 11, 0, 0, 0, 0"]


def test_gather_model_reads_signed_indices(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "gather.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["rows"]
    # Rows 2, 0, -1 (the last) and 7 (past the end: clamped to the last) of a 3x2 table.
    assert lines == ["Resource 'Out': 5, 6, 1, 2, 5, 6, 5, 6"]


def test_gather_elements_and_scatter_models(tmp_path, capsys, monkeypatch):
    """GATHER_ELEMENTS with INT64 indices (negative, past the end: clamped), SCATTER_ELEMENTS
    with UINT32 indices (DirectML's page example 2 over 1..9) and SCATTER, the alias, with a
    duplicate (the later wins) and an index below -n (writes nothing)."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "gather_elements.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["gather", "scatter", "scatter_alias"]
    assert lines == ["Resource 'Picked': 4, 8, 3, 7, 2, 9", "Resource 'Scattered': 20, 11, 3, 10, 5, 22, 7, 21, 12",
                     "Resource 'Line2': 8, 6, 2, 7, 4"]


def test_one_hot_model(tmp_path, capsys, monkeypatch):
    """ONE_HOT with INT64 indices (negative: + depth; past the end: the whole row Off) into a
    FLOAT16 output pre-filled with 7s, then Axis 0 with the page's {3,1} ValuesTensor [4, 2, 9]
    (On is element 1 along its only dimension of size > 1: 2)."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "one_hot.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["rows", "columns"]
    assert lines == ["Resource 'Encoded': -1, -1, 0.5, 0.5, -1, -1, -1, -1, 0.5, -1, -1, -1",
                     "Resource 'ByColumn': 2, 4, 4, 2, 4, 4, 2, 4, 4, 2, 4, 4"]


def test_gather_nd_and_scatter_nd_models(tmp_path, capsys, monkeypatch):
    """GATHER_ND with INT64 pairs (negative, past the end: clamped), GATHER_ND1 with a batch
    dimension and UINT32 indices, SCATTER_ND with INT32 indices (DirectML's page example,
    then -1, a later duplicate of 7 that wins, and -9, out of range: nothing written)."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "gather_nd.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["gather_nd", "gather_nd1", "scatter_nd"]
    assert lines == ["Resource 'Rows': 2, 3, 4, 5, 6, 7", "Resource 'Batched': 2, 3, 4, 5",
                     "Resource 'Line2': 1, 11, 3, 10, 9, 6, 7, 13"]


def test_average_pooling_include_padding_is_a_json_bool(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "average_pooling.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["avg", "avg1"]
    # 3x3 windows, stride 2, padding 1 over 0..15 in a 4x4 grid: window sums 10, 24, 51, 90 over
    # 4, 6, 6 and 9 elements inside, or over 9 positions each with IncludePadding.
    assert lines == ["Resource 'Excluded': 2.5, 4, 8.5, 10", "Resource 'Included': 1.11111, 2.66667, 5.66667, 10"]
    from dmlc.model import Model, ModelError
    with open(os.path.join(MODELS, "average_pooling.json")) as f:
        doc = json.load(f)
    doc["dispatchables"]["avg"]["desc"]["IncludePadding"] = 1  # DxDispatch's ParseBoolField wants true or false
    with pytest.raises(ModelError) as info:
        Model.parse(doc, MODELS)
    assert str(info.value) == "dispatchables.avg.desc.IncludePadding: expected true or false, got 1"


@pytest.mark.filterwarnings("error")  # overflow to inf is a value, not a NumPy warning on stderr
def test_print_formats_like_dxdispatch(tmp_path, capsys, monkeypatch):
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "print_formats.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0 and dispatched == [] and err == ""
    assert lines == [
        "Resource 'F32': 0.1, 1.23457e+06, 1e-07, nan, inf, -inf, 100, 2.5, -0",
        "Resource 'F64': 3.14159, -1e+300",
        "Resource 'F16': 65504, 0.0999756, -2",
        "Resource 'U8': 0, 255",
        "Resource 'I8': -128, 127",
        "Resource 'U64': 18446744073709551615",
        "Resource 'I64': -9223372036854775808, 9223372036854775807",
        "Resource 'SeqU8': 250, 253, 0, 3",   # UINT8 arithmetic wraps
        "Resource 'SeqF32': 0, 0.1, 0.2, 0.3",
        "Resource 'SeqI32': 5, 3, 1, -1",
        "Resource 'SeqF16': 60000, inf, inf",  # FLOAT16 overflows quietly, as in C++
        "Resource 'V8':",
        "[0] 7 (0x 7)",
        "[1] 200 (0xC8)",
        "",
        "Resource 'V16':",
        "[ 0] -1 (0xFFFF)",
        "[ 1] 0 (0x   0)",
        "[ 2] 1 (0x   1)",
        "[ 3] 2 (0x   2)",
        "[ 4] 3 (0x   3)",
        "[ 5] 4 (0x   4)",
        "[ 6] 5 (0x   5)",
        "[ 7] 6 (0x   6)",
        "[ 8] 7 (0x   7)",
        "[ 9] 8 (0x   8)",
        "[10] 9 (0x   9)",
        "",
    ]


def test_raw_file_initializer_and_buffer_sizes(tmp_path, capsys, monkeypatch):
    status, lines, _, _ = run_model(os.path.join(MODELS, "buffer_sizes.json"), capsys, monkeypatch, tmp_path)
    assert status == 0
    assert lines == ["Resource 'Raw': 1.5, -2, 3",
                     f"Resource 'Shifted' written to '{tmp_path / 'shifted.bin'}'",
                     f"Resource 'Half' written to '{tmp_path / 'half.npy'}'"]
    # sizeInBytes 16 with [5, 6] written 4 bytes in: the whole buffer is written.
    assert (tmp_path / "shifted.bin").read_bytes() == np.array([0, 5, 6, 0], np.float32).tobytes()
    # Three FLOAT16 values make a 6-byte buffer padded to 8; like DxDispatch, writeFile
    # without dimensions writes the whole buffer as one dimension.
    half = np.load(tmp_path / "half.npy")
    assert half.dtype == np.float16
    np.testing.assert_array_equal(half, np.array([1, 2, 3, 0], np.float16))


# ---- Malformed models: exact messages, exit status 1 ----------------------------------------

def base_model():
    return {
        "resources": {
            "A": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4, 5, 6]},
            "B": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 3, "value": 0}},
            "C": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 3, "value": 0}},
        },
        "dispatchables": {
            "split": {
                "type": "DML_OPERATOR_SPLIT",
                "desc": {
                    "InputTensor": {"DataType": "FLOAT32", "Sizes": [6]},
                    "OutputCount": 2,
                    "OutputTensors": [{"DataType": "FLOAT32", "Sizes": [3]}, {"DataType": "FLOAT32", "Sizes": [3]}],
                    "Axis": 0,
                },
            },
        },
        "commands": [
            {"type": "dispatch", "dispatchable": "split", "bindings": {"InputTensor": "A", "OutputTensors": ["B", "C"]}},
            {"type": "print", "resource": "C"},
        ],
    }


def test_base_model_runs(tmp_path, capsys, monkeypatch):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(base_model()))
    status, lines, dispatched, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert (status, lines, dispatched, err) == (0, ["Resource 'C': 4, 5, 6"], ["split"], "")


def _change(model, where, value):
    """Sets (or with _DELETE removes) the member at a slash-separated path."""
    keys = where.split("/")
    obj = model
    for k in keys[:-1]:
        obj = obj[int(k)] if isinstance(obj, list) else obj[k]
    last = int(keys[-1]) if isinstance(obj, list) else keys[-1]
    if value is _DELETE:
        del obj[last]
    else:
        obj[last] = value
    return model


_DELETE = object()
SPLIT = "dispatchables/split/desc"

MALFORMED = [
    ("missing commands", "commands", _DELETE, "commands: required field is missing"),
    ("missing initialValues", "resources/A/initialValues", _DELETE,
     "resources.A.initialValues: required field is missing"),
    ("missing desc field", f"{SPLIT}/Axis", _DELETE, "dispatchables.split.desc.Axis: required field is missing"),
    ("missing Sizes", f"{SPLIT}/InputTensor/Sizes", _DELETE,
     "dispatchables.split.desc.InputTensor.Sizes: required field is missing"),
    ("axis as a string", f"{SPLIT}/Axis", "0",
     'dispatchables.split.desc.Axis: expected an unsigned 32-bit integer, got "0"'),
    ("negative size", f"{SPLIT}/OutputTensors/1/Sizes", [-3],
     "dispatchables.split.desc.OutputTensors[1].Sizes[0]: -3 does not fit in an unsigned 32-bit integer"),
    ("resources not an object", "resources", [], "resources: expected an object, got []"),
    ("value out of range", "resources/A/initialValues", [1, 2, 3, 4, 5, 1e6], None),
    ("unknown operator", "dispatchables/split/type", "DML_OPERATOR_FROBNICATE",
     'dispatchables.split.type: "DML_OPERATOR_FROBNICATE" is not a DirectML operator type'),
    # The list is src/schema.def's (dmlc._core.OPERATORS), by DML_OPERATOR_TYPE value.
    ("unimplemented operator", "dispatchables/split/type", "GEMM",
     "dispatchables.split.type: DML_OPERATOR_GEMM is not implemented by dmlc (it implements "
     + ", ".join("DML_OPERATOR_" + name for name, _, _ in sorted(dmlc._core.OPERATORS, key=lambda op: op[1])) + ")"),
    # The list is src/schema.def's operators in DML_OPERATOR_TYPE order.
    ("unimplemented operator", "dispatchables/split/type", "GEMM",
     "dispatchables.split.type: DML_OPERATOR_GEMM is not implemented by dmlc (it implements "
     + ", ".join("DML_OPERATOR_" + name for name, _, _ in sorted(dmlc._core.OPERATORS, key=lambda row: row[1]))
     + ")"),
    ("hlsl dispatchable", "dispatchables/split/type", "hlsl",
     "dispatchables.split.type: hlsl dispatchables are not supported by dmlc, which runs DirectML operators"),
    ("bad data type name", f"{SPLIT}/InputTensor/DataType", "FLOAT",
     'dispatchables.split.desc.InputTensor.DataType: "FLOAT" is not a DML_TENSOR_DATA_TYPE; expected one of '
     "UNKNOWN, FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64, UINT4, INT4 "
     "(with or without the DML_TENSOR_DATA_TYPE_ prefix)"),
    ("enum names are case-sensitive", "resources/B/initialValuesDataType", "float32",
     'resources.B.initialValuesDataType: "float32" is not a DML_TENSOR_DATA_TYPE; expected one of '
     "UNKNOWN, FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64, UINT4, INT4 "
     "(with or without the DML_TENSOR_DATA_TYPE_ prefix)"),
    ("unknown desc field", f"{SPLIT}/Axsi", 0,
     "dispatchables.split.desc.Axsi: DML_SPLIT_OPERATOR_DESC has no field 'Axsi' "
     "(its fields: InputTensor, OutputCount, OutputTensors, Axis)"),
    ("count disagrees with the array", f"{SPLIT}/OutputCount", 3,
     "dispatchables.split.desc.OutputCount: is 3, but OutputTensors has 2 tensor descs"),
    ("DimensionCount disagrees with Sizes", f"{SPLIT}/InputTensor/DimensionCount", 2,
     "dispatchables.split.desc.InputTensor.DimensionCount: is 2, but Sizes has 1 values"),
    ("binding count mismatch", "commands/0/bindings/OutputTensors", ["B"],
     "commands[0].bindings.OutputTensors: bind point 'OutputTensors' requires 2 resources, but 1 were bound"),
    ("unbound tensor", "commands/0/bindings/InputTensor", _DELETE,
     "commands[0].bindings: nothing bound for required tensor 'InputTensor'"),
    ("unknown bind point", "commands/0/bindings/Input", "A",
     "commands[0].bindings.Input: DML_SPLIT_OPERATOR_DESC has no tensor 'Input' (its tensors: InputTensor, "
     "OutputTensors)"),
    ("unknown resource", "commands/0/bindings/OutputTensors", ["B", "D"],
     "commands[0].bindings.OutputTensors[1]: no resource named 'D'"),
    ("unknown dispatchable", "commands/0/dispatchable", "splitter",
     "commands[0].dispatchable: no dispatchable named 'splitter'"),
    ("unknown command", "commands/1/type", "show",
     'commands[1].type: "show" is not a command; expected dispatch, print or writeFile'),
    ("binding past the data", "commands/0/bindings/OutputTensors", ["B", {"name": "C", "elementOffset": 1}],
     "commands[0].bindings.OutputTensors[1]: the OutputTensors tensor needs 12 bytes (its TotalTensorSizeInBytes), "
     "but resource 'C' has 8 bytes from byte 4 on"),
    ("empty initial values", "resources/A/initialValues", [], "resources.A.initialValues: must not be empty"),
    ("integer beyond a double", "resources/A/initialValues", [1, 10**400],
     "resources.A.initialValues[1]: 1000000000000000000000000000000000000... is too large for a floating-point value"),
    ("padding value as a string", "resources/B/initialValues/value", "zero",
     'resources.B.initialValues.value: expected a number or "nan", "inf", "-inf", got "zero"'),
    ("sequence without delta", "resources/B/initialValues", {"valueCount": 3, "valueStart": 1},
     "resources.B.initialValues.valueDelta: required field is missing"),
    ("buffer smaller than its values", "resources/A/sizeInBytes", 20,
     "resources.A.sizeInBytes: the buffer (20 bytes) is too small for the initialValues (24 bytes) at offset 0 bytes"),
    ("missing npy file", "resources/A/initialValues", {"sourcePath": "nowhere.npy"}, None),
    ("wrong output size", f"{SPLIT}/OutputTensors/1/Sizes", [4], None),
]


@pytest.mark.parametrize("case", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_model(tmp_path, capsys, monkeypatch, case):
    name, where, value, message = case
    model = _change(base_model(), where, value)
    if name == "value out of range":
        _change(model, "resources/A/initialValuesDataType", "UINT8")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(model))
    status, lines, _, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert status == 1
    assert lines == []  # validation happens before any command runs
    assert err.count("\n") == 1 and "Traceback" not in err
    prefix = f"dmlc run: {path}: "
    assert err.startswith(prefix)
    got = err[len(prefix):].rstrip("\n")
    if message is not None:
        assert got == message
    elif name == "value out of range":
        # 1e6 is a JSON float: not an integer at all, as for RapidJSON.
        assert got == "resources.A.initialValues[5]: expected a UINT8 integer, got 1000000.0"
    elif name == "missing npy file":
        assert got == f"resources.A.initialValues.sourcePath: file 'nowhere.npy' not found (looked in {tmp_path})"
    elif name == "wrong output size":
        # Created before any command runs; the message is the core's, the dispatchable named.
        assert got.startswith("dispatchables.split: cannot create the operator: DML_OPERATOR_SPLIT: ")
        assert got.endswith(" (E_INVALIDARG)")
        assert "Sizes" in got


@pytest.mark.parametrize("text, message", [
    ('{"resources": {}, "dispatchables": {},\n "commands": [ {"type": "print" "resource": "A"} ]}',
     "invalid JSON at line 2, column 33: Expecting ',' delimiter"),
    ('{"resources": {,}}', "invalid JSON at line 1, column 16: Expecting property name enclosed in double quotes"),
    ("", "invalid JSON at line 1, column 1: Expecting value"),
    ("[1, 2]", "expected a JSON object at the top of the model, got [1, 2]"),
    ('{"resources": {}, "dispatchables": {}, "commands": [/* never closed ]}',
     "invalid JSON at line 1, column 53: a /* comment that is never closed"),
])
def test_bad_json(tmp_path, capsys, monkeypatch, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    status, lines, _, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert status == 1 and lines == []
    assert err == f"dmlc run: {path}: {message}\n"


def test_bad_enum_in_a_padding_desc(tmp_path, capsys, monkeypatch):
    with open(os.path.join(MODELS, "padding_constant_strided.json")) as f:
        model = json.load(f)
    model["dispatchables"]["pad"]["desc"]["PaddingMode"] = "MIRROR"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(model))
    status, _, _, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert status == 1
    assert err == (f"dmlc run: {path}: dispatchables.pad.desc.PaddingMode: \"MIRROR\" is not a DML_PADDING_MODE; "
                   "expected one of CONSTANT, EDGE, REFLECTION, SYMMETRIC, WRAP (with or without the "
                   "DML_PADDING_MODE_ prefix)\n")


def test_failed_dispatch_names_the_dispatchable_after_earlier_output(tmp_path, capsys, monkeypatch):
    # Output and input in the same bytes: only executing can tell; prints before it stand.
    model = base_model()
    model["commands"].insert(0, {"type": "print", "resource": "A"})
    model["commands"][1]["bindings"]["OutputTensors"] = ["A", "C"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model))
    status, lines, _, err = run_model(path, capsys, monkeypatch, tmp_path)
    assert status == 1
    assert lines == ["Resource 'A': 1, 2, 3, 4, 5, 6"]
    assert err.startswith(f"dmlc run: {path}: commands[1]: dispatching 'split' failed: DML_OPERATOR_SPLIT: ")
    assert err.endswith(" (E_INVALIDARG)\n")


def test_model_errors_exit_1_on_stderr_without_traceback(tmp_path):
    (tmp_path / "bad.json").write_text('{"resources": {"A": {"initialValues": [1]}}, "dispatchables": {}, '
                                       '"commands": []}')
    r = dmlc_process("run", "bad.json", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr == ('dmlc run: bad.json: resources.A.initialValues[0]: expected an object {"type": ..., '
                        '"value": ...}, got 1 (a list of plain values needs an initialValuesDataType)\n')
    r = dmlc_process("run", "missing.json", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (1, "dmlc run: missing.json: cannot read the model: No such file or directory\n")


# ---- Usage, help and version -----------------------------------------------------------------

def test_bad_usage_exits_2(tmp_path):
    for args, text in [(["run"], "the following arguments are required: MODEL.json"),
                       (["frobnicate"], "invalid choice: 'frobnicate'"),
                       (["config", "--cxxflags"], "unrecognized arguments: --cxxflags"),
                       (["config"], "give at least one of --cflags, --libs, --includedir, --libdir, "
                                    "--pkgconfigdir, --cmakedir")]:
        r = dmlc_process(*args, cwd=tmp_path)
        assert r.returncode == 2, args
        assert r.stdout == ""
        assert text in r.stderr and r.stderr.startswith("usage: dmlc")


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: dmlc [-h] [--version] COMMAND ...")
    for command in ("run", "examples", "bench", "config"):
        assert re.search(rf"^\s+{command}\s+\S", err, re.M), command


@pytest.mark.parametrize("command", ["run", "examples", "bench", "config"])
def test_every_subcommand_has_help(capsys, command):
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: dmlc {command} [-h]")
    out = " ".join(out.split())
    assert {"run": "dml_element_wise_identity.json, dml_fill_value_sequence.json, dml_join.json, dml_slice.json, "
                   "dml_split.json",
            "examples": "worked example",
            "bench": "--filter TEXT", "config": "--includedir"}[command] in out


def test_version_and_top_level_help(tmp_path):
    r = dmlc_process("--version", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, f"dmlc {dmlc.__version__}\n")
    r = dmlc_process("--help", cwd=tmp_path)
    assert r.returncode == 0
    for command in ("run", "examples", "bench", "config"):
        assert re.search(rf"^\s+{command}\s+\S", r.stdout, re.M), command


# ---- examples, bench, config ----------------------------------------------------------------

def test_examples_all_match_and_say_so(tmp_path):
    from dmlc._examples import all_examples

    count = len(all_examples())
    r = dmlc_process("examples", cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:]
    assert r.stdout.count("matches the expected output: yes") == count
    assert "matches the expected output: NO" not in r.stdout
    assert r.stdout.rstrip().endswith(f"{count} of {count} examples match their expected outputs")


def test_bench_prints_the_table_and_progress(capsys, monkeypatch):
    import dmlc.bench

    # Wiring, not timing: every candidate "takes" a fixed time.
    monkeypatch.setattr(dmlc.bench, "best_time", lambda fn: 1e-3)
    assert cli.main(["bench", "--quick", "--filter", "join"]) == 0
    captured = capsys.readouterr()
    workloads = [w for w in dmlc.bench.collect(quick=True, filt="join")]
    assert workloads
    progress = captured.err.splitlines()
    assert progress == [f"[{i + 1}/{len(workloads)}] {w.group} {w.label}" for i, w in enumerate(workloads)]
    out = captured.out
    assert out.startswith(f"dmlc {dmlc.__version__}, ")
    for w in workloads:
        label = f"{w.group} {w.label}"
        assert re.search(rf"^{re.escape(label)}\s+memcpy\s+1\.000 ms", out, re.M)
        # Every candidate gets a row; peers (not dmlc's own) a speedup over the best dmlc.
        for c in w.candidates:
            speedup = "" if c.name.startswith("dmlc") else r" .* 1\.00x"
            assert re.search(rf"^{re.escape(label)}\s+{re.escape(c.name)}\s+1\.000 ms{speedup}", out, re.M), c.name
        assert any(c.name == "dmlc" for c in w.candidates) or w.group.startswith("dask ")
    assert "split" not in out.replace("split_join", "")  # --filter kept the splits out


def test_config_prints_the_package_locations(tmp_path):
    r = dmlc_process("config", "--includedir", "--libdir", cwd=tmp_path)
    assert r.returncode == 0
    include, libdir = r.stdout.split()
    assert include == dmlc.get_include() and libdir == dmlc.get_library_dir()
    assert os.path.isfile(os.path.join(include, "directml_py.h"))
    assert os.path.isfile(dmlc.get_library_path()) and os.path.dirname(dmlc.get_library_path()) == libdir
    r = dmlc_process("config", "--libs", "--cflags", cwd=tmp_path)
    assert r.stdout.split() == [f"-L{libdir}", "-ldirectml_py", f"-Wl,-rpath,{libdir}", f"-I{include}"]


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_config_flags_build_a_c_program_that_runs_without_library_path(tmp_path):
    r = dmlc_process("config", "--cflags", "--libs", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    exe = tmp_path / "d2s"
    build = subprocess.run([*compiler(), "-std=c99", os.path.join(C_PROGRAMS, "depth_to_space.c"),
                            *shlex.split(r.stdout), "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH")}
    run = subprocess.run([str(exe)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "DEPTH_TO_SPACE1 matches the documented output" in run.stdout


def test_mutated_models_fail_only_with_model_errors(tmp_path, monkeypatch):
    """Any JSON value in any place of a valid model: a ModelError or a run, never another
    exception (which the CLI would show as a traceback)."""
    import copy
    import io
    import random

    from dmlc.model import Model, ModelError, parse_json

    monkeypatch.chdir(tmp_path)  # writeFile targets land here
    values = [None, True, 0, -1, 1, 2**32, 2**64 - 1, 1.5, "x", "FLOAT32", "nan", [], [1], [-1], ["a"], {}, {"a": 1},
              [{"DataType": "FLOAT32", "Sizes": [1]}], {"DataType": "FLOAT32", "Sizes": [1]},
              {"name": "A", "elementOffset": 2**63}, {"UInt16": 1}, {"value": 1, "valueCount": 2}, 10**30]

    def places(obj, path=()):
        yield path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
        for k, v in items:
            yield from places(v, path + (k,))

    rng = random.Random(20240611)
    failures = runs = 0
    for name in sorted(os.listdir(MODELS)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(MODELS, name)) as f:
            doc = parse_json(f.read())
        where = [p for p in places(doc) if p]
        for _ in range(60):
            model = copy.deepcopy(doc)
            path = rng.choice(where)
            parent = model
            for k in path[:-1]:
                parent = parent[k]
            if isinstance(parent, dict) and rng.random() < 0.2:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(values))
            try:
                Model.parse(model, MODELS).run(io.StringIO())
                runs += 1
            except ModelError as e:
                assert e.path or e.message.startswith("expected a JSON object")
                failures += 1
    assert failures > 500 and runs > 20


# ---- output into a closed pipe ---------------------------------------------------------------

BENCH_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "run.py")
# The benchmark's wiring without its workloads and peers (seconds to set up and import).
NO_WORKLOADS = ("import sys, runpy, dmlc.bench as b; b.collect = lambda quick, filt: []; "
                "b.optional_torch = b.optional_ort = lambda: None; ")


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform")
@pytest.mark.parametrize("args", [
    ["-m", "dmlc", "examples"],
    ["-m", "dmlc", "run", "dml_split.json"],
    ["-m", "dmlc", "config", "--cflags"],
    ["-c", NO_WORKLOADS + "from dmlc.cli import main; sys.exit(main(['bench', '--quick']))"],
    ["-c", NO_WORKLOADS + f"sys.argv = [{BENCH_SCRIPT!r}]; runpy.run_path(sys.argv[0], run_name='__main__')"],
], ids=["examples", "run", "config", "bench", "bench/run.py"])
def test_closed_pipe_ends_quietly(tmp_path, args):
    """`dmlc examples | head -1`: the reader is gone before the output is written (its end of
    the pipe is closed first, so the outcome does not depend on timing).  No traceback, and
    the status a shell reports for a tool that SIGPIPE ended."""
    if "run_path" in args[-1] and not os.path.exists(BENCH_SCRIPT):
        pytest.skip("bench/run.py is in a checkout only")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([sys.executable, *args], stdout=write_end, stderr=subprocess.PIPE, cwd=tmp_path,
                           env=child_env(), text=True, timeout=300)
    finally:
        os.close(write_end)
    assert (r.returncode, r.stderr) == (128 + signal.SIGPIPE, "")


# ---- Resampling ---------------------------------------------------------------------------

def test_dxdispatch_upsample_2d_sample_prints_what_dxdispatch_prints(tmp_path):
    r = dmlc_process("run", "dml_upsample_2d.json", cwd=tmp_path)  # Microsoft's model, unchanged
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert DISPATCH_LINE.match(lines[0]).group(1) == "upsample"
    # [[1, 2], [3, 4]] by 2 x 2, pixel-centre bilinear with clamped edges.
    assert lines[1:] == ["Resource 'output': 1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, "
                         "3.75, 4"]


def test_resample_models(tmp_path, capsys, monkeypatch):
    status, lines, _, err = run_model(os.path.join(MODELS, "resample.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert lines == ["Resource 'Out': 2, 15"]  # FLOAT array Scales, ScaleCount derived
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "resample1_resample2.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["r1", "r2"]
    assert lines == ["Resource 'Out1': 10, 20, 20, 30, 30, 40, 40, 40", "Resource 'Out2': 10, 10, 20, 20, 30, 30, 40, 40"]


def test_roi_pooling_model(tmp_path, capsys, monkeypatch):
    """ROI_POOLING from JSON: two input tensors bound, DML_SIZE_2D PooledSize as {"Width", "Height"}."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "roi_pooling.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["roi"]
    assert lines == ["Resource 'Out': 5, 7, 13, 15, 5, 6, 9, 10"]


@pytest.mark.parametrize("model,want", [("roi_align.json", "2.5, 4.5, 10.5, 12.5"), ("roi_align1.json", "5, 7, 13, 15")])
def test_roi_align_models(tmp_path, capsys, monkeypatch, model, want):
    """ROI_ALIGN and ROI_ALIGN1 from JSON: three inputs, a UINT32 batch index, enum and FLOAT fields,
    AlignRegionsToCorners as a JSON boolean."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, model), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert lines == [f"Resource 'Out': {want}"]


def test_malformed_resample_models():
    from dmlc.model import Model, ModelError
    doc = parse_model_file("resample.json")
    doc["dispatchables"]["resample"]["desc"]["ScaleCount"] = 3
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value) == "dispatchables.resample.desc.ScaleCount: is 3, but Scales has 2 values"
    doc = parse_model_file("resample.json")
    doc["dispatchables"]["resample"]["desc"]["Scales"] = [1, "x"]
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value) == ('dispatchables.resample.desc.Scales[1]: expected a number or "nan", "inf", "-inf", '
                            'got "x"')
    with open(os.path.join(os.path.dirname(dmlc.__file__), "models", "dml_upsample_2d.json"), encoding="utf-8") as f:
        doc = json.load(f)
    doc["dispatchables"]["upsample"]["desc"]["ScaleSize"] = {"Width": 2, "Depth": 2}
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value) == ("dispatchables.upsample.desc.ScaleSize.Depth: DML_SIZE_2D has no field 'Depth' "
                            "(its fields: Width, Height)")
    doc["dispatchables"]["upsample"]["desc"]["ScaleSize"] = {"Width": 2}
    with pytest.raises(ModelError) as e:
        Model.parse(doc, MODELS)
    assert str(e.value).startswith("dispatchables.upsample.desc.ScaleSize")
def test_argmax_and_argmin_model(tmp_path, capsys, monkeypatch):
    """tests/models/argmax.json: AxisDirection by its full and short names, Axes in any order."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "argmax.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["argmax", "argmin"]
    assert lines == ["Resource 'Max': 2, 2, 1", "Resource 'Min': 4"]


def test_reverse_subsequences_model(tmp_path, capsys, monkeypatch):
    """tests/models/reverse_subsequences.json: DirectML's page examples 1 (Axis 3) and 2
    (Axis 2, lengths 1 and 0 copy), then one UINT64 length of 9 (past the end: the whole row)
    broadcast to every row by zero strides."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "reverse_subsequences.json"), capsys, monkeypatch,
                                               tmp_path)
    assert status == 0, err
    assert dispatched == ["rows", "columns", "broadcast"]
    assert lines == ["Resource 'Rows': 2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12",
                     "Resource 'Columns': 5, 10, 3, 4, 1, 6, 7, 8, 9, 2, 11, 12",
                     "Resource 'Reversed': 4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9"]


def test_top_k_models(tmp_path, capsys, monkeypatch):
    """tests/models/top_k.json: TOP_K into UINT32 indices, TOP_K1 INCREASING into INT64."""
    status, lines, dispatched, err = run_model(os.path.join(MODELS, "top_k.json"), capsys, monkeypatch, tmp_path)
    assert status == 0, err
    assert dispatched == ["top_k", "top_k1"]
    assert lines == ["Resource 'Values': 11, 10, 9, 8, 7, 6", "Resource 'Indices': 3, 2, 2, 3, 3, 2",
                     "Resource 'Least': 0, 1, 6, 7, 3, 2, 9, 8, 4, 5, 10, 11",
                     "Resource 'LeastIndices': 0, 0, 2, 2, 1, 1, 1, 1, 2, 2, 0, 0"]
