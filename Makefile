# gpulapack build.  `make` builds lib/libgpulapack.{so,a}, bin/gpulapack-info and bin/gpulapack-tune;
# `make demo` installs a LAPACK when missing (apt-get, when root) and runs
# the example; `make install` / `make uninstall` (PREFIX, DESTDIR) after
# `make`; `make check` installs the missing test
# dependencies (apt-get, when root) and runs the tests, `make check-full`
# the complete set, `make check-unit`,
# `check-own`, `check-clients`, `check-suite`, `check-sanitize` one level
# of them (docs/testing.md); `make tags`, `make compile_commands.json` and
# `make perf-doc` for the sources and docs.

.DEFAULT_GOAL := all

# Parallel by default, one job per CPU; a -j on the command line wins, and
# a recursive make (sanitize, check) shares its parent's jobs.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j% --jobserver%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc)
endif
endif

make.inc:
	cp make.inc.example make.inc
-include make.inc

CC          ?= gcc
CFLAGS      ?= -O2 -g
CUDA_HOME   ?= /usr/local/cuda
NVCC        ?= $(or $(shell command -v nvcc),$(wildcard $(CUDA_HOME)/bin/nvcc))
HIPCC       ?= $(shell command -v hipcc)
BACKENDS    ?= host $(if $(wildcard /usr/include/CL/cl.h),opencl) \
               $(if $(and $(NVCC),$(wildcard $(CUDA_HOME)/include/cuda.h)),cuda) \
               $(if $(and $(HIPCC),$(wildcard /usr/include/hip/hip_runtime_api.h)),hip)
