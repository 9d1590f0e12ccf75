/* A bulk-synchronous kernel for thread-scaling benchmarks and determinism
 * tests: a0 supersteps (default 100), each an integer hash over 32
 * iterations, a 16-byte exchange to the next tile (a ring) and an internal
 * sync. Exits with the low byte of the hash mixed with what arrived. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    bnez a0, 1f
    li a0, 100
1:  csrr s0, IPU_CSR_TILE_ID
    csrr s1, IPU_CSR_NUM_TILES
    addi t2, s0, 1; bne t2, s1, 2f; li t2, 0
2:  la s2, xlist; sw t2, 4(s2)                     /* descriptor 0: dst_tile */
    la s3, outgoing
    la s4, incoming
    li t1, 0x9e3779b9
    add t0, s0, t1
step:
    li a1, 32
3:  slli t2, t0, 5
    xor t0, t0, t2
    srli t2, t0, 7
    xor t0, t0, t2
    mul t0, t0, t1
    addi a1, a1, -1
    bnez a1, 3b
    sw t0, 0(s3); sw a0, 4(s3); sw s0, 8(s3); sw t1, 12(s3)
    csrw IPU_CSR_EXCHANGE, s2
    li t2, IPU_SYNC_KIND_INTERNAL; csrw IPU_CSR_SYNC, t2
    lw t2, 0(s4)
    add t0, t0, t2
    addi a0, a0, -1
    bnez a0, step
    andi t0, t0, 0xff
    csrw IPU_CSR_EXIT, t0

    .data
    .align 4
outgoing: .word 0, 0, 0, 0
incoming: .word 0, 0, 0, 0
xlist:    .word 1, 0, incoming, outgoing, 16
