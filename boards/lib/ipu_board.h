/* Board descriptions: one concrete card configuration, read from boards/NAME.toml.
 *
 * Every layer (card model, driver, firmware build, host library) reads boards
 * through this one small C library so that they agree on every value. A board
 * file is a flat subset of TOML: `key = integer` or `key = "string"` lines,
 * comments and blank lines. Unknown, missing or out-of-range keys are errors
 * that name the file, the line, the key and what is expected. */
#ifndef IPU_BOARD_H
#define IPU_BOARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPU_BOARD_NAME_MAX 32
#define IPU_BOARD_TEXT_MAX 128
/* The largest board file the reader accepts: board files are a few hundred
 * bytes; anything bigger is the wrong file (or /dev/zero). */
#define IPU_BOARD_FILE_MAX_BYTES 65536

/* One board. Field meanings are in the key table of ipu_board.c and in
 * boards/README.md; the names follow the seed's Target API where one exists. */
struct ipu_board {
    char name[IPU_BOARD_NAME_MAX];
    char description[IPU_BOARD_TEXT_MAX];
    char isa[IPU_BOARD_NAME_MAX];       /* e.g. "rv32imf": -march for tile code */
    char abi[IPU_BOARD_NAME_MAX];       /* e.g. "ilp32f": -mabi for tile code */
    char transport[IPU_BOARD_NAME_MAX]; /* default driver transport: "model", "rtl" */
    uint32_t num_ipus;
    /* IPU-Link between the card's IPUs (see boards/README.md): what a byte a
     * tile sends to another IPU costs on top of the exchange, and the latency
     * of an exchange that crosses IPUs. */
    uint32_t ipu_link_bytes_per_cycle;
    uint32_t ipu_link_latency_cycles;
    uint32_t tiles_per_ipu;
    uint32_t bytes_per_tile;
    uint32_t worker_contexts;
    uint64_t tile_clock_hz;
    uint32_t exchange_bytes_per_cycle;
    uint32_t memcpy_bytes_per_cycle;
    uint32_t data_path_width;
    uint32_t min_ipu_sync_delay;
    uint32_t global_sync_cycles;
    uint32_t rpt_count_max;
    uint32_t num_stride_bits;
    uint32_t tiles_per_shared_exchange_bus;
    uint32_t atomic_store_granularity;
    uint32_t supervisor_stack_bytes;
    uint32_t worker_stack_bytes;
    uint64_t host_link_bytes_per_second; /* effective host link bandwidth, each direction */
    uint32_t host_link_latency_ns;       /* latency of one host transfer (request to completion) */
};

/* Total tiles on the card: num_ipus * tiles_per_ipu. */
uint32_t ipu_board_num_tiles(const struct ipu_board *board);

/* True when the board's ISA string includes the F extension. */
int ipu_board_has_fpu(const struct ipu_board *board);

/* Parses the board file at `path` into *board.
 * Returns 0, or -ENOENT (file missing), -EINVAL (malformed, unknown, missing or
 * out-of-range key; not a regular file: a directory, FIFO or device such as
 * /dev/zero, refused without reading or blocking), -EFBIG (more than
 * IPU_BOARD_FILE_MAX_BYTES). On error, `err` (if not NULL) receives a one-line message
 * naming the file, line, key and the expected value. */
int ipu_board_load_file(const char *path, struct ipu_board *board, char *err, size_t err_len);

/* Checks a board that did not come from ipu_board_load (one stored in a trace
 * or an executable, or built in memory) as a board file is checked: every
 * string NUL-terminated inside its array, well-formed UTF-8 and free of
 * control characters (one line of text), every integer in its key's range
 * (boards/README.md), bytes_per_tile a multiple of 4096, at most 65535 tiles,
 * an rv32i ISA, a transport of "model", "rtl" or "" (the default, model).
 * Returns 0 or -EINVAL; `err` (if not NULL) then receives a one-line message
 * that starts with `what` (e.g. the file the board came from) and names the
 * key, its value and the allowed range. */
int ipu_board_check(const struct ipu_board *board, const char *what, char *err, size_t err_len);

/* Loads a board by name ("tiny", "ipu2") or by path (contains '/' or ends in
 * ".toml"). Names are looked up in the directories of $IPU_BOARD_PATH
 * (colon-separated), then in the installed and source board directories.
 * Returns as ipu_board_load_file; -ENOENT names the directories searched. */
int ipu_board_load(const char *name_or_path, struct ipu_board *board, char *err, size_t err_len);

/* Fills *board with the built-in defaults of the "tiny" board (no file needed);
 * used by unit tests. */
void ipu_board_default(struct ipu_board *board);

/* Keys by name, for code that builds, stores or reads back a board in memory
 * (libpoplar's targets) without a second list of the keys: the key table of
 * the reader and the writer is their one home. */

/* The name of key i, in the order of boards/README.md's table, or NULL when i
 * is past the last key. */
const char *ipu_board_key_name(size_t i);

/* Sets key `key` of *board from its value written as text, by the rules the
 * reader applies to that key in a file: an integer in decimal (no leading
 * zero) or 0x hex inside the key's range, or a string (unescaped) of one line
 * of UTF-8 text that fits; a transport of "model", "rtl" or "" (the default).
 * Returns 0 or -EINVAL; `err` (if not NULL) then starts with `what` and names
 * the key, the value and what is expected. Checks between keys (a multiple of
 * 4096 bytes per tile, at most 65535 tiles) are ipu_board_check's. */
int ipu_board_set(struct ipu_board *board, const char *key, const char *value, const char *what, char *err,
                  size_t err_len);

/* Writes the value of key `key` of *board as text into `out` (out_len bytes,
 * always NUL-terminated when out_len > 0): an integer in decimal, a string as
 * it is (not escaped), so that ipu_board_set reads it back. Returns the
 * length, as snprintf does, or -EINVAL for a key the table does not have. */
int ipu_board_get(const struct ipu_board *board, const char *key, char *out, size_t out_len);

/* A buffer of this many bytes holds the text ipu_board_write makes of any board. */
#define IPU_BOARD_WRITE_MAX 4096

/* Writes *board as the text of a board file into `out` (out_len bytes, always
 * NUL-terminated when out_len > 0; `out` may be NULL when out_len is 0): a
 * `key = value` line for every key, in the order of boards/README.md's table,
 * integers in decimal, strings as TOML strings in printable ASCII ('"' and '\'
 * escaped, other characters as \uXXXX), an empty transport as "model". What
 * ipu_board_load_file reads back from the text equals *board, key for key.
 * Returns the length of the whole text, as snprintf does (it was cut when that
 * is >= out_len), or -EINVAL when the board fails ipu_board_check or a string
 * holds what a board file cannot (a control character, bytes that are not
 * UTF-8); `err` (if not NULL) then names the key and the fix. */
int ipu_board_write(const struct ipu_board *board, char *out, size_t out_len, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif /* IPU_BOARD_H */
