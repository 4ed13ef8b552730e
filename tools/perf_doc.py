#!/usr/bin/python3
"""perf_doc.py - the generated tables of docs/performance.md.

docs/performance.md holds one current table per machine between marker
comments:

    <!-- perf-doc: begin NAME -->
    ...generated...
    <!-- perf-doc: end NAME -->

This script rewrites the text between each pair from the benchmark data in
docs/data/, as the declarative TABLES below say: which file, which rows,
which columns, the commit measured and the command that produced it.
Everything outside the markers is left as it is.

    tools/perf_doc.py            rewrite docs/performance.md (`make perf-doc`)
    tools/perf_doc.py --check    exit 1 and print a unified diff if the file
                                 would change; 0 if it is up to date
    tools/perf_doc.py --list     the tables and the data files they read

Options: --doc FILE (default docs/performance.md), --data DIR (default
docs/data), both relative to the repository root.  Python 3 standard library
only; the output depends on nothing but the data and this file.

Sources.  A source is a file name in docs/data:
  - a CSV of testing/bench/bench.c (n,case,peer_s,ours_s,...) or of
    testing/bench/bench_gpu.c (n,case,precision,band,ours_s,cusolver_s,...),
    with any extra columns (hugepages, run) usable as filters;
  - "FILE.txt#SECTION": the rows under the line "== SECTION..." of a lease
    summary, whitespace-separated in bench_gpu's table order (COLS_GPU_TXT),
    "-" for empty; a row spec's "cols" names other columns.
A row spec selects exactly one row: its "n" and "case" and any other key
listed in MATCH_KEYS must match; "nth" picks among several matches (0 first).
"take" fills fields from another source's row with the same n and case:
{field: (source, source_field)}.  A table's "take" applies to all its rows.
A table with "rows": None lists every row of its source in file order
(filtered by "where").
"""

import argparse
import csv
import difflib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# bench_gpu's printed table (lease summaries), in order; missing trailing
# columns stay empty.
COLS_GPU_TXT = ["n", "case", "precision", "band", "ours_s", "cusolver_s",
                "cusolver_copies_s", "host_s", "speedup_vs_cusolver",
                "speedup_vs_cusolver_copies", "speedup_vs_host", "stage1_s",
                "stage2_s", "stage3_s", "back_s", "other_s", "path"]

# Keys of a row spec that select rows (the others say how to show them).
MATCH_KEYS = ("n", "case", "hugepages", "run", "precision", "band")

# Columns a table can show: header, and how the value is computed.
#   ("f", field)          the field, in seconds
#   ("ratio", num, den)   num / den, as "1.23x" (bold from 1.00x)
#   ("text", key)         the row spec's key, as written
COLUMNS = {
    "n": ("n", ("int", "n")),
    "case": ("case", ("case", "case")),
    "build": ("build", ("text", "build")),
    "peer": ("OpenBLAS", ("f", "peer_s")),
    "ours": ("ours", ("f", "ours_s")),
    "ratio_peer": ("ratio", ("ratio", "peer_s", "ours_s")),
    "cusolver": ("cuSOLVER", ("f", "cusolver_s")),
    "cusolver_copies": ("+copies", ("f", "cusolver_copies_s")),
    "ratio_copies": ("ratio +copies", ("ratio", "cusolver_copies_s", "ours_s")),
    "host": ("host LAPACK", ("f", "host_s")),
    "ours_host": ("ours, host path", ("f", "ours_host_s")),
    "ratio_host": ("ratio host", ("ratio", "host_s", "ours_s")),
    "stage1": ("stage 1", ("stage", "stage1_s")),
    "stage2": ("stage 2", ("stage", "stage2_s")),
    "stage3": ("stage 3", ("stage", "stage3_s")),
    "back": ("back", ("stage", "back_s")),
    "other": ("other", ("stage", "other_s")),
}

HOST_COLS = ["case", "peer", "ours", "ratio_peer", "stage1", "stage2",
             "stage3", "back", "other"]
HOST_COLS_SHORT = ["case", "peer", "ours", "ratio_peer"]
GPU_COLS = ["n", "case", "build", "ours", "cusolver", "cusolver_copies",
            "ratio_copies", "stage1", "stage2", "stage3", "back", "other"]

H200 = "h200-2026-11-26-"
H200_VALUES_CUSOLVER = {
    "cusolver_s": (H200 + "values-0a0251d.csv", "cusolver_s"),
    "cusolver_copies_s": (H200 + "values-0a0251d.csv", "cusolver_copies_s"),
}
H200_LEAVES = H200 + "bands-leaves-0a0251d.txt"
H200_BANDS_N_16384 = ["n", "case", "ours_b64", "ours_b32", "ours_b16"]

