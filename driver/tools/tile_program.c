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

uint32_t gc_rv_bne(unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t o = (uint32_t)off;
    return ((o >> 12) & 1u) << 31 | ((o >> 5) & 0x3fu) << 25 | rs2 << 20 | rs1 << 15 | 1u << 12 |
           ((o >> 1) & 0xfu) << 8 | ((o >> 11) & 1u) << 7 | 0x63u;
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
