/* gc-reset: reset one device (-d N) or every device (--all). */
#include <stdio.h>

#include "common.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-reset", "Reset IPU devices: tiles stop, memory, errors, DMA and the translation table clear.",
    "  -d, --device-id N   reset device N (also --device)\n"
    "  -a, --all           reset every device\n"};

/* Returns 0 on success; prints a one-line error otherwise. */
static int reset_one(unsigned id, struct out *o)
{
    ipudrv_device *dev = NULL;
    int rc = ipudrv_open(id, 0, &dev);
    if (!rc) {
        rc = ipudrv_reset(dev);
        if (rc)
            fprintf(stderr, "%s: error: device %u: %s\n", tool.name, id, ipudrv_last_error(dev));
        ipudrv_close(dev);
    } else {
        fprintf(stderr, "%s: error: %s\n", tool.name, ipudrv_last_error(NULL));
    }
    out_item_begin(o);
    out_u64(o, "id", id);
    out_str(o, "result", rc ? "failed" : "reset");
    out_item_end(o);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        GC_COMMON_LONGOPTS, GC_DEVICE_LONGOPTS, {"all", no_argument, 0, 'a'}, {0, 0, 0, 0}};
    struct gc_common common = {0};
    int all = 0, have_id = 0;
    unsigned id = 0;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "d:a", longopts, &common)) != -1) {
        if (opt == 'a')
            all = 1;
        else if (opt == 'd')
            id = (unsigned)gc_parse_number(&tool, optarg, "device id"), have_id = 1;
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (all == have_id)
        gc_usage_error(&tool, "give either -d N or --all");
    unsigned first = id, count = 1;
    if (all) {
        int rc = ipudrv_device_count(&count);
        if (rc)
            gc_die_rc(&tool, NULL, rc);
        first = 0;
    }
    struct out *o = out_new(stdout, common.json);
    out_object_begin(o, NULL);
    out_array_begin(o, "devices");
    int failures = 0;
    for (unsigned i = first; i < first + count; i++)
        failures += reset_one(i, o) != 0;
    out_array_end(o);
    out_object_end(o);
    out_free(o);
    return failures ? 1 : 0;
}
