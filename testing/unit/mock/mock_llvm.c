/* A stand-in for the LLVM that ROCm's HIP runtime loads (libLLVM-17 under
 * libamd_comgr): it stays loaded once loaded (-z nodelete here; LLVM's
 * unique symbols do the same to the real one), and registering its
 * command-line options a second time in a process aborts it, as LLVM does
 * ("inconsistency in registered CommandLine options").  Used by
 * mock_hip_abort.c. */
#include <stdlib.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static int registered;

EXPORT void mock_llvm_register_options(void)
{
    if (__atomic_fetch_add(&registered, 1, __ATOMIC_SEQ_CST) > 0) {
        static const char msg[] =
            "LLVM ERROR: inconsistency in registered CommandLine options\n";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        (void)ignored;
        abort();
    }
}
