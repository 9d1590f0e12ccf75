/* Board writer (ipu_board_write): what it writes, the board reader reads back
 * key for key, for every shipped board and for strings that need escaping; a
 * board no file can hold is refused with a message naming the key. And board
 * values by key (ipu_board_key_name, ipu_board_set, ipu_board_get): every
 * shipped board, read out key by key as text and set into an empty board, is
 * rebuilt exactly; a value no board file could hold is refused by name. */
#include <dirent.h>
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

#include "board_keys.h"
#include "ipu_board.h"

/* Loads `text` as a board file (a temporary one) into *b; returns the reader's code. */
static int read_back(const char *text, struct ipu_board *b, char *err, size_t err_len)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/ipu-board-write-test-%d.toml", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    memset(b, 0, sizeof *b);
    const int rc = ipu_board_load_file(path, b, err, err_len);
    unlink(path);
    return rc;
}

/* Fails naming the first key of the table whose value differs between a and b. */
static void assert_same_board(const struct ipu_board *a, const struct ipu_board *b, const char *what)
{
    for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++) {
        const struct ipu_board_key *k = &ipu_board_keys[i];
        const char *fa = (const char *)a + k->offset, *fb = (const char *)b + k->offset;
        const int same = k->kind == IPU_BOARD_KEY_TEXT ? strcmp(fa, fb) == 0
                         : memcmp(fa, fb, k->kind == IPU_BOARD_KEY_U32 ? sizeof(uint32_t) : sizeof(uint64_t)) == 0;
        if (!same)
            fail_msg("%s: key '%s' does not read back as written", what, k->key);
    }
}

/* Writes *b, reads the text back, and checks every key and that writing again gives the same text. */
static void assert_round_trip(const struct ipu_board *b, const char *what)
{
    char text[IPU_BOARD_WRITE_MAX], again[IPU_BOARD_WRITE_MAX], err[512] = "";
    const int n = ipu_board_write(b, text, sizeof text, err, sizeof err);
    if (n < 0)
        fail_msg("%s: ipu_board_write refused it: %s", what, err);
    assert_true((size_t)n < sizeof text);
    assert_int_equal(strlen(text), (size_t)n);
    struct ipu_board back;
    if (read_back(text, &back, err, sizeof err) != 0)
        fail_msg("%s: the written text does not read back: %s\n%s", what, err, text);
    assert_same_board(b, &back, what);
    assert_int_equal(ipu_board_write(&back, again, sizeof again, NULL, 0), n);
    assert_string_equal(again, text);
}

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

static void test_shipped_boards_round_trip(void **state)
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
        assert_round_trip(&b, path);
        assert_rebuilt(&b, path);
        boards++;
    }
    closedir(dir);
    /* boards/ ships 12 boards: a test that found none would prove nothing. */
    assert_true(boards >= 12);
}

static void test_escaped_strings_round_trip(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    /* Quotes, backslashes (one before a quote, two in a row, one at the end), a TOML escape's look-alike, and
     * characters outside ASCII of two, three and four bytes in UTF-8. */
    snprintf(b.description, sizeof b.description, "say \"hi\" \\\" C:\\\\dir \\n not a newline caf\xc3\xa9 "
             "\xe2\x80\x94 \xf0\x9f\x98\x80 \\");
    snprintf(b.name, sizeof b.name, "a \"quoted\" name");
    assert_round_trip(&b, "escaped description");
    char text[IPU_BOARD_WRITE_MAX];
    assert_true(ipu_board_write(&b, text, sizeof text, NULL, 0) > 0);
    /* The file is printable ASCII (boards/README.md): other characters are \u escapes. */
    for (const char *p = text; *p; p++)
        assert_true((*p >= 0x20 && *p < 0x7f) || *p == '\n');
    assert_non_null(strstr(text, "caf\\u00E9 \\u2014 \\U0001F600"));
}

