/* The core of the OpenCL runtime (opencl.h): the ICD loader, the devices
 * found, chosen and opened, the programs built per device and precision,
 * the kernels launched, and the gl_gpu table that gathers the operations
 * of the other files. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../backend.h"
#include "../device.h"
#include "../fault.h"
#include "../log.h"
#include "opencl.h"

/* The kernel text, the OpenCL shim and the files of kernels/device/,
 * NUL-terminated (embedded by the build, runtime/embed_opencl.S). */
extern const char gl_opencl_source[];

cl_table cl;
extern const gl_gpu gl_opencl_gpu;   /* at the end */

#define MAX_DEVICES 16
static device_state devices[MAX_DEVICES];
static int ndevices;
static pthread_once_t discover_once = PTHREAD_ONCE_INIT;

/* ---- discovery ---------------------------------------------------------- */

/* The ICD loader's one handle of the process (device.c), shared with the
 * listing of gpulapack_gpu_runtimes. */
static int load_icd(void)
{
    void *lib = gl_runtime_open(gl_backend_named("opencl")->sonames, NULL);
    if (!lib)
        return -1;
#define CL_LOAD(f)                                                           \
    if (!(*(void **)&cl.f = dlsym(lib, #f))) {                               \
        gl_runtime_failed("opencl", "runtime-init-failed",                   \
                          #f " missing from the ICD loader");                \
        return -1;                                                           \
    }
    CL_FUNCS(CL_LOAD)
#undef CL_LOAD
    return 0;
}

/* text, cut to fit size bytes with its NUL */
static void copy_text(char *out, size_t size, const char *text)
{
    size_t n = strnlen(text, size - 1);
    memcpy(out, text, n);
    out[n] = 0;
}

/* A string property, cut to size (a too small buffer is an error for
 * clGetDeviceInfo, so read it whole first). */
static void device_text(cl_device_id id, cl_device_info what, char *out,
                        size_t size)
{
    char text[1024] = "";
    if (cl.clGetDeviceInfo(id, what, sizeof text - 1, text, NULL) !=
        CL_SUCCESS)
        text[0] = 0;
    copy_text(out, size, text);
}

static void add_device(cl_platform_id platform, int p, cl_device_id id, int d)
{
    if (ndevices >= MAX_DEVICES)
        return;
    device_state *dev = &devices[ndevices];
    gl_gpu_device_info *info = &dev->info;
    info->platform = p;
    info->device = d;
    snprintf(info->id, sizeof info->id, "opencl:%d.%d", p, d);
    device_text(id, CL_DEVICE_NAME, info->name, sizeof info->name);
    device_text(id, CL_DEVICE_VERSION, info->version, sizeof info->version);
    char text[1024] = "";
    if (cl.clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof text - 1, text,
                             NULL) != CL_SUCCESS)
        text[0] = 0;
    copy_text(info->platform_name, sizeof info->platform_name, text);
    cl_device_type type = 0;
    cl_device_fp_config fp64 = 0;
    cl_ulong memory = 0, max_alloc = 0;
    cl_uint units = 0, clock = 0;
    cl.clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                       &max_alloc, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                       NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock,
                       &clock, NULL);
    cl.clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dev->local_memory,
                       &dev->local_memory, NULL);
    info->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    info->fp64 = fp64 != 0;
    info->memory = memory;
    info->max_alloc = max_alloc;
    info->local_memory = dev->local_memory;
    info->compute_units = units;
    info->clock_mhz = clock;
    dev->platform_id = platform;
    dev->id = id;
    pthread_mutex_init(&dev->lock, NULL);
    ndevices++;
}

static void discover(void)
{
    if (load_icd() != 0)
        return;
    cl_platform_id platforms[8];
    cl_uint nplatforms = 0;
    cl_int err = cl.clGetPlatformIDs(8, platforms, &nplatforms);
    if (err != CL_SUCCESS) {
        /* -1001: CL_PLATFORM_NOT_FOUND_KHR, the ICD loader without drivers */
        char detail[64];
        snprintf(detail, sizeof detail, "clGetPlatformIDs error %d", (int)err);
        gl_runtime_failed("opencl", err == -1001 ? "no-device"
                                                 : "runtime-init-failed",
                          detail);
        return;
    }
    for (cl_uint p = 0; p < nplatforms && p < 8; p++) {
        cl_device_id ids[MAX_DEVICES];
        cl_uint nids = 0;
        if (cl.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES,
                              ids, &nids) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nids && d < MAX_DEVICES; d++)
            add_device(platforms[p], (int)p, ids[d], (int)d);
    }
    gl_log(2, "opencl: %d device(s)", ndevices);
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

/* The best device: GPUs before other kinds, then the most memory times
 * compute units times clock (OpenCL reports no memory bandwidth; this
 * orders the devices of one vendor the same way). */
static int choose(int platform, int device, int gpu_only)
{
    return gl_device_choose(&gl_opencl_gpu, platform, device, gpu_only,
                            GL_RANK_GPU_MEMORY_UNITS_CLOCK);
}

/* Device i's OpenCL context, which its queues, buffers and programs
 * belong to. */
static int open_device(int i)
{
    device_state *dev = &devices[i];
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform_id, 0};
    cl_int err;
    dev->context = cl.clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        dev->context = NULL;
    return dev->context ? 0 : -1;
}

static int prepare(int i)
{
    if (i < 0 || i >= device_count())
        return -1;
    return gl_device_prepare(&devices[i].lock, &devices[i].opened,
                             open_device, i);
}

