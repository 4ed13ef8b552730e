#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

void gl_log(int level, const char *fmt, ...)
{
    const gl_config *config = gl_config_get();
    if (config->verbose < level)
        return;

    char line[1024];
    int len = snprintf(line, sizeof line, "gpulapack: ");
    va_list args;
    va_start(args, fmt);
    int body = vsnprintf(line + len, sizeof line - (size_t)len, fmt, args);
    va_end(args);
    len = (body < 0) ? len : len + body;
    if (len > (int)sizeof line - 2)
        len = (int)sizeof line - 2;
    line[len++] = '\n';

    for (const char *p = line; len > 0;) {
        ssize_t written = write(config->log_fd, p, (size_t)len);
        if (written <= 0)
            break;
        p += written;
        len -= (int)written;
    }
}

double gl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
