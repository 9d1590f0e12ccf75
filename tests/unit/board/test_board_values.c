/* Board values by key (ipu_board_key, ipu_board_set, ipu_board_get): every
 * key of every shipped board, read out as text and set into an empty board,
 * rebuilds that board byte for byte; a value a board file could not hold is
 * refused with a message naming where it came from, the key and the fix. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ipu_board.h"

/* Rebuilds *b key by key from ipu_board_get's text and checks the copy equals it. */
static void assert_rebuilt(const struct ipu_board *b, const char *what)
{
    struct ipu_board copy;
    memset(&copy, 0, sizeof copy);
    size_t keys = 0;
    for (const char *key; (key = ipu_board_key_name(keys)) != NULL; keys++) {
        char text[IPU_BOARD_TEXT_MAX + 1], err[512] = "";
        const int n = ipu_board_get(b, key, text, sizeof text);
        assert_true(n >= 0 && (size_t)n < sizeof text);
        if (ipu_board_set(&copy, key, text, what, err, sizeof err) != 0)
            fail_msg("%s: key '%s' = '%s' does not set back: %s", what, key, text, err);
    }
    assert_int_equal(keys, 25); /* boards/README.md's table */
    char a[IPU_BOARD_WRITE_MAX], c[IPU_BOARD_WRITE_MAX];
    assert_true(ipu_board_write(b, a, sizeof a, NULL, 0) > 0);
    assert_true(ipu_board_write(&copy, c, sizeof c, NULL, 0) > 0);
    assert_string_equal(c, a);
    assert_int_equal(ipu_board_check(&copy, what, NULL, 0), 0);
}

static void test_shipped_boards_rebuild_by_key(void **state)
{
    (void)state;
    DIR *dir = opendir(TEST_BOARD_DIR);
    assert_non_null(dir);
    unsigned boards = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        const size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".toml") != 0)
            continue;
        char path[512], err[512] = "";
        snprintf(path, sizeof path, "%s/%s", TEST_BOARD_DIR, e->d_name);
        struct ipu_board b;
        if (ipu_board_load_file(path, &b, err, sizeof err) != 0)
            fail_msg("shipped board %s does not load: %s", path, err);
        assert_rebuilt(&b, path);
        boards++;
    }
    closedir(dir);
    assert_true(boards >= 12); /* finding none would prove nothing */
}

static void test_get_writes_decimal_and_plain_text(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    assert_int_equal(ipu_board_set(&b, "tile_clock_hz", "0x10_000", "t", NULL, 0), 0);
    char text[64];
    assert_int_equal(ipu_board_get(&b, "tile_clock_hz", text, sizeof text), 5);
    assert_string_equal(text, "65536");
    assert_int_equal(ipu_board_set(&b, "description", "say \"hi\" caf\xc3\xa9", "t", NULL, 0), 0);
    assert_int_equal(ipu_board_get(&b, "description", text, sizeof text), 14);
    assert_string_equal(text, "say \"hi\" caf\xc3\xa9");
    /* A cut text reports the whole length, as snprintf does. */
    assert_int_equal(ipu_board_get(&b, "description", text, 4), 14);
    assert_string_equal(text, "say");
    assert_int_equal(ipu_board_get(&b, "no_such_key", text, sizeof text), -EINVAL);
    assert_string_equal(text, "");
    assert_null(ipu_board_key_name(25));
    assert_string_equal(ipu_board_key_name(0), "name");
}

/* One refused value: the code, the message's start and a phrase of it. */
static void refused(const char *key, const char *value, const char *phrase)
{
    struct ipu_board b;
    ipu_board_default(&b);
    struct ipu_board before;
    memcpy(&before, &b, sizeof b); /* padding too: the check below compares bytes */
    char err[512] = "";
    assert_int_equal(ipu_board_set(&b, key, value, "my target", err, sizeof err), -EINVAL);
    if (strncmp(err, "my target: ", 11) != 0 || !strstr(err, phrase))
        fail_msg("%s = '%s': message '%s' lacks '%s'", key, value ? value : "(null)", err, phrase);
    assert_memory_equal(&b, &before, sizeof b); /* nothing of a refused value is kept */
}

static void test_bad_values_refused(void **state)
{
    (void)state;
    refused("worker_contexts", "7", "key 'worker_contexts': expected an integer from 1 to 6");
    refused("tiles_per_ipu", "010", "has a leading zero");
    refused("num_ipus", "-1", "key 'num_ipus'");
    refused("num_ipus", "", "key 'num_ipus'");
    refused("transport", "pcie", "expected \"model\" or \"rtl\"");
    refused("name", "a name far longer than thirty-one chars", "longer than 31 characters");
    refused("description", "two\nlines", "key 'description'");
    refused("description", "\xc3", "key 'description'");
    refused("tiles", "4", "unknown board key 'tiles'");
    refused(NULL, "4", "unknown board key");
    refused("isa", NULL, "key 'isa' was given no value");
}

static void test_empty_transport_is_the_default(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    assert_int_equal(ipu_board_set(&b, "transport", "rtl", "t", NULL, 0), 0);
    assert_string_equal(b.transport, "rtl");
    assert_int_equal(ipu_board_set(&b, "transport", "", "t", NULL, 0), 0);
    assert_string_equal(b.transport, "");
    assert_int_equal(ipu_board_check(&b, "t", NULL, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_boards_rebuild_by_key),
        cmocka_unit_test(test_get_writes_decimal_and_plain_text),
        cmocka_unit_test(test_bad_values_refused),
        cmocka_unit_test(test_empty_transport_is_the_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
