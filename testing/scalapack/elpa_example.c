/* elpa_example.c - a symmetric eigenproblem in ScaLAPACK's block-cyclic
 * layout solved with ELPA's C API, checked against pdsyevd (docs/scalapack.md,
 * "Beyond one node's memory: ELPA and DLA-Future").
 *
 *     mpicc elpa_example.c $(pkg-config --cflags --libs elpa) -lm
 *     mpirun -np 4 ./elpa_example [n [nb [values-file [name]]]]
 *
 * 4 processes on a 2x2 BLACS grid (any P = pr*pc with pr the largest
 * divisor <= sqrt(P) works). The matrix is built in place on each process
 * from its global indices, so no process ever holds all of it: this is the
 * path for matrices larger than one node's memory. ELPA is not a ScaLAPACK
 * routine, so lib/libgpulapack_scalapack.so never sees the ELPA call; the
 * pdsyevd reference may be gathered by it (GPULAPACK_SCALAPACK=any).
 *
 * Rank 0 prints PASS/FAIL lines (`PASS <name>/<check>`, name
 * scalapack/elpa unless given):
 *   values   ELPA's eigenvalues within 20 n eps ||A|| of pdsyevd's;
 *   residual ||A Z - Z diag(w)||_1 / (n eps ||A||_1) < 30 (pdgemm);
 *   orth     ||Z^T Z - I||_1 / (n eps) < 30;
 * and writes ELPA's eigenvalues (%a, bitwise) to values-file when given.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elpa/elpa.h>

void blacs_get_(const int *, const int *, int *);
void blacs_gridinit_(int *, const char *, const int *, const int *, size_t);
void blacs_gridinfo_(const int *, int *, int *, int *, int *);
void blacs_gridexit_(const int *);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, int *);
void pdsyevd_(const char *, const char *, const int *, double *, const int *, const int *,
              const int *, double *, double *, const int *, const int *, const int *,
              double *, const int *, int *, const int *, int *, size_t, size_t);
void pdgemm_(const char *, const char *, const int *, const int *, const int *,
             const double *, const double *, const int *, const int *, const int *,
             const double *, const int *, const int *, const int *, const double *,
             double *, const int *, const int *, const int *, size_t, size_t);
double pdlange_(const char *, const int *, const int *, const double *, const int *,
                const int *, const int *, double *, size_t);

/* A(i,j) = A(j,i), 0-based global indices: a deterministic pseudo-random
 * symmetric matrix in [-1, 1) with a graded diagonal (distinct spectrum). */
static double entry(int i, int j, int n)
{
    if (i > j) { int t = i; i = j; j = t; }
    unsigned long long h = (unsigned long long)i * 2654435761ULL + (unsigned long long)j * 40503ULL + 12345;
    h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL; h ^= h >> 32;
    double v = (double)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    return i == j ? v + 4.0 * i / n : v;
}

