/* Unit tests of the control-program listing (ipu_cp_format). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_fw/cp.h"

static size_t build(uint32_t *buf, size_t cap)
{
    struct ipu_cp_builder b;
    ipu_cp_builder_init(&b, buf, cap);
    ipu_cp_emit_sync(&b, IPU_SYNC_KIND_EXTERNAL, 3);
    struct ipu_cp_mark r = ipu_cp_begin_repeat(&b, 2);
    struct ipu_cp_mark i = ipu_cp_begin_if(&b, 4, 0x100040);
    ipu_cp_emit_execute(&b, 0x100100);
    ipu_cp_else(&b, &i);
    ipu_cp_end_if(&b, &i);
    ipu_cp_end_repeat(&b, &r);
    const uint32_t values[] = {7};
    struct ipu_cp_mark s = ipu_cp_begin_switch(&b, 2, 0x100050, 1, values);
    ipu_cp_case(&b, &s);
    ipu_cp_emit_copy(&b, 0x100200, 0x100300, 8);
    ipu_cp_default(&b, &s);
    ipu_cp_end_switch(&b, &s);
    struct ipu_cp_mark w = ipu_cp_begin_while(&b, 1, 1, 0x100060);
    ipu_cp_while_body(&b, &w);
    ipu_cp_emit_print_tensor(&b, IPU_DTYPE_FLOAT, 0x100400, 4, 0x100500);
    ipu_cp_end_while(&b, &w);
    ipu_cp_emit_stream_copy(&b, 9, 0x100600);
    ipu_cp_emit_exchange(&b, 0x100700);
    ipu_cp_emit_end(&b);
    assert_int_equal(ipu_cp_builder_finish(&b), IPU_CP_OK);
    return b.length;
}

static const char kListing[] =
    "0000 SYNC external id=3\n"
    "0002 REPEAT count=2\n"
    "       body:\n"
    "0005     IF cond=0x00100040/4\n"
    "           then:\n"
    "0009         EXECUTE table=0x00100100\n"
    "           else:\n"
    "000b SWITCH cond=0x00100050/2 cases=1\n"
    "       case 7:\n"
    "0011     COPY dst=0x00100200 src=0x00100300 len=8\n"
    "       default:\n"
    "0015 WHILE cond=0x00100060/1 while-false\n"
    "       condition:\n"
    "       body:\n"
    "0019     PRINT_TENSOR float[4] at 0x00100400 name=0x00100500\n"
    "001d STREAM_COPY id=9 list=0x00100600\n"
    "0020 EXCHANGE list=0x00100700\n"
    "0022 END\n";

static void test_listing(void **state)
{
    (void)state;
    uint32_t prog[64];
    size_t n = build(prog, 64);
    char buf[2048];
    size_t need = ipu_cp_format(prog, n, buf, sizeof(buf));
    assert_string_equal(buf, kListing);
    assert_int_equal(need, strlen(kListing));
}

static void test_truncates_like_snprintf(void **state)
{
    (void)state;
    uint32_t prog[64];
    size_t n = build(prog, 64);
    char small[16];
    size_t need = ipu_cp_format(prog, n, small, sizeof(small));
    assert_int_equal(need, strlen(kListing));
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_memory_equal(small, kListing, sizeof(small) - 1);
    assert_int_equal(ipu_cp_format(prog, n, NULL, 0), strlen(kListing));
}

static void test_stops_at_bad_word_and_missing_end(void **state)
{
    (void)state;
    const uint32_t bad[] = {ipu_cp_header(IPU_CP_OP_SYNC, 2, 1), 0, 0xdeadbe0fu};
    char buf[256];
    ipu_cp_format(bad, 3, buf, sizeof(buf));
    assert_string_equal(buf, "0000 SYNC internal id=0\n0002 0xdeadbe0f: unknown opcode\n");
    const uint32_t no_end[] = {ipu_cp_header(IPU_CP_OP_EXECUTE, 2, 0), 0x100000};
    ipu_cp_format(no_end, 2, buf, sizeof(buf));
    assert_string_equal(buf, "0000 EXECUTE table=0x00100000\n0002 (no END)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing),
        cmocka_unit_test(test_truncates_like_snprintf),
        cmocka_unit_test(test_stops_at_bad_word_and_missing_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
