/* Cases that tell a block-caching ISS from the reference interpreter, chosen
 * by the boot argument (a0); each exits with a value the host test checks or
 * faults at the instruction labelled mid_<n>:
 *  1  a store replaces an instruction of a block that already ran: 150 + 15000
 *  2  a store replaces the next instruction of its own block: 7
 *  3  the host rewrites code during an external sync (id 9): 1 + 50
 *  4  a load fault in the middle of a straight-line block (mid_4)
 *  5  a stack overflow (addi sp) in the middle of a block (mid_5)
 *  6  a dynamic rounding mode made invalid (frm = 5) at an FP op (mid_6) */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    la sp, stack_top
    slli t0, a0, 2
    la t1, table
    add t1, t1, t0
    lw t1, 0(t1)
    jr t1
table:
    .word c_none, c_smc, c_smc_own_block, c_host_patch, c_load_fault, c_stack, c_rounding

c_none: li t0, 1; csrw IPU_CSR_EXIT, t0

/* Each case first runs its code 300 times the harmless way, so that a
 * native-mode ISS (IPU_EMU_ISS_HOT small) has translated it, then once the
 * way under test. */
c_smc:
    li s0, 0
    li s1, 300
1:  call patched_fn                /* 1 for 150 calls, then 100 */
    add s0, s0, a0
    li t2, 151
    bne s1, t2, 2f
    la t0, patched_fn
    lw t1, patch_100
    sw t1, 0(t0)
2:  addi s1, s1, -1
    bnez s1, 1b
    csrw IPU_CSR_EXIT, s0          /* 150 * 1 + 150 * 100 */

c_smc_own_block:
    li s1, 300
    la a2, scratch
    lw a1, patch_7
1:  call own_block_fn              /* stores into scratch: returns 3 */
    addi s1, s1, -1
    bnez s1, 1b
    la a2, own_block_site
    call own_block_fn              /* stores over its own next instruction: 7 */
    csrw IPU_CSR_EXIT, a0

c_host_patch:
    call host_patched_fn           /* 1, then the host writes host_patch_50 over it */
    mv s0, a0
    li t0, IPU_SYNC_KIND_EXTERNAL | (9 << 8); csrw IPU_CSR_SYNC, t0
    call host_patched_fn
    add s0, s0, a0
    csrw IPU_CSR_EXIT, s0

c_load_fault:
    li s1, 300
    la a0, scratch
1:  call load_fn
    addi s1, s1, -1
    bnez s1, 1b
    li a0, 0x10
    call load_fn
    csrw IPU_CSR_EXIT, a1
load_fn:
    li t0, 5
    addi t0, t0, 1
    add t1, t0, t0
    .globl mid_4
mid_4: lw t3, 0(a0)
    addi a1, t3, 1
    ret

c_stack:
    li s1, 300
1:  call stack_fn                  /* no limit yet */
    addi s1, s1, -1
    bnez s1, 1b
    addi t0, sp, -16
    csrw IPU_CSR_STACK_LIMIT, t0
    call stack_fn                  /* sp - 32 is below the limit */
    csrw IPU_CSR_EXIT, t1
stack_fn:
    li t1, 3
    addi t1, t1, 2
    .globl mid_5
mid_5: addi sp, sp, -32
    addi sp, sp, 32
    ret

c_rounding:
    li s1, 300
1:  call fp_fn                     /* frm = 0 (RNE) */
    addi s1, s1, -1
    bnez s1, 1b
    li t0, 5
    csrw IPU_CSR_FRM, t0           /* reserved: an FP op with rm = dyn is illegal */
    call fp_fn
    csrw IPU_CSR_EXIT, t1
fp_fn:
    li t1, 1
    fmv.w.x ft0, t1
    addi t1, t1, 1
    .globl mid_6
mid_6: fadd.s ft1, ft0, ft0, dyn
    ret

patched_fn:
    li a0, 1
    ret
own_block_fn:
    sw a1, 0(a2)
own_block_site:
    li a0, 3
    ret
    .globl host_patched_fn
host_patched_fn:
    li a0, 1
    ret
/* Instruction words written over code (never executed where they are). */
patch_100: li a0, 100
patch_7: li a0, 7
    .globl host_patch_50
host_patch_50: li a0, 50

    .bss
    .balign 16
scratch: .space 16
    .balign 16
    .space 1024
stack_top:
