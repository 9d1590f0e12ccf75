/* Tile memory layout arithmetic (stacks at the top of SRAM), shared by host and tile. */
#include "ipu_fw/layout.h"

#include <string.h>

int ipu_fw_layout_compute(const struct ipu_fw_layout_params *params, struct ipu_fw_layout *layout)
{
    memset(layout, 0, sizeof(*layout));
    if (params->sram_bytes == 0 || params->sram_bytes > IPU_TILE_SRAM_MAX_BYTES ||
        params->num_workers + 1u > IPU_TILE_CONTEXTS_MAX)
        return -1;
    uint32_t sup = ipu_fw_align_up(params->supervisor_stack_bytes, IPU_FW_STACK_ALIGN);
    uint32_t wrk = ipu_fw_align_up(params->worker_stack_bytes, IPU_FW_STACK_ALIGN);
    /* 64-bit sum: stack sizes come from users and must not wrap. */
    uint64_t total = (uint64_t)sup + (uint64_t)wrk * params->num_workers;
    /* The top is aligned down so that every stack top is 16-byte aligned. */
    uint32_t end = IPU_TILE_SRAM_BASE + (params->sram_bytes & ~(IPU_FW_STACK_ALIGN - 1u));
    if (sup == 0 || (params->num_workers > 0 && wrk == 0) || total > end - IPU_TILE_SRAM_BASE)
        return -1;

    layout->sram_end = IPU_TILE_SRAM_BASE + params->sram_bytes;
    layout->stacks_base = end - (uint32_t)total;
    layout->worker_stacks_base = layout->stacks_base;
    layout->supervisor_stack_bytes = sup;
    layout->worker_stack_bytes = wrk;
    layout->num_contexts = params->num_workers + 1u;
    for (uint32_t w = 1; w <= params->num_workers; w++) {
        layout->stack_base[w] = layout->worker_stacks_base + (w - 1u) * wrk;
        layout->stack_top[w] = layout->worker_stacks_base + w * wrk;
    }
    layout->stack_base[0] = layout->worker_stacks_base + params->num_workers * wrk;
    layout->stack_top[0] = end;
    return 0;
}

int ipu_fw_layout_fits(const struct ipu_fw_layout *layout, uint32_t image_end)
{
    return image_end >= IPU_TILE_SRAM_BASE && image_end <= layout->stacks_base;
}
