/*
 * test_threads: 8 threads call the library concurrently, each cycling
 * through a different sequence of routines and precisions (SVDs,
 * eigensolvers, reductions, band routines, one invalid call that goes
 * through xerbla) on their own copies of the inputs, many iterations.
 * Every result must equal the sequential reference computed beforehand by
 * the real LAPACK (bit-identical in exact mode; LAPACK ratios in ratio
 * mode), every call must have gone through the library (one well-formed
 * GPULAPACK_LOG line per call, none torn or interleaved), no crash.
 */
#include "testutil.h"

#define NTHREADS 8

typedef struct {
    tu_case c;
    tu_res ref;
} item;

static item *items;
static int nitems;
static int iters = 200;
static const char *phase = "";
static int calls_per_case[256];
static pthread_mutex_t cnt_lock = PTHREAD_MUTEX_INITIALIZER;

static void add(tu_spec s)
{
    item *it = &items[nitems];
    if (tu_build(&s, &it->c) != 0) {
        tu_case_free(&it->c);
        return;
    }
    nitems++;
}

/* cold start: the very first intercepted calls of the process, from 8
 * threads at once (the library initialises lazily on its first call) */
static pthread_barrier_t cold_barrier;
static tu_res cold_res[NTHREADS];
static int cold_item(int t) { return (t * 5 + 1) % nitems; }
static void *cold_worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    pthread_barrier_wait(&cold_barrier);
    tu_exec(&items[cold_item(t)].c, 0, &cold_res[t]);
    return NULL;
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, i, bad = 0, ncalls = 0;
    char first[1400] = "";
    int local_counts[256] = {0};
    for (i = 0; i < iters; i++) {
        int k = (t * 7 + i * (2 * t + 3)) % nitems;
        item *it = &items[k];
        tu_res o;
        char msg[1200];
        tu_exec(&it->c, 0, &o);
        ncalls++;
        local_counts[k]++;
        if (!tu_compare_q(&it->c, &o, &it->ref, -1, msg, sizeof msg)) {
            if (!bad++)
                snprintf(first, sizeof first, "iteration %d: %.600s [%.600s]", i, msg, it->c.desc);
        }
        tu_res_free(&o);
    }
    pthread_mutex_lock(&cnt_lock);
    for (i = 0; i < nitems; i++)
        calls_per_case[i] += local_counts[i];
    pthread_mutex_unlock(&cnt_lock);
    {
        char nm[64];
        snprintf(nm, sizeof nm, "concurrent/%s/thread-%d", phase, t);
        tu_report(bad == 0, nm, "%d of %d calls differ from the sequential reference; first: %s",
                  bad, ncalls, first);
    }
    return NULL;
}

/* every call of the phase logged once, every line whole */
static void check_log(long mark)
{
    int want[TU_NFAM][4] = {{0}}, f, k, i, total = 0, lines = 0, torn = 0;
    char ln[4096], first_torn[200] = "", nm[128];
    FILE *fl = fopen(tu_log_path, "r");
    if (fl)
        fseek(fl, mark, SEEK_SET);
    for (i = 0; i < nitems; i++) {
        want[items[i].c.fam][tu_pidx(items[i].c.p)] += calls_per_case[i];
        total += calls_per_case[i];
    }
    if (fl) {
        while (fgets(ln, sizeof ln, fl)) {
            lines++;
            if (strncmp(ln, "gpulapack: ", 11) != 0 || !strstr(ln, " path=") ||
                !strstr(ln, " info=") || ln[strlen(ln) - 1] != '\n') {
                if (!torn++)
                    snprintf(first_torn, sizeof first_torn, "%.150s", ln);
            }
        }
        fclose(fl);
    }
    snprintf(nm, sizeof nm, "log/%s/one-whole-line-per-call", phase);
    tu_report(lines == total && torn == 0, nm, "%d lines for %d calls, %d malformed (first: %s)",
              lines, total, torn, first_torn);
    for (f = 0; f < TU_NFAM; f++)
        for (k = 0; k < 4; k++) {
            int got, bad = 0;
            if (!want[f][k])
                continue;
            got = tu_log_count(mark, tu_rname(f, tu_precs[k]), NULL, &bad);
            snprintf(nm, sizeof nm, "log/%s/%s-calls", phase, tu_rname(f, tu_precs[k]));
            tu_report(got == want[f][k] && !bad, nm, "%d log lines, %d calls", got, want[f][k]);
        }
}

