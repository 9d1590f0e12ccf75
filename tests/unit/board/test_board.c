/* Board reader: the shipped boards load with their documented values, and
 * every kind of bad board file gets an error naming the file, key and fix. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipu_board.h"

static void test_shipped_boards(void **state)
{
    (void)state;
    struct ipu_board b;
    char err[512] = "";
    assert_int_equal(ipu_board_load("tiny", &b, err, sizeof err), 0);
    assert_string_equal(b.name, "tiny");
    assert_int_equal(ipu_board_num_tiles(&b), 4);
    assert_int_equal(b.bytes_per_tile, 65536);
    assert_int_equal(b.worker_contexts, 6);
    assert_true(ipu_board_has_fpu(&b));
    assert_int_equal(ipu_board_load("ipu1", &b, err, sizeof err), 0);
    assert_int_equal(ipu_board_num_tiles(&b), 1216);
    assert_int_equal(b.bytes_per_tile, 256 * 1024);
    assert_int_equal(ipu_board_load("ipu2", &b, err, sizeof err), 0);
    assert_int_equal(ipu_board_num_tiles(&b), 1472);
    assert_int_equal(b.bytes_per_tile, 624 * 1024);
    assert_true(b.tile_clock_hz == 1330000000ull);
}

static void test_default_matches_tiny_file(void **state)
{
    (void)state;
    struct ipu_board file, builtin;
    assert_int_equal(ipu_board_load(TEST_BOARD_DIR "/tiny.toml", &file, NULL, 0), 0);
    ipu_board_default(&builtin);
    assert_memory_equal(&file, &builtin, sizeof file);
}

/* Writes `text` to a temporary board file and loads it into *b; returns the code. */
static int load_into(const char *text, struct ipu_board *b, char *err, size_t err_len, char *path, size_t path_len)
{
    snprintf(path, path_len, "/tmp/ipu-board-test-%d.toml", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int rc = ipu_board_load_file(path, b, err, err_len);
    unlink(path);
    return rc;
}

/* As load_into, for a test that wants the message and the path. */
static int load_text(const char *text, char *err, size_t err_len, char *path, size_t path_len)
{
    struct ipu_board b;
    return load_into(text, &b, err, err_len, path, path_len);
}

/* As load_into, for a test that wants the board (the message is printed). */
static int load_board(const char *text, struct ipu_board *b)
{
    char path[64], err[512] = "";
    const int rc = load_into(text, b, err, sizeof err, path, sizeof path);
    if (rc)
        print_message("%s\n", err);
    return rc;
}

/* The tiny board's text with one line replaced (or appended when absent). */
static char *tiny_with(const char *key, const char *line)
{
    static char out[4096];
    FILE *f = fopen(TEST_BOARD_DIR "/tiny.toml", "r");
    assert_non_null(f);
    char buf[256];
    out[0] = '\0';
    int replaced = 0;
    while (fgets(buf, sizeof buf, f)) {
        if (strncmp(buf, key, strlen(key)) == 0 && buf[strlen(key)] == ' ') {
            strcat(out, line);
            replaced = 1;
        } else {
            strcat(out, buf);
        }
    }
    fclose(f);
    if (!replaced)
        strcat(out, line);
    return out;
}

static void expect_error(const char *text, const char *needle1, const char *needle2)
{
    char err[512] = "", path[64];
    assert_int_equal(load_text(text, err, sizeof err, path, sizeof path), -EINVAL);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, needle1));
    assert_null(strchr(err, '\n')); /* one line, whatever toml11's own message looked like */
    if (needle2)
        assert_non_null(strstr(err, needle2));
}

static void test_bad_integer(void **state)
{
    (void)state;
    expect_error(tiny_with("bytes_per_tile", "bytes_per_tile = lots\n"), "key 'bytes_per_tile'", "expected an integer");
}

static void test_out_of_range(void **state)
{
    (void)state;
    expect_error(tiny_with("worker_contexts", "worker_contexts = 9\n"), "key 'worker_contexts'", "from 1 to 6");
}

