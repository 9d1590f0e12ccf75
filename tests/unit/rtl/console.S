/* Console from every tile and context: the supervisor prints "tile N\n", starts
 * every worker, each worker prints "wK\n" (K its context), the supervisor joins
 * and exits with the tile id. Bytes go through the CONSOLE CSR, as printf's
 * _write does in the libgloss port. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    csrr s0, IPU_CSR_TILE_ID
    la a0, banner; call puts
    addi a0, s0, '0'; csrw IPU_CSR_CONSOLE, a0
    li a0, '\n'; csrw IPU_CSR_CONSOLE, a0
    csrr s1, IPU_CSR_NUM_WORKERS
    la t0, worker; csrw IPU_CSR_WORKER_ENTRY, t0
    li s2, 1
1:  csrw IPU_CSR_WORKER_START, s2
    csrr t0, IPU_CSR_WORKER_JOIN                    /* one at a time: a fixed order per tile */
    bnez t0, bad
    addi s2, s2, 1
    ble s2, s1, 1b
    csrw IPU_CSR_EXIT, s0
bad: li t0, 999; csrw IPU_CSR_EXIT, t0

puts:                                               /* a0 = NUL-terminated string */
    lbu t0, 0(a0)
    beqz t0, 2f
    csrw IPU_CSR_CONSOLE, t0
    addi a0, a0, 1
    j puts
2:  ret

worker:
    csrr t0, IPU_CSR_CONTEXT_ID
    li t1, 'w'; csrw IPU_CSR_CONSOLE, t1
    addi t0, t0, '0'; csrw IPU_CSR_CONSOLE, t0
    li t1, '\n'; csrw IPU_CSR_CONSOLE, t1
    csrw IPU_CSR_WORKER_EXIT, zero

    .data
banner: .asciz "hello from tile "
