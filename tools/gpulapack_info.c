/* gpulapack-info: what the library sees on this machine, and which device
 * accelerated calls would use.
 *
 * gpulapack-info ROUTINE JOBS N [M [COUNT]]: what one call would do now
 * (gpulapack_plan_call), e.g. "gpulapack-info dsyevd V 60000" or
 * "gpulapack-info dgesdd S 40000 80000" (N columns, M rows); exit status
 * 0, or 2 for a routine or jobs the library does not know. */
#include <stdio.h>
#include <stdlib.h>

#include "gpulapack.h"

/* One call's decision, as the log would give it. */
static int plan_call(int argc, char **argv)
{
    long long n = atoll(argv[3]), m = argc > 4 ? atoll(argv[4]) : n;
    long long count = argc > 5 ? atoll(argv[5]) : 0;
    gpulapack_call_plan plan;
    if (!gpulapack_plan_call(argv[1], argv[2], m, n, count, &plan)) {
        fprintf(stderr, "gpulapack-info: %s with jobs %s is not a call the "
                        "library knows\n", argv[1], argv[2]);
        return 2;
    }
    printf("%s %s %lldx%lld path=%s", argv[1], argv[2], m, n, plan.path);
    if (plan.plan[0])
        printf(" plan=%s device_bytes=%lld devices=%d", plan.plan,
               plan.device_bytes, plan.devices);
    if (plan.reason[0])
        printf(" reason=%s", plan.reason);
    /* the rule of docs/large.md an LP64 caller's workspace falls under */
    printf(" lwork=%s lwork_min=%lld", plan.lwork_rule, plan.lwork_min);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && argc <= 6)
        return plan_call(argc, argv);
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