static void test_not_page_multiple(void **state)
{
    (void)state;
    expect_error(tiny_with("bytes_per_tile", "bytes_per_tile = 5000\n"), "bytes_per_tile", "multiple of 4096");
}

static void test_unknown_key(void **state)
{
    (void)state;
    expect_error(tiny_with("colour", "colour = \"blue\"\n"), "unknown key 'colour'", NULL);
}

static void test_missing_key(void **state)
{
    (void)state;
    expect_error(tiny_with("abi", "# no abi\n"), "missing key 'abi'", NULL);
}

static void test_duplicate_key(void **state)
{
    (void)state;
    expect_error(tiny_with("zzz", "num_ipus = 1\n"), "'num_ipus' is given twice", NULL);
}

static void test_unquoted_string(void **state)
{
    (void)state;
    expect_error(tiny_with("isa", "isa = rv32imf\n"), "key 'isa'", "quoted string");
}

/* Issue 36: "010" was read as octal 8 (boards/README.md says decimal or 0x hex). */
static void test_leading_zero_refused(void **state)
{
    (void)state;
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = 010\n"), "key 'tiles_per_ipu'", "leading zero");
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = 0_4\n"), "key 'tiles_per_ipu'", "leading zero");
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = 4_\n"), "key 'tiles_per_ipu'", "expected an integer");
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = 0o4\n"), "key 'tiles_per_ipu'", "expected an integer");
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = 99999999999999999999999\n"), "key 'tiles_per_ipu'",
                 "expected an integer");
    /* What the README allows still reads: 0x hex, '_' between digits, a plain 0. */
    char err[512] = "", path[64];
    assert_int_equal(load_text(tiny_with("tiles_per_ipu", "tiles_per_ipu = 0x1_0\n"), err, sizeof err, path,
                               sizeof path), 0);
    assert_int_equal(load_text(tiny_with("min_ipu_sync_delay", "min_ipu_sync_delay = 0\n"), err, sizeof err, path,
                               sizeof path), 0);
}

/* Issue 36: a comment line longer than the reader's line buffer had its tail
 * parsed as a key; a line is a line whatever its length. */
static void test_long_lines(void **state)
{
    (void)state;
    static char text[8192];
    char line[2048];
    /* 511 bytes of comment, then what the old reader took for the next line: a second 'name'. */
    memset(line, 'c', 511);
    memcpy(line, "# ", 2);
    snprintf(line + 511, sizeof line - 511, "name = \"evil\"\n");
    snprintf(text, sizeof text, "%s%s", line, tiny_with("zzz", ""));
    char err[512] = "", path[64];
    if (load_text(text, err, sizeof err, path, sizeof path) != 0)
        fail_msg("a long comment line was not skipped: %s", err);
    /* A long value still gets its error, with the right line number. */
    memset(line, '1', 1500);
    snprintf(line + 1500, sizeof line - 1500, "\n");
    snprintf(text, sizeof text, "%sbytes_per_tile = %s", tiny_with("bytes_per_tile", ""), line);
    expect_error(text, ":32: key 'bytes_per_tile'", "expected an integer");
}

/* Issue 36: transport = "" was read as the model. */
static void test_empty_transport_refused(void **state)
{
    (void)state;
    expect_error(tiny_with("transport", "transport = \"\"\n"), "key 'transport'", "\"model\" or \"rtl\"");
    expect_error(tiny_with("transport", "transport = \"qemu\"\n"), "key 'transport'", "\"model\" or \"rtl\"");
}

/* Issue 36: the document is read by toml11 (a packaged TOML reader); its
 * errors become one line naming the file and line, TOML's strings work, and
 * what toml11 cannot take (deep nesting: it recurses) is refused before it. */
