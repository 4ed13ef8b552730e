#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "config.h"

/* a cache line (GL_LINE_BYTES of kernels/ops.h), an x86-64 huge page */
enum { LINE = 64, HUGE_PAGE = 2 << 20 };

void *gl_host_alloc(size_t bytes)
{
    if (bytes > SIZE_MAX - HUGE_PAGE)
        return NULL;
    if (bytes < GL_HUGE_MIN_BYTES || !gl_config_get()->hugepages) {
        size_t lines = (bytes + LINE - 1) / LINE;
        return aligned_alloc(LINE, (lines ? lines : 1) * LINE);
    }
    /* whole huge pages, so that the advice covers only this array */
    size_t size = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, size) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);   /* advice: failure is harmless */
#endif
    return p;
}
