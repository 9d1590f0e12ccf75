/* The per-tile control program: encoder (host graph compiler) and decoder (tile runtime).
 *
 * The encoding is the contract's ("The per-tile control program" in
 * docs/hardware.md, IPU_CP_* in ipu_card/hw.h). This code is compiled both for
 * the host (library ipu_cp, used by hostlib) and for the tile (inside
 * libipurt), so the two sides cannot disagree. It is freestanding C11: no
 * allocation, no stdio. */
#ifndef IPU_FW_CP_H
#define IPU_FW_CP_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of the encoder and decoder (0 is success). */
enum ipu_cp_status {
    IPU_CP_OK = 0,
    IPU_CP_ERR_NOSPACE,    /* encoder: the buffer is too small (length still counts every word) */
    IPU_CP_ERR_NESTING,    /* encoder: begin/else/case/end calls out of order */
    IPU_CP_ERR_OPERAND,    /* an operand is out of range (width, sync kind, dtype, id, case count) */
    IPU_CP_ERR_OPCODE,     /* decoder: unknown opcode */
    IPU_CP_ERR_LENGTH,     /* decoder: LENGTH does not match the opcode */
    IPU_CP_ERR_TRUNCATED,  /* decoder: the instruction or its bodies run past the enclosing block */
    IPU_CP_ERR_NO_END,     /* validator: the program has no END at top level */
    IPU_CP_ERR_TOO_DEEP,   /* validator: bodies nest deeper than IPU_CP_MAX_DEPTH */
};

/* Deepest nesting of structured instructions the validator and runtime accept;
 * it bounds the supervisor's stack use. */
#define IPU_CP_MAX_DEPTH 32u

/* Largest sync id: STREAM_COPY sets IPU_CP_STREAM_DONE_FLAG (bit 23) in it. */
#define IPU_CP_SYNC_ID_MAX (IPU_CP_STREAM_DONE_FLAG - 1u)

/* Largest SWITCH case count: LENGTH (8 bits) is 4 + 2 * num_cases. */
#define IPU_CP_SWITCH_MAX_CASES 125u

/* ---- Encoder ---------------------------------------------------------- */

/* Appends instructions to a caller-owned word buffer. With words == NULL (or
 * too small a capacity) nothing is written but `length` still counts, so a
 * first pass can measure the program. `error` keeps the first error. */
struct ipu_cp_builder {
    uint32_t *words;
    size_t capacity; /* in words */
    size_t length;   /* words emitted so far */
    int error;       /* first enum ipu_cp_status other than OK */
    unsigned depth;  /* open structured instructions */
};

/* An open structured instruction (REPEAT, IF, SWITCH, WHILE) whose body
 * lengths are patched in as its bodies are closed. Treat as opaque. */
struct ipu_cp_mark {
    size_t at;         /* word offset of the header */
    size_t part_start; /* word offset where the current body started */
    uint32_t opcode;
    uint32_t part;     /* which body is open (opcode-specific) */
    uint32_t cases;    /* SWITCH: number of cases */
};

/* Starts an empty program in words[0..capacity). */
void ipu_cp_builder_init(struct ipu_cp_builder *b, uint32_t *words, size_t capacity);

/* Returns b->error, or IPU_CP_ERR_NESTING if a structured instruction is
 * still open. Call after the last emit. */
int ipu_cp_builder_finish(const struct ipu_cp_builder *b);

/* END: the supervisor exits with code 0. */
void ipu_cp_emit_end(struct ipu_cp_builder *b);
/* SYNC of `kind` (IPU_SYNC_KIND_*); `id` is the host sync id for EXTERNAL. */
void ipu_cp_emit_sync(struct ipu_cp_builder *b, uint32_t kind, uint32_t id);
/* EXCHANGE of the list (count, EXCH_DESC...) at tile address `list_addr`. */
void ipu_cp_emit_exchange(struct ipu_cp_builder *b, uint32_t list_addr);
/* EXECUTE the compute-set table (count, VERTEX_ENTRY...) at `table_addr`. */
void ipu_cp_emit_execute(struct ipu_cp_builder *b, uint32_t table_addr);
/* STREAM_COPY: host sync `sync_id`, the HX_DESC list at `hx_list_addr`, then
 * host sync `sync_id | IPU_CP_STREAM_DONE_FLAG`. */
void ipu_cp_emit_stream_copy(struct ipu_cp_builder *b, uint32_t sync_id, uint32_t hx_list_addr);
/* PRINT_TENSOR of `num_elements` of `dtype` (IPU_DTYPE_*) at `addr`, labelled
 * with the NUL-terminated string at `name_addr`. */
void ipu_cp_emit_print_tensor(struct ipu_cp_builder *b, uint32_t dtype, uint32_t addr,
                              uint32_t num_elements, uint32_t name_addr);
/* COPY `length` bytes from `src_addr` to `dst_addr` within the tile. */
void ipu_cp_emit_copy(struct ipu_cp_builder *b, uint32_t dst_addr, uint32_t src_addr, uint32_t length);

/* REPEAT: emit the body between begin and end. */
struct ipu_cp_mark ipu_cp_begin_repeat(struct ipu_cp_builder *b, uint32_t count);
void ipu_cp_end_repeat(struct ipu_cp_builder *b, struct ipu_cp_mark *m);

/* IF on the `width`-byte (1, 2, 4) condition at `cond_addr`: then-body, then
 * ipu_cp_else, then else-body (may be empty), then ipu_cp_end_if. */