static void test_toml_document(void **state)
{
    (void)state;
    expect_error(tiny_with("abi", "ab i = \"ilp32f\"\n"), ":11:1: invalid format for key", "boards/README.md");
    expect_error(tiny_with("abi", "abi = \"ilp32f\" extra\n"), ":11:", "expected newline");
    expect_error(tiny_with("abi", "abi = \"a\\u0001\"\n"), ":11: key 'abi'", "control character");
    expect_error(tiny_with("zzz", "[extra]\n"), "unknown key 'extra'", NULL);
    expect_error(tiny_with("tiles_per_ipu", "tiles_per_ipu = \"4\"\n"), "key 'tiles_per_ipu'", "expected an integer");
    static char deep[8192];
    memset(deep, '[', 5000);
    snprintf(deep + 5000, sizeof deep - 5000, "\n%s", tiny_with("zzz", ""));
    memcpy(deep, "abi = ", 6);
    expect_error(deep, ":1: brackets nest more than 32 deep", NULL);
    /* TOML's escapes and literal strings, and a '#' inside a string is a character, not a comment. */
    struct ipu_board b;
    assert_int_equal(load_board(tiny_with("abi", "abi = \"\\u0069lp32f\"\n"), &b), 0);
    assert_string_equal(b.abi, "ilp32f");
    assert_int_equal(load_board(tiny_with("abi", "abi = '\\u0069lp32f'\n"), &b), 0);
    assert_string_equal(b.abi, "\\u0069lp32f");
    assert_int_equal(load_board(tiny_with("description", "description = \"4 # tiles\" # the comment\n"), &b), 0);
    assert_string_equal(b.description, "4 # tiles");
}

/* The tiny board with `tail` appended; expects the error at line `line`, at
 * byte offset `at` of `tail`, saying `why`. */
static void expect_bad_text(const char *tail, unsigned line, size_t at, const char *why)
{
    static char text[8192];
    const char *tiny = tiny_with("zzz", "");
    snprintf(text, sizeof text, "%s%s", tiny, tail);
    char where[64];
    snprintf(where, sizeof where, ":%u: byte 0x%02x at offset %zu ", line, (unsigned char)tail[at], strlen(tiny) + at);
    expect_error(text, where, why);
}

/* Issue 36: the reader refused every byte past ASCII because toml11 overflowed
 * on 0xff; it takes well-formed UTF-8 in comments and strings, and refuses
 * ill-formed UTF-8 (which toml11 never sees) with the line, offset and reason. */
static void test_utf8(void **state)
{
    (void)state;
    struct ipu_board b;
    assert_int_equal(load_board(tiny_with("description", "# tiny \xe2\x80\x94 a user's comment, \xc3\xa9t\xc3\xa9\n"
                                                         "description = \"4 tiles \xe2\x80\x94 \xf0\x9f\x98\x80\"\n"),
                                &b), 0);
    assert_string_equal(b.description, "4 tiles \xe2\x80\x94 \xf0\x9f\x98\x80");
    assert_int_equal(load_board(tiny_with("abi", "abi = 'ilp32f' # \xef\xbf\xbd \xf4\x8f\xbf\xbf\n"), &b), 0);
    /* The tiny board has 32 lines: the tail starts on line 33. */
    expect_bad_text("x = '\xff\xff'\n", 33, 5, "never occurs in UTF-8");
    expect_bad_text("# \xc0\xaf\n", 33, 2, "overlong form of an ASCII character");
    expect_bad_text("#\n# \xe0\x80\xaf\n", 34, 4, "an overlong form");
    expect_bad_text("# \xf0\x8f\xbf\xbf\n", 33, 2, "an overlong form");
    expect_bad_text("# \xed\xa0\x80\n", 33, 2, "surrogate");
    expect_bad_text("# \xf4\x90\x80\x80\n", 33, 2, "past U+10FFFF");
    expect_bad_text("# \xe2\x80\n", 33, 2, "cut short");
    expect_bad_text("# \xe2\x80", 33, 2, "cut short");
    expect_bad_text("# \x80\n", 33, 2, "continuation byte with no lead byte");
    expect_bad_text("x = \"\x01\"\n", 33, 5, "control character");
    expect_bad_text("# \x7f\n", 33, 2, "control character");
}

