/* Stand-in GPU drivers that compute: the library's CUDA and HIP paths
 * (runtime/cudalike/) run on this CPU with our own kernels.
 *
 * standin_cuda.c gives the driver API of libcuda.so.1 and the cuBLAS the
 * runtime opens (the same library, also named libcublas.so.12);
 * standin_hip.c the HIP runtime of libamdhip64.so.5 (the HIP runtime opens
 * no BLAS).  This file is what both share:
 *
 * - Kernels run the OpenCL build of kernels/device/ (the library's own
 *   kernel text, kernels/shim/opencl.h, embedded here as in the library)
 *   through PoCL, with the PRECISION of the image the library loads: a
 *   module load finds the precision by comparing the image with the
 *   build's images, and a function is found by name.  A launch maps each
 *   CUDA parameter by the kernel's parameter list in its text: a global
 *   pointer (a device address), gl_long offsets and scalars.
 * - Device memory is PoCL's fine-grained SVM, so kernels, copies and the
 *   BLAS reach the same bytes.  Each device keeps its own allocations: a
 *   launch, copy or BLAS call whose device memory is not a live
 *   allocation of its stream's device fails (SD_ILLEGAL_ADDRESS), as an
 *   access from the wrong device's context does.  GL_MOCK_FREE_MB caps
 *   each device's memory (its free memory is what is left under it).
 * - Asynchronous: each stream (the copy lanes are streams) is a worker
 *   thread that runs its operations in order.  Events are recorded and
 *   waited across streams; stream and event synchronization wait for the
 *   work; a capture records a stream's operations into a graph, which a
 *   launch replays.  Copies from or to pageable host memory behave as
 *   CUDA's do (an upload takes a snapshot before returning, a download
 *   returns when done); from page-locked or registered memory they run
 *   on the worker.  GL_MOCK_JITTER=<seed> delays a random eighth of the
 *   operations by a random 0-400 us (the seed is printed to stderr once),
 *   so that a missing wait shows as a wrong answer, not as luck.
 * - Devices: GL_MOCK_DEVICES (1-8), each reporting PoCL's compute units
 *   as its multiprocessors (every work-group of a launch whose groups
 *   wait for each other is then running), 80 GiB.
 *
 * What they cannot show: the code that nvcc and hipcc generate (the CUDA
 * and HIP builds of the same text only compile here), concurrency between
 * work-groups beyond PoCL's threads, the vendors' memory models beyond
 * what PoCL's CPU gives, and any timing.  The kernels are built as the
 * OpenCL runtime builds them for a CPU (SPIN_POLLS of 2^30). */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "standin.h"

extern const char gl_opencl_source[];   /* runtime/embed_opencl.S */

/* One lock for the whole driver: the streams' queues, the events, the
 * allocations.  A worker sleeps on its stream's `work` until there is
 * some; whoever waits for a stream's work sleeps on its `done`, and for
 * an event (a synchronization, a worker's event wait) on `changed`. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

/* ---- OpenCL ---------------------------------------------------------- */

static struct {
    pthread_once_t once;
    int ok;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_uint units;
    cl_program program[4];   /* per precision, built on first use */
    int program_state[4];
} cl = {PTHREAD_ONCE_INIT, 0, 0, 0, 0, 0, {0}, {0}};

static void cl_start(void)
{
    cl_platform_id platforms[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        return;
    for (cl_uint i = 0; i < np && !cl.device; i++) {
        cl_device_id d;
        cl_device_svm_capabilities svm = 0;
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &d, NULL) ==
                CL_SUCCESS &&
            clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm,
                            NULL) == CL_SUCCESS &&
            (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
            cl.platform = platforms[i];
            cl.device = d;
        }
    }
    if (!cl.device)
        return;
    cl_int err;
    cl.context = clCreateContext(NULL, 1, &cl.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return;
    clGetDeviceInfo(cl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cl.units,
                    &cl.units, NULL);
    cl.ok = 1;
}

static int cl_ready(void)
{
    pthread_once(&cl.once, cl_start);
    return cl.ok;
}

/* The kernels of precision p (1-4), built once; NULL if they do not
 * build. */
