/* Unit tests of the tile layout arithmetic, and its agreement with gen-ldscript.py for every board. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_board.h"
#include "ipu_fw/layout.h"

static struct ipu_fw_layout_params params_of(const struct ipu_board *board)
{
    struct ipu_fw_layout_params p = {board->bytes_per_tile, board->worker_contexts, board->supervisor_stack_bytes,
                                     board->worker_stack_bytes};
    return p;
}

static void test_tiny_layout(void **state)
{
    (void)state;
    struct ipu_board board;
    ipu_board_default(&board);
    struct ipu_fw_layout_params p = params_of(&board);
    struct ipu_fw_layout l;
    assert_int_equal(ipu_fw_layout_compute(&p, &l), 0);
    assert_int_equal(l.sram_end, IPU_TILE_SRAM_BASE + 65536);
    assert_int_equal(l.num_contexts, 7);
    assert_int_equal(l.stack_top[0], l.sram_end);
    assert_int_equal(l.stack_base[0], l.sram_end - 4096);
    assert_int_equal(l.stacks_base, l.sram_end - 4096 - 6 * 1024);
    for (uint32_t w = 1; w <= 6; w++) {
        /* The trampoline's formula. */
        assert_int_equal(l.stack_top[w], l.worker_stacks_base + w * l.worker_stack_bytes);
        assert_int_equal(l.stack_top[w] - l.stack_base[w], 1024);
        assert_int_equal(l.stack_top[w] % IPU_FW_STACK_ALIGN, 0);
        /* Stacks do not overlap and are adjacent. */
        assert_int_equal(l.stack_base[w], w == 1 ? l.stacks_base : l.stack_top[w - 1]);
    }
    assert_int_equal(l.stack_top[6], l.stack_base[0]);
    assert_true(ipu_fw_layout_fits(&l, l.stacks_base));
    assert_false(ipu_fw_layout_fits(&l, l.stacks_base + 1));
    assert_false(ipu_fw_layout_fits(&l, 0));
}

static void test_sizes_round_up_and_bad_parameters_fail(void **state)
{
    (void)state;
    struct ipu_fw_layout l;
    struct ipu_fw_layout_params p = {65536, 2, 1000, 100};
    assert_int_equal(ipu_fw_layout_compute(&p, &l), 0);
    assert_int_equal(l.supervisor_stack_bytes, 1008);
    assert_int_equal(l.worker_stack_bytes, 112);

    struct ipu_fw_layout_params no_sram = {0, 6, 4096, 1024};
    assert_int_equal(ipu_fw_layout_compute(&no_sram, &l), -1);
    struct ipu_fw_layout_params too_many_workers = {65536, 7, 4096, 1024};
    assert_int_equal(ipu_fw_layout_compute(&too_many_workers, &l), -1);
    struct ipu_fw_layout_params too_big = {65536, 6, 4096, 0x10000};
    assert_int_equal(ipu_fw_layout_compute(&too_big, &l), -1);
    struct ipu_fw_layout_params wrapping = {65536, 6, 4096, 0xfffffff0u};
    assert_int_equal(ipu_fw_layout_compute(&wrapping, &l), -1);
    struct ipu_fw_layout_params no_sup_stack = {65536, 6, 0, 1024};
    assert_int_equal(ipu_fw_layout_compute(&no_sup_stack, &l), -1);
    struct ipu_fw_layout_params over_max = {IPU_TILE_SRAM_MAX_BYTES + 16, 6, 4096, 1024};
    assert_int_equal(ipu_fw_layout_compute(&over_max, &l), -1);
}

/* Looks up `key` in a gen-ldscript.py --print-layout file. */
static uint32_t generated_value(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof(pattern), "\n%s=", key);
    const char *at = strstr(text, pattern);
    if (at == NULL)
        fail_msg("gen-ldscript.py layout has no %s", key);
    return (uint32_t)strtoul(at + strlen(pattern), NULL, 0);
}

static void compare_with_generator(const char *board_name)
{
    struct ipu_board board;
    char err[256];
    assert_int_equal(ipu_board_load(board_name, &board, err, sizeof(err)), 0);
    char path[512];
    snprintf(path, sizeof(path), "%s/layout_%s.txt", LAYOUT_DIR, board_name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096] = "\n"; /* a leading newline lets every key match "\nkey=" */
    size_t n = fread(text + 1, 1, sizeof(text) - 2, f);
    text[n + 1] = '\0';
    fclose(f);

    struct ipu_fw_layout_params p = params_of(&board);
    struct ipu_fw_layout l;
    assert_int_equal(ipu_fw_layout_compute(&p, &l), 0);
    assert_int_equal(generated_value(text, "sram_end"), l.sram_end);
    assert_int_equal(generated_value(text, "stacks_base"), l.stacks_base);
    assert_int_equal(generated_value(text, "worker_stacks_base"), l.worker_stacks_base);
    assert_int_equal(generated_value(text, "supervisor_stack_bytes"), l.supervisor_stack_bytes);
    assert_int_equal(generated_value(text, "worker_stack_bytes"), l.worker_stack_bytes);
    assert_int_equal(generated_value(text, "num_contexts"), l.num_contexts);
    for (uint32_t c = 0; c < l.num_contexts; c++) {
        char key[32];
        snprintf(key, sizeof(key), "stack_base[%u]", c);
        assert_int_equal(generated_value(text, key), l.stack_base[c]);
        snprintf(key, sizeof(key), "stack_top[%u]", c);
        assert_int_equal(generated_value(text, key), l.stack_top[c]);
    }
}

static void test_generator_agrees_tiny(void **state)
{
    (void)state;
    compare_with_generator("tiny");
}

static void test_generator_agrees_ipu1(void **state)
{
    (void)state;
    compare_with_generator("ipu1");
}

static void test_generator_agrees_ipu2(void **state)
{
    (void)state;
    compare_with_generator("ipu2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_layout),
        cmocka_unit_test(test_sizes_round_up_and_bad_parameters_fail),
        cmocka_unit_test(test_generator_agrees_tiny),
        cmocka_unit_test(test_generator_agrees_ipu1),
        cmocka_unit_test(test_generator_agrees_ipu2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
