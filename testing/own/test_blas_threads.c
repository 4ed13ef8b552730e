/*
 * test_blas_threads: the host path's stage 1 holds OpenBLAS at one thread
 * while its own threads run the products (docs/env.md
 * GPULAPACK_HOST_PRODUCTS), and a program must find the count it set when
 * the calls return: after calls from one thread, after calls from 4
 * threads at once (the holds overlap), and with the count at 1 (held at
 * what it is).  Each call is checked against the real LAPACK by LAPACK's
 * ratios, on the host path (run with GPULAPACK_DEVICE=host
 * GPULAPACK_MIN_N=0 GPULAPACK_TEST_COMPARE=ratio
 * GPULAPACK_TEST_EXPECT_PATH=host), at sizes whose products are cut over
 * threads.  Without OpenBLAS's functions: one PASS line saying so.
 */
#include "testutil.h"

#define NTHREADS 4

static int (*get_threads)(void);
static void (*set_threads)(int);

static tu_case cases[8];
static tu_res refs[8];
static int ncases;

static void add(tu_spec s)
{
    if (tu_build(&s, &cases[ncases]) == 0)
        ncases++;
    else
        tu_case_free(&cases[ncases]);
}

typedef struct {
    int t, bad;
    char first[1400];
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    for (int i = 0; i < ncases; i++) {
        tu_case *c = &cases[(i + w->t) % ncases];
        tu_res o;
        char msg[1200];
        tu_exec(c, 0, &o);
        if (!tu_compare_q(c, &o, &refs[(i + w->t) % ncases], -1, msg,
                          sizeof msg) &&
            !w->bad++)
            snprintf(w->first, sizeof w->first, "%.600s [%.600s]", msg,
                     c->desc);
        tu_res_free(&o);
    }
    return NULL;
}

/* The log's lines from byte `from` on: how many, how many not on
 * path=host (*others), the first of those. */
static int log_paths(long from, int *others, char *first, size_t size)
{
    FILE *f = fopen(tu_log_path, "r");
    char line[1024];
    int count = 0;
    *others = 0;
    if (!f)
        return 0;
    fseek(f, from, SEEK_SET);
    while (fgets(line, sizeof line, f))
        if (strstr(line, " path=")) {
            count++;
            if (!strstr(line, " path=host ") && !(*others)++)
                snprintf(first, size, "%.200s", line);
        }
    fclose(f);
    return count;
}

/* Every case from `threads` threads at once, each on the host path; then
 * the BLAS's count must be `want`. */
static void run(const char *name, int threads, int want)
{
    long mark = tu_log_mark();
    pthread_t th[NTHREADS];
    worker_arg args[NTHREADS];
    char check[96];
    int started = 0, bad = 0;
    const char *first = "";
    for (int t = 0; t < threads; t++) {
        args[t] = (worker_arg){.t = t};
        if (pthread_create(&th[t], NULL, worker, &args[t]) == 0)
            started++;
    }
    for (int t = 0; t < started; t++) {
        pthread_join(th[t], NULL);
        if (args[t].bad && !bad)
            first = args[t].first;
        bad += args[t].bad;
    }
    snprintf(check, sizeof check, "blas-threads/%s/results", name);
    tu_report(started == threads && bad == 0, check,
              "%d threads started of %d, %d results off; first: %s", started,
              threads, bad, first);
    int others;
    char other[256] = "";
    int calls = log_paths(mark, &others, other, sizeof other);
    snprintf(check, sizeof check, "blas-threads/%s/host-path", name);
    tu_report(calls >= threads * ncases && others == 0, check,
              "%d logged calls (want %d), %d not on the host path: %s", calls,
              threads * ncases, others, other);
    snprintf(check, sizeof check, "blas-threads/%s/count-restored", name);
    tu_report(get_threads() == want, check, "the BLAS's count %d, want %d",
              get_threads(), want);
}

int main(void)
{
    tu_init("test_blas_threads");
    tu_check_front();
    *(void **)&get_threads = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    *(void **)&set_threads = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (!get_threads || !set_threads) {
        tu_report(1, "blas-threads/no-openblas",
                  "the BLAS has no openblas_get_num_threads: nothing held");
        return tu_finish();
    }
    tu_spec s;
    s = tu_mk(F_SYEVD, 'd', "NL", 0, 640); add(s);
    s = tu_mk(F_GESDD, 'd', "N", 560, 480); add(s);
    s = tu_mk(F_SYEVD, 'z', "NU", 0, 320); add(s);
    s = tu_mk(F_GESDD, 'c', "N", 300, 340); add(s);
    s = tu_mk(F_SYEVD, 'd', "VL", 0, 520); add(s);
    for (int count = 3; count >= 1; count -= 2) {
        set_threads(count);
        /* OpenBLAS's results depend on its count: the references under
         * the same one */
        for (int i = 0; i < ncases; i++) {
            if (count < 3)
                tu_res_free(&refs[i]);
            tu_exec(&cases[i], 1, &refs[i]);
        }
        char name[32];
        snprintf(name, sizeof name, "count-%d/one-caller", count);
        run(name, 1, count);
        snprintf(name, sizeof name, "count-%d/%d-callers", count, NTHREADS);
        run(name, NTHREADS, count);
    }
    for (int i = 0; i < ncases; i++) {
        tu_res_free(&refs[i]);
        tu_case_free(&cases[i]);
    }
    return tu_finish();
}
