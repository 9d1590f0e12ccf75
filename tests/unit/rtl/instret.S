/* INSTRET and INSTRETH in every context at once: the supervisor starts all workers
 * together (their reads interleave in the barrel), each worker reads both halves
 * a few times and exits with zero, the supervisor joins and exits with its own
 * INSTRET plus INSTRETH (which must be zero: a run retires far fewer than 2^32).
 * Lock-step compares every value read with the model's. The RTL keeps the high
 * words in block RAM, read for the context EX runs next and swept to zero at START. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    csrr s0, instret
    csrr s3, instreth
    csrr s1, IPU_CSR_NUM_WORKERS
    la t0, worker; csrw IPU_CSR_WORKER_ENTRY, t0
    li s2, 1
1:  csrw IPU_CSR_WORKER_START, s2
    addi s2, s2, 1
    ble s2, s1, 1b
    csrr t0, IPU_CSR_WORKER_JOIN
    bnez t0, bad
    csrr a0, instret
    csrr t1, instreth
    add a0, a0, t1
    add a0, a0, s3
    sub a0, a0, s0
    csrw IPU_CSR_EXIT, a0
bad: li t0, 999; csrw IPU_CSR_EXIT, t0

worker:
    li t2, 5
    li t3, 0
2:  csrr t0, instret
    csrr t1, instreth
    add t3, t3, t1
    addi t2, t2, -1
    bnez t2, 2b
    csrw IPU_CSR_WORKER_EXIT, t3                    /* zero unless INSTRETH was not */
