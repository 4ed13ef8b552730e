#include "config.h"
#include "backend.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static gl_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/* A non-negative decimal integer; fallback when unset or malformed. */
static long parse_count(const char *text, long fallback)
{
    if (!text || !*text)
        return fallback;
    errno = 0;
    char *end;
    long value = strtol(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || *end || value < 0)
        return fallback;
    return value;
}

/* A non-negative decimal number (1.5, 0.25); fallback when unset or
 * malformed. */
static double parse_amount(const char *text, double fallback)
{
    if (!text || !*text)
        return fallback;
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || *end || end == text || !(value >= 0) || value > 1e15)
        return fallback;
    return value;
}

/* ":<int>" or ":<int>.<int>" after a backend name. */
static int parse_index(const char *text, int *first, int *second)
{
    char *end;
    if (!isdigit((unsigned char)*text))
        return 0;
    *first = (int)strtol(text, &end, 10);
    if (second && *end == '.') {
        if (!isdigit((unsigned char)end[1]))
            return 0;
        *second = (int)strtol(end + 1, &end, 10);
    }
    return *end == '\0';
}

/* text against one name of GPULAPACK_DEVICE (any case) and the device
 * syntax after it: -1 not this name, 0 this name but not valid, 1 valid
 * (into *request). */
static int parse_named(const char *text, const char *name,
                       const gl_backend *backend, gl_device_syntax syntax,
                       gl_device_request *request)
{
    size_t len = strlen(name);
    if (strncasecmp(text, name, len) != 0)
        return -1;
    const char *rest = text + len;
    request->backend = backend;
    if (*rest == '\0')
        return 1;
    if (*rest != ':')
        return -1;
    rest++;
    if (syntax == GL_SYNTAX_NONE)
        return 0;
    if (strcasecmp(rest, "all") == 0) {
        request->all = 1;
        return 1;
    }
    /* one device, or a comma list of them (a set for one call) */
    char item[32];
    for (int k = 0; *rest; k++) {
        size_t len = strcspn(rest, ",");
        if (k == GL_MAX_DEVICE_SET || len == 0 || len >= sizeof item)
            return 0;
        memcpy(item, rest, len);
        item[len] = '\0';
        rest += len;
        if (*rest == ',' && *++rest == '\0')
            return 0;   /* a list ends with a device */
        int platform = -1, device = -1;
        /* "opencl:p.d"; a single number is a platform */
        int ok = syntax == GL_SYNTAX_PLATFORM_DEVICE
                     ? parse_index(item, &platform, &device)
                     : parse_index(item, &device, NULL);
        if (!ok)
            return 0;
        request->platforms[k] = platform, request->indices[k] = device;
        request->count = k + 1;
    }
    request->platform = request->platforms[0];
    request->index = request->indices[0];
    return request->count > 0;
}

/* "auto", or a backend's name with its device syntax (backend.h). */
int gl_parse_device(const char *text, gl_device_request *out)
{
    gl_device_request request = {.backend = NULL, .index = -1,
                                 .platform = -1};

    if (!text || !*text) {
        *out = request;
        return 1;
    }
    int rc = parse_named(text, "auto", NULL, GL_SYNTAX_NONE, &request);
    for (int b = 0; rc < 0 && b < GL_NBACKENDS; b++)
        rc = parse_named(text, gl_backends[b].name, &gl_backends[b],
                         gl_backends[b].syntax, &request);
    if (rc <= 0)
        return 0;
    *out = request;
    return 1;
}

int gl_config_disabled(const gl_config *cfg, const char *routine)
{
    const char *list = cfg->disable;
    if (!list)
        return 0;
    size_t routine_len = strlen(routine);
    while (*list) {
        while (*list == ',' || isspace((unsigned char)*list))
            list++;
        const char *start = list;
        while (*list && *list != ',' && !isspace((unsigned char)*list))
            list++;
        size_t len = (size_t)(list - start);
        /* Accept "dgesdd_" as well as "dgesdd". */
        if (len > 0 && start[len - 1] == '_')
            len--;
        if (len == 0)
            continue;
        if (len == 3 && strncasecmp(start, "all", 3) == 0)
            return 1;
        if (len == routine_len && strncasecmp(start, routine, len) == 0)
            return 1;
        if (len + 1 == routine_len &&
            strncasecmp(start, routine + 1, len) == 0)
            return 1;
    }
    return 0;
}

