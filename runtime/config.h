/* Run-time configuration from the environment, read once on first use
 * (never in a library constructor).  runtime/settings.def declares every
 * variable; docs/env.md documents them. */
#ifndef GL_CONFIG_H
#define GL_CONFIG_H

/* GPULAPACK_DEVICE=auto|host|opencl[:p.d]|cuda[:i]|hip[:i], or a set of
 * devices of one runtime for one call: cuda:0,1 / opencl:0.0,0.1 (the
 * first takes the call, the others share its work), cuda:all. */
enum { GL_MAX_DEVICE_SET = 8 };
struct gl_backend;
typedef struct gl_device_request {
    /* the backend named (its row of runtime/backend.c, which gives its
     * name and device syntax); NULL: the automatic choice */
    const struct gl_backend *backend;
    int index;      /* cuda/hip device, OpenCL device; -1 = best one */
    int platform;   /* OpenCL platform; -1 = any */
    int all;        /* every device of the runtime ("cuda:all") */
    int count;      /* devices listed (the first is index, platform) */
    int indices[GL_MAX_DEVICE_SET], platforms[GL_MAX_DEVICE_SET];
} gl_device_request;

/* GPULAPACK_CHASE: the device chase's kernel (kernels/device/chase.h):
 * each task's blocks read from the band and written back (tasks), or a
 * sweep's working window kept in local memory from step to step
 * (window). */
enum { GL_CHASE_TUNED, GL_CHASE_TASKS, GL_CHASE_WINDOW };
enum { GL_VALUES_TUNED, GL_VALUES_LAPACK, GL_VALUES_BISECTION };
enum {
    GL_HOST_CHASE_TUNED,
    GL_HOST_CHASE_SWEEPS,
    GL_HOST_CHASE_SPLIT,
    GL_HOST_CHASE_EVEN
};
enum {
    GL_HOST_PRODUCTS_AUTO,
    GL_HOST_PRODUCTS_OWN,
    GL_HOST_PRODUCTS_FUSED,
    GL_HOST_PRODUCTS_BLAS
};

/* GPULAPACK_METHOD: how a GPU path solves a ?syev-family call
 * (docs/design/methods.md): the tuning table's choice (auto), or one
 * method for every size. */
enum { GL_METHOD_AUTO, GL_METHOD_FORCE_TWO_STAGE, GL_METHOD_FORCE_ONE_STAGE,
       GL_METHOD_FORCE_VENDOR };

/* GPULAPACK_PLAN=streamed-values: the streamed plan first for the calls
 * without vectors, the automatic order for the others (LAPACK's svd
 * input with only the values streamed takes minutes, not an hour). */
#define GL_PLAN_STREAMED_VALUES 3

/* The settings, one field per row of runtime/settings.def that the
 * library reads (GL_SETTING, GL_SETTING_ALSO_SCALAPACK; the table names
 * each field's variable, fallback and meaning). */
typedef struct gl_config {
#define GL_SETTING(name, kind, type, field, ...) type field;
#define GL_SETTING_ALSO_SCALAPACK GL_SETTING
#define GL_SETTING_SCALAPACK(...)
#define GL_SETTING_ELSEWHERE(...)
#include "settings.def"
#undef GL_SETTING
#undef GL_SETTING_ALSO_SCALAPACK
#undef GL_SETTING_SCALAPACK
#undef GL_SETTING_ELSEWHERE
    int device_valid;   /* 0 if GPULAPACK_DEVICE could not be parsed (set by its row's reader) */
} gl_config;

const gl_config *gl_config_get(void);

/* Parses a GPULAPACK_DEVICE value; returns 0 if it is not valid. */
int gl_parse_device(const char *text, gl_device_request *out);

/* 1 if the GPULAPACK_DISABLE list names the routine ("dgesdd"), "all", or
 * the routine without its precision letter ("gesdd" disables s/d/c/z). */
int gl_config_disabled(const gl_config *config, const char *routine);

#endif
