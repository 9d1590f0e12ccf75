/* Exchange landing order (card_run.cpp): every tile sends 8 bytes to the same
 * address of tile 0 and 8 bytes to the next tile (a ring), a0 times (default
 * 3), with an internal sync after each. Writes to one place land in sender
 * tile order, so tile 0 keeps the last tile's bytes for any host thread count.
 * Exits with (word at tile 0's shared place) << 16 | (word from the ring):
 * tile 0 exits with N << 16 | N, tile t > 0 with t. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    bnez a0, 1f
    li a0, 3
1:  csrr s0, IPU_CSR_TILE_ID
    csrr s1, IPU_CSR_NUM_TILES
    addi t2, s0, 1
    la s3, outgoing
    sw t2, 0(s3)                                  /* word 0: this tile's id + 1 */
    sw s0, 4(s3)
    bne t2, s1, 2f; li t2, 0
2:  la s2, xlist; sw t2, 20(s2)                  /* descriptor 1: dst_tile, the next tile */
step:
    csrw IPU_CSR_EXCHANGE, s2
    li t2, IPU_SYNC_KIND_INTERNAL; csrw IPU_CSR_SYNC, t2
    addi a0, a0, -1
    bnez a0, step
    la s4, shared; lw t0, 0(s4)
    la s4, ring; lw t1, 0(s4)
    slli t0, t0, 16
    or t0, t0, t1
    csrw IPU_CSR_EXIT, t0

    .data
    .align 4
outgoing: .word 0, 0
shared:   .word 0, 0
ring:     .word 0, 0
xlist:    .word 2
          .word 0, shared, outgoing, 8
          .word 0, ring, outgoing, 8
