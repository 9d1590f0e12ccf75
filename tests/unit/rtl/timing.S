/* A timing-dependent program: spins until CYCLE reaches 600 and exits with the
 * number of spins. The RTL barrel (one issue per NUM_WORKERS + 1 cycles) and
 * the model's logical clock (one per NUM_WORKERS) disagree on that number, so
 * lock-step must report a divergence: the test that the comparison can fail. */
#include "ipu_card/hw.h"
    .section .text.init
    .globl _start
_start:
    li t1, 600
    li a0, 0
1:  addi a0, a0, 1
    csrr t0, IPU_CSR_CYCLE
    bltu t0, t1, 1b
    csrw IPU_CSR_EXIT, a0
