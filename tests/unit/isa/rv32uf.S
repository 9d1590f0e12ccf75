/* RV32F through the ISS: every instruction class, rounding modes (static and
 * dynamic), NaN canonicalisation and fflags. Bit-exactness over many inputs is
 * the FPU library's own test (tests/unit/fpu); this checks decode and plumbing. */
#include "test_macros.h"
#define ONE 0x3f800000
#define TWO 0x40000000
#define THREE 0x40400000
#define HALF 0x3f000000
#define NEG_ONE 0xbf800000
#define PINF 0x7f800000
#define QNAN 0x7fc00000
#define SNAN 0x7f800001
#define MAXF 0x7f7fffff
#define TEST_CVT_RM(n, rm, flags, result, v1) \
    li TESTNUM, n; li a1, v1; fmv.w.x fa1, a1; csrw fflags, zero; fcvt.w.s a3, fa1, rm; csrr a4, fflags; \
    CHECK(n, a3, result); CHECK(n, a4, flags)
#define TEST_ADD_RM(n, rm, result) \
    li TESTNUM, n; li a1, ONE; li a2, 0x33800000; fmv.w.x fa1, a1; fmv.w.x fa2, a2; csrw fflags, zero; \
    fadd.s fa3, fa1, fa2, rm; fmv.x.w a3, fa3; csrr a4, fflags; CHECK(n, a3, result); CHECK(n, a4, 0x01)
TEST_BEGIN
    TEST_FP2(1, fadd.s, 0, THREE, ONE, TWO)
    TEST_FP2(2, fsub.s, 0, NEG_ONE, ONE, TWO)
    TEST_FP2(3, fmul.s, 0, 0x40c00000, TWO, THREE)
    TEST_FP2(4, fdiv.s, 0x01, 0x3eaaaaab, ONE, THREE)        /* 1/3 inexact, RNE */
    TEST_FP2(5, fdiv.s, 0x08, PINF, ONE, 0)                  /* divide by zero */
    TEST_FP2(6, fadd.s, 0x10, QNAN, PINF, 0xff800000)        /* inf - inf: invalid */
    TEST_FP2(7, fadd.s, 0x05, PINF, MAXF, MAXF)              /* overflow + inexact */
    TEST_FP1(8, fsqrt.s, 0, TWO, 0x40800000)
    TEST_FP1(9, fsqrt.s, 0x10, QNAN, NEG_ONE)
    TEST_FP3(10, fmadd.s, 0, 0x40e00000, TWO, THREE, ONE)    /* 2*3+1 */
    TEST_FP3(11, fmsub.s, 0, 0x40a00000, TWO, THREE, ONE)    /* 2*3-1 */
    TEST_FP3(12, fnmsub.s, 0, 0xc0a00000, TWO, THREE, ONE)   /* -(2*3)+1 */
    TEST_FP3(13, fnmadd.s, 0, 0xc0e00000, TWO, THREE, ONE)   /* -(2*3)-1 */
    TEST_FP2(14, fsgnj.s, 0, NEG_ONE, ONE, NEG_ONE)
    TEST_FP2(15, fsgnjn.s, 0, ONE, ONE, NEG_ONE)
    TEST_FP2(16, fsgnjx.s, 0, ONE, NEG_ONE, NEG_ONE)
    TEST_FP2(17, fmin.s, 0, ONE, ONE, TWO)
    TEST_FP2(18, fmax.s, 0, TWO, ONE, TWO)
    TEST_FP2(19, fmin.s, 0, ONE, QNAN, ONE)                  /* one NaN: the other operand */
    TEST_FP2(20, fmin.s, 0x10, ONE, SNAN, ONE)               /* signalling NaN: invalid */
    TEST_FP2(21, fmin.s, 0, 0x80000000, 0, 0x80000000)       /* -0 < +0 */
    TEST_FP_INT2(22, feq.s, 0, 1, ONE, ONE)
    TEST_FP_INT2(23, flt.s, 0, 1, ONE, TWO)
    TEST_FP_INT2(24, fle.s, 0, 0, TWO, ONE)
    TEST_FP_INT2(25, feq.s, 0, 0, QNAN, ONE)                 /* quiet compare */
    TEST_FP_INT2(26, flt.s, 0x10, 0, QNAN, ONE)              /* signalling compare */
    TEST_FP_INT1(27, fcvt.w.s, 0x01, 2, 0x40200000)             /* 2.5 RNE -> 2 (dynamic frm = RNE) */
    TEST_FP_INT1(28, fcvt.w.s, 0x10, 0x7fffffff, QNAN)
    TEST_FP_INT1(29, fcvt.wu.s, 0x10, 0, NEG_ONE)
    TEST_FP_INT1(30, fcvt.w.s, 0x10, 0x80000000, 0xcf800000) /* -2^32 saturates */
    TEST_INT_FP1(31, fcvt.s.w, 0, 0xbf800000, -1)
    TEST_INT_FP1(32, fcvt.s.wu, 0x01, 0x4f800000, -1)           /* 2^32 - 1 rounds to 2^32 */
    TEST_FP_INT1(33, fclass.s, 0, 0x040, ONE)                /* positive normal */
    TEST_FP_INT1(34, fclass.s, 0, 0x200, QNAN)
    TEST_FP_INT1(35, fclass.s, 0, 0x100, SNAN)
    TEST_FP_INT1(36, fclass.s, 0, 0x001, 0xff800000)         /* -inf */
    /* Static rounding modes on 2.5 -> int: RNE 2, RTZ 2, RDN 2, RUP 3, RMM 3; -2.5 RMM -3. */
    TEST_CVT_RM(40, rne, 0x01, 2, 0x40200000)
    TEST_CVT_RM(41, rtz, 0x01, 2, 0x40200000)
    TEST_CVT_RM(42, rdn, 0x01, 2, 0x40200000)
    TEST_CVT_RM(43, rup, 0x01, 3, 0x40200000)
    TEST_CVT_RM(44, rmm, 0x01, 3, 0x40200000)
    TEST_CVT_RM(45, rmm, 0x01, -3, 0xc0200000)
    /* 1 + 2^-24 is a tie: RNE and RDN give 1, RUP and RMM the next float up. */
    TEST_ADD_RM(46, rne, 0x3f800000)
    TEST_ADD_RM(47, rdn, 0x3f800000)
    TEST_ADD_RM(48, rup, 0x3f800001)
    TEST_ADD_RM(49, rmm, 0x3f800001)
    /* Dynamic rounding: frm = RUP applies to instructions with rm = dyn. */
    li TESTNUM, 50; csrwi frm, 3; li a1, ONE; li a2, 0x33800000; fmv.w.x fa1, a1; fmv.w.x fa2, a2
    fadd.s fa3, fa1, fa2; fmv.x.w a3, fa3; CHECK(50, a3, 0x3f800001)
    csrr a3, frm; CHECK(50, a3, 3); csrr a3, fcsr; CHECK(50, a3, 0x61); csrwi frm, 0
    /* flw/fsw move bits unchanged, NaN payloads included. */
    li TESTNUM, 51; la a1, fdata; flw fa1, 0(a1); fsw fa1, 4(a1); lw a3, 4(a1); CHECK(51, a3, 0x7f812345)
TEST_END

.data
.align 4
fdata: .word 0x7f812345, 0
