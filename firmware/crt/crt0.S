/* crt0: the supervisor's first instructions on a tile, from reset to __ipu_start(boot_arg).
 *
 * The host loads the whole ELF image into tile SRAM (there is no ROM, so .data
 * is already in place), sets TILE_ENTRY to _start and TILE_BOOT_ARG, and
 * starts the card. Only the supervisor (context 0) ever runs this code:
 * workers start at the PC the supervisor writes to WORKER_ENTRY (the vertex
 * trampoline), never here. */
#include "ipu_card/hw.h"
#include "ipu_rt/asm_constants.h"

    .section .text.start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* gp first, with relaxation off: the linker would otherwise turn this
     * very load into a gp-relative one, using the gp it is setting up. */
    .option push
    .option norelax
    la      gp, __global_pointer$

    /* The supervisor stack is the top one (see gen-ldscript.py). Absolute
     * symbol: lui/addi, still without relaxation, which could not reach it. */
    lui     sp, %hi(__ipu_supervisor_stack_top)
    addi    sp, sp, %lo(__ipu_supervisor_stack_top)
#ifdef IPU_TILE_STACK_GUARD
    /* The card faults (ERR_STACK_OVERFLOW) when sp goes below the stack's base. */
    lui     t0, %hi(__ipu_supervisor_stack_bytes)
    addi    t0, t0, %lo(__ipu_supervisor_stack_bytes)
    sub     t0, sp, t0
    csrw    IPU_CSR_STACK_LIMIT, t0
#endif
    .option pop

    /* a0 holds TILE_BOOT_ARG; keep it in a callee-saved register across memset. */
    mv      s0, a0

    /* Zero bss. The card clears SRAM at reset, but a host may re-run a loaded
     * image without a reset, and C requires zeroed statics either way. */
    la      a0, __bss_start
    la      a2, __bss_end
    sub     a2, a2, a0
    li      a1, 0
    call    memset

#ifdef __riscv_flen
    /* Round to nearest even and clear the accrued flags: a re-run must not
     * inherit the previous run's floating-point state. */
    csrw    IPU_CSR_FCSR, zero
#endif

    /* Constructors, then main() or the control program, then exit(). */
    mv      a0, s0
    call    __ipu_start

    /* __ipu_start does not return; should it ever, fail loudly rather than
     * run off into whatever follows. */
    li      a0, IPU_ASM_ERR_FIRMWARE_ABORT
    csrw    IPU_CSR_FAIL_INFO, zero
    csrw    IPU_CSR_FAIL, a0
1:  j       1b
    .size _start, . - _start