/* ipu_board_check: a board from memory (a trace, an executable) gets the ranges of a board file. */
static void test_check_in_memory(void **state)
{
    (void)state;
    struct ipu_board b;
    char err[512] = "";
    ipu_board_default(&b);
    assert_int_equal(ipu_board_check(&b, "x", err, sizeof err), 0);
    b.worker_contexts = 7;
    assert_int_equal(ipu_board_check(&b, "the trace's board", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "the trace's board: key 'worker_contexts' is 7; expected an integer from 1 to 6"));
    ipu_board_default(&b);
    b.tiles_per_ipu = 4096;
    b.num_ipus = 64;
    assert_int_equal(ipu_board_check(&b, "b", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "262144 exceeds 65535 tiles"));
    ipu_board_default(&b);
    memset(b.isa, 'r', sizeof b.isa);
    assert_int_equal(ipu_board_check(&b, "b", err, sizeof err), -EINVAL);
    assert_non_null(strstr(err, "key 'isa' is not a NUL-terminated string"));
}

static void test_not_found(void **state)
{
    (void)state;
    struct ipu_board b;
    char err[512] = "";
    assert_int_equal(ipu_board_load("no-such-board", &b, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "board 'no-such-board' not found"));
    assert_int_equal(ipu_board_load_file("/nonexistent/x.toml", &b, err, sizeof err), -ENOENT);
    assert_non_null(strstr(err, "/nonexistent/x.toml"));
}

/* Loads `path` (with alarm() as a guard: before the fix /dev/zero was read
 * forever and a FIFO blocked the open) and checks the error names `what`. */
static void expect_refused(const char *path, int code, const char *what)
{
    struct ipu_board b;
    char err[512] = "";
    alarm(10);
    assert_int_equal(ipu_board_load(path, &b, err, sizeof err), code);
    alarm(0);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, what));
}

static void test_not_a_regular_file(void **state)
{
    (void)state;
    expect_refused("/dev/zero", -EINVAL, "not a regular file (a character device)");
    char dir[] = "/tmp/ipu-board-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    expect_refused(dir, -EINVAL, "not a regular file (a directory)");
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/fifo.toml", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_refused(fifo, -EINVAL, "not a regular file (a FIFO)");
    /* By name through $IPU_BOARD_PATH too: the search must not open it. */
    const char *old = getenv("IPU_BOARD_PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("IPU_BOARD_PATH", dir, 1);
    struct ipu_board b;
    char err[512] = "";
    alarm(10);
    assert_int_equal(ipu_board_load("fifo", &b, err, sizeof err), -EINVAL);
    alarm(0);
    assert_non_null(strstr(err, "FIFO"));
    if (saved)
        setenv("IPU_BOARD_PATH", saved, 1);
    else
        unsetenv("IPU_BOARD_PATH");
    free(saved);
    unlink(fifo);
    char big[64];
    snprintf(big, sizeof big, "%s/big.toml", dir);
    FILE *f = fopen(big, "w");
    assert_non_null(f);
    for (int i = 0; i <= IPU_BOARD_FILE_MAX_BYTES / 16; i++)
        fputs("# padding line.\n", f);
    fclose(f);
    expect_refused(big, -EFBIG, "too large for a board file");
    unlink(big);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_boards),   cmocka_unit_test(test_default_matches_tiny_file),
        cmocka_unit_test(test_bad_integer),      cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_not_page_multiple), cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_missing_key),      cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_unquoted_string),  cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_not_a_regular_file), cmocka_unit_test(test_leading_zero_refused),
        cmocka_unit_test(test_long_lines),       cmocka_unit_test(test_empty_transport_refused),
        cmocka_unit_test(test_check_in_memory), cmocka_unit_test(test_toml_document),
        cmocka_unit_test(test_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
