/* gc-inventory: every device with its attributes. A device another process
 * holds is listed with what discovery knows (and who holds it). */
#include <stdio.h>

#include "attributes.h"
#include "common.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-inventory", "List every IPU device with its attributes.",
    "  -d, --device-id N   only device N (default: all; also --device)\n"};

static void emit_device(unsigned id, struct out *o, int json)
{
    char key[32];
    snprintf(key, sizeof key, "device %u", id);
    if (json)
        out_item_begin(o);
    else
        out_object_begin(o, key);
    ipudrv_device *dev = gc_try_open(&tool, id);
    if (dev) {
        struct ipudrv_info info;
        int rc = ipudrv_get_info(dev, &info);
        if (rc)
            gc_die_rc(&tool, dev, rc);
        gc_emit_info_fields(o, &info);
        out_str(o, "status", "free");
        ipudrv_close(dev);
    } else {
        gc_emit_desc_fields(&tool, o, id);
        out_str(o, "attributes", "partial: held by another process");
    }
    if (json)
        out_item_end(o);
    else
        out_object_end(o);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {GC_COMMON_LONGOPTS, GC_DEVICE_LONGOPTS, {0, 0, 0, 0}};
    struct gc_common common = {0};
    int one = 0;
    unsigned id = 0;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:", longopts, &common)) != -1)
        if (opt == 'd')
            id = (unsigned)gc_parse_number(&tool, optarg, "device id"), one = 1;
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    unsigned count = 0;
    int rc = ipudrv_device_count(&count);
    if (rc)
        gc_die_rc(&tool, NULL, rc);
    if (one && id >= count)
        gc_die(&tool, "there is no device %u (%u device%s: see gc-info -l)", id, count, count == 1 ? "" : "s");
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_u64(o, "devices_found", count);
    if (common.json)
        out_array_begin(o, "devices");
    for (unsigned i = one ? id : 0; i < (one ? id + 1 : count); i++)
        emit_device(i, o, common.json);
    if (common.json)
        out_array_end(o);
    out_object_end(o);
    out_free(o);
    return 0;
}
