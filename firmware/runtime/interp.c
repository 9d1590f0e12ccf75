/* The control-program interpreter: the supervisor's main loop for graph programs. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ipu_fw/cp.h"
#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"

/* PRINT_TENSOR formats through newlib's stdio, which costs about 30 KB of code (printf, dtoa, soft double
 * arithmetic) on every tile. A weak reference keeps print_tensor.o out of images whose programs do not print:
 * the graph compiler asks for it (-u ipu_rt_print_tensor) only when a program has a PrintTensor step. */
#pragma weak ipu_rt_print_tensor

/* How a block ended: it ran to its last word, or an END ended the program. */
enum block_result { BLOCK_DONE, BLOCK_END };

struct interp {
    const uint32_t *prog;
};

static void *tile_ptr(uint32_t addr)
{
    return (void *)(uintptr_t)addr;
}

__attribute__((noreturn)) static void bad_program(size_t pc)
{
    ipu_fail(IPU_ERR_BAD_CONTROL_PROGRAM, (uint32_t)pc);
}

/* Reads a `width`-byte little-endian condition from SRAM. The compiler has
 * already copied the predicate to this tile (local consensus), so every tile
 * takes the same branch without talking to the others. Bytewise copy: the
 * predicate need not be aligned. */
static uint32_t read_condition(uint32_t addr, uint32_t width)
{
    uint8_t bytes[4] = {0, 0, 0, 0};
    memcpy(bytes, tile_ptr(addr), width);
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static enum block_result run_block(const struct interp *it, size_t start, size_t end, unsigned depth);

/* Runs the structured body [start, start + words). */
static enum block_result run_body(const struct interp *it, size_t start, uint32_t words, unsigned depth)
{
    return run_block(it, start, start + words, depth + 1u);
}

static enum block_result run_switch(const struct interp *it, const struct ipu_cp_insn *in, unsigned depth)
{
    uint32_t value = read_condition(in->ops[IPU_CP_SWITCH_COND], in->imm);
    uint32_t cases = in->ops[IPU_CP_SWITCH_CASES];
    size_t at = in->body;
    for (uint32_t i = 0; i < cases; i++) {
        if (ipu_cp_switch_value(in, i) == value)
            return run_body(it, at, ipu_cp_switch_words(in, i), depth);
        at += ipu_cp_switch_words(in, i);
    }
    return run_body(it, at, in->ops[IPU_CP_SWITCH_DEFAULT], depth);
}

static enum block_result run_while(const struct interp *it, const struct ipu_cp_insn *in, unsigned depth)
{
    uint32_t width = in->imm & 0xffu;
    int while_false = (in->imm & IPU_CP_WHILE_FALSE_FLAG) != 0;
    uint32_t cond_words = in->ops[IPU_CP_WHILE_COND_BODY];
    for (;;) {
        if (run_body(it, in->body, cond_words, depth) == BLOCK_END)
            return BLOCK_END;
        int cond = read_condition(in->ops[IPU_CP_WHILE_COND], width) != 0;
        if (cond == while_false)
            return BLOCK_DONE;
        if (run_body(it, in->body + cond_words, in->ops[IPU_CP_WHILE_BODY], depth) == BLOCK_END)
            return BLOCK_END;
    }
}

/* Runs the instructions of [start, end). Nesting depth is bounded so that a
 * corrupt program faults cleanly instead of overflowing the supervisor stack. */
static enum block_result run_block(const struct interp *it, size_t start, size_t end, unsigned depth)
{
    if (depth > IPU_CP_MAX_DEPTH)
        bad_program(start);
    size_t pc = start;
    while (pc < end) {
        struct ipu_cp_insn in;
        if (ipu_cp_decode(it->prog, end, pc, &in) != IPU_CP_OK)
            bad_program(pc);
        const uint32_t *ops = in.ops;
        enum block_result r = BLOCK_DONE;
        switch (in.opcode) {
        case IPU_CP_OP_END:
            return BLOCK_END;
        case IPU_CP_OP_SYNC:
            ipu_sync(in.imm, ops[IPU_CP_SYNC_ID]);
            break;
        case IPU_CP_OP_EXCHANGE:
            ipu_exchange(tile_ptr(ops[IPU_CP_EXCHANGE_LIST]));
            break;
        case IPU_CP_OP_EXECUTE: {
            int32_t failed = ipu_rt_execute(tile_ptr(ops[IPU_CP_EXECUTE_TABLE]));
            if (failed >= 0)
                ipu_fail(IPU_ERR_VERTEX_FAILED, (uint32_t)failed);
            break;
        }
        case IPU_CP_OP_STREAM_COPY:
            /* The host fills host-to-device buffers during the first sync and
             * drains device-to-host buffers during the second. */
            ipu_sync(IPU_SYNC_KIND_EXTERNAL, ops[IPU_CP_STREAM_SYNC_ID]);
            ipu_rt_host_exchange(tile_ptr(ops[IPU_CP_STREAM_LIST]));
            ipu_sync(IPU_SYNC_KIND_EXTERNAL, ops[IPU_CP_STREAM_SYNC_ID] | IPU_CP_STREAM_DONE_FLAG);
            break;
        case IPU_CP_OP_REPEAT:
            for (uint32_t i = 0; i < ops[IPU_CP_REPEAT_COUNT] && r == BLOCK_DONE; i++)
                r = run_body(it, in.body, ops[IPU_CP_REPEAT_BODY], depth);
            break;
        case IPU_CP_OP_IF:
            if (read_condition(ops[IPU_CP_IF_COND], in.imm) != 0)
                r = run_body(it, in.body, ops[IPU_CP_IF_THEN], depth);
            else
                r = run_body(it, in.body + ops[IPU_CP_IF_THEN], ops[IPU_CP_IF_ELSE], depth);
            break;
        case IPU_CP_OP_SWITCH:
            r = run_switch(it, &in, depth);
            break;
        case IPU_CP_OP_WHILE:
            r = run_while(it, &in, depth);
            break;
        case IPU_CP_OP_PRINT_TENSOR:
            if (ipu_rt_print_tensor == NULL) /* the image was linked without it */
                bad_program(pc);
            ipu_rt_print_tensor(tile_ptr(ops[IPU_CP_PRINT_NAME]), in.imm, tile_ptr(ops[IPU_CP_PRINT_ADDR]),
                                ops[IPU_CP_PRINT_COUNT]);
            break;
        case IPU_CP_OP_COPY:
            memmove(tile_ptr(ops[IPU_CP_COPY_DST]), tile_ptr(ops[IPU_CP_COPY_SRC]), ops[IPU_CP_COPY_LENGTH]);
            break;
        default:
            bad_program(pc); /* the decoder accepted an opcode this runtime does not know */
        }
        if (r == BLOCK_END)
            return BLOCK_END;
        pc = in.next;
    }
    return BLOCK_DONE;
}

int ipu_rt_run(const uint32_t *program)
{
    uintptr_t addr = (uintptr_t)program;
    uintptr_t sram_end = IPU_TILE_SRAM_BASE + ipu_sram_size();
    if (addr < IPU_TILE_SRAM_BASE || addr >= sram_end || (addr & 3u) != 0)
        bad_program(0);
    /* The program's length is not passed in: the top-level block may reach
     * to the end of SRAM, and must END before that. */
    struct interp it = {program};
    size_t limit = (sram_end - addr) / sizeof(uint32_t);
    if (run_block(&it, 0, limit, 0) != BLOCK_END)
        bad_program(limit);
    return 0;
}
