/* gpulapack-info: what the library sees on this machine, and which device
 * accelerated calls would use. */
#include <stdio.h>
#include <stdlib.h>

#include "gpulapack.h"

int main(void)
{
    const char *lapack = gpulapack_lapack_library();
    const char *device = getenv("GPULAPACK_DEVICE");
    const char *runtimes = gpulapack_gpu_runtimes();

    printf("gpulapack %s\n", gpulapack_version());
    printf("real LAPACK:       %s\n", lapack ? lapack : "not found");
    printf("backends compiled: %s\n", gpulapack_backends());
    printf("GPU runtimes:      %s\n", runtimes && *runtimes ? runtimes : "none found");
    printf("GPULAPACK_DEVICE:  %s\n", device && *device ? device : "auto");
    int count = gpulapack_device_count();
    printf("devices:           %d\n", count);
    for (int i = 0; i < count; i++) {
        gpulapack_device d;
        if (!gpulapack_device_info(i, &d))
            continue;
        printf("  %s%s  %s (%s, %s)\n", d.id, d.chosen ? " [chosen]" : "",
               d.name, d.platform, d.version);
        printf("      type %s, %.1f GiB, %u compute units at %u MHz, "
               "fp64 %s\n", d.gpu ? "GPU" : "CPU/other",
               d.memory / 1073741824.0, d.compute_units, d.clock_mhz,
               d.fp64 ? "yes" : "no");
    }
    const char *solver = gpulapack_vendor_solver();
    printf("vendor solver:     %s\n", *solver ? solver : "none");
    printf("crossover table:   %s\n", gpulapack_tune_table());
    printf("accelerated calls: path=%s%s\n", gpulapack_path(),
           !device || !*device
               ? " (automatic choice: a GPU from its crossover size, the "
                 "host path from the host's, LAPACK below both; "
                 "GPULAPACK_VERBOSE=1 logs each call's reason)"
               : "");
    return lapack ? 0 : 1;
}
