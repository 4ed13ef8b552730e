#include "device.h"
#include "backend.h"
#include "gpu.h"
#include "log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GL_BACKENDS
#define GL_BACKENDS "host"
#endif

const char *const gl_kernel_names[GL_K_COUNT] = {
    "gl_copy", "gl_scale", "gl_pack_band", "gl_zero_lower", "gl_unpack_v",
    "gl_gemm", "gl_geqrt", "gl_gelqt", "gl_gb_chase", "gl_sb_chase",
    "gl_tridiag_bisect", "gl_panel_tall",
    "gl_gb_chase_all", "gl_sb_chase_all",
    "gl_dc_fill", "gl_dc_rotate", "gl_dc_gather", "gl_dc_secular_w",
    "gl_dc_secular_vectors", "gl_dc_support", "gl_dc_phase_rows", "gl_dc_svd_first_row",
    "gl_dc_svd_z", "gl_dc_svd_vectors", "gl_wy_build", "gl_dc_secular_roots",
    "gl_sb_chase_window", "gl_gb_chase_window",
};

const char *gl_backends_compiled(void) { return GL_BACKENDS; }

/* The GPU runtimes compiled in are the rows of the registry (backend.h)
 * with a gl_gpu, in its order: the order the automatic choice tries them
 * (the vendors' own APIs first).  Each one's chosen device: */
static const char *failure_of(const gl_backend *backend);

typedef struct runtime {
    int chosen;                 /* device index, -1 none (once done) */
    int done;                   /* chosen is set */
    int peers[GL_MAX_DEVICE_SET];   /* the set's other devices ... */
    int npeers;                 /* ... (GPULAPACK_DEVICE=cuda:0,1) */
    int spare[GL_MAX_DEVICE_SET];   /* under auto: the runtime's other
                                       GPUs, a set only where the tune
                                       file says (gl_tune_devices) */
    int nspare;
} runtime;

static runtime runtimes[GL_NBACKENDS];   /* of the row of the same index */

static runtime *state_of(const gl_backend *backend)
{
    return &runtimes[backend - gl_backends];
}

int gl_device_count(void)
{
    int count = 0;
    for (int r = 0; r < GL_NBACKENDS; r++)
        if (gl_backends[r].gpu)
            count += gl_backends[r].gpu->device_count();
    return count;
}

/* Device i of the list over all runtimes: its runtime and index there. */
static const gl_backend *locate(int i, int *index)
{
    for (int r = 0; r < GL_NBACKENDS && i >= 0; r++) {
        const gl_backend *b = &gl_backends[r];
        if (!b->gpu)
            continue;
        int n = b->gpu->device_count();
        if (i < n) {
            *index = i;
            return b;
        }
        i -= n;
    }
    return NULL;
}

/* The device of each runtime, chosen once from GPULAPACK_DEVICE: a request
 * for the runtime takes any of its devices (an OpenCL CPU device such as
 * PoCL included); the automatic choice takes GPUs only (PoCL on the CPU
 * is slower than the host path on the same CPU).  Discovery (opening the
 * vendor library, initializing it) happens here, on the first call that
 * could use the runtime's device, never in a constructor. */
static pthread_mutex_t choose_lock = PTHREAD_MUTEX_INITIALIZER;

/* The process's rank among the MPI processes of its node, as the
 * launchers say (Open MPI, MPICH and Intel MPI, Slurm, PMI); -1 when none
 * does. */
static int local_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                        "MPI_LOCALRANKID", "SLURM_LOCALID",
                                        "PMI_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long rank = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && rank >= 0 && rank < 1 << 20)
            return (int)rank;
    }
    return -1;
}

/* Where the request names no device of b: with several processes of an
 * MPI program on the node, each takes a device of its own, the local
 * rank's modulo the devices (GPUs only under auto) -- otherwise they all
 * took the best device and shared it; a single process takes the best.
 * -1 when b has no such device. */
static int choose_unnamed(const gl_backend *b, int gpu_only)
{
    int rank = local_rank();
    if (rank < 0)
        return b->gpu->choose(-1, -1, gpu_only);
    int count = 0, n = b->gpu->device_count();
    for (int i = 0; i < n; i++)
        count += !gpu_only || b->gpu->device(i)->gpu;
    for (int i = 0, k = count > 0 ? rank % count : -1; i < n && k >= 0; i++)
        if ((!gpu_only || b->gpu->device(i)->gpu) && k-- == 0) {
            gl_log(1, "%s: local rank %d takes %s (%d devices)", b->name,
                   rank, b->gpu->device(i)->id, count);
            return i;
        }
    return -1;
}