/* the global index (0-based) of local index l (0-based) in a block-cyclic dimension */
static int global(int l, int nb, int p, int np) { return (l / nb * np + p) * nb + l % nb; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int n = argc > 1 ? atoi(argv[1]) : 500, nb = argc > 2 ? atoi(argv[2]) : 32;
    const char *values_file = argc > 3 && *argv[3] ? argv[3] : NULL;
    const char *name = argc > 4 ? argv[4] : "scalapack/elpa";
    int pr = 1;
    for (int d = 1; d * d <= np; d++)
        if (np % d == 0) pr = d;
    int pc = np / pr;

    int i0 = 0, i1 = 1, ctx, nprow, npcol, myrow, mycol, info;
    blacs_get_(&i0, &i0, &ctx);
    blacs_gridinit_(&ctx, "R", &pr, &pc, 1);
    blacs_gridinfo_(&ctx, &nprow, &npcol, &myrow, &mycol);
    int mloc = numroc_(&n, &nb, &myrow, &i0, &nprow);
    int nloc = numroc_(&n, &nb, &mycol, &i0, &npcol);
    int lld = mloc > 1 ? mloc : 1, desc[9];
    descinit_(desc, &n, &n, &nb, &nb, &i0, &i0, &ctx, &lld, &info);

    size_t sz = (size_t)lld * (nloc > 0 ? nloc : 1);
    double *a0 = malloc(sz * sizeof *a0), *a = malloc(sz * sizeof *a);
    double *z = malloc(sz * sizeof *z), *zr = malloc(sz * sizeof *zr), *r = malloc(sz * sizeof *r);
    double *w = malloc(n * sizeof *w), *wr = malloc(n * sizeof *wr);
    for (int jl = 0; jl < nloc; jl++)
        for (int il = 0; il < mloc; il++)
            a0[il + (size_t)jl * lld] = entry(global(il, nb, myrow, nprow), global(jl, nb, mycol, npcol), n);

    /* ELPA: the full matrix (both triangles) in the same block-cyclic layout */
    int err;
    if (elpa_init(ELPA_API_VERSION) != ELPA_OK) {
        if (me == 0) printf("FAIL %s/init: elpa_init(%d) refused\n", name, ELPA_API_VERSION);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    elpa_t e = elpa_allocate(&err);
    int bad = err != ELPA_OK;
    elpa_set(e, "na", n, &err); bad |= err != ELPA_OK;
    elpa_set(e, "nev", n, &err); bad |= err != ELPA_OK;
    elpa_set(e, "local_nrows", mloc, &err); bad |= err != ELPA_OK;
    elpa_set(e, "local_ncols", nloc, &err); bad |= err != ELPA_OK;
    elpa_set(e, "nblk", nb, &err); bad |= err != ELPA_OK;
    elpa_set(e, "mpi_comm_parent", (int)MPI_Comm_c2f(MPI_COMM_WORLD), &err); bad |= err != ELPA_OK;
    elpa_set(e, "process_row", myrow, &err); bad |= err != ELPA_OK;
    elpa_set(e, "process_col", mycol, &err); bad |= err != ELPA_OK;
    elpa_set(e, "blacs_context", ctx, &err); bad |= err != ELPA_OK;
    if (elpa_setup(e) != ELPA_OK) bad = 1;
    /* after setup: the two-stage solver; a GPU build of ELPA would also take
     * elpa_set(e, "nvidia-gpu", 1, &err) (or "amd-gpu", "intel-gpu") here */
    elpa_set(e, "solver", ELPA_SOLVER_2STAGE, &err); bad |= err != ELPA_OK;
    memcpy(a, a0, sz * sizeof *a);
    double t = MPI_Wtime();
    if (!bad) {
        elpa_eigenvectors(e, a, w, z, &err);
        bad = err != ELPA_OK;
    }
    double t_elpa = MPI_Wtime() - t;
    elpa_deallocate(e, &err);
    elpa_uninit(&err);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) {
        if (bad) printf("FAIL %s/solve: an ELPA call returned an error\n", name);
        else printf("PASS %s/solve (n=%d nb=%d grid=%dx%d two-stage, %.3fs)\n", name,
                    n, nb, nprow, npcol, t_elpa);
    }

    /* the reference: pdsyevd on the same matrix */
    int lwork = -1, liwork = -1, iwq;
    double wq;
    memcpy(a, a0, sz * sizeof *a);
    pdsyevd_("V", "L", &n, a, &i1, &i1, desc, wr, zr, &i1, &i1, desc, &wq, &lwork, &iwq, &liwork, &info, 1, 1);
    lwork = (int)wq * 2;
    liwork = iwq;
    double *work = malloc((size_t)lwork * sizeof *work);
    int *iwork = malloc((size_t)liwork * sizeof *iwork);
    t = MPI_Wtime();
    pdsyevd_("V", "L", &n, a, &i1, &i1, desc, wr, zr, &i1, &i1, desc, work, &lwork, iwork, &liwork, &info, 1, 1);
    double t_ref = MPI_Wtime() - t;
    free(iwork);

    double eps = DBL_EPSILON, anorm = pdlange_("1", &n, &n, a0, &i1, &i1, desc, work, 1);
    if (me == 0) {
        double d = 0, wmax = 0;
        for (int k = 0; k < n; k++) {
            d = fmax(d, fabs(w[k] - wr[k]));
            wmax = fmax(wmax, fabs(wr[k]));
        }
        double ratio = d / (n * eps * wmax);
        if (info != 0) printf("FAIL %s/values: pdsyevd info=%d\n", name, info);
        else if (bad || !(ratio <= 20)) {
            printf("FAIL %s/values: max |w_elpa - w_pdsyevd| = %.3g, %.3g n eps ||A||\n", name, d, ratio);
        } else
            printf("PASS %s/values (max |w_elpa - w_pdsyevd| = %.2g = %.2f n eps ||A||; pdsyevd %.3fs)\n", name,
                   d, ratio, t_ref);
        if (values_file) {
            FILE *f = fopen(values_file, "w");
            for (int k = 0; f && k < n; k++) fprintf(f, "%a\n", w[k]);
            if (f) fclose(f);
        }
    }

    /* residual: R = A Z - Z diag(w), ||R||_1 / (n eps ||A||_1) */
    double one = 1, zero = 0, mone = -1;
    pdgemm_("N", "N", &n, &n, &n, &one, a0, &i1, &i1, desc, z, &i1, &i1, desc, &zero, r, &i1, &i1, desc, 1, 1);
    for (int jl = 0; jl < nloc; jl++) {
        double wj = w[global(jl, nb, mycol, npcol)];
        for (int il = 0; il < mloc; il++) r[il + (size_t)jl * lld] -= wj * z[il + (size_t)jl * lld];
    }
    double res = pdlange_("1", &n, &n, r, &i1, &i1, desc, work, 1) / (n * eps * anorm);
    /* orthogonality: Z^T Z - I */
    for (int jl = 0; jl < nloc; jl++)
        for (int il = 0; il < mloc; il++)
            r[il + (size_t)jl * lld] = global(il, nb, myrow, nprow) == global(jl, nb, mycol, npcol);
    pdgemm_("T", "N", &n, &n, &n, &one, z, &i1, &i1, desc, z, &i1, &i1, desc, &mone, r, &i1, &i1, desc, 1, 1);
    double orth = pdlange_("1", &n, &n, r, &i1, &i1, desc, work, 1) / (n * eps);
    if (me == 0) {
        if (bad || !(res < 30)) printf("FAIL %s/residual: ||A Z - Z diag(w)|| = %.3g n eps ||A||\n", name, res);
        else printf("PASS %s/residual (||A Z - Z diag(w)||_1 = %.3f n eps ||A||_1)\n", name, res);
        if (bad || !(orth < 30)) printf("FAIL %s/orth: ||Z^T Z - I|| = %.3g n eps\n", name, orth);
        else printf("PASS %s/orth (||Z^T Z - I||_1 = %.3f n eps)\n", name, orth);
    }
    free(work); free(a0); free(a); free(z); free(zr); free(r); free(w); free(wr);
    blacs_gridexit_(&ctx);
    MPI_Finalize();
    return 0;
}
