/* One allocation per call, carved into the pieces a pipeline needs.
 *
 * A pipeline plans first: it lists the pieces of its call (gl_arena_take
 * gives each one's offset), allocates the total once (the backend's
 * ops->alloc for the backend's memory, gl_host_alloc for the host), and
 * finds each piece at base + offset (gl_arena_at); the whole is released
 * in one place.  Every piece starts on a cache line (GL_ARENA_ALIGN), a
 * multiple of every element size; a device pointer may be offset within
 * its allocation (the OpenCL backend's pointers are ranges of reserved
 * address space, runtime/opencl/).
 *
 * Pieces whose data are never live at the same time share bytes, so that
 * the arena's peak is that of the old allocate-then-free sequence:
 *   size_t at = gl_arena_share_begin(&a), end = at;
 *   ... take the pieces of the first use ...
 *   gl_arena_share_next(&a, at, &end);
 *   ... take the pieces of the second use (they start at `at` again) ...
 *   gl_arena_share_end(&a, end);
 * Precision-independent: sizes in bytes. */
#ifndef GL_ARENA_H
#define GL_ARENA_H

#include <stddef.h>
#include <stdint.h>

/* A cache line (ops.h GL_LINE_BYTES): pieces loaded by vectors start on
 * one, and no two pieces share a line. */
enum { GL_ARENA_ALIGN = 64 };

/* The offset of an absent piece: gl_arena_at gives NULL for it. */
#define GL_ARENA_NONE SIZE_MAX

typedef struct gl_arena {
    size_t bytes;   /* planned so far: the allocation's size */
} gl_arena;

/* A piece of count elements of elem bytes when wanted (else absent): its
 * offset. */
static inline size_t gl_arena_take(gl_arena *a, int wanted, size_t count,
                                   size_t elem)
{
    if (!wanted)
        return GL_ARENA_NONE;
    size_t at = (a->bytes + GL_ARENA_ALIGN - 1) / GL_ARENA_ALIGN *
                GL_ARENA_ALIGN;
    a->bytes = at + count * elem;
    return at;
}

static inline size_t gl_arena_share_begin(gl_arena *a)
{
    a->bytes = (a->bytes + GL_ARENA_ALIGN - 1) / GL_ARENA_ALIGN *
               GL_ARENA_ALIGN;
    return a->bytes;
}

static inline void gl_arena_share_next(gl_arena *a, size_t at, size_t *end)
{
    if (a->bytes > *end)
        *end = a->bytes;
    a->bytes = at;
}

static inline void gl_arena_share_end(gl_arena *a, size_t end)
{
    if (end > a->bytes)
        a->bytes = end;
}

/* The piece at offset in the allocation base (NULL: absent). */
static inline void *gl_arena_at(void *base, size_t offset)
{
    return offset == GL_ARENA_NONE ? NULL : (char *)base + offset;
}

#endif
