#include "memory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "config.h"
#include "log.h"

/* a cache line (GL_LINE_BYTES of kernels/ops.h), an x86-64 huge page */
enum { LINE = 64, HUGE_PAGE = 2 << 20 };

/* Bytes every array gets past its end, never written.  Debian 12's
 * OpenBLAS 0.3.21 ?gemv kernels for Haswell/Zen/SkylakeX (built by gcc
 * 12) read past the end of their operands, up to one column beyond the
 * matrix (OpenBLAS issues 4013 and 5000, fixed in 0.3.23; valgrind on
 * cgesvd at n = 129 saw reads 272 and 680 bytes past), and an array of
 * ours that ended a mapping would make the LAPACK routines we call on it
 * fault.  A column of an array with 8 columns or more is at most an
 * eighth of it; 4 KiB covers the columns of narrower ones up to 256
 * complex doubles.  The tail of a large array is never touched, so it
 * takes address space, not memory. */
static size_t tail_bytes(size_t bytes)
{
    return bytes / 8 > 4096 ? bytes / 8 : 4096;
}

/* ---- the budget of the large arrays ------------------------------------ */

/* The large arrays not yet freed, of every thread's calls.  Slots run out
 * only with dozens of calls at once; an array that finds none is refused,
 * as one over the budget is. */
enum { TRACKED_MAX = 256 };
static pthread_mutex_t tracked_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t bytes;   /* asked for */
    size_t size;    /* allocated: whole huge pages */
} tracked[TRACKED_MAX];
static size_t outstanding;

/* The number after key in the file (key NULL: the first word), or -1. */
static long long file_number(const char *path, const char *key)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    char line[256];
    long long value = -1;
    size_t klen = key ? strlen(key) : 0;
    while (fgets(line, sizeof line, f)) {
        if (key && strncmp(line, key, klen) != 0)
            continue;
        if (sscanf(line + klen, "%lld", &value) != 1)
            value = -1;   /* "max": no limit */
        break;
    }
    fclose(f);
    return value;
}

/* The least room under the limits of a cgroup and of its parents:
 * limit - usage + the file cache it may reclaim; -1 if none has a limit.
 * root: the hierarchy's directory, path: "/a/b" (then /a, then /). */
static long long hierarchy_room(const char *root, char *path,
                                const char *limit_file,
                                const char *usage_file, const char *cache_key)
{
    long long room = -1;
    for (;;) {
        char file[768];
        const char *dir = strcmp(path, "/") == 0 ? "" : path;
        snprintf(file, sizeof file, "%s%s/%s", root, dir, limit_file);
        long long limit = file_number(file, NULL);
        snprintf(file, sizeof file, "%s%s/%s", root, dir, usage_file);
        /* v1 writes "no limit" as a number near 2^63 */
        long long usage =
            limit >= 0 && limit < (1LL << 60) ? file_number(file, NULL) : -1;
        snprintf(file, sizeof file, "%s%s/memory.stat", root, dir);
        long long cache = usage >= 0 ? file_number(file, cache_key) : -1;
        if (usage >= 0) {
            long long r = limit - usage + (cache > 0 ? cache : 0);
            r = r < 0 ? 0 : r;
            room = room < 0 || r < room ? r : room;
        }
        char *slash = strrchr(path, '/');
        if (!slash || (slash == path && path[1] == 0))
            return room;
        if (slash == path)
            path[1] = 0;
        else
            *slash = 0;
    }
}

/* Room under the memory limits of the process's cgroups, v2
 * (memory.max) and v1 (memory.limit_in_bytes, where v1's "unlimited" is
 * a huge number); -1 if there is none or they cannot be read. */
static long long cgroup_room(void)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return -1;
    char line[512];
    long long room = -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *controllers = strchr(line, ':');
        char *path = controllers ? strchr(controllers + 1, ':') : NULL;
        if (!path || path[1] != '/')
            continue;
        *path++ = 0;
        controllers++;
        long long r = -1;
        if (*controllers == 0)   /* v2: "0::/path" */
            r = hierarchy_room("/sys/fs/cgroup", path, "memory.max",
                               "memory.current", "inactive_file ");
        else if (strstr(controllers, "memory"))   /* v1: "4:memory:/path" */
            r = hierarchy_room("/sys/fs/cgroup/memory", path,
                               "memory.limit_in_bytes",
                               "memory.usage_in_bytes",
                               "total_inactive_file ");
        if (r >= 0 && (room < 0 || r < room))
            room = r;
    }
    fclose(f);
    return room;
}

