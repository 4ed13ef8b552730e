/* Unit test: gl_host_alloc (runtime/memory.c), the work arrays' memory.
 * Small arrays are aligned to a cache line; large ones to 2 MiB, every
 * byte usable, and, where the kernel offers transparent huge pages, marked
 * for them ("hg" in the mapping's VmFlags of /proc/self/smaps) with
 * GPULAPACK_HUGEPAGES=1, and not by default.  Large arrays count against
 * the budget: one of 9/10 of MemAvailable is refused, and after whole
 * calls of the host path (dsyevd, dgesdd with vectors) nothing is left
 * counted.  With GPULAPACK_HOST_MEMORY_MB below what a call needs, the
 * call gives the real LAPACK's result exactly, on LAPACK.  A released
 * large array is kept and given again for the next one of its size, a
 * second dgesdd takes no new memory, and GPULAPACK_HOST_KEEP_MB caps what
 * is kept (0: nothing).  The program runs itself again for each setting,
 * since the configuration is read once.  Linked before the system LAPACK:
 * dsyevd_ and dgesdd_ are ours, the real ones come from dlopen. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpulapack.h"
#include "memory.h"

static int failed;
static const char *mode = "default";

#define CHECK(name, cond)                                                     \
    do {                                                                      \
        if (cond)                                                             \
            printf("PASS unit/memory/%s/%s\n", mode, name);                  \
        else {                                                                \
            printf("FAIL unit/memory/%s/%s: %s\n", mode, name, #cond);       \
            failed++;                                                         \
        }                                                                     \
    } while (0)

/* 1 if the kernel hands out transparent huge pages on advice. */
static int thp_on_advice(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128] = "";
    if (!f)
        return 0;
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    return strstr(line, "[never]") == NULL && line[0] != 0;
}

/* 1 if the mapping that holds p has flag (e.g. "hg") in its VmFlags, 0 if
 * not, -1 if /proc/self/smaps does not say. */
static int mapping_has_flag(const void *p, const char *flag)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int inside = 0, result = -1;
    uintptr_t addr = (uintptr_t)p;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
            strchr(line, '-') < strchr(line, ' ')) {
            inside = addr >= lo && addr < hi;
            continue;
        }
        if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            char want[8];
            snprintf(want, sizeof want, " %s", flag);
            result = strstr(line + 8, want) != NULL;
            break;
        }
    }
    fclose(f);
    return result;
}

static void check_alloc(int huge_expected)
{
    unsigned char *small = gl_host_alloc(1000);
    CHECK("small-aligned", small && (uintptr_t)small % 64 == 0);
    if (small)
        memset(small, 1, 1000);
    gl_host_free(small);

    size_t big = (size_t)10 << 20 | 123;   /* not a whole number of pages */
    unsigned char *p = gl_host_alloc(big);
    CHECK("large-allocated", p != NULL);
    if (!p)
        return;
    memset(p, 2, big);
    CHECK("large-usable", p[0] == 2 && p[big - 1] == 2);
    CHECK("large-aligned", (uintptr_t)p % ((size_t)2 << 20) == 0);
    int hg = mapping_has_flag(p, "hg");
    if (hg < 0 || (huge_expected && !thp_on_advice()))
        printf("# no huge-page flag to check (smaps %s, THP %s)\n",
               hg < 0 ? "unreadable" : "read",
               thp_on_advice() ? "on advice" : "off");
    else
        CHECK("large-huge-pages", hg == huge_expected);
    gl_host_free(p);

    CHECK("overflow", gl_host_alloc(SIZE_MAX - 16) == NULL);
}

/* MemAvailable in bytes, 0 if /proc/meminfo does not say. */
static size_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (size_t)kb * 1024;
}

static void check_budget(void)
{
    size_t avail = mem_available();
    if (avail > 0) {
        void *p = gl_host_alloc(avail / 10 * 9);
        CHECK("refused-above-available", p == NULL);
        gl_host_free(p);
    }
    size_t before = gl_host_outstanding(), big = (size_t)6 << 20;
    void *p = gl_host_alloc(big);
    CHECK("counted", p && gl_host_outstanding() == before + big);
    gl_host_free(p);
    CHECK("released", gl_host_outstanding() == before);
}

