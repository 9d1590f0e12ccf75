/* Unit tests of the control-program encoder: exact words per opcode, body patching, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ipu_fw/cp.h"

#define H(op, len, imm) ipu_cp_header(IPU_CP_OP_##op, len, imm)

static void assert_words(const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i])
            fail_msg("word %zu: got 0x%08x, want 0x%08x", i, got[i], want[i]);
    }
}

static void test_flat_opcodes(void **state)
{
    (void)state;
    uint32_t buf[64];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 64);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_EXTERNAL, 7);
    ipu_cp_emit_exchange(&b, 0x100400);
    ipu_cp_emit_execute(&b, 0x100500);
    ipu_cp_emit_stream_copy(&b, 3, 0x100600);
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_FLOAT, 0x100700, 4, 0x100800);
    ipu_cp_emit_copy(&b, 0x100900, 0x100a00, 16);
    ipu_cp_emit_end(&b);
    const uint32_t want[] = {
        H(SYNC, 2, 1), 0, H(SYNC, 2, 2), 7, H(EXCHANGE, 2, 0), 0x100400, H(EXECUTE, 2, 0), 0x100500,
        H(STREAM_COPY, 3, 0), 3, 0x100600, H(PRINT_TENSOR, 4, IPU_DTYPE_FLOAT), 0x100700, 4, 0x100800,
        H(COPY, 4, 0), 0x100900, 0x100a00, 16, H(END, 1, 0),
    };
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_int_equal(b.length, sizeof(want) / sizeof(want[0]));
    assert_words(buf, want, b.length);
}

static void test_repeat_and_if_patch_bodies(void **state)
{
    (void)state;
    uint32_t buf[64];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 64);
    struct ipu_cp_mark r = ipu_cp_begin_repeat(&b, 5);
    struct ipu_cp_mark i = ipu_cp_begin_if(&b, 4, 0x101000);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_else(&b, &i);
    ipu_cp_emit_execute(&b, 0x102000);
    ipu_cp_emit_exchange(&b, 0x103000);
    ipu_cp_end_if(&b, &i);
    ipu_cp_end_repeat(&b, &r);
    ipu_cp_emit_end(&b);
    const uint32_t want[] = {
        H(REPEAT, 3, 0), 5, 10,
        H(IF, 4, 4), 0x101000, 2, 4,
        H(SYNC, 2, 1), 0,
        H(EXECUTE, 2, 0), 0x102000, H(EXCHANGE, 2, 0), 0x103000,
        H(END, 1, 0),
    };
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_int_equal(b.length, sizeof(want) / sizeof(want[0]));
    assert_words(buf, want, b.length);
}

static void test_if_without_else(void **state)
{
    (void)state;
    uint32_t buf[16];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 16);
    struct ipu_cp_mark i = ipu_cp_begin_if(&b, 1, 0x100010);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_end_if(&b, &i);
    const uint32_t want[] = {H(IF, 4, 1), 0x100010, 2, 0, H(SYNC, 2, 1), 0};
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_int_equal(b.length, 6);
    assert_words(buf, want, 6);
}

static void test_switch(void **state)
{
    (void)state;
    uint32_t buf[64];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 64);
    const uint32_t values[] = {10, 20};
    struct ipu_cp_mark s = ipu_cp_begin_switch(&b, 2, 0x100020, 2, values);
    ipu_cp_case(&b, &s);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_case(&b, &s); /* empty body for case 20 */
    ipu_cp_default(&b, &s);
    ipu_cp_emit_copy(&b, 1, 2, 3);
    ipu_cp_end_switch(&b, &s);
    const uint32_t want[] = {
        H(SWITCH, 8, 2), 0x100020, 2, 4, 10, 2, 20, 0,
        H(SYNC, 2, 1), 0,
        H(COPY, 4, 0), 1, 2, 3,
    };
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_int_equal(b.length, sizeof(want) / sizeof(want[0]));
    assert_words(buf, want, b.length);
}

static void test_switch_without_default_call(void **state)
{
    (void)state;
    uint32_t buf[16];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 16);
    const uint32_t values[] = {1};
    struct ipu_cp_mark s = ipu_cp_begin_switch(&b, 4, 0x100020, 1, values);
    ipu_cp_case(&b, &s);
    ipu_cp_emit_end(&b);
    ipu_cp_end_switch(&b, &s);
    const uint32_t want[] = {H(SWITCH, 6, 4), 0x100020, 1, 0, 1, 1, H(END, 1, 0)};
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_words(buf, want, 7);
}