/* The other devices of a set (GPULAPACK_DEVICE=cuda:0,1, cuda:all):
 * each found and opened once, the chosen one and repeats left out. */
static void choose_peers(const gl_backend *b, const gl_device_request *r,
                         runtime *rt)
{
    int n = b->gpu->device_count();
    int listed = r->all ? n : r->count;
    for (int k = 0; k < listed && rt->npeers < GL_MAX_DEVICE_SET - 1; k++) {
        int i = r->all ? k : b->gpu->choose(r->platforms[k], r->indices[k], 0);
        int seen = i < 0 || i == rt->chosen;
        for (int p = 0; p < rt->npeers && !seen; p++)
            seen = rt->peers[p] == i;
        if (!seen && b->gpu->prepare(i) == 0)
            rt->peers[rt->npeers++] = i;
    }
    if (rt->npeers > 0)
        gl_log(1, "%s: %d devices share each call's work, %s first",
               b->name, rt->npeers + 1, b->gpu->device(rt->chosen)->id);
}

/* Under auto, a single process (no MPI rank of the node, which takes a
 * device of its own) may use the runtime's other GPUs as a set: noted,
 * the chosen one left out, but not opened here -- a context on one
 * (gl_ctx_acquire) opens it when a call first takes the set, so that a
 * process whose calls never do holds nothing on the others. */
static void choose_spares(const gl_backend *b, runtime *rt)
{
    int n = b->gpu->device_count();
    for (int i = 0; i < n && rt->nspare < GL_MAX_DEVICE_SET - 1; i++)
        if (i != rt->chosen && b->gpu->device(i)->gpu)
            rt->spare[rt->nspare++] = i;
}

