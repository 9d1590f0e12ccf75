/* Control-program listing: a readable dump of an encoded program for debugging. */
#include <stdarg.h>
#include <stdio.h>

#include "ipu_fw/cp.h"
#include "ipu_fw/dtype.h"

/* Output that tracks the needed length and never writes past the buffer. */
struct out {
    char *buf;
    size_t len;
    size_t used;
};

static void emit(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->used < o->len ? o->len - o->used : 0;
    int n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->used += (size_t)n;
}

static void line(struct out *o, const struct ipu_cp_insn *in, unsigned depth)
{
    const uint32_t *ops = in->ops;
    emit(o, "%04lx %*s%s", (unsigned long)in->pc, (int)(2 * depth), "", ipu_cp_opcode_name(in->opcode));
    switch (in->opcode) {
    case IPU_CP_OP_SYNC:
        emit(o, " %s id=%lu", in->imm == IPU_SYNC_KIND_INTERNAL ? "internal" : "external",
             (unsigned long)ops[IPU_CP_SYNC_ID]);
        break;
    case IPU_CP_OP_EXCHANGE: emit(o, " list=0x%08lx", (unsigned long)ops[IPU_CP_EXCHANGE_LIST]); break;
    case IPU_CP_OP_EXECUTE: emit(o, " table=0x%08lx", (unsigned long)ops[IPU_CP_EXECUTE_TABLE]); break;
    case IPU_CP_OP_STREAM_COPY:
        emit(o, " id=%lu list=0x%08lx", (unsigned long)ops[IPU_CP_STREAM_SYNC_ID],
             (unsigned long)ops[IPU_CP_STREAM_LIST]);
        break;
    case IPU_CP_OP_REPEAT: emit(o, " count=%lu", (unsigned long)ops[IPU_CP_REPEAT_COUNT]); break;
    case IPU_CP_OP_IF:
        emit(o, " cond=0x%08lx/%lu", (unsigned long)ops[IPU_CP_IF_COND], (unsigned long)in->imm);
        break;
    case IPU_CP_OP_SWITCH:
        emit(o, " cond=0x%08lx/%lu cases=%lu", (unsigned long)ops[IPU_CP_SWITCH_COND], (unsigned long)in->imm,
             (unsigned long)ops[IPU_CP_SWITCH_CASES]);
        break;
    case IPU_CP_OP_WHILE:
        emit(o, " cond=0x%08lx/%lu%s", (unsigned long)ops[IPU_CP_WHILE_COND], (unsigned long)(in->imm & 0xffu),
             (in->imm & IPU_CP_WHILE_FALSE_FLAG) ? " while-false" : "");
        break;
    case IPU_CP_OP_PRINT_TENSOR:
        emit(o, " %s[%lu] at 0x%08lx name=0x%08lx", ipu_fw_dtype_name(in->imm), (unsigned long)ops[IPU_CP_PRINT_COUNT],
             (unsigned long)ops[IPU_CP_PRINT_ADDR], (unsigned long)ops[IPU_CP_PRINT_NAME]);
        break;
    case IPU_CP_OP_COPY:
        emit(o, " dst=0x%08lx src=0x%08lx len=%lu", (unsigned long)ops[IPU_CP_COPY_DST],
             (unsigned long)ops[IPU_CP_COPY_SRC], (unsigned long)ops[IPU_CP_COPY_LENGTH]);
        break;
    default: break;
    }
    emit(o, "\n");
}

/* Lists [start, end); returns 0 to go on, 1 after the top-level END or an error. */
static int list_block(struct out *o, const uint32_t *prog, size_t start, size_t end, unsigned depth);

/* Lists one labelled body of a structured instruction. */
static int list_body(struct out *o, const uint32_t *prog, const char *label, size_t at, uint32_t words,
                     unsigned depth)
{
    emit(o, "     %*s%s:\n", (int)(2 * depth + 2), "", label);
    return list_block(o, prog, at, at + words, depth + 2u);
}

static int list_bodies(struct out *o, const uint32_t *prog, const struct ipu_cp_insn *in, unsigned depth)
{
    const uint32_t *ops = in->ops;
    size_t at = in->body;
    switch (in->opcode) {
    case IPU_CP_OP_REPEAT:
        return list_body(o, prog, "body", at, ops[IPU_CP_REPEAT_BODY], depth);
    case IPU_CP_OP_IF:
        if (list_body(o, prog, "then", at, ops[IPU_CP_IF_THEN], depth))
            return 1;
        return list_body(o, prog, "else", at + ops[IPU_CP_IF_THEN], ops[IPU_CP_IF_ELSE], depth);
    case IPU_CP_OP_WHILE:
        if (list_body(o, prog, "condition", at, ops[IPU_CP_WHILE_COND_BODY], depth))
            return 1;
        return list_body(o, prog, "body", at + ops[IPU_CP_WHILE_COND_BODY], ops[IPU_CP_WHILE_BODY], depth);
    case IPU_CP_OP_SWITCH:
        for (uint32_t i = 0; i < ops[IPU_CP_SWITCH_CASES]; i++) {
            char label[32];
            snprintf(label, sizeof(label), "case %lu", (unsigned long)ipu_cp_switch_value(in, i));
            if (list_body(o, prog, label, at, ipu_cp_switch_words(in, i), depth))
                return 1;
            at += ipu_cp_switch_words(in, i);
        }
        return list_body(o, prog, "default", at, ops[IPU_CP_SWITCH_DEFAULT], depth);
    default:
        return 0;
    }
}

static int list_block(struct out *o, const uint32_t *prog, size_t start, size_t end, unsigned depth)
{
    size_t pc = start;
    while (pc < end) {
        struct ipu_cp_insn in;
        int status = ipu_cp_decode(prog, end, pc, &in);
        if (status != IPU_CP_OK || depth > 2u * IPU_CP_MAX_DEPTH) {
            emit(o, "%04lx %*s0x%08lx: %s\n", (unsigned long)pc, (int)(2 * depth), "", (unsigned long)prog[pc],
                 ipu_cp_strerror(status != IPU_CP_OK ? status : IPU_CP_ERR_TOO_DEEP));
            return 1;
        }
        line(o, &in, depth);
        if (list_bodies(o, prog, &in, depth))
            return 1;
        if (in.opcode == IPU_CP_OP_END && depth == 0)
            return 1;
        pc = in.next;
    }
    return 0;
}

size_t ipu_cp_format(const uint32_t *prog, size_t nwords, char *buf, size_t len)
{
    struct out o = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    if (list_block(&o, prog, 0, nwords, 0) == 0)
        emit(&o, "%04lx (no END)\n", (unsigned long)nwords);
    return o.used;
}
