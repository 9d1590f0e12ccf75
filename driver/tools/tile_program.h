/* Tiny hand-assembled RV32I tile programs for tools that need the tiles to do
 * something without a cross-compiler (e.g. host-sync ping-pong). */
#ifndef GC_TILE_PROGRAM_H
#define GC_TILE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Writes a program that performs `count` external syncs with id `sync_id`
 * (1..7, so that it fits one immediate) and then exits with code 0. Returns the number of 32-bit words
 * written (at most 16) into `words`. */
size_t gc_program_sync_loop(uint32_t *words, uint32_t count, uint32_t sync_id);

/* RV32IMF encodings (registers by number: zero 0, t0 5, t1 6, t2 7, a0 10,
 * t3 28, t4 29; float registers f0..f31 by number). */
uint32_t gc_rv_addi(unsigned rd, unsigned rs1, int32_t imm);
uint32_t gc_rv_lui(unsigned rd, uint32_t imm20);
uint32_t gc_rv_lw(unsigned rd, unsigned rs1, int32_t imm);
uint32_t gc_rv_csrrw(unsigned rd, unsigned csr, unsigned rs1);
uint32_t gc_rv_bne(unsigned rs1, unsigned rs2, int32_t off);
uint32_t gc_rv_add(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t gc_rv_or(unsigned rd, unsigned rs1, unsigned rs2);
uint32_t gc_rv_xori(unsigned rd, unsigned rs1, int32_t imm);
uint32_t gc_rv_slli(unsigned rd, unsigned rs1, unsigned shamt);
uint32_t gc_rv_srli(unsigned rd, unsigned rs1, unsigned shamt);
uint32_t gc_rv_sw(unsigned rs2, unsigned rs1, int32_t imm);
uint32_t gc_rv_csrrs(unsigned rd, unsigned csr, unsigned rs1); /* csrr rd, csr with rs1 = 0 */
uint32_t gc_rv_bltu(unsigned rs1, unsigned rs2, int32_t off);
uint32_t gc_rv_fmv_w_x(unsigned frd, unsigned rs1);
uint32_t gc_rv_fsw(unsigned frs2, unsigned rs1, int32_t imm);
/* frd = frs1 * frs2 + frs3, rounding to nearest even. */
uint32_t gc_rv_fmadd_s(unsigned frd, unsigned frs1, unsigned frs2, unsigned frs3);
#define GC_RV_J_SELF 0x0000006fu /* j . */

/* A growing tile program: words are appended; `overflow` is set (and words
 * dropped) once `cap` is reached, so builders need no checks of their own. */
struct gc_asm {
    uint32_t *w;
    size_t n, cap;
    int overflow;
};
void gc_asm_emit(struct gc_asm *a, uint32_t word);
/* rd = value (lui + addi, two words). */
void gc_asm_li(struct gc_asm *a, unsigned rd, uint32_t value);
/* Byte offset from the next word to word index `target` (for branches back). */
int32_t gc_asm_back(const struct gc_asm *a, size_t target);

#endif
