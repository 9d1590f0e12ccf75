/* Tile memory layout: where each context's stack lives, the same arithmetic as
 * firmware/scripts/gen-ldscript.py (a unit test keeps the two in step).
 *
 * From the top of SRAM down: the supervisor stack, then the worker stacks
 * (worker N highest, worker 1 lowest), then the free region that the heap and
 * the host's tensors share, then bss, data, rodata and code at SRAM_BASE. The
 * worker trampoline finds its stack as worker_stacks_base + id * worker_stack
 * bytes, so every worker stack has the same size. */
#ifndef IPU_FW_LAYOUT_H
#define IPU_FW_LAYOUT_H

#include <stdint.h>

#include "ipu_card/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stacks are kept 16-byte aligned, as the RISC-V psABI requires of sp. */
#define IPU_FW_STACK_ALIGN 16u

/* What a layout is computed from: board values and overridable sizes. */
struct ipu_fw_layout_params {
    uint32_t sram_bytes;             /* board bytes_per_tile */
    uint32_t num_workers;            /* board worker_contexts */
    uint32_t supervisor_stack_bytes; /* rounded up to IPU_FW_STACK_ALIGN */
    uint32_t worker_stack_bytes;     /* rounded up to IPU_FW_STACK_ALIGN */
};

/* The computed layout; addresses are tile addresses. Context c's stack is
 * [stack_base[c], stack_top[c]) and sp starts at stack_top[c]. */
struct ipu_fw_layout {
    uint32_t sram_end;           /* first address after SRAM */
    uint32_t stacks_base;        /* lowest stack byte: the free region ends here */
    uint32_t worker_stacks_base; /* == stacks_base; worker w's top is this + w * worker stack bytes */
    uint32_t supervisor_stack_bytes;
    uint32_t worker_stack_bytes;
    uint32_t num_contexts;       /* 1 + num_workers */
    uint32_t stack_base[IPU_TILE_CONTEXTS_MAX];
    uint32_t stack_top[IPU_TILE_CONTEXTS_MAX];
};

/* Rounds `value` up to a multiple of `align` (a power of two). */
static inline uint32_t ipu_fw_align_up(uint32_t value, uint32_t align)
{
    return (value + align - 1u) & ~(align - 1u);
}

/* Computes the stack layout. Returns 0, or -1 when the parameters are
 * impossible (no SRAM, more than IPU_TILE_CONTEXTS_MAX - 1 workers, SRAM over
 * IPU_TILE_SRAM_MAX_BYTES, or stacks that do not fit). */
int ipu_fw_layout_compute(const struct ipu_fw_layout_params *params, struct ipu_fw_layout *layout);

/* Returns 1 when an image whose last byte (code, data, bss and fixed-size
 * heap) ends before `image_end` fits below the stacks of `layout`, else 0. */
int ipu_fw_layout_fits(const struct ipu_fw_layout *layout, uint32_t image_end);

#ifdef __cplusplus
}
#endif
#endif /* IPU_FW_LAYOUT_H */