/* A released large array is kept (up to keep_mb MiB, -1: no cap) and
 * given again for the next array of its size; in a fresh process. */
static void check_kept(long keep_mb)
{
    /* 5 MiB and the allocator's tail (an eighth) fill three huge pages;
     * a child, so nothing is kept yet */
    size_t block = (size_t)6 << 20, asked = (size_t)5 << 20;
    void *p = gl_host_alloc(asked), *q = gl_host_alloc(asked);
    CHECK("kept-two-allocated", p && q && p != q);
    gl_host_free(p);
    gl_host_free(q);
    size_t cap = keep_mb < 0 ? SIZE_MAX : (size_t)keep_mb << 20;
    size_t expected = cap >= 2 * block ? 2 * block : cap >= block ? block : 0;
    CHECK("kept-after-release", gl_host_kept() == expected);
    size_t again = asked - 12345;
    void *r = gl_host_alloc(again);
    if (expected > 0)
        CHECK("kept-given-again", (r == p || r == q) &&
                                      gl_host_kept() == expected - block);
    else
        CHECK("nothing-kept", r && gl_host_kept() == 0);
    CHECK("kept-counted", gl_host_outstanding() == again);
    if (r)
        memset(r, 3, again);
    gl_host_free(r);
    CHECK("kept-released", gl_host_outstanding() == 0 &&
                               gl_host_kept() == expected);
}

typedef void dsyevd_fn(const char *, const char *, const int *, double *,
                       const int *, double *, double *, const int *, int *,
                       const int *, int *);
typedef void dgesdd_fn(const char *, const int *, const int *, double *,
                       const int *, double *, double *, const int *, double *,
                       const int *, double *, const int *, int *, int *);
dsyevd_fn dsyevd_;
dgesdd_fn dgesdd_;

/* Large enough that the copy of A (9.7 MB) is a large array. */
enum { NB = 1100 };

/* dsyevd 'V' through ours (real = 0) or the system's: W and Z into out
 * (n + n^2), INFO returned. */
static int call_dsyevd(int real, const double *a0, double *out)
{
    int n = NB, lwork = 1 + 6 * NB + 2 * NB * NB, liwork = 3 + 5 * NB;
    int info = -99;
    double *work = malloc(sizeof *work * (size_t)lwork);
    int *iwork = malloc(sizeof *iwork * (size_t)liwork);
    memcpy(out + NB, a0, sizeof *a0 * NB * NB);
    dsyevd_fn *f = dsyevd_;
    if (real) {
        void *lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
        f = lib ? (dsyevd_fn *)dlsym(lib, "dsyevd_") : NULL;
    }
    if (f && work && iwork)
        f("V", "L", &n, out + NB, &n, out, work, &lwork, iwork, &liwork,
          &info);
    free(work);
    free(iwork);
    return info;
}

