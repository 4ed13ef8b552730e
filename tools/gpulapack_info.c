/* gpulapack-info: what the library sees on this machine. */
#include <stdio.h>
#include <stdlib.h>

#include "gpulapack.h"

int main(void)
{
    const char *lapack = gpulapack_lapack_library();
    const char *device = getenv("GPULAPACK_DEVICE");

    printf("gpulapack %s\n", gpulapack_version());
    printf("real LAPACK:       %s\n", lapack ? lapack : "not found");
    printf("backends compiled: %s\n", gpulapack_backends());
    printf("GPULAPACK_DEVICE:  %s\n", device && *device ? device : "auto");
    int count = gpulapack_device_count();
    if (count == 0)
        printf("devices:           none (no GPU backend compiled in); "
               "accelerated calls would use the host backend\n");
    else
        printf("devices:           %d\n", count);
    return lapack ? 0 : 1;
}
