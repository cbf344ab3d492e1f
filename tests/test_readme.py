"""Every code block of README.md runs as pasted, in order, in one scratch directory (as a
reader working through it would):

- ```python blocks run in a fresh namespace each; those with >>> prompts run as doctests;
- ```sh blocks run with bash -e (the `dmlc` command is the dmlc under test);
- plain blocks that start with `$ ` are transcripts: each command runs, and its output
  (stdout and stderr) must be the lines that follow it, where a line `...` stands for any
  lines, a timing `0.0522 ms` for any timing, and `/home/me` for the scratch directory;
- a block after `<!-- readme-test: file NAME -->` is written to NAME (pad.json, app.c);
- a block after `<!-- readme-test: skip: REASON -->` is not run.  SKIPPED below lists them,
  so that a new one is a decision made here, not a silent gap; a marker without a reason
  is a failure;
- a block that needs a tool this machine lacks (a C compiler, CMake, pkg-config, an
  optional Python package) is reported as a skip after every other block ran.

The prose is read too: a paragraph or a sentence that appears twice, word for word, is a
failure (text pasted twice, or two versions of a passage merged into one).
"""
import doctest
import io
import os
import re
import shutil
import stat
import subprocess
import sys

import pytest

from support import child_env

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
FENCE = re.compile(r"^(?:<!-- readme-test: (?P<marker>[^>]*?) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)^```$",
                   re.M | re.S)

# The blocks not run: their first line, and why.
SKIPPED = {
    "pip install .": "installs dmlc (the test runs every other block against the dmlc under test)",
    'pip install ".[docs]"': "installs packages and builds the whole site (CI's stage 4b does)",
    'pip install ".[test,dask,images]" && pytest -n auto tests':
        "installs packages and runs the test suite, which runs this file",
    "include/directml_py.h   DirectML's types + the dmlc execution API (the only public header)":
        "a listing of the repository, not a command",
}


def blocks():
    """(line number, marker, language, body) of every fenced block."""
    if not os.path.exists(README):
        pytest.skip("README.md is in a checkout only")
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return [(text.count("\n", 0, m.start("body")), m.group("marker"), m.group("lang"), m.group("body"))
            for m in FENCE.finditer(text)]


def transcript_pattern(lines):
    """A regex for the output lines of one command in a transcript."""
    parts = []
    for line in lines:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = re.split(r"\d+\.\d{4} ms median", line)
        parts.append(r"\d+\.\d{4} ms median".join(re.escape(p) for p in pieces) + r"\n")
    return "".join(parts)


