/* The readers of runtime/settings.def's kinds (settings.h): libgpulapack.so
 * reads its settings with them (runtime/config.c), and so does the
 * ScaLAPACK interposer, which links this file (scalapack/common.c). */
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static void *field_of(const gl_setting *s, void *cfg)
{
    return (char *)cfg + s->offset;
}

/* A whole number into an integer field, converted as an assignment to
 * that field converts it. */
static void store(const gl_setting *s, void *cfg, long value)
{
    void *field = field_of(s, cfg);
    if (s->type == GL_FIELD_INT)
        *(int *)field = (int)value;
    else if (s->type == GL_FIELD_LONG)
        *(long *)field = value;
    else if (s->type == GL_FIELD_LONG_LONG)
        *(long long *)field = value;
}

void gl_read_count(const gl_setting *s, const char *text, void *cfg)
{
    store(s, cfg, parse_count(text, s->fallback));
}

void gl_read_count_in(const gl_setting *s, const char *text, void *cfg)
{
    long value = parse_count(text, s->fallback);
    store(s, cfg, value >= s->low && value <= s->high ? value : s->fallback);
}

void gl_read_level(const gl_setting *s, const char *text, void *cfg)
{
    long value = parse_count(text, s->fallback);
    store(s, cfg, value > s->high ? s->high : value);
}

void gl_read_flag(const gl_setting *s, const char *text, void *cfg)
{
    store(s, cfg, parse_count(text, s->fallback) != 0);
}

void gl_read_amount(const gl_setting *s, const char *text, void *cfg)
{
    *(double *)field_of(s, cfg) = parse_amount(text, (double)s->fallback);
}

static void read_any_words(const gl_setting *s, const char *text, void *cfg,
                           int (*compare)(const char *, const char *))
{
    long value = s->fallback;
    for (const gl_word *w = s->words; text && w && w->word; w++)
        if (compare(text, w->word) == 0) {
            value = w->value;
            break;
        }
    store(s, cfg, value);
}

void gl_read_words(const gl_setting *s, const char *text, void *cfg)
{
    read_any_words(s, text, cfg, strcmp);
}

void gl_read_words_anycase(const gl_setting *s, const char *text, void *cfg)
{
    read_any_words(s, text, cfg, strcasecmp);
}

/* Copied: the environment may change after it is read. */
void gl_read_text(const gl_setting *s, const char *text, void *cfg)
{
    *(const char **)field_of(s, cfg) = text && *text ? strdup(text) : NULL;
}

void gl_read_any_text(const gl_setting *s, const char *text, void *cfg)
{
    *(const char **)field_of(s, cfg) = text ? strdup(text) : NULL;
}

void gl_read_log_file(const gl_setting *s, const char *text, void *cfg)
{
    int fd = -1;
    if (text && *text)
        fd = open(text, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    store(s, cfg, fd >= 0 ? fd : s->fallback);
}

void gl_settings_read(const gl_setting *table, size_t n, void *cfg)
{
    for (size_t i = 0; i < n; i++)
        table[i].read(&table[i], getenv(table[i].name), cfg);
}
