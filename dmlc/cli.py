"""The dmlc command line: ``python -m dmlc`` or the ``dmlc`` script.

Subcommands: ``run`` (models in the JSON format of DirectML's DxDispatch tool),
``examples`` (DirectML's worked examples), ``bench`` (the benchmark) and ``config``
(compiler flags for C builds).  Bad usage exits with status 2 (argparse's
convention); a failed command exits with status 1 and a message on stderr.
"""
import argparse
import os
import sys

import numpy as np


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
    order, printing resources the way DxDispatch does."""
    from dmlc.model import Model, ModelError

    path = args.model
    shipped = shipped_models()
    if not os.path.exists(path) and path in shipped:
        path = shipped[path]
    try:
        model = Model.load(path)
        model.run(sys.stdout)
    except ModelError as e:
        sys.stdout.flush()
        print(f"dmlc run: {args.model}: {e}", file=sys.stderr)
        return 1
    return 0


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

    bench.run(args.quick, args.filter, stream=sys.stdout, progress=sys.stderr)
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
    p.set_defaults(func=cmd_run)

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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    return args.func(args)