int main(void)
{
    pthread_t th[NTHREADS];
    int i, pi, rc, ph, full;
    double t0 = tu_now(), t1;
    const char *e = getenv("GPULAPACK_TEST_THREAD_ITERS");
    void (*set_threads)(int);
    if (e && atoi(e) > 0)
        iters = atoi(e);
    full = iters;
    tu_init("test_threads");
    tu_check_front();
    items = calloc(256, sizeof *items);
    for (pi = 0; pi < 4; pi++) {
        char p = tu_precs[pi];
        tu_spec s;
        s = tu_mk(F_GESDD, p, "A", 30, 20); s.lwork = TU_LW_OPT; add(s);
        s = tu_mk(F_GESDD, p, "S", 18, 33); add(s);
        s = tu_mk(F_GESVD, p, "SS", 20, 30); s.lwork = TU_LW_OPT; add(s);
        s = tu_mk(F_SYEVD, p, "VU", 0, 28); s.lwork = s.liwork = s.lrwork = TU_LW_OPT; add(s);
        s = tu_mk(F_SYEVR, p, "VIL", 0, 26); s.il = 3; s.iu = 12; s.lwork = s.liwork = s.lrwork = TU_LW_OPT; add(s);
        s = tu_mk(F_SYEVX, p, "VVU", 0, 22); s.vlo = 4; s.vhi = 15; add(s);
        s = tu_mk(F_SYEV, p, "VL", 0, 24); s.lwork = TU_LW_OPT; add(s);
        s = tu_mk(F_SYTRD, p, "L", 0, 40); s.lwork = TU_LW_OPT; add(s);
        s = tu_mk(F_GBBRD, p, "B", 25, 20); s.k = 3; s.ku = 2; s.ncc = 3; add(s);
        s = tu_mk(F_SBTRD, p, "VU", 0, 30); s.k = 4; add(s);
        s = tu_mk(F_SBEVD, p, "VL", 0, 26); s.k = 3; add(s);
        s = tu_mk(F_SBEV, p, "NU", 0, 26); s.k = 2; add(s);
        s = tu_mk(F_SYEV2, p, "NU", 0, 30); add(s);
        s = tu_mk(F_SYEVD2, p, "NL", 0, 30); add(s);
        s = tu_mk(F_SYTRD2, p, "NU", 0, 30); add(s);
        s = tu_mk(F_SYEVR2, p, "NAL", 0, 20); add(s);
        s = tu_mk(F_SYEVX2, p, "NIU", 0, 20); s.il = 2; s.iu = 9; add(s);
        s = tu_mk(F_GESDD, p, "A", 10, 8); s.lda = 5; add(s); /* invalid: xerbla */
    }
    /* phase 0: cold start, before anything entered the library (building
     * the cases above only asked the real LAPACK for workspace sizes) */
    pthread_barrier_init(&cold_barrier, NULL, NTHREADS);
    for (i = 0; i < NTHREADS; i++)
        if (pthread_create(&th[i], NULL, cold_worker, (void *)(intptr_t)i) != 0) {
            tu_report(0, "cold-start/pthread_create", "failed");
            return tu_finish();
        }
    for (i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&cold_barrier);
    memset(calls_per_case, 0, sizeof calls_per_case);
    for (i = 0; i < NTHREADS; i++)
        calls_per_case[cold_item(i)]++;
    phase = "cold-start";
    check_log(0);
    /* the sequential reference: the real LAPACK */
    for (i = 0; i < nitems; i++)
        tu_exec(&items[i].c, 1, &items[i].ref);
    for (i = 0; i < NTHREADS; i++) {
        char msg[1200], nm[64];
        item *it = &items[cold_item(i)];
        int ok = tu_compare_q(&it->c, &cold_res[i], &it->ref, -1, msg, sizeof msg);
        snprintf(nm, sizeof nm, "cold-start/thread-%d", i);
        tu_report(ok, nm, "%s [%s]", msg, it->c.desc);
        tu_res_free(&cold_res[i]);
    }

    /* phase 1: the BLAS as configured (OpenBLAS's own thread pool contends
     * with 8 callers on 2 cores: few iterations); phase 2: single-threaded
     * BLAS where it can be set (openblas_set_num_threads), many iterations */
    set_threads = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    for (ph = 0; ph < 2; ph++) {
        long mark;
        phase = ph == 0 ? "blas-default" : "blas-1-thread";
        iters = ph == 0 ? (full < 8 ? full : 8) : full;
        if (ph == 1 && set_threads) {
            /* OpenBLAS results depend on its thread count: recompute the
             * sequential reference under the same setting */
            set_threads(1);
            for (i = 0; i < nitems; i++) {
                tu_res_free(&items[i].ref);
                tu_exec(&items[i].c, 1, &items[i].ref);
            }
        }
        /* the reference runs went into the real LAPACK, whose drivers call
         * ?sytrd/?sbtrd/?sytrd_2stage through the global symbol: ours,
         * logged. Count only what the threads add. */
        mark = tu_log_mark();
        memset(calls_per_case, 0, sizeof calls_per_case);
        t1 = tu_now();
        for (i = 0; i < NTHREADS; i++) {
            rc = pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
            if (rc != 0) {
                tu_report(0, "concurrent/pthread_create", "rc=%d", rc);
                return tu_finish();
            }
        }
        for (i = 0; i < NTHREADS; i++)
            pthread_join(th[i], NULL);
        tu_note("%s: %d threads x %d calls in %.2f s", phase, NTHREADS, iters, tu_now() - t1);
        check_log(mark);
    }
    for (i = 0; i < nitems; i++) {
        tu_res_free(&items[i].ref);
        tu_case_free(&items[i].c);
    }
    free(items);
    tu_note("test_threads took %.1f s", tu_now() - t0);
    return tu_finish();
}