static cl_program program_of(int p)
{
    static pthread_mutex_t build = PTHREAD_MUTEX_INITIALIZER;
    if (p < 1 || p > 4 || !cl_ready())
        return NULL;
    pthread_mutex_lock(&build);
    if (cl.program_state[p - 1] == 0) {
        cl.program_state[p - 1] = -1;
        const char *text = gl_opencl_source;
        cl_int err;
        cl_program prog =
            clCreateProgramWithSource(cl.context, 1, &text, NULL, &err);
        char options[128];
        /* the OpenCL runtime's options for a CPU device, to the letter:
         * PoCL's cache of compiled kernels is then shared with it */
        snprintf(options, sizeof options,
                 "-cl-std=CL1.2 -DPRECISION=%d -DSPIN_POLLS=1073741824", p);
        if (err == CL_SUCCESS &&
            clBuildProgram(prog, 1, &cl.device, options, NULL, NULL) ==
                CL_SUCCESS) {
            cl.program[p - 1] = prog;
            cl.program_state[p - 1] = 1;
        } else {
            char log[4096] = "";
            if (err == CL_SUCCESS)
                clGetProgramBuildInfo(prog, cl.device, CL_PROGRAM_BUILD_LOG,
                                      sizeof log - 1, log, NULL);
            fprintf(stderr, "standin: kernels of precision %d do not build: %s\n",
                    p, log);
        }
    }
    cl_program prog = cl.program[p - 1];
    pthread_mutex_unlock(&build);
    return prog;
}

/* ---- devices and memory ------------------------------------------------ */

int sd_device_count(int dflt)
{
    const char *e = getenv("GL_MOCK_DEVICES");
    int n = e ? atoi(e) : dflt;
    return n >= 1 && n <= SD_MAX_DEVICES ? n : dflt;
}

int sd_compute_units(void)
{
    return cl_ready() && cl.units > 0 ? (int)cl.units : 1;
}

typedef struct range {
    char *base;
    size_t bytes;
} range;

/* a growable set of ranges */
typedef struct ranges {
    range *r;
    size_t n, cap;
} ranges;

static int ranges_add(ranges *s, void *base, size_t bytes)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        range *r = realloc(s->r, cap * sizeof *r);
        if (!r)
            return -1;
        s->r = r;
        s->cap = cap;
    }
    s->r[s->n++] = (range){base, bytes};
    return 0;
}

/* removes the range starting at base; its size, or (size_t)-1 */
static size_t ranges_remove(ranges *s, const void *base)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->r[i].base == base) {
            size_t bytes = s->r[i].bytes;
            s->r[i] = s->r[--s->n];
            return bytes;
        }
    return (size_t)-1;
}

/* [p, p + bytes) inside one range (a pointer one past the end, of no
 * bytes, included) */
static int ranges_hold(const ranges *s, const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t i = 0; i < s->n; i++)
        if (c >= s->r[i].base && (size_t)(c - s->r[i].base) <= s->r[i].bytes &&
            bytes <= s->r[i].bytes - (size_t)(c - s->r[i].base))
            return 1;
    return 0;
}

static ranges device_memory[SD_MAX_DEVICES];
static size_t device_used[SD_MAX_DEVICES];
static ranges pinned;   /* page-locked: allocated or registered */

size_t sd_total_bytes(int device)
{
    (void)device;
    return (size_t)80 << 30;
}

static size_t device_cap(int device)
{
    const char *e = getenv("GL_MOCK_FREE_MB");
    size_t total = sd_total_bytes(device);
    size_t cap = e ? (size_t)atol(e) << 20 : total;
    return cap < total ? cap : total;
}

size_t sd_free_bytes(int device)
{
    pthread_mutex_lock(&lock);
    size_t cap = device_cap(device), used = device_used[device];
    pthread_mutex_unlock(&lock);
    return used < cap ? cap - used : 0;
}

int sd_on_device(int device, const void *p, size_t bytes)
{
    pthread_mutex_lock(&lock);
    int ok = device >= 0 && device < SD_MAX_DEVICES &&
             ranges_hold(&device_memory[device], p, bytes);
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

sd_status sd_alloc(int device, size_t bytes, void **p)
{
    *p = NULL;
    if (device < 0 || device >= SD_MAX_DEVICES)
        return SD_INVALID_DEVICE;
    if (!cl_ready())
        return SD_NOT_SUPPORTED;
    if (bytes == 0)
        bytes = 1;
    pthread_mutex_lock(&lock);
    int room = device_used[device] <= device_cap(device) &&
               bytes <= device_cap(device) - device_used[device];
    if (room)
        device_used[device] += bytes;
    pthread_mutex_unlock(&lock);
    if (!room)
        return SD_OUT_OF_MEMORY;
    void *m = clSVMAlloc(cl.context,
                         CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                         bytes, 128);
    pthread_mutex_lock(&lock);
    if (!m || ranges_add(&device_memory[device], m, bytes) != 0) {
        device_used[device] -= bytes;
        pthread_mutex_unlock(&lock);
        if (m)
            clSVMFree(cl.context, m);
        return SD_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&lock);
    *p = m;
    return SD_OK;
}

/* gives p of device back (the lock held); 0 or -1 if it is none */
static int give_back(int device, void *p)
{
    size_t bytes = ranges_remove(&device_memory[device], p);
    if (bytes == (size_t)-1)
        return -1;
    device_used[device] -= bytes;
    clSVMFree(cl.context, p);
    return 0;
}

sd_status sd_host_alloc(size_t bytes, void **p)
{
    *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!*p)
        return SD_OUT_OF_MEMORY;
    return sd_host_register(*p, bytes);
}

