/* Diagnostics: nothing is ever printed unless GPULAPACK_VERBOSE asks. */
#ifndef GL_LOG_H
#define GL_LOG_H

/* Writes "gpulapack: <message>\n" to the log when GPULAPACK_VERBOSE >= level,
 * as one write() so that lines from concurrent threads do not interleave. */
void gl_log(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Monotonic wall-clock time in seconds. */
double gl_now(void);

#endif