/* What the process may still take without swapping: MemAvailable, or the
 * cgroup's room where that is less; SIZE_MAX when neither is known. */
static size_t memory_available(void)
{
    long long kb = file_number("/proc/meminfo", "MemAvailable:");
    long long room = cgroup_room();
    size_t avail = kb >= 0 ? (size_t)kb * 1024 : SIZE_MAX;
    if (room >= 0 && (unsigned long long)room < avail)
        avail = (size_t)room;
    return avail;
}

/* Linux promises memory it may not have (overcommit) and kills the
 * process that then touches it; the caller's own arrays, which LAPACK
 * alone would need, fit.  So the large arrays of our path may take, all
 * together, at most 3/4 of what is available now (the rest is left to the
 * caller's output arrays, which are touched after ours are allocated, and
 * to the system) and at most GPULAPACK_HOST_MEMORY_MB.  A refusal is a
 * NULL, and the call runs on LAPACK from the caller's untouched data.
 * Arrays already touched count twice (in outstanding and as no longer
 * available): near the limit the budget errs towards LAPACK.  resident:
 * bytes of the array that the process holds already (a kept block), so
 * not part of what is available and not new; final: a refusal is final
 * (logged), not followed by a retry. */
static int budget_take(void *p, size_t bytes, size_t size, size_t resident,
                       int final)
{
    long cap_mb = gl_config_get()->host_memory_mb;
    size_t avail = memory_available();
    if (avail != SIZE_MAX)
        avail = avail > SIZE_MAX - resident ? SIZE_MAX - 1 : avail + resident;
    pthread_mutex_lock(&tracked_lock);
    size_t want = outstanding + bytes;
    int ok = want >= bytes &&
             (cap_mb < 0 || (want >> 20) + ((want & 0xfffff) != 0) <=
                                (size_t)cap_mb) &&
             (avail == SIZE_MAX || want <= avail / 4 * 3);
    int slot = -1;
    for (int i = 0; ok && i < TRACKED_MAX && slot < 0; i++)
        if (!tracked[i].p)
            slot = i;
    if (slot >= 0) {
        tracked[slot].p = p;
        tracked[slot].bytes = bytes;
        tracked[slot].size = size;
        outstanding = want;
    }
    pthread_mutex_unlock(&tracked_lock);
    if (slot < 0 && final)
        gl_log(1, "host memory: %zu MiB more refused (%zu MiB in use by "
                  "gpulapack, %zu MiB available), the call goes to LAPACK",
               bytes >> 20, (want - bytes) >> 20,
               avail == SIZE_MAX ? 0 : avail >> 20);
    return slot >= 0;
}

size_t gl_host_outstanding(void)
{
    pthread_mutex_lock(&tracked_lock);
    size_t bytes = outstanding;
    pthread_mutex_unlock(&tracked_lock);
    return bytes;
}

/* ---- large arrays kept between calls ----------------------------------- */

/* A large array's pages cost a fault each on their first touch, and a
 * program that calls us in a loop would pay them again on every call:
 * 0.04 s per GiB of huge pages and 0.4 s per GiB of small ones on the
 * development machine, and 2.5 s per GiB where a virtual machine has
 * handed the freed memory back to its host (epyc-zen5-2core,
 * docs/design/host-path.md).
 * So a released large array is kept for a later one of about its size, its
 * pages marked MADV_FREE: they stay mapped and are reused without a fault,
 * but the kernel may take them back, without writing them anywhere,
 * whenever it is short of memory (then a reuse faults like a fresh array).
 * GPULAPACK_HOST_KEEP_MB caps the bytes kept; an array that does not fit,
 * or whose pages cannot be marked, is freed. */
enum { KEPT_MAX = 64 };
static struct {
    void *p;
    size_t size;
} kept[KEPT_MAX];
static size_t kept_bytes;

