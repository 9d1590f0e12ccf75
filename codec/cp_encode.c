/* Control-program encoder: appends contract-encoded instructions to a word buffer. */
#include "ipu_fw/cp.h"

/* Which body of a structured instruction is open (ipu_cp_mark.part). */
enum { PART_FIRST = 0, PART_SECOND = 1 };

static void fail(struct ipu_cp_builder *b, int status)
{
    if (b->error == IPU_CP_OK)
        b->error = status;
}

static void put(struct ipu_cp_builder *b, uint32_t word)
{
    if (b->words != NULL && b->length < b->capacity)
        b->words[b->length] = word;
    else
        fail(b, IPU_CP_ERR_NOSPACE);
    b->length++;
}

/* Overwrites an already emitted word (a body length), if it was stored. */
static void patch(struct ipu_cp_builder *b, size_t at, uint32_t word)
{
    if (b->words != NULL && at < b->capacity)
        b->words[at] = word;
}

static void header(struct ipu_cp_builder *b, uint32_t opcode, uint32_t length, uint32_t imm)
{
    put(b, ipu_cp_header(opcode, length, imm));
}

static int width_ok(uint32_t width)
{
    return width == 1u || width == 2u || width == 4u;
}

void ipu_cp_builder_init(struct ipu_cp_builder *b, uint32_t *words, size_t capacity)
{
    b->words = words;
    b->capacity = words != NULL ? capacity : 0;
    b->length = 0;
    b->error = IPU_CP_OK;
    b->depth = 0;
}

int ipu_cp_builder_finish(const struct ipu_cp_builder *b)
{
    if (b->error != IPU_CP_OK)
        return b->error;
    return b->depth == 0 ? IPU_CP_OK : IPU_CP_ERR_NESTING;
}

void ipu_cp_emit_end(struct ipu_cp_builder *b)
{
    header(b, IPU_CP_OP_END, 1, 0);
}

void ipu_cp_emit_sync(struct ipu_cp_builder *b, uint32_t kind, uint32_t id)
{
    if ((kind != IPU_SYNC_KIND_INTERNAL && kind != IPU_SYNC_KIND_EXTERNAL) || id > IPU_CP_SYNC_ID_MAX)
        fail(b, IPU_CP_ERR_OPERAND);
    header(b, IPU_CP_OP_SYNC, 2, kind);
    put(b, id);
}

void ipu_cp_emit_exchange(struct ipu_cp_builder *b, uint32_t list_addr)
{
    header(b, IPU_CP_OP_EXCHANGE, 2, 0);
    put(b, list_addr);
}

void ipu_cp_emit_execute(struct ipu_cp_builder *b, uint32_t table_addr)
{
    header(b, IPU_CP_OP_EXECUTE, 2, 0);
    put(b, table_addr);
}

void ipu_cp_emit_stream_copy(struct ipu_cp_builder *b, uint32_t sync_id, uint32_t hx_list_addr)
{
    if (sync_id > IPU_CP_SYNC_ID_MAX)
        fail(b, IPU_CP_ERR_OPERAND);
    header(b, IPU_CP_OP_STREAM_COPY, 3, 0);
    put(b, sync_id);
    put(b, hx_list_addr);
}

void ipu_cp_emit_print_tensor(struct ipu_cp_builder *b, uint32_t dtype, uint32_t addr,
                              uint32_t num_elements, uint32_t name_addr)
{
    if (dtype > IPU_DTYPE_BOOL)
        fail(b, IPU_CP_ERR_OPERAND);
    header(b, IPU_CP_OP_PRINT_TENSOR, 4, dtype);
    put(b, addr);
    put(b, num_elements);
    put(b, name_addr);
}

void ipu_cp_emit_copy(struct ipu_cp_builder *b, uint32_t dst_addr, uint32_t src_addr, uint32_t length)
{
    header(b, IPU_CP_OP_COPY, 4, 0);
    put(b, dst_addr);
    put(b, src_addr);
    put(b, length);
}

/* Opens a structured instruction whose header is about to be emitted. */
static struct ipu_cp_mark open_mark(struct ipu_cp_builder *b, uint32_t opcode)
{
    struct ipu_cp_mark m = {b->length, 0, opcode, PART_FIRST, 0};
    b->depth++;
    return m;
}

/* Closes the body that started at m->part_start into body-length operand `slot`. */
static void close_part(struct ipu_cp_builder *b, const struct ipu_cp_mark *m, size_t slot)
{
    patch(b, m->at + 1u + slot, (uint32_t)(b->length - m->part_start));
}

/* True (and records an error otherwise) when `m` is an open `opcode` in part `part`. */
static int expect(struct ipu_cp_builder *b, const struct ipu_cp_mark *m, uint32_t opcode, uint32_t part)
{
    if (m->opcode == opcode && m->part == part && b->depth > 0)
        return 1;
    fail(b, IPU_CP_ERR_NESTING);
    return 0;
}

static void close_mark(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    b->depth--;
    m->part = UINT32_MAX; /* a second end call is a nesting error */
}

struct ipu_cp_mark ipu_cp_begin_repeat(struct ipu_cp_builder *b, uint32_t count)
{
    struct ipu_cp_mark m = open_mark(b, IPU_CP_OP_REPEAT);
    header(b, IPU_CP_OP_REPEAT, 3, 0);
    put(b, count);
    put(b, 0);
    m.part_start = b->length;
    return m;
}

