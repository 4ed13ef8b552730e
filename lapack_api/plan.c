/* The device memory a call needs (entry.h gl_plan_need): its pipeline's
 * own plan, made with the tuning of the device considered. */
#include "entry.h"

#include "../runtime/context.h"
#include "../runtime/gpu.h"

gl_device_need gl_plan_need(const gl_request *request,
                            const struct gl_gpu_device_info *info,
                            int method, int tier)
{
    gl_tuning tuning;
    gl_tune_snapshot(info, &tuning);
    size_t largest = 0;
    size_t bytes = request->device_bytes(request->args, &tuning, method,
                                         tier, &largest);
    if (bytes == SIZE_MAX)
        return (gl_device_need){-1, -1};
    return (gl_device_need){
        bytes < (size_t)INT64_MAX ? (int64_t)bytes : INT64_MAX,
        largest < (size_t)INT64_MAX ? (int64_t)largest : INT64_MAX};
}
