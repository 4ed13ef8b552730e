"""scipy and numpy through the library over GPULAPACK_LWORK_LIMIT
(docs/large.md), run by testing/own/check_lwork_limit.sh.

  lwork_limit_client.py reference FILE   the values and vectors, saved
                                         (run without the library)
  lwork_limit_client.py ours FILE        with the library, the limit
      lowered below the minimums at n = 300: numpy's eigh (dsyevd, which
      sizes WORK from the query alone: 1) checked against FILE and by its
      residual and orthogonality.  scipy's eigh and svd cannot be run so:
      its f2py wrappers check LWORK against LAPACK's minimum themselves, in
      32-bit C ints that wrap as LAPACK's INTEGERs do at the real sizes
      but not at n = 300, so they refuse the small answer before calling;
      the queries below show scipy's answers at the real sizes
  lwork_limit_client.py forward          with the library and every call
      forwarded (GPULAPACK_DISABLE=all), the default limit: scipy's own
      workspace query for dsyevd V at n = 32,767 and dgesdd S at 26,755
      raises its "too large work array" (no matrix is made)
  lwork_limit_client.py query-ours       the same queries where our path
      takes the call: 1

Prints PASS/FAIL lines."""
import sys

import numpy as np
import scipy.linalg as sl
from scipy.linalg import get_lapack_funcs
from scipy.linalg.lapack import _compute_lwork

N = 300


def inputs():
    rng = np.random.default_rng(50)
    a = rng.standard_normal((N, N))
    return a + a.T, rng.standard_normal((N + 40, N))


def compute(scipy=True):
    a, b = inputs()
    out = {}
    if scipy:
        out["w"], out["v"] = sl.eigh(a, driver="evd")
        out["u"], out["s"], out["vt"] = sl.svd(b, full_matrices=False,
                                               lapack_driver="gesdd")
    out["nw"], out["nv"] = np.linalg.eigh(a)
    return out


def verdict(ok, name, why):
    print(("PASS lwork-limit/%s" % name) if ok else
          ("FAIL lwork-limit/%s: %s" % (name, why)))


def check_ours(path):
    ref = np.load(path)
    got = compute(scipy=False)
    a, _ = inputs()
    eps = np.finfo(float).eps
    w, v, wref = got["nw"], got["nv"], ref["nw"]
    values = np.max(np.abs(w - wref)) / (np.max(np.abs(wref)) * N * eps)
    resid = np.linalg.norm(a @ v - v * w) / (np.linalg.norm(a) * N * eps)
    orth = np.linalg.norm(v.T @ v - np.eye(N)) / (N * eps)
    verdict(values < 10 and resid < 10 and orth < 10, "numpy-eigh",
            "values %.3g, residual %.3g, orthogonality %.3g (eps*n)"
            % (values, resid, orth))


def queries():
    out = []
    for name, args, kw in (
            ("syevd_lwork", (32767,), dict(compute_v=1)),
            ("syevd_lwork", (46341,), dict(compute_v=1)),
            ("gesdd_lwork", (26755, 26755),
             dict(compute_uv=1, full_matrices=0))):
        f, = get_lapack_funcs((name,), dtype=np.float64)
        try:
            out.append(("%s@%d" % (name, args[0]),
                        _compute_lwork(f, *args, **kw)))
        except ValueError as e:
            out.append(("%s@%d" % (name, args[0]), str(e)))
    return out


def main():
    mode = sys.argv[1]
    if mode == "reference":
        np.savez(sys.argv[2], **compute())
    elif mode == "ours":
        check_ours(sys.argv[2])
    elif mode == "forward":
        for name, answer in queries():
            verdict(isinstance(answer, str) and "Too large work array" in answer,
                    "scipy-forward/" + name, "scipy got %r" % (answer,))
    elif mode == "query-ours":
        # LWORK 1, or LAPACK's minimum wrapped to 32 bits where positive
        # (dsyevd V at 46,341: 4,295,254,609 - 2^32), which scipy's own
        # check computes the same way
        want = iter((1, 287313, 1))
        for name, answer in queries():
            first = answer[0] if isinstance(answer, tuple) else answer
            w = next(want)
            verdict(first == w, "scipy-query-ours/%s=%d" % (name, w),
                    "scipy got %r" % (answer,))


if __name__ == "__main__":
    main()
