#!/usr/bin/env python3
"""plot_speedup.py - speed-up against n from build/bench/bench_gpu's CSV.

    testing/bench/plot_speedup.py [CSV] [-o PNG] [--vs cusolver|cusolver_copies|host]

Reads the CSV that build/bench/bench_gpu writes (testing/bench/bench_gpu.c;
default build/bench/bench_gpu.csv) and writes a PNG (default: the CSV's name
with .png) with one line per case: the speed-up of ours against cuSOLVER
(speedup_vs_cusolver = cusolver_s / ours_s, the matrix already on the
device; --vs cusolver_copies: cuSOLVER with its copies in and out; --vs
host: the host LAPACK) against n, n on a log scale.  Above 1, ours is
faster.  Points with an empty field (a side skipped, or no cuSOLVER
counterpart: the band cases) are left out; a case with no point at all is
named on stdout.

Needs matplotlib; without it, prints a message and exits 0.
"""
import argparse
import csv
import os
import sys

# --vs: (CSV column, y label, title)
COLUMNS = {
    "cusolver": ("speedup_vs_cusolver", "cusolver_s / ours_s",
                 "cuSOLVER (compute only, matrix on the device)"),
    "cusolver_copies": ("speedup_vs_cusolver_copies",
                        "cusolver_copies_s / ours_s",
                        "cuSOLVER with its copies in and out"),
    "host": ("speedup_vs_host", "host_s / ours_s", "the host LAPACK"),
}


def read_series(path, column):
    """{case: [(n, speedup), ...]} in the CSV's case order, and the cases
    that had no value in column."""
    series, order = {}, []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or column not in reader.fieldnames \
                or "n" not in reader.fieldnames \
                or "case" not in reader.fieldnames:
            raise ValueError("%s: not a bench_gpu CSV (no n, case or %s"
                             " column)" % (path, column))
        for row in reader:
            case = row["case"]
            if case not in series:
                series[case] = []
                order.append(case)
            value = (row.get(column) or "").strip()
            if not value:
                continue
            try:
                n, s = int(row["n"]), float(value)
            except ValueError:
                continue
            if s > 0:
                series[case].append((n, s))
    empty = [c for c in order if not series[c]]
    return [(c, sorted(series[c])) for c in order if series[c]], empty


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Plot the speed-up of ours against n from bench_gpu's"
                    " CSV.")
    ap.add_argument("csv", nargs="?", default="build/bench/bench_gpu.csv",
                    help="bench_gpu CSV (default build/bench/bench_gpu.csv)")
    ap.add_argument("-o", "--output",
                    help="PNG to write (default: the CSV's name with .png)")
    ap.add_argument("--vs", choices=sorted(COLUMNS), default="cusolver",
                    help="the other side (default cusolver)")
    args = ap.parse_args(argv)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print("plot_speedup.py: matplotlib is not available (%s): no plot"
              " written" % e)
        return 0

    column, label, other = COLUMNS[args.vs]
    try:
        series, empty = read_series(args.csv, column)
    except (OSError, ValueError) as e:
        print("plot_speedup.py: %s" % e, file=sys.stderr)
        return 2
    out = args.output or os.path.splitext(args.csv)[0] + ".png"
    for case in empty:
        print("plot_speedup.py: %s: no %s value, not plotted" % (case, column))
    if not series:
        print("plot_speedup.py: nothing to plot in %s (column %s)"
              % (args.csv, column))
        return 0

    fig, ax = plt.subplots(figsize=(9, 5.5))
    styles = ["-", "--", "-.", ":"]
    for i, (case, points) in enumerate(series):
        ns = [p[0] for p in points]
        ss = [p[1] for p in points]
        ax.plot(ns, ss, marker="o", linestyle=styles[(i // 10) % len(styles)],
                label=case)
    ax.set_xscale("log", base=2)
    all_n = sorted({p[0] for _, pts in series for p in pts})
    ax.set_xticks(all_n)
    ax.set_xticklabels([str(n) for n in all_n])
    ax.minorticks_off()
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("n")
    ax.set_ylabel("speed-up (%s)" % label)
    ax.set_title("gpulapack against %s\n(above 1: ours is faster)" % other)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("plot_speedup.py: wrote %s (%d cases)" % (out, len(series)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