class Reader:
    """Runs the blocks in a scratch directory with `dmlc` on PATH."""

    def __init__(self, tmp_path, monkeypatch):
        self.dir = tmp_path / "work"
        self.dir.mkdir()
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "dmlc"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m dmlc "$@"\n')
        shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
        self.env = child_env(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
        monkeypatch.chdir(self.dir)
        self.missing = []

    def shell(self, command, check):
        # A block stops at its first failing command; a transcript line runs as typed.
        r = subprocess.run(["bash", *(["-e"] if check else []), "-c", command], cwd=self.dir, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        if check:
            assert r.returncode == 0, f"{command}\n{r.stdout}"
        return r.stdout.replace(str(self.dir), "/home/me")

    def python(self, where, body):
        try:
            if ">>>" in body:
                test = doctest.DocTestParser().get_doctest(body, {}, where, README, 0)
                report = io.StringIO()
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                runner.run(test, out=report.write)
                assert runner.failures == 0, report.getvalue()
            else:
                exec(compile(body, where, "exec"), {"__name__": "__readme__"})
        except ModuleNotFoundError as e:
            if e.name not in ("torch",):  # optional peers only: anything else is a failure
                raise
            self.missing.append(f"{where} (needs {e.name})")

    def transcript(self, where, body):
        lines = body.rstrip("\n").split("\n")
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")] + [len(lines)]
        assert starts[0] == 0, f"{where}: a transcript starts with a $ command"
        for a, b in zip(starts, starts[1:]):
            command = lines[a][2:]
            got = "\n".join(line.rstrip() for line in self.shell(command, check=False).split("\n"))
            want = transcript_pattern([line.rstrip() for line in lines[a + 1:b]])
            assert re.fullmatch(want, got), f"{where}: $ {command}\n--- README says:\n" + "\n".join(
                lines[a + 1:b]) + f"\n--- it printed:\n{got}"


def missing_tools(body):
    """The tools a shell block or transcript calls that this machine lacks."""
    uses = {"cc": re.search(r"(^|[\s(])cc\s|\./a\.out|\./app|\./build/app", body),
            "cmake": re.search(r"(^|\s)cmake\s", body), "pkg-config": "pkg-config" in body}
    return [tool for tool, used in uses.items() if used and shutil.which(tool) is None]


def test_every_readme_block_runs_as_pasted(tmp_path, monkeypatch):
    reader = Reader(tmp_path, monkeypatch)
    skipped = {}
    for line, marker, lang, body in blocks():
        where = f"README.md:{line + 1} ({lang or 'plain'} block)"
        first = body.split("\n", 1)[0]
        lacking = missing_tools(body) if lang == "sh" or body.startswith("$ ") else []
        if marker and marker.startswith("skip:"):
            reason = marker[len("skip:"):].strip()
            assert reason, f"{where}: a skip marker needs a reason: <!-- readme-test: skip: REASON -->"
            skipped[first] = reason
        elif lacking:
            reader.missing.append(f"{where} (needs {', '.join(lacking)})")
        elif marker and marker.startswith("file "):
            (reader.dir / marker[len("file "):]).write_text(body)
        elif marker:
            pytest.fail(f"{where}: unknown marker {marker!r}")
        elif lang == "python":
            reader.python(where, body)
        elif lang == "sh":
            reader.shell(body, check=True)
        elif lang == "" and body.startswith("$ "):
            reader.transcript(where, body)
        else:
            pytest.fail(f"{where}: a {lang or 'plain'} block that is neither run nor marked "
                        f"<!-- readme-test: skip: REASON --> or <!-- readme-test: file NAME -->")
    assert skipped == SKIPPED
    if reader.missing:
        pytest.skip("every other block ran; not run for want of a tool or an optional package: "
                    + ", ".join(reader.missing))


def prose():
    """The README's paragraphs outside code blocks and HTML comments, whitespace collapsed
    (a list item is a paragraph of its own)."""
    if not os.path.exists(README):
        pytest.skip("README.md is in a checkout only")
    with open(README, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^```.*?^```$", "\n", text, flags=re.M | re.S)
    text = re.sub(r"<!--.*?-->", "\n", text, flags=re.S)
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        for item in re.split(r"\n(?=\s*(?:[-*]|\d+\.) )", block):
            item = re.sub(r"^(?:[-*]|\d+\.)\s+", "", " ".join(item.split()))
            if item and not item.startswith(("#", "|")):
                paragraphs.append(item)
    return paragraphs


def repeated(items):
    seen, twice = set(), []
    for item in items:
        if item in seen and item not in twice:
            twice.append(item)
        seen.add(item)
    return twice


def sentences(paragraphs):
    """Sentences and clauses (split at . ! ? ; :) of six words or more: shorter ones ("see
    below.") may recur."""
    return [s for p in paragraphs for s in re.split(r"(?<=[.!?:;])\s+", p) if len(s.split()) >= 6]


def test_no_paragraph_or_sentence_is_repeated():
    paragraphs = prose()
    assert len(paragraphs) > 15  # the README was read
    assert repeated(paragraphs) == []
    assert repeated(sentences(paragraphs)) == []


def test_the_repetition_check_finds_repeats(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\nOne paragraph, said twice.\n\n```sh\nOne paragraph, said twice.\n```\n\n"
                      "- One paragraph, said twice.\n- An item.\n\nFirst. It runs on every machine we have. End.\n\n"
                      "Then: It runs on every machine we have. And more.\n")
    monkeypatch.setattr(sys.modules[__name__], "README", str(readme))
    paragraphs = prose()
    assert repeated(paragraphs) == ["One paragraph, said twice."]  # the code block does not count
    assert repeated(sentences(paragraphs)) == ["It runs on every machine we have."]
