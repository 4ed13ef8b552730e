/* The readers of runtime/settings.def's kinds (runtime/settings.c), for
 * the two structures its rows fill: gl_config, libgpulapack.so's
 * (runtime/config.c), and gls_config, the ScaLAPACK interposer's
 * (scalapack/common.c, which links runtime/settings.c into
 * libgpulapack_scalapack.so).  Each expands the rows it reads into a
 * table of gl_setting, then reads it with gl_settings_read. */
#ifndef GL_SETTINGS_H
#define GL_SETTINGS_H

#include <stddef.h>

/* The C types a setting's field may have, as bits: a kind lists those it
 * can fill (gl_fits_<kind>), and a row whose field it cannot fill does not
 * compile (GL_SETTING_FITS). */
enum {
    GL_FIELD_INT = 1, GL_FIELD_LONG = 2, GL_FIELD_LONG_LONG = 4,
    GL_FIELD_DOUBLE = 8, GL_FIELD_TEXT = 16, GL_FIELD_DEVICE = 32,
    GL_FIELD_INTEGER = GL_FIELD_INT | GL_FIELD_LONG | GL_FIELD_LONG_LONG,
};
enum {
    gl_fits_count = GL_FIELD_INTEGER, gl_fits_count_in = GL_FIELD_INTEGER,
    gl_fits_level = GL_FIELD_INTEGER, gl_fits_flag = GL_FIELD_INTEGER,
    gl_fits_words = GL_FIELD_INT, gl_fits_words_anycase = GL_FIELD_INT,
    gl_fits_log_file = GL_FIELD_INT, gl_fits_amount = GL_FIELD_DOUBLE,
    gl_fits_text = GL_FIELD_TEXT, gl_fits_any_text = GL_FIELD_TEXT,
    gl_fits_device = GL_FIELD_DEVICE,
};
/* The GL_FIELD_* of member `field` of structure type `config`; any other
 * type counts as the device request (gl_device_request, config.h), the
 * one structure a row fills, which only the device kind takes. */
#define GL_FIELD_TYPE(config, field)                                          \
    _Generic(((config *)0)->field, int: GL_FIELD_INT,                         \
             long: GL_FIELD_LONG, long long: GL_FIELD_LONG_LONG,              \
             double: GL_FIELD_DOUBLE, const char *: GL_FIELD_TEXT,            \
             default: GL_FIELD_DEVICE)
#define GL_SETTING_FITS(config, NAME, KIND, TYPE, FIELD)                      \
    _Static_assert(GL_FIELD_TYPE(config, FIELD) & gl_fits_##KIND,             \
                   "GPULAPACK_" #NAME ": kind " #KIND " cannot fill a field " \
                   "of type " #TYPE);

typedef struct gl_word {
    const char *word;
    int value;
} gl_word;

typedef struct gl_setting gl_setting;
struct gl_setting {
    const char *name;       /* "GPULAPACK_MIN_N" */
    void (*read)(const gl_setting *setting, const char *text, void *cfg);
    size_t offset;          /* of its field in the structure */
    int type;               /* GL_FIELD_* of that field */
    long fallback;          /* unset or not valid (numeric kinds, log_file) */
    long low, high;         /* count_in: the values taken; level: the top */
    const gl_word *words;   /* words, words_anycase: ends at a NULL word */
};

/* A row's entry of a table: GL_SETTING_ENTRY(config, the row's arguments)
 * with `config` its structure's type; the reader of kind K is gl_read_K
 * (device: config.c's own, which the interposer has no use for). */
#define GL_UNWRAP(...) __VA_ARGS__
#define GL_WORDS(...) ((const gl_word[]){__VA_ARGS__, {NULL, 0}})
#define GL_SETTING_ENTRY(config, NAME, KIND, TYPE, FIELD, FALLBACK, EXTRAS,  \
                         ...)                                                 \
    {.name = "GPULAPACK_" #NAME, .read = gl_read_##KIND,                      \
     .offset = offsetof(config, FIELD), .type = GL_FIELD_TYPE(config, FIELD), \
     .fallback = FALLBACK, GL_UNWRAP EXTRAS},

/* The kinds (runtime/settings.def describes each). */
void gl_read_count(const gl_setting *s, const char *text, void *cfg);
void gl_read_count_in(const gl_setting *s, const char *text, void *cfg);
void gl_read_level(const gl_setting *s, const char *text, void *cfg);
void gl_read_flag(const gl_setting *s, const char *text, void *cfg);
void gl_read_amount(const gl_setting *s, const char *text, void *cfg);
void gl_read_words(const gl_setting *s, const char *text, void *cfg);
void gl_read_words_anycase(const gl_setting *s, const char *text, void *cfg);
void gl_read_text(const gl_setting *s, const char *text, void *cfg);
void gl_read_any_text(const gl_setting *s, const char *text, void *cfg);
void gl_read_log_file(const gl_setting *s, const char *text, void *cfg);

/* Each of the n settings from the environment (getenv) into cfg. */
void gl_settings_read(const gl_setting *table, size_t n, void *cfg);

#endif
