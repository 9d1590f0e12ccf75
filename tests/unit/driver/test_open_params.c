/* ipudrv_open_with: opening a card from parameters instead of the
 * environment. Every field's validation, simulated cards from board values
 * in memory, several private cards at once in one process and in two
 * processes (issue 12), and that the environment is not what names them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"
#include "test_env.h"
#include "two_processes.h"

#define SRAM IPU_TILE_SRAM_BASE

static int setup(void **state)
{
    (void)state;
    /* Nothing the parameters say may come from here: a board that does not
     * exist, so that a card opened through the environment would fail. */
    test_env_setup("model:nosuchboard");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    test_env_cleanup();
    return 0;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("expected \"%s\" in \"%s\"", part, text);
}

/* Expects ipudrv_open_with(p) to fail with `code` and a message naming `part`. */
static void expect_refused(const struct ipudrv_open_params *p, int code, const char *part)
{
    ipudrv_device *dev = (ipudrv_device *)0x1;
    int rc = ipudrv_open_with(p, &dev);
    if (rc != code)
        fail_msg("expected %d, got %d (%s)", code, rc, ipudrv_last_error(NULL));
    assert_null(dev);
    assert_contains(ipudrv_last_error(NULL), part);
}

static struct ipudrv_open_params tiny_params(void)
{
    struct ipudrv_open_params p = {.size = sizeof p, .transport = "model", .board = "tiny"};
    return p;
}

static void test_validation(void **state)
{
    (void)state;
    ipudrv_device *dev = NULL;
    struct ipudrv_open_params p = tiny_params();
    assert_int_equal(ipudrv_open_with(&p, NULL), -EINVAL);
    expect_refused(NULL, -EINVAL, "params is NULL");

    p.size = sizeof p.size;
    expect_refused(&p, -EINVAL, "smaller than the first version");
    p = tiny_params();

    /* A newer caller's struct: larger, with fields this library does not know. */
    struct {
        struct ipudrv_open_params p;
        uint64_t newer_field;
    } newer = {.p = tiny_params(), .newer_field = 7};
    newer.p.size = sizeof newer;
    expect_refused(&newer.p, -ENOTSUP, "newer library");
    newer.newer_field = 0; /* unset new fields are fine */
    assert_int_equal(ipudrv_open_with(&newer.p, &dev), 0);
    assert_int_equal(ipudrv_close(dev), 0);

    p.transport = "carrier-pigeon";
    expect_refused(&p, -ENOTSUP, "unknown transport 'carrier-pigeon'");
    p = tiny_params();
    p.lock_policy = 7;
    expect_refused(&p, -EINVAL, "lock_policy 7");
    p = tiny_params();
    p.trace = 2;
    expect_refused(&p, -EINVAL, "trace is 2");
    p = tiny_params();
    p.host_threads = IPUDRV_HOST_THREADS_MAX + 1;
    expect_refused(&p, -EINVAL, "host_threads");

    struct ipu_board b;
    ipu_board_default(&b);
    p = tiny_params();
    p.board_values = &b;
    expect_refused(&p, -EINVAL, "both board");
    p.board = NULL;
    p.location = "0000:00:04.0";
    expect_refused(&p, -EINVAL, "location names shared cards");
    p = tiny_params();
    p.board = NULL;
    expect_refused(&p, -EINVAL, "needs a board");
    p.board = "";
    expect_refused(&p, -EINVAL, "board is empty");
    p.transport = NULL;
    p.board = NULL;
    expect_refused(&p, -EINVAL, "no card named");
    p.board = "nosuchboard";
    expect_refused(&p, -ENOENT, "nosuchboard");

    /* A shared card takes a location and nothing that configures a simulation. */
    struct ipudrv_open_params v = {.size = sizeof v, .transport = "vfio"};
    expect_refused(&v, -EINVAL, "needs location");
    v.location = "0000:00:04.0";
    v.board = "tiny";
    expect_refused(&v, -EINVAL, "reports its own board");
    v.board = NULL;
    v.host_threads = 2;
    expect_refused(&v, -EINVAL, "configure simulated cards");

    /* Board values no card can have. */
    p = tiny_params();
    p.board = NULL;
    p.board_values = &b;
    b.bytes_per_tile = 1000;
    expect_refused(&p, -EINVAL, "multiple of 4096");
    ipu_board_default(&b);
    b.tiles_per_ipu = 0;
    expect_refused(&p, -EINVAL, "0 tiles");
    ipu_board_default(&b);
    memset(b.name, 'x', sizeof b.name);
    expect_refused(&p, -EINVAL, "NUL-terminated");
}

