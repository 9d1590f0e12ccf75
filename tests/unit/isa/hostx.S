/* One host exchange of a0 bytes from device address 0x200000 into tile SRAM at
 * +0x4000, then an exit with the cycles the supervisor waited for it: CYCLE
 * read after the transfer minus CYCLE read before it. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    li t0, 0x200000; csrw IPU_CSR_HX_DEV_ADDR, t0
    li t0, IPU_TILE_SRAM_BASE + 0x4000; csrw IPU_CSR_HX_TILE_ADDR, t0
    csrr s0, IPU_CSR_CYCLE
    csrw IPU_CSR_HX_START, a0
    csrr s1, IPU_CSR_CYCLE
    sub t0, s1, s0
    csrw IPU_CSR_EXIT, t0
