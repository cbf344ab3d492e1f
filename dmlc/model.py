"""Models in the JSON format of DirectML's DxDispatch tool, executed by dmlc.

A model has three parts (DxDispatch/doc/Guide.md in github.com/microsoft/DirectML):

- ``resources``: named buffers with initial values: a list, a constant (``value``,
  ``valueCount``), a sequence (``valueStart``, ``valueDelta``, ``valueCount``) or a file
  (``sourcePath``: ``.npy``, raw bytes, or a PNG/JPEG image resampled to ``resampleSize``),
  typed by ``initialValuesDataType``;
- ``dispatchables``: named DirectML operators, a ``type`` and the fields of its desc struct;
- ``commands``: ``dispatch`` (binds resources to the desc's tensors and runs the operator),
  ``print`` and ``writeFile``.

The desc structs are built generically from the declarations of ``directml_py.h`` that
``dmlc.ffi`` holds: the kind of each struct field (tensor desc, tensor desc array, UINT,
UINT or INT array, FLOAT, BOOL, enum, DML_SCALAR_UNION, an optional DML_SCALE_BIAS) says how
its JSON is read, so every operator the header declares is handled by the same code.  The
defaults and output formats follow
DxDispatch's parser and executor (DxDispatch/src/model/JsonParsers.cpp,
DxDispatch/src/dxdispatch/Executor.cpp, DmlDispatchable.cpp); where dmlc differs it says so.

Every fault names its place in the model as a JSON path, e.g.
``dispatchables.join.desc.Axis: expected an unsigned 32-bit integer, got "0"``.

A model may come from anyone, so the files it names are confined (``Paths``): it reads
only inside its own folder and writes only inside the output folder (the current one, or
``dmlc run --output-dir``), unless the user lifts that (``--allow-any-path``).
"""
import json
import math
import os
import re
import sys
import time
import warnings

import numpy as np

from dmlc._core import DTYPES as _CORE_DTYPES
from dmlc._core import HRESULTS
from dmlc._core import OPERATORS as _CORE_OPERATORS
from dmlc.ffi import ffi, last_error, lib

# DML_TENSOR_DATA_TYPE name (without prefix) -> NumPy dtype (little-endian, as DirectML's buffers).
DTYPES = {name: dt.newbyteorder("<") for name, _, dt in _CORE_DTYPES}

HRESULT_NAMES = {value: name for name, value in HRESULTS.items() if value}


class ModelError(Exception):
    """A fault in a model or in running it; path is where in the JSON it lies."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def _key(path, key):
    return f"{path}.{key}" if path else key


def _index(path, i):
    return f"{path}[{i}]"


def _show(value):
    if isinstance(value, _HugeInt):
        return f"an integer literal of {value.digits} digits"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _hresult(hr):
    return HRESULT_NAMES.get(hr, f"0x{hr & 0xFFFFFFFF:08X}")


# ---- JSON with comments ------------------------------------------------------------------

# DxDispatch parses models with RapidJSON's kParseCommentsFlag | kParseTrailingCommasFlag |
# kParseStopWhenDoneFlag: // and /* */ comments, trailing commas and anything after the root
# value are allowed.  Comments and trailing commas are blanked out character for character
# (so JSON error positions still point into the file as written), then the standard
# library's C decoder reads the text.  Each pass is linear in the size of the model: one
# regular expression skips, in C, the longest stretch holding nothing to blank (strings
# whole, whatever they contain), and Python sees only what is blanked, which it passes
# once.  An unterminated string ends at its line (JSON then reports it).
# Possessive quantifiers (Python 3.11) spare the engine its backtracking records: four times
# faster, and just as linear without them.
_P = "+" if sys.version_info >= (3, 11) else ""
_STRING = r'"[^"\\\n]*' + _P + r'(?:\\.[^"\\\n]*' + _P + r')*' + _P + r'"?'
_UNTIL_COMMENT = re.compile(r'(?:[^"/]+' + _P + "|" + _STRING + r"|/(?![/*]))*" + _P)
_UNTIL_TRAILING_COMMA = re.compile(r'(?:[^",]+' + _P + "|" + _STRING + r"|,(?!\s*[\]}]))*" + _P)
_MAY_COMMENT = re.compile(r"/[/*]")
_MAY_TRAILING_COMMA = re.compile(r",\s*[\]}]")
_NOT_SPACE = re.compile(r"\S")
_BLANK = re.compile(r"[^\r\n]")


def _blank_comments(text):
    parts, pos = [], 0
    while True:
        start = _UNTIL_COMMENT.match(text, pos).end()
        parts.append(text[pos:start])
        if start == len(text):
            return "".join(parts)
        if text.startswith("//", start):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
        else:
            end = text.find("*/", start + 2)
            if end < 0:
                line, column = _line_column(text, start)
                raise ModelError("", f"invalid JSON at line {line}, column {column}: a /* comment that is never closed")
            end += 2
        parts.append(_BLANK.sub(" ", text[start:end]))
        pos = end


def _blank_trailing_commas(text):
    """Every comma followed by "]" or "}" becomes a space, except one that follows "[", "{",
    "," or ":" ("[, ]" stays an error, as in RapidJSON)."""
    parts, pos = [], 0
    while True:
        comma = _UNTIL_TRAILING_COMMA.match(text, pos).end()
        parts.append(text[pos:comma])
        if comma == len(text):
            return "".join(parts)
        before = comma - 1
        while before >= 0 and text[before] in " \t\r\n":
            before -= 1
        parts.append("," if before < 0 or text[before] in "[{,:" else " ")
        pos = comma + 1


# Integer literals longer than Python reads from text by default (4300 digits; converting
# them costs time quadratic in their length) are far beyond any DirectML type or double:
# such a literal becomes a _HugeInt, which every field refuses by name as too large.
_LONGEST_INT = 4300


class _HugeInt(int):
    """An integer literal of more than _LONGEST_INT digits, kept as its sign times 10**400."""

    def __new__(cls, text):
        value = super().__new__(cls, -10**400 if text.startswith("-") else 10**400)
        value.digits = len(text.lstrip("-"))
        return value


def _parse_int(text):
    return int(text) if len(text) <= _LONGEST_INT else _HugeInt(text)


def _line_column(text, pos):
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def parse_json_document(text):
    """(value, ignored) of a DxDispatch model text: ignored is None, or the (line, column)
    where text after the root value starts, which DxDispatch ignores (so does dmlc)."""
    if _MAY_COMMENT.search(text):  # (a search in C: most models have neither)
        text = _blank_comments(text)
    if _MAY_TRAILING_COMMA.search(text):
        text = _blank_trailing_commas(text)
    start = len(text) - len(text.lstrip())
    try:
        value, end = json.JSONDecoder(parse_int=_parse_int).raw_decode(text, start)
    except json.JSONDecodeError as e:
        raise ModelError("", f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise ModelError("", "invalid JSON: arrays and objects nested deeper than dmlc reads (about "
                             f"{sys.getrecursionlimit()} levels)") from None
    rest = _NOT_SPACE.search(text, end)
    return value, (_line_column(text, rest.start()) if rest else None)


def parse_json(text):
    """The value of a DxDispatch model text (comments and trailing commas allowed)."""
    return parse_json_document(text)[0]


# ---- Scalars -------------------------------------------------------------------------------

def _get(obj, key, path, required=True, default=None):
    if key in obj:
        return obj[key]
    if required:
        raise ModelError(_key(path, key), "required field is missing")
    return default


def _object(value, path, what="an object"):
    if not isinstance(value, dict):
        raise ModelError(path, f"expected {what}, got {_show(value)}")
    return value


def _string(value, path):
    if not isinstance(value, str):
        raise ModelError(path, f"expected a string, got {_show(value)}")
    return value


def _bool(value, path):
    if not isinstance(value, bool):
        raise ModelError(path, f"expected true or false, got {_show(value)}")
    return value


def _int(value, path, lo, hi, what):
    # JSON integers only, as RapidJSON's IsInt64/IsUint64: 2.0 and true are not integers.
    if type(value) is not int:
        raise ModelError(path, f"expected {what}, got {_show(value)}")
    if not lo <= value <= hi:
        raise ModelError(path, f"{value} does not fit in {what}")
    return value


def _uint32(value, path):
    return _int(value, path, 0, 2**32 - 1, "an unsigned 32-bit integer")


def _uint64(value, path):
    return _int(value, path, 0, 2**64 - 1, "an unsigned 64-bit integer")


def _float(value, path):
    """A JSON number, or the strings "nan", "inf" and "-inf" (any case), as DxDispatch reads floats."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # an integer literal beyond any double
            raise ModelError(path, f"{_show(value)} is too large for a floating-point value") from None
    if isinstance(value, str) and value.lower() in ("nan", "inf", "-inf"):
        return float(value.lower())
    raise ModelError(path, f"expected a number or \"nan\", \"inf\", \"-inf\", got {_show(value)}")