# The tables, keyed by the marker's NAME, in the order they are generated.
TABLES = {
    "h200": {
        "intro": [
            "NVIDIA H200, 2026-11-26, one repetition. Vectors: 472a31b (leaves of 128",
            "rows, band 32 below n = 12288). Values: 0a0251d with the bands 56995d2 made",
            "the defaults (16 below n = 6144, 32 from there) against that lease's",
            "cuSOLVER; 32768: 66c88ab. Ours: the whole call, host arrays in and out;",
            "ratio = cuSOLVER with its copies / ours. Seconds.",
        ],
        "commands": [
            "GL_LEASE_PARTS=\"vectors checks\" testing/gpu_machine.sh lease $OUT   # 472a31b",
            "GL_LEASE_PARTS=\"profile vectors baseline values stage3 checks\" \\",
            "    GL_CHECK_SECONDS=150 testing/gpu_machine.sh lease $OUT 530      # 0a0251d",
            "GPULAPACK_BAND=16 BENCH_CUSOLVER=0 BENCH_HOST_MAX_N=0 BENCH_GPU_SIZES=4096 \\",
            "    BENCH_GPU_CASES=dsyevd_N,dgesdd_N testing/gpu_machine.sh bench  # band 32: 8192, 16384",
            "BENCH_HOST_MAX_N=0 BENCH_GPU_SIZES=32768 BENCH_GPU_CASES=dsyevd_N,dgbbrd_b32 \\",
            "    testing/gpu_machine.sh bench                                    # 66c88ab",
        ],
        "columns": GPU_COLS,
        "rows": [
            {"src": H200 + "vectors-472a31b.csv", "n": 8192, "case": "dgesdd_S", "build": "472a31b"},
            {"src": H200 + "vectors-472a31b.csv", "n": 8192, "case": "dsyevd_V", "build": "472a31b"},
            {"src": H200 + "vectors-472a31b.csv", "n": 8192, "case": "ssyevd_V", "build": "472a31b"},
            {"src": H200 + "lease-472a31b.txt#vectors", "n": 8192, "case": "zheevd_V", "build": "472a31b"},
            {"src": H200 + "lease-472a31b.txt#vectors", "n": 16384, "case": "dsyevd_V", "build": "472a31b"},
            {"src": H200_LEAVES + "#values only: GPULAPACK_BAND=16", "n": 4096, "case": "dsyevd_N",
             "build": "0a0251d, band 16", "take": H200_VALUES_CUSOLVER},
            {"src": H200_LEAVES + "#values only: GPULAPACK_BAND=16", "n": 4096, "case": "dgesdd_N",
             "build": "0a0251d, band 16", "take": H200_VALUES_CUSOLVER},
            {"src": H200_LEAVES + "#values only: GPULAPACK_BAND=32", "n": 8192, "case": "dsyevd_N",
             "build": "0a0251d, band 32", "take": H200_VALUES_CUSOLVER},
            {"src": H200_LEAVES + "#values only: GPULAPACK_BAND=32", "n": 8192, "case": "dgesdd_N",
             "build": "0a0251d, band 32", "take": H200_VALUES_CUSOLVER},
            {"src": H200_LEAVES + "#values only at 2048 and 16384", "cols": H200_BANDS_N_16384,
             "ours": "ours_b32", "n": 16384, "case": "dsyevd_N",
             "build": "0a0251d, band 32", "take": H200_VALUES_CUSOLVER},
            {"src": H200_LEAVES + "#values only at 2048 and 16384", "cols": H200_BANDS_N_16384,
             "ours": "ours_b32", "n": 16384, "case": "dgesdd_N",
             "build": "0a0251d, band 32", "take": H200_VALUES_CUSOLVER},
            {"src": H200 + "values-0a0251d.csv", "n": 16384, "case": "dsytrd", "build": "0a0251d"},
            {"src": H200 + "bench-32768.csv", "n": 32768, "case": "dsyevd_N", "build": "66c88ab"},
            {"src": H200 + "bench-32768.csv", "n": 32768, "case": "dgbbrd_b32", "build": "66c88ab"},
        ],
    },
    "h200-host": {
        "intro": [
            "The H200 machine's 16-core host, 66c88ab: our cuda path, our host path and",
            "the system LAPACK (16 threads) on the same matrices; ratio = host LAPACK /",
            "ours on cuda. Seconds.",
        ],
        "commands": [
            "GL_LEASE_PARTS=crossover testing/gpu_machine.sh lease $OUT   # BENCH_DEVICE=cuda, then host,",
            "    # BENCH_GPU_SIZES=\"1024 2048 4096\" BENCH_HOST_MAX_N=4096",
            "    # BENCH_GPU_CASES=dsyevd_N,dsyevd_V,dgesdd_N,dgesdd_S",
        ],
        "columns": ["n", "case", "ours", "ours_host", "host", "ratio_host"],
        "headers": {"ours": "ours, cuda"},
        "take": {"ours_host_s": (H200 + "crossover-host.csv", "ours_s")},
        "rows": [
            {"src": H200 + "crossover-cuda.csv", "n": n, "case": c}
            for n in (2048, 4096)
            for c in ("dsyevd_N", "dsyevd_V", "dgesdd_N", "dgesdd_S")
        ],
    },
    "h100": {
        "intro": [
            "NVIDIA H100, 2026-11-23, dfaf4fd: stage 3 on the host, the chase a launch",
            "per wavefront, panel leaves on one work-group (all changed since). One",
            "repetition; ratio = cuSOLVER with its copies / ours. Seconds.",
        ],
        "commands": [
            "BENCH_HOST_MAX_N=0 BENCH_REPS=1 BENCH_GPU_SIZES=\"4096 8192\" \\",
            "    BENCH_GPU_CASES=dsyevd_N,dsyevd_V,dgesdd_N,dgesdd_S,ssyevd_N,sgesdd_N,dsytrd,dgbbrd_b32,dgbbrd_b64,dsbtrd_b32,dsbtrd_b64 \\",
            "    testing/gpu_machine.sh bench",
            "# and BENCH_GPU_SIZES=16384 (values only, dsytrd, band 32), 32768 (dsyevd_N, dgbbrd_b32)",
        ],
        "columns": ["n", "case", "ours", "cusolver", "cusolver_copies", "ratio_copies"],
        "rows": [
            {"src": "h100-2026-11-23-bench-gpu.csv", "n": n, "case": c}
            for n, c in ((4096, "dsyevd_N"), (4096, "dgesdd_N"), (8192, "dsyevd_N"),
                         (8192, "dsyevd_V"), (8192, "dgesdd_N"), (8192, "dgesdd_S"),
                         (16384, "dgesdd_N"), (32768, "dsyevd_N"))
        ],
    },
    "epyc-2core": {
        "intro": [
            "`epyc-2core`, 2026-11-26, a175838 (the newest host-path run), n = 4000,",
            "DGEMM 104.6-107.5 GFLOP/s; ratio = OpenBLAS / ours. The second `dgesdd` S",
            "and `dsyevd` N rows are a second run (`BENCH_REPS=3`). Seconds.",
        ],
        "commands": [
            "OPENBLAS_CORETYPE=SkylakeX BENCH_PEER=dlmopen BENCH_SIZES=4000 BENCH_GPU=0 \\",
            "    BENCH_CASES=dgesdd_N,dsyevd_N,dgbbrd_b64,dgesdd_S,dsyevd_V,dsytrd BENCH_REPS=2 make bench",
            "# then BENCH_CASES=dgesdd_S,dsyevd_N BENCH_REPS=3",
        ],
        "columns": HOST_COLS,
        "src": "epyc-2core-2026-11-26-bench-4000.csv",
        "rows": None,
    },
    "epyc-zen5-2core": {
        "intro": [
            "`epyc-zen5-2core`, 2026-11-23, ac25e88, n = 4000: first calls, each in a",
            "fresh process after 5 s of quiet, 4 KiB pages (the default since: why, and",
            "where the time goes, in [design/host-path.md](design/host-path.md)). Seconds.",
        ],
        "commands": [
            "OPENBLAS_CORETYPE=SkylakeX BENCH_FIRST=1 BENCH_SIZES=4000 \\",
            "    BENCH_CASES=dgesdd_N,dgesdd_S,dsyevd_N,dsyevd_V,zheevd_V BENCH_GPU=0 make bench",
        ],
        "columns": HOST_COLS_SHORT,
        "src": "epyc-zen5-2core-2026-11-23-bench-first-calls-4000.csv",
        "where": {"hugepages": "0"},
        "rows": None,
    },
    "xeon-2core": {
        "intro": [
            "`xeon-2core`, 2026-11-22, 0784e62, n = 4000, DGEMM 98.5 GFLOP/s (where the",
            "time goes: [design/host-path.md](design/host-path.md)). Seconds.",
        ],
        "commands": [
            "BENCH_PEER=dlmopen BENCH_SIZES=4000 \\",
            "    BENCH_CASES=dsyevd_N,dgesdd_N,dsyevd_V,dgesdd_S,dsytrd,zheevd_V BENCH_REPS=2 make bench",
        ],
        "columns": HOST_COLS_SHORT,
        "src": "xeon-2core-2026-11-22-bench-4000.csv",
        "rows": None,
    },
}