sd_status sd_host_free(void *p)
{
    if (!p)
        return SD_OK;
    sd_status rc = sd_host_unregister(p);
    if (rc == SD_OK)
        free(p);
    return rc;
}

sd_status sd_host_register(void *p, size_t bytes)
{
    pthread_mutex_lock(&lock);
    int failed = !p || ranges_hold(&pinned, p, 1) ||
                 ranges_add(&pinned, p, bytes) != 0;
    pthread_mutex_unlock(&lock);
    return failed ? SD_INVALID_VALUE : SD_OK;
}

sd_status sd_host_unregister(void *p)
{
    pthread_mutex_lock(&lock);
    size_t bytes = ranges_remove(&pinned, p);
    pthread_mutex_unlock(&lock);
    return bytes == (size_t)-1 ? SD_INVALID_VALUE : SD_OK;
}

static int is_pinned(const void *p, size_t bytes)
{
    pthread_mutex_lock(&lock);
    int yes = ranges_hold(&pinned, p, bytes);
    pthread_mutex_unlock(&lock);
    return yes;
}

/* ---- functions ----------------------------------------------------------- */

enum { MAX_ARGS = 40, MAX_FUNCTIONS = 64 };

struct sd_function {
    int precision, index;   /* index: its slot in every stream's cache */
    char name[64];
    int nargs;
    unsigned char global[MAX_ARGS];   /* a __global pointer */
    unsigned char size[MAX_ARGS];     /* else the value's bytes */
};

static sd_function functions[4][MAX_FUNCTIONS];
static int nfunctions[4];

/* bytes of a kernel argument of OpenCL type `type` in precision p */
static int arg_size(const char *type, int p)
{
    static const struct {
        const char *name;
        int size[4];   /* s d c z */
    } sizes[] = {{"int", {4, 4, 4, 4}},      {"uint", {4, 4, 4, 4}},
                 {"long", {8, 8, 8, 8}},     {"ulong", {8, 8, 8, 8}},
                 {"gl_long", {8, 8, 8, 8}},  {"float", {4, 4, 4, 4}},
                 {"double", {8, 8, 8, 8}},   {"float2", {8, 8, 8, 8}},
                 {"double2", {16, 16, 16, 16}},
                 {"real_t", {4, 8, 4, 8}},   {"scalar_t", {4, 8, 8, 16}},
                 {"real2_t", {8, 16, 8, 16}}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(type, sizes[i].name) == 0)
            return sizes[i].size[p - 1];
    return 0;
}

/* The parameters of kernel fn->name from its text (kernels/device/:
 * "KERNEL name(int rows, const GLOBAL scalar_t *a, gl_long off, ...)"):
 * which are global pointers and the bytes of the others.  PoCL gives a
 * kernel's argument info only to programs built with
 * -cl-kernel-arg-info, whose compiled kernels it would cache apart from
 * the OpenCL runtime's.  The count, or -1. */
static int describe_args(sd_function *fn)
{
    char head[80];
    snprintf(head, sizeof head, "KERNEL %s(", fn->name);
    const char *at = strstr(gl_opencl_source, head);
    if (!at)
        return -1;
    at += strlen(head);
    const char *end = strchr(at, ')');
    int n = 0;
    while (end && at < end && n < MAX_ARGS) {
        const char *comma = memchr(at, ',', (size_t)(end - at));
        const char *stop = comma ? comma : end;
        char param[128];
        size_t len = (size_t)(stop - at);
        if (len >= sizeof param)
            return -1;
        memcpy(param, at, len);
        param[len] = 0;
        /* the type: the words before the name, without "const" */
        char type[64] = "", *save = NULL, *words[8];
        int nw = 0;
        for (char *w = strtok_r(param, " \t\n*", &save); w && nw < 8;
             w = strtok_r(NULL, " \t\n*", &save))
            if (strcmp(w, "const") != 0)
                words[nw++] = w;
        if (nw < 2)
            return -1;
        if (strcmp(words[0], "GLOBAL") == 0) {
            fn->global[n] = 1;
        } else if (nw == 2) {
            snprintf(type, sizeof type, "%s", words[0]);
            if (!(fn->size[n] = (unsigned char)arg_size(type, fn->precision)))
                return -1;
        } else {
            return -1;   /* LOCAL, or a type of two words */
        }
        n++;
        at = stop + 1;
    }
    return n;
}

