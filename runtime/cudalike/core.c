/* The core of the CUDA and HIP runtime (cudalike.h): the driver loaded,
 * its devices found, chosen and opened, the kernel modules loaded, and
 * the gl_gpu table that gathers the operations of the other files. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../backend.h"
#include "../device.h"
#include "../log.h"
#include "cudalike.h"

drv_table drv;
extern const gl_gpu GPU_TABLE;   /* at the end */

#define MAX_DEVICES 16
static device_state devices[MAX_DEVICES];
static int ndevices;
static pthread_once_t discover_once = PTHREAD_ONCE_INIT;
static const char *const images[4] = DRV_IMAGES;

/* The driver's one handle of the process (device.c): the listing of
 * gpulapack_gpu_runtimes may have opened it already, and a second
 * initialization of ROCm's HIP aborts the process. */
static int load_driver(void)
{
    const char *soname = NULL;
    void *lib = gl_runtime_open(gl_backend_named(API)->sonames, &soname);
    if (!lib)
        return -1;
#define DRV_LOAD(f)                                                          \
    if (!(*(void **)&drv.f = dlsym(lib, STRING(f)))) {                       \
        gl_runtime_failed(API, "runtime-init-failed",                        \
                          STRING(f) " missing from the driver");             \
        return -1;                                                           \
    }
    DRV_FUNCS(DRV_LOAD)
#undef DRV_LOAD
    drv.graphs = 1;
    drv.async_memory = 1;
    drv.memory_info = 1;
    drv.lanes = 1;
#define DRV_LOAD_OPTIONAL(f, flag)                                           \
    if (!(*(void **)&drv.f = dlsym(lib, STRING(f))))                         \
        drv.flag = 0;
#define DRV_LOAD_GRAPH(f) DRV_LOAD_OPTIONAL(f, graphs)
#define DRV_LOAD_ASYNC(f) DRV_LOAD_OPTIONAL(f, async_memory)
#define DRV_LOAD_INFO(f) DRV_LOAD_OPTIONAL(f, memory_info)
#define DRV_LOAD_LANE(f) DRV_LOAD_OPTIONAL(f, lanes)
    DRV_GRAPH_FUNCS(DRV_LOAD_GRAPH)
    DRV_ASYNC_FUNCS(DRV_LOAD_ASYNC)
    DRV_INFO_FUNCS(DRV_LOAD_INFO)
    DRV_LANE_FUNCS(DRV_LOAD_LANE)
#undef DRV_LOAD_LANE
#undef DRV_LOAD_INFO
#undef DRV_LOAD_ASYNC
#undef DRV_LOAD_GRAPH
#undef DRV_LOAD_OPTIONAL
    gl_log(2, API ": driver loaded, graphs %s, stream-ordered memory %s, "
              "copy lanes %s",
           drv.graphs ? "yes" : "no", drv.async_memory ? "yes" : "no",
           drv.lanes ? "yes" : "no");
    return 0;
}

/* ---- discovery ------------------------------------------------------------ */

static void discover(void)
{
    if (load_driver() != 0)
        return;
    drv_result rc = drv_init();
    int count = 0;
    if (rc == DRV_OK)
        rc = drv_count(&count);
    if (rc != DRV_OK) {
        /* 100: CUDA_ERROR_NO_DEVICE, hipErrorNoDevice; 101: invalid device,
         * what ROCm's hipInit says on a machine without an AMD GPU */
        char detail[64];
        snprintf(detail, sizeof detail, "driver error %d", (int)rc);
        gl_runtime_failed(API, rc == 100 || rc == 101 ? "no-device"
                                                    : "runtime-init-failed",
                          detail);
        return;
    }
    for (int i = 0; i < count && ndevices < MAX_DEVICES; i++) {
        device_state *dev = &devices[ndevices];
        if (drv_get(i, &dev->handle) != DRV_OK)
            continue;
        dev->info.platform = -1;
        dev->info.device = i;
        snprintf(dev->info.id, sizeof dev->info.id, API ":%d", i);
        dev->info.gpu = 1;
        dev->info.fp64 = 1;
        drv_describe(i, dev);
        pthread_mutex_init(&dev->lock, NULL);
        ndevices++;
    }
    gl_log(2, API ": %d device(s)", ndevices);
}

static int device_count(void)
{
    pthread_once(&discover_once, discover);
    return ndevices;
}

static const gl_gpu_device_info *device_info(int i)
{
    return i >= 0 && i < device_count() ? &devices[i].info : NULL;
}