static void test_newline_refused_as_the_reader_refuses_it(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    snprintf(b.description, sizeof b.description, "two \"lines\"\\\nsecond");
    char text[IPU_BOARD_WRITE_MAX] = "unchanged", err[512] = "";
    assert_int_equal(ipu_board_write(&b, text, sizeof text, err, sizeof err), -EINVAL);
    assert_string_equal(text, "");
    assert_non_null(strstr(err, "key 'description'"));
    assert_non_null(strstr(err, "control character (byte 12)"));
    assert_non_null(strstr(err, "on one line"));
    /* The reader refuses the escaped newline too: what the writer refuses is what no board file holds. */
    ipu_board_default(&b);
    char good[IPU_BOARD_WRITE_MAX];
    assert_true(ipu_board_write(&b, good, sizeof good, NULL, 0) > 0);
    char *line = strstr(good, "description = \"");
    assert_non_null(line);
    char doctored[IPU_BOARD_WRITE_MAX + 32];
    snprintf(doctored, sizeof doctored, "%.*sdescription = \"two\\nlines\"\n%s", (int)(line - good), good,
             strchr(line, '\n') + 1);
    struct ipu_board back;
    assert_int_equal(read_back(doctored, &back, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'description'"));
    assert_non_null(strstr(err, "control character"));
}

static void test_bad_strings_and_values_refused(void **state)
{
    (void)state;
    struct ipu_board b;
    char text[IPU_BOARD_WRITE_MAX], err[512] = "";
    ipu_board_default(&b);
    snprintf(b.description, sizeof b.description, "latin-1 caf\xe9");
    assert_int_equal(ipu_board_write(&b, text, sizeof text, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'description': byte 11 (0xe9) is not part of a UTF-8 character"));
    ipu_board_default(&b);
    snprintf(b.isa, sizeof b.isa, "rv32i\xed\xa0\x80"); /* a surrogate, U+D800 */
    assert_int_equal(ipu_board_write(&b, text, sizeof text, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'isa': byte 5 (0xed)"));
    ipu_board_default(&b);
    snprintf(b.abi, sizeof b.abi, "ilp32\xc0\xaf"); /* an overlong '/' */
    assert_int_equal(ipu_board_write(&b, text, sizeof text, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'abi': byte 5 (0xc0)"));
    /* Out of range: ipu_board_check's message, nothing written. */
    ipu_board_default(&b);
    b.worker_contexts = 7;
    assert_int_equal(ipu_board_write(&b, text, sizeof text, err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "ipu_board_write: key 'worker_contexts' is 7"));
    assert_string_equal(text, "");
}

static void test_empty_transport_written_as_model(void **state)
{
    (void)state;
    struct ipu_board b, back;
    ipu_board_default(&b);
    b.transport[0] = '\0';
    char text[IPU_BOARD_WRITE_MAX], err[512] = "";
    assert_true(ipu_board_write(&b, text, sizeof text, err, sizeof err) > 0);
    assert_non_null(strstr(text, "\ntransport = \"model\"\n"));
    assert_int_equal(read_back(text, &back, err, sizeof err), 0);
    assert_string_equal(back.transport, "model");
}

static void test_sizes_as_snprintf(void **state)
{
    (void)state;
    struct ipu_board b;
    ipu_board_default(&b);
    char full[IPU_BOARD_WRITE_MAX], cut[40];
    const int n = ipu_board_write(&b, NULL, 0, NULL, 0);
    assert_true(n > 0);
    assert_int_equal(ipu_board_write(&b, full, sizeof full, NULL, 0), n);
    assert_int_equal(ipu_board_write(&b, cut, sizeof cut, NULL, 0), n);
    assert_int_equal(strlen(cut), sizeof cut - 1);
    assert_memory_equal(cut, full, sizeof cut - 1);
    /* The longest text: every string full of two-byte characters (three escaped bytes each), every integer at
     * its largest. It still fits IPU_BOARD_WRITE_MAX. */
    for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++) {
        const struct ipu_board_key *k = &ipu_board_keys[i];
        char *field = (char *)&b + k->offset;
        if (k->kind == IPU_BOARD_KEY_U32) {
            const uint32_t v = (uint32_t)k->max;
            memcpy(field, &v, sizeof v);
        } else if (k->kind == IPU_BOARD_KEY_U64) {
            memcpy(field, &k->max, sizeof k->max);
        } else if (strcmp(k->key, "transport") != 0) {
            size_t j = strcmp(k->key, "isa") == 0 ? 5 : 0; /* the ISA starts "rv32i" */
            for (; j + 2 < k->text_size; j += 2)
                memcpy(field + j, "\xc3\xa9", 2);
            field[j] = '\0';
        }
    }
    b.num_ipus = 1; /* at most 65535 tiles */
    char err[512] = "";
    const int longest = ipu_board_write(&b, NULL, 0, err, sizeof err);
    if (longest < 0)
        fail_msg("the longest board is refused: %s", err);
    assert_true(longest < IPU_BOARD_WRITE_MAX);
    assert_round_trip(&b, "the longest board");
}

/* The rule lives in ipu_board_check, so a board built in memory (what ipudrv_open_with and the model take)
 * is held to it too, not only the writer's output. */
static void test_check_refuses_what_no_file_holds(void **state)
{
    (void)state;
    struct ipu_board b;
    char err[512] = "";
    ipu_board_default(&b);
    snprintf(b.name, sizeof b.name, "tab\there");
    assert_int_equal(ipu_board_check(&b, "in memory", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "in memory: key 'name': the string holds a control character (byte 3)"));
    ipu_board_default(&b);
    snprintf(b.description, sizeof b.description, "x\x7f");
    assert_int_equal(ipu_board_check(&b, "in memory", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "control character (byte 1)"));
    ipu_board_default(&b);
    snprintf(b.description, sizeof b.description, "cut \xe2\x80");
    assert_int_equal(ipu_board_check(&b, "in memory", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'description': byte 4 (0xe2) is not part of a UTF-8 character"));
    ipu_board_default(&b);
    snprintf(b.description, sizeof b.description, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    assert_int_equal(ipu_board_check(&b, "in memory", err, sizeof err), 0);
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
        cmocka_unit_test(test_get_writes_decimal_and_plain_text),
        cmocka_unit_test(test_bad_values_refused),
        cmocka_unit_test(test_empty_transport_is_the_default),
        cmocka_unit_test(test_shipped_boards_round_trip),
        cmocka_unit_test(test_escaped_strings_round_trip),
        cmocka_unit_test(test_newline_refused_as_the_reader_refuses_it),
        cmocka_unit_test(test_bad_strings_and_values_refused),
        cmocka_unit_test(test_empty_transport_written_as_model),
        cmocka_unit_test(test_sizes_as_snprintf),
        cmocka_unit_test(test_check_refuses_what_no_file_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
