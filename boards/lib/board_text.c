/* The text rule of a board file, checked before the TOML reader sees a byte:
 * well-formed UTF-8 (RFC 3629) without control characters other than tab, CR
 * and LF. toml11 3.7.1 reads past its buffer on some ill-formed bytes (a
 * literal string of 0xff, found by board_fuzz), so it is only ever given text
 * that passed here; boards/lib/board_rules.py applies the same rule, with the
 * same messages, for the Python board readers. */
#include "board_keys.h"

#include <errno.h>

size_t ipu_board_utf8_length(const unsigned char *s, size_t n, const char **why)
{
    const char *ignored;
    if (!why)
        why = &ignored;
    const unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
    if (c < 0xc2) {
        *why = c < 0xc0 ? "a continuation byte with no lead byte before it" : "an overlong form of an ASCII character";
        return 0;
    } else if (c < 0xe0) {
        len = 2;
    } else if (c < 0xf0) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0; /* e0 80..9f: overlong */
        else if (c == 0xed)
            hi = 0x9f; /* ed a0..bf: a UTF-16 surrogate, U+D800..U+DFFF */
    } else if (c < 0xf5) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90; /* f0 80..8f: overlong */
        else if (c == 0xf4)
            hi = 0x8f; /* f4 90..: past U+10FFFF */
    } else {
        *why = "a byte that never occurs in UTF-8, as it would start a code point past U+10FFFF";
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if (i >= n || s[i] < 0x80 || s[i] > 0xbf) {
            *why = "a sequence cut short";
            return 0;
        }
        if (i == 1 && (s[1] < lo || s[1] > hi)) {
            *why = c == 0xed ? "a UTF-16 surrogate, U+D800..U+DFFF" : c == 0xf4 ? "a code point past U+10FFFF"
                                                                                 : "an overlong form";
            return 0;
        }
    }
    return len;
}

int ipu_board_check_text(const char *text, size_t len, const char *path, char *err, size_t err_len)
{
    const unsigned char *s = (const unsigned char *)text;
    unsigned line = 1;
    for (size_t i = 0; i < len;) {
        const unsigned char c = s[i];
        if (c == '\n')
            line++;
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: byte 0x%02x at offset %zu is a control character; "
                                  "a board file is UTF-8 text whose only control characters are tab and line ends; "
                                  "remove it", path, line, c, i);
        const char *why = "";
        const size_t n = ipu_board_utf8_length(s + i, len - i, &why);
        if (n == 0)
            return ipu_board_fail(err, err_len, -EINVAL, "%s:%u: byte 0x%02x at offset %zu is not well-formed UTF-8 "
                                  "(%s); save the board file as UTF-8 (boards/README.md)", path, line, c, i, why);
        i += n;
    }
    return 0;
}

int ipu_board_check_string(const struct ipu_board_key *k, const char *value, size_t len, const char *where, char *err,
                           size_t err_len)
{
    const unsigned char *s = (const unsigned char *)value;
    for (size_t i = 0; i < len;) {
        if (s[i] < 0x20 || s[i] == 0x7f)
            return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s': the string holds a control character "
                                  "(byte %zu); write %s on one line of printable text", where, k->key, i, k->meaning);
        const size_t n = ipu_board_utf8_length(s + i, len - i, NULL);
        if (n == 0)
            return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s': byte %zu (0x%02x) is not part of a UTF-8 "
                                  "character; give %s as UTF-8 text", where, k->key, i, s[i], k->meaning);
        i += n;
    }
    return 0;
}
