/* Sync and exchange across all tiles: each tile sends its id*10+1 to the next
 * tile (a ring), syncs, checks what it received from the previous tile, then
 * does an external sync (id 7) and exits with the received value. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    csrr s0, IPU_CSR_TILE_ID
    csrr s1, IPU_CSR_NUM_TILES
    li t0, 10; mul t0, s0, t0; addi t0, t0, 1
    la t1, outgoing; sw t0, 0(t1)
    addi t2, s0, 1; bne t2, s1, 1f; li t2, 0
1:  la t3, xlist; sw t2, 4(t3)                     /* descriptor 0: dst_tile */
    csrw IPU_CSR_EXCHANGE, t3
    /* Before the sync nothing has landed: exchange is bulk-synchronous. */
    la t4, incoming; lw t5, 0(t4); bnez t5, bad
    li t0, IPU_SYNC_KIND_INTERNAL; csrw IPU_CSR_SYNC, t0
    lw t5, 0(t4)
    li t0, IPU_SYNC_KIND_EXTERNAL | (7 << 8); csrw IPU_CSR_SYNC, t0
    csrw IPU_CSR_EXIT, t5
bad: li t0, 999; csrw IPU_CSR_EXIT, t0

    .data
    .align 4
    .globl outgoing, incoming
outgoing: .word 0
incoming: .word 0
xlist:    .word 1, 0, incoming, outgoing, 4