def _uint32_list(value, path):
    if not isinstance(value, list):
        raise ModelError(path, f"expected an array of unsigned integers, got {_show(value)}")
    return [_uint32(v, _index(path, i)) for i, v in enumerate(value)]


def _float_list(value, path):
    if not isinstance(value, list):
        raise ModelError(path, f"expected an array of numbers, got {_show(value)}")
    return [_float(v, _index(path, i)) for i, v in enumerate(value)]


def _int32_list(value, path):
    """A `const INT*` field (SLICE1's InputWindowStrides), as DxDispatch's ParseInt32Array."""
    if not isinstance(value, list):
        raise ModelError(path, f"expected an array of signed integers, got {_show(value)}")
    return [_int(v, _index(path, i), -2**31, 2**31 - 1, "a signed 32-bit integer") for i, v in enumerate(value)]


# ---- Enums, read from the header -----------------------------------------------------------

_ENUMS = {}


def _enum_table(cname):
    """(name -> value, prefix) of a header enum; the prefix is what the short names omit,
    e.g. DML_PADDING_MODE_ for DML_PADDING_MODE, DML_TENSOR_FLAG_ for DML_TENSOR_FLAGS."""
    table = _ENUMS.get(cname)
    if table is None:
        names = ffi.typeof(cname).relements
        prefix = os.path.commonprefix(list(names))
        prefix = prefix[:prefix.rfind("_") + 1]
        table = _ENUMS[cname] = (dict(names), prefix)
    return table


def _enum(value, cname, path):
    """An enum value by its full name or its suffix (FLOAT32 for DML_TENSOR_DATA_TYPE_FLOAT32);
    names are case-sensitive, as in DxDispatch."""
    names, prefix = _enum_table(cname)
    if not isinstance(value, str):
        raise ModelError(path, f"expected a {cname} name as a string, got {_show(value)}")
    if value in names:
        return names[value]
    if prefix + value in names:
        return names[prefix + value]
    short = [n[len(prefix):] for n in sorted(names, key=names.get)]
    raise ModelError(path, f"{_show(value)} is not a {cname}; expected one of {', '.join(short)} "
                           f"(with or without the {prefix} prefix)")


def _flags(value, cname, path):
    """A flags enum: one name or an array of names OR'd together (DxDispatch's ParseFlags)."""
    if isinstance(value, list):
        result = 0
        for i, v in enumerate(value):
            result |= _enum(v, cname, _index(path, i))
        return result
    return _enum(value, cname, path)


def _data_type_name(value):
    names, prefix = _enum_table("DML_TENSOR_DATA_TYPE")
    for name, v in names.items():
        if v == value:
            return name[len(prefix):]
    return str(value)


# ---- Typed values --------------------------------------------------------------------------

def _typed(value, type_name, path):
    """One JSON value as a NumPy scalar of a DML data type, converted as DxDispatch does:
    floats go double -> float -> half, integers must be JSON integers in range."""
    dtype = DTYPES[type_name]
    if dtype.kind == "f":
        v = _float(value, path)
        with np.errstate(over="ignore"):
            return np.float64(v) if dtype.itemsize == 8 else np.float32(v).astype(dtype)
    info = np.iinfo(dtype)
    what = f"{'an' if type_name.startswith('I') else 'a'} {type_name} integer"
    return dtype.type(_int(value, path, int(info.min), int(info.max), what))


def _typed_array(values, type_name, path):
    dtype = DTYPES[type_name]
    return np.array([_typed(v, type_name, _index(path, i)) for i, v in enumerate(values)], dtype)


def _sequence(start, delta, count, type_name):
    """valueStart, valueStart + valueDelta, ... in the type's own arithmetic, as DxDispatch's
    `value += valueDelta` loop: floats round after every step, integers wrap around."""
    dtype = DTYPES[type_name]
    if count == 0:
        return np.zeros(0, dtype)
    if dtype.kind == "f":
        # add.accumulate runs strictly in order, rounding to dtype at every step.
        steps = np.full(count, delta, dtype)
        steps[0] = start
        with np.errstate(over="ignore", invalid="ignore"):  # inf and nan are values like any other
            return np.add.accumulate(steps, dtype=dtype)
    # start + i * delta modulo 2**64, then truncated: the same bits as wrapping in the type.
    mask = 2**64 - 1
    seq = np.uint64(int(start) & mask) + np.uint64(int(delta) & mask) * np.arange(count, dtype=np.uint64)
    return seq.astype(np.dtype(f"<u{dtype.itemsize}")).view(dtype)


# ---- Resources -----------------------------------------------------------------------------

class Resource:
    """A buffer: its bytes, and the data type and byte count of its initial values (which
    decide how print shows it and how bindings measure element offsets)."""

    def __init__(self, name, type_name, initial_nbytes, buffer):
        self.name = name
        self.type_name = type_name            # None for UNKNOWN (a list of mixed types)
        self.initial_nbytes = initial_nbytes
        self.buffer = buffer                  # np.uint8 array of sizeInBytes bytes

    @property
    def dtype(self):
        return DTYPES.get(self.type_name)

    @property
    def size(self):
        return self.buffer.size

    def values(self, count=None):
        """The first count elements of the buffer (all that fit by default) as the
        resource's dtype: a view, read after the commands ran to see what they wrote."""
        if count is None:
            count = self.size // self.dtype.itemsize
        return self.buffer[:count * self.dtype.itemsize].view(self.dtype)


# ---- Files a model names -------------------------------------------------------------------

READ_RULE = "a model reads files only inside its own folder"
WRITE_RULE = "a model writes files only inside the output folder, the current folder or --output-dir"
LIFT = "dmlc run --allow-any-path lifts this"