void ipu_cp_end_repeat(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (!expect(b, m, IPU_CP_OP_REPEAT, PART_FIRST))
        return;
    close_part(b, m, IPU_CP_REPEAT_BODY);
    close_mark(b, m);
}

struct ipu_cp_mark ipu_cp_begin_if(struct ipu_cp_builder *b, uint32_t width, uint32_t cond_addr)
{
    struct ipu_cp_mark m = open_mark(b, IPU_CP_OP_IF);
    if (!width_ok(width))
        fail(b, IPU_CP_ERR_OPERAND);
    header(b, IPU_CP_OP_IF, 4, width);
    put(b, cond_addr);
    put(b, 0);
    put(b, 0);
    m.part_start = b->length;
    return m;
}

void ipu_cp_else(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (!expect(b, m, IPU_CP_OP_IF, PART_FIRST))
        return;
    close_part(b, m, IPU_CP_IF_THEN);
    m->part = PART_SECOND;
    m->part_start = b->length;
}

void ipu_cp_end_if(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (m->opcode == IPU_CP_OP_IF && m->part == PART_FIRST)
        ipu_cp_else(b, m); /* no else-body: it is empty */
    if (!expect(b, m, IPU_CP_OP_IF, PART_SECOND))
        return;
    close_part(b, m, IPU_CP_IF_ELSE);
    close_mark(b, m);
}

/* SWITCH parts: 0 = before the first case, 1 + i = case i, UINT32_MAX - 1 = default. */
#define SWITCH_DEFAULT_PART (UINT32_MAX - 1u)

struct ipu_cp_mark ipu_cp_begin_switch(struct ipu_cp_builder *b, uint32_t width, uint32_t cond_addr,
                                       uint32_t num_cases, const uint32_t *case_values)
{
    struct ipu_cp_mark m = open_mark(b, IPU_CP_OP_SWITCH);
    if (!width_ok(width) || num_cases > IPU_CP_SWITCH_MAX_CASES || (num_cases > 0 && case_values == NULL)) {
        fail(b, IPU_CP_ERR_OPERAND);
        if (num_cases > IPU_CP_SWITCH_MAX_CASES)
            num_cases = IPU_CP_SWITCH_MAX_CASES;
    }
    header(b, IPU_CP_OP_SWITCH, 4u + 2u * num_cases, width);
    put(b, cond_addr);
    put(b, num_cases);
    put(b, 0);
    for (uint32_t i = 0; i < num_cases; i++) {
        put(b, case_values != NULL ? case_values[i] : 0);
        put(b, 0);
    }
    m.cases = num_cases;
    m.part_start = b->length;
    return m;
}

/* Closes the current SWITCH part (a case body, or nothing before the first case). */
static void switch_close_part(struct ipu_cp_builder *b, const struct ipu_cp_mark *m)
{
    if (m->part >= 1u && m->part <= m->cases)
        close_part(b, m, IPU_CP_SWITCH_TABLE + 2u * (m->part - 1u) + 1u);
}

void ipu_cp_case(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (m->opcode != IPU_CP_OP_SWITCH || m->part >= m->cases || b->depth == 0) {
        fail(b, IPU_CP_ERR_NESTING);
        return;
    }
    switch_close_part(b, m);
    m->part++;
    m->part_start = b->length;
}

void ipu_cp_default(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (!expect(b, m, IPU_CP_OP_SWITCH, m->cases)) /* every case must have been opened */
        return;
    switch_close_part(b, m);
    m->part = SWITCH_DEFAULT_PART;
    m->part_start = b->length;
}

void ipu_cp_end_switch(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (m->opcode == IPU_CP_OP_SWITCH && m->part == m->cases)
        ipu_cp_default(b, m); /* no default call: the default body is empty */
    if (!expect(b, m, IPU_CP_OP_SWITCH, SWITCH_DEFAULT_PART))
        return;
    close_part(b, m, IPU_CP_SWITCH_DEFAULT);
    close_mark(b, m);
}

struct ipu_cp_mark ipu_cp_begin_while(struct ipu_cp_builder *b, uint32_t width, int while_false,
                                      uint32_t cond_addr)
{
    struct ipu_cp_mark m = open_mark(b, IPU_CP_OP_WHILE);
    if (!width_ok(width))
        fail(b, IPU_CP_ERR_OPERAND);
    header(b, IPU_CP_OP_WHILE, 4, width | (while_false ? IPU_CP_WHILE_FALSE_FLAG : 0u));
    put(b, cond_addr);
    put(b, 0);
    put(b, 0);
    m.part_start = b->length;
    return m;
}

void ipu_cp_while_body(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (!expect(b, m, IPU_CP_OP_WHILE, PART_FIRST))
        return;
    close_part(b, m, IPU_CP_WHILE_COND_BODY);
    m->part = PART_SECOND;
    m->part_start = b->length;
}

void ipu_cp_end_while(struct ipu_cp_builder *b, struct ipu_cp_mark *m)
{
    if (!expect(b, m, IPU_CP_OP_WHILE, PART_SECOND))
        return;
    close_part(b, m, IPU_CP_WHILE_BODY);
    close_mark(b, m);
}
