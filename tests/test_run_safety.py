"""`dmlc run` on a model someone else wrote: the files it may touch, and every failure one
line on stderr with the documented exit status (1; 2 with --compare), never a traceback.

The rules (docs/cli.rst, "Running models you did not write"): a model reads files only inside its
own folder and writes only inside the output folder (the current folder or --output-dir),
after symbolic links are resolved; absolute paths and `..` that leaves the folder are
refused; an existing target that is not a regular file is refused whatever the flags;
--allow-any-path lifts the folder rules.  Each message names the JSON path and the rule.
"""
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from dmlc import cli
from dmlc.model import ModelError, parse_json, parse_json_document
from support import child_env

RULE_READ = "a model reads files only inside its own folder (dmlc run --allow-any-path lifts this)"
RULE_WRITE = ("a model writes files only inside the output folder, the current folder or --output-dir "
              "(dmlc run --allow-any-path lifts this)")


def identity_model(source=None, target="out.npy"):
    """A model copying In to Out (ELEMENT_WISE_IDENTITY) and writing Out to target; In comes
    from the file source when given."""
    init = {"sourcePath": source} if source else [1, 2, 3, 4]
    return {
        "resources": {
            "In": {"initialValuesDataType": "FLOAT32", "initialValues": init},
            "Out": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 4, "value": 0}},
        },
        "dispatchables": {"copy": {"type": "ELEMENT_WISE_IDENTITY", "desc": {
            "InputTensor": {"DataType": "FLOAT32", "Sizes": [4]},
            "OutputTensor": {"DataType": "FLOAT32", "Sizes": [4]}}}},
        "commands": [
            {"type": "dispatch", "dispatchable": "copy", "bindings": {"InputTensor": "In", "OutputTensor": "Out"}},
            {"type": "print", "resource": "Out"},
            {"type": "writeFile", "resource": "Out", "targetPath": target},
        ],
    }


@pytest.fixture
def layout(tmp_path, monkeypatch):
    """tmp/models/m.json (with data.npy beside it), tmp/work (the current folder), tmp/secret."""
    models, work, secret = tmp_path / "models", tmp_path / "work", tmp_path / "secret"
    for d in (models, work, secret):
        d.mkdir()
    np.save(models / "data.npy", np.array([1, 2, 3, 4], np.float32))
    np.save(secret / "data.npy", np.array([9, 9, 9, 9], np.float32))
    monkeypatch.chdir(work)
    return tmp_path


def run(layout, model, capsys, *flags):
    path = layout / "models" / "m.json"
    path.write_text(json.dumps(model))
    status = cli.main(["run", str(path), *flags])
    out, err = capsys.readouterr()
    return status, out, err, f"dmlc run: {path}: "


def refused(layout, model, capsys, message, *flags):
    status, out, err, prefix = run(layout, model, capsys, *flags)
    assert (status, out) == (1, "")  # nothing ran
    assert err == prefix + message + "\n"


# ---- Reads --------------------------------------------------------------------------------

def test_a_source_beside_the_model_is_read(layout, capsys):
    status, out, err, _ = run(layout, identity_model("data.npy"), capsys)
    assert (status, err) == (0, "")
    assert "Resource 'Out': 1, 2, 3, 4" in out


def test_dotdot_that_stays_inside_is_read(layout, capsys):
    (layout / "models" / "sub").mkdir()
    status, _, err, _ = run(layout, identity_model("sub/../data.npy"), capsys)
    assert (status, err) == (0, "")


def test_absolute_source_is_refused(layout, capsys):
    source = str(layout / "secret" / "data.npy")
    refused(layout, identity_model(source), capsys,
            f'resources.In.initialValues.sourcePath: "{source}" is an absolute path; {RULE_READ}')


def test_dotdot_out_of_the_model_folder_is_refused(layout, capsys):
    refused(layout, identity_model("../secret/data.npy"), capsys,
            f'resources.In.initialValues.sourcePath: "../secret/data.npy" leads to {layout}/secret/data.npy, '
            f"outside the model's folder {layout}/models; {RULE_READ}")


def test_a_symbolic_link_out_of_the_model_folder_is_refused(layout, capsys):
    os.symlink(layout / "secret" / "data.npy", layout / "models" / "link.npy")
    refused(layout, identity_model("link.npy"), capsys,
            f'resources.In.initialValues.sourcePath: "link.npy" leads through a symbolic link to '
            f"{layout}/secret/data.npy, outside the model's folder {layout}/models; {RULE_READ}")