sd_status sd_function_get(int precision, const char *name, sd_function **f)
{
    cl_program prog = program_of(precision);
    if (!prog)
        return SD_INVALID_IMAGE;
    pthread_mutex_lock(&lock);
    sd_function *found = NULL;
    for (int i = 0; i < nfunctions[precision - 1] && !found; i++)
        if (strcmp(functions[precision - 1][i].name, name) == 0)
            found = &functions[precision - 1][i];
    pthread_mutex_unlock(&lock);
    if (found) {
        *f = found;
        return SD_OK;
    }
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS)
        return SD_NOT_FOUND;
    sd_function fn;
    memset(&fn, 0, sizeof fn);
    fn.precision = precision;
    snprintf(fn.name, sizeof fn.name, "%s", name);
    cl_uint nargs = 0;
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    sd_status rc = nargs <= MAX_ARGS && describe_args(&fn) == (int)nargs
                       ? SD_OK
                       : SD_NOT_SUPPORTED;
    if (rc != SD_OK)
        fprintf(stderr, "standin: the parameters of %s not understood\n", name);
    clReleaseKernel(k);
    fn.nargs = (int)nargs;
    if (rc != SD_OK)
        return rc;
    pthread_mutex_lock(&lock);
    int n = nfunctions[precision - 1];
    for (int i = 0; i < n && !found; i++)
        if (strcmp(functions[precision - 1][i].name, name) == 0)
            found = &functions[precision - 1][i];
    if (!found && n < MAX_FUNCTIONS) {
        fn.index = n;
        functions[precision - 1][n] = fn;
        found = &functions[precision - 1][n];
        nfunctions[precision - 1] = n + 1;
    }
    pthread_mutex_unlock(&lock);
    *f = found;
    return found ? SD_OK : SD_NOT_SUPPORTED;
}

/* the precision of an image: the build's file it equals */
sd_status sd_module_load(const void *image, const char *dir, const char *ext,
                         int *precision)
{
    static const char letters[] = "sdcz";
    for (int p = 0; p < 4; p++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/kernels_%c.%s", dir, letters[p], ext);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        int same = 1;
        const unsigned char *at = image;
        unsigned char buf[65536];
        size_t got, off = 0;
        while (same && (got = fread(buf, 1, sizeof buf, f)) > 0) {
            same = memcmp(buf, at + off, got) == 0;
            off += got;
        }
        fclose(f);
        if (same && off > 0) {
            *precision = p + 1;
            return program_of(p + 1) ? SD_OK : SD_INVALID_IMAGE;
        }
    }
    return SD_INVALID_IMAGE;
}

/* ---- streams and their operations ----------------------------------------- */

typedef enum op_kind {
    OP_COPY, OP_COPY_2D, OP_LAUNCH, OP_RECORD, OP_WAIT, OP_FREE, OP_HOST
} op_kind;

typedef struct op {
    op_kind kind;
    struct op *next;
    uint64_t seq;        /* its number on its stream */
    void *owned;         /* freed after it ran (a snapshot, arguments) */
    size_t owned_size;
    union {
        struct {
            void *dst;
            const void *src;
            size_t dpitch, spitch, width, height;
        } copy;   /* OP_COPY: height 1 */
        struct {
            sd_function *f;
            size_t global[3], local[3];
        } launch;   /* arguments in owned */
        struct {
            sd_event *e;
            uint64_t target;
        } event;
        struct {
            int device;
            void *p;
        } free;
        struct {
            void (*fn)(void *);
        } host;   /* its argument in owned */
    } u;
} op;

struct sd_event {
    uint64_t recorded;    /* records made */
    uint64_t completed;   /* the latest record that ran */
    sd_status error;      /* its stream's, when that record ran */
};

struct sd_graph {
    op *head, *tail;
    int refs;   /* the graph and its instantiations */
};

struct sd_stream {
    int device;
    pthread_t thread;
    op *head, *tail;
    uint64_t enqueued, completed;   /* operations */
    sd_status error;                /* sticky: a kernel that failed */
    int quit;
    unsigned rng;                   /* the jitter */
    sd_graph *capture;              /* recording into it */
    pthread_cond_t work;            /* an operation queued, or quit */
    pthread_cond_t done;            /* completed moved */
    cl_command_queue queue;
    cl_kernel kernels[4][MAX_FUNCTIONS];
    sd_stream *next_stream;         /* every live stream */
};

static sd_stream *streams;
static sd_stream *default_streams[SD_MAX_DEVICES];

/* GL_MOCK_JITTER: the seed, -1 when none */
static long jitter_seed(void)
{
    static long seed = -2;
    pthread_mutex_lock(&lock);
    if (seed == -2) {
        const char *e = getenv("GL_MOCK_JITTER");
        seed = e && *e ? atol(e) : -1;
        if (seed >= 0)
            fprintf(stderr, "standin: GL_MOCK_JITTER=%ld\n", seed);
    }
    long s = seed;
    pthread_mutex_unlock(&lock);
    return s;
}