class DataError(Exception):
    pass


_cache = {}


def load(data_dir, source, cols=None):
    """Rows (dicts of strings) of a CSV file or of a section of a text file."""
    key = (source, tuple(cols) if cols else None)
    if key in _cache:
        return _cache[key]
    name, _, section = source.partition("#")
    path = os.path.join(data_dir, name)
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise DataError("cannot read %s: %s" % (path, e.strerror))
    rows = []
    if not section:
        for r in csv.DictReader(text.splitlines()):
            rows.append({k: (v or "").strip() for k, v in r.items() if k is not None})
    else:
        names = cols or COLS_GPU_TXT
        inside = found = False
        for line in text.splitlines():
            if line.startswith("=="):
                inside = line[2:].strip().startswith(section)
                found = found or inside
                continue
            if not inside or line.startswith("#"):
                continue
            tokens = [t for t in line.split() if t != "/"]
            if len(tokens) < 2 or not tokens[0].isdigit():
                continue
            rows.append({k: ("" if v == "-" else v) for k, v in zip(names, tokens)})
        if not found:
            raise DataError("%s: no section '== %s'" % (path, section))
    _cache[key] = rows
    return rows


def select(data_dir, spec, table):
    """The one row a row spec names, with its "take" fields filled in."""
    src = spec.get("src", table.get("src"))
    if not src:
        raise DataError("a row of no source")
    rows = load(data_dir, src, spec.get("cols"))
    want = {k: str(spec[k]) for k in MATCH_KEYS if k in spec}
    hits = [r for r in rows if all(r.get(k) == v for k, v in want.items())]
    nth = spec.get("nth")
    if nth is None and len(hits) != 1:
        raise DataError("%s: %d rows match %s (give nth)" % (src, len(hits), want))
    if nth is not None and nth >= len(hits):
        raise DataError("%s: no row %d of those matching %s" % (src, nth, want))
    row = dict(hits[nth or 0])
    if "ours" in spec:
        row["ours_s"] = row.get(spec["ours"], "")
    take = dict(table.get("take", {}))
    take.update(spec.get("take", {}))
    for field, (other, other_field) in sorted(take.items()):
        o = select(data_dir, {"src": other, "n": row["n"], "case": row["case"]}, {})
        row[field] = o.get(other_field, "")
    row["_spec"] = spec
    return row


