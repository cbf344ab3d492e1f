"""The dmlc command line: ``python -m dmlc`` or the ``dmlc`` script.

Subcommands: ``run`` (models in the JSON format of DirectML's DxDispatch tool, and
``--compare`` of their results with a GPU's), ``examples`` (DirectML's worked examples),
``bench`` (the benchmark) and ``config`` (compiler flags for C builds).  Bad usage exits
with status 2 (argparse's convention); a failed command exits with status 1 and a message
on stderr, except ``run --compare``, which exits as ``diff`` does: 0 when everything
matches, 1 on a mismatch, 2 on an error.  Output cut short by a closed pipe
(``dmlc examples | head -1``) ends the command quietly, as Unix tools end; any other
failure to write the output (a full disk, ``> /dev/full``) is one line on stderr and the
command's failure status.  Every failure of ``run`` is one line on stderr (one per file
for ``--compare``), never a traceback.
"""
import argparse
import math
import os
import sys

import numpy as np

from dmlc._console import quiet_on_broken_pipe, stdout_to_devnull


def _format_array(a):
    return np.array2string(np.asarray(a), separator=", ", max_line_width=100)


def shipped_models():
    """The models that come with dmlc (DxDispatch's samples for operators dmlc implements):
    file name -> path."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
    if not os.path.isdir(folder):
        return {}
    return {n: os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".json")}


def cmd_run(args):
    """Run a model written in the JSON format of DirectML's DxDispatch tool: create its
    resources and operators, then execute its commands (dispatch, print, writeFile) in
    order, printing resources the way DxDispatch does.  The model reads files only inside
    its own folder and writes them only inside the output folder (the current folder, or
    --output-dir); --allow-any-path lifts that, for models you trust.  With --compare DIR,
    then compare every resource that has a file DIR/<name>.npy (a GPU's result, as
    DxDispatch's writeFile writes it) with dmlc's, and exit 0 when all match, 1 on a
    mismatch, 2 on an error."""
    from dmlc import compare
    from dmlc.model import Model, ModelError, Paths

    path = args.model
    shipped = shipped_models()
    if not os.path.exists(path) and path in shipped:
        path = shipped[path]
    failed = 2 if args.compare is not None else 1

    def say(line):
        print(f"dmlc run: {args.model}: {' '.join(line.split())}", file=sys.stderr)

    try:
        paths = Paths(output_dir=args.output_dir, allow_any=args.allow_any_path)
        model = Model.load(path, paths, warn=lambda message: say(f"warning: {message}"))
        # The files are read and checked before anything runs, as the model itself is.
        expected = compare.load_expected(args.compare, model.resources) if args.compare is not None else []
        model.run(sys.stdout)
        if args.emit_expected is not None:
            compare.emit_expected(args.emit_expected, model.resources, sys.stdout)
    except (ModelError, compare.CompareError) as e:
        sys.stdout.flush()
        for line in getattr(e, "messages", [str(e)]):
            say(line)
        return failed
    except (MemoryError, RecursionError) as e:
        sys.stdout.flush()
        say("not enough memory" if isinstance(e, MemoryError) else "the model nests deeper than dmlc follows")
        return failed
    except OSError:
        raise  # standard output failed: main says so
    except Exception as e:  # a fault dmlc has no message for yet: still one line, never a traceback
        sys.stdout.flush()
        say(f"internal error, please report it with the model: {type(e).__name__}: {e}")
        return failed
    if args.compare is None:
        return 0
    tolerance = compare.Tolerance(args.ulp, args.atol, args.strict_zero)
    results = [compare.compare(x, tolerance) for x in expected]
    for result in results:
        print(compare.report(result))
    print(compare.summary(results, tolerance))
    return 1 if any(r.mismatches for r in results) else 0


def _ulp_count(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of ULPs, 0 or more, not {text!r}")
    return value


def _abs_tolerance(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value >= 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, 0 or more, not {text!r}")
    return value


def cmd_examples(args):
    """Run every worked example of DirectML's reference pages through the library and show
    input, parameters and output side by side, with whether the output matches the expected one."""
    from dmlc._examples import all_examples

    failures = 0
    examples = all_examples()
    for ex in examples:
        got = ex.run(dict(ex.inputs))
        ok = all(k in got and got[k].shape == v.shape and np.array_equal(got[k], v, equal_nan=v.dtype.kind == "f")
                 for k, v in ex.expected.items())
        failures += not ok
        print(f"== {ex.name}  [{ex.page}]")
        for key, value in ex.params.items():
            print(f"   {key}: {value}")
        for key, value in ex.inputs.items():
            print(f"   {key} {value.shape} {value.dtype}:")
            print("     " + _format_array(value).replace("\n", "\n     "))
        for key, value in got.items():
            print(f"   {key} {value.shape} {value.dtype} (computed by dmlc):")
            print("     " + _format_array(value).replace("\n", "\n     "))
        print(f"   matches the expected output: {'yes' if ok else 'NO'}")
        if not ok:
            for key, value in ex.expected.items():
                print(f"   documented {key}:")
                print("     " + _format_array(value).replace("\n", "\n     "))
        print()
    print(f"{len(examples) - failures} of {len(examples)} examples match their expected outputs")
    return 1 if failures else 0


def cmd_bench(args):
    """Time every data-movement workload of dmlc against NumPy, and against PyTorch and ONNX
    Runtime when they are installed, with memcpy of the same bytes as the yardstick.  The
    table goes to stdout; one progress line per workload goes to stderr."""
    from dmlc import bench
    from dmlc.bench.plot import PlotUnavailable

    try:
        bench.run_and_plot(args, stream=sys.stdout, progress=sys.stderr)
    except PlotUnavailable as e:
        print(f"dmlc bench: {e}", file=sys.stderr)
        return 1
    return 0


def config_flags():
    """What each ``dmlc config`` option prints."""
    import dmlc

    include, libdir = dmlc.get_include(), dmlc.get_library_dir()
    libs = f"-L{libdir} -ldirectml_py"
    if sys.platform != "win32":
        # The rpath lets the program find libdirectml_py without LD_LIBRARY_PATH.
        libs += f" -Wl,-rpath,{libdir}"
    here = os.path.dirname(os.path.abspath(dmlc.__file__))
    return {"cflags": f"-I{include}", "libs": libs, "includedir": include, "libdir": libdir,
            "pkgconfigdir": os.path.join(here, "pkgconfig"), "cmakedir": os.path.join(here, "cmake")}


def cmd_config(args):
    """Print what a C or C++ build against libdirectml_py needs, in the order asked, on one
    line: cc app.c $(dmlc config --cflags --libs).  pkg-config and CMake users point their
    tool at --pkgconfigdir (dmlc.pc) or --cmakedir (find_package(dmlc))."""
    if not args.items:
        args.parser.error("give at least one of --cflags, --libs, --includedir, --libdir, --pkgconfigdir, --cmakedir")
    flags = config_flags()
    print(" ".join(flags[item] for item in args.items))
    return 0


def build_parser():
    import dmlc
    from dmlc import bench

    parser = argparse.ArgumentParser(prog="dmlc", description="DirectML's tensor operators, executed on the CPU.")
    parser.add_argument("--version", action="version", version=f"dmlc {dmlc.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="run a DxDispatch model (JSON) on the CPU", description=cmd_run.__doc__,
                       epilog="Models shipped with dmlc, runnable by name from anywhere: "
                              + ", ".join(shipped_models()) + ".")
    p.add_argument("model", metavar="MODEL.json",
                   help="the model file; .npy and raw files it names are found beside it")
    p.add_argument("--compare", metavar="DIR",
                   help="compare every resource that has a file DIR/<name>.npy with dmlc's result (exact unless "
                        "--ulp or --atol); exit 0 if all match, 1 on a mismatch, 2 on an error")
    p.add_argument("--ulp", metavar="N", type=_ulp_count,
                   help="with --compare: finite values within N units in the last place match (integers: within N)")
    p.add_argument("--atol", metavar="X", type=_abs_tolerance,
                   help="with --compare: finite values within X of each other match")
    p.add_argument("--strict-zero", action="store_true", help="with --compare: -0 and +0 differ")
    p.add_argument("--emit-expected", metavar="DIR",
                   help="after running, write every resource to DIR/<name>.npy (as DxDispatch's writeFile)")
    p.add_argument("--output-dir", metavar="DIR",
                   help="the folder the model's writeFile commands write into (default: the current folder)")
    p.add_argument("--allow-any-path", action="store_true",
                   help="let the model read and write files anywhere (absolute paths, .., symbolic links out of its "
                        "folders): for models you trust")
    p.set_defaults(func=cmd_run, parser=p)

    p = sub.add_parser("examples", help="run the worked examples of DirectML's reference pages",
                       description=cmd_examples.__doc__)
    p.set_defaults(func=cmd_examples)

    p = sub.add_parser("bench", help="benchmark dmlc against NumPy, PyTorch and ONNX Runtime",
                       description=cmd_bench.__doc__)
    bench.add_arguments(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("config", help="print compiler and linker flags for C/C++ programs",
                       description=cmd_config.__doc__)
    for item, text in [("cflags", "the preprocessor flags: -I<includedir>"),
                       ("libs", "the linker flags: -L<libdir> -ldirectml_py and an rpath"),
                       ("includedir", "the directory holding directml_py.h"),
                       ("libdir", "the directory holding libdirectml_py"),
                       ("pkgconfigdir", "the directory holding dmlc.pc: put it on PKG_CONFIG_PATH"),
                       ("cmakedir", "the directory holding dmlcConfig.cmake: pass it as -Ddmlc_DIR")]:
        p.add_argument(f"--{item}", dest="items", action="append_const", const=item, help=text)
    p.set_defaults(func=cmd_config, parser=p, items=[])
    return parser


def _main(argv):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    if args.func is cmd_run and args.compare is None and (args.ulp is not None or args.atol is not None
                                                          or args.strict_zero):
        args.parser.error("--ulp, --atol and --strict-zero apply to --compare DIR, which is missing")
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        raise
    except OSError as e:  # stdout could not be written: run --compare's error status is 2
        stdout_to_devnull()
        print(f"dmlc {args.command}: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 2 if args.func is cmd_run and args.compare is not None else 1


def main(argv=None):
    return quiet_on_broken_pipe(_main, argv)