device_state *device_opened(int i)
{
    return i >= 0 && i < device_count() && devices[i].context ? &devices[i]
                                                               : NULL;
}

/* ---- programs and kernels ---------------------------------------------- */

static cl_program program_get(device_state *dev, int precision)
{
    pthread_mutex_lock(&dev->lock);
    int p = precision - 1;
    if (dev->program_state[p] == 0) {
        dev->program_state[p] = -1;
        const char *text = gl_opencl_source;
        cl_int err;
        cl_program prog = cl.clCreateProgramWithSource(dev->context, 1, &text,
                                                       NULL, &err);
        if (err == CL_SUCCESS) {
            /* a CPU device's waits poll its cache: 2^30 polls are
             * seconds (common.h SPIN_POLLS); the chase's window takes up
             * to 41 KB of local memory, half that below 48 KB (chase.h
             * CHASE_TILE) */
            char options[128];
            snprintf(options, sizeof options,
                     "-cl-std=CL1.2 -DPRECISION=%d%s%s", precision,
                     dev->info.gpu ? "" : " -DSPIN_POLLS=1073741824",
                     dev->local_memory >= 48 * 1024 ? ""
                                                    : " -DCHASE_SMALL_LOCAL");
            err = cl.clBuildProgram(prog, 1, &dev->id, options, NULL, NULL);
            if (err != CL_SUCCESS) {
                char log[2048] = "";
                cl.clGetProgramBuildInfo(prog, dev->id, CL_PROGRAM_BUILD_LOG,
                                         sizeof log - 1, log, NULL);
                gl_log(1, "opencl: kernel build failed (%d): %s", (int)err,
                       log);
            } else {
                dev->program[p] = prog;
                dev->program_state[p] = 1;
            }
        }
    }
    cl_program prog = dev->program[p];
    pthread_mutex_unlock(&dev->lock);
    return prog;
}

static cl_kernel kernel_get(queue_state *q, int precision, gl_kernel k)
{
    cl_kernel *slot = &q->kernels[precision - 1][k];
    if (!*slot) {
        cl_program prog = program_get(q->dev, precision);
        if (!prog)
            return NULL;
        cl_int err;
        *slot = cl.clCreateKernel(prog, gl_kernel_names[k], &err);
        if (err != CL_SUCCESS)
            *slot = NULL;
    }
    return *slot;
}

static int launch(queue_state *q, int precision, gl_kernel k, int dims,
                  const size_t *groups, const size_t *local, int nargs,
                  const gl_arg *args)
{
    if (gl_fault_hit(GL_FAULT_LAUNCH))
        return -1;
    return launch_uncounted(q, precision, k, dims, groups, local, nargs, args);
}

int launch_uncounted(queue_state *q, int precision, gl_kernel k, int dims,
                     const size_t *groups, const size_t *local, int nargs,
                     const gl_arg *args)
{
    cl_kernel kernel = kernel_get(q, precision, k);
    if (!kernel)
        return -1;
    cl_uint slot = 0;
    for (int i = 0; i < nargs; i++) {
        if (args[i].size) {
            if (cl.clSetKernelArg(kernel, slot++, args[i].size,
                                  args[i].value) != CL_SUCCESS)
                return -1;
            continue;
        }
        /* memory: buffer and element offset; NULL passes no buffer */
        cl_mem mem = NULL;
        size_t bytes = 0;
        if (args[i].value && resolve(args[i].value, &mem, &bytes) != 0)
            return -1;
        cl_long offset = (cl_long)(bytes / args[i].elem);
        if (cl.clSetKernelArg(kernel, slot++, sizeof mem, &mem) != CL_SUCCESS ||
            cl.clSetKernelArg(kernel, slot++, sizeof offset, &offset) !=
                CL_SUCCESS)
            return -1;
    }
    size_t global[2];
    if (dims < 1 || dims > 2)
        return -1;
    for (int d = 0; d < dims && d < 2; d++) {
        if (groups[d] == 0)
            return 0;   /* nothing to do */
        global[d] = groups[d] * local[d];
    }
    return cl.clEnqueueNDRangeKernel(q->queue, kernel, (cl_uint)dims, NULL,
                                     global, local, 0, NULL, NULL) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

static int checked_launch(gl_ctx *ctx, int precision, gl_kernel k, int dims,
                          const size_t *groups, const size_t *local,
                          int nargs, const gl_arg *args)
{
    return checked(Q(ctx), launch(Q(ctx), precision, k, dims, groups, local,
                                  nargs, args));
}


const gl_gpu gl_opencl_gpu = {
    .name = "opencl",
    .device_count = device_count,
    .device = device_info,
    .choose = choose,
    .prepare = prepare,
    .open = open_queue,
    .close = close_queue,
    .alloc = alloc,
    .release = release,
    .write = cl_write,
    .copy = cl_copy,
    .read = cl_read,
    .read_direct = cl_read,   /* cl_read has no bounce array to save */
    .mark = cl_mark,
    .read_marked = cl_read_marked,
    .lane_write = cl_lane_write,
    .lane_read = cl_lane_read,
    .lane_record = cl_lane_record,
    .lane_wait = cl_lane_wait,
    .finish = cl_finish,
    .launch = checked_launch,
    .blas_gemm = blas_gemm,
    .blas_gemm_batched = blas_gemm_batched,
    .fail = fail,
    .reset = reset,
};