static void op_free(op *o)
{
    free(o->owned);
    free(o);
}

static op *op_clone(const op *o)
{
    op *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *o;
    c->next = NULL;
    c->owned = NULL;
    if (o->owned) {
        c->owned = malloc(o->owned_size);
        if (!c->owned) {
            free(c);
            return NULL;
        }
        memcpy(c->owned, o->owned, o->owned_size);
    }
    return c;
}

static sd_status run_launch(sd_stream *s, op *o)
{
    sd_function *f = o->u.launch.f;
    cl_kernel *k = &s->kernels[f->precision - 1][f->index];
    cl_int err = CL_SUCCESS;
    if (!*k)
        *k = clCreateKernel(program_of(f->precision), f->name, &err);
    const unsigned char *args = o->owned;
    for (int i = 0; i < f->nargs && err == CL_SUCCESS; i++) {
        const unsigned char *v = args + 16 * i;
        if (f->global[i]) {
            void *p;
            memcpy(&p, v, sizeof p);
            err = clSetKernelArgSVMPointer(*k, (cl_uint)i, p);
        } else {
            err = clSetKernelArg(*k, (cl_uint)i, f->size[i], v);
        }
    }
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(s->queue, *k, 3, NULL, o->u.launch.global,
                                     o->u.launch.local, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "standin: %s failed on PoCL (%d)\n", f->name, (int)err);
        return SD_LAUNCH_FAILED;
    }
    return SD_OK;
}

/* The launches enqueued on s's PoCL queue, done. */
static sd_status finish_launches(sd_stream *s)
{
    if (clFinish(s->queue) != CL_SUCCESS) {
        fprintf(stderr, "standin: a kernel failed on PoCL\n");
        return SD_LAUNCH_FAILED;
    }
    return SD_OK;
}

/* Runs o on its stream's worker (without the lock). */
static sd_status run(sd_stream *s, op *o)
{
    switch (o->kind) {
    case OP_COPY:
    case OP_COPY_2D:
        for (size_t j = 0; j < o->u.copy.height; j++)
            memmove((char *)o->u.copy.dst + j * o->u.copy.dpitch,
                    (const char *)o->u.copy.src + j * o->u.copy.spitch,
                    o->u.copy.width);
        return SD_OK;
    case OP_LAUNCH:
        return run_launch(s, o);
    case OP_HOST:
        o->u.host.fn(o->owned);
        return SD_OK;
    case OP_RECORD:
        pthread_mutex_lock(&lock);
        if (o->u.event.e->completed < o->u.event.target) {
            o->u.event.e->completed = o->u.event.target;
            o->u.event.e->error = s->error;
        }
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
        return SD_OK;
    case OP_WAIT:
        pthread_mutex_lock(&lock);
        while (o->u.event.e->completed < o->u.event.target)
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        return SD_OK;
    case OP_FREE:
        pthread_mutex_lock(&lock);
        give_back(o->u.free.device, o->u.free.p);
        pthread_mutex_unlock(&lock);
        return SD_OK;
    }
    return SD_OK;
}

/* A stream's worker takes what is queued as one batch and runs it in
 * order.  Launches go to the stream's PoCL queue without waiting; they
 * are finished before any other operation of the batch runs (a copy, the
 * BLAS and an event record see their results) and before the batch
 * counts as completed. */
static void *worker(void *arg)
{
    sd_stream *s = arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (!s->head && !s->quit)
            pthread_cond_wait(&s->work, &lock);
        op *batch = s->head;
        s->head = s->tail = NULL;
        int failed = s->error != SD_OK;
        pthread_mutex_unlock(&lock);
        if (!batch)
            break;
        int pending = 0;
        uint64_t last = 0;
        for (op *o = batch, *next; o; o = next) {
            next = o->next;
            /* the jitter: one operation in eight waits 0-400 us first */
            if (s->rng && rand_r(&s->rng) % 8 == 0) {
                struct timespec t = {0, (long)(rand_r(&s->rng) % 400) * 1000};
                nanosleep(&t, NULL);
            }
            sd_status rc = SD_OK;
            if (pending && o->kind != OP_LAUNCH) {
                rc = finish_launches(s);
                pending = 0;
            }
            /* after a failed kernel no more work runs; events, waits and
             * frees do (the stream's error is what its waiters see) */
            int work = o->kind == OP_COPY || o->kind == OP_COPY_2D ||
                       o->kind == OP_LAUNCH || o->kind == OP_HOST;
            if (rc == SD_OK && !(failed && work)) {
                rc = run(s, o);
                pending |= o->kind == OP_LAUNCH && rc == SD_OK;
            }
            if (rc != SD_OK && !failed) {
                failed = 1;
                pthread_mutex_lock(&lock);
                s->error = rc;
                pthread_mutex_unlock(&lock);
            }
            last = o->seq;
            op_free(o);
        }
        sd_status rc = pending ? finish_launches(s) : SD_OK;
        pthread_mutex_lock(&lock);
        if (rc != SD_OK && s->error == SD_OK)
            s->error = rc;
        s->completed = last;
        pthread_cond_broadcast(&s->done);
        pthread_mutex_unlock(&lock);
    }
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < MAX_FUNCTIONS; i++)
            if (s->kernels[p][i])
                clReleaseKernel(s->kernels[p][i]);
    return NULL;
}