def test_the_current_folder_is_not_searched_unless_allowed(layout, capsys):
    np.save(layout / "work" / "cwd.npy", np.array([5, 6, 7, 8], np.float32))
    refused(layout, identity_model("cwd.npy"), capsys,
            f"resources.In.initialValues.sourcePath: file 'cwd.npy' not found (looked in {layout}/models)")
    status, out, err, _ = run(layout, identity_model("cwd.npy"), capsys, "--allow-any-path")
    assert (status, err) == (0, "") and "Resource 'Out': 5, 6, 7, 8" in out


def test_allow_any_path_lifts_the_read_rules(layout, capsys):
    os.symlink(layout / "secret" / "data.npy", layout / "models" / "link.npy")
    for source in (str(layout / "secret" / "data.npy"), "../secret/data.npy", "link.npy"):
        status, out, err, _ = run(layout, identity_model(source), capsys, "--allow-any-path")
        assert (status, err) == (0, ""), source
        assert "Resource 'Out': 9, 9, 9, 9" in out


def test_a_source_that_is_not_a_regular_file_is_refused(layout, capsys):
    (layout / "models" / "folder.npy").mkdir()
    refused(layout, identity_model("folder.npy"), capsys,
            "resources.In.initialValues.sourcePath: 'folder.npy' is not a regular file (a folder, a device, a pipe "
            "or a dangling link)")


# ---- Writes -------------------------------------------------------------------------------

def test_targets_land_in_the_current_folder_or_the_output_dir(layout, capsys):
    status, out, err, _ = run(layout, identity_model(target="new/dir/out.bin"), capsys)
    assert (status, err) == (0, "")
    target = layout / "work" / "new" / "dir" / "out.bin"
    assert out.endswith(f"Resource 'Out' written to '{target}'\n")
    assert np.array_equal(np.fromfile(target, np.float32), [1, 2, 3, 4])
    status, out, err, _ = run(layout, identity_model(target="out.npy"), capsys, "--output-dir", "results")
    assert (status, err) == (0, "")
    assert np.array_equal(np.load(layout / "work" / "results" / "out.npy"), [1, 2, 3, 4])


@pytest.mark.parametrize("target, why", [
    ("../secret/secret.txt", "leads to {L}/secret/secret.txt, outside the output folder {L}/work"),
    ("new/../../x.bin", "leads to {L}/x.bin, outside the output folder {L}/work"),
    ("{L}/new/dir/.bashrc", "is an absolute path"),
    ("link/.bashrc", "leads through a symbolic link to {L}/secret/.bashrc, outside the output folder {L}/work"),
])
def test_targets_outside_the_output_folder_are_refused(layout, capsys, target, why):
    """The issue's reproductions: ../../victim/secret.txt overwritten, .bashrc written in
    a new folder; and a symbolic link in the output folder pointing out of it."""
    os.symlink(layout / "secret", layout / "work" / "link")
    (layout / "secret" / "secret.txt").write_text("mine")
    target = target.format(L=layout)
    refused(layout, identity_model(target=target), capsys,
            f'commands[2].targetPath: "{target}" {why.format(L=layout)}; {RULE_WRITE}')
    assert (layout / "secret" / "secret.txt").read_text() == "mine"
    assert not (layout / "secret" / ".bashrc").exists() and not (layout / "new").exists()


def test_allow_any_path_lifts_the_write_rules(layout, capsys):
    target = layout / "secret" / "out.npy"
    status, out, err, _ = run(layout, identity_model(target=str(target)), capsys, "--allow-any-path")
    assert (status, err) == (0, "")
    assert np.array_equal(np.load(target), [1, 2, 3, 4])


def test_a_mode_0600_file_is_not_copied_out(layout, capsys):
    """The issue's first reproduction: a private file read by a model and written again."""
    private = layout / "secret" / "key.bin"
    private.write_bytes(b"\x01\x02\x03\x04" * 4)
    private.chmod(0o600)
    model = identity_model(str(private), target="copy.bin")
    model["resources"]["In"]["initialValuesDataType"] = "FLOAT32"
    refused(layout, model, capsys,
            f'resources.In.initialValues.sourcePath: "{private}" is an absolute path; {RULE_READ}')
    assert not (layout / "work" / "copy.bin").exists()


