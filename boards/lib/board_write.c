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

/* The code point of the UTF-8 sequence at text[*i] (the string is NUL-terminated),
 * advancing *i past it; -1 for a byte that does not start a well-formed sequence
 * (a stray continuation byte, a cut sequence, an overlong form, a surrogate, a
 * value past U+10FFFF), which no TOML string can hold. */
static long utf8_next(const unsigned char *text, size_t *i)
{
    const unsigned char c = text[*i];
    size_t more;
    long cp, least;
    if (c < 0x80) {
        *i += 1;
        return c;
    } else if (c >= 0xc2 && c <= 0xdf) {
        more = 1, cp = c & 0x1f, least = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        more = 2, cp = c & 0x0f, least = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        more = 3, cp = c & 0x07, least = 0x10000;
    } else {
        return -1;
    }
    for (size_t k = 1; k <= more; k++) {
        if ((text[*i + k] & 0xc0) != 0x80) /* the NUL ends a cut sequence here */
            return -1;
        cp = (cp << 6) | (text[*i + k] & 0x3f);
    }
    if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;
    *i += more + 1;
    return cp;
}

/* `key = "value"`, escaped; 0, or -EINVAL naming the key when the value holds
 * a character the reader refuses in a board string. */
static int put_text(struct sink *s, const struct ipu_board_key *k, const char *value, char *err, size_t err_len)
{
    const unsigned char *text = (const unsigned char *)value;
    put(s, "%s = \"", k->key);
    for (size_t i = 0; text[i];) {
        const size_t at = i;
        const long cp = utf8_next(text, &i);
        if (cp < 0)
            return ipu_board_fail(err, err_len, -EINVAL, "cannot write key '%s': byte %zu (0x%02x) is not part of a "
                                  "UTF-8 character; give %s as UTF-8 text", k->key, at, text[at], k->meaning);
        if (cp < 0x20 || cp == 0x7f) /* the reader's rule: one line of printable text */
            return ipu_board_fail(err, err_len, -EINVAL, "cannot write key '%s': the string holds a control character "
                                  "(byte %zu); write %s on one line of printable text", k->key, at, k->meaning);
        if (cp == '"' || cp == '\\')
            put(s, "\\%c", (char)cp);
        else if (cp < 0x80)
            put(s, "%c", (char)cp);
        else if (cp <= 0xffff)
            put(s, "\\u%04lX", (unsigned long)cp);
        else
            put(s, "\\U%08lX", (unsigned long)cp);
    }
    put(s, "\"\n");
    return 0;
}

int ipu_board_write(const struct ipu_board *board, char *out, size_t out_len, char *err, size_t err_len)
{
    /* Only a board the reader would accept is written: every string terminated, every integer in range. */
    const int rc = ipu_board_check(board, "ipu_board_write", err, err_len);
    if (rc != 0)
        return rc;
    struct sink s = {out, out ? out_len : 0, 0};
    if (s.cap)
        out[0] = '\0';
    for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++) {
        const struct ipu_board_key *k = &ipu_board_keys[i];
        const char *field = (const char *)board + k->offset;
        if (k->kind == IPU_BOARD_KEY_TEXT) {
            /* An empty transport means the default (ipu_board_check); a file names it. */
            const char *value = strcmp(k->key, "transport") == 0 && !*field ? "model" : field;
            const int text_rc = put_text(&s, k, value, err, err_len);
            if (text_rc != 0) {
                if (s.cap)
                    out[0] = '\0';
                return text_rc;
            }
        } else if (k->kind == IPU_BOARD_KEY_U32) {
            uint32_t v;
            memcpy(&v, field, sizeof v);
            put(&s, "%s = %" PRIu32 "\n", k->key, v);
        } else {
            uint64_t v;
            memcpy(&v, field, sizeof v);
            put(&s, "%s = %" PRIu64 "\n", k->key, v);
        }
    }
    return (int)s.len;
}
