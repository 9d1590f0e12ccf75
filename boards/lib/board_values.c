/* One board key at a time, by name (ipu_board_key, ipu_board_set and
 * ipu_board_get in ipu_board.h): how code that makes or stores a board in
 * memory reaches the key table and its value rules instead of listing the
 * keys again. */
#include "ipu_board.h"
#include "board_keys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *ipu_board_key_name(size_t i)
{
    return i < IPU_BOARD_NUM_KEYS ? ipu_board_keys[i].key : NULL;
}

int ipu_board_set(struct ipu_board *board, const char *key, const char *value, const char *what, char *err,
                  size_t err_len)
{
    if (!what)
        what = "board";
    const struct ipu_board_key *k = key ? ipu_board_find_key(key) : NULL;
    if (!k)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: unknown board key '%.200s' (boards/README.md lists the keys)",
                              what, key ? key : "(null)");
    if (!value)
        return ipu_board_fail(err, err_len, -EINVAL, "%s: key '%s' was given no value; pass its text", what, k->key);
    if (k->kind != IPU_BOARD_KEY_TEXT)
        return ipu_board_set_integer(board, k, value, what, err, err_len);
    /* In memory an empty transport means the default, as ipu_board_check allows; only a file must name it. */
    if (strcmp(k->key, "transport") == 0 && !*value) {
        board->transport[0] = '\0';
        return 0;
    }
    return ipu_board_set_text(board, k, value, strlen(value), what, err, err_len);
}

int ipu_board_get(const struct ipu_board *board, const char *key, char *out, size_t out_len)
{
    const struct ipu_board_key *k = key ? ipu_board_find_key(key) : NULL;
    if (out && out_len)
        out[0] = '\0';
    if (!k)
        return -EINVAL;
    if (k->kind == IPU_BOARD_KEY_TEXT) { /* bounded: a string in memory may lack its terminator */
        const char *field = (const char *)board + k->offset;
        return snprintf(out, out_len, "%.*s", (int)strnlen(field, k->text_size - 1), field);
    }
    return snprintf(out, out_len, "%" PRIu64, ipu_board_integer(board, k));
}