def number(row, field):
    v = row.get(field, "")
    if v in ("", None):
        return None
    try:
        return float(v)
    except ValueError:
        raise DataError("not a number: %s=%r in row %s %s" %
                        (field, v, row.get("n"), row.get("case")))


def seconds(x):
    if x is None:
        return ""
    return "%.2f" % x if x >= 1 else "%.3f" % x


def case_name(case):
    """dgesdd_N -> `dgesdd` N, dgbbrd_b32 -> `dgbbrd` band 32."""
    routine, _, rest = case.partition("_")
    if not rest:
        return "`%s`" % routine
    if rest.startswith("b") and rest[1:].isdigit():
        return "`%s` band %s" % (routine, rest[1:])
    return "`%s` %s" % (routine, rest)


def cell(row, how):
    kind = how[0]
    if kind == "int":
        return row.get(how[1], "")
    if kind == "case":
        return case_name(row.get("case", ""))
    if kind == "text":
        return str(row["_spec"].get(how[1], ""))
    if kind == "f":
        return seconds(number(row, how[1]))
    if kind == "stage":
        x = number(row, how[1])
        if x is None:
            return ""
        return "-" if x < 0.0005 else seconds(x)
    if kind == "ratio":
        a, b = number(row, how[1]), number(row, how[2])
        if a is None or b is None or b <= 0:
            return ""
        r = "%.2fx" % (a / b)
        return "**%s**" % r if a / b >= 1.0 else r
    raise ValueError(kind)