int sd_stream_device(const sd_stream *s) { return s->device; }

sd_status sd_stream_create(int device, sd_stream **out)
{
    *out = NULL;
    if (!cl_ready())
        return SD_NOT_SUPPORTED;
    sd_stream *s = calloc(1, sizeof *s);
    if (!s)
        return SD_OUT_OF_MEMORY;
    s->device = device;
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->done, NULL);
    long seed = jitter_seed();
    static unsigned made;
    if (seed >= 0)
        s->rng = (unsigned)seed * 2654435761u + __atomic_add_fetch(&made, 1, __ATOMIC_SEQ_CST);
    if (s->rng == 0 && seed >= 0)
        s->rng = 1;
    cl_int err;
    s->queue = clCreateCommandQueueWithProperties(cl.context, cl.device, NULL,
                                                  &err);
    if (err != CL_SUCCESS || pthread_create(&s->thread, NULL, worker, s) != 0) {
        if (err == CL_SUCCESS)
            clReleaseCommandQueue(s->queue);
        pthread_cond_destroy(&s->work);
        pthread_cond_destroy(&s->done);
        free(s);
        return SD_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&lock);
    s->next_stream = streams;
    streams = s;
    pthread_mutex_unlock(&lock);
    *out = s;
    return SD_OK;
}

sd_stream *sd_stream_default(int device)
{
    static pthread_mutex_t made = PTHREAD_MUTEX_INITIALIZER;
    if (device < 0 || device >= SD_MAX_DEVICES)
        return NULL;
    pthread_mutex_lock(&made);
    if (!default_streams[device])
        sd_stream_create(device, &default_streams[device]);
    sd_stream *s = default_streams[device];
    pthread_mutex_unlock(&made);
    return s;
}

/* waits (the lock held) until s ran its operations up to seq */
static void wait_for(sd_stream *s, uint64_t seq)
{
    while (s->completed < seq)
        pthread_cond_wait(&s->done, &lock);
}

sd_status sd_stream_sync(sd_stream *s)
{
    pthread_mutex_lock(&lock);
    if (s->capture) {
        pthread_mutex_unlock(&lock);
        return SD_CAPTURE;
    }
    wait_for(s, s->enqueued);
    sd_status rc = s->error;
    pthread_mutex_unlock(&lock);
    return rc;
}

sd_status sd_stream_destroy(sd_stream *s)
{
    pthread_mutex_lock(&lock);
    wait_for(s, s->enqueued);
    s->quit = 1;
    pthread_cond_signal(&s->work);
    for (sd_stream **p = &streams; *p; p = &(*p)->next_stream)
        if (*p == s) {
            *p = s->next_stream;
            break;
        }
    pthread_mutex_unlock(&lock);
    pthread_join(s->thread, NULL);
    clReleaseCommandQueue(s->queue);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->done);
    free(s);
    return SD_OK;
}

/* o onto s (or into the graph s records); its number on s */
static uint64_t enqueue(sd_stream *s, op *o)
{
    pthread_mutex_lock(&lock);
    if (s->capture) {
        sd_graph *g = s->capture;
        o->seq = 0;
        if (g->tail)
            g->tail->next = o;
        else
            g->head = o;
        g->tail = o;
        pthread_mutex_unlock(&lock);
        return 0;
    }
    o->seq = ++s->enqueued;
    o->next = NULL;
    if (s->tail)
        s->tail->next = o;
    else
        s->head = o;
    s->tail = o;
    pthread_cond_signal(&s->work);
    uint64_t seq = o->seq;
    pthread_mutex_unlock(&lock);
    return seq;
}

static op *op_new(op_kind kind)
{
    op *o = calloc(1, sizeof *o);
    if (o)
        o->kind = kind;
    return o;
}

/* A copy between host and device memory or on the device (to_device
 * applies to 2D copies; kind to plain ones). */