/* Device `device` (-1: the one with the most memory times units). */
static int choose(int platform, int device, int gpu_only)
{
    return gl_device_choose(&GPU_TABLE, platform, device, gpu_only,
                            GL_RANK_MEMORY_UNITS);
}

/* Opens device i for contexts (CUDA: retains its primary context, kept
 * for the process); a failure is the runtime's. */
static int open_device(int i)
{
    drv_result rc = drv_open(&devices[i]);
    if (rc != DRV_OK) {
        char detail[64];
        snprintf(detail, sizeof detail, "device %d cannot be opened (error %d)",
                 i, (int)rc);
        gl_runtime_failed(API, "runtime-init-failed", detail);
        return -1;
    }
    return 0;
}

/* Opens device i, once. */
static int prepare(int i)
{
    if (i < 0 || i >= device_count())
        return -1;
    return gl_device_prepare(&devices[i].lock, &devices[i].opened,
                             open_device, i);
}

/* Free memory of device i (prepared) as its driver reports it; 0 when
 * the driver cannot say. */
static unsigned long long memory_free(int i)
{
    if (!drv.memory_info || i < 0 || i >= ndevices || !devices[i].opened)
        return 0;
    drv_saved saved;
    size_t free_bytes = 0;
    if (drv_enter(&devices[i], &saved) != DRV_OK)
        return 0;
    if (drv_memory_free(&free_bytes) != DRV_OK)
        free_bytes = 0;
    drv_leave(saved);
    return free_bytes;
}

/* The device of context ctx (prepared); NULL if it names none. */
device_state *device_of(const gl_ctx *ctx)
{
    return ctx && ctx->device >= 0 && ctx->device < ndevices
               ? &devices[ctx->device]
               : NULL;
}

/* Work-groups for a launch whose groups wait for each other: one per
 * multiprocessor keeps the context's device busy. */
static int resident_groups(gl_ctx *ctx)
{
    device_state *dev = device_of(ctx);
    return dev && dev->info.compute_units > 0 ? (int)dev->info.compute_units
                                              : 1;
}

/* The kernels of precision p on dev: the module is loaded once. */
drv_function *kernels_of(device_state *dev, int precision)
{
    int p = precision - 1;
    pthread_mutex_lock(&dev->lock);
    if (dev->module_state[p] == 0) {
        dev->module_state[p] = -1;
        drv_module module;
        drv_result rc = drv_load_module(images[p], &module);
        for (int k = 0; k < GL_K_COUNT && rc == DRV_OK; k++)
            rc = drv_get_function(module, gl_kernel_names[k],
                                  &dev->kernels[p][k]);
        if (rc == DRV_OK)
            dev->module_state[p] = 1;
        else
            gl_log(1, API ": kernels of precision %d do not load (error %d)",
                   precision, (int)rc);
    }
    drv_function *k = dev->module_state[p] == 1 ? dev->kernels[p] : NULL;
    pthread_mutex_unlock(&dev->lock);
    return k;
}

void *open_first(const char *const *names)
{
    void *lib = NULL;
    for (int i = 0; names[i] && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    return lib;
}

/* The operations of the files of runtime/cudalike/, as gpu.h names them. */
const gl_gpu GPU_TABLE = {
    .name = API,
    .device_count = device_count,
    .device = device_info,
    .choose = choose,
    .prepare = prepare,
    .memory_free = memory_free,
    .open = open_queue,
    .close = close_queue,
    .alloc = alloc,
    .release = release,
    .write = gpu_write,
    .copy = gpu_copy,
    .read = gpu_read,
    .read_direct = gpu_read_direct,
    .mark = gpu_mark,
    .read_marked = gpu_read_marked,
    .lane_write = gpu_lane_write,
    .lane_read = gpu_lane_read,
    .lane_record = gpu_lane_record,
    .lane_wait = gpu_lane_wait,
    .host_register = gpu_host_register,
    .host_unregister = gpu_host_unregister,
    .finish = gpu_finish,
    .launch = launch,
    .blas_gemm = blas_gemm,
#if defined(GL_API_CUDA)
    .blas_gemm_batched = blas_gemm_batched,
    .blas_hemm = blas_hemm,
    .blas_her2k = blas_her2k,
#endif
    .batch_begin = batch_begin,
    .batch_end = batch_end,
    .resident_groups = resident_groups,
    .solver_ready = solver_ready,
    .eig_solve = eig_solve,
    .solver_version = solver_version,
    .fail = fail,
    .reset = reset,
};