def row_specs(table, data_dir):
    """The table's row specs; for "rows": None, one per row of its source."""
    specs = table["rows"]
    if specs is None:
        rows = load(data_dir, table["src"])
        where = {k: str(v) for k, v in table.get("where", {}).items()}
        specs = []
        seen = {}
        for r in rows:
            if all(r.get(k) == v for k, v in where.items()):
                key = (r["n"], r["case"])
                spec = dict(where, n=r["n"], case=r["case"])
                if sum(1 for x in rows if (x["n"], x["case"]) == key and
                       all(x.get(k) == v for k, v in where.items())) > 1:
                    spec["nth"] = seen.get(key, 0)
                seen[key] = seen.get(key, 0) + 1
                specs.append(spec)
    return specs


def sources(table, specs):
    """The data files a table reads, in the order it first reads them."""
    out = []
    for s in specs:
        take = dict(table.get("take", {}))
        take.update(s.get("take", {}))
        for src in [s.get("src", table.get("src"))] + [o for o, _ in take.values()]:
            src = src.partition("#")[0]
            if src not in out:
                out.append(src)
    return out


def render(table, data_dir):
    specs = row_specs(table, data_dir)
    rows = [select(data_dir, s, table) for s in specs]
    headers = dict((c, COLUMNS[c][0]) for c in table["columns"])
    headers.update(table.get("headers", {}))
    out = list(table["intro"])
    out.append("Data (`docs/data/`): " + ", ".join("`%s`" % s for s in sources(table, specs)) + ".")
    out.append("")
    out += ["    " + c for c in table["commands"]]
    out.append("")
    out.append("| " + " | ".join(headers[c] for c in table["columns"]) + " |")
    out.append("|" + "---|" * len(table["columns"]))
    for r in rows:
        out.append("| " + " | ".join(cell(r, COLUMNS[c][1]) for c in table["columns"]) + " |")
    return out


def begin_marker(name):
    return "<!-- perf-doc: begin %s -->" % name


def end_marker(name):
    return "<!-- perf-doc: end %s -->" % name


def regenerate(text, data_dir):
    """The document with every marked block rewritten."""
    lines = text.split("\n")
    out = []
    done = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        s = line.strip()
        if s.startswith("<!-- perf-doc: begin ") and s.endswith(" -->"):
            name = s[len("<!-- perf-doc: begin "):-len(" -->")].strip()
            if name not in TABLES:
                raise DataError("marker for an unknown table '%s' (line %d)" % (name, i + 1))
            if name in done:
                raise DataError("table '%s' marked twice" % name)
            j = i + 1
            while j < len(lines) and lines[j].strip() != end_marker(name):
                if lines[j].strip().startswith("<!-- perf-doc: "):
                    raise DataError("no end marker for '%s' before line %d" % (name, j + 1))
                j += 1
            if j == len(lines):
                raise DataError("no end marker for '%s'" % name)
            out += render(TABLES[name], data_dir)
            out.append(lines[j])
            done.append(name)
            i = j + 1
            continue
        if s.startswith("<!-- perf-doc: end "):
            raise DataError("end marker without a begin (line %d)" % (i + 1))
        i += 1
    missing = [n for n in TABLES if n not in done]
    if missing:
        raise DataError("no markers for: %s" % ", ".join(missing))
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 with a unified diff if the document would change")
    ap.add_argument("--list", action="store_true", help="list the tables and their data")
    ap.add_argument("--doc", default="docs/performance.md")
    ap.add_argument("--data", default="docs/data")
    args = ap.parse_args(argv)
    doc = args.doc if os.path.isabs(args.doc) else os.path.join(ROOT, args.doc)
    data_dir = args.data if os.path.isabs(args.data) else os.path.join(ROOT, args.data)
    try:
        if args.list:
            for name, t in TABLES.items():
                print("%-16s %s" % (name, " ".join(sources(t, row_specs(t, data_dir)))))
            return 0
        with open(doc, encoding="utf-8") as f:
            old = f.read()
        new = regenerate(old, data_dir)
    except (OSError, DataError) as e:
        print("perf_doc.py: %s" % e, file=sys.stderr)
        return 2
    if args.check:
        if new == old:
            return 0
        rel = os.path.relpath(doc, ROOT)
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(True), new.splitlines(True), "a/" + rel, "b/" + rel))
        print("perf_doc.py: %s is not up to date: run tools/perf_doc.py "
              "(make perf-doc)" % rel, file=sys.stderr)
        return 1
    if new != old:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(new)
        print("perf_doc.py: %s rewritten" % os.path.relpath(doc, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
