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

/* RV32I encodings (registers by number: zero 0, t0 5, t1 6). */
uint32_t gc_rv_addi(unsigned rd, unsigned rs1, int32_t imm);
uint32_t gc_rv_lui(unsigned rd, uint32_t imm20);
uint32_t gc_rv_lw(unsigned rd, unsigned rs1, int32_t imm);
uint32_t gc_rv_csrrw(unsigned rd, unsigned csr, unsigned rs1);
uint32_t gc_rv_bne(unsigned rs1, unsigned rs2, int32_t off);
#define GC_RV_J_SELF 0x0000006fu /* j . */

#endif
