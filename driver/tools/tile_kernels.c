/* The card tests' tile programs (see tile_kernels.h). */
#include "tile_kernels.h"

#include "ipu_card/hw.h"

static void exit_and_halt(struct gc_asm *a, unsigned code_reg)
{
    gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_EXIT, code_reg));
    gc_asm_emit(a, GC_RV_J_SELF);
}

void gc_kernel_fill(struct gc_asm *a, enum gc_mem_pattern pattern, uint32_t start, uint32_t end)
{
    gc_asm_li(a, GC_R_T0, start); /* t0: the word being written */
    gc_asm_li(a, GC_R_T1, end);
    gc_asm_emit(a, gc_rv_addi(GC_R_T2, GC_R_ZERO, 1)); /* t2: the walking bit */
    size_t loop = a->n;
    switch (pattern) {
    case GC_MEM_ADDRESS:
        gc_asm_emit(a, gc_rv_sw(GC_R_T0, GC_R_T0, 0));
        break;
    case GC_MEM_WALKING_ONES:
    case GC_MEM_WALKING_ZEROS:
    case GC_MEM_PATTERNS:
        if (pattern == GC_MEM_WALKING_ZEROS) {
            gc_asm_emit(a, gc_rv_xori(GC_R_T3, GC_R_T2, -1));
            gc_asm_emit(a, gc_rv_sw(GC_R_T3, GC_R_T0, 0));
        } else {
            gc_asm_emit(a, gc_rv_sw(GC_R_T2, GC_R_T0, 0));
        }
        /* rotate the bit left by one */
        gc_asm_emit(a, gc_rv_slli(GC_R_T4, GC_R_T2, 1));
        gc_asm_emit(a, gc_rv_srli(GC_R_T2, GC_R_T2, 31));
        gc_asm_emit(a, gc_rv_or(GC_R_T2, GC_R_T2, GC_R_T4));
        break;
    }
    gc_asm_emit(a, gc_rv_addi(GC_R_T0, GC_R_T0, 4));
    gc_asm_emit(a, gc_rv_bltu(GC_R_T0, GC_R_T1, gc_asm_back(a, loop)));
    exit_and_halt(a, GC_R_ZERO);
}

void gc_kernel_exchange_loop(struct gc_asm *a, uint32_t list_addr, uint32_t iterations)
{
    gc_asm_li(a, GC_R_T0, list_addr);
    gc_asm_li(a, GC_R_T1, iterations);
    gc_asm_emit(a, gc_rv_addi(GC_R_T2, GC_R_ZERO, IPU_SYNC_KIND_INTERNAL));
    size_t loop = a->n;
    gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_EXCHANGE, GC_R_T0));
    gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_SYNC, GC_R_T2));
    gc_asm_emit(a, gc_rv_addi(GC_R_T1, GC_R_T1, -1));
    gc_asm_emit(a, gc_rv_bne(GC_R_T1, GC_R_ZERO, gc_asm_back(a, loop)));
    exit_and_halt(a, GC_R_ZERO);
}

void gc_kernel_flops(struct gc_asm *a, uint32_t load_addr, uint32_t workers, uint32_t iterations,
                     uint32_t result_addr)
{
    /* supervisor: the worker entry is patched in once its address is known */
    size_t entry_li = a->n;
    gc_asm_li(a, GC_R_T0, 0);
    gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_WORKER_ENTRY, GC_R_T0));
    for (uint32_t w = 1; w <= workers; w++) {
        gc_asm_emit(a, gc_rv_addi(GC_R_T1, GC_R_ZERO, (int32_t)w));
        gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_WORKER_ARG, GC_R_T1));
        gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_WORKER_START, GC_R_T1));
    }
    gc_asm_emit(a, gc_rv_csrrs(GC_R_T2, IPU_CSR_WORKER_JOIN, GC_R_ZERO));
    exit_and_halt(a, GC_R_T2);

    uint32_t entry = load_addr + 4u * (uint32_t)a->n;
    if (!a->overflow) {
        struct gc_asm patch = {a->w + entry_li, 0, 2, 0};
        gc_asm_li(&patch, GC_R_T0, entry);
    }
    /* worker (a0 = its index): f1 = f2 = 1.0, accumulators f3.. = 0 */
    gc_asm_li(a, GC_R_T0, iterations);
    gc_asm_li(a, GC_R_T1, 0x3f800000u);
    gc_asm_emit(a, gc_rv_fmv_w_x(1, GC_R_T1));
    gc_asm_emit(a, gc_rv_fmv_w_x(2, GC_R_T1));
    for (unsigned k = 0; k < GC_FLOPS_UNROLL; k++)
        gc_asm_emit(a, gc_rv_fmv_w_x(3 + k, GC_R_ZERO));
    size_t loop = a->n;
    for (unsigned k = 0; k < GC_FLOPS_UNROLL; k++)
        gc_asm_emit(a, gc_rv_fmadd_s(3 + k, 1, 2, 3 + k));
    gc_asm_emit(a, gc_rv_addi(GC_R_T0, GC_R_T0, -1));
    gc_asm_emit(a, gc_rv_bne(GC_R_T0, GC_R_ZERO, gc_asm_back(a, loop)));
    gc_asm_li(a, GC_R_T2, result_addr);
    gc_asm_emit(a, gc_rv_slli(GC_R_T1, GC_R_A0, 5));
    gc_asm_emit(a, gc_rv_add(GC_R_T2, GC_R_T2, GC_R_T1));
    for (unsigned k = 0; k < GC_FLOPS_UNROLL; k++)
        gc_asm_emit(a, gc_rv_fsw(3 + k, GC_R_T2, (int32_t)(4 * k)));
    gc_asm_emit(a, gc_rv_csrrw(GC_R_ZERO, IPU_CSR_WORKER_EXIT, GC_R_ZERO));
    gc_asm_emit(a, GC_RV_J_SELF);
}