def _within(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class Paths:
    """Where the files a model names may be.  Confined (the default): a ``sourcePath`` is
    relative to the model's folder and must stay inside it, and a ``targetPath`` is relative
    to the output folder and must stay inside it, after symbolic links are resolved;
    absolute paths are refused.  ``allow_any=True`` lifts both rules, and a sourcePath not
    found beside the model is then looked for in the current folder, as DxDispatch does.
    Whatever the rule, a target that exists must be a regular file (writeFile never writes
    into a folder, a device, a pipe or through a dangling link), and a NUL character is
    refused."""

    def __init__(self, model_dir=".", output_dir=None, allow_any=False):
        self.model_dir = os.path.abspath(model_dir)
        self.output_dir = os.path.abspath(output_dir if output_dir is not None else os.getcwd())
        self.allow_any = allow_any

    def _inside(self, name, folder, path, rule, what):
        if "\0" in name:
            raise ModelError(path, f"{json.dumps(name)} holds a NUL character, which no file name can")
        if os.path.isabs(name) and not self.allow_any:
            raise ModelError(path, f"{json.dumps(name)} is an absolute path; {rule} ({LIFT})")
        full = os.path.join(folder, name)
        if not self.allow_any:
            real, root = os.path.realpath(full), os.path.realpath(folder)
            if not _within(real, root):
                how = "through a symbolic link " if _within(os.path.normpath(full), os.path.normpath(folder)) else ""
                raise ModelError(path, f"{json.dumps(name)} leads {how}to {real}, outside {what} {root}; {rule} ({LIFT})")
        return full

    def source(self, name, path):
        """The file a sourcePath names (at JSON path ``path``), checked."""
        full = self._inside(name, self.model_dir, path, READ_RULE, "the model's folder")
        if self.allow_any and not os.path.lexists(full):
            full = os.path.abspath(name)
        if not os.path.lexists(full):
            where = f"{self.model_dir} and in the current directory" if self.allow_any else self.model_dir
            raise ModelError(path, f"file {name!r} not found (looked in {where})")
        if not os.path.isfile(full):
            raise ModelError(path, f"{name!r} is not a regular file (a folder, a device, a pipe or a dangling link)")
        return full

    def target(self, name, path):
        """The file a targetPath names (at JSON path ``path``), checked."""
        full = self._inside(name, self.output_dir, path, WRITE_RULE, "the output folder")
        if os.path.lexists(full) and not os.path.isfile(full):
            raise ModelError(path, f"{json.dumps(name)} exists and is not a regular file (a folder, a device, a pipe or a "
                                   f"dangling link); writeFile replaces regular files only")
        parent = os.path.dirname(full)
        while not os.path.lexists(parent) and os.path.dirname(parent) != parent:
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise ModelError(path, f"{json.dumps(name)} cannot be written: {parent} is a file, not a folder")
        return full


def read_npy_header(f):
    """(shape, fortran_order, dtype) of the .npy file open as f, left at its data, checked
    against the file's size before anything is allocated: a ValueError names what is wrong
    (not an .npy, an .npz, another format version, objects, a header declaring more data
    than the file holds)."""
    fmt = np.lib.format
    version = fmt.read_magic(f)  # ValueError for anything that is not an .npy (an .npz is a zip file)
    read_header = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}.get(version)
    if read_header is None:
        raise ValueError(f"it is a version {version[0]}.{version[1]} .npy file; dmlc reads versions 1.0 and 2.0")
    shape, fortran, dtype = read_header(f)
    if dtype.hasobject:
        raise ValueError(f"it holds Python objects ({dtype}), not numbers")
    need = math.prod(shape) * dtype.itemsize
    have = os.fstat(f.fileno()).st_size - f.tell()
    if need > have:
        raise ValueError(f"its header declares shape {shape} of {dtype} ({need} bytes), but the file holds {have} "
                         f"bytes of data")
    return shape, fortran, dtype


def read_npy(path):
    """The array of an .npy file, its header checked first (read_npy_header)."""
    with open(path, "rb") as f:
        shape, fortran, dtype = read_npy_header(f)
        count = math.prod(shape)
        data = np.fromfile(f, dtype, count) if count else np.zeros(0, dtype)
    return data.reshape(shape, order="F" if fortran else "C")


def _pillow(path):
    """PIL.Image, or a ModelError at path naming the extra that brings it."""
    try:
        from PIL import Image
    except ImportError:
        raise ModelError(path, "image files need Pillow, which is not installed: pip install \".[images]\" in "
                               "dmlc's checkout (or pip install Pillow)") from None
    return Image


# The channels of an image tensor as Pillow's modes (DxDispatch: RGB, RGBA; grey for writing).
_IMAGE_MODES = {1: "L", 3: "RGB", 4: "RGBA"}
_IMAGE_TYPES = ("FLOAT32", "FLOAT16")
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg")


def _image_values(full, source, spath, obj, path, type_name, type_path):
    """(bytes, data type) of an image sourcePath, as DxDispatch's ReadTensorFromImage: the
    image converted to the channels of the resource's resampleSize [1, C, H, W], scaled to
    H x W (bicubic) when its size differs, stored as C planes of H x W (NCHW) of pixel / 255
    in initialValuesDataType (FLOAT32 or FLOAT16)."""
    rpath = _key(path, "resampleSize")
    if "resampleSize" not in obj:
        raise ModelError(rpath, "required for an image sourcePath: [1, C, H, W], C 1 (grey), 3 (RGB) or 4 (RGBA)")
    size = _uint32_list(obj["resampleSize"], rpath)
    if len(size) != 4 or size[0] != 1 or size[1] not in _IMAGE_MODES or 0 in size[2:]:
        raise ModelError(rpath, f"expected [1, C, H, W] with C 1 (grey), 3 (RGB) or 4 (RGBA) and H, W above 0, got "
                                f"{size}")
    mode = obj.get("resampleMode", "scale")
    if mode != "scale":
        raise ModelError(_key(path, "resampleMode"), f'expected "scale" (the only mode), got {_show(mode)}')
    if type_name not in _IMAGE_TYPES:
        raise ModelError(type_path, f"an image is read as FLOAT32 or FLOAT16 values from 0 to 1, so this must be one "
                                    f"of them, not {type_name or 'absent'}")
    Image = _pillow(spath)
    _, channels, height, width = size
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)  # an error, not a warning
            with Image.open(full) as image:
                image = image.convert(_IMAGE_MODES[channels])
                if image.size != (width, height):
                    image = image.resize((width, height), Image.Resampling.BICUBIC)
                pixels = np.asarray(image, np.uint8).reshape(height, width, channels)
    except MemoryError:
        raise ModelError(rpath, f"not enough memory for a {width} x {height} image") from None
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        raise ModelError(spath, f"cannot read {source!r} as an image: {_one_line(e)}") from None
    values = pixels.transpose(2, 0, 1).astype(np.float32) / np.float32(255)
    return values.astype(DTYPES[type_name]).reshape(-1).view(np.uint8), type_name


def _one_line(error):
    return " ".join(str(error).split()) or type(error).__name__


