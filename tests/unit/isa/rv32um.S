/* RV32M: multiply, high multiplies, division and remainder including /0 and overflow. */
#include "test_macros.h"
TEST_BEGIN
    TEST_RR(1, mul, 0x00001200, 0x00007e00, 0xb6db6db7)
    TEST_RR(2, mul, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(3, mulh, 0xffff0081, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR(4, mulh, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR(5, mulhu, 0x0001fefe, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR(6, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR(7, mulhsu, 0xffff0081, 0xaaaaaaab, 0x0002fe7d)
    TEST_RR(8, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff)
    TEST_RR(9, div, 3, 20, 6)
    TEST_RR(10, div, -3, -20, 6)
    TEST_RR(11, div, -3, 20, -6)
    TEST_RR(12, div, 0x80000000, 0x80000000, -1)   /* overflow: the dividend */
    TEST_RR(13, div, -1, 20, 0)                    /* by zero: all ones */
    TEST_RR(14, divu, 3, 20, 6)
    TEST_RR(15, divu, 715827879, -20, 6)
    TEST_RR(16, divu, 0xffffffff, 20, 0)
    TEST_RR(17, rem, 2, 20, 6)
    TEST_RR(18, rem, -2, -20, 6)
    TEST_RR(19, rem, 2, 20, -6)
    TEST_RR(20, rem, 0, 0x80000000, -1)
    TEST_RR(21, rem, 20, 20, 0)                    /* by zero: the dividend */
    TEST_RR(22, remu, 2, 20, 6)
    TEST_RR(23, remu, 2, -20, 6)
    TEST_RR(24, remu, 20, 20, 0)
TEST_END
