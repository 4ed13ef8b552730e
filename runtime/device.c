#include "device.h"
#include "gpu.h"
#include "tune.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef GL_BACKENDS
#define GL_BACKENDS "host"
#endif

const char *const gl_kernel_names[GL_K_COUNT] = {
    "gl_copy", "gl_scale", "gl_pack_band", "gl_zero_lower", "gl_unpack_v",
    "gl_gemm", "gl_geqrt", "gl_gelqt", "gl_gb_chase", "gl_sb_chase",
    "gl_tridiag_bisect", "gl_panel_reflect", "gl_panel_update",
    "gl_gb_chase_all", "gl_sb_chase_all",
};

const char *gl_backends_compiled(void) { return GL_BACKENDS; }

/* The GPU runtimes compiled in, in the order the automatic choice tries
 * them (the vendors' own APIs first). */
typedef struct runtime {
    const gl_gpu *gpu;
    gl_device_kind kind;
    gl_path path;
    int chosen;                 /* device index, -1 none */
    int done;                   /* chosen is set */
} runtime;

static runtime runtimes[] = {
#ifdef GL_WITH_CUDA
    {&gl_cuda_gpu, GL_DEVICE_CUDA, GL_PATH_CUDA, -1, 0},
#endif
#ifdef GL_WITH_HIP
    {&gl_hip_gpu, GL_DEVICE_HIP, GL_PATH_HIP, -1, 0},
#endif
#ifdef GL_WITH_OPENCL
    {&gl_opencl_gpu, GL_DEVICE_OPENCL, GL_PATH_OPENCL, -1, 0},
#endif
    {NULL, GL_DEVICE_HOST, GL_PATH_HOST, -1, 0},
};
#define NRUNTIMES ((int)(sizeof runtimes / sizeof runtimes[0]) - 1)

int gl_device_count(void)
{
    int count = 0;
    for (int r = 0; r < NRUNTIMES; r++)
        count += runtimes[r].gpu->device_count();
    return count;
}

/* Device i of the list over all runtimes: its runtime and index there. */
static runtime *locate(int i, int *index)
{
    for (int r = 0; r < NRUNTIMES && i >= 0; r++) {
        int n = runtimes[r].gpu->device_count();
        if (i < n) {
            *index = i;
            return &runtimes[r];
        }
        i -= n;
    }
    return NULL;
}

/* The device of each runtime, chosen once from GPULAPACK_DEVICE: a request
 * for the runtime takes any of its devices (an OpenCL CPU device such as
 * PoCL included); the automatic choice takes GPUs only, and only once the
 * runtime's path is measured (gl_tune_gpu_auto). */
static pthread_mutex_t choose_lock = PTHREAD_MUTEX_INITIALIZER;

static int chosen_of(runtime *rt)
{
    if (__atomic_load_n(&rt->done, __ATOMIC_ACQUIRE))
        return rt->chosen;
    pthread_mutex_lock(&choose_lock);
    if (!rt->done) {
        const gl_device_request *r = &gl_config_get()->device;
        int i = r->kind == rt->kind ? rt->gpu->choose(r->platform, r->index, 0)
                : r->kind == GL_DEVICE_AUTO && gl_tune_gpu_auto(rt->gpu->name)
                    ? rt->gpu->choose(-1, -1, 1)
                    : -1;
        if (i >= 0 && rt->gpu->select(i) == 0)
            rt->chosen = i;
        __atomic_store_n(&rt->done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&choose_lock);
    return rt->chosen;
}

/* The runtime's chosen device if it can run the problem: double precision
 * when asked, and memory for about three copies of the matrix. */
static int fits(runtime *rt, int fp64, int64_t bytes)
{
    const gl_gpu_device_info *info = rt->gpu->device(chosen_of(rt));
    return info && (info->fp64 || !fp64) &&
           (unsigned long long)bytes * 3 <= info->memory;
}

gl_path gl_device_path(const gl_device_request *request, int fp64,
                       int64_t bytes)
{
    if (request->kind == GL_DEVICE_HOST)
        return GL_PATH_HOST;
    for (int r = 0; r < NRUNTIMES; r++) {
        runtime *rt = &runtimes[r];
        if ((request->kind == rt->kind ||
             (request->kind == GL_DEVICE_AUTO &&
              gl_tune_gpu_auto(rt->gpu->name))) &&
            fits(rt, fp64, bytes))
            return rt->path;
    }
    return request->kind == GL_DEVICE_AUTO ? GL_PATH_HOST : GL_PATH_LAPACK;
}

const gl_gpu *gl_device_gpu(gl_path path)
{
    for (int r = 0; r < NRUNTIMES; r++)
        if (runtimes[r].path == path)
            return runtimes[r].gpu;
    return NULL;
}

const gl_gpu_device_info *gl_device_info(int i, int *chosen)
{
    int index;
    runtime *rt = locate(i, &index);
    if (!rt)
        return NULL;
    *chosen = chosen_of(rt) == index;
    return rt->gpu->device(index);
}

const char *gl_path_name(gl_path path)
{
    switch (path) {
    case GL_PATH_LAPACK: return "lapack";
    case GL_PATH_HOST: return "host";
    case GL_PATH_OPENCL: return "opencl";
    case GL_PATH_CUDA: return "cuda";
    case GL_PATH_HIP: return "hip";
    }
    return "?";
}

/* ---- the runtime libraries present -------------------------------------- */

static char runtimes_found[160];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
    static const char *const sonames[] = {
        "libcuda.so.1", "libamdhip64.so.5", "libamdhip64.so.6",
        "libOpenCL.so.1", NULL};
    for (int i = 0; sonames[i]; i++) {
        void *lib = dlopen(sonames[i], RTLD_LAZY | RTLD_LOCAL);
        if (!lib)
            continue;
        size_t used = strlen(runtimes_found);
        snprintf(runtimes_found + used, sizeof runtimes_found - used, "%s%s",
                 used ? " " : "", sonames[i]);
        dlclose(lib);
    }
}

const char *gl_gpu_runtimes_found(void)
{
    pthread_once(&probe_once, probe);
    return runtimes_found;
}

/* ---- the calling thread's runtime ---------------------------------------- */

static _Thread_local const gl_gpu *thread_gpu;

void gl_gpu_use(const gl_gpu *gpu) { thread_gpu = gpu; }
const gl_gpu *gl_gpu_current(void) { return thread_gpu; }