static int chosen_of(const gl_backend *b)
{
    runtime *rt = state_of(b);
    if (__atomic_load_n(&rt->done, __ATOMIC_ACQUIRE))
        return rt->chosen;
    pthread_mutex_lock(&choose_lock);
    if (!rt->done) {
        const gl_device_request *r = &gl_config_get()->device;
        int named = r->backend == b && (r->index >= 0 || r->platform >= 0);
        int i = named               ? b->gpu->choose(r->platform, r->index, 0)
                : r->backend == b   ? choose_unnamed(b, 0)
                : r->backend == NULL ? choose_unnamed(b, 1)
                                    : -1;
        rt->chosen = i >= 0 && b->gpu->prepare(i) == 0 ? i : -1;
        if (rt->chosen >= 0 && r->backend == b)
            choose_peers(b, r, rt);
        else if (rt->chosen >= 0 && r->backend == NULL && local_rank() < 0)
            choose_spares(b, rt);
        __atomic_store_n(&rt->done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&choose_lock);
    return rt->chosen;
}

size_t gl_device_memory_cap(void)
{
    double mb = gl_config_get()->device_memory_mb;
    double bytes = mb * 1048576.0;
    return mb < 0 || bytes >= (double)SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

/* The compiled-in runtime of a path; NULL for the others. */
static const gl_backend *runtime_of(gl_path path)
{
    const gl_backend *b = gl_backend_of_path(path);
    return b && b->gpu ? b : NULL;
}

/* The runtime's chosen device, if it can run the problem: double
 * precision when asked (its room is the policy's to weigh). */
static int usable(const gl_backend *b, int fp64)
{
    const gl_gpu_device_info *info = b->gpu->device(chosen_of(b));
    return info && (info->fp64 || !fp64);
}

gl_room gl_device_room(gl_path path)
{
    const gl_backend *b = runtime_of(path);
    int i = b ? chosen_of(b) : -1;
    const gl_gpu_device_info *info = i >= 0 ? b->gpu->device(i) : NULL;
    if (!info)
        return (gl_room){0, 0};
    unsigned long long room = info->memory;
    unsigned long long free_now = b->gpu->memory_free ? b->gpu->memory_free(i)
                                                      : 0;
    if (free_now > 0 && free_now < room)
        room = free_now;
    size_t cap = gl_device_memory_cap();
    if (cap < room)
        room = cap;
    return (gl_room){room < SIZE_MAX ? (size_t)room : SIZE_MAX,
                     info->max_alloc};
}

int gl_room_fits(const gl_room *room, int64_t bytes, int64_t largest)
{
    return bytes >= 0 && largest >= 0 &&
           (unsigned long long)bytes <= room->budget &&
           (room->max_alloc == 0 ||
            (unsigned long long)largest <= room->max_alloc);
}

int gl_device_vendor_solver(gl_path path)
{
    const gl_backend *b = runtime_of(path);
    char version[64];
    return b && b->gpu->solver_ready && b->gpu->eig_solve &&
           b->gpu->solver_version &&
           b->gpu->solver_version(version, sizeof version) == 0;
}

gl_path gl_device_auto(int fp64, const char **why)
{
    *why = "no-device";
    for (int r = 0; r < GL_NBACKENDS; r++) {
        const gl_backend *b = &gl_backends[r];
        if (!b->gpu)
            continue;
        if (chosen_of(b) < 0) {
            const char *failure = failure_of(b);
            if (failure && strcmp(*why, "no-device") == 0)
                *why = failure;
            continue;
        }
        if (usable(b, fp64))
            return b->path;
        /* A device was found: the runtimes after this one are not opened
         * (CUDA first, HIP only where CUDA found no device). */
        *why = "device-fp64";
        return GL_PATH_HOST;
    }
    return GL_PATH_HOST;
}

gl_path gl_device_path(const gl_device_request *request, int fp64,
                       const char **why)
{
    const char *unused;
    if (!why)
        why = &unused;
    *why = "";
    if (request->backend == NULL)
        return gl_device_auto(fp64, why);
    if (request->backend->path == GL_PATH_HOST)
        return GL_PATH_HOST;
    const gl_backend *b = request->backend;
    if (b && b->gpu && chosen_of(b) >= 0 && usable(b, fp64))
        return b->path;
    const gl_gpu_device_info *info =
        b && b->gpu && chosen_of(b) >= 0 ? b->gpu->device(chosen_of(b)) : NULL;
    *why = !info ? "no-device" : "device-fp64";
    return GL_PATH_LAPACK;
}

gl_path gl_device_path_of(gl_path path, int fp64)
{
    const gl_backend *b = runtime_of(path);
    if (b && chosen_of(b) >= 0 && usable(b, fp64))
        return path;
    return path == GL_PATH_HOST ? GL_PATH_HOST : GL_PATH_LAPACK;
}

const gl_gpu_device_info *gl_device_chosen(gl_path path)
{
    const gl_backend *b = runtime_of(path);
    return b ? b->gpu->device(chosen_of(b)) : NULL;
}

int gl_device_peers(gl_path path, int *peers)
{
    const gl_backend *b = runtime_of(path);
    if (!b || chosen_of(b) < 0)
        return 0;
    runtime *rt = state_of(b);
    memcpy(peers, rt->peers, sizeof *peers * (size_t)rt->npeers);
    return rt->npeers;
}

int gl_device_spares(gl_path path, int *spares)
{
    const gl_backend *b = runtime_of(path);
    if (!b || chosen_of(b) < 0)
        return 0;
    runtime *rt = state_of(b);
    memcpy(spares, rt->spare, sizeof *spares * (size_t)rt->nspare);
    return rt->nspare;
}

int gl_device_chosen_index(gl_path path)
{
    const gl_backend *b = runtime_of(path);
    return b ? chosen_of(b) : -1;
}

const gl_gpu *gl_device_gpu(gl_path path)
{
    const gl_backend *b = runtime_of(path);
    return b ? b->gpu : NULL;
}

const gl_gpu_device_info *gl_device_info(int i, int *chosen)
{
    int index;
    const gl_backend *b = locate(i, &index);
    if (!b)
        return NULL;
    *chosen = chosen_of(b) == index;
    return b->gpu->device(index);
}

/* "lapack" (forwarded), or the name of the path's backend. */
const char *gl_path_name(gl_path path)
{
    if (path == GL_PATH_LAPACK)
        return "lapack";
    const gl_backend *b = gl_backend_of_path(path);
    return b ? b->name : "?";
}

/* ---- the runtimes' choice and opening of a device ---------------------- */

static double rank_of(const gl_gpu_device_info *info, gl_device_rank rank)
{
    if (rank == GL_RANK_MEMORY_UNITS)
        return (double)info->memory * (info->compute_units + 1);
    return (info->gpu ? 1e30 : 0) + (double)info->memory *
           (info->compute_units + 1) * (info->clock_mhz + 1);
}

int gl_device_choose(const gl_gpu *gpu, int platform, int device,
                     int gpu_only, gl_device_rank rank)
{
    int best = -1;
    double best_score = -1;
    for (int i = 0; i < gpu->device_count(); i++) {
        const gl_gpu_device_info *info = gpu->device(i);
        if ((platform >= 0 && info->platform != platform) ||
            (device >= 0 && info->device != device) ||
            (gpu_only && !info->gpu))
            continue;
        double score = rank_of(info, rank);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

int gl_device_prepare(pthread_mutex_t *lock, int *opened,
                      int (*open)(int i), int i)
{
    pthread_mutex_lock(lock);
    int rc = *opened ? 0 : open(i);
    if (rc == 0)
        *opened = 1;
    pthread_mutex_unlock(lock);
    return rc == 0 ? 0 : -1;
}

/* ---- the vendor runtime libraries --------------------------------------- */

/* Each vendor runtime library is opened at most once per process, by
 * whichever asks first (the listing of gpulapack_gpu_runtimes or a
 * runtime's discovery), and never closed.  ROCm's libamdhip64 loads an
 * LLVM that stays loaded after dlclose; opening HIP a second time then
 * registers LLVM's command-line options again and LLVM aborts the whole
 * process ("inconsistency in registered CommandLine options": seen on the
 * H200 machine, whose libamdhip64.so.5 sat beside the NVIDIA driver;
 * testing/unit/check_auto.sh's stand-in HIP aborts the same way).
 * A failed dlopen is remembered too: it ran no initializer, and trying
 * again would only cost another search. */
enum { MAX_LIBRARIES = 16 };
static struct {
    const char *soname;   /* a string of the callers' static tables */
    void *handle;         /* NULL: not found */
} libraries[MAX_LIBRARIES];
static int nlibraries;
static pthread_mutex_t libraries_lock = PTHREAD_MUTEX_INITIALIZER;

void *gl_runtime_library(const char *soname)
{
    pthread_mutex_lock(&libraries_lock);
    void *handle = NULL;
    int i = 0;
    while (i < nlibraries && strcmp(libraries[i].soname, soname) != 0)
        i++;
    if (i < nlibraries) {
        handle = libraries[i].handle;
    } else {
        handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        gl_log(2, "%s: %s", soname, handle ? "opened" : "not found");
        if (nlibraries < MAX_LIBRARIES) {
            libraries[nlibraries].soname = soname;
            libraries[nlibraries].handle = handle;
            nlibraries++;
        }
        /* past the table's end a library would be opened again: keep the
         * handle's reference instead of closing it */
    }
    pthread_mutex_unlock(&libraries_lock);
    return handle;
}

void *gl_runtime_open(const char *const *sonames, const char **opened)
{
    for (int i = 0; sonames[i]; i++) {
        void *handle = gl_runtime_library(sonames[i]);
        if (handle) {
            if (opened)
                *opened = sonames[i];
            return handle;
        }
    }
    return NULL;
}

/* Why a runtime has no device: set by its discovery, one slot per row of
 * the registry. */
static const char *runtime_failure[GL_NBACKENDS];

void gl_runtime_failed(const char *runtime, const char *reason,
                       const char *detail)
{
    const gl_backend *b = gl_backend_named(runtime);
    if (b)
        __atomic_store_n(&runtime_failure[b - gl_backends], reason,
                         __ATOMIC_RELEASE);
    gl_log(1, "%s: %s: %s; calls take another path", runtime, reason, detail);
}

static const char *failure_of(const gl_backend *backend)
{
    return __atomic_load_n(&runtime_failure[backend - gl_backends],
                           __ATOMIC_ACQUIRE);
}

static char runtimes_found[160];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* One library per runtime, in the registry's order, compiled in or not:
 * the one its discovery opens (the same handle, so the listing never
 * initializes a runtime a second time). */
static void probe(void)
{
    for (int r = 0; r < GL_NBACKENDS; r++) {
        const char *name = NULL;
        if (!gl_backends[r].sonames ||
            !gl_runtime_open(gl_backends[r].sonames, &name))
            continue;
        size_t used = strlen(runtimes_found);
        snprintf(runtimes_found + used, sizeof runtimes_found - used, "%s%s",
                 used ? " " : "", name);
    }
}

const char *gl_gpu_runtimes_found(void)
{
    pthread_once(&probe_once, probe);
    return runtimes_found;
}
