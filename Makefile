# gpulapack build.  `make` builds lib/libgpulapack.{so,a} and bin/gpulapack-info;
# `make demo` runs the example; `make check` installs the test dependencies
# (apt-get, when root) and runs every test.

.DEFAULT_GOAL := all

make.inc:
	cp make.inc.example make.inc
-include make.inc

CC          ?= gcc
CFLAGS      ?= -O2 -g
BACKENDS    ?= host $(if $(wildcard /usr/include/CL/cl.h),opencl)
LAPACK_LIBS ?= -llapack -lblas
LAPACKE_LIBS ?= -llapacke

# Library flags.  -fno-optimize-sibling-calls: a forwarding entry point must
# never tail-call into the real routine, which could then write the hidden
# string-length slots that length-less callers did not reserve (GCC bug 90329).
LIB_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -fPIC -fvisibility=hidden \
             -fno-optimize-sibling-calls -pthread \
             -DGL_BACKENDS='"$(strip $(BACKENDS))"' $(CFLAGS)
LIB_LDLIBS = -ldl -lm -pthread

# Output directories; `make sanitize` builds a second library with ASan and
# UBSan into build/asan/ by overriding them.
B      ?= build
LIBDIR ?= lib

# --- the one source list --------------------------------------------------
# Entry-point templates, each compiled once per precision (s d c z).
TEMPLATES  = gesvd gesdd syev syevd syevr syevx sytrd sytrd_2stage gbbrd \
             sbtrd sbev sbevd
PRECISIONS = s d c z
# Algorithm templates (kernels/), also compiled once per precision.
KERNELS    = ge2gb sy2sb gb2bd svd eig band_values lapack_fns \
             backtransform sytrd ops_for \
             ref/host_ops ref/chase
COMMON_SRC = lapack_api/argcheck.c lapack_api/entry.c lapack_api/forward.c \
             lapack_api/workspace.c \
             runtime/api.c runtime/config.c runtime/device.c runtime/fault.c \
             runtime/log.c runtime/timing.c runtime/tune.c
EMBED_OBJ  =

# OpenCL: the runtime (dlopen of libOpenCL.so.1; the Khronos headers give
# the types) and the kernel text of kernels/device/ behind the OpenCL shim,
# embedded into the library (#line markers keep build errors pointing at
# the right file) and built at run time.
DEVICE_SRC = kernels/device/common.h kernels/device/blas.h \
             kernels/device/panel.h kernels/device/chase.h
ifneq ($(filter opencl,$(BACKENDS)),)
LIB_CFLAGS += -DGL_WITH_OPENCL
OPENCL_UNIT_TEMPLATES = test_device_ops
OPENCL_UNIT_BIN = build/testing/test_fault
KERNELS    += opencl_ops
COMMON_SRC += runtime/opencl.c
EMBED_OBJ  += $(B)/runtime/embed_opencl.o
endif

TEMPLATE_OBJ = $(foreach t,$(TEMPLATES),$(foreach p,$(PRECISIONS),$(B)/lapack_api/$(t)_$(p).o)) \
               $(foreach t,$(KERNELS),$(foreach p,$(PRECISIONS),$(B)/kernels/$(t)_$(p).o))
