#include "config.h"
#include "backend.h"
#include "context.h"   /* gl_plan_tier: GPULAPACK_PLAN's words */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
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

/* ---- the readers of runtime/settings.def's kinds ---------------------- */

/* The C types a setting's field may have, as bits: a kind lists those it
 * can fill, and a row whose field it cannot fill does not compile. */
enum {
    GL_FIELD_INT = 1, GL_FIELD_LONG = 2, GL_FIELD_LONG_LONG = 4,
    GL_FIELD_DOUBLE = 8, GL_FIELD_TEXT = 16, GL_FIELD_DEVICE = 32,
    GL_FIELD_INTEGER = GL_FIELD_INT | GL_FIELD_LONG | GL_FIELD_LONG_LONG,
};
#define GL_FIELD_TYPE(field)                                                  \
    _Generic(((gl_config *)0)->field, int: GL_FIELD_INT,                      \
             long: GL_FIELD_LONG, long long: GL_FIELD_LONG_LONG,              \
             double: GL_FIELD_DOUBLE, const char *: GL_FIELD_TEXT,            \
             gl_device_request: GL_FIELD_DEVICE, default: 0)

typedef struct gl_word {
    const char *word;
    int value;
} gl_word;

typedef struct gl_setting gl_setting;
struct gl_setting {
    const char *name;               /* "GPULAPACK_MIN_N" */
    void (*read)(const gl_setting *setting, const char *text, gl_config *cfg);
    size_t offset;                  /* of its field in gl_config */
    int type;                       /* GL_FIELD_* of that field */
    long fallback;                  /* unset or not valid (numeric kinds, log_file) */
    long low, high;                 /* count_in: the values taken; level: the top */
    const gl_word *words;           /* words, words_anycase: ends at a NULL word */
};

static void *field_of(const gl_setting *s, gl_config *cfg)
{
    return (char *)cfg + s->offset;
}

/* A whole number into an integer field, converted as an assignment to
 * that field converts it. */
static void store(const gl_setting *s, gl_config *cfg, long value)
{
    void *field = field_of(s, cfg);
    if (s->type == GL_FIELD_INT)
        *(int *)field = (int)value;
    else if (s->type == GL_FIELD_LONG)
        *(long *)field = value;
    else if (s->type == GL_FIELD_LONG_LONG)
        *(long long *)field = value;
}

static void read_count(const gl_setting *s, const char *text, gl_config *cfg)
{
    store(s, cfg, parse_count(text, s->fallback));
}

static void read_count_in(const gl_setting *s, const char *text, gl_config *cfg)
{
    long value = parse_count(text, s->fallback);
    store(s, cfg, value >= s->low && value <= s->high ? value : s->fallback);
}

static void read_level(const gl_setting *s, const char *text, gl_config *cfg)
{
    long value = parse_count(text, s->fallback);
    store(s, cfg, value > s->high ? s->high : value);
}

static void read_flag(const gl_setting *s, const char *text, gl_config *cfg)
{
    store(s, cfg, parse_count(text, s->fallback) != 0);
}

static void read_amount(const gl_setting *s, const char *text, gl_config *cfg)
{
    *(double *)field_of(s, cfg) = parse_amount(text, (double)s->fallback);
}

static void read_any_words(const gl_setting *s, const char *text,
                           gl_config *cfg, int (*compare)(const char *, const char *))
{
    long value = s->fallback;
    for (const gl_word *w = s->words; text && w && w->word; w++)
        if (compare(text, w->word) == 0) {
            value = w->value;
            break;
        }
    store(s, cfg, value);
}

static void read_words(const gl_setting *s, const char *text, gl_config *cfg)
{
    read_any_words(s, text, cfg, strcmp);
}

static void read_words_anycase(const gl_setting *s, const char *text, gl_config *cfg)
{
    read_any_words(s, text, cfg, strcasecmp);
}

/* Copied: the environment may change after it is read. */
static void read_text(const gl_setting *s, const char *text, gl_config *cfg)
{
    *(const char **)field_of(s, cfg) = text && *text ? strdup(text) : NULL;
}

static void read_any_text(const gl_setting *s, const char *text, gl_config *cfg)
{
    *(const char **)field_of(s, cfg) = text ? strdup(text) : NULL;
}

static void read_log_file(const gl_setting *s, const char *text, gl_config *cfg)
{
    int fd = -1;
    if (text && *text)
        fd = open(text, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    store(s, cfg, fd >= 0 ? fd : s->fallback);
}

static void read_device(const gl_setting *s, const char *text, gl_config *cfg)
{
    gl_device_request *request = field_of(s, cfg);
    cfg->device_valid = gl_parse_device(text, request);
    if (!cfg->device_valid)
        *request = (gl_device_request){.backend = NULL, .index = -1,
                                       .platform = -1};
}

/* The field types each kind can fill (gl_fits_<kind>), for the check
 * below. */
enum {
    gl_fits_count = GL_FIELD_INTEGER, gl_fits_count_in = GL_FIELD_INTEGER,
    gl_fits_level = GL_FIELD_INTEGER, gl_fits_flag = GL_FIELD_INTEGER,
    gl_fits_words = GL_FIELD_INT, gl_fits_words_anycase = GL_FIELD_INT,
    gl_fits_log_file = GL_FIELD_INT, gl_fits_amount = GL_FIELD_DOUBLE,
    gl_fits_text = GL_FIELD_TEXT, gl_fits_any_text = GL_FIELD_TEXT,
    gl_fits_device = GL_FIELD_DEVICE,
};

/* ---- the table -------------------------------------------------------- */

#define GL_SETTING_ELSEWHERE(...)
#define GL_SETTING(name, kind, type, field, ...)                              \
    _Static_assert(GL_FIELD_TYPE(field) & gl_fits_##kind,                     \
                   "GPULAPACK_" #name ": kind " #kind " cannot fill a field " \
                   "of type " #type);
#include "settings.def"
#undef GL_SETTING

#define GL_UNWRAP(...) __VA_ARGS__
#define GL_WORDS(...) ((const gl_word[]){__VA_ARGS__, {NULL, 0}})
#define GL_SETTING(NAME, KIND, TYPE, FIELD, FALLBACK, EXTRAS, ...)            \
    {.name = "GPULAPACK_" #NAME, .read = read_##KIND,                         \
     .offset = offsetof(gl_config, FIELD), .type = GL_FIELD_TYPE(FIELD),      \
     .fallback = FALLBACK, GL_UNWRAP EXTRAS},
static const gl_setting settings[] = {
#include "settings.def"
};
#undef GL_SETTING
#undef GL_SETTING_ELSEWHERE

static void config_read(void)
{
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++)
        settings[i].read(&settings[i], getenv(settings[i].name), &config);
}

const gl_config *gl_config_get(void)
{
    pthread_once(&config_once, config_read);
    return &config;
}
