/* The tile programs of the card tests (memory, exchange, traffic, flops),
 * hand-assembled with tile_program.h so that the tools need no cross-compiler.
 * Every builder appends to a gc_asm; the caller checks `overflow`. */
#ifndef GC_TILE_KERNELS_H
#define GC_TILE_KERNELS_H

#include <stdint.h>

#include "tile_program.h"

/* Bytes reserved for a kernel at its load address (kernels are smaller). */
#define GC_KERNEL_BYTES 512u

/* Registers the kernels use. */
enum { GC_R_ZERO = 0, GC_R_T0 = 5, GC_R_T1 = 6, GC_R_T2 = 7, GC_R_A0 = 10, GC_R_T3 = 28, GC_R_T4 = 29 };

/* SRAM test patterns, written word by word from the start of a region:
 * ADDRESS stores each word's own tile address; WALKING_ONES stores word i
 * (counted from the region start) as 1 << (i % 32); WALKING_ZEROS stores its
 * complement. */
enum gc_mem_pattern { GC_MEM_ADDRESS, GC_MEM_WALKING_ONES, GC_MEM_WALKING_ZEROS, GC_MEM_PATTERNS };

/* The supervisor fills tile addresses [start, end) (4-byte aligned, start <
 * end) with `pattern` and exits with code 0. */
void gc_kernel_fill(struct gc_asm *a, enum gc_mem_pattern pattern, uint32_t start, uint32_t end);

/* The supervisor sends the exchange list at `list_addr` and meets the other
 * tiles in an internal sync (where the writes land), `iterations` times
 * (>= 1), then exits with code 0. */
void gc_kernel_exchange_loop(struct gc_asm *a, uint32_t list_addr, uint32_t iterations);

/* Fused multiply-adds per loop iteration of one flops worker (independent
 * accumulators, so that none waits for the previous result). */
#define GC_FLOPS_UNROLL 8u

/* A flops kernel loaded at `load_addr`: the supervisor starts `workers`
 * workers, joins them and exits with the join mask (0 when all succeeded).
 * Worker w (1..workers) runs `iterations` (>= 1) loops of GC_FLOPS_UNROLL
 * fmadd.s acc_k = 1.0 * 1.0 + acc_k and stores its accumulators as floats at
 * result_addr + 32 * w (so each ends as (float)iterations). */
void gc_kernel_flops(struct gc_asm *a, uint32_t load_addr, uint32_t workers, uint32_t iterations,
                     uint32_t result_addr);

#endif
