#!/usr/bin/python3
"""The GPULAPACK_* settings, declared once in runtime/settings.def, and what
is generated from them besides the C (runtime/config.h and config.c expand
the rows themselves).

From the table's rows this script writes:

  docs/env.md                   the table of the settings (name, default,
      meaning; the "Testing only" table for the tests' own), between its
      "begin ... table" and "end ... table" comments; the details below
      the tables stay hand-written, under a "### `GPULAPACK_NAME`" heading
      each, and a heading that names no row is an error;
  python/gpulapack/__init__.py  SETTINGS, the variables the library reads
      (gpulapack.configure() takes them), between "# begin SETTINGS" and
      "# end SETTINGS".

The output is committed; testing/unit/check_generated.sh runs this script
into a temporary directory and fails on any difference.

Usage: tools/settings.py [--out DIR]   (DIR: where the two files are
written, under their paths in the repository; default the repository root)
       tools/settings.py --list        (the variables lib/libgpulapack.so
reads, one a line, without GPULAPACK_)
       tools/settings.py --list-all    (every variable declared, one a line:
NAME READER, READER `table` where a generated reader reads it, the library's
or the ScaLAPACK interposer's, else the GL_SETTING_ELSEWHERE row's reader)
"""
import argparse
import os
import re
import sys

TABLE = "runtime/settings.def"
ENV_MD = "docs/env.md"
PYTHON = "python/gpulapack/__init__.py"

# the kinds of runtime/config.c's readers
KINDS = {"count", "count_in", "level", "flag", "amount", "words",
         "words_anycase", "text", "any_text", "log_file", "device"}
# the rows the generated readers read: macro -> (read by the library, so
# in gpulapack.SETTINGS; read by the ScaLAPACK interposer)
MACROS = {"GL_SETTING": (True, False),
          "GL_SETTING_ALSO_SCALAPACK": (True, True),
          "GL_SETTING_SCALAPACK": (False, True)}
# who reads a GL_SETTING_ELSEWHERE row: the library itself (then it is in
# gpulapack.SETTINGS) or not, and which table of docs/env.md lists it
READERS = {"fault_injection": (True, "testing"),
           "python_package": (False, "settings")}
MAX_ROW = 200   # characters of a table row of docs/env.md


class TableError(Exception):
    pass


def strip_comments(text):
    """C comments out, string literals kept (a comment opener inside a
    meaning stays text)."""
    out, i = [], 0
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|/\*.*?\*/|//[^\n]*', text, re.S):
        out.append(text[i:m.start()])
        out.append(m.group() if m.group().startswith('"') else " ")
        i = m.end()
    out.append(text[i:])
    return "".join(out)


def split_args(text, start):
    """The arguments of the macro call whose '(' is at text[start], split at
    the commas outside parentheses, braces and strings; and the index after
    its ')'."""
    args, depth, i, arg_start = [], 0, start, start + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
            while text[i - 1] == "\\":
                i = text.index('"', i + 1)
        elif c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
            if depth == 0:
                args.append(text[arg_start:i].strip())
                return args, i + 1
        elif c == "," and depth == 1:
            args.append(text[arg_start:i].strip())
            arg_start = i + 1
        i += 1
    raise TableError("a row is not closed")


def literal(arg, what, name):
    """The text of one or more adjacent C string literals."""
    parts = re.findall(r'"([^"]*)"', arg)
    if not parts or re.sub(r'"[^"]*"', "", arg).strip():
        raise TableError("%s: its %s is not a string literal: %s" % (name, what, arg))
    text = "".join(parts)
    if "\\" in text or "|" in text:
        raise TableError("%s: its %s holds a '\\' or '|': %s" % (name, what, text))
    return text


