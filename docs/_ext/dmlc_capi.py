"""The C API reference, read from include/directml_py.h: every declaration between its
``@cdef-begin``/``@cdef-end`` markers becomes a Sphinx C-domain entry whose text is the
comment above it in the header, so the page says what the header says."""
import os
import re

from dmlc_calls import HEADER


def _regions(text):
    return dict(re.findall(r"/\* @cdef-begin (\w+) \*/(.*?)/\* @cdef-end \1 \*/", text, re.S))


def _declarations(region):
    """[(comment, declaration)] in order: a declaration is a typedef (whole, braces
    included) or a function prototype, ending at the semicolon that closes it."""
    out, comment, i = [], "", 0
    while i < len(region):
        if region.startswith("/*", i):
            end = region.index("*/", i) + 2
            comment = region[i:end]
            i = end
            continue
        if region[i].isspace():
            i += 1
            continue
        depth, j = 0, i
        while True:
            ch = region[j]
            depth += ch == "{"
            depth -= ch == "}"
            if ch == ";" and depth == 0:
                break
            j += 1
        out.append((_comment_text(comment), region[i:j + 1]))
        comment = ""
        i = j + 1
    return out


def _comment_text(comment):
    lines = [re.sub(r"^\s*/?\*+/?\s?", "", line).rstrip() for line in comment.strip().strip("/").splitlines()]
    text = " ".join(line.strip("*/ ").strip() for line in lines if line.strip("*/ "))
    return text.strip()


def _rst_text(text):
    """Header prose as reST: identifiers of the API and quoted strings as literals."""
    text = re.sub(r"(?<![`\w])((?:dmlc|DMLC_|DML_)\w*(?:\(\))?)", r"``\1``", text)
    return re.sub(r'(?<!`)"([^"]*)"', r'``"\1"``', text)


def _entry(comment, decl):
    decl1 = " ".join(decl.split())
    body = "   " + _rst_text(comment) if comment else ""
    m = re.match(r"typedef (struct|enum|union) (\w+) \{(.*)\} \2;", decl1)
    if m:
        kind, name, members = m.groups()
        directive = {"struct": "c:struct", "enum": "c:enum", "union": "c:union"}[kind]
        lines = [f".. {directive}:: {name}", "", body, ""]
        if kind == "enum":
            comments = re.findall(r"/\*.*?\*/", members)
            # Comments may hold commas: split the members with each comment as @k@.
            numbered = iter(range(len(comments)))
            for chunk in re.sub(r"/\*.*?\*/", lambda m: f"@{next(numbered)}@", members).split(","):
                note = " ".join(_comment_text(comments[int(k)]) for k in re.findall(r"@(\d+)@", chunk))
                note = re.sub(r" \* (?=[A-Z])", " ", note)  # (its line breaks were joined: a "*" that began a line)
                member = re.sub(r"@\d+@", "", chunk).strip()
                if member:
                    name_value = member.split("=")
                    lines += [f"   .. c:enumerator:: {name_value[0].strip()}", ""]
                    value = f"``= {name_value[1].strip()}``" if len(name_value) > 1 else ""
                    if value or note:
                        lines += ["      " + " ".join(filter(None, [value, _rst_text(note)])), ""]
        else:
            for field in re.sub(r"/\*.*?\*/", "", members).split(";"):
                field = " ".join(field.split())
                if field:
                    lines += [f"   .. c:member:: {field}", ""]
        return lines
    m = re.match(r"typedef struct (\w+) (\w+);", decl1)
    if m:
        return [f".. c:struct:: {m.group(2)}", "", body, ""]
    m = re.match(r"typedef (.+) (\w+);", decl1)
    if m:
        return [f".. c:type:: {m.group(2)}", "", f"   ``{m.group(1)}``" + (" — " + _rst_text(comment) if comment else ""), ""]
    if decl1.startswith("DMLC_API "):
        return [f".. c:function:: {decl1[len('DMLC_API '):].rstrip(';')}", "", body, ""]
    raise ValueError(f"cannot document this declaration of {HEADER}: {decl1}")


def generate(outdir):
    """Writes c_api_base.rst (the Win32 base types), c_api_dml.rst (DirectML's types) and
    c_api.rst (the dmlc execution API) under outdir."""
    regions = _regions(open(HEADER).read())
    os.makedirs(outdir, exist_ok=True)
    for key, name in (("base", "c_api_base.rst"), ("dml", "c_api_dml.rst"), ("api", "c_api.rst")):
        lines = []
        for comment, decl in _declarations(regions[key]):
            lines += _entry(comment, decl)
        text = "\n".join(lines) + "\n"
        path = os.path.join(outdir, name)
        if not (os.path.exists(path) and open(path).read() == text):
            with open(path, "w") as f:
                f.write(text)