static void config_read(void)
{
    config.verbose = (int)parse_count(getenv("GPULAPACK_VERBOSE"), 0);
    if (config.verbose > 3)
        config.verbose = 3;
    config.log_fd = STDERR_FILENO;
    const char *log_path = getenv("GPULAPACK_LOG");
    if (log_path && *log_path) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                      0644);
        if (fd >= 0)
            config.log_fd = fd;
    }
    config.min_n = parse_count(getenv("GPULAPACK_MIN_N"), -1);
    config.host_threads = parse_count(getenv("GPULAPACK_HOST_THREADS"), 0);
    const char *values = getenv("GPULAPACK_HOST_VALUES");
    config.host_values = !values                         ? GL_VALUES_TUNED
                         : !strcmp(values, "lapack")     ? GL_VALUES_LAPACK
                         : !strcmp(values, "bisection")  ? GL_VALUES_BISECTION
                                                         : GL_VALUES_TUNED;
    const char *host_chase = getenv("GPULAPACK_HOST_CHASE");
    config.host_chase = !host_chase                    ? GL_HOST_CHASE_TUNED
                        : !strcmp(host_chase, "sweeps") ? GL_HOST_CHASE_SWEEPS
                        : !strcmp(host_chase, "split")  ? GL_HOST_CHASE_SPLIT
                                                        : GL_HOST_CHASE_TUNED;
    config.band = parse_count(getenv("GPULAPACK_BAND"), 0);
    config.tile_width = parse_count(getenv("GPULAPACK_TILE_WIDTH"), 0);
    config.group = parse_count(getenv("GPULAPACK_GROUP"), 0);
    config.stage1_block = parse_count(getenv("GPULAPACK_STAGE1_BLOCK"), 0);
    config.chunk = parse_count(getenv("GPULAPACK_CHUNK"), 0);
    config.sytrd_stages = parse_count(getenv("GPULAPACK_SYTRD_STAGES"), 0);
    config.clblast = (int)parse_count(getenv("GPULAPACK_CLBLAST"), -1);
    config.vendor_blas = (int)parse_count(getenv("GPULAPACK_CUBLAS"), -1);
    config.graphs = (int)parse_count(getenv("GPULAPACK_GRAPHS"), -1);
    config.hugepages = parse_count(getenv("GPULAPACK_HUGEPAGES"), 0) != 0;
    config.host_memory_mb =
        parse_count(getenv("GPULAPACK_HOST_MEMORY_MB"), -1);
    config.device_memory_mb =
        parse_amount(getenv("GPULAPACK_DEVICE_MEMORY_MB"), -1);
    config.host_keep_mb = parse_count(getenv("GPULAPACK_HOST_KEEP_MB"), -1);
    /* at least 1 (a length below 1 is no workspace), at most INT32_MAX
     * (an LP64 INTEGER holds no more) */
    config.lwork_limit = parse_count(getenv("GPULAPACK_LWORK_LIMIT"), INT32_MAX);
    if (config.lwork_limit < 1 || config.lwork_limit > INT32_MAX)
        config.lwork_limit = INT32_MAX;
    config.group_threads = parse_count(getenv("GPULAPACK_GROUP_THREADS"), 0);
    config.max_groups = parse_count(getenv("GPULAPACK_MAX_GROUPS"), 0);
    config.panel_rows = parse_count(getenv("GPULAPACK_PANEL_ROWS"), 0);
    config.panel_groups = parse_count(getenv("GPULAPACK_PANEL_GROUPS"), -1);
    config.chase_groups = parse_count(getenv("GPULAPACK_CHASE_GROUPS"), -1);
    const char *chase = getenv("GPULAPACK_CHASE");
    config.chase_kernel = !chase                      ? GL_CHASE_TUNED
                          : !strcmp(chase, "tasks")  ? GL_CHASE_TASKS
                          : !strcmp(chase, "window") ? GL_CHASE_WINDOW
                                                     : GL_CHASE_TUNED;
    long alg = parse_count(getenv("GPULAPACK_CUSOLVER_SYEVD_ALG"), 0),
         function = parse_count(getenv("GPULAPACK_CUSOLVER_SYEVD_FUNCTION"), -1);
    config.cusolver_syevd_alg = alg <= 2 ? (int)alg : 0;
    config.cusolver_syevd_function = function < 1000000 ? (int)function : -1;
    config.dc_leaf = parse_count(getenv("GPULAPACK_DC_LEAF"), 0);
    const char *plan = getenv("GPULAPACK_PLAN");
    /* the values of context.h's gl_plan_tier */
    config.plan = !plan ? -1
                  : !strcasecmp(plan, "in-core")  ? 0
                  : !strcasecmp(plan, "streamed") ? 1
                  : !strcasecmp(plan, "lean")     ? 2
                  : !strcasecmp(plan, "streamed-values") ? GL_PLAN_STREAMED_VALUES
                                                  : -1;
    config.ooc_band = parse_count(getenv("GPULAPACK_OOC_BAND"), 0);
    config.ooc_tile = parse_count(getenv("GPULAPACK_OOC_TILE"), 0);
    config.ooc_chase_band = parse_count(getenv("GPULAPACK_OOC_CHASE_BAND"), 0);
    config.ooc_queues =
        parse_count(getenv("GPULAPACK_OOC_QUEUES"), 3) == 1 ? 1 : 3;
    config.ooc_segment = parse_count(getenv("GPULAPACK_OOC_SEGMENT"), 0);
    const char *method = getenv("GPULAPACK_METHOD");
    config.method = !method ? GL_METHOD_AUTO
                    : !strcasecmp(method, "two-stage") ? GL_METHOD_FORCE_TWO_STAGE
                    : !strcasecmp(method, "one-stage") ? GL_METHOD_FORCE_ONE_STAGE
                    : !strcasecmp(method, "vendor")    ? GL_METHOD_FORCE_VENDOR
                                                       : GL_METHOD_AUTO;
    config.profile = parse_count(getenv("GPULAPACK_PROFILE"), 0) != 0;
    const char *disable = getenv("GPULAPACK_DISABLE");
    config.disable = (disable && *disable) ? strdup(disable) : NULL;
    const char *lapack = getenv("GPULAPACK_LAPACK");
    config.lapack = (lapack && *lapack) ? strdup(lapack) : NULL;
    const char *lapack64 = getenv("GPULAPACK_LAPACK64");
    config.lapack64 = lapack64 ? strdup(lapack64) : NULL;
    const char *tune_file = getenv("GPULAPACK_TUNE_FILE");
    config.tune_file = (tune_file && *tune_file) ? strdup(tune_file) : NULL;
    config.device_valid =
        gl_parse_device(getenv("GPULAPACK_DEVICE"), &config.device);
    if (!config.device_valid)
        config.device = (gl_device_request){.backend = NULL,
                                            .index = -1, .platform = -1};
}

const gl_config *gl_config_get(void)
{
    pthread_once(&config_once, config_read);
    return &config;
}
