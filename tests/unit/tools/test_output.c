/* Unit tests of the gc tools' structured output (driver/tools/output.c): the JSON form (-j), written by json-c,
 * in the layout the tools' golden files hold, with every kind of value and the strings escaped. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "output.h"

/* Checks that the calls of `emit` print exactly `expected` in the given form. */
static void expect_printed(int json, void (*emit)(struct out *), const char *expected)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    struct out *o = out_new(f, json);
    emit(o);
    out_free(o);
    fclose(f);
    assert_string_equal(text, expected);
    free(text);
}

static void every_kind(struct out *o)
{
    out_object_begin(o, NULL);
    out_u64(o, "u64", UINT64_MAX);
    out_i64(o, "i64", INT64_MIN);
    out_hex(o, "hex", 0x1000);
    out_f64(o, "f64", 2.5, 2);
    out_bool(o, "yes", 1);
    out_bool(o, "no", 0);
    out_object_begin(o, "inner");
    out_str(o, "s", "x");
    out_object_end(o);
    out_array_begin(o, "items");
    for (int i = 0; i < 2; i++) {
        out_item_begin(o);
        out_i64(o, "i", i);
        out_item_end(o);
    }
    out_array_end(o);
    out_object_end(o);
}

static void json_has_the_tools_layout(void **state)
{
    (void)state;
    expect_printed(1, every_kind, "{\n"
                              "  \"u64\": 18446744073709551615,\n"
                              "  \"i64\": -9223372036854775808,\n"
                              "  \"hex\": 4096,\n"
                              "  \"f64\": 2.50,\n"
                              "  \"yes\": true,\n"
                              "  \"no\": false,\n"
                              "  \"inner\": {\n"
                              "    \"s\": \"x\"\n"
                              "  },\n"
                              "  \"items\": [\n"
                              "    {\n"
                              "      \"i\": 0\n"
                              "    },\n"
                              "    {\n"
                              "      \"i\": 1\n"
                              "    }\n"
                              "  ]\n"
                              "}\n");
}

static void empty_containers(struct out *o)
{
    out_object_begin(o, NULL);
    out_array_begin(o, "devices");
    out_array_end(o);
    out_object_begin(o, "errors");
    out_object_end(o);
    out_array_begin(o, "nested");
    out_item_begin(o);
    out_array_begin(o, "inner");
    out_array_end(o);
    out_item_end(o);
    out_array_end(o);
    out_object_end(o);
}

static void json_empty_containers_on_one_line(void **state)
{
    (void)state;
    /* json-c alone would print "[" and "]" on two lines; an element of an array keeps its indent. */
    expect_printed(1, empty_containers, "{\n"
                                        "  \"devices\": [],\n"
                                        "  \"errors\": {},\n"
                                        "  \"nested\": [\n"
                                        "    {\n"
                                        "      \"inner\": []\n"
                                        "    }\n"
                                        "  ]\n"
                                        "}\n");
}

static void awkward_strings(struct out *o)
{
    out_object_begin(o, NULL);
    out_str(o, "quote\"key", "a \"b\" c\\d /e\n\t\x01 \xC3\xA9");
    out_object_end(o);
}

static void json_strings_are_escaped(void **state)
{
    (void)state;
    /* Quote, backslash and control characters escaped; '/' and UTF-8 as they are. */
    expect_printed(1, awkward_strings, "{\n  \"quote\\\"key\": \"a \\\"b\\\" c\\\\d /e\\n\\t\\u0001 \xC3\xA9\"\n}\n");
}

static void text_form_is_unchanged(void **state)
{
    (void)state;
    expect_printed(0, every_kind, "u64: 18446744073709551615\n"
                              "i64: -9223372036854775808\n"
                              "hex: 0x00001000\n"
                              "f64: 2.50\n"
                              "yes: yes\n"
                              "no: no\n"
                              "inner:\n"
                              "  s: x\n"
                              "i\n"
                              "0\n"
                              "1\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_has_the_tools_layout),
        cmocka_unit_test(json_strings_are_escaped),
        cmocka_unit_test(json_empty_containers_on_one_line),
        cmocka_unit_test(text_form_is_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
