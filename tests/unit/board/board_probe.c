/* The C board reader's view of a board file, for test_board_rules.py, which
 * checks that boards/lib/board_rules.py (the Python readers' rules) agrees
 * with it word for word:
 *   board_probe keys        each entry of ipu_board_keys: key|kind|text_size|min|max|meaning
 *   board_probe load FILE   the board as key=value lines in table order (exit 0), or the reader's message on
 *                           stderr (exit 1) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "board_keys.h"
#include "ipu_board.h"

static const char *const kind_names[] = {"u32", "u64", "text"};

static void print_key(const struct ipu_board_key *k)
{
    printf("%s|%s|%zu|%" PRIu64 "|%" PRIu64 "|%s\n", k->key, kind_names[k->kind], k->text_size, k->min, k->max,
           k->meaning);
}

static void print_value(const struct ipu_board *b, const struct ipu_board_key *k)
{
    const char *field = (const char *)b + k->offset;
    if (k->kind == IPU_BOARD_KEY_TEXT) {
        printf("%s=%s\n", k->key, field);
    } else if (k->kind == IPU_BOARD_KEY_U32) {
        uint32_t v;
        memcpy(&v, field, sizeof v);
        printf("%s=%" PRIu32 "\n", k->key, v);
    } else {
        uint64_t v;
        memcpy(&v, field, sizeof v);
        printf("%s=%" PRIu64 "\n", k->key, v);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "keys") == 0) {
        for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++)
            print_key(&ipu_board_keys[i]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "load") == 0) {
        struct ipu_board b;
        char err[1024] = "";
        if (ipu_board_load_file(argv[2], &b, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        for (size_t i = 0; i < IPU_BOARD_NUM_KEYS; i++)
            print_value(&b, &ipu_board_keys[i]);
        return 0;
    }
    fprintf(stderr, "usage: board_probe keys | board_probe load FILE\n");
    return 2;
}
