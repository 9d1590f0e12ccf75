/* The vertex entry trampoline: how a worker context runs one vertex and reports its result.
 *
 * The supervisor starts a worker with WORKER_ENTRY = ipu_worker_entry and
 * WORKER_ARG = the address of a VERTEX_ENTRY {ENTRY, STATE}. The worker
 * starts here with a0 = that address and every other register undefined, so
 * it sets gp and sp itself before it may run any compiled code. */
#include "ipu_card/hw.h"
#include "ipu_rt/asm_constants.h"

    .text
    .globl ipu_worker_entry
    .type ipu_worker_entry, @function
    .p2align 2
ipu_worker_entry:
    /* No linker relaxation here: it would make these loads gp-relative, and
     * gp is what is being set up (and the stack symbols are absolute, which
     * ld cannot reach from gp). */
    .option push
    .option norelax
    la      gp, __global_pointer$

    /* sp = __ipu_worker_stacks_base + CONTEXT_ID * __ipu_worker_stack_bytes:
     * worker w owns [base + (w-1)*size, base + w*size) and starts at its top. */
    csrr    t0, IPU_CSR_CONTEXT_ID
    lui     t1, %hi(__ipu_worker_stack_bytes)
    addi    t1, t1, %lo(__ipu_worker_stack_bytes)
    mul     t1, t1, t0
    lui     sp, %hi(__ipu_worker_stacks_base)
    addi    sp, sp, %lo(__ipu_worker_stacks_base)
    add     sp, sp, t1
#ifdef IPU_TILE_STACK_GUARD
    /* The card faults (ERR_STACK_OVERFLOW) when sp goes below this worker's
     * stack base, the top of the worker below it. */
    lui     t1, %hi(__ipu_worker_stack_bytes)
    addi    t1, t1, %lo(__ipu_worker_stack_bytes)
    sub     t1, sp, t1
    csrw    IPU_CSR_STACK_LIMIT, t1
#endif
    .option pop

#ifdef __riscv_flen
    /* Each context has its own fcsr; start every vertex from the same state. */
    csrw    IPU_CSR_FCSR, zero
#endif

    /* result = ENTRY(STATE) */
    lw      t2, IPU_ASM_VERTEX_ENTRY_OFFSET(a0)
    lw      a0, IPU_ASM_VERTEX_STATE_OFFSET(a0)
    jalr    t2

    /* The vertex returns bool in the low byte of a0; WORKER_EXIT wants 0 for
     * success, so report 1 exactly when compute() returned false. */
    andi    a0, a0, 0xff
    seqz    a0, a0
    csrw    IPU_CSR_WORKER_EXIT, a0
    /* WORKER_EXIT stops the context; never fall through. */
1:  j       1b
    .size ipu_worker_entry, . - ipu_worker_entry
