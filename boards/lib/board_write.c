/* The board writer (ipu_board_write in ipu_board.h): a board in memory as the
 * text of a board file, one line per key of the key table (board_keys.h), so
 * that the writer cannot forget a key the reader requires or spell one
 * differently. Strings are TOML basic strings written in printable ASCII, the
 * way boards/README.md asks a person to write them: '"' and '\' escaped, any
 * other character as \uXXXX. */
#include "ipu_board.h"
#include "board_keys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Where the text goes: the caller's buffer while it has room; `len` counts
 * every byte the whole text needs, as snprintf does. */
struct sink {
    char *out;
    size_t cap;
    size_t len;
};

static void put(struct sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = s->len < s->cap ? s->out + s->len : NULL;
    int n = vsnprintf(at, at ? s->cap - s->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        s->len += (size_t)n;
}

/* `key = "value"`, escaped. The value passed ipu_board_check, so it is
 * well-formed UTF-8 without control characters: each sequence is one code point. */
static void put_text(struct sink *s, const struct ipu_board_key *k, const char *value)
{
    const unsigned char *text = (const unsigned char *)value;
    const size_t len = strlen(value);
    put(s, "%s = \"", k->key);
    for (size_t i = 0; i < len;) {
        const size_t n = ipu_board_utf8_length(text + i, len - i, NULL);
        unsigned long cp = n == 1 ? text[i] : text[i] & (0x7fu >> n);
        for (size_t b = 1; b < n; b++)
            cp = (cp << 6) | (text[i + b] & 0x3fu);
        i += n;
        if (cp == '"' || cp == '\\')
            put(s, "\\%c", (char)cp);
        else if (cp < 0x80)
            put(s, "%c", (char)cp);
        else if (cp <= 0xffff)
            put(s, "\\u%04lX", cp);
        else
            put(s, "\\U%08lX", cp);
    }
    put(s, "\"\n");
}

int ipu_board_write(const struct ipu_board *board, char *out, size_t out_len, char *err, size_t err_len)
{
    /* Only a board the reader would accept is written: every string terminated, UTF-8 and on one line, every
     * integer in range. */
    struct sink s = {out, out ? out_len : 0, 0};
    if (s.cap)
        out[0] = '\0'; /* a refused board leaves an empty text, never a part of one */
    const int rc = ipu_board_check(board, "ipu_board_write", err, err_len);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++) {
        const struct ipu_board_key *k = &ipu_board_keys[i];
        const char *field = (const char *)board + k->offset;
        if (k->kind == IPU_BOARD_KEY_TEXT) {
            /* An empty transport means the default (ipu_board_check); a file names it. */
            const char *value = strcmp(k->key, "transport") == 0 && !*field ? "model" : field;
            put_text(&s, k, value);
        } else {
            put(&s, "%s = %" PRIu64 "\n", k->key, ipu_board_integer(board, k));
        }
    }
    return (int)s.len;
}
