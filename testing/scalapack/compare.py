#!/usr/bin/python3
"""compare.py MODE NAME ORACLE RESULT [LOG]: one run of testing/scalapack/driver
against the run of the same binary without the interposer (ORACLE), printing
PASS/FAIL lines for check_scalapack.sh.

MODE exact:  every line identical (the interposer forwarded every call: the
             results are bitwise the real routine's), but for the cases of
             UNREPRODUCED: Debian's pdsyevx at n = 257 (a cluster of the 65
             values asked for) gives one of several Z from run to run of
             the same binary, without the interposer and under valgrind
             alike (no uninitialised read): there Z's hash and ratios are
             left out of the line, and the ratios stay below 30.
MODE gather: error cases (bad-*, short-*, argument errors) identical; the
             others with the same INFO, query answers, M and NZ, values
             within 20 n eps of the oracle's largest, residual and
             orthogonality ratios below 30; and the log (LOG) has one
             path=gather line per such case and path=forward for the rest.
"""
import re
import sys

EPS = 2.0 ** -52
UNREPRODUCED = re.compile(r"pdsyevx-n257-")


def without_z(line):
    """A result line without Z's hash and ratios."""
    return re.sub(r" (zhash|res|orth)=\S+", "", line)


def parse(path):
    cases = {}
    order = []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        d = {"line": line.rstrip("\n")}
        for kv in f[1:]:
            k, _, v = kv.partition("=")
            d[k] = v
        cases[f[0]] = d
        order.append(f[0])
    return cases, order


def main():
    mode, name, oracle_path, result_path = sys.argv[1:5]
    log_path = sys.argv[5] if len(sys.argv) > 5 else None
    oracle, order = parse(oracle_path)
    result, _ = parse(result_path)
    bad = []
    gathered = 0
    unreproduced = 0
    flex = 0    # bad-*/short-* cases the real routine accepts (p?gesvd takes
                # MB != NB; p?syevx/p?syevr run with less than the query's
                # workspace): either path, compared bitwise
    for c in order:
        o, r = oracle[c], result.get(c)
        if r is None:
            bad.append(f"{c}: missing")
            continue
        error_case = c.startswith(("bad-", "short-")) or o["info"] != "0"
        if error_case and o["info"] == "0":
            flex += 1
        if mode == "exact" and not error_case and UNREPRODUCED.match(c):
            unreproduced += 1
            if without_z(o["line"]) != without_z(r["line"]) or \
                    any(float(r.get(k, "inf")) > 30 for k in ("res", "orth")):
                bad.append(f"{c}: differs from the real routine's beside Z ({r['line'][:160]} | {o['line'][:160]})")
            continue
        if mode == "exact" or error_case:
            if o["line"] != r["line"]:
                bad.append(f"{c}: differs from the real routine's ({r['line'][:160]} | {o['line'][:160]})")
            continue
        gathered += 1
        for k in ("info", "lwq", "liwq", "lrwq", "m", "nz"):
            if o[k] != r[k]:
                bad.append(f"{c}: {k}={r[k]}, the real routine's {o[k]}")
        wo = [float(x) for x in o["w"].split(",") if x]
        wr = [float(x) for x in r["w"].split(",") if x]
        n = int(re.search(r"-n(\d+)-", c).group(1))
        scale = max([abs(x) for x in wo] + [1e-300])
        if len(wo) != len(wr):
            bad.append(f"{c}: {len(wr)} values, the real routine {len(wo)}")
        else:
            err = max([abs(a - b) for a, b in zip(wo, wr)] + [0.0])
            if err > 20 * n * EPS * scale:
                bad.append(f"{c}: values differ by {err / (n * EPS * scale):.3g} n eps")
        for k in ("res", "orth"):
            if float(r[k]) > 30:
                bad.append(f"{c}: {k} ratio {r[k]}")
    if log_path and mode == "gather":
        log = open(log_path).read()
        ng = len(re.findall(r"^gpulapack: p[sdcz]\w+ .*path=gather", log, re.M))
        nf = len(re.findall(r"^gpulapack: p[sdcz]\w+ .*path=forward", log, re.M))
        if not gathered <= ng <= gathered + flex or ng + nf != len(order):
            bad.append(f"log: {ng} path=gather and {nf} path=forward lines for {gathered} "
                       f"cases to gather, {len(order) - gathered} to forward ({flex} either)")
    if bad:
        print(f"FAIL {name}: {len(bad)} of {len(order)} cases: " + "; ".join(bad[:6]))
    else:
        what = f"{gathered} gathered, {len(order) - gathered} forwarded" if mode == "gather" \
            else "bitwise the real routine's" + (
                f"; {unreproduced} of them but for Z, which the real routine does not "
                "reproduce (its ratios below 30)" if unreproduced else "")
        print(f"PASS {name} ({len(order)} cases, {what})")


main()
