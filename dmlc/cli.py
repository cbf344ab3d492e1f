"""The dmlc command line: ``python -m dmlc`` or the ``dmlc`` script."""
import argparse
import sys

import numpy as np


def _format_array(a):
    return np.array2string(np.asarray(a), separator=", ", max_line_width=100)


def cmd_examples(args):
    """Run every worked example of DirectML's pages through the library."""
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
        print(f"   matches the documented output: {'yes' if ok else 'NO'}")
        if not ok:
            for key, value in ex.expected.items():
                print(f"   documented {key}:")
                print("     " + _format_array(value).replace("\n", "\n     "))
        print()
    print(f"{len(examples) - failures} of {len(examples)} examples match the documented outputs")
    return 1 if failures else 0


def build_parser():
    import dmlc

    parser = argparse.ArgumentParser(prog="dmlc", description="DirectML's tensor operators, executed on the CPU.")
    parser.add_argument("--version", action="version", version=f"dmlc {dmlc.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("examples", help="run the worked examples of DirectML's reference pages",
                       description=cmd_examples.__doc__)
    p.set_defaults(func=cmd_examples)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    return args.func(args)