/* A board that exists in memory only: its values reach the card. */
static void test_board_values_in_memory(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    snprintf(b.name, sizeof b.name, "only-in-memory");
    b.tiles_per_ipu = 3;
    b.bytes_per_tile = 2 * 4096;
    b.transport[0] = '\0'; /* no transport key: model */
    struct ipudrv_open_params p = {.size = sizeof p, .board_values = &b};
    ipudrv_device *dev = NULL;
    if (ipudrv_open_with(&p, &dev))
        fail_msg("%s", ipudrv_last_error(NULL));
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(dev, &info), 0);
    assert_int_equal(info.id, IPUDRV_ID_NONE);
    assert_string_equal(info.transport, "model");
    assert_string_equal(info.location, "model:only-in-memory");
    assert_string_equal(info.board.name, "only-in-memory");
    assert_int_equal(info.num_tiles, 3);
    assert_int_equal(info.tile_mem_bytes, 2 * 4096);
    uint32_t in = 0xcafef00du, out = 0;
    assert_int_equal(ipudrv_tile_write(dev, 2, SRAM + 4096, &in, 4), 0);
    assert_int_equal(ipudrv_tile_read(dev, 2, SRAM + 4096, &out, 4), 0);
    assert_int_equal(out, in);
    /* beyond the in-memory board's 3 tiles */
    assert_int_equal(ipudrv_tile_write(dev, 3, SRAM, &in, 4), -EINVAL);
    assert_int_equal(ipudrv_close(dev), 0);
}

/* Several private cards at once in one process, of different boards, each
 * its own card. */
static void test_two_model_cards_in_one_process(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    b.tiles_per_ipu = 2;
    struct ipudrv_open_params named = tiny_params();
    struct ipudrv_open_params in_memory = {.size = sizeof in_memory, .transport = "model", .board_values = &b};
    ipudrv_device *one = NULL, *two = NULL, *three = NULL;
    assert_int_equal(ipudrv_open_with(&named, &one), 0);
    assert_int_equal(ipudrv_open_with(&named, &two), 0);
    assert_int_equal(ipudrv_open_with(&in_memory, &three), 0);
    ipudrv_device *all[] = {one, two, three};
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(ipudrv_tile_write(all[i], 1, SRAM, &i, 4), 0);
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t got = 99;
        assert_int_equal(ipudrv_tile_read(all[i], 1, SRAM, &got, 4), 0);
        assert_int_equal(got, i);
    }
    struct ipudrv_info info;
    assert_int_equal(ipudrv_get_info(three, &info), 0);
    assert_int_equal(info.num_tiles, 2);
    assert_int_equal(ipudrv_close(two), 0);
    assert_int_equal(ipudrv_close(one), 0);
    assert_int_equal(ipudrv_close(three), 0);
}

/* Issue 12's acceptance: two processes that each create a model card from
 * parameters hold them at the same time, and both succeed. */
static int open_tiny(ipudrv_device **out)
{
    struct ipudrv_open_params p = tiny_params();
    return ipudrv_open_with(&p, out);
}

static void test_two_processes_each_create_a_model_card(void **state)
{
    (void)state;
    expect_two_processes_hold_cards(open_tiny);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_validation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_board_values_in_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_model_cards_in_one_process, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_processes_each_create_a_model_card, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