struct ipu_cp_mark ipu_cp_begin_if(struct ipu_cp_builder *b, uint32_t width, uint32_t cond_addr);
void ipu_cp_else(struct ipu_cp_builder *b, struct ipu_cp_mark *m);
void ipu_cp_end_if(struct ipu_cp_builder *b, struct ipu_cp_mark *m);

/* SWITCH on the condition at `cond_addr` with `num_cases` case values. Then
 * for each case in order: ipu_cp_case and its body; then ipu_cp_default and
 * the default body; then ipu_cp_end_switch. */
struct ipu_cp_mark ipu_cp_begin_switch(struct ipu_cp_builder *b, uint32_t width, uint32_t cond_addr,
                                       uint32_t num_cases, const uint32_t *case_values);
void ipu_cp_case(struct ipu_cp_builder *b, struct ipu_cp_mark *m);
void ipu_cp_default(struct ipu_cp_builder *b, struct ipu_cp_mark *m);
void ipu_cp_end_switch(struct ipu_cp_builder *b, struct ipu_cp_mark *m);

/* WHILE: condition body (computes the condition at `cond_addr`), then
 * ipu_cp_while_body, the loop body, ipu_cp_end_while. With `while_false` the
 * loop runs while the condition is zero. */
struct ipu_cp_mark ipu_cp_begin_while(struct ipu_cp_builder *b, uint32_t width, int while_false,
                                      uint32_t cond_addr);
void ipu_cp_while_body(struct ipu_cp_builder *b, struct ipu_cp_mark *m);
void ipu_cp_end_while(struct ipu_cp_builder *b, struct ipu_cp_mark *m);

/* ---- Decoder ---------------------------------------------------------- */

/* One decoded instruction. Word offsets are from the start of the program. */
struct ipu_cp_insn {
    uint32_t opcode;
    uint32_t length;      /* fixed part, header included */
    uint32_t imm;
    size_t pc;            /* offset of the header */
    size_t body;          /* offset of the first body word (pc + length) */
    size_t next;          /* offset after the fixed part and every body */
    const uint32_t *ops;  /* operands: the words after the header */
};

/* Operand indices into insn.ops, by opcode, as the contract orders them. */
enum {
    IPU_CP_SYNC_ID = 0,
    IPU_CP_EXCHANGE_LIST = 0,
    IPU_CP_EXECUTE_TABLE = 0,
    IPU_CP_STREAM_SYNC_ID = 0, IPU_CP_STREAM_LIST = 1,
    IPU_CP_REPEAT_COUNT = 0, IPU_CP_REPEAT_BODY = 1,
    IPU_CP_IF_COND = 0, IPU_CP_IF_THEN = 1, IPU_CP_IF_ELSE = 2,
    IPU_CP_SWITCH_COND = 0, IPU_CP_SWITCH_CASES = 1, IPU_CP_SWITCH_DEFAULT = 2, IPU_CP_SWITCH_TABLE = 3,
    IPU_CP_WHILE_COND = 0, IPU_CP_WHILE_COND_BODY = 1, IPU_CP_WHILE_BODY = 2,
    IPU_CP_PRINT_ADDR = 0, IPU_CP_PRINT_COUNT = 1, IPU_CP_PRINT_NAME = 2,
    IPU_CP_COPY_DST = 0, IPU_CP_COPY_SRC = 1, IPU_CP_COPY_LENGTH = 2,
};

/* Decodes the instruction at word offset `pc` of `prog`, which belongs to a
 * block ending at word offset `limit`: the instruction and all its bodies must
 * end by then. Checks opcode, LENGTH, immediates and body sizes (not the
 * bodies' contents). Returns IPU_CP_OK or an error; *insn is filled either way
 * as far as it could be decoded. */
int ipu_cp_decode(const uint32_t *prog, size_t limit, size_t pc, struct ipu_cp_insn *insn);

/* SWITCH helpers: value and body length of case i (< ops[IPU_CP_SWITCH_CASES]). */
static inline uint32_t ipu_cp_switch_value(const struct ipu_cp_insn *insn, uint32_t i)
{
    return insn->ops[IPU_CP_SWITCH_TABLE + 2u * i];
}
static inline uint32_t ipu_cp_switch_words(const struct ipu_cp_insn *insn, uint32_t i)
{
    return insn->ops[IPU_CP_SWITCH_TABLE + 2u * i + 1u];
}

/* Checks a whole program of `nwords` words: every instruction decodes, bodies
 * contain whole instructions, nesting is at most IPU_CP_MAX_DEPTH, and an END
 * exists at top level. On error *bad_pc (if not NULL) is the offending word
 * offset. Returns IPU_CP_OK or an error. */
int ipu_cp_validate(const uint32_t *prog, size_t nwords, size_t *bad_pc);

/* Writes a listing of the program (one instruction per line: word offset,
 * name, operands; bodies indented) into buf, NUL-terminated and truncated to
 * len like snprintf. Stops after the top-level END, or at the first word that
 * does not decode (that line names the error). Returns the length the whole
 * listing needs. For debugging graph programs and error messages. */
size_t ipu_cp_format(const uint32_t *prog, size_t nwords, char *buf, size_t len);

/* The contract's name of an opcode ("SYNC"), or NULL if unknown. */
const char *ipu_cp_opcode_name(uint32_t opcode);

/* A short English description of an enum ipu_cp_status value. */
const char *ipu_cp_strerror(int status);

/* Number of words of the fixed part of `opcode`, or 0 if unknown (SWITCH: 4,
 * plus 2 per case). */
uint32_t ipu_cp_fixed_length(uint32_t opcode);

#ifdef __cplusplus
}
#endif
#endif /* IPU_FW_CP_H */