LAPACK_LIBS ?= -llapack -lblas
LAPACKE_LIBS ?= -llapacke
CUDA_LIBDIR ?= $(CUDA_HOME)/lib64
# the GPU benchmark (against cuSOLVER) where the CUDA toolkit has it
BENCH_GPU_BIN = $(if $(wildcard $(CUDA_HOME)/include/cusolverDn.h),build/bench/bench_gpu)

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
# Entry-point templates, each compiled once per precision (s d c z), and
# once more per precision with 64-bit INTEGERs (-DGL_ILP64=1: dgesdd_64_,
# scipy_dgesdd_64_; runtime/fortran.h's gl_int).
# (one per family of tools/routines.py's table, whose generated part is
# lapack_api/generated/<family>.inc)
TEMPLATES  = $(basename $(notdir $(wildcard lapack_api/generated/*.inc)))
PRECISIONS = s d c z
# -DGL_PRECISION of each (runtime/precision.h)
GL_PRECISION_s = 1
GL_PRECISION_d = 2
GL_PRECISION_c = 3
GL_PRECISION_z = 4
# Algorithm templates (kernels/), also compiled once per precision.
# By folder (kernels/README.md): the pipelines of the families, the stages
# they are made of, the tiers beyond one device's memory or over several
# devices, and the backends that fill the operation table.
KERNEL_DIRS = pipelines stages tiers backend backend/gpu backend/host
KERNELS    = pipelines/svd pipelines/svd_lean pipelines/svd_streamed pipelines/eig pipelines/eig_one_stage pipelines/eig_vendor \
             pipelines/eig_streamed pipelines/sytrd pipelines/band_values pipelines/call_plan pipelines/plans \
             stages/ge2gb stages/sy2sb stages/gb2bd stages/band_reduce stages/backtransform \
             stages/tridiag_q stages/tridiag_vectors \
             stages/dc_common stages/dc_secular stages/dc_svd stages/dc_svd_deflate stages/dc_tridiag \
             tiers/ge2gb_streamed tiers/sy2sb_streamed tiers/tile_pass tiers/peers tiers/stage1_peers \
             backend/ops_bind backend/lapack_fns \
             backend/gpu/gpu_ops backend/gpu/gpu_blas backend/gpu/gpu_panels backend/gpu/gpu_chase backend/gpu/gpu_stage3 \
             backend/host/host_ops backend/host/chase backend/host/tile_gemm backend/host/values backend/host/products \
             backend/host/update_product backend/host/ge_update_product
COMMON_SRC = lapack_api/argcheck.c lapack_api/entry.c lapack_api/plan.c \
             lapack_api/workspace.c \
             runtime/api.c runtime/backend.c runtime/config.c runtime/context.c runtime/real_lapack.c runtime/device.c runtime/fault.c \
             runtime/family.c \
             runtime/log.c runtime/memory.c runtime/parallel.c runtime/profile.c runtime/timing.c \
             runtime/tune.c runtime/tune_file.c runtime/tune_params.c
# the settings' readers (runtime/settings.h), which the ScaLAPACK
# interposer links too
COMMON_SRC += runtime/settings.c
# the backends' objects: their runtimes and embedded kernels
BACKEND_OBJ =

# OpenCL: the runtime (runtime/opencl/; dlopen of libOpenCL.so.1, the
# Khronos headers give the types) and the kernel text of kernels/device/
# behind the OpenCL shim, embedded into the library (#line markers keep
# build errors pointing at the right file) and built at run time.
DEVICE_SRC = kernels/device/common.h kernels/device/blas.h \
             kernels/device/panel.h kernels/device/chase.h \
             kernels/device/tridiag.h kernels/device/dc.h \
             kernels/device/wy.h
ifneq ($(filter opencl,$(BACKENDS)),)
LIB_CFLAGS += -DGL_WITH_OPENCL
OPENCL_UNIT_TEMPLATES = test_device_ops test_contexts
OPENCL_UNIT_BIN = build/testing/test_fault
BACKEND_OBJ += $(B)/runtime/opencl.o $(B)/runtime/embed_opencl.o
endif

# CUDA and HIP: one runtime (runtime/cudalike/, compiled once per API;
# dlopen of libcuda.so.1 / libamdhip64.so) and the kernels of
# kernels/device/ compiled here, per precision, into images embedded in
# the library: nvcc makes a fatbin with SASS for sm_80 (A100; sm_86/89 by
# compatibility) and sm_90 (H100/H200) and PTX for newer GPUs; hipcc
# (Debian's ROCm 5.2 clang) makes code objects for gfx90a (MI200) and
# gfx940 (its compiler stops there: no gfx942/MI300X).
CUDA_ARCH_FLAGS = -gencode arch=compute_80,code=sm_80 \
                  -gencode arch=compute_90,code=sm_90 \
                  -gencode arch=compute_90,code=compute_90
HIP_ARCH_FLAGS  = --offload-arch=gfx90a --offload-arch=gfx940
ifneq ($(filter cuda,$(BACKENDS)),)
LIB_CFLAGS += -DGL_WITH_CUDA
GPU_UNIT_BIN += build/testing/test_gpu_runtime_cuda build/testing/mock-cuda/libcuda.so.1 \
                $(foreach p,$(PRECISIONS),build/testing/test_vendor_solver_cuda_$(p)) \
                build/testing/mock-cusolver/libcusolver.so.12 \
                build/testing/mock-cusolver-decoy/libcusolver.so.12
BACKEND_OBJ += $(B)/runtime/cuda.o $(foreach p,$(PRECISIONS),$(B)/cuda/image_$(p).o)
endif
ifneq ($(filter hip,$(BACKENDS)),)
LIB_CFLAGS += -DGL_WITH_HIP
GPU_UNIT_BIN += build/testing/test_gpu_runtime_hip build/testing/mock-hip/libamdhip64.so.5 \
                $(foreach p,$(PRECISIONS),build/testing/test_vendor_solver_hip_$(p)) \
                build/testing/mock-rocsolver/librocsolver.so.0 \
                build/testing/mock-rocsolver-decoy/librocsolver.so.0
BACKEND_OBJ += $(B)/runtime/hip.o $(foreach p,$(PRECISIONS),$(B)/hip/image_$(p).o)
endif

TEMPLATE_OBJ = $(foreach t,$(TEMPLATES),$(foreach p,$(PRECISIONS),$(B)/lapack_api/$(t)_$(p).o $(B)/lapack_api/$(t)_$(p)64.o)) \
               $(foreach t,$(KERNELS),$(foreach p,$(PRECISIONS),$(B)/kernels/$(t)_$(p).o))
COMMON_OBJ   = $(patsubst %.c,$(B)/%.o,$(COMMON_SRC))
LIB_OBJ      = $(TEMPLATE_OBJ) $(COMMON_OBJ) $(BACKEND_OBJ)
HEADERS      = $(wildcard include/*.h lapack_api/*.h lapack_api/generated/*.inc runtime/*.h runtime/*.def \
                          runtime/*/*.h kernels/*.h $(KERNEL_DIRS:%=kernels/%/*.h))

.PHONY: all library demo demo-deps check deps sanitize tests clean bench perf-doc generate tags \
        compile_commands.json
all: library bin/gpulapack-info bin/gpulapack-tune
library: $(LIBDIR)/libgpulapack.so $(LIBDIR)/libgpulapack.a $(LIBDIR)/libgpulapack_scalapack.so

# Kernels: -O3 for the chase loops; complex products and quotients as
# Fortran computes them (no C99 Inf/NaN recovery call per multiply);
# multiply-adds fused where the target has FMA (gfortran's default too);
# "omp simd" loops vectorized (-fopenmp-simd: the pragma only, no OpenMP
# run time) where a kernel lets sums be reassociated.
KERNEL_CFLAGS = -O3 -fcx-fortran-rules -ffp-contract=fast -fopenmp-simd
# A template compiled for precision p (s, d, c, z) is <source>_p.o:
# $(B)/lapack_api/gesdd_d.o is lapack_api/gesdd.c with -DGL_PRECISION=2,
# $(B)/lapack_api/gesdd_d64.o the same with -DGL_ILP64=1.
define template_rules
$(B)/lapack_api/%_$(1).o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$$(CC) $$(LIB_CFLAGS) -DGL_PRECISION=$(GL_PRECISION_$(1)) -c $$< -o $$@
$(B)/lapack_api/%_$(1)64.o: lapack_api/%.c $(HEADERS) | $(B)/lapack_api
	$$(CC) $$(LIB_CFLAGS) -DGL_PRECISION=$(GL_PRECISION_$(1)) -DGL_ILP64=1 -c $$< -o $$@
$(B)/kernels/%_$(1).o: kernels/%.c $(HEADERS) | $(KERNEL_DIRS:%=$(B)/kernels/%)
	$$(CC) $$(LIB_CFLAGS) $$(KERNEL_CFLAGS) -DGL_PRECISION=$(GL_PRECISION_$(1)) -c $$< -o $$@
endef
$(foreach p,$(PRECISIONS),$(eval $(call template_rules,$(p))))
$(B)/%.o: %.c $(HEADERS) | $(B)/lapack_api $(B)/runtime
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(B)/lapack_api $(B)/runtime $(KERNEL_DIRS:%=$(B)/kernels/%) build/testing $(LIBDIR) bin:
	mkdir -p $@

$(B)/opencl_source.cl: kernels/shim/opencl.h $(DEVICE_SRC) | $(B)/runtime
	{ for f in $^; do printf '#line 1 "%s"\n' $$f; cat $$f; done; \
	  printf '\0'; } > $@
$(B)/runtime/embed_opencl.o: runtime/embed_opencl.S $(B)/opencl_source.cl | $(B)/runtime
	$(CC) -c $< -o $@ -Wa,-I,$(B)

$(B)/cuda $(B)/hip:
	mkdir -p $@
# the images stay (testing/unit/check_gpu_images.sh reads them)
.SECONDARY: $(foreach p,$(PRECISIONS),$(B)/cuda/kernels_$(p).fatbin $(B)/hip/kernels_$(p).co)

# A runtime's folder (runtime/opencl/; runtime/cudalike/ once per API) is
# linked into one object whose only global symbol is its gl_gpu table:
# the names its files share through the folder's header stay private to
# that object, as static ones would, and CUDA's and HIP's never meet.
OBJCOPY ?= objcopy
runtime_link = $(LD) -r -o $@.tmp $^ && $(OBJCOPY) --keep-global-symbol=$(1) $@.tmp $@ && rm -f $@.tmp
OPENCL_PARTS   = core queue copies clblast
CUDALIKE_PARTS = core queue copies lanes blas solver
CUDA_API_FLAGS = -DGL_API_CUDA -I$(CUDA_HOME)/include
HIP_API_FLAGS  = -DGL_API_HIP -D__HIP_PLATFORM_AMD__
$(B)/runtime/opencl $(B)/runtime/cuda $(B)/runtime/hip:
	mkdir -p $@
$(B)/runtime/opencl/%.o: runtime/opencl/%.c $(HEADERS) | $(B)/runtime/opencl
	$(CC) $(LIB_CFLAGS) -c $< -o $@
$(B)/runtime/cuda/%.o: runtime/cudalike/%.c $(HEADERS) | $(B)/runtime/cuda
	$(CC) $(LIB_CFLAGS) $(CUDA_API_FLAGS) -c $< -o $@
$(B)/runtime/hip/%.o: runtime/cudalike/%.c $(HEADERS) | $(B)/runtime/hip
	$(CC) $(LIB_CFLAGS) $(HIP_API_FLAGS) -c $< -o $@
$(B)/runtime/opencl.o: $(OPENCL_PARTS:%=$(B)/runtime/opencl/%.o)
	$(call runtime_link,gl_opencl_gpu)
$(B)/runtime/cuda.o: $(patsubst %,$(B)/runtime/cuda/%.o,$(CUDALIKE_PARTS) driver_cuda)
	$(call runtime_link,gl_cuda_gpu)
$(B)/runtime/hip.o: $(patsubst %,$(B)/runtime/hip/%.o,$(CUDALIKE_PARTS) driver_hip)
	$(call runtime_link,gl_hip_gpu)
$(B)/cuda/kernels_%.fatbin: kernels/device/kernels.cu kernels/shim/cuda.h $(DEVICE_SRC) | $(B)/cuda
	$(NVCC) -fatbin -O3 -I. -DPRECISION=$(GL_PRECISION_$*) $(CUDA_ARCH_FLAGS) \
	    -Werror all-warnings $< -o $@
$(B)/hip/kernels_%.co: kernels/device/kernels.cu kernels/shim/cuda.h $(DEVICE_SRC) | $(B)/hip
	$(HIPCC) --genco -O3 -I. -DPRECISION=$(GL_PRECISION_$*) $(HIP_ARCH_FLAGS) \
	    -Werror -x hip $< -o $@
$(B)/cuda/image_%.o: runtime/embed_blob.S $(B)/cuda/kernels_%.fatbin
	$(CC) -c $< -o $@ -DBLOB_NAME=gl_cuda_image_$* \
	    -DBLOB_FILE='"kernels_$*.fatbin"' -Wa,-I,$(B)/cuda
$(B)/hip/image_%.o: runtime/embed_blob.S $(B)/hip/kernels_%.co
	$(CC) -c $< -o $@ -DBLOB_NAME=gl_hip_image_$* \
	    -DBLOB_FILE='"kernels_$*.co"' -Wa,-I,$(B)/hip

$(LIBDIR)/libgpulapack.so: $(LIB_OBJ) | $(LIBDIR)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libgpulapack.so -o $@ $(LIB_OBJ) $(LIB_LDLIBS)
$(LIBDIR)/libgpulapack.a: $(LIB_OBJ) | $(LIBDIR)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

# The ScaLAPACK interposer (scalapack/, docs/scalapack.md): a library of
# its own, so that libgpulapack.so links only libc; it finds BLACS,
# ScaLAPACK and libgpulapack.so in the program at run time (dlsym), so it
# links nothing of MPI either.  scalapack/drivers.c and gesvd.c once per
# precision (-DGLS_PREC=0..3: s d c z); its settings are rows of
# runtime/settings.def, read by the library's readers (runtime/settings.c,
# the same object).
GLS_OBJ = $(B)/scalapack/common.o \
          $(foreach p,$(PRECISIONS),$(B)/scalapack/drivers_$(p).o $(B)/scalapack/gesvd_$(p).o) \
          $(B)/runtime/settings.o
GLS_PREC_s = 0
GLS_PREC_d = 1
GLS_PREC_c = 2
GLS_PREC_z = 3
$(B)/scalapack:
	mkdir -p $@
GLS_HEADERS = scalapack/gls.h scalapack/drivers.h runtime/settings.def runtime/settings.h
$(B)/scalapack/common.o: scalapack/common.c $(GLS_HEADERS) include/gpulapack.h | $(B)/scalapack
	$(CC) $(LIB_CFLAGS) -c $< -o $@
$(B)/scalapack/drivers_%.o: scalapack/drivers.c $(GLS_HEADERS) | $(B)/scalapack
	$(CC) $(LIB_CFLAGS) -DGLS_PREC=$(GLS_PREC_$*) -c $< -o $@
$(B)/scalapack/gesvd_%.o: scalapack/gesvd.c $(GLS_HEADERS) | $(B)/scalapack
	$(CC) $(LIB_CFLAGS) -DGLS_PREC=$(GLS_PREC_$*) -c $< -o $@
$(LIBDIR)/libgpulapack_scalapack.so: $(GLS_OBJ) | $(LIBDIR)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libgpulapack_scalapack.so -o $@ $(GLS_OBJ) -ldl -pthread

# The library with AddressSanitizer and UBSan, for the sanitizer checks.
sanitize:
	$(MAKE) B=build/asan LIBDIR=build/asan/lib library \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"

bin/gpulapack-info: tools/gpulapack_info.c include/gpulapack.h lib/libgpulapack.so | bin
	$(CC) -std=c11 -Wall -Wextra $(CFLAGS) -Iinclude $< -o $@ \
	    -Llib -lgpulapack -Wl,-rpath,'$$ORIGIN/../lib'

# gpulapack-tune sends each call down one path through the library's
# internals (gl_policy_force), so it links the static library and the
# system LAPACK it measures against.
bin/gpulapack-tune: tools/gpulapack_tune.c tools/tune_families.inc $(HEADERS) lib/libgpulapack.a | bin
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(CFLAGS) -Iinclude -Ilapack_api -Iruntime \
	    $< -o $@ lib/libgpulapack.a $(LAPACK_LIBS) -ldl -lm -pthread

# --- tests -----------------------------------------------------------------
TEST_CFLAGS = -std=gnu11 -O1 -g -Wall -Wextra -Werror -Itesting/own -Iinclude
TEST_LDLIBS = $(LAPACKE_LIBS) $(LAPACK_LIBS) -lpthread -ldl -lm -Wl,--export-dynamic-symbol=xerbla_
# Own tests: preloaded over the system LAPACK, except test_link_* which are
# linked before -llapack.  Unit tests link the static library's internals.
OWN_SRC   = $(wildcard testing/own/test_*.c)
OWN_BIN   = $(patsubst testing/own/%.c,build/testing/%,$(OWN_SRC))
OWN_LINK_BIN = $(filter build/testing/test_link_%,$(OWN_BIN))
UNIT_SRC  = $(wildcard testing/unit/test_*.c)
# Unit-test templates, compiled once per precision like the library's own
# sources: testing/unit/test_stages.c -> build/testing/test_stages_{s,d,c,z}.
# test_device_ops and test_contexts need an OpenCL device, test_fault the OpenCL backend,
# test_gpu_runtime one binary per GPU API (below).
UNIT_TEMPLATES = test_stages test_tile_gemm test_device_ops test_contexts
UNIT_PLAIN_BIN = $(patsubst testing/unit/%.c,build/testing/%,\
                     $(filter-out $(UNIT_TEMPLATES:%=testing/unit/%.c) \
                                  testing/unit/test_gpu_runtime.c \
                                  testing/unit/test_vendor_solver.c,$(UNIT_SRC)))
unit_template_bin = $(foreach p,$(PRECISIONS),build/testing/$(1)_$(p))
UNIT_BIN  = $(filter-out build/testing/test_fault,$(UNIT_PLAIN_BIN)) \
            $(foreach t,test_stages test_tile_gemm $(OPENCL_UNIT_TEMPLATES),$(call unit_template_bin,$(t))) \
            $(OPENCL_UNIT_BIN) $(GPU_UNIT_BIN)

# Each kind of test binary has its own rule, over exactly its targets.
$(OWN_LINK_BIN): build/testing/%: testing/own/%.c $(wildcard testing/own/*.h) lib/libgpulapack.so | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib $(TEST_LDLIBS)
$(filter-out $(OWN_LINK_BIN),$(OWN_BIN)): build/testing/%: testing/own/%.c $(wildcard testing/own/*.h) | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ $(TEST_LDLIBS)
$(UNIT_PLAIN_BIN): build/testing/%: testing/unit/%.c lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
$(call unit_template_bin,test_stages): build/testing/test_stages_%: testing/unit/test_stages.c $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -fopenmp-simd -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
# the kernel's source itself, to reach every instruction-set variant
$(call unit_template_bin,test_tile_gemm): build/testing/test_tile_gemm_%: testing/unit/test_tile_gemm.c $(HEADERS) kernels/backend/host/tile_gemm.c | build/testing
	$(CC) $(TEST_CFLAGS) -O2 -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ -lm
$(call unit_template_bin,test_device_ops): build/testing/test_device_ops_%: testing/unit/test_device_ops.c $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
$(call unit_template_bin,test_contexts): build/testing/test_contexts_%: testing/unit/test_contexts.c $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)

# the CUDA/HIP runtimes over stand-in drivers (no GPU on CI)
build/testing/test_gpu_runtime_cuda: testing/unit/test_gpu_runtime.c lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/test_gpu_runtime_hip: testing/unit/test_gpu_runtime.c lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -DGL_TEST_HIP $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/mock-cuda/libcuda.so.1: testing/unit/mock/mock_cuda.c testing/unit/mock/mock_core.h
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -I$(CUDA_HOME)/include $< -o $@
build/testing/mock-hip/libamdhip64.so.5: testing/unit/mock/mock_hip.c testing/unit/mock/mock_core.h
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -D__HIP_PLATFORM_AMD__ $< -o $@
# the vendor's eigensolver (kernels/pipelines/eig_vendor.c) over the stand-in drivers
# and stand-in solvers (cuSOLVER, rocSOLVER: mock_solver.c, in folders of
# their own so that a run can leave them out), per API and precision
build/testing/test_vendor_solver_cuda_%: testing/unit/test_vendor_solver.c testing/unit/mock/system_eig.h $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/test_vendor_solver_hip_%: testing/unit/test_vendor_solver.c testing/unit/mock/system_eig.h $(HEADERS) lib/libgpulapack.a | build/testing
	$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime -DGL_TEST_HIP -DGL_PRECISION=$(GL_PRECISION_$*) $< -o $@ lib/libgpulapack.a $(TEST_LDLIBS)
build/testing/mock-cusolver/libcusolver.so.12: testing/unit/mock/mock_solver.c testing/unit/mock/system_eig.h
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -I$(CUDA_HOME)/include $< -o $@ -ldl
build/testing/mock-rocsolver/librocsolver.so.0: testing/unit/mock/mock_solver.c testing/unit/mock/system_eig.h
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -DMOCK_ROCSOLVER $< -o $@ -ldl
build/testing/mock-cusolver-decoy/libcusolver.so.12 build/testing/mock-rocsolver-decoy/librocsolver.so.0: testing/unit/mock/mock_solver.c
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -DMOCK_DECOY $< -o $@

# The stand-ins that compute (testing/standin/, docs/testing.md): the CUDA
# driver with cuBLAS (libcublas.so.12 is the same library) and the HIP
# runtime, running the OpenCL build of kernels/device/ on PoCL and the
# BLAS on the system's; testing/standin.sh cuda|hip COMMAND runs a command
# over them.  They compare a module's image with the build's images
# ($(B)/cuda, $(B)/hip) to know its precision.
STANDIN_SRC = testing/standin/standin.c testing/standin/standin.h \
              runtime/embed_opencl.S $(B)/opencl_source.cl
STANDIN_BUILD = $(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared \
                -fvisibility=hidden -pthread -Wno-comment -Wa,-I,$(B)
STANDIN_BIN = $(if $(filter cuda,$(BACKENDS)),build/testing/standin-cuda/libcuda.so.1) \
              $(if $(filter hip,$(BACKENDS)),build/testing/standin-hip/libamdhip64.so.5)
build/testing/standin-cuda/libcuda.so.1: testing/standin/standin_cuda.c $(STANDIN_SRC)
	mkdir -p $(@D)
	$(STANDIN_BUILD) -I$(CUDA_HOME)/include -DSTANDIN_IMAGE_DIR='"$(CURDIR)/$(B)/cuda"' \
	    $< testing/standin/standin.c runtime/embed_opencl.S -o $@ -l:libOpenCL.so.1 $(LAPACK_LIBS)
	ln -sf libcuda.so.1 $(@D)/libcublas.so.12
build/testing/standin-hip/libamdhip64.so.5: testing/standin/standin_hip.c $(STANDIN_SRC)
	mkdir -p $(@D)
	$(STANDIN_BUILD) -D__HIP_PLATFORM_AMD__ -DSTANDIN_IMAGE_DIR='"$(CURDIR)/$(B)/hip"' \
	    $< testing/standin/standin.c runtime/embed_opencl.S -o $@ -l:libOpenCL.so.1

# the automatic choice (testing/unit/check_auto.sh): a LAPACK caller linked
# before -llapack, and the stand-in HIP whose second initialization aborts
# (with its LLVM, which stays loaded); built with or without the HIP backend
# (the library lists HIP's library whether or not it runs it)
AUTO_BIN = build/testing/auto_call build/testing/mock-hip-abort/libamdhip64.so.5
build/testing/auto_call: testing/unit/auto_call.c include/gpulapack.h lib/libgpulapack.so | build/testing
	$(CC) $(TEST_CFLAGS) $< -o $@ -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib $(TEST_LDLIBS)
build/testing/mock-hip-abort/libmockllvm.so: testing/unit/mock/mock_llvm.c
	mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-z,nodelete $< -o $@
build/testing/mock-hip-abort/libamdhip64.so.5: testing/unit/mock/mock_hip_abort.c build/testing/mock-hip-abort/libmockllvm.so
	$(CC) $(TEST_CFLAGS) -fPIC -shared -fvisibility=hidden $< -o $@ \
	    -L$(@D) -lmockllvm -Wl,-rpath,'$$ORIGIN'

build/demo: testing/demo/demo.c | build/testing
	$(CC) -std=gnu11 -O2 -Wall -Wextra $< -o $@ $(LAPACK_LIBS) -ldl -lm

# `make tests` builds every test binary, both libraries and the benchmarks
# (so that they keep compiling); TEST_BIN collects them.
TEST_BIN = $(OWN_BIN) $(UNIT_BIN) $(AUTO_BIN) build/testing/mock-cuda/libcuda.so.1 $(STANDIN_BIN) \
           build/demo build/bench/bench_backtransform \
           build/bench/bench_blas_shapes $(BENCH_GPU_BIN)
tests: all sanitize $(TEST_BIN)

deps:
	tools/install-deps.sh

# The levels of testing/run_checks.sh (docs/testing.md): `make check-<level>`
# installs what is missing, builds what that level's tests need and runs
# it; `make check` builds everything (`make tests`: the benchmarks too, so
# that they keep compiling) and runs every level, ending with the line
# "N passed, N failed" over all of them.  `make check-full` (or
# CHECK_FULL=1 with any of them) runs the complete set: the default run
# leaves out what only repeats another run's code under one setting
# (docs/testing.md, "What only the full run adds").
CHECK_LEVELS = unit own clients suite standin sanitize scalapack
CHECK_NEEDS_unit     = all $(UNIT_BIN) $(AUTO_BIN) build/testing/mock-cuda/libcuda.so.1
CHECK_NEEDS_own      = all $(OWN_BIN) build/demo
CHECK_NEEDS_clients  = all
CHECK_NEEDS_suite    = all
CHECK_NEEDS_sanitize = sanitize build/testing/test_threads build/testing/test_args
CHECK_NEEDS_standin  = all $(STANDIN_BIN) build/testing/test_vectors build/testing/test_fault \
                       $(foreach p,$(PRECISIONS),build/testing/test_device_ops_$(p)) \
                       $(filter build/testing/mock-%solver/%,$(GPU_UNIT_BIN))
CHECK_NEEDS_scalapack = all $(STANDIN_BIN)
.PHONY: $(CHECK_LEVELS:%=check-%) check-full

check: deps
	$(MAKE) tests
	testing/run_checks.sh

check-full: deps
	$(MAKE) tests
	testing/run_checks.sh --full

$(CHECK_LEVELS:%=check-%): check-%: deps
	$(MAKE) $(CHECK_NEEDS_$*)
	testing/run_checks.sh $*

# Each call of the example beside the system LAPACK's time for it, at the
# size from which the library takes its path on this machine
# (testing/demo/demo.c; `build/demo N` for a size of your own).
# First a LAPACK and BLAS to link the demo with and forward to (installed
# when root, else one line saying which packages; tools/install-deps.sh).
demo: demo-deps
	$(MAKE) all build/demo
	GPULAPACK_VERBOSE=1 LD_PRELOAD=$(CURDIR)/lib/libgpulapack.so build/demo
demo-deps:
	CC="$(CC)" LAPACK_LIBS="$(LAPACK_LIBS)" tools/install-deps.sh --demo

# lapack_api/generated/ and tools/tune_families.inc from the routines'
# table (tools/routines.py), docs/env.md's tables and gpulapack.SETTINGS
# from the settings' (runtime/settings.def, tools/settings.py);
# unit/generated checks the committed output.
generate:
	$(PYTHON) tools/routines.py
	$(PYTHON) tools/settings.py

# docs/performance.md's tables, from docs/data/ (tools/perf_doc.py;
# unit/perf-doc runs it with --check).
perf-doc:
	$(PYTHON) tools/perf_doc.py

# --- for editors ----------------------------------------------------------
# `make tags`: tags and TAGS (Universal Ctags), with a tag for each
# expanded name of the templated definitions (GL_FN(svd) -> gl_d_svd, ...,
# from the comment on the line before them; tools/tags.py).
tags:
	$(PYTHON) tools/tags.py
# `make compile_commands.json` (clangd): every C source with the flags of
# its rule, the templates as precision d; nothing is built
# (tools/compile_commands.py reads the commands from the environment).
define GL_NL


endef
# (test_stages includes kernels/householder.h, whose loops carry "omp simd")
unit_cflags = $(if $(filter test_stages test_device_ops test_contexts test_tile_gemm,$(1)),-DGL_PRECISION=2) \
              $(if $(filter test_stages,$(1)),-fopenmp-simd)
# a file of runtime/cudalike/ as its API's build compiles it (the
# API-neutral ones as CUDA's where CUDA is built, else HIP's)
cudalike_flags = $(if $(filter %_hip.c,$(1)),$(HIP_API_FLAGS),$(if $(filter %_cuda.c,$(1)),$(CUDA_API_FLAGS),$(if \
                   $(filter cuda,$(BACKENDS)),$(CUDA_API_FLAGS),$(HIP_API_FLAGS))))
COMPILE_COMMANDS = \
  $(foreach t,$(TEMPLATES),$(CC) $(LIB_CFLAGS) -DGL_PRECISION=2 -c lapack_api/$(t).c -o $(B)/lapack_api/$(t)_d.o$(GL_NL)) \
  $(foreach t,$(KERNELS),$(CC) $(LIB_CFLAGS) $(KERNEL_CFLAGS) -DGL_PRECISION=2 -c kernels/$(t).c -o $(B)/kernels/$(t)_d.o$(GL_NL)) \
  $(foreach f,$(COMMON_SRC),$(CC) $(LIB_CFLAGS) -c $(f) -o $(B)/$(f:.c=.o)$(GL_NL)) \
  $(foreach f,$(wildcard runtime/opencl/*.c),$(CC) $(LIB_CFLAGS) -c $(f) -o $(B)/$(f:.c=.o)$(GL_NL)) \
  $(foreach f,$(wildcard runtime/cudalike/*.c),$(CC) $(LIB_CFLAGS) $(call cudalike_flags,$(f)) \
      -c $(f) -o $(B)/$(f:.c=.o)$(GL_NL)) \
  $(CC) -std=c11 -Wall -Wextra $(CFLAGS) -Iinclude -c tools/gpulapack_info.c -o bin/gpulapack-info$(GL_NL) \
  $(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(CFLAGS) -Iinclude -Ilapack_api -Iruntime \
      -c tools/gpulapack_tune.c -o bin/gpulapack-tune$(GL_NL) \
  $(foreach f,$(UNIT_SRC),$(CC) $(TEST_CFLAGS) -Ilapack_api -Iruntime $(call unit_cflags,$(basename $(notdir $(f)))) \
      -c $(f) -o build/testing/$(basename $(notdir $(f)))$(GL_NL)) \
  $(foreach f,$(wildcard testing/unit/mock/*.c),$(CC) $(TEST_CFLAGS) -fPIC -fvisibility=hidden \
      -I$(CUDA_HOME)/include -c $(f) -o build/testing/$(basename $(notdir $(f))).o$(GL_NL)) \
  $(CC) $(TEST_CFLAGS) -c testing/unit/auto_call.c -o build/testing/auto_call$(GL_NL) \
  $(foreach f,$(OWN_SRC),$(CC) $(TEST_CFLAGS) -c $(f) -o build/testing/$(basename $(notdir $(f)))$(GL_NL)) \
  $(CC) -std=gnu11 -O2 -Wall -Wextra -c testing/demo/demo.c -o build/demo$(GL_NL) \
  $(foreach f,$(wildcard testing/bench/*.c),$(CC) $(BENCH_CFLAGS) -I. -isystem $(CUDA_HOME)/include \
      -c $(f) -o build/bench/$(basename $(notdir $(f)))$(GL_NL))
compile_commands.json: export GL_COMPILE_COMMANDS = $(COMPILE_COMMANDS)
compile_commands.json:
	$(PYTHON) tools/compile_commands.py >$@.tmp && mv $@.tmp $@

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
build/bench/bench: testing/bench/bench.c testing/bench/bench_common.h \
                   include/gpulapack.h lib/libgpulapack.so | build/bench
	$(CC) $(BENCH_CFLAGS) $< -o $@ -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib \
	    -Wl,--push-state,--no-as-needed $(LAPACK_LIBS) -Wl,--pop-state -ldl -lm
# The stage-2 back-transformation alone (internal API, static library):
# build/bench/bench_backtransform [n] [b] [reps]; built by `make tests`
# too, so that it keeps compiling.
build/bench/bench_backtransform: testing/bench/bench_backtransform.c \
                                 testing/bench/bench_common.h \
                                 lib/libgpulapack.a | build/bench
	$(CC) $(BENCH_CFLAGS) -I. $< -o $@ lib/libgpulapack.a $(LAPACK_LIBS) \
	    -lpthread -ldl -lm
# The system BLAS's rates on stage 1's products (what bounds the host
# path's stage 1): build/bench/bench_blas_shapes [n] [b] [block] [reps]
build/bench/bench_blas_shapes: testing/bench/bench_blas_shapes.c \
                               testing/bench/bench_common.h | build/bench
	$(CC) $(BENCH_CFLAGS) $< -o $@ $(LAPACK_LIBS) -ldl -lm
bench: library build/bench/bench build/bench/bench_backtransform \
       build/bench/bench_blas_shapes $(BENCH_GPU_BIN)
	testing/bench/run_bench.sh

# --- GPU benchmark -----------------------------------------------------------
# build/bench/bench_gpu (testing/bench/bench_gpu.c): our path with
# GPULAPACK_DEVICE=cuda against cuSOLVER (compute only, and with its copies)
# and the host LAPACK, on the same matrices.  Built only where the CUDA
# toolkit has cuSOLVER's header; then `make bench` builds it and
# run_bench.sh runs it after build/bench/bench (BENCH_GPU=0 skips it), and
# `make tests` compiles it.  Linked like build/bench/bench (ours before the
# system LAPACK), plus cuSOLVER and the CUDA runtime.  Without a CUDA
# device it prints one "# no CUDA device" line and exits 0.
# BENCH_GPU_SIZES, BENCH_GPU_CASES, BENCH_HOST_MAX_N, BENCH_GPU_CSV: see the
# comment at the top of bench_gpu.c.
ifneq ($(BENCH_GPU_BIN),)
build/bench/bench_gpu: testing/bench/bench_gpu.c testing/bench/bench_common.h \
                       include/gpulapack.h lib/libgpulapack.so | build/bench
	$(CC) $(BENCH_CFLAGS) -isystem $(CUDA_HOME)/include $< -o $@ \
	    -Llib -lgpulapack -Wl,-rpath,$(CURDIR)/lib \
	    -Wl,--push-state,--no-as-needed $(LAPACK_LIBS) -Wl,--pop-state \
	    -L$(CUDA_LIBDIR) -lcusolver -lcublas -lcudart \
	    -Wl,-rpath,$(CUDA_LIBDIR) -ldl -lm
endif
# --- end of the GPU benchmark ------------------------------------------------

# --- install ------------------------------------------------------------------
# `make install` (after `make`; it builds nothing) copies into
# $(DESTDIR)$(PREFIX): lib/libgpulapack.so and .a, the ScaLAPACK interposer
# lib/libgpulapack_scalapack.so with its gpulapack-scalapack.pc, include/gpulapack.h,
# bin/gpulapack-info and bin/gpulapack-tune (when built), the Python
# package python/gpulapack (into PYTHON_SITE, with a _install.py naming the
# installed library) and lib/pkgconfig/gpulapack.pc written for PREFIX.
# `make uninstall` (same PREFIX, DESTDIR) removes exactly those files.
# PYTHON_SITE: where Debian's python3 looks for PREFIX's packages,
# PREFIX/lib/python3.X/dist-packages (on Debian /usr/local/lib/python3/
# dist-packages is not on sys.path; elsewhere site-packages).
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
INCLUDEDIR   ?= $(PREFIX)/include
INSTALL_LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(INSTALL_LIBDIR)/pkgconfig
PYTHON       ?= $(or $(wildcard /usr/bin/python3),python3)
PYTHON_SITE  ?= $(PREFIX)/lib/$(or $(shell $(PYTHON) -c 'import sys; \
    print("python%d.%d/%s" % (sys.version_info[:2] + ("dist-packages" if any( \
    p.endswith("dist-packages") for p in sys.path) else "site-packages",)))' \
    2>/dev/null),python3/dist-packages)
GL_VERSION    = $(shell sed -n 's/^\#define GPULAPACK_VERSION "\(.*\)"/\1/p' include/gpulapack.h)
PY_FILES      = $(notdir $(filter-out %/_install.py,$(wildcard python/gpulapack/*.py)))
# what install puts, relative to $(DESTDIR)
INSTALLED     = $(INSTALL_LIBDIR)/libgpulapack.so $(INSTALL_LIBDIR)/libgpulapack.a \
                $(INSTALL_LIBDIR)/libgpulapack_scalapack.so $(PKGCONFIGDIR)/gpulapack-scalapack.pc \
                $(INCLUDEDIR)/gpulapack.h $(BINDIR)/gpulapack-info $(BINDIR)/gpulapack-tune \
                $(PKGCONFIGDIR)/gpulapack.pc $(PYTHON_SITE)/gpulapack/_install.py \
                $(addprefix $(PYTHON_SITE)/gpulapack/,$(PY_FILES))
# ld.so's cache, for a PREFIX such as /usr/local, when installing for real
LDCONFIG = if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; \
           then ldconfig; fi

.PHONY: install uninstall
install:
	@for f in $(LIBDIR)/libgpulapack.so $(LIBDIR)/libgpulapack.a $(LIBDIR)/libgpulapack_scalapack.so bin/gpulapack-info; do \
	    [ -f $$f ] || { echo "make install: $$f is missing: run make first" >&2; exit 1; }; done
	install -d $(DESTDIR)$(INSTALL_LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(PYTHON_SITE)/gpulapack
	install -m 755 $(LIBDIR)/libgpulapack.so $(DESTDIR)$(INSTALL_LIBDIR)/libgpulapack.so
	install -m 644 $(LIBDIR)/libgpulapack.a $(DESTDIR)$(INSTALL_LIBDIR)/libgpulapack.a
	install -m 755 $(LIBDIR)/libgpulapack_scalapack.so $(DESTDIR)$(INSTALL_LIBDIR)/libgpulapack_scalapack.so
	install -m 644 include/gpulapack.h $(DESTDIR)$(INCLUDEDIR)/gpulapack.h
	install -m 755 bin/gpulapack-info $(DESTDIR)$(BINDIR)/gpulapack-info
	if [ -f bin/gpulapack-tune ]; then \
	    install -m 755 bin/gpulapack-tune $(DESTDIR)$(BINDIR)/gpulapack-tune; fi
	install -m 644 $(addprefix python/gpulapack/,$(PY_FILES)) $(DESTDIR)$(PYTHON_SITE)/gpulapack/
	printf '# written by make install\nLIBRARY = "%s"\n' \
	    '$(INSTALL_LIBDIR)/libgpulapack.so' >$(DESTDIR)$(PYTHON_SITE)/gpulapack/_install.py
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(INSTALL_LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	    'Name: gpulapack' \
	    'Description: LAPACK SVD and symmetric/Hermitian eigensolvers, accelerated (Fortran-ABI LAPACK names)' \
	    'Version: $(GL_VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lgpulapack' \
	    'Libs.private: -ldl -lm -pthread' >$(DESTDIR)$(PKGCONFIGDIR)/gpulapack.pc
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(INSTALL_LIBDIR)' 'interposer=$${libdir}/libgpulapack_scalapack.so' '' \
	    'Name: gpulapack-scalapack' \
	    'Description: ScaLAPACK interposer: p?syev*/p?heev*/p?gesvd gathered onto one process and solved by gpulapack (LD_PRELOAD it with libgpulapack.so)' \
	    'Version: $(GL_VERSION)' 'Requires: gpulapack' 'Libs: -L$${libdir} -lgpulapack_scalapack' \
	    'Libs.private: -ldl -pthread' >$(DESTDIR)$(PKGCONFIGDIR)/gpulapack-scalapack.pc
	@$(LDCONFIG)
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rm -rf $(DESTDIR)$(PYTHON_SITE)/gpulapack/__pycache__
	-rmdir $(DESTDIR)$(PYTHON_SITE)/gpulapack 2>/dev/null
	@$(LDCONFIG)

clean:
	rm -rf build lib bin
