/* Unit tests of the control-program decoder and validator, including hostile encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_fw/cp.h"

#define H(op, len, imm) ipu_cp_header(IPU_CP_OP_##op, len, imm)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A program that uses every opcode, built with the encoder. */
static size_t build_all_opcodes(uint32_t *buf, size_t cap)
{
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, cap);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_exchange(&b, 0x100100);
    ipu_cp_emit_execute(&b, 0x100200);
    ipu_cp_emit_stream_copy(&b, 9, 0x100300);
    struct ipu_cp_mark r = ipu_cp_begin_repeat(&b, 3);
    struct ipu_cp_mark i = ipu_cp_begin_if(&b, 4, 0x100400);
    ipu_cp_emit_copy(&b, 0x100500, 0x100600, 8);
    ipu_cp_else(&b, &i);
    const uint32_t values[] = {1, 2, 3};
    struct ipu_cp_mark s = ipu_cp_begin_switch(&b, 2, 0x100700, 3, values);
    ipu_cp_case(&b, &s);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_EXTERNAL, 5);
    ipu_cp_case(&b, &s);
    ipu_cp_case(&b, &s);
    ipu_cp_emit_end(&b);
    ipu_cp_default(&b, &s);
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_HALF, 0x100800, 2, 0x100900);
    ipu_cp_end_switch(&b, &s);
    ipu_cp_end_if(&b, &i);
    ipu_cp_end_repeat(&b, &r);
    struct ipu_cp_mark w = ipu_cp_begin_while(&b, 1, 0, 0x100a00);
    ipu_cp_emit_execute(&b, 0x100b00);
    ipu_cp_while_body(&b, &w);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_end_while(&b, &w);
    ipu_cp_emit_end(&b);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    return b.length;
}

static void test_decodes_every_opcode_of_an_encoded_program(void **state)
{
    (void)state;
    uint32_t prog[128];
    size_t n = build_all_opcodes(prog, N(prog));
    assert_int_equal(ipu_cp_validate(prog, n, NULL), IPU_CP_OK);

    /* Walk the top level and check what the decoder reports. */
    const uint32_t want_ops[] = {IPU_CP_OP_SYNC, IPU_CP_OP_EXCHANGE, IPU_CP_OP_EXECUTE, IPU_CP_OP_STREAM_COPY,
                                 IPU_CP_OP_REPEAT, IPU_CP_OP_WHILE, IPU_CP_OP_END};
    size_t pc = 0;
    for (size_t k = 0; k < N(want_ops); k++) {
        struct ipu_cp_insn in;
        assert_int_equal(ipu_cp_decode(prog, n, pc, &in), IPU_CP_OK);
        assert_int_equal(in.opcode, want_ops[k]);
        assert_int_equal(in.pc, pc);
        assert_int_equal(in.body, pc + in.length);
        if (in.opcode == IPU_CP_OP_STREAM_COPY) {
            assert_int_equal(in.ops[IPU_CP_STREAM_SYNC_ID], 9);
            assert_int_equal(in.ops[IPU_CP_STREAM_LIST], 0x100300);
        }
        if (in.opcode == IPU_CP_OP_REPEAT) {
            assert_int_equal(in.ops[IPU_CP_REPEAT_COUNT], 3);
            /* The repeat's body is one IF; decode it and its SWITCH. */
            struct ipu_cp_insn f, s;
            assert_int_equal(ipu_cp_decode(prog, in.next, in.body, &f), IPU_CP_OK);
            assert_int_equal(f.opcode, IPU_CP_OP_IF);
            assert_int_equal(f.next, in.next);
            assert_int_equal(f.ops[IPU_CP_IF_THEN], 4);
            size_t else_at = f.body + f.ops[IPU_CP_IF_THEN];
            assert_int_equal(ipu_cp_decode(prog, f.next, else_at, &s), IPU_CP_OK);
            assert_int_equal(s.opcode, IPU_CP_OP_SWITCH);
            assert_int_equal(s.length, 4 + 2 * 3);
            assert_int_equal(s.imm, 2);
            assert_int_equal(s.ops[IPU_CP_SWITCH_CASES], 3);
            assert_int_equal(ipu_cp_switch_value(&s, 2), 3);
            assert_int_equal(ipu_cp_switch_words(&s, 0), 2);
            assert_int_equal(ipu_cp_switch_words(&s, 1), 0);
            assert_int_equal(ipu_cp_switch_words(&s, 2), 1);
            assert_int_equal(s.ops[IPU_CP_SWITCH_DEFAULT], 4);
        }
        if (in.opcode == IPU_CP_OP_WHILE) {
            assert_int_equal(in.imm, 1);
            assert_int_equal(in.ops[IPU_CP_WHILE_COND_BODY], 2);
            assert_int_equal(in.ops[IPU_CP_WHILE_BODY], 2);
        }
        pc = in.next;
    }
    assert_int_equal(pc, n);
}

