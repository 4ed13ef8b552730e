/* The tune file of gpulapack-tune as the rest of the tuning reads it
 * (runtime/tune_file.c; the file's format is described there): its
 * lines for a call, each GPU path's lines applying only on the device
 * they were measured on.  Internal to runtime/tune*.c; tune.h is the
 * tuning's interface. */
#ifndef GL_TUNE_FILE_H
#define GL_TUNE_FILE_H

#include <limits.h>

#include "family.h"
#include "tune.h"

/* A crossover or a set of devices that never pays. */
#define GL_TUNE_NEVER LONG_MAX

struct gl_gpu_device_info;

/* The CPUs this process may run on (at least 1): the host identity's, the
 * host crossovers' key, the host threads' default. */
int gl_tune_cpu_count(void);

/* The file's crossover line of the call's routine (family.h), job and
 * path ("host", or a GPU path), its own family's first, else the family
 * it is measured as (family.h tune_as): 1 with its size (or
 * GL_TUNE_NEVER) in *n, 0 if the file has none. */
int gl_tune_file_crossover(const gl_call_name *name, int vectors,
                           const char *path, long *n);
/* 1 if the file's lines of GPU path apply here: they were measured on the
 * device chosen for path (checked once per path; logged where not). */
int gl_tune_file_applies(const char *path);
/* The file's method lines' gl_method for the call (the line of the
 * largest size not above n) where they apply here; -1 if none does. */
int gl_tune_file_method(const gl_call_name *name, int vectors,
                        const char *path, long n);
/* The file's host-threads lines, in its order, into out (at most most of
 * them; the file holds at most GL_TUNE_HOST_LINES): their count. */
int gl_tune_file_host_lines(gl_host_threads_line *out, int most);
/* The streamed plan's wide band from the rates line of the file's GPU
 * whose identity is this device's (gl_tuning.ooc_wide_band); 0 if none. */
int gl_tune_file_wide_band(const struct gl_gpu_device_info *info);

#endif