static sd_status copy_on(sd_stream *s, int kind, void *dst, size_t dpitch,
                         const void *src, size_t spitch, size_t width,
                         size_t height)
{
    if (height == 0 || width == 0)
        return SD_OK;
    if (dpitch < width || spitch < width)
        return SD_INVALID_VALUE;
    size_t dspan = dpitch * (height - 1) + width,
           sspan = spitch * (height - 1) + width;
    int dev = s->device;
    if ((kind != SD_DTOH && sd_on_device(dev, dst, dspan) != 0) ||
        (kind != SD_HTOD && sd_on_device(dev, src, sspan) != 0))
        return SD_ILLEGAL_ADDRESS;
    op *o = op_new(height > 1 ? OP_COPY_2D : OP_COPY);
    if (!o)
        return SD_OUT_OF_MEMORY;
    o->u.copy.dst = dst;
    o->u.copy.src = src;
    o->u.copy.dpitch = dpitch;
    o->u.copy.spitch = spitch;
    o->u.copy.width = width;
    o->u.copy.height = height;
    int capturing = s->capture != NULL;
    if (kind == SD_HTOD && !is_pinned(src, sspan)) {
        /* pageable: the caller may reuse src once this returns */
        if (!(o->owned = malloc(sspan))) {
            free(o);
            return SD_OUT_OF_MEMORY;
        }
        memcpy(o->owned, src, sspan);
        o->owned_size = sspan;
        o->u.copy.src = o->owned;
    }
    uint64_t seq = enqueue(s, o);
    if (kind == SD_DTOH && !capturing && !is_pinned(dst, dspan)) {
        /* pageable: returns when the data is there */
        pthread_mutex_lock(&lock);
        wait_for(s, seq);
        sd_status rc = s->error;
        pthread_mutex_unlock(&lock);
        return rc;
    }
    return SD_OK;
}

sd_status sd_copy(sd_stream *s, int kind, void *dst, const void *src,
                  size_t bytes)
{
    return copy_on(s, kind, dst, bytes, src, bytes, bytes, 1);
}

sd_status sd_copy_2d(sd_stream *s, int to_device, void *dst, size_t dpitch,
                     const void *src, size_t spitch, size_t width,
                     size_t height)
{
    return copy_on(s, to_device ? SD_HTOD : SD_DTOH, dst, dpitch, src, spitch,
                   width, height);
}

sd_status sd_free(int device, void *p)
{
    if (!p)
        return SD_OK;
    pthread_mutex_lock(&lock);
    /* freeing waits for the device's work */
    for (sd_stream *s = streams; s; s = s->next_stream)
        if (s->device == device)
            wait_for(s, s->enqueued);
    int rc = device >= 0 && device < SD_MAX_DEVICES ? give_back(device, p) : -1;
    pthread_mutex_unlock(&lock);
    return rc == 0 ? SD_OK : SD_INVALID_VALUE;
}

sd_status sd_free_async(sd_stream *s, void *p)
{
    if (!p)
        return SD_OK;
    if (sd_on_device(s->device, p, 0) != 0)
        return SD_INVALID_VALUE;
    op *o = op_new(OP_FREE);
    if (!o)
        return SD_OUT_OF_MEMORY;
    o->u.free.device = s->device;
    o->u.free.p = p;
    enqueue(s, o);
    return SD_OK;
}

/* ---- events ---------------------------------------------------------------- */

sd_status sd_event_create(sd_event **e)
{
    *e = calloc(1, sizeof **e);
    if (!*e)
        return SD_OUT_OF_MEMORY;
    return SD_OK;
}

sd_status sd_event_destroy(sd_event *e)
{
    /* a record still queued finds it: freed when its records ran */
    pthread_mutex_lock(&lock);
    while (e->completed < e->recorded)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    free(e);
    return SD_OK;
}

sd_status sd_event_record(sd_event *e, sd_stream *s)
{
    op *o = op_new(OP_RECORD);
    if (!o)
        return SD_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    o->u.event.e = e;
    o->u.event.target = ++e->recorded;
    pthread_mutex_unlock(&lock);
    enqueue(s, o);
    return SD_OK;
}

sd_status sd_event_sync(sd_event *e)
{
    pthread_mutex_lock(&lock);
    uint64_t target = e->recorded;
    while (e->completed < target)
        pthread_cond_wait(&changed, &lock);
    sd_status rc = e->error;   /* a kernel before the record failed */
    pthread_mutex_unlock(&lock);
    return rc;
}

sd_status sd_stream_wait(sd_stream *s, sd_event *e)
{
    pthread_mutex_lock(&lock);
    uint64_t target = e->recorded;
    pthread_mutex_unlock(&lock);
    if (target == 0)
        return SD_OK;   /* never recorded: nothing to wait for */
    op *o = op_new(OP_WAIT);
    if (!o)
        return SD_OUT_OF_MEMORY;
    o->u.event.e = e;
    o->u.event.target = target;
    enqueue(s, o);
    return SD_OK;
}

