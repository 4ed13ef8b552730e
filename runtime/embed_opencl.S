/* The OpenCL kernel text (kernels/shim/opencl.h + kernels/device/*.h,
 * NUL-terminated; made by the Makefile) as a symbol of the library. */
    .section .rodata
    .balign 16
    .globl gl_opencl_source
    .hidden gl_opencl_source
    .type gl_opencl_source, @object
gl_opencl_source:
    .incbin "opencl_source.cl"
    .size gl_opencl_source, . - gl_opencl_source
    .section .note.GNU-stack,"",@progbits