COMMON_OBJ   = $(patsubst %.c,$(B)/%.o,$(COMMON_SRC))
LIB_OBJ      = $(TEMPLATE_OBJ) $(COMMON_OBJ) $(EMBED_OBJ)
HEADERS      = $(wildcard include/*.h lapack_api/*.h runtime/*.h kernels/*.h kernels/ref/*.h)

.PHONY: all library demo check deps sanitize tests clean bench
all: library bin/gpulapack-info
library: $(LIBDIR)/libgpulapack.so $(LIBDIR)/libgpulapack.a

$(B)/lapack_api/%_s.o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$(CC) $(LIB_CFLAGS) -DGL_PRECISION=1 -c $< -o $@
$(B)/lapack_api/%_d.o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$(CC) $(LIB_CFLAGS) -DGL_PRECISION=2 -c $< -o $@
$(B)/lapack_api/%_c.o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$(CC) $(LIB_CFLAGS) -DGL_PRECISION=3 -c $< -o $@
$(B)/lapack_api/%_z.o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$(CC) $(LIB_CFLAGS) -DGL_PRECISION=4 -c $< -o $@
# Kernels: -O3 for the chase loops; complex products and quotients as
# Fortran computes them (no C99 Inf/NaN recovery call per multiply).
KERNEL_CFLAGS = -O3 -fcx-fortran-rules
$(B)/kernels/%_s.o: kernels/%.c $(HEADERS) | $(B)/kernels/ref
	$(CC) $(LIB_CFLAGS) $(KERNEL_CFLAGS) -DGL_PRECISION=1 -c $< -o $@
$(B)/kernels/%_d.o: kernels/%.c $(HEADERS) | $(B)/kernels/ref
	$(CC) $(LIB_CFLAGS) $(KERNEL_CFLAGS) -DGL_PRECISION=2 -c $< -o $@
$(B)/kernels/%_c.o: kernels/%.c $(HEADERS) | $(B)/kernels/ref
	$(CC) $(LIB_CFLAGS) $(KERNEL_CFLAGS) -DGL_PRECISION=3 -c $< -o $@
$(B)/kernels/%_z.o: kernels/%.c $(HEADERS) | $(B)/kernels/ref
	$(CC) $(LIB_CFLAGS) $(KERNEL_CFLAGS) -DGL_PRECISION=4 -c $< -o $@
$(B)/%.o: %.c $(HEADERS) | $(B)/lapack_api $(B)/runtime
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(B)/lapack_api $(B)/runtime $(B)/kernels/ref build/testing $(LIBDIR) bin:
	mkdir -p $@

$(B)/opencl_source.cl: kernels/shim/opencl.h $(DEVICE_SRC) | $(B)/runtime
	{ for f in $^; do printf '#line 1 "%s"\n' $$f; cat $$f; done; \
	  printf '\0'; } > $@
$(B)/runtime/embed_opencl.o: runtime/embed_opencl.S $(B)/opencl_source.cl | $(B)/runtime
	$(CC) -c $< -o $@ -Wa,-I,$(B)

$(LIBDIR)/libgpulapack.so: $(LIB_OBJ) | $(LIBDIR)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libgpulapack.so -o $@ $(LIB_OBJ) $(LIB_LDLIBS)
$(LIBDIR)/libgpulapack.a: $(LIB_OBJ) | $(LIBDIR)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

# The library with AddressSanitizer and UBSan, for the sanitizer checks.
sanitize:
	$(MAKE) B=build/asan LIBDIR=build/asan/lib library \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"

bin/gpulapack-info: tools/gpulapack_info.c include/gpulapack.h lib/libgpulapack.so | bin
	$(CC) -std=c11 -Wall -Wextra $(CFLAGS) -Iinclude $< -o $@ \
	    -Llib -lgpulapack -Wl,-rpath,'$$ORIGIN/../lib'

# --- tests -----------------------------------------------------------------
TEST_CFLAGS = -std=gnu11 -O1 -g -Wall -Wextra -Werror -Itesting/own -Iinclude
TEST_LDLIBS = $(LAPACKE_LIBS) $(LAPACK_LIBS) -lpthread -ldl -lm -Wl,--export-dynamic-symbol=xerbla_
# Own tests: preloaded over the system LAPACK, except test_link_* which are
# linked before -llapack.  Unit tests link the static library's internals.
OWN_SRC   = $(wildcard testing/own/test_*.c)
OWN_BIN   = $(patsubst testing/own/%.c,build/testing/%,$(OWN_SRC))
UNIT_SRC  = $(wildcard testing/unit/test_*.c)
# Unit-test templates, compiled once per precision like the library's own
# sources: testing/unit/test_stages.c -> build/testing/test_stages_{s,d,c,z}.
UNIT_TEMPLATES = test_stages $(OPENCL_UNIT_TEMPLATES)
UNIT_BIN  = $(patsubst testing/unit/%.c,build/testing/%,\
                $(filter-out $(UNIT_TEMPLATES:%=testing/unit/%.c) \
                             testing/unit/test_device_ops.c testing/unit/test_fault.c,$(UNIT_SRC))) \
            $(foreach t,$(UNIT_TEMPLATES),$(foreach p,$(PRECISIONS),build/testing/$(t)_$(p))) \
            $(OPENCL_UNIT_BIN)
GL_PRECISION_s = 1
GL_PRECISION_d = 2
GL_PRECISION_c = 3
GL_PRECISION_z = 4

build/testing/test_link_%: testing/own/test_link_%.c $(wildcard testing/own/*.h) lib/libgpulapack.so | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib $(TEST_LDLIBS)
build/testing/test_%: testing/own/test_%.c $(wildcard testing/own/*.h) | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ $(TEST_LDLIBS)
build/testing/test_%: testing/unit/test_%.c lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/test_stages_%: testing/unit/test_stages.c $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/test_device_ops_%: testing/unit/test_device_ops.c $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)

build/demo: testing/demo/demo.c | build/testing
	$(CC) -std=gnu11 -O2 -Wall -Wextra $< -o $@ $(LAPACK_LIBS) -lm

tests: all sanitize $(OWN_BIN) $(UNIT_BIN) build/demo

deps:
	tools/install-deps.sh

check: deps
	$(MAKE) tests
	testing/run_checks.sh

demo: all build/demo
	GPULAPACK_VERBOSE=1 LD_PRELOAD=$(CURDIR)/lib/libgpulapack.so build/demo

# --- benchmark (not part of check) ----------------------------------------
# `make bench`: our host path against the system LAPACK, in one process on
# the same matrices; run_bench.sh picks OPENBLAS_CORETYPE for both sides.
# BENCH_SIZES, BENCH_CASES, BENCH_REPS: see docs/performance.md.
# --no-as-needed keeps the system LAPACK a real dependency after ours (the
# "linked before -llapack" setup) even where the compiler defaults to
# --as-needed.
BENCH_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Iinclude
build/bench:
	mkdir -p $@
build/bench/bench: testing/bench/bench.c include/gpulapack.h lib/libgpulapack.so | build/bench
	$(CC) $(BENCH_CFLAGS) $< -o $@ -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib \
	    -Wl,--push-state,--no-as-needed $(LAPACK_LIBS) -Wl,--pop-state -ldl -lm
bench: library build/bench/bench
	testing/bench/run_bench.sh

clean:
	rm -rf build lib bin