static void test_unknown_opcode(void **state)
{
    (void)state;
    const uint32_t prog[] = {ipu_cp_header(11, 1, 0), H(END, 1, 0)};
    struct ipu_cp_insn in;
    assert_int_equal(ipu_cp_decode(prog, N(prog), 0, &in), IPU_CP_ERR_OPCODE);
    size_t bad = 99;
    assert_int_equal(ipu_cp_validate(prog, N(prog), &bad), IPU_CP_ERR_OPCODE);
    assert_int_equal(bad, 0);
}

static void test_wrong_length(void **state)
{
    (void)state;
    struct ipu_cp_insn in;
    const uint32_t too_long[] = {H(SYNC, 3, 1), 0, 0, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(too_long, N(too_long), 0, &in), IPU_CP_ERR_LENGTH);
    const uint32_t too_short[] = {H(COPY, 2, 0), 0, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(too_short, N(too_short), 0, &in), IPU_CP_ERR_LENGTH);
    /* SWITCH LENGTH must be 4 + 2 * num_cases. */
    const uint32_t bad_switch[] = {H(SWITCH, 6, 4), 0x100000, 2, 0, 1, 0, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(bad_switch, N(bad_switch), 0, &in), IPU_CP_ERR_LENGTH);
}

static void test_bad_operands(void **state)
{
    (void)state;
    struct ipu_cp_insn in;
    const uint32_t bad_kind[] = {H(SYNC, 2, 0), 0};
    assert_int_equal(ipu_cp_decode(bad_kind, 2, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t bad_id[] = {H(SYNC, 2, 2), IPU_CP_STREAM_DONE_FLAG};
    assert_int_equal(ipu_cp_decode(bad_id, 2, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t bad_width[] = {H(IF, 4, 3), 0, 0, 0};
    assert_int_equal(ipu_cp_decode(bad_width, 4, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t bad_while_flags[] = {H(WHILE, 4, 4 | 0x200), 0, 0, 0};
    assert_int_equal(ipu_cp_decode(bad_while_flags, 4, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t bad_dtype[] = {H(PRINT_TENSOR, 4, 9), 0, 0, 0};
    assert_int_equal(ipu_cp_decode(bad_dtype, 4, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t stray_imm[] = {H(END, 1, 1)};
    assert_int_equal(ipu_cp_decode(stray_imm, 1, 0, &in), IPU_CP_ERR_OPERAND);
    const uint32_t while_false_ok[] = {H(WHILE, 4, 2 | IPU_CP_WHILE_FALSE_FLAG), 0, 0, 0};
    assert_int_equal(ipu_cp_decode(while_false_ok, 4, 0, &in), IPU_CP_OK);
}

static void test_truncation_and_hostile_body_lengths(void **state)
{
    (void)state;
    struct ipu_cp_insn in;
    /* The fixed part runs past the limit. */
    const uint32_t cut[] = {H(COPY, 4, 0), 1, 2};
    assert_int_equal(ipu_cp_decode(cut, N(cut), 0, &in), IPU_CP_ERR_TRUNCATED);
    /* pc at the limit. */
    assert_int_equal(ipu_cp_decode(cut, 0, 0, &in), IPU_CP_ERR_TRUNCATED);
    /* A body longer than the program. */
    const uint32_t long_body[] = {H(REPEAT, 3, 0), 1, 5, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(long_body, N(long_body), 0, &in), IPU_CP_ERR_TRUNCATED);
    /* Body lengths whose 32-bit sum wraps to a small number. */
    const uint32_t wrap[] = {H(IF, 4, 4), 0, 0xffffffffu, 2, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(wrap, N(wrap), 0, &in), IPU_CP_ERR_TRUNCATED);
    const uint32_t wrap_switch[] = {H(SWITCH, 6, 4), 0, 1, 0x80000000u, 7, 0x80000000u, H(END, 1, 0)};
    assert_int_equal(ipu_cp_decode(wrap_switch, N(wrap_switch), 0, &in), IPU_CP_ERR_TRUNCATED);
    /* A body must hold whole instructions: the COPY straddles the repeat's end. */
    const uint32_t straddle[] = {H(REPEAT, 3, 0), 1, 2, H(COPY, 4, 0), 1, 2, 3, H(END, 1, 0)};
    size_t bad = 0;
    assert_int_equal(ipu_cp_validate(straddle, N(straddle), &bad), IPU_CP_ERR_TRUNCATED);
    assert_int_equal(bad, 3);
}

static void test_validate_requires_top_level_end(void **state)
{
    (void)state;
    /* An END inside a body ends the program at run time, but the top level still needs one. */
    const uint32_t only_nested_end[] = {H(REPEAT, 3, 0), 1, 1, H(END, 1, 0)};
    size_t bad = 0;
    assert_int_equal(ipu_cp_validate(only_nested_end, N(only_nested_end), &bad), IPU_CP_ERR_NO_END);
    assert_int_equal(bad, N(only_nested_end));
    /* Words after the top-level END are never run and not checked. */
    const uint32_t trailing[] = {H(END, 1, 0), 0xffffffffu};
    assert_int_equal(ipu_cp_validate(trailing, N(trailing), NULL), IPU_CP_OK);
    assert_int_equal(ipu_cp_validate(trailing, 0, NULL), IPU_CP_ERR_NO_END);
}

static void test_validate_limits_depth(void **state)
{
    (void)state;
    /* IPU_CP_MAX_DEPTH + 1 nested REPEATs around an END. */
    enum { DEPTH = IPU_CP_MAX_DEPTH + 1 };
    uint32_t prog[3 * DEPTH + 2];
    for (uint32_t d = 0; d < DEPTH; d++) {
        prog[3 * d] = H(REPEAT, 3, 0);
        prog[3 * d + 1] = 1;
        prog[3 * d + 2] = 3u * (DEPTH - d - 1u) + 1u;
    }
    prog[3 * DEPTH] = H(END, 1, 0);
    prog[3 * DEPTH + 1] = H(END, 1, 0);
    size_t bad = 0;
    assert_int_equal(ipu_cp_validate(prog, N(prog), &bad), IPU_CP_ERR_TOO_DEEP);
    assert_int_equal(bad, 3u * IPU_CP_MAX_DEPTH);
    /* One level less is fine. */
    assert_int_equal(ipu_cp_validate(prog + 3, N(prog) - 3, NULL), IPU_CP_OK);
}

static void test_names_and_lengths(void **state)
{
    (void)state;
    assert_string_equal(ipu_cp_opcode_name(IPU_CP_OP_STREAM_COPY), "STREAM_COPY");
    assert_string_equal(ipu_cp_opcode_name(IPU_CP_OP_COPY), "COPY");
    assert_null(ipu_cp_opcode_name(11));
    assert_int_equal(ipu_cp_fixed_length(IPU_CP_OP_END), 1);
    assert_int_equal(ipu_cp_fixed_length(IPU_CP_OP_STREAM_COPY), 3);
    assert_int_equal(ipu_cp_fixed_length(IPU_CP_OP_SWITCH), 4);
    assert_int_equal(ipu_cp_fixed_length(200), 0);
    for (int s = IPU_CP_OK; s <= IPU_CP_ERR_TOO_DEEP; s++)
        assert_true(strlen(ipu_cp_strerror(s)) > 0);
    assert_string_equal(ipu_cp_strerror(1000), "unknown control-program error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decodes_every_opcode_of_an_encoded_program),
        cmocka_unit_test(test_unknown_opcode),
        cmocka_unit_test(test_wrong_length),
        cmocka_unit_test(test_bad_operands),
        cmocka_unit_test(test_truncation_and_hostile_body_lengths),
        cmocka_unit_test(test_validate_requires_top_level_end),
        cmocka_unit_test(test_validate_limits_depth),
        cmocka_unit_test(test_names_and_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