static void test_while(void **state)
{
    (void)state;
    uint32_t buf[32];
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 32);
    struct ipu_cp_mark w = ipu_cp_begin_while(&b, 1, 1, 0x100030);
    ipu_cp_emit_execute(&b, 0x100040);
    ipu_cp_while_body(&b, &w);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_INTERNAL, 0);
    ipu_cp_end_while(&b, &w);
    const uint32_t want[] = {
        H(WHILE, 4, 1 | IPU_CP_WHILE_FALSE_FLAG), 0x100030, 2, 4,
        H(EXECUTE, 2, 0), 0x100040, H(SYNC, 2, 1), 0, H(SYNC, 2, 1), 0,
    };
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    assert_int_equal(b.length, 10);
    assert_words(buf, want, 10);
}

static void test_measure_pass_counts_without_writing(void **state)
{
    (void)state;
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, NULL, 0);
    struct ipu_cp_mark r = ipu_cp_begin_repeat(&b, 2);
    ipu_cp_emit_copy(&b, 1, 2, 3);
    ipu_cp_end_repeat(&b, &r);
    ipu_cp_emit_end(&b);
    assert_int_equal(b.length, 8);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NOSPACE);
}

static void test_too_small_buffer_is_reported_and_not_overrun(void **state)
{
    (void)state;
    uint32_t buf[4] = {0, 0, 0, 0xdeadbeef};
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, 3);
    ipu_cp_emit_copy(&b, 1, 2, 3);
    assert_int_equal(b.length, 4);
    assert_int_equal(buf[3], 0xdeadbeef);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NOSPACE);
}

static void test_operand_errors(void **state)
{
    (void)state;
    uint32_t buf[32];
    struct ipu_cp_builder b;

    ipu_cp_builder_init(&b, buf, 32);
    ipu_cp_emit_sync(&b, 3, 0);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_OPERAND);

    ipu_cp_builder_init(&b, buf, 32);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_EXTERNAL, IPU_CP_SYNC_ID_MAX + 1u);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_OPERAND);

    ipu_cp_builder_init(&b, buf, 32);
    ipu_cp_emit_stream_copy(&b, IPU_CP_STREAM_DONE_FLAG, 0);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_OPERAND);

    ipu_cp_builder_init(&b, buf, 32);
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_BOOL + 1u, 0, 0, 0);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_OPERAND);

    ipu_cp_builder_init(&b, buf, 32);
    struct ipu_cp_mark m = ipu_cp_begin_if(&b, 3, 0);
    ipu_cp_end_if(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_OPERAND);

    ipu_cp_builder_init(&b, NULL, 0);
    m = ipu_cp_begin_switch(&b, 4, 0, IPU_CP_SWITCH_MAX_CASES + 1u, NULL);
    assert_int_equal(b.error, IPU_CP_ERR_OPERAND);
}

static void test_nesting_errors(void **state)
{
    (void)state;
    uint32_t buf[32];
    struct ipu_cp_builder b;

    /* An unclosed REPEAT. */
    ipu_cp_builder_init(&b, buf, 32);
    (void)ipu_cp_begin_repeat(&b, 1);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);

    /* Closing an IF as a REPEAT. */
    ipu_cp_builder_init(&b, buf, 32);
    struct ipu_cp_mark m = ipu_cp_begin_if(&b, 4, 0);
    ipu_cp_end_repeat(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);

    /* Default before every case was opened. */
    ipu_cp_builder_init(&b, buf, 32);
    const uint32_t values[] = {1, 2};
    m = ipu_cp_begin_switch(&b, 4, 0, 2, values);
    ipu_cp_case(&b, &m);
    ipu_cp_default(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);

    /* Too many cases. */
    ipu_cp_builder_init(&b, buf, 32);
    m = ipu_cp_begin_switch(&b, 4, 0, 1, values);
    ipu_cp_case(&b, &m);
    ipu_cp_case(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);

    /* Ending a WHILE before its loop body. */
    ipu_cp_builder_init(&b, buf, 32);
    m = ipu_cp_begin_while(&b, 4, 0, 0);
    ipu_cp_end_while(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);

    /* Ending twice. */
    ipu_cp_builder_init(&b, buf, 32);
    m = ipu_cp_begin_repeat(&b, 1);
    ipu_cp_end_repeat(&b, &m);
    ipu_cp_end_repeat(&b, &m);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_ERR_NESTING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_opcodes),
        cmocka_unit_test(test_repeat_and_if_patch_bodies),
        cmocka_unit_test(test_if_without_else),
        cmocka_unit_test(test_switch),
        cmocka_unit_test(test_switch_without_default_call),
        cmocka_unit_test(test_while),
        cmocka_unit_test(test_measure_pass_counts_without_writing),
        cmocka_unit_test(test_too_small_buffer_is_reported_and_not_overrun),
        cmocka_unit_test(test_operand_errors),
        cmocka_unit_test(test_nesting_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