@pytest.mark.parametrize("flags", [(), ("--allow-any-path",)])
def test_existing_targets_that_are_not_regular_files_are_refused(layout, capsys, flags):
    work = layout / "work"
    (work / "folder").mkdir()
    os.mkfifo(work / "fifo")
    os.symlink(work / "nowhere", work / "dangling")
    for name in ("folder", "fifo", "dangling"):
        refused(layout, identity_model(target=name), capsys,
                f'commands[2].targetPath: "{name}" exists and is not a regular file (a folder, a device, a pipe or a '
                f"dangling link); writeFile replaces regular files only", *flags)
    assert not (work / "nowhere").exists()


def test_a_target_under_a_regular_file_says_so(layout, capsys):
    (layout / "work" / "plain").write_text("x")
    refused(layout, identity_model(target="plain/sub/out.npy"), capsys,
            f'commands[2].targetPath: "plain/sub/out.npy" cannot be written: {layout}/work/plain is a file, not a '
            f"folder")


def test_nul_in_a_path_is_refused(layout, capsys):
    refused(layout, identity_model(target="out\0.npy"), capsys,
            'commands[2].targetPath: "out\\u0000.npy" holds a NUL character, which no file name can')
    refused(layout, identity_model(source="in\0.npy"), capsys,
            'resources.In.initialValues.sourcePath: "in\\u0000.npy" holds a NUL character, which no file name can')


# ---- The JSON reader ----------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ('{"a": [1, 2, ], "b": {"c": 1, }, }', {"a": [1, 2], "b": {"c": 1}}),
    ('{"a": [1, 2 ,\n ]}', {"a": [1, 2]}),
    ('{"a": [1, /* c */ ], // d\n "b": ", ]"}', {"a": [1], "b": ", ]"}),
    ('{"a": "//not a comment", "b": "/*", "c": "*/"}', {"a": "//not a comment", "b": "/*", "c": "*/"}),
    ('{"a": "x\\", ]",}', {"a": 'x", ]'}),
    ('{"a": [[], {}, ],}', {"a": [[], {}]}),
])
def test_comments_and_trailing_commas(text, value):
    assert parse_json(text) == value


@pytest.mark.parametrize("text, message", [
    ('{"a": [, ]}', "invalid JSON at line 1, column 8: Expecting value"),
    ('{"a": [1,, ]}', "invalid JSON at line 1, column 10: Expecting value"),
    ('{, }', "invalid JSON at line 1, column 2: Expecting property name enclosed in double quotes"),
    ('{"a": "open', "invalid JSON at line 1, column 7: Unterminated string starting at"),
    ('{"a": "open\n"}', "invalid JSON at line 1, column 12: Invalid control character at"),
    ('{"a": 1} /*', "invalid JSON at line 1, column 10: a /* comment that is never closed"),
    ('{"a": 1} /*/', "invalid JSON at line 1, column 10: a /* comment that is never closed"),
    ("[" * 100000, "invalid JSON: arrays and objects nested deeper than dmlc reads"),
])
def test_bad_json_messages(text, message):
    with pytest.raises(ModelError) as e:
        parse_json(text)
    assert str(e.value).startswith(message)


def test_integer_literals_beyond_any_type_are_named_not_converted():
    value = parse_json('{"a": ' + "9" * 5000 + "}")["a"]
    from dmlc.model import _float, _uint32
    with pytest.raises(ModelError, match=r"^x: an integer literal of 5000 digits is too large for a floating-point"):
        _float(value, "x")
    with pytest.raises(ModelError, match=r"^x: expected an unsigned 32-bit integer, got an integer literal of 5000"):
        _uint32(value, "x")


def test_text_after_the_object_is_reported_where_it_starts():
    assert parse_json_document('{"a": 1}  \n // done\n') == ({"a": 1}, None)
    assert parse_json_document('{"a": 1}\n\n  garbage {[') == ({"a": 1}, (3, 3))


def test_many_strings_and_trailing_commas_parse_in_one_pass():
    """The shape that made the old reader quadratic (a string before every comma, a
    trailing comma at the end), checked for its value; bench/parse.py times it."""
    text = '{"v": [' + '"nan", ' * 100000 + "]}"
    assert parse_json(text)["v"] == ["nan"] * 100000