def read_table(root):
    """The rows of runtime/settings.def, in order: dicts of name, kind
    (None for a row read elsewhere), macro, reader (None for a row the
    generated readers read), default, meaning."""
    with open(os.path.join(root, TABLE)) as f:
        text = strip_comments(f.read())
    rows = []
    macros = "|".join(sorted(list(MACROS) + ["GL_SETTING_ELSEWHERE"], key=len, reverse=True))
    for m in re.finditer(r"\b(%s)\s*\(" % macros, text):
        args, _ = split_args(text, m.end() - 1)
        name = args[0]
        if m.group(1) in MACROS:
            if len(args) != 8:
                raise TableError("%s: %s takes 8 arguments, not %d" % (name, m.group(1), len(args)))
            kind, reader, shown, meaning = args[1], None, args[6], args[7]
            if kind not in KINDS:
                raise TableError("%s: unknown kind %s" % (name, kind))
        else:
            if len(args) != 4:
                raise TableError("%s: GL_SETTING_ELSEWHERE takes 4 arguments, not %d"
                                 % (name, len(args)))
            kind, reader, shown, meaning = None, args[1], args[2], args[3]
            if reader not in READERS:
                raise TableError("%s: unknown reader %s" % (name, reader))
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
            raise TableError("%s: not a name of capitals, digits and _" % name)
        if any(r["name"] == name for r in rows):
            raise TableError("%s: declared twice" % name)
        rows.append({"name": name, "kind": kind, "macro": m.group(1), "reader": reader,
                     "default": literal(shown, "default", name),
                     "meaning": literal(meaning, "meaning", name)})
    if not rows:
        raise TableError("no rows")
    return rows


def read_by_library(row):
    if row["kind"] is not None:
        return MACROS[row["macro"]][0]
    return READERS[row["reader"]][0]


def section(row):
    return "settings" if row["kind"] is not None else READERS[row["reader"]][1]


def table(rows):
    """The rows as a Markdown table, blank lines around it (the comments
    that mark it are blocks of their own)."""
    lines = ["", "| Variable | Default | Meaning |", "|---|---|---|"]
    for r in rows:
        line = "| `GPULAPACK_%s` | %s | %s |" % (r["name"], r["default"], r["meaning"])
        if len(line) > MAX_ROW:
            raise TableError("GPULAPACK_%s: its row of %s is %d characters, over %d"
                             % (r["name"], ENV_MD, len(line), MAX_ROW))
        lines.append(line)
    return lines + [""]


def python_list(rows):
    names = sorted(r["name"] for r in rows if read_by_library(r))
    lines, line = ["SETTINGS = ("], "   "
    for n in names:
        item = ' "%s",' % n
        if len(line) + len(item) > 79:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    lines.append(")")
    return lines


def replace_between(text, begin, end, lines, path):
    """text with the lines between the line starting with begin and the
    line starting with end replaced."""
    all_lines = text.split("\n")
    starts = [i for i, l in enumerate(all_lines) if l.startswith(begin)]
    ends = [i for i, l in enumerate(all_lines) if l.startswith(end)]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise TableError("%s: expected one line starting %r, then one starting %r"
                         % (path, begin, end))
    return "\n".join(all_lines[:starts[0] + 1] + lines + all_lines[ends[0]:])


def env_md(root, rows):
    path = os.path.join(root, ENV_MD)
    with open(path) as f:
        text = f.read()
    for name in ("settings", "testing"):
        text = replace_between(
            text, "<!-- begin %s table" % name, "<!-- end %s table" % name,
            table([r for r in rows if section(r) == name]), ENV_MD)
    known = {r["name"] for r in rows}
    for m in re.finditer(r"^### `GPULAPACK_([A-Z0-9_]+)`", text, re.M):
        if m.group(1) not in known:
            raise TableError("%s: details of GPULAPACK_%s, which %s does not declare"
                             % (ENV_MD, m.group(1), TABLE))
    return text


def python_module(root, rows):
    path = os.path.join(root, PYTHON)
    with open(path) as f:
        text = f.read()
    return replace_between(text, "# begin SETTINGS", "# end SETTINGS",
                           python_list(rows), PYTHON)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=root,
                        help="where to write docs/env.md and the Python module")
    parser.add_argument("--list", action="store_true",
                        help="print the variables the library reads and write nothing")
    parser.add_argument("--list-all", action="store_true",
                        help="print every variable with its reader and write nothing")
    args = parser.parse_args()
    try:
        rows = read_table(root)
        if args.list:
            for r in rows:
                if read_by_library(r):
                    print(r["name"])
            return 0
        if args.list_all:
            for r in rows:
                print(r["name"], r["reader"] or "table")
            return 0
        outputs = {ENV_MD: env_md(root, rows), PYTHON: python_module(root, rows)}
    except TableError as e:
        print("tools/settings.py: %s" % e, file=sys.stderr)
        return 1
    for rel, text in outputs.items():
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
