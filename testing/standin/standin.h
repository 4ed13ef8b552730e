/* The API-neutral core of the computing stand-in drivers (standin.c),
 * shared by the CUDA face (standin_cuda.c: libcuda.so.1 and cuBLAS) and
 * the HIP face (standin_hip.c: libamdhip64.so.5).  What they are for and
 * what they cannot show: the comment at the top of standin.c. */
#ifndef STANDIN_H
#define STANDIN_H

#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* What a core operation reports; each face maps it to its API's codes. */
typedef enum sd_status {
    SD_OK = 0,
    SD_INVALID_VALUE,    /* an argument no driver takes */
    SD_OUT_OF_MEMORY,
    SD_INVALID_DEVICE,
    SD_ILLEGAL_ADDRESS,  /* memory of no allocation of the stream's device */
    SD_LAUNCH_FAILED,    /* a kernel that did not run (sticky on its stream) */
    SD_CAPTURE,          /* an operation a capturing stream cannot take */
    SD_INVALID_IMAGE,
    SD_NOT_FOUND,
    SD_NOT_SUPPORTED
} sd_status;

typedef struct sd_stream sd_stream;
typedef struct sd_event sd_event;
typedef struct sd_graph sd_graph;
typedef struct sd_function sd_function;

enum { SD_MAX_DEVICES = 8 };
enum sd_copy_kind { SD_HTOD, SD_DTOH, SD_DTOD };

/* devices: GL_MOCK_DEVICES (1-8, else dflt) */
int sd_device_count(int dflt);
int sd_compute_units(void);
size_t sd_total_bytes(int device);
size_t sd_free_bytes(int device);

/* device memory of one device; sd_free waits for the device's streams */
sd_status sd_alloc(int device, size_t bytes, void **p);
sd_status sd_free(int device, void *p);
sd_status sd_free_async(sd_stream *s, void *p);
/* page-locked host memory: allocated, or registered */
sd_status sd_host_alloc(size_t bytes, void **p);
sd_status sd_host_free(void *p);
sd_status sd_host_register(void *p, size_t bytes);
sd_status sd_host_unregister(void *p);
/* 0 if [p, p + bytes) lies in one live allocation of device */
int sd_on_device(int device, const void *p, size_t bytes);

/* streams: each a worker thread that runs its operations in order;
 * sd_stream_default(device) is the device's legacy stream */
sd_status sd_stream_create(int device, sd_stream **s);
sd_status sd_stream_destroy(sd_stream *s);
sd_status sd_stream_sync(sd_stream *s);
sd_stream *sd_stream_default(int device);
int sd_stream_device(const sd_stream *s);

sd_status sd_copy(sd_stream *s, int kind, void *dst, const void *src,
                  size_t bytes);
sd_status sd_copy_2d(sd_stream *s, int to_device, void *dst, size_t dpitch,
                     const void *src, size_t spitch, size_t width,
                     size_t height);

sd_status sd_event_create(sd_event **e);
sd_status sd_event_destroy(sd_event *e);
sd_status sd_event_record(sd_event *e, sd_stream *s);
sd_status sd_event_sync(sd_event *e);
sd_status sd_stream_wait(sd_stream *s, sd_event *e);

sd_status sd_capture_begin(sd_stream *s);
sd_status sd_capture_end(sd_stream *s, sd_graph **g);
sd_status sd_graph_launch(sd_graph *g, sd_stream *s);
sd_graph *sd_graph_retain(sd_graph *g);   /* an instantiation */
sd_status sd_graph_destroy(sd_graph *g);   /* the last reference frees */

/* modules: the precision (1-4) of a kernel image that the build made
 * (compared with the files IMAGE_DIR/kernels_<p>.EXT); functions by name */
sd_status sd_module_load(const void *image, const char *dir, const char *ext,
                         int *precision);
sd_status sd_function_get(int precision, const char *name, sd_function **f);
sd_status sd_launch(sd_stream *s, sd_function *f, const unsigned grid[3],
                    const unsigned block[3], void **params);

/* work of the host on a stream (the BLAS): fn(arg) with a copy of the
 * argsize bytes at arg, in stream order */
sd_status sd_host_work(sd_stream *s, void (*fn)(void *), const void *arg,
                       size_t argsize);

#endif