# ---- Hostile models, each in a child process ----------------------------------------------

def child(args, cwd, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "dmlc", *args], cwd=cwd, env=child_env(), stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


def one_line(r, status):
    assert r.returncode == status, r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n"), r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    return r.stderr


def write(path, model):
    path.write_text(model if isinstance(model, str) else json.dumps(model))
    return str(path)


def test_hostile_models_fail_in_one_line(tmp_path):
    cases = {
        "deep.json": ("[" * 100000, "invalid JSON: arrays and objects nested deeper than dmlc reads"),
        "digits.json": ('{"resources": {"A": {"initialValuesDataType": "FLOAT32", "initialValues": [' + "1" * 5000
                        + "]}}}", "resources.A.initialValues[0]: an integer literal of 5000 digits is too large"),
        "nul.json": (identity_model(target="a\0b"), 'commands[2].targetPath: "a\\u0000b" holds a NUL character'),
        "npz.json": (identity_model(source="fake.npy"),
                     "resources.In.initialValues.sourcePath: cannot read 'fake.npy' as a NumPy array: the magic "
                     "string is not correct"),
        "under.json": (identity_model(target="plain/x.npy"), f"commands[2].targetPath: \"plain/x.npy\" cannot be "
                                                             f"written: {tmp_path}/plain is a file, not a folder"),
    }
    with open(tmp_path / "fake.npy", "wb") as f:  # an .npz named .npy
        np.savez(f, x=np.zeros(4, np.float32))
    (tmp_path / "plain").write_text("x")
    for name, (model, message) in cases.items():
        err = one_line(child(["run", write(tmp_path / name, model)], tmp_path), 1)
        assert err.startswith(f"dmlc run: {tmp_path / name}: {message}"), err


def test_compare_with_a_terabyte_header_is_an_error_not_a_mismatch(tmp_path):
    (tmp_path / "gpu").mkdir()
    with open(tmp_path / "gpu" / "Out.npy", "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (10**12,)})
    path = write(tmp_path / "m.json", identity_model())
    err = one_line(child(["run", path, "--compare", "gpu"], tmp_path), 2)
    assert "--compare gpu/Out.npy: cannot read it as a NumPy array: its header declares shape (1000000000000,)" in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args, status", [(["examples"], 1), (["run", "dml_join.json"], 1),
                                          (["run", "dml_join.json", "--compare", "."], 2)])
def test_a_full_disk_is_one_line_and_a_failure(tmp_path, args, status):
    if "--compare" in args:
        np.save(tmp_path / "Out.npy", np.array([1, 2, 3, 100, 115, 5, 6, 7, 8, 9], np.float32))
    with open("/dev/full", "w") as full:
        err = one_line(child(args, tmp_path, stdout=full), status)
    assert err.endswith("cannot write the output: No space left on device\n"), err


def test_text_after_the_model_runs_with_a_warning(tmp_path):
    path = write(tmp_path / "m.json", json.dumps(identity_model(), indent=1) + "\n  garbage {[")
    r = child(["run", path], tmp_path)
    assert r.returncode == 0
    line = json.dumps(identity_model(), indent=1).count("\n") + 2
    assert r.stderr == (f"dmlc run: {path}: warning: text after the model's JSON object, from line {line}, column 3 "
                        f"on, is ignored (as DxDispatch ignores it)\n")
    assert "Resource 'Out': 1, 2, 3, 4" in r.stdout


# ---- A fuzzed set of mutated models -------------------------------------------------------

