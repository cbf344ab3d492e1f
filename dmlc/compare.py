"""``dmlc run MODEL.json --compare DIR``: a model's resources, computed by dmlc on the CPU,
against ``DIR/<name>.npy`` files (what a GPU computed: DxDispatch's ``writeFile`` writes
them); ``--emit-expected DIR`` writes dmlc's resources the same way.

Exact by default.  ``--ulp N`` and ``--atol X`` loosen it: a pair of finite values matches
when it is within N units in the last place or within X (either, when both are given);
for integer types ``--ulp N`` means an absolute difference of N.  NaN equals NaN whatever
its payload and sign; infinities equal only themselves; -0 equals +0 unless
``--strict-zero``.  A file that does not fit its resource (unreadable, another dtype,
another element count beyond DirectML's 4-byte rounding of the buffer) is an error, not a
mismatch: exit status 2, against 1 for a mismatch and 0 when everything matches.
"""
import dataclasses
import math
import os
from typing import Optional, Tuple

import numpy as np

from dmlc.model import read_npy


class CompareError(Exception):
    """Files that cannot be compared; messages holds one line per fault."""

    def __init__(self, messages):
        super().__init__("\n".join(messages))
        self.messages = list(messages)


@dataclasses.dataclass(frozen=True)
class Tolerance:
    ulp: Optional[int] = None
    atol: Optional[float] = None
    strict_zero: bool = False

    def describe(self):
        """'exact; NaN equals NaN; -0 equals +0', 'within 4 ULP or 0.001; ...'."""
        loose = [f"{self.ulp} ULP" if self.ulp is not None else None,
                 f"{self.atol:g}" if self.atol is not None else None]
        loose = [t for t in loose if t]
        rule = "within " + " or ".join(loose) if loose else "exact"
        zero = "-0 differs from +0" if self.strict_zero else "-0 equals +0"
        return f"{rule}; NaN equals NaN; {zero}"


@dataclasses.dataclass
class Expected:
    """A resource and the file it is compared with (values: the file's, flat, native order)."""
    resource: object
    path: str
    shape: Tuple[int, ...]
    values: np.ndarray


@dataclasses.dataclass
class Result:
    expected: Expected
    count: int
    mismatches: int
    max_abs: float            # inf when a NaN meets a number
    max_ulp: Optional[int]    # None when a NaN meets a number (printed "inf")
    first: Optional[int]      # flat index of the first mismatch
    ours: np.ndarray


def _dtype_name(resource):
    return f"{resource.type_name} ({resource.dtype})"


def _file_name(name):
    """name as a file name in a directory, or None when it cannot be one."""
    if not name or name in (".", "..") or "/" in name or "\0" in name or (os.sep != "/" and os.sep in name):
        return None
    return name + ".npy"


