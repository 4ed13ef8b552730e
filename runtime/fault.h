/* Fault injection for the tests: GPULAPACK_FAULT=alloc:N, launch:N or
 * copy:N makes the N-th device allocation, kernel launch or copy of the
 * process fail, once, as a device out of memory or a lost device would;
 * wait:N makes the N-th one-launch bulge chasing start with its failure
 * flag set, as a wait that timed out would (kernels/device/chase.h).
 * Every such failure must end in LAPACK's results from the caller's
 * untouched data (testing/unit/test_fault.c).  secular:N makes the N-th
 * secular equation of a device divide and conquer fail to converge,
 * which restarts that stage 3 with the system routine
 * (kernels/stages/dc_*.c, testing/unit/test_device_ops.c). */
#ifndef GL_FAULT_H
#define GL_FAULT_H

typedef enum gl_fault_kind {
    GL_FAULT_ALLOC, GL_FAULT_LAUNCH, GL_FAULT_COPY, GL_FAULT_WAIT,
    GL_FAULT_SECULAR, GL_FAULT_KINDS
} gl_fault_kind;

/* Arms the counter: the n-th event of kind from now fails (n = 0: none);
 * the tests call it directly, the library reads GPULAPACK_FAULT. */
void gl_fault_arm(gl_fault_kind kind, long n);

/* Events left before the armed failure (0: fired, or none armed). */
long gl_fault_remaining(gl_fault_kind kind);

/* Counts one event; 1 if it must fail. */
int gl_fault_hit(gl_fault_kind kind);

#endif
