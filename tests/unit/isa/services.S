/* The requests a tile makes of the card's host-side engines, on tile 0 of any card:
 * the host exchanges in `plan` (count, then {device address, tile address, length
 * | TO_HOST << 31} each), then, if plan's list word is not 0, one EXCHANGE of that
 * list and an internal sync (its sends land), then exit 42. The host writes the
 * plan before the run. A fault stops the tile at hx_insn or xchg_insn: the host
 * compares those with the error record's PC. On a card with CAPS.HOST_SERVICE the
 * host driver services each request; elsewhere the DMA engine and the exchange
 * unit and fabric do. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    la s0, plan
    lw s1, 0(s0)                /* host exchanges */
    addi s2, s0, 8              /* the first one */
1:  beqz s1, 2f
    lw t0, 0(s2); csrw IPU_CSR_HX_DEV_ADDR, t0
    lw t0, 4(s2); csrw IPU_CSR_HX_TILE_ADDR, t0
    lw t0, 8(s2)
    .globl hx_insn
hx_insn: csrw IPU_CSR_HX_START, t0
    addi s2, s2, 12; addi s1, s1, -1; j 1b
2:  lw t0, 4(s0)                /* the exchange list, or 0 */
    beqz t0, 3f
    .globl xchg_insn
xchg_insn: csrw IPU_CSR_EXCHANGE, t0
    li t0, IPU_SYNC_KIND_INTERNAL; csrw IPU_CSR_SYNC, t0
3:  li t0, 42; csrw IPU_CSR_EXIT, t0

    .data
    .align 4
    .globl plan
plan: .word 0, 0
    .space 12 * 8               /* up to 8 host exchanges */
