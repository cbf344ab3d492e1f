"""Run dmlc's benchmark (the same as ``dmlc bench``): python bench/run.py [--quick] [--filter TEXT].

It benchmarks the installed dmlc, or, when none is installed, this checkout built in place
(``python setup.py build_ext --inplace``)."""
import os
import sys

try:
    from dmlc.bench import main
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from dmlc.bench import main

if __name__ == "__main__":
    sys.exit(main())
