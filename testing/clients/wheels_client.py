"""numpy and scipy from pip (their own renamed OpenBLAS: numpy calls
scipy_dsyevd_64_, ..., scipy calls scipy_dsyevd_, ...), each call checked.

usage: python wheels_client.py OUT.json [n]

Runs numpy.linalg.eigh, eigvalsh, svd (full, reduced, values only),
scipy.linalg.eigh (drivers evd, evr, evx, and subset_by_index),
scipy.linalg.svd (gesdd, gesvd) and scipy.linalg.eigvals_banded in float32,
float64, complex64 and complex128 on fixed random matrices of order n
(default 240), and writes for each call its values (eigenvalues or singular
values) and LAPACK's ratios of its vectors: residual |A V - V W| / (n |A|
eps) (|A - U S V^H| / (max(m,n) |A| eps) for the SVD) and orthogonality
|V^H V - I| / (n eps).  check_wheels.sh runs it with and without the
library and compares.
"""
import json
import sys

import numpy as np
import scipy.linalg as sl

out_path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 240
rng = np.random.default_rng(20260101)
DTYPES = ["float32", "float64", "complex64", "complex128"]


def matrix(dtype, rows, cols):
    a = rng.standard_normal((rows, cols))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((rows, cols))
    return a.astype(dtype)


def hermitian(dtype):
    a = matrix(dtype, n, n)
    return ((a + a.conj().T) / 2).astype(dtype)


def eps(dtype):
    return float(np.finfo(np.dtype(dtype)).eps)


def eig_ratios(a, w, v):
    a64 = a.astype(np.complex128)
    v64 = v.astype(np.complex128)
    k = v.shape[1]
    e = eps(a.dtype)
    an = max(np.linalg.norm(a64, 1), 1e-300)
    res = np.linalg.norm(a64 @ v64 - v64 * w.astype(np.float64), 1) / (n * an * e)
    orth = np.linalg.norm(v64.conj().T @ v64 - np.eye(k), 1) / (n * e)
    return float(res), float(orth)


def svd_ratios(a, u, s, vh):
    a64 = a.astype(np.complex128)
    u64, vh64 = u.astype(np.complex128), vh.astype(np.complex128)
    k = s.shape[0]
    e = eps(a.dtype)
    m, nn = a.shape
    an = max(np.linalg.norm(a64, 1), 1e-300)
    res = np.linalg.norm(a64 - (u64[:, :k] * s.astype(np.float64)) @ vh64[:k, :], 1) / (
        max(m, nn) * an * e)
    orth_u = np.linalg.norm(u64.conj().T @ u64 - np.eye(u.shape[1]), 1) / (max(m, nn) * e)
    orth_v = np.linalg.norm(vh64 @ vh64.conj().T - np.eye(vh.shape[0]), 1) / (max(m, nn) * e)
    return float(res), float(max(orth_u, orth_v))


results = {}


def record(name, dtype, values, ratios=None):
    results["%s/%s" % (name, dtype)] = {
        "values": [float(x) for x in np.asarray(values, dtype=np.float64)],
        "ratios": ratios,
    }


for dtype in DTYPES:
    a = hermitian(dtype)
    w, v = np.linalg.eigh(a)
    record("numpy.eigh", dtype, w, eig_ratios(a, w, v))
    record("numpy.eigvalsh", dtype, np.linalg.eigvalsh(a))
    g = matrix(dtype, n + 30, n)
    u, s, vh = np.linalg.svd(g, full_matrices=True)
    record("numpy.svd-full", dtype, s, svd_ratios(g, u, s, vh))
    u, s, vh = np.linalg.svd(g.T.copy(), full_matrices=False)
    record("numpy.svd-reduced", dtype, s, svd_ratios(g.T, u, s, vh))
    record("numpy.svd-values", dtype, np.linalg.svd(g, compute_uv=False))

    for driver in ("evd", "evr", "evx"):
        w, v = sl.eigh(a, driver=driver)
        record("scipy.eigh-" + driver, dtype, w, eig_ratios(a, w, v))
    w, v = sl.eigh(a, subset_by_index=[n // 4, n // 2])
    record("scipy.eigh-subset", dtype, w, eig_ratios(a, w, v))
    for driver in ("gesdd", "gesvd"):
        u, s, vh = sl.svd(g, full_matrices=False, lapack_driver=driver)
        record("scipy.svd-" + driver, dtype, s, svd_ratios(g, u, s, vh))
    kd = 5
    band = matrix(dtype, kd + 1, n)
    band[0] = band[0].real  # the diagonal of a Hermitian band is real
    record("scipy.eigvals_banded", dtype, sl.eigvals_banded(band, lower=True))

with open(out_path, "w") as f:
    json.dump({"n": n, "results": results}, f)
