/* Host exchange: each tile writes out[i] = 3 * i + tile (16 words), sends them to
 * the host at device address 0x10000 + 64 * tile, fetches 16 words from device
 * address 0x20000 and exits with their sum. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    csrr s0, IPU_CSR_TILE_ID
    la t0, out; li t1, 0; li t4, 16
1:  slli t2, t1, 1; add t2, t2, t1; add t2, t2, s0
    slli t3, t1, 2; add t3, t0, t3; sw t2, 0(t3)
    addi t1, t1, 1; blt t1, t4, 1b
    li t0, 0x10000; slli t1, s0, 6; add t0, t0, t1; csrw IPU_CSR_HX_DEV_ADDR, t0
    la t0, out; csrw IPU_CSR_HX_TILE_ADDR, t0
    li t0, 0x80000040; csrw IPU_CSR_HX_START, t0       /* 64 bytes to the host */
    li t0, 0x20000; csrw IPU_CSR_HX_DEV_ADDR, t0
    la t0, in; csrw IPU_CSR_HX_TILE_ADDR, t0
    li t0, 64; csrw IPU_CSR_HX_START, t0               /* 64 bytes from the host */
    la t0, in; li t1, 0; li a0, 0
2:  slli t3, t1, 2; add t3, t0, t3; lw t2, 0(t3); add a0, a0, t2
    addi t1, t1, 1; blt t1, t4, 2b
    csrw IPU_CSR_EXIT, a0

    .data
    .align 4
out: .space 64
in:  .space 64
