/* Board files (see ipu_board.h): the file checks, the search path, the key
 * table and its value rules, ipu_board_check. The TOML document itself is read
 * by toml11 in board_toml.cpp. */
#define _GNU_SOURCE /* dladdr */
#include "ipu_board.h"
#include "board_keys.h"

#include <dlfcn.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef IPU_BOARD_SOURCE_DIR
#define IPU_BOARD_SOURCE_DIR ""
#endif
#ifndef IPU_BOARD_INSTALL_DIR
#define IPU_BOARD_INSTALL_DIR ""
#endif

#define U32(k, lo, hi, m) { #k, IPU_BOARD_KEY_U32, offsetof(struct ipu_board, k), 0, lo, hi, m }
#define U64(k, lo, hi, m) { #k, IPU_BOARD_KEY_U64, offsetof(struct ipu_board, k), 0, lo, hi, m }
#define TEXT(k, m) { #k, IPU_BOARD_KEY_TEXT, offsetof(struct ipu_board, k), sizeof(((struct ipu_board *)0)->k), 0, 0, m }

/* The single table of board keys (boards/README.md lists the same ranges). */
const struct ipu_board_key ipu_board_keys[] = {
    TEXT(name, "the board's name"),
    TEXT(description, "a one-line description"),
    TEXT(isa, "the tile ISA string, e.g. \"rv32imf\" or \"rv32im\""),
    TEXT(abi, "the tile ABI, e.g. \"ilp32f\" or \"ilp32\""),
    TEXT(transport, "the default transport: \"model\" or \"rtl\""),
    U32(num_ipus, 1, 64, "IPUs on the card"),
    U32(ipu_link_bytes_per_cycle, 1, 1024, "IPU-Link bytes per tile cycle between two IPUs"),
    U32(ipu_link_latency_cycles, 0, 1000000, "tile cycles an exchange across IPUs waits for the IPU-Link"),
    U32(tiles_per_ipu, 1, 4096, "tiles per IPU"),
    U32(bytes_per_tile, 4096, 1048576, "bytes of SRAM per tile, a multiple of 4096, at most 1 MiB"),
    U32(worker_contexts, 1, 6, "worker contexts per tile"),
    U64(tile_clock_hz, 1000, 10000000000ull, "tile clock in Hz"),
    U32(exchange_bytes_per_cycle, 1, 1024, "exchange bytes per cycle per tile"),
    U32(memcpy_bytes_per_cycle, 1, 1024, "on-tile memcpy bytes per cycle"),
    U32(data_path_width, 32, 1024, "data path width in bits"),
    U32(min_ipu_sync_delay, 0, 1000000, "minimum IPU sync delay in cycles"),
    U32(global_sync_cycles, 0, 1000000, "cycles of a global sync"),
    U32(rpt_count_max, 1, 0xffffffffu, "largest repeat count"),
    U32(num_stride_bits, 1, 32, "bits in a stride field"),
    U32(tiles_per_shared_exchange_bus, 1, 4096, "tiles sharing an exchange bus"),
    U32(atomic_store_granularity, 1, 64, "atomic store granularity in bytes"),
    U32(supervisor_stack_bytes, 256, 262144, "supervisor stack bytes"),
    U32(worker_stack_bytes, 128, 262144, "stack bytes per worker"),
    U64(host_link_bytes_per_second, 1000, 1000000000000ull,
        "effective host link bandwidth in bytes per second, each direction"),
    U32(host_link_latency_ns, 0, 100000000, "latency of one host transfer in ns"),
};
_Static_assert(sizeof ipu_board_keys / sizeof ipu_board_keys[0] == IPU_BOARD_NUM_KEYS, "IPU_BOARD_NUM_KEYS is stale");
#define NUM_KEYS IPU_BOARD_NUM_KEYS

int ipu_board_fail(char *err, size_t err_len, int code, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return code;
}

const struct ipu_board_key *ipu_board_find_key(const char *key)
{
    for (size_t i = 0; i < NUM_KEYS; i++)
        if (strcmp(ipu_board_keys[i].key, key) == 0)
            return &ipu_board_keys[i];
    return NULL;
}

/* Parses a board integer: decimal without leading zeros, or 0x hex, with '_'
 * only between digits (TOML's rules). strtoull's base 0 would read "010" as
 * octal 8, which a board file never means. Returns 0, -1 (not an integer) or
 * -2 (a decimal with a leading zero). */
