/* A stand-in for ROCm's libamdhip64.so.5 as found beside NVIDIA's driver on
 * the H200 machine (docs/architecture.md, "Build"): its initializer
 * registers the options of an LLVM that outlives dlclose (mock_llvm.c),
 * so a second initialization in the process (dlopen, dlclose, dlopen; or
 * hipInit twice) aborts the
 * process.  No device: hipInit says so, and the
 * other entry points the library's HIP runtime resolves are missing (its
 * discovery fails, which must be a quiet fallback).  MOCK_HIP_TRACE names a
 * file that gets one line per initialization, so a test can count them.  No
 * HIP header: the stand-in is built whether or not the HIP backend is. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

void mock_llvm_register_options(void);

static void trace(const char *line, size_t len)
{
    const char *name = getenv("MOCK_HIP_TRACE");
    if (!name)
        return;
    int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    ssize_t ignored = write(fd, line, len);
    (void)ignored;
    close(fd);
}

__attribute__((constructor)) static void load(void)
{
    trace("load\n", 5);
    mock_llvm_register_options();
}

static int inits;

EXPORT int hipInit(unsigned flags)
{
    (void)flags;
    trace("hipInit\n", 8);
    if (__atomic_fetch_add(&inits, 1, __ATOMIC_SEQ_CST) > 0)
        abort();
    return 100;   /* hipErrorNoDevice */
}
EXPORT int hipDriverGetVersion(int *v) { *v = 50221153; return 0; }
EXPORT int hipGetDeviceCount(int *n) { *n = 0; return 100; }
