/* JSON and text printing for the gc tools (see output.h). */
#include "output.h"

#include <inttypes.h>
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
    /* JSON: nesting and whether the current container has a member yet */
    int depth;
    int has_member[MAX_DEPTH];
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

struct out *out_new(FILE *f, int json)
{
    struct out *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    o->f = f;
    o->json = json;
    return o;
}

void out_free(struct out *o)
{
    if (o->json)
        fputc('\n', o->f);
    fflush(o->f);
    free(o);
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_member(struct out *o, const char *key)
{
    if (o->depth > 0) {
        if (o->has_member[o->depth])
            fputc(',', o->f);
        fputc('\n', o->f);
        fprintf(o->f, "%*s", 2 * o->depth, "");
    }
    o->has_member[o->depth] = 1;
    if (key) {
        json_string(o->f, key);
        fputs(": ", o->f);
    }
}

static void json_open(struct out *o, const char *key, char c)
{
    json_member(o, key);
    fputc(c, o->f);
    if (o->depth + 1 < MAX_DEPTH)
        o->depth++;
    o->has_member[o->depth] = 0;
}

static void json_close(struct out *o, char c)
{
    int had = o->has_member[o->depth];
    if (o->depth > 0)
        o->depth--;
    if (had)
        fprintf(o->f, "\n%*s", 2 * o->depth, "");
    fputc(c, o->f);
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
        json_open(o, key, '{');
    else if (o->table_depth == 0 && key)
        fprintf(o->f, "%*s%s:\n", 2 * o->indent++, "", key);
}

void out_object_end(struct out *o)
{
    if (o->json)
        json_close(o, '}');
    else if (o->table_depth == 0 && o->indent > 0)
        o->indent--;
}

void out_array_begin(struct out *o, const char *key)
{
    if (o->json) {
        json_open(o, key, '[');
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
        json_open(o, NULL, '{');
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
        json_close(o, '}');
}

void out_array_end(struct out *o)
{
    if (o->json) {
        json_close(o, ']');
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

static void scalar(struct out *o, const char *key, const char *json_text, const char *text)
{
    if (o->json) {
        json_member(o, key);
        fputs(json_text, o->f);
    } else {
        text_value(o, key, text);
    }
}

void out_str(struct out *o, const char *key, const char *value)
{
    if (o->json) {
        json_member(o, key);
        json_string(o->f, value);
    } else {
        text_value(o, key, value);
    }
}

void out_u64(struct out *o, const char *key, uint64_t value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, value);
    scalar(o, key, buf, buf);
}

void out_i64(struct out *o, const char *key, int64_t value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, value);
    scalar(o, key, buf, buf);
}

void out_hex(struct out *o, const char *key, uint64_t value)
{
    char num[32], hex[32];
    snprintf(num, sizeof num, "%" PRIu64, value);
    snprintf(hex, sizeof hex, "0x%08" PRIx64, value);
    scalar(o, key, num, hex);
}

void out_f64(struct out *o, const char *key, double value, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, value);
    scalar(o, key, buf, buf);
}

void out_bool(struct out *o, const char *key, int value)
{
    scalar(o, key, value ? "true" : "false", value ? "yes" : "no");
}