static int parse_integer(const char *text, uint64_t *out)
{
    const char *p = text;
    unsigned base = 10;
    if (p[0] == '0' && p[1] == 'x') {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && p[1] != '\0') {
        return isdigit((unsigned char)p[1]) || p[1] == '_' ? -2 : -1;
    }
    uint64_t v = 0;
    int digits = 0, after_digit = 0;
    for (; *p; p++) {
        if (*p == '_') {
            if (!after_digit || !isxdigit((unsigned char)p[1]))
                return -1;
            after_digit = 0;
            continue;
        }
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            return -1;
        if (v > (UINT64_MAX - d) / base)
            return -1; /* does not fit 64 bits: out of every key's range */
        v = v * base + d;
        digits++;
        after_digit = 1;
    }
    if (!digits)
        return -1;
    *out = v;
    return 0;
}

int ipu_board_set_text(struct ipu_board *board, const struct ipu_board_key *k, const char *text, size_t len,
                       const char *where, char *err, size_t err_len)
{
    char *field = (char *)board + k->offset;
    if (len >= k->text_size)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s': string longer than %zu characters", where,
                              k->key, k->text_size - 1);
    const int rc = ipu_board_check_string(k, text, len, where, err, err_len);
    if (rc != 0)
        return rc;
    /* Checked before the copy: a refused value leaves the board as it was. */
    if (strcmp(k->key, "transport") == 0 && !(len == 5 && memcmp(text, "model", 5) == 0) &&
        !(len == 3 && memcmp(text, "rtl", 3) == 0))
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key 'transport': expected \"model\" or \"rtl\", got "
                              "\"%.*s\"", where, (int)len, text);
    memcpy(field, text, len);
    field[len] = '\0';
    return 0;
}

int ipu_board_set_integer(struct ipu_board *board, const struct ipu_board_key *k, const char *token,
                          const char *where, char *err, size_t err_len)
{
    char *field = (char *)board + k->offset;
    uint64_t v = 0;
    const int parsed = parse_integer(token, &v);
    if (parsed == -2)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s': '%.200s' has a leading zero, which a board "
                              "file does not read as octal or decimal; write the number in decimal without leading "
                              "zeros, or in hex with 0x", where, k->key, token);
    if (parsed != 0 || v < k->min || v > k->max)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s': expected an integer from %" PRIu64 " to %"
                              PRIu64 " (%s), got '%.200s'", where, k->key, k->min, k->max, k->meaning, token);
    if (k->kind == IPU_BOARD_KEY_U32) {
        uint32_t v32 = (uint32_t)v;
        memcpy(field, &v32, sizeof v32);
    } else {
        memcpy(field, &v, sizeof v);
    }
    return 0;
}

uint64_t ipu_board_integer(const struct ipu_board *board, const struct ipu_board_key *k)
{
    const char *field = (const char *)board + k->offset;
    if (k->kind == IPU_BOARD_KEY_U32) {
        uint32_t v32;
        memcpy(&v32, field, sizeof v32);
        return v32;
    }
    uint64_t v;
    memcpy(&v, field, sizeof v);
    return v;
}

int ipu_board_check(const struct ipu_board *b, const char *what, char *err, size_t err_len)
{
    if (!what)
        what = "board";
    for (size_t i = 0; i < NUM_KEYS; i++) {
        const struct ipu_board_key *k = &ipu_board_keys[i];
        const char *field = (const char *)b + k->offset;
        if (k->kind == IPU_BOARD_KEY_TEXT) {
            /* A string read from a file or a trace may lack its terminator: never read past the array. */
            if (!memchr(field, '\0', k->text_size))
                return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s' is not a NUL-terminated string of at most %zu "
                            "characters (%s)", what, k->key, k->text_size - 1, k->meaning);
            const int rc = ipu_board_check_string(k, field, strlen(field), what, err, err_len);
            if (rc != 0)
                return rc;
            continue;
        }
        const uint64_t v = ipu_board_integer(b, k);
        if (v < k->min || v > k->max)
            return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s' is %" PRIu64 "; expected an integer from %" PRIu64
                        " to %" PRIu64 " (%s)", what, k->key, v, k->min, k->max, k->meaning);
    }
    if (!b->name[0])
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key 'name' is empty; give the board a name", what);
    if (b->transport[0] && strcmp(b->transport, "model") != 0 && strcmp(b->transport, "rtl") != 0)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key 'transport': expected \"model\" or \"rtl\", got \"%s\"", what,
                    b->transport);
    if (b->bytes_per_tile % 4096)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key 'bytes_per_tile': %" PRIu32 " is not a multiple of 4096", what,
                    b->bytes_per_tile);
    const uint64_t tiles = (uint64_t)b->num_ipus * b->tiles_per_ipu;
    if (tiles > 65535)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: num_ipus * tiles_per_ipu = %" PRIu64 " exceeds 65535 tiles", what,
                    tiles);
    if (strncmp(b->isa, "rv32i", 5) != 0)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key 'isa': expected a string starting \"rv32i\", got \"%s\"", what,
                    b->isa);
    return 0;
}