def _file_values(spec, path, paths, type_name, type_path, obj, resource_path):
    """(bytes, data type name) of a sourcePath initializer: an .npy, an image (.png, .jpg),
    or raw bytes; the file is found by paths (beside the model)."""
    spath = _key(path, "sourcePath")
    source = _string(_get(spec, "sourcePath", path), spath)
    full = paths.source(source, spath)
    ext = os.path.splitext(full)[1].lower()
    if ext in IMAGE_EXTENSIONS:
        return _image_values(full, source, spath, obj, resource_path, type_name, type_path)
    if ext != ".npy":
        if type_name is None:
            raise ModelError(type_path, "required for raw binary data")
        try:
            with open(full, "rb") as f:
                return np.frombuffer(f.read(), np.uint8), type_name
        except OSError as e:
            raise ModelError(spath, f"cannot read {source!r}: {e.strerror or e}") from None
        except MemoryError:
            raise ModelError(spath, f"not enough memory to read {source!r}") from None
    try:
        arr = read_npy(full)
    except (OSError, ValueError, EOFError) as e:
        raise ModelError(spath, f"cannot read {source!r} as a NumPy array: {_one_line(e)}") from None
    except MemoryError:
        raise ModelError(spath, f"not enough memory to read {source!r}") from None
    if arr.dtype.kind == "b":
        arr = arr.view(np.uint8)  # DxDispatch reads NumPy's bool ('?') as UINT8
    file_type = next((n for n, d in DTYPES.items() if d.kind == arr.dtype.kind and d.itemsize == arr.dtype.itemsize),
                     None)
    if file_type is None:
        raise ModelError(spath, f"{source!r} holds {arr.dtype}, which is not a DirectML data type")
    if type_name is not None and type_name != file_type:
        raise ModelError(spath, f"the data type of {source!r} ({file_type}) does not match initialValuesDataType "
                                f"({type_name})")
    # Row-major little-endian bytes whatever the file's order (DxDispatch swaps big-endian
    # data too; it rejects Fortran order, which dmlc reads in its logical order instead).
    data = np.ascontiguousarray(arr, DTYPES[file_type])
    return data.reshape(-1).view(np.uint8), file_type


