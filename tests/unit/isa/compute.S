/* A compute-bound kernel for determinism tests and the MIPS benchmark: an
 * integer hash over a0 iterations (default 100000 when a0 = 0), exits with
 * the low byte of the hash. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    bnez a0, 1f
    li a0, 100000
1:  csrr t0, IPU_CSR_TILE_ID
    li t1, 0x9e3779b9
    add t0, t0, t1
2:  slli t2, t0, 5
    xor t0, t0, t2
    srli t2, t0, 7
    xor t0, t0, t2
    mul t0, t0, t1
    addi a0, a0, -1
    bnez a0, 2b
    andi t0, t0, 0xff
    csrw IPU_CSR_EXIT, t0
