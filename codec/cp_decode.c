/* Control-program decoder and validator, shared by the tile runtime and the host. */
#include "ipu_fw/cp.h"

/* Fixed lengths by opcode, from the contract (SWITCH adds 2 words per case). */
static const uint8_t fixed_length[] = {
    [IPU_CP_OP_END] = 1,          [IPU_CP_OP_SYNC] = 2,   [IPU_CP_OP_EXCHANGE] = 2,
    [IPU_CP_OP_EXECUTE] = 2,      [IPU_CP_OP_STREAM_COPY] = 3, [IPU_CP_OP_REPEAT] = 3,
    [IPU_CP_OP_IF] = 4,           [IPU_CP_OP_SWITCH] = 4, [IPU_CP_OP_WHILE] = 4,
    [IPU_CP_OP_PRINT_TENSOR] = 4, [IPU_CP_OP_COPY] = 4,
};

static const char *const opcode_names[] = {
    [IPU_CP_OP_END] = "END",         [IPU_CP_OP_SYNC] = "SYNC",       [IPU_CP_OP_EXCHANGE] = "EXCHANGE",
    [IPU_CP_OP_EXECUTE] = "EXECUTE", [IPU_CP_OP_STREAM_COPY] = "STREAM_COPY",
    [IPU_CP_OP_REPEAT] = "REPEAT",   [IPU_CP_OP_IF] = "IF",           [IPU_CP_OP_SWITCH] = "SWITCH",
    [IPU_CP_OP_WHILE] = "WHILE",     [IPU_CP_OP_PRINT_TENSOR] = "PRINT_TENSOR", [IPU_CP_OP_COPY] = "COPY",
};

#define NUM_OPCODES (sizeof(fixed_length) / sizeof(fixed_length[0]))

uint32_t ipu_cp_fixed_length(uint32_t opcode)
{
    return opcode < NUM_OPCODES ? fixed_length[opcode] : 0;
}

const char *ipu_cp_opcode_name(uint32_t opcode)
{
    return opcode < NUM_OPCODES ? opcode_names[opcode] : NULL;
}

const char *ipu_cp_strerror(int status)
{
    switch (status) {
    case IPU_CP_OK: return "ok";
    case IPU_CP_ERR_NOSPACE: return "control-program buffer too small";
    case IPU_CP_ERR_NESTING: return "structured instruction calls out of order";
    case IPU_CP_ERR_OPERAND: return "operand out of range";
    case IPU_CP_ERR_OPCODE: return "unknown opcode";
    case IPU_CP_ERR_LENGTH: return "LENGTH does not match the opcode";
    case IPU_CP_ERR_TRUNCATED: return "instruction runs past its enclosing block";
    case IPU_CP_ERR_NO_END: return "no END at top level";
    case IPU_CP_ERR_TOO_DEEP: return "structured instructions nest too deeply";
    default: return "unknown control-program error";
    }
}

static int width_ok(uint32_t width)
{
    return width == 1u || width == 2u || width == 4u;
}

/* Sum of the body lengths of a decoded fixed part; 64-bit so that hostile
 * operands cannot wrap on a 32-bit tile. */
static uint64_t body_words(const struct ipu_cp_insn *insn)
{
    const uint32_t *ops = insn->ops;
    switch (insn->opcode) {
    case IPU_CP_OP_REPEAT: return ops[IPU_CP_REPEAT_BODY];
    case IPU_CP_OP_IF: return (uint64_t)ops[IPU_CP_IF_THEN] + ops[IPU_CP_IF_ELSE];
    case IPU_CP_OP_WHILE: return (uint64_t)ops[IPU_CP_WHILE_COND_BODY] + ops[IPU_CP_WHILE_BODY];
    case IPU_CP_OP_SWITCH: {
        uint64_t sum = ops[IPU_CP_SWITCH_DEFAULT];
        for (uint32_t i = 0; i < ops[IPU_CP_SWITCH_CASES]; i++)
            sum += ipu_cp_switch_words(insn, i);
        return sum;
    }
    default: return 0;
    }
}

/* Checks the immediates and operands that have a fixed range. */
static int check_operands(const struct ipu_cp_insn *insn)
{
    const uint32_t *ops = insn->ops;
    switch (insn->opcode) {
    case IPU_CP_OP_SYNC:
        if (insn->imm != IPU_SYNC_KIND_INTERNAL && insn->imm != IPU_SYNC_KIND_EXTERNAL)
            return IPU_CP_ERR_OPERAND;
        return ops[IPU_CP_SYNC_ID] <= IPU_CP_SYNC_ID_MAX ? IPU_CP_OK : IPU_CP_ERR_OPERAND;
    case IPU_CP_OP_STREAM_COPY:
        return ops[IPU_CP_STREAM_SYNC_ID] <= IPU_CP_SYNC_ID_MAX ? IPU_CP_OK : IPU_CP_ERR_OPERAND;
    case IPU_CP_OP_IF:
    case IPU_CP_OP_SWITCH:
        return width_ok(insn->imm) ? IPU_CP_OK : IPU_CP_ERR_OPERAND;
    case IPU_CP_OP_WHILE:
        if (insn->imm & ~(0xffu | IPU_CP_WHILE_FALSE_FLAG))
            return IPU_CP_ERR_OPERAND;
        return width_ok(insn->imm & 0xffu) ? IPU_CP_OK : IPU_CP_ERR_OPERAND;
    case IPU_CP_OP_PRINT_TENSOR:
        return insn->imm <= IPU_DTYPE_BOOL ? IPU_CP_OK : IPU_CP_ERR_OPERAND;
    default:
        return IPU_CP_OK;
    }
}