static void check_calls(int capped)
{
    size_t nn = (size_t)NB * NB;
    double *a = malloc(sizeof *a * nn), *ours = malloc(sizeof *a * (nn + NB)),
           *real = malloc(sizeof *a * (nn + NB)),
           *u = malloc(sizeof *a * nn), *vt = malloc(sizeof *a * nn);
    int *iwork = malloc(sizeof *iwork * 8 * NB);
    int lwork = 4 * NB * NB + 7 * NB, n = NB, info = -99;
    double *work = malloc(sizeof *work * (size_t)lwork);
    if (!a || !ours || !real || !u || !vt || !iwork || !work) {
        CHECK("test-memory", 0);
        return;
    }
    for (int j = 0; j < NB; j++)
        for (int i = j; i < NB; i++)
            a[i + (size_t)j * NB] = a[j + (size_t)i * NB] =
                (double)((i * 7 + j * 13) % 101) / 101 - 0.5;
    gpulapack_timing t;
    int info_ours = call_dsyevd(0, a, ours);
    int accelerated = gpulapack_last_timing(&t);
    if (capped) {
        int info_real = call_dsyevd(1, a, real);
        CHECK("capped-dsyevd-on-lapack", !accelerated);
        CHECK("capped-dsyevd-lapack-result",
              info_ours == info_real && info_real == 0 &&
                  memcmp(ours, real, sizeof *ours * (nn + NB)) == 0);
    } else {
        CHECK("dsyevd-on-host", accelerated && info_ours == 0 &&
                                    strcmp(t.path, "host") == 0);
        CHECK("dsyevd-all-released", gl_host_outstanding() == 0);
        dgesdd_("S", &n, &n, a, &n, ours, u, &n, vt, &n, work, &lwork,
                iwork, &info);
        CHECK("dgesdd-on-host", info == 0 && gpulapack_last_timing(&t) &&
                                    strcmp(t.routine, "dgesdd") == 0 &&
                                    strcmp(t.path, "host") == 0);
        CHECK("dgesdd-all-released", gl_host_outstanding() == 0);
        /* the same call again takes every array from those kept */
        size_t kept = gl_host_kept();
        double s0 = ours[0];
        dgesdd_("S", &n, &n, a, &n, ours, u, &n, vt, &n, work, &lwork,
                iwork, &info);
        CHECK("dgesdd-again-same-values", info == 0 && ours[0] == s0);
        CHECK("dgesdd-again-no-new-memory",
              kept > 0 && gl_host_kept() == kept &&
                  gl_host_outstanding() == 0);
    }
    free(a);
    free(ours);
    free(real);
    free(u);
    free(vt);
    free(iwork);
    free(work);
}

/* Runs this program again with one variable set and argument arg. */
static void run_child(const char *argv0, const char *var, const char *value,
                      const char *arg, const char *child_mode)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv(var, value, 1);
        setenv("GPULAPACK_DEVICE", "host", 1);
        setenv("GPULAPACK_MIN_N", "0", 1);
        execl("/proc/self/exe", argv0, arg, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        mode = child_mode;
        CHECK("child", 0);
    }
}

/* What runs in a child of its own, under one setting: the configuration
 * is read once per process. */
static void hugepages(void)
{
    check_alloc(1);
    check_budget();
}
static void keep_default(void) { check_kept(-1); }
static void keep_8(void) { check_kept(8); }
static void keep_0(void) { check_kept(0); }
static void calls(void) { check_calls(0); }
static void capped(void) { check_calls(1); }

static const struct {
    const char *arg, *var, *value, *mode;
    void (*run)(void);
} children[] = {
    {"--keep-default", "GPULAPACK_VERBOSE", "0", "host-keep-default",
     keep_default},
    {"--keep-8", "GPULAPACK_HOST_KEEP_MB", "8", "host-keep-8mb", keep_8},
    {"--keep-0", "GPULAPACK_HOST_KEEP_MB", "0", "host-keep-0", keep_0},
    {"--hugepages", "GPULAPACK_HUGEPAGES", "1", "hugepages=1", hugepages},
    {"--calls", "GPULAPACK_VERBOSE", "0", "calls", calls},
    {"--capped", "GPULAPACK_HOST_MEMORY_MB", "4", "host-memory-4mb", capped},
};
enum { NCHILDREN = sizeof children / sizeof children[0] };

int main(int argc, char **argv)
{
    for (int i = 0; argc > 1 && i < NCHILDREN; i++)
        if (strcmp(argv[1], children[i].arg) == 0) {
            mode = children[i].mode;
            children[i].run();
            return failed != 0;
        }
    unsetenv("GPULAPACK_HUGEPAGES");
    unsetenv("GPULAPACK_HOST_MEMORY_MB");
    unsetenv("GPULAPACK_HOST_KEEP_MB");
    check_alloc(0);
    check_budget();
    for (int i = 0; i < NCHILDREN; i++)
        run_child(argv[0], children[i].var, children[i].value,
                  children[i].arg, children[i].mode);
    printf("# test_memory: %d failed\n", failed);
    return failed != 0;
}
