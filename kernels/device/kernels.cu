/* The kernels of this directory for nvcc and hipcc: the CUDA/HIP shim and
 * the one kernel text, compiled once per precision (-DPRECISION=1..4) into
 * the images the library embeds (Makefile).  OpenCL gets the same files
 * concatenated as text (runtime/embed_opencl.S). */
#include "../shim/cuda.h"
#include "common.h"
#include "blas.h"
#include "panel.h"
#include "chase.h"
#include "tridiag.h"
#include "dc.h"
#include "wy.h"
