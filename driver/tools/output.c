/* JSON and text printing for the gc tools (see output.h). The JSON form is a json-c document (Debian:
 * libjson-c-dev) built as the calls come and printed whole by out_free: json-c escapes the strings and lays the
 * document out, so the tools keep no JSON writer of their own. The text form is printed as it comes. */
#include "output.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_COLS 40

struct row {
    char *cells[MAX_COLS];
};

struct out {
    FILE *f;
    int json;
    /* JSON: the document and the open containers (open[depth - 1] is the innermost) */
    json_object *root;
    json_object *open[MAX_DEPTH];
    int depth;
    /* text */
    int indent;
    int table_depth;  /* array nesting inside a table; 0: no table */
    char *cols[MAX_COLS];
    int ncols;
    struct row *rows;
    int nrows;
    char cell[2048];  /* the cell an inner array is collected into */
    const char *cell_key;
    int cell_items, cell_fields;
};

static void *or_die(void *p)
{
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

struct out *out_new(FILE *f, int json)
{
    struct out *o = or_die(calloc(1, sizeof *o));
    o->f = f;
    o->json = json;
    return o;
}

void out_free(struct out *o)
{
    if (o->json && o->root) {
        /* Two-space indentation and `"key": value`, with '/' as itself: the layout the tools have always printed. */
        fputs(json_object_to_json_string_ext(o->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                          JSON_C_TO_STRING_NOSLASHESCAPE),
              o->f);
        fputc('\n', o->f);
        json_object_put(o->root);
    }
    fflush(o->f);
    free(o);
}

/* ---- JSON ---- */

/* Puts `value` (owned from here on by the document) under `key` of the innermost object, at the end of the
 * innermost array, or as the document itself. */
static void json_add(struct out *o, const char *key, json_object *value)
{
    or_die(value);
    if (o->depth == 0) {
        if (o->root) {
            fprintf(stderr, "gc tools: a second JSON document was started before out_free\n");
            abort();
        }
        o->root = value;
        return;
    }
    json_object *parent = o->open[o->depth - 1];
    int rc = json_object_is_type(parent, json_type_array) ? json_object_array_add(parent, value)
                                                          : json_object_object_add(parent, key ? key : "", value);
    if (rc != 0) {
        json_object_put(value);
        or_die(NULL);
    }
}

static void json_open(struct out *o, const char *key, json_object *container)
{
    if (o->depth == MAX_DEPTH) {
        fprintf(stderr, "gc tools: JSON nested more than %d deep\n", MAX_DEPTH);
        abort();
    }
    json_add(o, key, container);
    o->open[o->depth++] = container;
}

/* json-c lays an empty array or object out over two lines ("[" and then "]" under it); the tools print [] and {},
 * as a person writes them and as every other JSON printer does. */
static int print_empty(json_object *jso, struct printbuf *pb, int level, int flags)
{
    (void)level;
    (void)flags;
    return printbuf_memappend(pb, json_object_is_type(jso, json_type_array) ? "[]" : "{}", 2);
}

static void json_close(struct out *o)
{
    if (o->depth == 0)
        return;
    /* Closed, so it stays as it is now: an empty one keeps the short form. */
    json_object *c = o->open[--o->depth];
    const size_t n = json_object_is_type(c, json_type_array) ? json_object_array_length(c)
                                                             : (size_t)json_object_object_length(c);
    if (n == 0)
        json_object_set_serializer(c, print_empty, NULL, NULL);
}

/* ---- text ---- */

static int column(struct out *o, const char *key)
{
    for (int i = 0; i < o->ncols; i++)
        if (strcmp(o->cols[i], key) == 0)
            return i;
    if (o->ncols == MAX_COLS)
        return MAX_COLS - 1;
    o->cols[o->ncols] = strdup(key);
    return o->ncols++;
}

static void text_value(struct out *o, const char *key, const char *text)
{
    if (o->table_depth == 0) {
        fprintf(o->f, "%*s%s: %s\n", 2 * o->indent, "", key, text);
        return;
    }
    if (o->table_depth > 1) { /* inside a cell: fields joined by spaces, items by " | " */
        size_t len = strlen(o->cell);
        const char *sep = o->cell_fields ? " " : (o->cell_items > 1 ? " | " : "");
        snprintf(o->cell + len, sizeof o->cell - len, "%s%s", sep, text);
        o->cell_fields++;
        return;
    }
    if (!o->nrows || !key)
        return;
    int c = column(o, key);
    free(o->rows[o->nrows - 1].cells[c]);
    o->rows[o->nrows - 1].cells[c] = strdup(text);
}

static void print_table(struct out *o)
{
    size_t width[MAX_COLS] = {0};
    for (int c = 0; c < o->ncols; c++) {
        width[c] = strlen(o->cols[c]);
        for (int r = 0; r < o->nrows; r++)
            if (o->rows[r].cells[c] && strlen(o->rows[r].cells[c]) > width[c])
                width[c] = strlen(o->rows[r].cells[c]);
    }
    for (int r = -1; r < o->nrows; r++) {
        for (int c = 0; c < o->ncols; c++) {
            const char *s = r < 0 ? o->cols[c] : (o->rows[r].cells[c] ? o->rows[r].cells[c] : "-");
            if (c + 1 < o->ncols)
                fprintf(o->f, "%-*s  ", (int)width[c], s);
            else
                fprintf(o->f, "%s", s);
        }
        fputc('\n', o->f);
    }
    for (int r = 0; r < o->nrows; r++)
        for (int c = 0; c < MAX_COLS; c++)
            free(o->rows[r].cells[c]);
    for (int c = 0; c < o->ncols; c++)
        free(o->cols[c]);
    free(o->rows);
    o->rows = NULL;
    o->nrows = o->ncols = 0;
}

/* ---- the API ---- */

void out_object_begin(struct out *o, const char *key)
{
    if (o->json)
        json_open(o, key, json_object_new_object());
    else if (o->table_depth == 0 && key)
        fprintf(o->f, "%*s%s:\n", 2 * o->indent++, "", key);
}

void out_object_end(struct out *o)
{
    if (o->json)
        json_close(o);
    else if (o->table_depth == 0 && o->indent > 0)
        o->indent--;
}

void out_array_begin(struct out *o, const char *key)
{
    if (o->json) {
        json_open(o, key, json_object_new_array());
        return;
    }
    if (o->table_depth++ == 1) {
        o->cell[0] = '\0';
        o->cell_key = key;
        o->cell_items = 0;
    }
}

void out_item_begin(struct out *o)
{
    if (o->json) {
        json_open(o, NULL, json_object_new_object());
    } else if (o->table_depth == 1) {
        struct row *rows = realloc(o->rows, sizeof *rows * (size_t)(o->nrows + 1));
        if (!rows)
            return;
        o->rows = rows;
        memset(&o->rows[o->nrows++], 0, sizeof *rows);
    } else {
        o->cell_items++;
        o->cell_fields = 0;
    }
}

void out_item_end(struct out *o)
{
    if (o->json)
        json_close(o);
}

void out_array_end(struct out *o)
{
    if (o->json) {
        json_close(o);
        return;
    }
    if (--o->table_depth == 1) {
        char cell[sizeof o->cell];
        snprintf(cell, sizeof cell, "%s", o->cell);
        text_value(o, o->cell_key, cell);
    } else if (o->table_depth == 0) {
        print_table(o);
    }
}

void out_str(struct out *o, const char *key, const char *value)
{
    if (o->json)
        json_add(o, key, json_object_new_string(value));
    else
        text_value(o, key, value);
}

void out_u64(struct out *o, const char *key, uint64_t value)
{
    char buf[32];
    if (o->json) {
        json_add(o, key, json_object_new_uint64(value));
        return;
    }
    snprintf(buf, sizeof buf, "%" PRIu64, value);
    text_value(o, key, buf);
}

void out_i64(struct out *o, const char *key, int64_t value)
{
    char buf[32];
    if (o->json) {
        json_add(o, key, json_object_new_int64(value));
        return;
    }
    snprintf(buf, sizeof buf, "%" PRId64, value);
    text_value(o, key, buf);
}

void out_hex(struct out *o, const char *key, uint64_t value)
{
    char hex[32];
    if (o->json) {
        json_add(o, key, json_object_new_uint64(value));
        return;
    }
    snprintf(hex, sizeof hex, "0x%08" PRIx64, value);
    text_value(o, key, hex);
}

void out_f64(struct out *o, const char *key, double value, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, value);
    if (o->json)
        /* The figure as the text form rounds it: json-c writes this text for the number. */
        json_add(o, key, json_object_new_double_s(value, buf));
    else
        text_value(o, key, buf);
}

void out_bool(struct out *o, const char *key, int value)
{
    if (o->json)
        json_add(o, key, json_object_new_boolean(value));
    else
        text_value(o, key, value ? "yes" : "no");
}
