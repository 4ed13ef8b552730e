/* A kernel image made by the build (a CUDA fatbin or a HIP code-object
 * bundle) as a symbol of the library: BLOB_NAME, BLOB_FILE (a quoted
 * path, found through -Wa,-I) come from the Makefile. */
    .section .rodata
    .balign 64
    .globl BLOB_NAME
    .hidden BLOB_NAME
    .type BLOB_NAME, @object
BLOB_NAME:
    .incbin BLOB_FILE
    .size BLOB_NAME, . - BLOB_NAME
    .section .note.GNU-stack,"",@progbits