/* ---- graphs ------------------------------------------------------------------ */

sd_status sd_capture_begin(sd_stream *s)
{
    sd_graph *g = calloc(1, sizeof *g);
    if (!g)
        return SD_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    int busy = s->capture != NULL;
    if (!busy)
        s->capture = g;
    pthread_mutex_unlock(&lock);
    if (busy) {
        free(g);
        return SD_CAPTURE;
    }
    return SD_OK;
}

sd_status sd_capture_end(sd_stream *s, sd_graph **g)
{
    pthread_mutex_lock(&lock);
    *g = s->capture;
    s->capture = NULL;
    if (*g)
        (*g)->refs = 1;
    pthread_mutex_unlock(&lock);
    return *g ? SD_OK : SD_CAPTURE;
}

sd_status sd_graph_launch(sd_graph *g, sd_stream *s)
{
    for (const op *o = g->head; o; o = o->next) {
        op *c = op_clone(o);
        if (!c)
            return SD_OUT_OF_MEMORY;
        if ((c->kind == OP_COPY || c->kind == OP_COPY_2D) && o->owned)
            c->u.copy.src = c->owned;
        if (c->kind == OP_RECORD) {
            pthread_mutex_lock(&lock);
            c->u.event.target = ++c->u.event.e->recorded;
            pthread_mutex_unlock(&lock);
        }
        enqueue(s, c);
    }
    return SD_OK;
}

sd_graph *sd_graph_retain(sd_graph *g)
{
    pthread_mutex_lock(&lock);
    g->refs++;
    pthread_mutex_unlock(&lock);
    return g;
}

sd_status sd_graph_destroy(sd_graph *g)
{
    if (!g)
        return SD_OK;
    pthread_mutex_lock(&lock);
    int last = --g->refs == 0;
    pthread_mutex_unlock(&lock);
    if (!last)
        return SD_OK;
    for (op *o = g->head, *n; o; o = n) {
        n = o->next;
        op_free(o);
    }
    free(g);
    return SD_OK;
}

/* ---- launches and host work -------------------------------------------------- */

sd_status sd_launch(sd_stream *s, sd_function *f, const unsigned grid[3],
                    const unsigned block[3], void **params)
{
    if (!f || !params)
        return SD_INVALID_VALUE;
    for (int d = 0; d < 3; d++)
        if (grid[d] == 0 || block[d] == 0)
            return SD_INVALID_VALUE;
    op *o = op_new(OP_LAUNCH);
    unsigned char *args = calloc((size_t)f->nargs + 1, 16);
    if (!o || !args) {
        free(o);
        free(args);
        return SD_OUT_OF_MEMORY;
    }
    for (int i = 0; i < f->nargs; i++) {
        if (!params[i]) {
            free(o);
            free(args);
            return SD_INVALID_VALUE;
        }
        if (f->global[i]) {
            void *p;
            memcpy(&p, params[i], sizeof p);
            /* NULL: an argument the kernel does not read, whose offset
             * (the next parameter) is then 0 */
            long long offset = 0;
            if (!p && i + 1 < f->nargs && !f->global[i + 1] && params[i + 1] &&
                f->size[i + 1] == sizeof offset)
                memcpy(&offset, params[i + 1], sizeof offset);
            if (p ? sd_on_device(s->device, p, 0) != 0 : offset != 0) {
                fprintf(stderr, "standin: %s argument %d (%p) is no memory "
                                "of device %d\n", f->name, i, p, s->device);
                free(o);
                free(args);
                return SD_ILLEGAL_ADDRESS;
            }
            memcpy(args + 16 * i, &p, sizeof p);
        } else {
            memcpy(args + 16 * i, params[i], f->size[i]);
        }
    }
    o->owned = args;
    o->owned_size = ((size_t)f->nargs + 1) * 16;
    o->u.launch.f = f;
    for (int d = 0; d < 3; d++) {
        o->u.launch.global[d] = (size_t)grid[d] * block[d];
        o->u.launch.local[d] = block[d];
    }
    enqueue(s, o);
    return SD_OK;
}

sd_status sd_host_work(sd_stream *s, void (*fn)(void *), const void *arg,
                       size_t argsize)
{
    op *o = op_new(OP_HOST);
    void *copy = malloc(argsize);
    if (!o || !copy) {
        free(o);
        free(copy);
        return SD_OUT_OF_MEMORY;
    }
    memcpy(copy, arg, argsize);
    o->owned = copy;
    o->owned_size = argsize;
    o->u.host.fn = fn;
    enqueue(s, o);
    return SD_OK;
}