/* Opens a board file for reading, refusing anything but a regular file of at
 * most IPU_BOARD_FILE_MAX_BYTES: /dev/zero would be read forever, a FIFO
 * blocks the open until a writer comes, a directory reads as nothing. The open
 * itself does not block (O_NONBLOCK), so a FIFO is refused, not waited on. */
static FILE *open_board_file(const char *path, int *rc, char *err, size_t err_len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *rc = ipu_board_fail(err, err_len, -ENOENT, "%s: cannot open board file: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        memset(&st, 0, sizeof st);
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        *rc = ipu_board_fail(err, err_len, -EINVAL, "%s: not a regular file (a %s); a board file is a small .toml text "
                   "file, see boards/README.md", path, S_ISDIR(st.st_mode) ? "directory" :
                   S_ISFIFO(st.st_mode) ? "FIFO" : S_ISCHR(st.st_mode) ? "character device" : "special file");
        return NULL;
    }
    if (st.st_size > IPU_BOARD_FILE_MAX_BYTES) {
        close(fd);
        *rc = ipu_board_fail(err, err_len, -EFBIG, "%s: %lld bytes is too large for a board file (at most %d); is it the "
                   "right file?", path, (long long)st.st_size, IPU_BOARD_FILE_MAX_BYTES);
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        *rc = ipu_board_fail(err, err_len, -errno, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* Reads the whole file (at most IPU_BOARD_FILE_MAX_BYTES) into a NUL-terminated
 * buffer, so that a line of any length is one line: a fixed line buffer split
 * long lines and parsed the tail of a long comment as a key. */
static char *read_board_text(FILE *f, const char *path, int *rc, char *err, size_t err_len)
{
    char *text = malloc(IPU_BOARD_FILE_MAX_BYTES + 2);
    if (!text) {
        *rc = ipu_board_fail(err, err_len, -ENOMEM, "%s: out of memory reading the board file", path);
        return NULL;
    }
    size_t n = fread(text, 1, IPU_BOARD_FILE_MAX_BYTES + 1, f);
    if (n > IPU_BOARD_FILE_MAX_BYTES) { /* a file that grew while read */
        *rc = ipu_board_fail(err, err_len, -EFBIG, "%s: longer than %d bytes; not a board file", path,
                   IPU_BOARD_FILE_MAX_BYTES);
        free(text);
        return NULL;
    }
    if (ferror(f) || memchr(text, '\0', n)) {
        *rc = ipu_board_fail(err, err_len, -EINVAL, "%s: %s; a board file is a small .toml text file, see boards/README.md",
                   path, ferror(f) ? strerror(errno) : "contains a NUL byte, so it is not text");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

int ipu_board_load_file(const char *path, struct ipu_board *board, char *err, size_t err_len)
{
    int rc = 0;
    FILE *f = open_board_file(path, &rc, err, err_len);
    if (!f)
        return rc;
    char *text = read_board_text(f, path, &rc, err, err_len);
    fclose(f);
    if (!text)
        return rc;
    struct ipu_board b;
    memset(&b, 0, sizeof b);
    unsigned char seen[IPU_BOARD_NUM_KEYS] = {0};
    rc = ipu_board_parse_toml(text, strlen(text), path, &b, seen, err, err_len);
    free(text);
    if (rc)
        return rc;
    for (size_t i = 0; i < NUM_KEYS; i++)
        if (!seen[i])
            return ipu_board_fail(err, err_len, -EINVAL, "%s: missing key '%s' (%s)", path, ipu_board_keys[i].key,
                        ipu_board_keys[i].meaning);
    rc = ipu_board_check(&b, path, err, err_len);
    if (rc == 0)
        *board = b;
    return rc;
}

static int is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 5 && strcmp(s + n - 5, ".toml") == 0);
}

static int try_dir(const char *dir, size_t dir_len, const char *name, struct ipu_board *board, char *err,
                   size_t err_len)
{
    char path[1024];
    if (dir_len == 0 || dir_len + strlen(name) + 7 >= sizeof path)
        return -ENOENT;
    snprintf(path, sizeof path, "%.*s/%s.toml", (int)dir_len, dir, name);
    if (access(path, F_OK) != 0) /* not opened here: a FIFO would block */
        return -ENOENT;
    return ipu_board_load_file(path, board, err, err_len);
}

int ipu_board_load(const char *name_or_path, struct ipu_board *board, char *err, size_t err_len)
{
    if (!name_or_path || !*name_or_path)
        return ipu_board_fail(err, err_len, -EINVAL, "no board named: give a board name such as \"tiny\" or a path");
    if (is_path(name_or_path))
        return ipu_board_load_file(name_or_path, board, err, err_len);
    const char *env = getenv("IPU_BOARD_PATH");
    for (const char *p = env; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        int rc = try_dir(p, len, name_or_path, board, err, err_len);
        if (rc != -ENOENT)
            return rc;
        p = colon ? colon + 1 : p + len;
    }
    /* An install moved to another prefix (or staged with `cmake --install --prefix`) keeps its boards next to
     * the library or program this reader is linked into: <prefix>/lib/../share/ipu-emu/boards. */
    char relative[1024] = "";
    Dl_info info;
    if (dladdr((void *)&ipu_board_load, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash)
            snprintf(relative, sizeof relative, "%.*s/../share/ipu-emu/boards", (int)(slash - info.dli_fname),
                     info.dli_fname);
    }
    const char *builtin[] = {relative, IPU_BOARD_INSTALL_DIR, IPU_BOARD_SOURCE_DIR};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        int rc = try_dir(builtin[i], strlen(builtin[i]), name_or_path, board, err, err_len);
        if (rc != -ENOENT)
            return rc;
    }
    return ipu_board_fail(err, err_len, -ENOENT, "board '%s' not found in $IPU_BOARD_PATH (%s), %s%s%s or %s; "
                "name a board from boards/ or give a path to a .toml file", name_or_path, env ? env : "unset",
                relative, *relative ? ", " : "", IPU_BOARD_INSTALL_DIR, IPU_BOARD_SOURCE_DIR);
}

uint32_t ipu_board_num_tiles(const struct ipu_board *board)
{
    return board->num_ipus * board->tiles_per_ipu;
}

int ipu_board_has_fpu(const struct ipu_board *board)
{
    /* The extensions follow "rv32i"; standard order puts F after M and A. */
    return strchr(board->isa + 5, 'f') != NULL || strchr(board->isa + 5, 'g') != NULL;
}

void ipu_board_default(struct ipu_board *b)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "tiny");
    snprintf(b->description, sizeof b->description, "4 tiles x 64 KiB, for fast tests");
    snprintf(b->isa, sizeof b->isa, "rv32imf");
    snprintf(b->abi, sizeof b->abi, "ilp32f");
    snprintf(b->transport, sizeof b->transport, "model");
    b->num_ipus = 1;
    b->ipu_link_bytes_per_cycle = 24;
    b->ipu_link_latency_cycles = 300;
    b->tiles_per_ipu = 4;
    b->bytes_per_tile = 65536;
    b->worker_contexts = 6;
    b->tile_clock_hz = 1330000000ull;
    b->exchange_bytes_per_cycle = 4;
    b->memcpy_bytes_per_cycle = 8;
    b->data_path_width = 64;
    b->min_ipu_sync_delay = 0;
    b->global_sync_cycles = 15;
    b->rpt_count_max = 65535;
    b->num_stride_bits = 10;
    b->tiles_per_shared_exchange_bus = 2;
    b->atomic_store_granularity = 4;
    b->supervisor_stack_bytes = 4096;
    b->worker_stack_bytes = 1024;
    b->host_link_bytes_per_second = 25000000000ull;
    b->host_link_latency_ns = 1000;
}
