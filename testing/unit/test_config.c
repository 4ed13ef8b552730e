/* Unit test: GPULAPACK_* parsing and the policy's order of precedence
 * (args > query > disabled > size > option > device), as docs/env.md
 * states them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "device.h"
#include "entry.h"

static int failed;

#define CHECK(name, cond)                                                     \
    do {                                                                      \
        if (cond)                                                             \
            printf("PASS unit/config/%s\n", name);                            \
        else {                                                                \
            printf("FAIL unit/config/%s: %s\n", name, #cond);                 \
            failed++;                                                         \
        }                                                                     \
    } while (0)

/* backend: the name of the backend text names, NULL for auto */
static int device_is(const char *text, const char *backend, int platform,
                     int index)
{
    gl_device_request r;
    return gl_parse_device(text, &r) &&
           r.backend == (backend ? gl_backend_named(backend) : NULL) &&
           r.platform == platform && r.index == index;
}

static int device_invalid(const char *text)
{
    gl_device_request r;
    return !gl_parse_device(text, &r);
}

int main(void)
{
    /* The configuration is read once, on first use: set it first. */
    setenv("GPULAPACK_MIN_N", "100", 1);
    setenv("GPULAPACK_DISABLE", "zheevd, DGESDD_ ,gesvd", 1);
    setenv("GPULAPACK_DEVICE", "cuda:1", 1);
    setenv("GPULAPACK_VERBOSE", "7", 1);
    setenv("GPULAPACK_DEVICE_MEMORY_MB", "1.5", 1);
    unsetenv("GPULAPACK_LOG");
    /* one of each kind of runtime/settings.def, valid or not, whose value
     * the checks below do not depend on */
    setenv("GPULAPACK_HOST_VALUES", "LAPACK", 1);   /* words: exact case */
    setenv("GPULAPACK_HOST_CHASE", "sweeps", 1);
    setenv("GPULAPACK_BAND", "12x", 1);
    setenv("GPULAPACK_GROUP", " 8 ", 1);
    setenv("GPULAPACK_LWORK_LIMIT", "0", 1);
    setenv("GPULAPACK_OOC_QUEUES", "2", 1);
    setenv("GPULAPACK_CUSOLVER_SYEVD_ALG", "3", 1);
    setenv("GPULAPACK_CUSOLVER_SYEVD_FUNCTION", "7", 1);
    setenv("GPULAPACK_HUGEPAGES", "5", 1);
    setenv("GPULAPACK_LAPACK64", "", 1);
    setenv("GPULAPACK_TUNE_FILE", "", 1);
    const gl_config *config = gl_config_get();

    CHECK("device-default", device_is(NULL, NULL, -1, -1));
    CHECK("device-auto", device_is("auto", NULL, -1, -1));
    CHECK("device-host-case", device_is("HOST", "host", -1, -1));
    CHECK("device-cuda-index", device_is("cuda:3", "cuda", -1, 3));
    CHECK("device-hip", device_is("hip", "hip", -1, -1));
    CHECK("device-opencl-p.d", device_is("opencl:1.2", "opencl", 1, 2));
    CHECK("device-opencl-p", device_is("opencl:0", "opencl", 0, -1));
    CHECK("device-invalid-name", device_invalid("gpu"));
    CHECK("device-invalid-index", device_invalid("cuda:x"));
    CHECK("device-invalid-suffix", device_invalid("cudax"));
    CHECK("device-invalid-host-index", device_invalid("host:1"));
    CHECK("device-invalid-dot", device_invalid("opencl:1."));
    /* sets of devices for one call */
    gl_device_request set;
    CHECK("device-set-cuda",
          gl_parse_device("cuda:2,0", &set) && set.count == 2 &&
              set.index == 2 && set.indices[1] == 0 && !set.all);
    CHECK("device-set-opencl",
          gl_parse_device("opencl:0.1,0.0", &set) && set.count == 2 &&
              set.platform == 0 && set.index == 1 &&
              set.platforms[1] == 0 && set.indices[1] == 0);
    CHECK("device-set-all", gl_parse_device("CUDA:all", &set) && set.all &&
                                set.index == -1 && set.count == 0);
    CHECK("device-set-invalid-empty", device_invalid("cuda:0,"));
    CHECK("device-set-invalid-lead", device_invalid("cuda:,1"));
    CHECK("device-set-invalid-auto", device_invalid("auto:all"));
    CHECK("device-env", config->device_valid &&
                            config->device.backend == gl_backend_named("cuda") &&
                            config->device.index == 1);

    CHECK("verbose-clamped", config->verbose == 3);
    CHECK("words-exact-case", config->host_values == GL_VALUES_TUNED &&
                                  config->host_chase == GL_HOST_CHASE_SWEEPS);
    CHECK("count-malformed-or-blank",
          config->band == 0 && config->group == 8);
    CHECK("count-out-of-range",
          config->lwork_limit == INT32_MAX && config->ooc_queues == 3 &&
              config->cusolver_syevd_alg == 0 &&
              config->cusolver_syevd_function == 7);
    CHECK("flag", config->hugepages == 1);
    CHECK("text-empty", config->lapack64 && !*config->lapack64 &&
                            !config->tune_file);
    CHECK("min-n", config->min_n == 100);
    CHECK("disable-exact", gl_config_disabled(config, "zheevd"));
    CHECK("disable-underscore-case", gl_config_disabled(config, "dgesdd"));
    CHECK("disable-all-precisions", gl_config_disabled(config, "cgesvd") &&
                                        gl_config_disabled(config, "sgesvd"));
    CHECK("disable-not-prefix", !gl_config_disabled(config, "zheevd_2stage") &&
                                    !gl_config_disabled(config, "sgesdd") &&
                                    !gl_config_disabled(config, "zheev"));
    gl_config all = *config;
    all.disable = "all";
    CHECK("disable-all", gl_config_disabled(&all, "ssbevd"));

    gl_routine gesdd = GL_ROUTINE_INIT("dgesdd"), syevd = GL_ROUTINE_INIT("dsyevd");
    gl_request r = {.routine = &syevd,
                    .name = {&gl_families[GL_FAMILY_SYEVD], 'd', 0},
                    .size = 1000, .supported = 1};
    gl_decision d = gl_policy(&r);
    CHECK("policy-device-unavailable",
          d.path == GL_PATH_LAPACK && d.reason == GL_REASON_DEVICE);
    r.supported = 0;
    CHECK("policy-option", gl_policy(&r).reason == GL_REASON_OPTION);
    r.size = 99;
    CHECK("policy-size-before-option", gl_policy(&r).reason == GL_REASON_SIZE);
    r.routine = &gesdd;
    r.name = (gl_call_name){&gl_families[GL_FAMILY_GESDD], 'd', 0};
    CHECK("policy-disabled-before-size",
          gl_policy(&r).reason == GL_REASON_DISABLED);
    r.query = 1;
    CHECK("policy-query-before-disabled",
          gl_policy(&r).reason == GL_REASON_QUERY);
    r.arg_info = -3;
    CHECK("policy-args-first", gl_policy(&r).reason == GL_REASON_ARGS);

    CHECK("device-memory-cap",
          gl_device_memory_cap() == (size_t)3 << 19);

    gl_device_request host = {.backend = gl_backend_named("host"),
                              .index = -1, .platform = -1};
    gl_device_request cuda = {.backend = gl_backend_named("cuda"),
                              .index = -1, .platform = -1};
    CHECK("device-path-host", gl_device_path(&host, 1, NULL) == GL_PATH_HOST);
    CHECK("device-path-cuda-absent",
          gl_device_path(&cuda, 1, NULL) == GL_PATH_LAPACK);
    /* a problem no device holds fits no device's room (the cap above) */
    gl_device_request opencl = {.backend = gl_backend_named("opencl"),
                                .index = -1, .platform = -1};
    gl_path path = gl_device_path(&opencl, 1, NULL);
    gl_room room = gl_device_room(path);
    CHECK("device-room-too-big",
          path == GL_PATH_LAPACK ||
              (!gl_room_fits(&room, INT64_MAX / 4, 1000) &&
               gl_room_fits(&room, 1000, 1000)));
    return 0;
}