int ipu_cp_decode(const uint32_t *prog, size_t limit, size_t pc, struct ipu_cp_insn *insn)
{
    insn->pc = pc;
    insn->opcode = insn->length = insn->imm = 0;
    insn->body = insn->next = pc;
    insn->ops = NULL;
    if (pc >= limit)
        return IPU_CP_ERR_TRUNCATED;

    uint32_t word = prog[pc];
    insn->opcode = (word & IPU_CP_OPCODE_MASK) >> IPU_CP_OPCODE_SHIFT;
    insn->length = (word & IPU_CP_LENGTH_MASK) >> IPU_CP_LENGTH_SHIFT;
    insn->imm = (word & IPU_CP_IMM_MASK) >> IPU_CP_IMM_SHIFT;
    insn->ops = prog + pc + 1;

    uint32_t fixed = ipu_cp_fixed_length(insn->opcode);
    if (fixed == 0)
        return IPU_CP_ERR_OPCODE;
    if (insn->length < fixed)
        return IPU_CP_ERR_LENGTH;
    if (insn->length > limit - pc)
        return IPU_CP_ERR_TRUNCATED;
    if (insn->opcode == IPU_CP_OP_SWITCH) {
        uint32_t cases = insn->ops[IPU_CP_SWITCH_CASES];
        if (cases > IPU_CP_SWITCH_MAX_CASES || insn->length != fixed + 2u * cases)
            return IPU_CP_ERR_LENGTH;
    } else if (insn->length != fixed) {
        return IPU_CP_ERR_LENGTH;
    }
    /* Immediates must be zero where the contract defines none. */
    int status = check_operands(insn);
    if (status != IPU_CP_OK)
        return status;
    if (insn->imm != 0 && (insn->opcode == IPU_CP_OP_END || insn->opcode == IPU_CP_OP_EXCHANGE ||
                           insn->opcode == IPU_CP_OP_EXECUTE || insn->opcode == IPU_CP_OP_STREAM_COPY ||
                           insn->opcode == IPU_CP_OP_REPEAT || insn->opcode == IPU_CP_OP_COPY))
        return IPU_CP_ERR_OPERAND;

    insn->body = pc + insn->length;
    uint64_t bodies = body_words(insn);
    if (bodies > (uint64_t)(limit - insn->body))
        return IPU_CP_ERR_TRUNCATED;
    insn->next = insn->body + (size_t)bodies;
    return IPU_CP_OK;
}

/* Validates the instructions of the block [start, end); sets *end_seen when an
 * END is met (the rest of a top-level program is then never run). */
static int validate_block(const uint32_t *prog, size_t start, size_t end, unsigned depth, int top,
                          size_t *bad_pc, int *end_seen);

/* Validates the consecutive bodies of a structured instruction. */
static int validate_bodies(const uint32_t *prog, const struct ipu_cp_insn *insn, unsigned depth, size_t *bad_pc)
{
    uint32_t lengths[2 + IPU_CP_SWITCH_MAX_CASES];
    uint32_t n = 0;
    const uint32_t *ops = insn->ops;
    switch (insn->opcode) {
    case IPU_CP_OP_REPEAT: lengths[n++] = ops[IPU_CP_REPEAT_BODY]; break;
    case IPU_CP_OP_IF: lengths[n++] = ops[IPU_CP_IF_THEN]; lengths[n++] = ops[IPU_CP_IF_ELSE]; break;
    case IPU_CP_OP_WHILE:
        lengths[n++] = ops[IPU_CP_WHILE_COND_BODY];
        lengths[n++] = ops[IPU_CP_WHILE_BODY];
        break;
    case IPU_CP_OP_SWITCH:
        for (uint32_t i = 0; i < ops[IPU_CP_SWITCH_CASES]; i++)
            lengths[n++] = ipu_cp_switch_words(insn, i);
        lengths[n++] = ops[IPU_CP_SWITCH_DEFAULT];
        break;
    default: return IPU_CP_OK;
    }
    if (depth >= IPU_CP_MAX_DEPTH) {
        *bad_pc = insn->pc;
        return IPU_CP_ERR_TOO_DEEP;
    }
    size_t at = insn->body;
    for (uint32_t i = 0; i < n; i++) {
        int ignored_end = 0;
        int status = validate_block(prog, at, at + lengths[i], depth + 1u, 0, bad_pc, &ignored_end);
        if (status != IPU_CP_OK)
            return status;
        at += lengths[i];
    }
    return IPU_CP_OK;
}

static int validate_block(const uint32_t *prog, size_t start, size_t end, unsigned depth, int top,
                          size_t *bad_pc, int *end_seen)
{
    size_t pc = start;
    while (pc < end) {
        struct ipu_cp_insn insn;
        int status = ipu_cp_decode(prog, end, pc, &insn);
        if (status == IPU_CP_OK)
            status = validate_bodies(prog, &insn, depth, bad_pc);
        else
            *bad_pc = pc;
        if (status != IPU_CP_OK)
            return status;
        if (insn.opcode == IPU_CP_OP_END) {
            *end_seen = 1;
            if (top)
                return IPU_CP_OK;
        }
        pc = insn.next;
    }
    return IPU_CP_OK;
}

int ipu_cp_validate(const uint32_t *prog, size_t nwords, size_t *bad_pc)
{
    size_t dummy = 0;
    int end_seen = 0;
    if (bad_pc == NULL)
        bad_pc = &dummy;
    int status = validate_block(prog, 0, nwords, 0, 1, bad_pc, &end_seen);
    if (status == IPU_CP_OK && !end_seen) {
        *bad_pc = nwords;
        return IPU_CP_ERR_NO_END;
    }
    return status;
}
