/* Workers: the supervisor starts every worker on `work`, which stores its
 * context id * 3 into results[ctx] and returns non-zero only for worker 4;
 * the join mask (1 << 4) is the exit code. The supervisor then joins an empty
 * set (mask 0) and checks the results. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    csrr s1, IPU_CSR_NUM_WORKERS
    la t0, work; csrw IPU_CSR_WORKER_ENTRY, t0
    la t0, results; csrw IPU_CSR_WORKER_ARG, t0
    li s0, 1
1:  csrw IPU_CSR_WORKER_START, s0
    addi s0, s0, 1
    ble s0, s1, 1b
    csrr s2, IPU_CSR_WORKER_JOIN
    csrr t0, IPU_CSR_WORKER_JOIN                    /* nothing running: returns 0 at once */
    bnez t0, bad
    la t1, results; li s0, 1
2:  slli t2, s0, 2; add t2, t1, t2; lw t3, 0(t2)
    li t4, 3; mul t4, s0, t4; bne t3, t4, bad
    addi s0, s0, 1; ble s0, s1, 2b
    csrw IPU_CSR_EXIT, s2
bad: li t0, 999; csrw IPU_CSR_EXIT, t0

work:                                               /* a0 = results */
    csrr t0, IPU_CSR_CONTEXT_ID
    slli t1, t0, 2; add t1, a0, t1
    li t2, 3; mul t2, t0, t2; sw t2, 0(t1)
    li t3, 100                                      /* some work: 100 iterations */
3:  addi t3, t3, -1; bnez t3, 3b
    addi t0, t0, -4; seqz t0, t0                    /* worker 4 fails */
    csrw IPU_CSR_WORKER_EXIT, t0
    .data
    .align 4
results: .space 32