def _parse_resource(name, obj, path, paths):
    obj = _object(obj, path, "a buffer resource object")
    tpath = _key(path, "initialValuesDataType")
    type_name = None
    if "initialValuesDataType" in obj:
        type_name = _data_type_name(_enum(obj["initialValuesDataType"], "DML_TENSOR_DATA_TYPE", tpath))
        if type_name == "UNKNOWN":
            type_name = None
        elif type_name not in DTYPES:
            raise ModelError(tpath, f"{type_name} buffers are not supported")
    ipath = _key(path, "initialValues")
    init = _get(obj, "initialValues", path)

    def need_type():
        if type_name is None:
            raise ModelError(tpath, "required for this kind of initialValues")

    try:
        if isinstance(init, list):
            if type_name is None:
                data = _mixed_list(init, ipath)
            else:
                data = _typed_array(init, type_name, ipath).view(np.uint8)
        elif isinstance(init, dict):
            if "value" in init:
                if "valueStart" in init or "sourcePath" in init:
                    raise ModelError(ipath, "value, valueStart and sourcePath are mutually exclusive")
                need_type()
                count = _uint32(_get(init, "valueCount", ipath), _key(ipath, "valueCount"))
                value = _typed(init["value"], type_name, _key(ipath, "value"))
                data = np.full(count, value, DTYPES[type_name]).view(np.uint8)
            elif "valueStart" in init:
                need_type()
                count = _uint32(_get(init, "valueCount", ipath), _key(ipath, "valueCount"))
                start = _typed(init["valueStart"], type_name, _key(ipath, "valueStart"))
                delta = _typed(_get(init, "valueDelta", ipath), type_name, _key(ipath, "valueDelta"))
                data = _sequence(start, delta, count, type_name).view(np.uint8)
            elif "sourcePath" in init:
                data, type_name = _file_values(init, ipath, paths, type_name, tpath, obj, path)
            else:
                raise ModelError(ipath, "expected a constant (value, valueCount), a sequence (valueStart, valueDelta, "
                                        "valueCount) or a file (sourcePath)")
        elif init == "deferred":
            raise ModelError(ipath, "deferred resources (bound by ONNX models) are not supported by dmlc")
        else:
            raise ModelError(ipath, f"expected an array of values or an object, got {_show(init)}")
        if data.size == 0:
            raise ModelError(ipath, "must not be empty")

        offset = _uint64(_get(obj, "initialValuesOffsetInBytes", path, False, 0),
                         _key(path, "initialValuesOffsetInBytes"))
        if "sizeInBytes" in obj:
            size = _uint64(obj["sizeInBytes"], _key(path, "sizeInBytes"))
        else:
            size = (data.size + 3) // 4 * 4  # rounded up to DirectML's 4-byte multiple
        if data.size + offset > size:
            raise ModelError(_key(path, "sizeInBytes"),
                             f"the buffer ({size} bytes) is too small for the initialValues ({data.size} bytes) "
                             f"at offset {offset} bytes")
        try:
            # Whole 8-byte words, so every element type is aligned.
            buffer = np.zeros((size + 7) // 8, np.uint64).view(np.uint8)[:size]
        except ValueError:  # NumPy: larger than any array can be
            raise MemoryError from None
    except MemoryError:
        raise ModelError(path, "not enough memory for this buffer") from None
    buffer[offset:offset + data.size] = data
    return Resource(name, type_name, int(data.size), buffer)


def _mixed_list(values, path):
    """initialValues with initialValuesDataType UNKNOWN: [{"type": "UINT32", "value": 6}, ...]
    packed back to back (DxDispatch's list initializer, for constant buffers)."""
    parts = []
    for i, item in enumerate(values):
        ipath = _index(path, i)
        if not isinstance(item, dict):
            raise ModelError(ipath, f'expected an object {{"type": ..., "value": ...}}, got {_show(item)} (a list of '
                                    f'plain values needs an initialValuesDataType)')
        type_name = _data_type_name(_enum(_get(item, "type", ipath), "DML_TENSOR_DATA_TYPE", _key(ipath, "type")))
        if type_name not in DTYPES:
            raise ModelError(_key(ipath, "type"), f"{type_name} values are not supported")
        parts.append(np.array([_typed(_get(item, "value", ipath), type_name, _key(ipath, "value"))],
                              DTYPES[type_name]).view(np.uint8))
    return np.concatenate(parts) if parts else np.zeros(0, np.uint8)


# ---- Operator descs, built from the header's declarations ---------------------------------

def _schema_of(struct):
    """The schema entry (src/schema.def, dmlc.schema) of desc struct, or None."""
    from dmlc import schema
    for op in schema.operators():
        if op.struct == struct:
            return op
    return None


def _union_type_field(struct, fname):
    """The field giving the type of the DML_SCALAR_UNION field fname of struct (src/schema.def
    says which); fname + "DataType" for a desc the schema lacks."""
    op = _schema_of(struct)
    return op.field(fname).typed_by if op else fname + "DataType"


def _optional_tensors(struct):
    """The tensor fields of struct that may be left out of a desc and its bindings (DirectML's
    _Maybenull_, DMLC_FIELD_OPTIONAL in src/schema.def: MAX_POOLING2's OutputIndicesTensor,
    DIAGONAL_MATRIX1's InputTensor)."""
    op = _schema_of(struct)
    return {f.name for f in op.fields if f.is_tensor and f.optional} if op else set()


def _int_fields(struct):
    """The INT fields of struct (DIAGONAL_MATRIX's Offset): C int like BOOL to cffi, told apart
    by the schema."""
    op = _schema_of(struct)
    return {f.name for f in op.fields if f.type == "INT"} if op else set()


def operator_struct(op_name):
    """The desc struct of DML_OPERATOR_X (DML_X_OPERATOR_DESC), or None when the header does
    not declare it (dmlc does not implement the operator)."""
    struct = "DML_" + op_name[len("DML_OPERATOR_"):] + "_OPERATOR_DESC"
    try:
        ffi.typeof(struct)
    except Exception:  # cffi raises CDefError for unknown names
        return None
    return struct


def implemented_operators():
    """src/schema.def's operators by DML_OPERATOR_TYPE value, each once (an alias such as
    DML_OPERATOR_SCATTER, SCATTER_ELEMENTS' value, is accepted but not listed)."""
    return ["DML_OPERATOR_" + name for name, _, _ in sorted(_CORE_OPERATORS, key=lambda op: op[1])]


class BindPoint:
    """A tensor field of a desc: its name, whether the operator reads or writes it, and the
    TotalTensorSizeInBytes of each of its slots (one, or one per array element)."""

    def __init__(self, name, totals, present=True, optional=False):
        self.name = name
        self.is_input = not name.startswith("Output")  # InputTensor, IndicesTensor, ...: DirectML names outputs Output*
        self.totals = totals
        self.present = present
        self.optional = optional


class Dispatchable:
    def __init__(self, name, op_name, struct, desc, keep, bind_points, op):
        self.name = name
        self.op_name = op_name
        self.struct = struct
        self.desc = desc
        self.keep = keep
        self.bind_points = bind_points
        self.op = op

    def bind_point(self, name):
        return next((b for b in self.bind_points if b.name == name), None)


class _Builder:
    """Turns the JSON of one desc into cffi structs; keeps every allocation alive."""

    def __init__(self):
        self.keep = []

    def new(self, ctype, init=None):
        obj = ffi.new(ctype, init)
        self.keep.append(obj)
        return obj

    def uints(self, values, ctype="UINT"):
        # An empty array is NULL, as DxDispatch's AsPointer makes it.
        return self.new(f"{ctype}[]", values) if values else ffi.NULL

    def struct_value(self, value, ctype, path):
        """A struct of UINT fields by value (DML_SIZE_2D) from a JSON object naming each."""
        obj = _object(value, path)
        names = [n for n, _ in ctype.fields]
        for k in obj:
            if k not in names:
                raise ModelError(_key(path, k), f"{ctype.cname} has no field {k!r} (its fields: {', '.join(names)})")
        return {n: _uint32(_get(obj, n, path), _key(path, n)) for n in names}

    def struct_pointer(self, value, ctype, path):
        """An optional pointer to a struct of scalars (DML_SCALE_BIAS): NULL when the field is
        absent or null, else an object with every field of the struct, as DxDispatch reads
        ScaleBias ({"Scale": 2, "Bias": 10})."""
        if value is None:
            return ffi.NULL
        obj = _object(value, path, f"a {ctype.cname} object or null")
        names = [n for n, _ in ctype.fields]
        unknown = [k for k in obj if k not in names]
        if unknown:
            raise ModelError(_key(path, unknown[0]), f"{ctype.cname} has no field {unknown[0]!r} (its fields: "
                                                     f"{', '.join(names)})")
        init = {}
        for fname, field in ctype.fields:
            if field.type.kind != "primitive" or field.type.cname != "float":
                raise ModelError(_key(path, fname), f"dmlc cannot read a {field.type.cname} field")
            init[fname] = _float(_get(obj, fname, path), _key(path, fname))
        return self.new(f"{ctype.cname}*", init)

    def buffer_tensor(self, obj, path):
        """The fields of a DML_TENSOR_DESC with DxDispatch's defaults: Type BUFFER, Flags
        NONE, DimensionCount from Sizes, Strides NULL, TotalTensorSizeInBytes computed
        (DMLCalcBufferTensorSize) when absent or 0, GuaranteedBaseOffsetAlignment 0."""
        obj = _object(obj, path, "a tensor desc object")
        tensor_type = _enum(obj.get("Type", "DML_TENSOR_TYPE_BUFFER"), "DML_TENSOR_TYPE", _key(path, "Type"))
        fields = {"DataType", "Flags", "DimensionCount", "Sizes", "Strides", "TotalTensorSizeInBytes",
                  "GuaranteedBaseOffsetAlignment"}
        if "Desc" in obj:
            outer_unknown = [k for k in obj if k not in ("Type", "Desc")]
            if outer_unknown:
                raise ModelError(_key(path, outer_unknown[0]), "unexpected field beside Type and Desc")
            path = _key(path, "Desc")
            obj = _object(obj["Desc"], path, "a DML_BUFFER_TENSOR_DESC object")
        else:
            fields.add("Type")
        unknown = [k for k in obj if k not in fields]
        if unknown:
            raise ModelError(_key(path, unknown[0]), f"DML_BUFFER_TENSOR_DESC has no field {unknown[0]!r} "
                                                     f"(its fields: {', '.join(sorted(fields - {'Type'}))})")
        data_type = _enum(_get(obj, "DataType", path), "DML_TENSOR_DATA_TYPE", _key(path, "DataType"))
        sizes = _uint32_list(_get(obj, "Sizes", path), _key(path, "Sizes"))
        strides = obj.get("Strides")
        strides = _uint32_list(strides, _key(path, "Strides")) if strides is not None else []
        if "DimensionCount" in obj:
            dims = _uint32(obj["DimensionCount"], _key(path, "DimensionCount"))
            if dims != len(sizes):
                raise ModelError(_key(path, "DimensionCount"), f"is {dims}, but Sizes has {len(sizes)} values")
        else:
            dims = len(sizes)
        if strides and len(strides) != dims:
            raise ModelError(_key(path, "Strides"), f"has {len(strides)} values, but the tensor has {dims} dimensions")
        flags = _flags(obj.get("Flags", "DML_TENSOR_FLAG_NONE"), "DML_TENSOR_FLAGS", _key(path, "Flags"))
        total = _uint64(obj.get("TotalTensorSizeInBytes", 0), _key(path, "TotalTensorSizeInBytes"))
        sizes_c, strides_c = self.uints(sizes), self.uints(strides)
        if total == 0:
            computed = ffi.new("UINT64*")
            if lib.dmlcCalcBufferTensorSize(data_type, dims, sizes_c, strides_c, computed) == 0:
                total = computed[0]
            # else: left 0, and creating the operator reports what is wrong with the tensor.
        align = _uint32(obj.get("GuaranteedBaseOffsetAlignment", 0), _key(path, "GuaranteedBaseOffsetAlignment"))
        buf = self.new("DML_BUFFER_TENSOR_DESC*", {
            "DataType": data_type, "Flags": flags, "DimensionCount": dims, "Sizes": sizes_c, "Strides": strides_c,
            "TotalTensorSizeInBytes": total, "GuaranteedBaseOffsetAlignment": align})
        return tensor_type, buf, total

    def scalar_union(self, value, data_type, path):
        """A DML_SCALAR_UNION holding value as data_type: a JSON number converted to the type,
        or an object naming the union member ({"Int64": ...}; {"UInt16": bits} for FLOAT16),
        as DxDispatch's ParseDmlScalarUnion reads it."""
        type_name = _data_type_name(data_type)
        if type_name not in DTYPES:
            raise ModelError(path, f"{type_name} is not a data type a DML_SCALAR_UNION can hold")
        member = {"FLOAT16": "UInt16", "FLOAT32": "Float32", "FLOAT64": "Float64"}.get(
            type_name, type_name.title().replace("Uint", "UInt"))
        union = self.new("DML_SCALAR_UNION*")  # kept: union[0] below refers into it
        if isinstance(value, dict):
            mpath = _key(path, member)
            bits_type = "UINT16" if type_name == "FLOAT16" else type_name
            scalar = _typed(_get(value, member, path), bits_type, mpath)
        elif isinstance(value, (int, float, str)) and not isinstance(value, bool):
            if type_name.startswith("UINT") and type(value) is int and -(1 << (int(type_name[4:]) - 1)) <= value < 0:
                value += 1 << int(type_name[4:])  # a negative number for an unsigned type: modulo 2^bits
            scalar = _typed(value, type_name, path)
            if type_name == "FLOAT16":
                scalar = scalar.view(np.uint16)
        else:
            raise ModelError(path, f"expected a number or an object such as {{\"{member}\": ...}}, got {_show(value)}")
        setattr(union, member, scalar.item())
        return union[0]

    def operator(self, op_name, struct, desc, dpath, reserved):
        """The DML_OPERATOR_DESC* of desc (a JSON object) and its bind points."""
        fields = ffi.typeof(struct).fields
        names = [n for n, _ in fields]
        unknown = [k for k in desc if k not in names and k not in reserved]
        if unknown:
            raise ModelError(_key(dpath, unknown[0]), f"{struct} has no field {unknown[0]!r} "
                                                      f"(its fields: {', '.join(names)})")
        kinds = {n: f.type.kind for n, f in fields}
        init, bind_points, later = {}, [], []
        optional, ints = _optional_tensors(struct), _int_fields(struct)
        counts = {}       # count field -> (length of its tensor array, the array's path)
        arrays = {}       # UINT array field -> its length
        for fname, field in fields:
            ftype, fpath = field.type, _key(dpath, fname)
            if ftype.kind == "pointer" and ftype.item.cname == "DML_TENSOR_DESC":
                if fname.endswith("Tensors"):
                    # An array of tensor descs with its count field: OutputTensors/OutputCount.
                    items = _get(desc, fname, dpath)
                    if not isinstance(items, list):
                        raise ModelError(fpath, f"expected an array of tensor descs, got {_show(items)}")
                    parsed = [self.buffer_tensor(t, _index(fpath, i)) for i, t in enumerate(items)]
                    array = self.new("DML_TENSOR_DESC[]", len(parsed)) if parsed else ffi.NULL
                    for i, (ttype, buf, _) in enumerate(parsed):
                        array[i].Type, array[i].Desc = ttype, buf
                    init[fname] = array
                    counts[fname[:-len("Tensors")] + "Count"] = (len(parsed), fname)
                    bind_points.append(BindPoint(fname, [total for _, _, total in parsed]))
                elif desc.get(fname) is None and fname in optional:
                    init[fname] = ffi.NULL
                    bind_points.append(BindPoint(fname, [0], present=False, optional=True))
                else:
                    ttype, buf, total = self.buffer_tensor(_get(desc, fname, dpath), fpath)
                    init[fname] = self.new("DML_TENSOR_DESC*", {"Type": ttype, "Desc": buf})
                    bind_points.append(BindPoint(fname, [total], optional=fname in optional))
            elif ftype.kind == "pointer" and ftype.item.cname == "unsigned int":
                values = _uint32_list(_get(desc, fname, dpath), fpath)
                init[fname] = self.uints(values)
                arrays[fname] = len(values)
            elif ftype.kind == "pointer" and ftype.item.cname == "int":
                values = _int32_list(_get(desc, fname, dpath), fpath)
                init[fname] = self.uints(values, "INT")
                arrays[fname] = len(values)
            elif ftype.kind == "pointer" and ftype.item.cname == "float":
                values = _float_list(_get(desc, fname, dpath), fpath)
                init[fname] = self.new("FLOAT[]", values) if values else ffi.NULL
                arrays[fname] = len(values)
            elif ftype.kind == "struct":
                # A struct by value (DML_SIZE_2D): an object with its fields ({"Width", "Height"}).
                init[fname] = self.struct_value(_get(desc, fname, dpath), ftype, fpath)
            elif ftype.kind == "pointer" and ftype.item.kind == "struct":
                # DirectML's struct pointers besides tensors are optional (_Maybenull_).
                init[fname] = self.struct_pointer(desc.get(fname), ftype.item, fpath)
            elif ftype.kind == "primitive" and ftype.cname == "unsigned int":
                later.append(fname)  # counts are checked against the arrays they count
            elif ftype.kind == "primitive" and ftype.cname == "float":
                init[fname] = _float(_get(desc, fname, dpath), fpath)
            elif ftype.kind == "primitive" and ftype.cname == "int" and fname in ints:
                init[fname] = _int(_get(desc, fname, dpath), fpath, -2**31, 2**31 - 1, "a signed 32-bit integer")
            elif ftype.kind == "primitive" and ftype.cname == "int":
                # BOOL (IncludePadding): DxDispatch's ParseBoolField takes JSON true/false only.
                init[fname] = int(_bool(_get(desc, fname, dpath), fpath))
            elif ftype.kind == "enum":
                init[fname] = _enum(_get(desc, fname, dpath), ftype.cname, fpath)
            elif ftype.kind == "union" and ftype.cname == "DML_SCALAR_UNION":
                later.append(fname)  # its type is the sibling ...DataType field
            else:
                raise ModelError(fpath, f"dmlc cannot read a {ftype.cname} field")
        for fname in later:
            fpath = _key(dpath, fname)
            if kinds[fname] == "union":
                # The DML_TENSOR_DATA_TYPE field that says what it holds, from the schema
                # (PaddingValueDataType; FILL_VALUE_SEQUENCE's ValueDataType types two unions).
                type_field = _union_type_field(struct, fname)
                if type_field not in init:
                    raise ModelError(fpath, f"{struct} has no {type_field} field to give its type")
                init[fname] = self.scalar_union(_get(desc, fname, dpath), init[type_field], fpath)
            elif fname in counts:
                # DxDispatch requires OutputCount/InputCount; dmlc derives them from the array.
                length, array_name = counts[fname]
                init[fname] = length
                if fname in desc and _uint32(desc[fname], fpath) != length:
                    raise ModelError(fpath, f"is {desc[fname]}, but {array_name} has {length} tensor descs")
            elif fname.endswith("Count") and (fname[:-len("Count")] in arrays or fname[:-len("Count")] + "s" in arrays):
                # The length of the array it names (TILE's RepeatsCount of Repeats, RESAMPLE's
                # ScaleCount of Scales): the core reads that many values, so another number is
                # refused; absent, it is derived.
                array_name = fname[:-len("Count")]
                array_name = array_name if array_name in arrays else array_name + "s"
                length = arrays[array_name]
                if fname in desc and _uint32(desc[fname], fpath) != length:
                    raise ModelError(fpath, f"is {desc[fname]}, but {array_name} has {length} values")
                init[fname] = length
            elif fname == "DimensionCount" and arrays:
                # The length of every array of the desc (StartPadding, InputWindowStrides, ...).
                # DxDispatch requires it; dmlc derives it from the arrays when it is absent.
                first = next(iter(arrays))
                if fname in desc:
                    dims, rule = _uint32(desc[fname], fpath), f"DimensionCount is {desc[fname]}"
                else:
                    dims, rule = arrays[first], f"{first} has {arrays[first]}"
                for aname, length in arrays.items():
                    if length != dims:
                        raise ModelError(_key(dpath, aname), f"has {length} values, but {rule}")
                init[fname] = dims
            else:
                init[fname] = _uint32(_get(desc, fname, dpath), fpath)
        body = self.new(f"{struct}*", init)
        op_type = _enum_table("DML_OPERATOR_TYPE")[0][op_name]
        return self.new("DML_OPERATOR_DESC*", {"Type": op_type, "Desc": body}), bind_points


# Dispatchable members that are not desc fields when the desc is written inline.
_DISPATCHABLE_KEYS = {"type", "Type", "bindings", "executionFlags", "dmlCompileType"}


def _parse_dispatchable(name, obj, path):
    obj = _object(obj, path, "a dispatchable object")
    tkey = "Type" if "Type" in obj and "type" not in obj else "type"
    tpath = _key(path, tkey)
    type_name = _string(_get(obj, tkey, path), tpath)
    if type_name.lower() in ("hlsl", "onnx", "dmlserializedgraph"):
        raise ModelError(tpath, f"{type_name} dispatchables are not supported by dmlc, which runs DirectML operators")
    names, prefix = _enum_table("DML_OPERATOR_TYPE")
    op_name = type_name if type_name in names else prefix + type_name
    if op_name not in names or op_name == "DML_OPERATOR_INVALID":
        raise ModelError(tpath, f"{_show(type_name)} is not a DirectML operator type")
    struct = operator_struct(op_name)
    if struct is None:
        raise ModelError(tpath, f"{op_name} is not implemented by dmlc (it implements "
                                f"{', '.join(implemented_operators())})")
    if "Desc" in obj or "desc" in obj:
        dkey = "Desc" if "Desc" in obj else "desc"
        dpath = _key(path, dkey)
        desc, reserved = _object(obj[dkey], dpath, f"a {struct} object"), ()
    else:
        # DxDispatch also reads the desc fields from the dispatchable itself.
        desc, dpath, reserved = obj, path, _DISPATCHABLE_KEYS
    builder = _Builder()
    op_desc, bind_points = builder.operator(op_name, struct, desc, dpath, reserved)
    # DxDispatch creates every operator before running any command; so does dmlc, which
    # validates each desc here, once.
    handle = ffi.new("DMLC_OPERATOR**")
    hr = lib.dmlcCreateOperator(op_desc, handle)
    if hr != 0:
        raise ModelError(path, f"cannot create the operator: {last_error()} ({_hresult(hr)})")
    op = ffi.gc(handle[0], lib.dmlcReleaseOperator)
    return Dispatchable(name, op_name, struct, op_desc, builder.keep, bind_points, op)


# ---- Commands ------------------------------------------------------------------------------

class Binding:
    def __init__(self, resource, offset, size):
        self.resource = resource
        self.offset = offset
        self.size = size


class Command:
    def __init__(self, kind, path, **fields):
        self.kind = kind
        self.path = path
        self.__dict__.update(fields)


def _resource(name, resources, path):
    name = _string(name, path)
    if name not in resources:
        raise ModelError(path, f"no resource named {name!r}")
    return resources[name]


def _parse_binding(source, bind_point, slot, resources, path):
    """One resource bound to one tensor slot: a name, or {"name", "elementOffset", ...}.

    As in DxDispatch, the range starts elementOffset elements into the buffer (elements of
    elementSizeInBytes, else of the resource's initialValuesDataType) and runs to the end of
    the buffer; elementCount is not used by DirectML operators.  dmlc binds only the
    tensor's TotalTensorSizeInBytes of that range, so that outputs written into disjoint
    parts of one buffer are not taken for overlapping ones."""
    if isinstance(source, str):
        resource, element_offset, element_size = _resource(source, resources, path), 0, 0
    elif isinstance(source, dict):
        resource = _resource(_get(source, "name", path), resources, _key(path, "name"))
        element_offset = _uint64(source.get("elementOffset", 0), _key(path, "elementOffset"))
        element_size = _uint64(source.get("elementSizeInBytes", 0), _key(path, "elementSizeInBytes"))
        _uint64(source.get("elementCount", 0), _key(path, "elementCount"))
    else:
        raise ModelError(path, f"expected a resource name or a binding object, got {_show(source)}")
    if element_size == 0 and resource.dtype is not None:
        element_size = resource.dtype.itemsize
    offset = element_offset * element_size
    need = bind_point.totals[slot]
    if offset > resource.size or resource.size - offset < need:
        raise ModelError(path, f"the {bind_point.name} tensor needs {need} bytes (its TotalTensorSizeInBytes), but "
                               f"resource {resource.name!r} has {max(resource.size - offset, 0)} bytes from byte "
                               f"{offset} on")
    return Binding(resource, offset, need)


def _parse_dispatch(cmd, path, resources, dispatchables):
    dname = _string(_get(cmd, "dispatchable", path), _key(path, "dispatchable"))
    if dname not in dispatchables:
        raise ModelError(_key(path, "dispatchable"), f"no dispatchable named {dname!r}")
    disp = dispatchables[dname]
    bpath = _key(path, "bindings")
    bindings = _object(_get(cmd, "bindings", path), bpath, "an object mapping tensor names to resources")
    slots = {}
    for bp_name, sources in bindings.items():
        spath = _key(bpath, bp_name)
        bp = disp.bind_point(bp_name)
        if bp is None:
            raise ModelError(spath, f"{disp.struct} has no tensor {bp_name!r} (its tensors: "
                                    f"{', '.join(b.name for b in disp.bind_points)})")
        if not bp.present:
            raise ModelError(spath, f"the desc of {dname!r} has no {bp_name}, so nothing can be bound to it")
        listed = isinstance(sources, list)
        sources = sources if listed else [sources]
        if len(sources) != len(bp.totals):
            raise ModelError(spath, f"bind point {bp_name!r} requires {len(bp.totals)} resources, but "
                                    f"{len(sources)} were bound")
        slots[bp_name] = [_parse_binding(s, bp, i, resources, _index(spath, i) if listed else spath)
                          for i, s in enumerate(sources)]
    for bp in disp.bind_points:
        if bp.present and bp.name not in slots:
            raise ModelError(bpath, f"nothing bound for required tensor {bp.name!r}")
    return Command("dispatch", path, dispatchable=disp, slots=slots)


def _parse_command(cmd, path, resources, dispatchables, paths):
    cmd = _object(cmd, path, "a command object")
    kind = _string(_get(cmd, "type", path), _key(path, "type"))
    if kind.lower() == "dispatch":
        return _parse_dispatch(cmd, path, resources, dispatchables)
    if kind.lower() == "print":
        resource = _resource(_get(cmd, "resource", path), resources, _key(path, "resource"))
        verbose = _bool(cmd.get("verbose", False), _key(path, "verbose"))
        return Command("print", path, resource=resource, verbose=verbose)
    if kind.lower() == "writefile":
        return _parse_write_file(cmd, path, resources, paths)
    raise ModelError(_key(path, "type"), f"{_show(kind)} is not a command; expected dispatch, print or writeFile")


def _parse_write_file(cmd, path, resources, paths):
    """A writeFile command, its target checked (paths) and its data measured now, so that
    a model that cannot write its files fails before anything runs."""
    resource = _resource(_get(cmd, "resource", path), resources, _key(path, "resource"))
    tpath, dpath = _key(path, "targetPath"), _key(path, "dimensions")
    target = _string(_get(cmd, "targetPath", path), tpath)
    full = paths.target(target, tpath)
    dims = cmd.get("dimensions")
    dims = _uint32_list(dims, dpath) if dims is not None else []
    ext = os.path.splitext(target)[1].lower()
    if ext in IMAGE_EXTENSIONS:
        # DxDispatch's WriteTensorToImage: an NCHW tensor of FLOAT32 or FLOAT16 values from 0
        # to 1, C 1 (grey), 3 (RGB) or 4 (RGBA).
        if len(dims) != 4 or dims[0] != 1 or dims[1] not in _IMAGE_MODES or 0 in dims[2:]:
            raise ModelError(dpath, f"an image needs dimensions [1, C, H, W] with C 1 (grey), 3 (RGB) or 4 (RGBA) and "
                                    f"H, W above 0, got {dims or 'none'}")
        if ext != ".png" and dims[1] == 4:
            raise ModelError(dpath, "a JPEG has no alpha channel: write 4 channels (RGBA) to a .png")
        if resource.type_name not in _IMAGE_TYPES:
            raise ModelError(path, f"resource {resource.name!r} is {resource.type_name or 'untyped'}; an image is "
                                   f"written from FLOAT32 or FLOAT16 values")
        _pillow(tpath)
    elif ext == ".npy" and resource.dtype is None:
        raise ModelError(path, f"resource {resource.name!r} has no initialValuesDataType, so it cannot be written as a "
                               f"NumPy array")
    if ext == ".npy" or ext in IMAGE_EXTENSIONS:
        # As DxDispatch: the given dimensions, else the whole buffer as one dimension.
        dims = dims or [resource.size // resource.dtype.itemsize]
        nbytes = math.prod(dims) * resource.dtype.itemsize
        if nbytes > resource.size:
            raise ModelError(dpath, f"{dims} needs {nbytes} bytes, but resource {resource.name!r} has {resource.size}")
    return Command("writeFile", path, resource=resource, target=target, full=full, dimensions=dims, ext=ext,
                   paths=paths)


# ---- The model -----------------------------------------------------------------------------

class Model:
    """A parsed and validated model, ready to run: every resource allocated and initialized,
    every operator created, every binding checked."""

    def __init__(self, resources, dispatchables, commands):
        self.resources = resources
        self.dispatchables = dispatchables
        self.commands = commands

    @classmethod
    def load(cls, path, paths=None, warn=None):
        """The model in the file path.  paths (default: confined to the file's folder and the
        current folder) says which files it may read and write; warn(message) hears about
        text after the model's JSON object, which is ignored."""
        try:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise ModelError("", f"cannot read the model: {getattr(e, 'strerror', None) or e}") from None
        doc, ignored = parse_json_document(text)
        if ignored and warn:
            warn(f"text after the model's JSON object, from line {ignored[0]}, column {ignored[1]} on, is ignored "
                 f"(as DxDispatch ignores it)")
        model_dir = os.path.dirname(os.path.abspath(path))
        if paths is None:
            paths = Paths(model_dir)
        else:
            paths.model_dir = model_dir
        return cls.parse(doc, paths=paths)

    @classmethod
    def parse(cls, doc, model_dir=".", paths=None):
        """A parsed document; files are found by paths (default: Paths(model_dir))."""
        if paths is None:
            paths = Paths(model_dir)
        doc = _object(doc, "", "a JSON object at the top of the model")
        resources = {}
        for name, obj in _object(_get(doc, "resources", ""), "resources").items():
            resources[name] = _parse_resource(name, obj, _key("resources", name), paths)
        dispatchables = {}
        for name, obj in _object(_get(doc, "dispatchables", ""), "dispatchables").items():
            dispatchables[name] = _parse_dispatchable(name, obj, _key("dispatchables", name))
        commands_json = _get(doc, "commands", "")
        if not isinstance(commands_json, list):
            raise ModelError("commands", f"expected an array of commands, got {_show(commands_json)}")
        commands = [_parse_command(c, _index("commands", i), resources, dispatchables, paths)
                    for i, c in enumerate(commands_json)]
        return cls(resources, dispatchables, commands)

    def run(self, out):
        """Executes the commands in order, writing what DxDispatch prints to out."""
        for cmd in self.commands:
            getattr(self, "_" + cmd.kind)(cmd, out)

    def _dispatch(self, cmd, out):
        disp = cmd.dispatchable
        ins = [(bp, i) for bp in disp.bind_points if bp.is_input for i in range(len(bp.totals))]
        outs = [(bp, i) for bp in disp.bind_points if not bp.is_input for i in range(len(bp.totals))]
        arrays = []
        for slots in (ins, outs):
            array = ffi.new("DMLC_BUFFER_BINDING[]", max(1, len(slots)))
            for k, (bp, i) in enumerate(slots):
                if bp.present:  # an absent optional tensor keeps Buffer NULL
                    b = cmd.slots[bp.name][i]
                    array[k].Buffer = ffi.cast("void*", b.resource.buffer.ctypes.data)
                    array[k].Offset = b.offset
                    array[k].SizeInBytes = b.size
            arrays.append(array)
        start = time.perf_counter()
        hr = lib.dmlcExecute(disp.op, len(ins), arrays[0], len(outs), arrays[1])
        elapsed = time.perf_counter() - start
        if hr != 0:
            raise ModelError(cmd.path, f"dispatching {disp.name!r} failed: {last_error()} ({_hresult(hr)})")
        out.write(f"Dispatch '{disp.name}': 1 iterations, {elapsed * 1e3:.4f} ms median (CPU)\n")

    def _print(self, cmd, out):
        res = cmd.resource
        if res.dtype is None:
            raise ModelError(cmd.path, f"resource {res.name!r} has no initialValuesDataType, so it cannot be printed")
        # As DxDispatch: as many elements as the initial values had, not the padded size.
        count = res.initial_nbytes // res.dtype.itemsize
        values = res.buffer[:count * res.dtype.itemsize].view(res.dtype)
        texts = [format_value(v) for v in values]
        if not cmd.verbose:
            out.write(f"Resource '{res.name}': {', '.join(texts)}\n")
            return
        index_width = int(math.floor(math.log10(count))) + 1 if count else 1
        hex_width = 2 * res.dtype.itemsize
        raw = res.buffer[:count * res.dtype.itemsize].reshape(count, res.dtype.itemsize)
        lines = [f"[{i:{index_width}}] {text} (0x{int.from_bytes(raw[i].tobytes(), 'little'):{hex_width}X})\n"
                 for i, text in enumerate(texts)]
        out.write(f"Resource '{res.name}':\n{''.join(lines)}\n")

    def _writeFile(self, cmd, out):
        res = cmd.resource
        tpath = _key(cmd.path, "targetPath")
        target = cmd.paths.target(cmd.target, tpath)  # again: an earlier command may have made a folder there
        if cmd.ext == ".npy" or cmd.ext in IMAGE_EXTENSIONS:
            data = res.buffer[:math.prod(cmd.dimensions) * res.dtype.itemsize].view(res.dtype).reshape(cmd.dimensions)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                if cmd.ext == ".npy":
                    np.save(f, data)
                elif cmd.ext in IMAGE_EXTENSIONS:
                    _write_image(f, data, cmd.ext)
                else:
                    f.write(res.buffer.tobytes())
        except OSError as e:
            raise ModelError(cmd.path, f"cannot write {cmd.target!r}: {e.strerror or _one_line(e)}") from None
        out.write(f"Resource '{res.name}' written to '{target}'\n")


def _write_image(f, data, ext):
    """data (1, C, H, W) as a PNG or JPEG image, as DxDispatch's WriteTensorToImage: each
    value clamped to [0, 1] (NaN gives 1, as its std::min/std::max do), times 255 in float32,
    truncated to 8 bits."""
    Image = _pillow("")
    v = data[0].astype(np.float32)
    v = np.where(v < 1, v, np.float32(1))
    v = np.where(v > 0, v, np.float32(0))
    pixels = np.ascontiguousarray((v * np.float32(255)).astype(np.uint8).transpose(1, 2, 0))
    channels = pixels.shape[2]
    image = Image.fromarray(pixels[:, :, 0] if channels == 1 else pixels)  # L, RGB or RGBA
    image.save(f, format="PNG" if ext == ".png" else "JPEG")


def format_value(v):
    """One element as DxDispatch prints it: C++ ostream's default formatting, which is
    printf's %g with 6 significant digits for floats (FLOAT16 widened to float), and
    decimal for integers.  (DxDispatch's ostream prints INT8/UINT8 as characters; dmlc
    prints their numbers.)"""
    if isinstance(v, np.floating):
        x = float(v)
        if math.isnan(x):
            return "-nan" if math.copysign(1.0, x) < 0 else "nan"
        return "%.6g" % x
    return str(int(v))

