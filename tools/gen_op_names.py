"""Writes src/op_names.inc, the DML_OPERATOR_TYPE names indexed by value, from the enum in
include/directml_py.h (the one place the names and values are written).

    python tools/gen_op_names.py          # rewrite src/op_names.inc
    python tools/gen_op_names.py --check  # exit 1 if it is out of date (CI's lint stage)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def operator_names(header_text):
    """{value: name} of the header's DML_OPERATOR_TYPE enum."""
    body = re.search(r"typedef enum DML_OPERATOR_TYPE \{(.*?)\} DML_OPERATOR_TYPE;", header_text, re.S).group(1)
    return {int(v): n for n, v in re.findall(r"(DML_OPERATOR_\w+) = (\d+)", body)}


def render(names):
    lines = ["/* DML_OPERATOR_TYPE names indexed by value, generated from include/directml_py.h by",
             " * tools/gen_op_names.py: do not edit. */"]
    for v in range(max(names) + 1):
        lines.append(f'    "{names[v]}",' if v in names else "    NULL,")
    return "\n".join(lines) + "\n"


def main(argv):
    with open(os.path.join(ROOT, "include", "directml_py.h"), encoding="utf-8") as f:
        text = render(operator_names(f.read()))
    path = os.path.join(ROOT, "src", "op_names.inc")
    with open(path, encoding="utf-8") as f:
        current = f.read()
    if "--check" in argv:
        if current != text:
            print(f"{path} is out of date: run python tools/gen_op_names.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