def mutants(seed, count):
    """count texts made from DxDispatch-style models by a seeded mutator: characters cut,
    repeated or replaced, JSON values swapped for hostile ones, paths pointed outside."""
    rng = random.Random(seed)
    here = os.path.dirname(os.path.abspath(__file__))
    bases = [identity_model(), identity_model("data.npy"), identity_model(target="sub/o.png")]
    for name in ("padding_reflection.json", "max_pooling2_indices.json", "join_files.json", "tile.json"):
        with open(os.path.join(here, "models", name)) as f:
            bases.append(parse_json(f.read()))
    hostile = [None, True, -1, 2**64, 1e308, "nan", "", "\0", "../../x", "/etc/passwd", [], {}, [[[]]], "a" * 300,
               {"sourcePath": "data.npy"}, {"valueCount": 2**32 - 1, "value": 0}, {"sourcePath": "/dev/zero"},
               {"valueStart": 0, "valueDelta": 1, "valueCount": 10**10}, [1] * 70, "FLOAT16", "UINT64", "@HUGE@"]

    def values(node, trail=()):
        yield trail
        if isinstance(node, dict):
            for k, v in node.items():
                yield from values(v, trail + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from values(v, trail + (i,))

    for _ in range(count):
        base = rng.choice(bases)
        if rng.random() < 0.6:
            doc = json.loads(json.dumps(base))
            for _ in range(rng.randint(1, 3)):
                trail = rng.choice(list(values(doc))[1:])
                node = doc
                for k in trail[:-1]:
                    node = node[k]
                if rng.random() < 0.2 and isinstance(node, dict):
                    del node[trail[-1]]
                else:
                    node[trail[-1]] = rng.choice(hostile)
            text = json.dumps(doc).replace('"@HUGE@"', "1" * 5001)  # an integer literal of 5001 digits
        else:
            text = json.dumps(base)
            for _ in range(rng.randint(1, 4)):
                i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
                j = min(j, i + 20)
                op = rng.randrange(4)
                if op == 0:
                    text = text[:i] + text[j:]
                elif op == 1:
                    text = text[:i] + text[i:j] * rng.randint(2, 50) + text[i:]
                elif op == 2:
                    text = text[:i] + rng.choice(['"', "[", "{", ",", "/*", "//", "\\", "\0", ",]", "\ud800"]) + text[i:]
                else:
                    text = text[:i] + "".join(chr(rng.randrange(32, 127)) for _ in range(j - i)) + text[j:]
        yield text


FUZZ_CHILD = r'''
import contextlib, io, json, os, sys
from dmlc import cli
results = []
for path in sys.argv[1:]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(["run", path])
    results.append([path, status, err.getvalue()])
print(json.dumps(results))
'''


def test_fuzzed_models_fail_in_one_line(tmp_path):
    """300 mutants of valid models (seeded, so a failure replays) through `dmlc run` in a
    child process: each exits 0 or 1, and a failure is exactly one line on stderr with a
    message of dmlc's own (no traceback, no internal error).  A few also run as `python -m
    dmlc run` processes of their own."""
    models = tmp_path / "models"
    models.mkdir()
    np.save(models / "data.npy", np.array([1, 2, 3, 4], np.float32))
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("join_left.npy",):
        np.save(models / name, np.load(os.path.join(here, "models", name)))
    paths = []
    for i, text in enumerate(mutants(seed=26, count=300)):
        path = models / f"m{i:03}.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        paths.append(str(path))
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run([sys.executable, "-c", FUZZ_CHILD, *paths], cwd=work, env=child_env(), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    results = json.loads(r.stdout.splitlines()[-1])
    assert len(results) == len(paths)
    failures = 0
    for path, status, err in results:
        assert status in (0, 1), (path, status, err)
        lines = [line for line in err.splitlines() if ": warning: " not in line]
        if status == 1:
            failures += 1
            assert len(lines) == 1 and lines[0].startswith(f"dmlc run: {path}: "), (path, err)
            assert "internal error" not in err and "Traceback" not in err, (path, err)
        else:
            assert lines == [], (path, err)
    assert 100 < failures < len(paths)  # the mutator makes both kinds
    assert not any(os.path.exists(p) for p in ("/x", str(tmp_path / "x")))
    for path in paths[:5]:
        r = child(["run", path], work)
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr
        assert r.returncode == 0 or one_line(r, 1)


# ---- Image resources (DxDispatch's image_io.json, through Pillow: the images extra) --------

def image_model(source, resample, target, dims, dtype="FLOAT32"):
    """Image -> tensor [1, C, H, W] -> ELEMENT_WISE_IDENTITY -> image, as image_io.json reads a
    JPEG and writes a PNG (its CONVOLUTION replaced by an operator dmlc has)."""
    n = int(np.prod(resample))
    return {
        "resources": {
            "In": {"initialValuesDataType": dtype, "initialValues": {"sourcePath": source},
                   "resampleSize": resample},
            "Out": {"initialValuesDataType": dtype, "initialValues": {"valueCount": n, "value": 0}},
        },
        "dispatchables": {"copy": {"type": "ELEMENT_WISE_IDENTITY", "desc": {
            "InputTensor": {"DataType": dtype, "Sizes": resample},
            "OutputTensor": {"DataType": dtype, "Sizes": resample}}}},
        "commands": [
            {"type": "dispatch", "dispatchable": "copy", "bindings": {"InputTensor": "In", "OutputTensor": "Out"}},
            {"type": "writeFile", "resource": "Out", "targetPath": target, "dimensions": dims},
        ],
    }


def test_a_jpeg_is_read_with_resample_size_and_written_as_png(layout, capsys):
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(26)
    pixels = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(layout / "models" / "photo.jpg", quality=95)
    status, out, err, _ = run(layout, image_model("photo.jpg", [1, 3, 24, 32], "out.png", [1, 3, 24, 32]), capsys)
    assert (status, err) == (0, "")
    with Image.open(layout / "models" / "photo.jpg") as im:  # what DxDispatch's steps give, done by hand
        want = np.asarray(im.convert("RGB").resize((32, 24), Image.Resampling.BICUBIC))
    tensor = want.transpose(2, 0, 1).astype(np.float32) / np.float32(255)   # NCHW, pixel / 255
    want = (tensor * np.float32(255)).astype(np.uint8).transpose(1, 2, 0)   # back: x 255, truncated
    with Image.open(layout / "work" / "out.png") as im:
        assert (im.format, im.mode, im.size) == ("PNG", "RGB", (32, 24))
        assert np.array_equal(np.asarray(im), want)
    assert out.endswith(f"Resource 'Out' written to '{layout}/work/out.png'\n")


@pytest.mark.parametrize("channels, mode", [(1, "L"), (4, "RGBA")])
def test_grey_and_rgba_png_round_trip_exactly(layout, capsys, channels, mode):
    """A PNG of the resampleSize's own size is not scaled: every value is pixel / 255,
    written back as the same pixels (FLOAT16 too: k / 255 rounds back to k)."""
    Image = pytest.importorskip("PIL.Image")
    pixels = np.arange(5 * 7 * channels, dtype=np.uint8).reshape(5, 7, channels) * 7
    Image.fromarray(pixels[:, :, 0] if channels == 1 else pixels).save(layout / "models" / "in.png")
    for dtype in ("FLOAT32", "FLOAT16"):
        model = image_model("in.png", [1, channels, 5, 7], "sub/out.png", [1, channels, 5, 7], dtype)
        model["commands"].insert(1, {"type": "writeFile", "resource": "In", "targetPath": "in.npy"})
        status, _, err, _ = run(layout, model, capsys)
        assert (status, err) == (0, "")
        values = np.load(layout / "work" / "in.npy")
        assert values.dtype == (np.float32 if dtype == "FLOAT32" else np.float16)
        want = (pixels.transpose(2, 0, 1).astype(np.float32) / np.float32(255)).astype(values.dtype).ravel()
        assert np.array_equal(values[:want.size], want)  # then the buffer's 4-byte padding
        assert not values[want.size:].any()
        with Image.open(layout / "work" / "sub" / "out.png") as im:
            assert im.mode == mode
            got = np.asarray(im).reshape(5, 7, channels)
        assert np.array_equal(got, pixels) if dtype == "FLOAT32" else np.abs(got.astype(int) - pixels).max() <= 1


def test_written_images_clamp_as_dxdispatch(layout, capsys):
    """Values below 0 give 0, above 1 give 255, NaN gives 255 (std::min(1.0f, NaN) is 1)."""
    Image = pytest.importorskip("PIL.Image")
    model = identity_model(target="clamp.png")
    model["resources"]["In"]["initialValues"] = [-1, 0.5, 2, "nan"]
    model["commands"][2]["dimensions"] = [1, 1, 2, 2]
    status, _, err, _ = run(layout, model, capsys)
    assert (status, err) == (0, "")
    with Image.open(layout / "work" / "clamp.png") as im:
        assert np.asarray(im).tolist() == [[0, 127], [255, 255]]


DELETE = object()
GRID = "with C 1 (grey), 3 (RGB) or 4 (RGBA) and H, W above 0, got"


@pytest.mark.parametrize("trail, value, message", [
    (("resources", "In", "resampleSize"), DELETE,
     "resources.In.resampleSize: required for an image sourcePath: [1, C, H, W], C 1 (grey), 3 (RGB) or 4 (RGBA)"),
    (("resources", "In", "resampleSize"), [1, 2, 4, 4], f"resources.In.resampleSize: expected [1, C, H, W] {GRID} "
                                                        f"[1, 2, 4, 4]"),
    (("resources", "In", "resampleSize"), [2, 3, 4], f"resources.In.resampleSize: expected [1, C, H, W] {GRID} "
                                                     f"[2, 3, 4]"),
    (("resources", "In", "resampleMode"), "crop", 'resources.In.resampleMode: expected "scale" (the only mode), got '
                                                  '"crop"'),
    (("resources", "In", "initialValuesDataType"), "UINT8",
     "resources.In.initialValuesDataType: an image is read as FLOAT32 or FLOAT16 values from 0 to 1, so this must be "
     "one of them, not UINT8"),
    (("commands", 1, "dimensions"), [1, 3, 4], f"commands[1].dimensions: an image needs dimensions [1, C, H, W] "
                                               f"{GRID} [1, 3, 4]"),
    (("commands", 1, "dimensions"), DELETE, f"commands[1].dimensions: an image needs dimensions [1, C, H, W] {GRID} "
                                            f"none"),
    (("commands", 1, "dimensions"), [1, 3, 9, 9], "commands[1].dimensions: [1, 3, 9, 9] needs 972 bytes, but "
                                                  "resource 'Out' has 192"),
    (("resources", "In", "initialValues", "sourcePath"), "bad.png",
     "resources.In.initialValues.sourcePath: cannot read 'bad.png' as an image: cannot identify image file"),
])
def test_image_fields_refuse_wrong_values(layout, capsys, trail, value, message):
    Image = pytest.importorskip("PIL.Image")
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(layout / "models" / "in.png")
    (layout / "models" / "bad.png").write_bytes(b"not a png")
    model = image_model("in.png", [1, 3, 4, 4], "out.png", [1, 3, 4, 4])
    node = model
    for k in trail[:-1]:
        node = node[k]
    if value is DELETE:
        del node[trail[-1]]
    else:
        node[trail[-1]] = value
    status, out, err, prefix = run(layout, model, capsys)
    assert (status, out) == (1, "")
    assert err.startswith(prefix + message) and err.count("\n") == 1, err


def test_jpeg_targets_take_grey_and_rgb_not_rgba(layout, capsys):
    Image = pytest.importorskip("PIL.Image")
    Image.fromarray(np.full((4, 4, 4), 200, np.uint8)).save(layout / "models" / "in.png")
    status, _, err, _ = run(layout, image_model("in.png", [1, 3, 4, 4], "out.jpg", [1, 3, 4, 4]), capsys)
    assert (status, err) == (0, "")
    with Image.open(layout / "work" / "out.jpg") as im:
        assert (im.format, im.mode, im.size) == ("JPEG", "RGB", (4, 4))
    refused(layout, image_model("in.png", [1, 4, 4, 4], "out.jpg", [1, 4, 4, 4]), capsys,
            "commands[1].dimensions: a JPEG has no alpha channel: write 4 channels (RGBA) to a .png")


def test_without_pillow_the_message_names_the_extra(layout, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now fails as where it is not installed
    (layout / "models" / "in.png").write_bytes(b"")
    refused(layout, image_model("in.png", [1, 3, 4, 4], "out.npy", []), capsys,
            'resources.In.initialValues.sourcePath: image files need Pillow, which is not installed: pip install '
            '".[images]" in dmlc\'s checkout (or pip install Pillow)')
    refused(layout, identity_model(target="out.png"), capsys,
            "commands[2].dimensions: an image needs dimensions [1, C, H, W] with C 1 (grey), 3 (RGB) or 4 (RGBA) and "
            "H, W above 0, got none")
    model = identity_model(target="out.png")
    model["commands"][2]["dimensions"] = [1, 1, 2, 2]
    refused(layout, model, capsys,
            'commands[2].targetPath: image files need Pillow, which is not installed: pip install ".[images]" in '
            "dmlc's checkout (or pip install Pillow)")
