/* Host memory for the large work arrays of an accelerated call. */
#ifndef GL_MEMORY_H
#define GL_MEMORY_H

#include <stddef.h>

/* Like malloc, aligned to a cache line, with room past the end that
 * nothing writes (memory.c: OpenBLAS 0.3.21 over-reads); release with
 * gl_host_free.
 * Arrays of GL_HUGE_MIN_BYTES and more are aligned to 2 MiB, so that the
 * kernel can back them with transparent huge pages where its policy gives
 * them unasked ("always"); with GPULAPACK_HUGEPAGES=1 they are also advised
 * MADV_HUGEPAGE.  Not by default: on a virtual machine that hands free
 * memory back to its host, a fresh huge page is a fresh host allocation,
 * and the first call of a process took up to 1.4 s longer with the advice
 * than without (epyc-zen5-2core, docs/design/host-path.md).
 * They also count against a budget (memory.c): NULL when they would take
 * more than the machine or the process's cgroup can give, or than
 * GPULAPACK_HOST_MEMORY_MB. */
void *gl_host_alloc(size_t bytes);

/* Releases what gl_host_alloc gave (NULL: nothing).  A large array is
 * kept for a later one of about its size (its pages reused without page
 * faults; the kernel may reclaim them meanwhile), up to
 * GPULAPACK_HOST_KEEP_MB in all; what is kept is freed when an allocation
 * would otherwise fail or go over the budget. */
void gl_host_free(void *p);

/* Bytes of large arrays allocated and not yet released, all threads. */
size_t gl_host_outstanding(void);

/* Bytes of released large arrays kept for reuse, all threads. */
size_t gl_host_kept(void);

enum { GL_HUGE_MIN_BYTES = 4 << 20 };

#endif
