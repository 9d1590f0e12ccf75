/* The board keys and their value rules, shared by the C side of the board
 * reader (ipu_board.c: file checks, search path, ipu_board_check) and its TOML
 * side (board_toml.cpp: the document through toml11). Not installed. */
#ifndef IPU_BOARD_KEYS_H
#define IPU_BOARD_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_board.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ipu_board_key_kind { IPU_BOARD_KEY_U32, IPU_BOARD_KEY_U64, IPU_BOARD_KEY_TEXT };

/* One key: kind, where the value goes, the range that makes sense, and the
 * meaning quoted in error messages. */
struct ipu_board_key {
    const char *key;
    enum ipu_board_key_kind kind;
    size_t offset;
    size_t text_size;
    uint64_t min, max;
    const char *meaning;
};

/* The number of keys in ipu_board_keys (ipu_board.c checks it at compile time). */
#define IPU_BOARD_NUM_KEYS 25
extern const struct ipu_board_key ipu_board_keys[];

/* The key named `key`, or NULL. */
const struct ipu_board_key *ipu_board_find_key(const char *key);

/* Writes a message into err (if not NULL) and returns code. */
int ipu_board_fail(char *err, size_t err_len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Stores the integer written as `token` (the value's text in the file) into
 * the key's field. The board format's own integer rules apply, not all of
 * TOML's: decimal without a leading zero or 0x hex, '_' only between digits,
 * no sign, no 0o/0b, no value past 64 bits, then the key's range. An error
 * starts with `where` (a file's path:line, or what builds the board in memory),
 * names the key and what is expected. */
int ipu_board_set_integer(struct ipu_board *board, const struct ipu_board_key *k, const char *token,
                          const char *where, char *err, size_t err_len);

/* The value of integer key k (U32 or U64) of *board, widened to 64 bits. */
uint64_t ipu_board_integer(const struct ipu_board *board, const struct ipu_board_key *k);

/* Stores the string `text` (len bytes, already unescaped) into the key's
 * field; an error starts with `where`, as for ipu_board_set_integer. */
int ipu_board_set_text(struct ipu_board *board, const struct ipu_board_key *k, const char *text, size_t len,
                       const char *where, char *err, size_t err_len);

/* Checks that the board document `text` (len bytes) is well-formed UTF-8 with
 * no control character but tab, CR and LF: what the TOML reader may be given.
 * Returns 0 or -EINVAL with a message naming path:line, the byte offset, what
 * is wrong (an overlong form, a surrogate, a code point past U+10FFFF, a cut
 * sequence, a control character) and the fix. */
int ipu_board_check_text(const char *text, size_t len, const char *path, char *err, size_t err_len);

/* Checks one string value (len bytes) of key k against what a board string
 * may hold: well-formed UTF-8 and no control character, one line of printable
 * text. Returns 0 or -EINVAL with a message that starts with `where` (a file's
 * path:line, or what holds an in-memory board), names the key, the byte and the
 * fix. The reader, ipu_board_check and so the writer all apply this rule. */
int ipu_board_check_string(const struct ipu_board_key *k, const char *value, size_t len, const char *where, char *err,
                           size_t err_len);

/* The length of the well-formed UTF-8 sequence at s[0] (n bytes available),
 * or 0 when none starts there; *why (if not NULL) then says what is wrong. */
size_t ipu_board_utf8_length(const unsigned char *s, size_t n, const char **why);

/* Parses the board document `text` (len bytes, no NUL inside) with toml11 and
 * stores every key into *board, setting seen[i] (IPU_BOARD_NUM_KEYS entries)
 * for each key i of ipu_board_keys it finds. Never throws; returns 0 or -EINVAL with a one-line
 * message naming path:line, the key and the fix. */
int ipu_board_parse_toml(const char *text, size_t len, const char *path, struct ipu_board *board,
                         unsigned char *seen, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif /* IPU_BOARD_KEYS_H */
