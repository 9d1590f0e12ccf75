/* One fault per run, chosen by TILE_BOOT_ARG (fault_kinds.h); labels mark the faulting PCs. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fault_kinds.h"
#include "ipu_fw/cp.h"
#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"
#include "ipu_rt/vertex.h"

/* Each fault sits at a global label so that the host test can compare ERR_PC. */
static void supervisor_fault(uint32_t kind)
{
    uint32_t v = 0;
    switch (kind) {
    case FW_FAULT_ILLEGAL: __asm__ volatile(".globl fw_pc_illegal\nfw_pc_illegal: .word 0"); break;
    case FW_FAULT_FETCH: {
        void (*volatile null_fn)(void) = NULL; /* volatile: gcc would turn a known-null call into a trap */
        null_fn();
        break;
    }
    case FW_FAULT_LOAD: __asm__ volatile(".globl fw_pc_load\nfw_pc_load: lw %0, 0(zero)" : "=r"(v)); break;
    case FW_FAULT_STORE: __asm__ volatile(".globl fw_pc_store\nfw_pc_store: sw zero, 16(zero)"); break;
    case FW_FAULT_LOAD_MISALIGNED:
        __asm__ volatile(".globl fw_pc_load_misaligned\nfw_pc_load_misaligned: lw %0, 0(%1)"
                         : "=r"(v) : "r"(IPU_TILE_SRAM_BASE + 2u));
        break;
    case FW_FAULT_STORE_MISALIGNED:
        __asm__ volatile(".globl fw_pc_store_misaligned\nfw_pc_store_misaligned: sw zero, 0(%0)"
                         : : "r"(IPU_TILE_SRAM_BASE + 2u) : "memory");
        break;
    case FW_FAULT_ECALL: __asm__ volatile(".globl fw_pc_ecall\nfw_pc_ecall: ecall"); break;
    case FW_FAULT_EBREAK: __asm__ volatile(".globl fw_pc_ebreak\nfw_pc_ebreak: ebreak"); break;
    case FW_FAULT_ABORT: abort();
    default: break;
    }
    (void)v;
}

/* ---- Vertices ---- */

bool fw_vertex_ok(void *state)
{
    (void)state;
    return true;
}

bool fw_vertex_false(void *state)
{
    (void)state;
    return false;
}

/* Its frame is larger than a worker stack: the prologue moves sp below the
 * worker's STACK_LIMIT (the stack guard: crt0 and the worker trampoline). */
bool fw_vertex_big_stack(void *state)
{
    volatile uint8_t locals[4096];
    locals[0] = (uint8_t)(uintptr_t)state;
    return locals[0] == 0xff;
}

bool fw_vertex_null_load(void *state)
{
    uint32_t v;
    (void)state;
    __asm__ volatile(".globl fw_pc_worker_load\nfw_pc_worker_load: lw %0, 0(zero)" : "=r"(v));
    return v != 0;
}

bool fw_vertex_exit(void *state)
{
    (void)state;
    ipu_csr_write(IPU_CSR_EXIT, 3); /* supervisor only */
    return true;
}

/* A compute-set table of `n` vertices, all `fn` except vertex `odd` (if < n). */
struct table {
    uint32_t count;
    struct ipu_vertex_entry v[8];
};
static struct table table;

static const uint32_t *make_table(uint32_t n, ipu_vertex_fn fn, uint32_t odd, ipu_vertex_fn odd_fn)
{
    table.count = n;
    for (uint32_t i = 0; i < n; i++) {
        table.v[i].entry = (uint32_t)(uintptr_t)(i == odd ? odd_fn : fn);
        table.v[i].state = 0;
    }
    return &table.count;
}

/* ---- Control programs, encoded on the tile with the shared encoder ---- */

static uint32_t program[64];
static uint32_t list[1 + 4];

static void run_program(void (*emit)(struct ipu_cp_builder *))
{
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, program, 64);
    emit(&b);
    if (ipu_cp_builder_finish(&b) != IPU_CP_OK)
        exit(90); /* the test's own bug, not the case under test */
    exit(ipu_rt_run(program));
}

static void emit_vertex_false(struct ipu_cp_builder *b)
{
    ipu_cp_emit_execute(b, (uint32_t)(uintptr_t)make_table(8, fw_vertex_ok, 7, fw_vertex_false));
    ipu_cp_emit_end(b);
}

static void emit_bad_exchange(struct ipu_cp_builder *b)
{
    struct ipu_exch_desc *d = (struct ipu_exch_desc *)&list[1];
    list[0] = 1;
    d->dst_tile = 999;
    d->dst_addr = IPU_TILE_SRAM_BASE;
    d->src_addr = IPU_TILE_SRAM_BASE;
    d->length = 4;
    ipu_cp_emit_exchange(b, (uint32_t)(uintptr_t)list);
    ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_end(b);
}

static void emit_host_exchange(struct ipu_cp_builder *b)
{
    struct ipu_hx_desc *d = (struct ipu_hx_desc *)&list[1];
    list[0] = 1;
    d->dev_addr = FW_FAULT_UNMAPPED_DEV_ADDR;
    d->tile_addr = (uint32_t)(uintptr_t)program;
    d->length = ipu_boot_arg == FW_FAULT_HOST_EXCHANGE ? 0x80000000u : 16u;
    d->flags = 0;
    ipu_cp_emit_stream_copy(b, 1, (uint32_t)(uintptr_t)list);
    ipu_cp_emit_end(b);
}

int main(void)
{
    uint32_t kind = ipu_boot_arg;
    switch (kind) {
    case FW_FAULT_WORKER_LOAD:
        ipu_rt_execute(make_table(1, fw_vertex_null_load, 1, NULL));
        break;
    case FW_FAULT_WORKER_STACK:
        ipu_rt_execute(make_table(1, fw_vertex_big_stack, 1, NULL));
        break;
    case FW_FAULT_WORKER_MISUSE:
        ipu_rt_execute(make_table(2, fw_vertex_ok, 1, fw_vertex_exit));
        break;
    case FW_FAULT_VERTEX_FALSE:
        run_program(emit_vertex_false);
        break;
    case FW_FAULT_BAD_PROGRAM:
        program[0] = ipu_cp_header(IPU_CP_OP_SYNC, 2, IPU_SYNC_KIND_INTERNAL);
        program[1] = 0;
        program[2] = ipu_cp_header(0x33, 1, 0);
        exit(ipu_rt_run(program));
    case FW_FAULT_BAD_EXCHANGE:
        run_program(emit_bad_exchange);
        break;
    case FW_FAULT_HOST_EXCHANGE:
    case FW_FAULT_XLAT_MISS:
        run_program(emit_host_exchange);
        break;
    default:
        supervisor_fault(kind);
        break;
    }
    return 99; /* the fault did not happen */
}
