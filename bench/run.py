"""Run dmlc's benchmark (the same as ``dmlc bench``): python bench/run.py [--quick] [--filter TEXT]."""
import sys

from dmlc.bench import main

if __name__ == "__main__":
    sys.exit(main())
