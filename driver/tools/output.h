/* Structured output of the gc tools: the same calls print JSON (-j) or text
 * ("key: value" lines, and arrays of items as aligned tables). */
#ifndef GC_OUTPUT_H
#define GC_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

struct out;

struct out *out_new(FILE *f, int json);
/* Flushes and frees; prints the closing newline of JSON documents. */
void out_free(struct out *o);

/* Objects: key is NULL for the top level or an array item. */
void out_object_begin(struct out *o, const char *key);
void out_object_end(struct out *o);
/* Arrays of items. At top level, text mode prints them as a table whose
 * columns are the items' keys; inside an item, as one cell. */
void out_array_begin(struct out *o, const char *key);
void out_item_begin(struct out *o);
void out_item_end(struct out *o);
void out_array_end(struct out *o);

void out_str(struct out *o, const char *key, const char *value);
void out_u64(struct out *o, const char *key, uint64_t value);
void out_i64(struct out *o, const char *key, int64_t value);
/* A number in JSON, 0x%08x in text. */
void out_hex(struct out *o, const char *key, uint64_t value);
void out_f64(struct out *o, const char *key, double value, int decimals);
void out_bool(struct out *o, const char *key, int value);

#endif
