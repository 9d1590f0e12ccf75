/* RV32I: arithmetic, logic, shifts, compares, upper immediates, jumps, branches, loads and stores. */
#include "test_macros.h"
TEST_BEGIN
    TEST_RR(1, add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2, add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR(3, add, 0x7fff8000, 0x7fffffff, 0xffff8001)
    TEST_RR(4, add, 0x80000000, 0x7fffffff, 0x00000001)
    TEST_RR(5, add, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR(6, sub, 0xfffffffc, 0x00000003, 0x00000007)
    TEST_RR(7, sub, 0x80000001, 0x00000000, 0x7fffffff)
    TEST_RR(8, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(9, or,  0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(10, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(11, sll, 0x80000000, 0x00000001, 31)
    TEST_RR(12, sll, 0x00000002, 0x00000001, 0xffffffe1)   /* only the low 5 bits of rs2 */
    TEST_RR(13, srl, 0x00000001, 0x80000000, 31)
    TEST_RR(14, sra, 0xffffffff, 0x80000000, 31)
    TEST_RR(15, sra, 0xc0000000, 0x80000000, 1)
    TEST_RR(16, slt, 1, 0xffffffff, 0)
    TEST_RR(17, slt, 0, 0, 0xffffffff)
    TEST_RR(18, sltu, 0, 0xffffffff, 0)
    TEST_RR(19, sltu, 1, 0, 0xffffffff)
    TEST_RI(20, addi, 0x00000800, 0x00000fff, -0x7ff)
    TEST_RI(21, addi, 0x800007fe, 0x7fffffff, 0x7ff)
    TEST_RI(22, andi, 0x00000700, 0xff00ff00, 0x70f)
    TEST_RI(23, ori,  0xffffff0f, 0xff00ff00, -241)
    TEST_RI(24, xori, 0xff00f00f, 0x00ff0f00, -241)
    TEST_RI(25, slli, 0x80000000, 0x00000001, 31)
    TEST_RI(26, srli, 0x00000001, 0x80000000, 31)
    TEST_RI(27, srai, 0xffffffff, 0x80000000, 31)
    TEST_RI(28, slti, 1, 0xfffff000, -1)
    TEST_RI(29, sltiu, 1, 0x00000000, -1)             /* -1 is the largest unsigned */
    TEST_RI(30, sltiu, 0, 0xffffffff, 1)
    TEST_RR_SRC1_EQ_DEST(31, add, 24, 13, 11)
    TEST_ZERO_DEST(32, add, 11, 13)

    li TESTNUM, 33; lui a3, 0x80000; CHECK(33, a3, 0x80000000)
    li TESTNUM, 34; lui a3, 0xfffff; srai a3, a3, 1; CHECK(34, a3, 0xfffff800)
    li TESTNUM, 35
1:  auipc a3, 0; la a4, 1b; bne a3, a4, fail
    li TESTNUM, 36; jal a3, 2f; j fail
2:  la a4, 2b - 4; bne a3, a4, fail  /* link register = address after jal */
    li TESTNUM, 37; la a1, 3f + 1; jalr a3, 0(a1); j fail  /* jalr clears bit 0 */
3:  li TESTNUM, 38

    TEST_BR_TAKEN(40, beq, 5, 5)
    TEST_BR_NOT_TAKEN(41, beq, 5, 6)
    TEST_BR_TAKEN(42, bne, 5, 6)
    TEST_BR_NOT_TAKEN(43, bne, 5, 5)
    TEST_BR_TAKEN(44, blt, -1, 1)
    TEST_BR_NOT_TAKEN(45, blt, 1, -1)
    TEST_BR_TAKEN(46, bge, 1, -1)
    TEST_BR_TAKEN(47, bge, -1, -1)
    TEST_BR_NOT_TAKEN(48, bge, -1, 1)
    TEST_BR_TAKEN(49, bltu, 1, -1)
    TEST_BR_NOT_TAKEN(50, bltu, -1, 1)
    TEST_BR_TAKEN(51, bgeu, -1, 1)
    TEST_BR_NOT_TAKEN(52, bgeu, 1, -1)

    TEST_LD(60, lb,  0xffffffff, data_bytes, 0)
    TEST_LD(61, lb,  0x0000007f, data_bytes, 1)
    TEST_LD(62, lbu, 0x000000ff, data_bytes, 0)
    TEST_LD(63, lh,  0xffff80ff, data_half, 0)
    TEST_LD(64, lhu, 0x000080ff, data_half, 0)
    TEST_LD(65, lw,  0x12345678, data_word, 0)
    TEST_LD(66, lw,  0xdeadbeef, data_word, 4)
    TEST_LD(67, lw,  0x12345678, data_word + 4, -4)
    TEST_ST(70, sb, lbu, 0xa5, scratch, 0)
    TEST_ST(71, sh, lhu, 0xbeef, scratch, 2)
    TEST_ST(72, sw, lw, 0xcafef00d, scratch, 4)
    /* A byte store touches one byte only. */
    li TESTNUM, 73; la a1, scratch; li a2, 0x11223344; sw a2, 8(a1); li a2, 0x99; sb a2, 9(a1); lw a3, 8(a1)
    CHECK(73, a3, 0x11229944)
    li TESTNUM, 74; fence; fence.i
TEST_END

.data
.align 4
data_bytes: .byte 0xff, 0x7f, 0x00, 0x00
data_half:  .half 0x80ff, 0x0000
data_word:  .word 0x12345678, 0xdeadbeef
scratch:    .space 16
