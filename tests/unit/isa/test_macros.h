/* Self-checking ISA test macros in the style of riscv-tests: each case sets
 * TESTNUM, computes, compares with the expected value and jumps to `fail`,
 * which exits the tile with the failing case's number (0 means all passed). */
#include "ipu_card/hw.h"

#define TESTNUM gp

#define TEST_BEGIN .section .text.init; .globl _start; _start:
#define TEST_END \
pass: csrw IPU_CSR_EXIT, zero; 1: j 1b; \
fail: csrw IPU_CSR_EXIT, TESTNUM; 2: j 2b

#define CHECK(n, reg, expected) li t5, expected; bne reg, t5, fail

/* Register-register and register-immediate integer operations. */
#define TEST_RR(n, inst, result, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a3, a1, a2; CHECK(n, a3, result)
#define TEST_RI(n, inst, result, v1, imm) \
    li TESTNUM, n; li a1, v1; inst a3, a1, imm; CHECK(n, a3, result)
/* rd == rs1 and x0 destination corner cases. */
#define TEST_RR_SRC1_EQ_DEST(n, inst, result, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a1, a2; CHECK(n, a1, result)
#define TEST_ZERO_DEST(n, inst, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst x0, a1, a2; bne x0, zero, fail

/* Branches: taken and not taken. */
#define TEST_BR_TAKEN(n, inst, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, 3f; j fail; 3:
#define TEST_BR_NOT_TAKEN(n, inst, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; inst a1, a2, fail

/* Loads from the test's data at `base` + offset. */
#define TEST_LD(n, inst, result, base, offset) \
    li TESTNUM, n; la a1, base; inst a3, offset(a1); CHECK(n, a3, result)
#define TEST_ST(n, st, ld, value, base, offset) \
    li TESTNUM, n; la a1, base; li a2, value; st a2, offset(a1); ld a3, offset(a1); CHECK(n, a3, value)

/* Floating point: operands and results are bit patterns; fflags checked too. */
#define TEST_FP2(n, inst, flags, result, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; fmv.w.x fa1, a1; fmv.w.x fa2, a2; csrw fflags, zero; \
    inst fa3, fa1, fa2; fmv.x.w a3, fa3; csrr a4, fflags; CHECK(n, a3, result); CHECK(n, a4, flags)
#define TEST_FP3(n, inst, flags, result, v1, v2, v3) \
    li TESTNUM, n; li a1, v1; li a2, v2; li a4, v3; fmv.w.x fa1, a1; fmv.w.x fa2, a2; fmv.w.x fa4, a4; \
    csrw fflags, zero; inst fa3, fa1, fa2, fa4; fmv.x.w a3, fa3; csrr a4, fflags; \
    CHECK(n, a3, result); CHECK(n, a4, flags)
#define TEST_FP1(n, inst, flags, result, v1) \
    li TESTNUM, n; li a1, v1; fmv.w.x fa1, a1; csrw fflags, zero; inst fa3, fa1; fmv.x.w a3, fa3; \
    csrr a4, fflags; CHECK(n, a3, result); CHECK(n, a4, flags)
/* FP -> integer register results (compares, conversions, classify). */
#define TEST_FP_INT2(n, inst, flags, result, v1, v2) \
    li TESTNUM, n; li a1, v1; li a2, v2; fmv.w.x fa1, a1; fmv.w.x fa2, a2; csrw fflags, zero; \
    inst a3, fa1, fa2; csrr a4, fflags; CHECK(n, a3, result); CHECK(n, a4, flags)
#define TEST_FP_INT1(n, inst, flags, result, v1) \
    li TESTNUM, n; li a1, v1; fmv.w.x fa1, a1; csrw fflags, zero; inst a3, fa1; csrr a4, fflags; \
    CHECK(n, a3, result); CHECK(n, a4, flags)
#define TEST_INT_FP1(n, inst, flags, result, v1) \
    li TESTNUM, n; li a1, v1; csrw fflags, zero; inst fa3, a1; fmv.x.w a3, fa3; csrr a4, fflags; \
    CHECK(n, a3, result); CHECK(n, a4, flags)
