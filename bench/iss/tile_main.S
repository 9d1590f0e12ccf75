/* Bare tile entry for the ISS benchmark kernel: a0 = rounds (boot argument);
 * exits with the low byte of the checksum, which bench_iss compares with the
 * Linux build's. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    la sp, stack_top
    call iss_kernel
    andi a0, a0, 0xff
    csrw IPU_CSR_EXIT, a0
1:  j 1b
    .bss
    .balign 16
    .space 4096
stack_top:
