#include "fault.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static long remaining[GL_FAULT_KINDS];   /* events until the failure; 0: none armed */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

void gl_fault_arm(gl_fault_kind kind, long n)
{
    __atomic_store_n(&remaining[kind], n > 0 ? n : 0, __ATOMIC_SEQ_CST);
}

long gl_fault_remaining(gl_fault_kind kind)
{
    return __atomic_load_n(&remaining[kind], __ATOMIC_SEQ_CST);
}

static void read_env(void)
{
    static const char *const names[GL_FAULT_KINDS] = {
        "alloc:", "launch:", "copy:", "wait:", "secular:"};
    const char *spec = getenv("GPULAPACK_FAULT");
    for (int k = 0; spec && k < GL_FAULT_KINDS; k++)
        if (strncmp(spec, names[k], strlen(names[k])) == 0)
            gl_fault_arm((gl_fault_kind)k,
                         strtol(spec + strlen(names[k]), NULL, 10));
}

int gl_fault_hit(gl_fault_kind kind)
{
    pthread_once(&env_once, read_env);
    long left = __atomic_load_n(&remaining[kind], __ATOMIC_SEQ_CST);
    while (left > 0) {
        if (__atomic_compare_exchange_n(&remaining[kind], &left, left - 1, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            return left == 1;
    }
    return 0;
}