/* A kept block for an array of size bytes (whole huge pages), at most a
 * quarter larger, the smallest such, taken out of the kept ones; its size
 * in *block.  NULL if none. */
static void *kept_take(size_t size, size_t *block)
{
    pthread_mutex_lock(&tracked_lock);
    int best = -1;
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].p && kept[i].size >= size &&
            kept[i].size - size <= size / 4 &&
            (best < 0 || kept[i].size < kept[best].size))
            best = i;
    void *p = NULL;
    if (best >= 0) {
        p = kept[best].p;
        *block = kept[best].size;
        kept_bytes -= kept[best].size;
        kept[best].p = NULL;
    }
    pthread_mutex_unlock(&tracked_lock);
    return p;
}

/* Frees every kept block; 1 if there was one. */
static int kept_drop(void)
{
    void *drop[KEPT_MAX];
    int count = 0;
    pthread_mutex_lock(&tracked_lock);
    for (int i = 0; i < KEPT_MAX; i++)
        if (kept[i].p) {
            drop[count++] = kept[i].p;
            kept[i].p = NULL;
        }
    kept_bytes = 0;
    pthread_mutex_unlock(&tracked_lock);
    for (int i = 0; i < count; i++)
        free(drop[i]);
    return count > 0;
}

/* Keeps the released block p of size bytes, or frees it. */
static void kept_put(void *p, size_t size)
{
    long keep_mb = gl_config_get()->host_keep_mb;
    size_t cap = keep_mb < 0 ? SIZE_MAX : (size_t)keep_mb << 20;
    int slot = -1;
#ifdef MADV_FREE
    if (size <= cap && madvise(p, size, MADV_FREE) == 0) {
        pthread_mutex_lock(&tracked_lock);
        for (int i = 0; i < KEPT_MAX && slot < 0; i++)
            if (!kept[i].p && kept_bytes <= cap - size)
                slot = i;
        if (slot >= 0) {
            kept[slot].p = p;
            kept[slot].size = size;
            kept_bytes += size;
        }
        pthread_mutex_unlock(&tracked_lock);
    }
#endif
    if (slot < 0)
        free(p);
}

size_t gl_host_kept(void)
{
    pthread_mutex_lock(&tracked_lock);
    size_t bytes = kept_bytes;
    pthread_mutex_unlock(&tracked_lock);
    return bytes;
}

/* ---- allocation -------------------------------------------------------- */

/* A fresh block of size bytes (whole huge pages), aligned to one. */
static void *fresh_block(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, size) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (gl_config_get()->hugepages)   /* advice: failure is harmless */
        (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

void *gl_host_alloc(size_t bytes)
{
    if (bytes > (SIZE_MAX - HUGE_PAGE) / 9 * 8)
        return NULL;
    size_t padded = bytes + tail_bytes(bytes);
    if (bytes < GL_HUGE_MIN_BYTES)
        return aligned_alloc(LINE, (padded + LINE - 1) / LINE * LINE);
    /* whole huge pages, so that advice covers only this array */
    size_t size = (padded + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, block = 0;
    void *p = kept_take(size, &block);
    if (p) {
        if (budget_take(p, bytes, block, block, 1))
            return p;
        kept_put(p, block);
        return NULL;
    }
    p = fresh_block(size);
    if (!p && kept_drop())
        p = fresh_block(size);
    if (!p)
        return NULL;
    /* what is kept counts as unavailable: release it before refusing */
    if (budget_take(p, bytes, size, 0, 0))
        return p;
    kept_drop();
    if (budget_take(p, bytes, size, 0, 1))
        return p;
    free(p);
    return NULL;
}

void gl_host_free(void *p)
{
    if (!p)
        return;
    size_t size = 0;
    pthread_mutex_lock(&tracked_lock);
    for (int i = 0; i < TRACKED_MAX; i++)
        if (tracked[i].p == p) {
            outstanding -= tracked[i].bytes;
            size = tracked[i].size;
            tracked[i].p = NULL;
            break;
        }
    pthread_mutex_unlock(&tracked_lock);
    if (size)
        kept_put(p, size);
    else
        free(p);
}