def _fitting_counts(resource):
    """Element counts a file may have for resource: the buffer's, and any count whose bytes
    DirectML rounds up to the buffer's size (3 FLOAT16 values live in 8 bytes)."""
    itemsize = resource.dtype.itemsize
    whole = resource.size // itemsize
    return [c for c in range(max(0, (resource.size - 3) // itemsize), whole + 1)
            if c and (c * itemsize + 3) // 4 * 4 == resource.size] or [whole]


def load_expected(directory, resources):
    """The files of DIR named after resources, read and checked before anything runs.
    Raises CompareError listing every fault."""
    if not os.path.isdir(directory):
        raise CompareError([f"--compare {directory}: not a directory"])
    found, faults = [], []
    for name, resource in resources.items():
        fname = _file_name(name)
        path = os.path.join(directory, fname) if fname else None
        if path is None or not os.path.isfile(path):
            continue
        if resource.dtype is None:
            faults.append(f"--compare {path}: resource {name!r} has no initialValuesDataType, so it cannot be "
                          f"compared")
            continue
        try:
            # read_npy, not np.load: np.load takes anything that is not an .npy for a pickle,
            # and allocates what a header declares before it reads the data.
            data = read_npy(path)
        except (OSError, ValueError, EOFError) as e:
            faults.append(f"--compare {path}: cannot read it as a NumPy array: {' '.join(str(e).split())}")
            continue
        except MemoryError:
            faults.append(f"--compare {path}: not enough memory to read it")
            continue
        if data.dtype.kind != resource.dtype.kind or data.dtype.itemsize != resource.dtype.itemsize:
            faults.append(f"--compare {path}: holds {data.dtype}, but resource {name!r} is {_dtype_name(resource)}")
            continue
        counts = _fitting_counts(resource)
        if data.size not in counts:
            fits = " or ".join(map(str, counts))
            faults.append(f"--compare {path}: holds {data.size} elements, but resource {name!r} has "
                          f"{resource.size // resource.dtype.itemsize} ({resource.size} bytes; a file of {fits} "
                          f"elements fits it)")
            continue
        values = np.ascontiguousarray(data, resource.dtype).reshape(-1)  # native byte order, row-major
        found.append(Expected(resource, path, data.shape, values))
    if faults:
        raise CompareError(faults)
    if not found:
        names = ", ".join(f for f in (_file_name(n) for n in resources) if f)
        raise CompareError([f"--compare {directory}: no file there is named after a resource of the model "
                            f"(expected one of {names})"])
    return found


def _ordered(values):
    """Float bits as integers in the floats' order (-0 and +0 both 0), as int64."""
    k = values.dtype.itemsize
    bits = values.view(f"i{k}").astype(np.int64)
    magnitude = bits & ((1 << (8 * k - 1)) - 1)
    return np.where(bits < 0, -magnitude, magnitude)


def _distance(a, b):
    """|a - b| exactly, as uint64, for int64 or uint64 arrays (the difference of two 64-bit
    integers needs 64 unsigned bits, and uint64 subtraction wraps onto it)."""
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    return np.where(a >= b, ua - ub, ub - ua)


def compare(expected, tolerance):
    """dmlc's values of expected.resource against the file's."""
    resource, theirs = expected.resource, expected.values
    count = theirs.size
    ours = resource.values(count)
    if ours.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):  # signalling NaNs, inf - inf: handled below
            a, b = ours.astype(np.float64), theirs.astype(np.float64)
            nan_a, nan_b = np.isnan(a), np.isnan(b)
            equal = (a == b) | (nan_a & nan_b)
            abs_err = np.where(equal, 0.0, np.abs(a - b))
        lone_nan = nan_a ^ nan_b
        finite = np.isfinite(a) & np.isfinite(b)
        abs_err[lone_nan] = np.inf
        ulp = _distance(_ordered(ours), _ordered(theirs))
        ulp[equal] = 0
        match = equal.copy()
        if tolerance.ulp is not None:
            match |= finite & (ulp <= tolerance.ulp)
        if tolerance.atol is not None:
            match |= finite & (abs_err <= tolerance.atol)
        if tolerance.strict_zero:
            match &= ~((a == 0) & (b == 0) & (np.signbit(ours) != np.signbit(theirs)))
        max_ulp = None if lone_nan.any() else int(ulp.max(initial=0))
    else:
        wide = np.int64 if ours.dtype.kind == "i" else np.uint64
        abs_err = _distance(ours.astype(wide), theirs.astype(wide))
        match = abs_err == 0
        for limit in (tolerance.ulp, tolerance.atol):
            if limit is not None:  # |d| <= X for integers d is |d| <= floor(X), compared exactly
                match |= abs_err <= np.uint64(min(math.floor(limit), 2 ** 64 - 1))
        max_ulp = int(abs_err.max(initial=0))
    mismatches = int(count - np.count_nonzero(match))
    first = int(np.argmin(match)) if mismatches else None
    max_abs = abs_err.max(initial=0)
    return Result(expected, count, mismatches, float(max_abs) if ours.dtype.kind == "f" else int(max_abs), max_ulp,
                  first, ours)


def _value(v):
    """An element as the shortest text that reads back to it, floats with their bits."""
    if v.dtype.kind == "f":
        # str(), not format(): format() widens a float32 to a Python float's digits.
        return f"{str(v)} (0x{int(v.view(f'u{v.dtype.itemsize}')):0{2 * v.dtype.itemsize}X})"
    return str(v)


def _index(flat, shape):
    if len(shape) <= 1:
        return f"[{flat}]"
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, shape)) + "]"


def _error(e):
    return "inf" if isinstance(e, float) and math.isinf(e) else (f"{e:.6g}" if isinstance(e, float) else str(e))


def report(result):
    """One line per resource: elements, mismatches, largest errors, first mismatch."""
    exp = result.expected
    head = (f"Compared '{exp.resource.name}' with {exp.path}: {result.count} elements, "
            f"{result.mismatches} mismatch{'' if result.mismatches == 1 else 'es'}, max abs error "
            f"{_error(result.max_abs)}, max ULP error {'inf' if result.max_ulp is None else result.max_ulp}")
    if result.first is None:
        return head
    i = result.first
    return (f"{head}; first mismatch at {_index(i, exp.shape)}: dmlc {_value(result.ours[i])}, "
            f"file {_value(exp.values[i])}")


def summary(results, tolerance):
    """'Compare (exact; ...): 1 of 2 resources differs: 'Out''."""
    differ = [r.expected.resource.name for r in results if r.mismatches]
    n = len(results)
    total = f"{n} resource{'' if n == 1 else 's'}"
    if not differ:
        return f"Compare ({tolerance.describe()}): {n} of {total} {'matches' if n == 1 else 'match'}"
    names = ", ".join(f"'{name}'" for name in differ)
    verb = "differs" if len(differ) == 1 else "differ"
    return f"Compare ({tolerance.describe()}): {len(differ)} of {total} {verb}: {names}"


def emit_expected(directory, resources, out):
    """Writes every typed resource to DIR/<name>.npy as writeFile does (the whole buffer,
    one dimension).  Raises CompareError when a file cannot be written."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise CompareError([f"--emit-expected {directory}: cannot create the directory: {e.strerror or e}"]) from None
    for name, resource in resources.items():
        fname = _file_name(name)
        if resource.dtype is None or fname is None:
            why = "it has no initialValuesDataType" if resource.dtype is None else "its name cannot be a file name"
            out.write(f"Resource '{name}' not written: {why}\n")
            continue
        path = os.path.join(directory, fname)
        try:
            np.save(path, resource.values())
        except OSError as e:
            raise CompareError([f"--emit-expected {path}: cannot write it: {e.strerror or e}"]) from None
        out.write(f"Resource '{name}' written to '{path}'\n")

