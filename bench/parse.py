"""How long `dmlc run` takes to read a model, by its size: python bench/parse.py [--sizes 1,10,100].

Each row times dmlc.model.parse_json on a DxDispatch model of about N MB whose one resource
holds a list of values, the shape that made the former reader quadratic: a string ("nan")
before nearly every comma.  Two kinds of text:

- ``plain``: JSON as the standard library writes it (no comment, no trailing comma), read
  by the C decoder alone;
- ``commented``: the same with a ``//`` comment and a trailing comma, so both linear
  pre-passes (comments, trailing commas) run over the whole text.

Time per MB that stays flat from 1 MB to 100 MB is what linear means; the former reader's
grew with the size (80,000 strings 2.3 s, 640,000 strings 197 s).  The 100 MB rows need
about 2 GB of memory (the text, its blanked copies and the decoded list).  Best of
--repeat runs.
"""
import argparse
import os
import sys
import time

try:
    from dmlc.model import parse_json
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from dmlc.model import parse_json


def model_text(mb, commented):
    """A model of about mb MB: "nan", 1.5 and -2 in turn."""
    unit = '"nan", 1.5000, -2.00000, '
    values = unit * max(1, round(mb * 1e6 / len(unit))) + '"nan"'
    head = '{"resources": {"In": {"initialValuesDataType": "FLOAT32", "initialValues": ['
    if commented:
        return "// a model\n" + head + values + ", ]}}, }\n"
    return head + values + "]}}}\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,10,100", help="model sizes in MB, comma-separated (default 1,10,100)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the best is shown (default 3)")
    args = parser.parse_args(argv)
    print(f"{'model':>10} {'kind':>10} {'values':>12} {'seconds':>9} {'s/MB':>8}")
    for mb in [float(s) for s in args.sizes.split(",")]:
        for commented in (False, True):
            text = model_text(mb, commented)
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                doc = parse_json(text)
                best = min(best, time.perf_counter() - start)
                count = len(doc["resources"]["In"]["initialValues"])
                del doc
            size = len(text) / 1e6
            print(f"{size:>7.1f} MB {'commented' if commented else 'plain':>10} {count:>12,} {best:>9.3f} "
                  f"{best / size:>8.4f}", flush=True)
            del text
    return 0


if __name__ == "__main__":
    sys.exit(main())
