#include "config.h"
#include "backend.h"
#include "context.h"   /* gl_plan_tier: GPULAPACK_PLAN's words */
#include "settings.h"

#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>   /* INT32_MAX: GPULAPACK_LWORK_LIMIT */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>   /* STDERR_FILENO: GPULAPACK_LOG */

static gl_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

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

/* ---- the table -------------------------------------------------------- */

/* The device kind, gl_config's alone (settings.h has the others). */
static void gl_read_device(const gl_setting *s, const char *text, void *cfg)
{
    gl_config *c = cfg;
    gl_device_request *request = (void *)((char *)cfg + s->offset);
    c->device_valid = gl_parse_device(text, request);
    if (!c->device_valid)
        *request = (gl_device_request){.backend = NULL, .index = -1,
                                       .platform = -1};
}

/* The rows libgpulapack.so reads: GL_SETTING and GL_SETTING_ALSO_SCALAPACK
 * (settings.def). */
#define GL_SETTING_ELSEWHERE(...)
#define GL_SETTING_SCALAPACK(...)
#define GL_SETTING_ALSO_SCALAPACK GL_SETTING
#define GL_SETTING(NAME, KIND, TYPE, FIELD, ...)                              \
    GL_SETTING_FITS(gl_config, NAME, KIND, TYPE, FIELD)
#include "settings.def"
#undef GL_SETTING

#define GL_SETTING(...) GL_SETTING_ENTRY(gl_config, __VA_ARGS__)
static const gl_setting settings[] = {
#include "settings.def"
};
#undef GL_SETTING
#undef GL_SETTING_ALSO_SCALAPACK
#undef GL_SETTING_SCALAPACK
#undef GL_SETTING_ELSEWHERE

static void config_read(void)
{
    gl_settings_read(settings, sizeof settings / sizeof *settings, &config);
}

const gl_config *gl_config_get(void)
{
    pthread_once(&config_once, config_read);
    return &config;
}
