/* Unit test: gl_host_alloc (runtime/memory.c), the work arrays' memory.
 * Small arrays are aligned to a cache line; large ones to 2 MiB, every
 * byte usable, and, where the kernel offers transparent huge pages, marked
 * for them ("hg" in the mapping's VmFlags of /proc/self/smaps) unless
 * GPULAPACK_HUGEPAGES=0.  The program runs itself a second time with
 * GPULAPACK_HUGEPAGES=0, since the configuration is read once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    free(small);

    size_t big = (size_t)10 << 20 | 123;   /* not a whole number of pages */
    unsigned char *p = gl_host_alloc(big);
    CHECK("large-allocated", p != NULL);
    if (!p)
        return;
    memset(p, 2, big);
    CHECK("large-usable", p[0] == 2 && p[big - 1] == 2);
    if (huge_expected)
        CHECK("large-aligned", (uintptr_t)p % ((size_t)2 << 20) == 0);
    else
        CHECK("large-aligned", (uintptr_t)p % 64 == 0);
    int hg = mapping_has_flag(p, "hg");
    if (hg < 0 || (huge_expected && !thp_on_advice()))
        printf("# no huge-page flag to check (smaps %s, THP %s)\n",
               hg < 0 ? "unreadable" : "read",
               thp_on_advice() ? "on advice" : "off");
    else
        CHECK("large-huge-pages", hg == huge_expected);
    free(p);

    CHECK("overflow", gl_host_alloc(SIZE_MAX - 16) == NULL);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--no-hugepages") == 0) {
        mode = "hugepages=0";
        check_alloc(0);
        return failed != 0;
    }
    unsetenv("GPULAPACK_HUGEPAGES");
    check_alloc(1);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("GPULAPACK_HUGEPAGES", "0", 1);
        execl("/proc/self/exe", argv[0], "--no-hugepages", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        mode = "hugepages=0";
        CHECK("child", 0);
    }
    printf("# test_memory: %d failed\n", failed);
    return failed != 0;
}
