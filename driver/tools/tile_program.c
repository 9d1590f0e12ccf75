/* RV32I encodings for the gc tools' small tile programs. */
#include "tile_program.h"

#include "ipu_card/hw.h"

enum { ZERO = 0, T0 = 5, T1 = 6 };

uint32_t gc_rv_addi(unsigned rd, unsigned rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | rd << 7 | 0x13u;
}

uint32_t gc_rv_lui(unsigned rd, uint32_t imm20)
{
    return imm20 << 12 | rd << 7 | 0x37u;
}

uint32_t gc_rv_csrrw(unsigned rd, unsigned csr, unsigned rs1)
{
    return (uint32_t)csr << 20 | rs1 << 15 | 1u << 12 | rd << 7 | 0x73u;
}

uint32_t gc_rv_lw(unsigned rd, unsigned rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x03u;
}

static uint32_t branch(unsigned funct3, unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t o = (uint32_t)off;
    return ((o >> 12) & 1u) << 31 | ((o >> 5) & 0x3fu) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 |
           ((o >> 1) & 0xfu) << 8 | ((o >> 11) & 1u) << 7 | 0x63u;
}

uint32_t gc_rv_bne(unsigned rs1, unsigned rs2, int32_t off)
{
    return branch(1u, rs1, rs2, off);
}

uint32_t gc_rv_bltu(unsigned rs1, unsigned rs2, int32_t off)
{
    return branch(6u, rs1, rs2, off);
}

static uint32_t rtype(unsigned funct7, unsigned rs2, unsigned rs1, unsigned funct3, unsigned rd, unsigned opcode)
{
    return (uint32_t)funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}

static uint32_t stype(unsigned funct3, unsigned rs2, unsigned rs1, int32_t imm, unsigned opcode)
{
    uint32_t i = (uint32_t)imm & 0xfffu;
    return (i >> 5) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | (i & 0x1fu) << 7 | opcode;
}

uint32_t gc_rv_add(unsigned rd, unsigned rs1, unsigned rs2)
{
    return rtype(0, rs2, rs1, 0, rd, 0x33u);
}

uint32_t gc_rv_or(unsigned rd, unsigned rs1, unsigned rs2)
{
    return rtype(0, rs2, rs1, 6, rd, 0x33u);
}

uint32_t gc_rv_xori(unsigned rd, unsigned rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xfffu) << 20 | rs1 << 15 | 4u << 12 | rd << 7 | 0x13u;
}

uint32_t gc_rv_slli(unsigned rd, unsigned rs1, unsigned shamt)
{
    return rtype(0, shamt & 31u, rs1, 1, rd, 0x13u);
}

uint32_t gc_rv_srli(unsigned rd, unsigned rs1, unsigned shamt)
{
    return rtype(0, shamt & 31u, rs1, 5, rd, 0x13u);
}

uint32_t gc_rv_sw(unsigned rs2, unsigned rs1, int32_t imm)
{
    return stype(2, rs2, rs1, imm, 0x23u);
}

uint32_t gc_rv_csrrs(unsigned rd, unsigned csr, unsigned rs1)
{
    return (uint32_t)csr << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x73u;
}

uint32_t gc_rv_fmv_w_x(unsigned frd, unsigned rs1)
{
    return rtype(0x78u, 0, rs1, 0, frd, 0x53u);
}

uint32_t gc_rv_fsw(unsigned frs2, unsigned rs1, int32_t imm)
{
    return stype(2, frs2, rs1, imm, 0x27u);
}

uint32_t gc_rv_fmadd_s(unsigned frd, unsigned frs1, unsigned frs2, unsigned frs3)
{
    return (uint32_t)frs3 << 27 | frs2 << 20 | frs1 << 15 | frd << 7 | 0x43u; /* fmt S, rm RNE */
}

void gc_asm_emit(struct gc_asm *a, uint32_t word)
{
    if (a->n < a->cap)
        a->w[a->n++] = word;
    else
        a->overflow = 1;
}

void gc_asm_li(struct gc_asm *a, unsigned rd, uint32_t value)
{
    /* lui + addi with the carry of a negative low part */
    uint32_t lo = value & 0xfffu, hi = (value >> 12) + (lo >= 0x800u);
    gc_asm_emit(a, gc_rv_lui(rd, hi & 0xfffffu));
    gc_asm_emit(a, gc_rv_addi(rd, rd, lo >= 0x800u ? (int32_t)lo - 0x1000 : (int32_t)lo));
}

int32_t gc_asm_back(const struct gc_asm *a, size_t target)
{
    return ((int32_t)target - (int32_t)a->n) * 4;
}

size_t gc_program_sync_loop(uint32_t *w, uint32_t count, uint32_t sync_id)
{
    size_t n = 0;
    /* t1 = count (lui + addi with the carry of a negative low part) */
    uint32_t lo = count & 0xfffu, hi = (count >> 12) + (lo >= 0x800u);
    w[n++] = gc_rv_lui(T1, hi & 0xfffffu);
    w[n++] = gc_rv_addi(T1, T1, (int32_t)(lo >= 0x800u ? (int32_t)lo - 0x1000 : (int32_t)lo));
    /* loop: t0 = EXTERNAL | id << 8; csrw SYNC, t0; t1--; bnez t1, loop */
    size_t loop = n;
    w[n++] = gc_rv_addi(T0, ZERO, (int32_t)(IPU_SYNC_KIND_EXTERNAL | (sync_id & 0x7u) << 8));
    w[n++] = gc_rv_csrrw(ZERO, IPU_CSR_SYNC, T0);
    w[n++] = gc_rv_addi(T1, T1, -1);
    w[n] = gc_rv_bne(T1, ZERO, (int32_t)(loop - n) * 4);
    n++;
    w[n++] = gc_rv_csrrw(ZERO, IPU_CSR_EXIT, ZERO);
    w[n++] = 0x0000006fu; /* j . */
    return n;
}
