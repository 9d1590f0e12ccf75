/* gc-info: list devices, show a device's attributes, tile status and memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attributes.h"
#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-info", "Show IPU devices, their attributes, tile status and tile memory.",
    "  -l, --list-devices  list the devices (the default)\n"
    "  -d, --device-id N   the device for the options below (default 0; also --device)\n"
    "  -i, --device-info   the device's attributes (also --info); on a device another\n"
    "                      process holds, the attributes readable without attaching\n"
    "      --tile-status [T|-]  tile T's (or, with - or nothing, every tile's) state,\n"
    "                      exit code and per-context state and PC\n"
    "      --dump-mem T,A,L  hex dump of L bytes at tile address A of tile T\n"
    "      --ipu-arch      the tiles' architecture (ISA)\n"
    "      --tile-clock-speed  the tile clock in MHz\n"
    "      --ipu-count     the number of devices\n"};

enum { OPT_TILE_STATUS = 256, OPT_DUMP_MEM, OPT_IPU_ARCH, OPT_TILE_CLOCK, OPT_IPU_COUNT };

static void emit_info(ipudrv_device *dev, struct out *o)
{
    struct ipudrv_info in;
    int rc = ipudrv_get_info(dev, &in);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    out_object_begin(o, NULL);
    gc_emit_info_fields(o, &in);
    out_object_end(o);
}

/* -i on a device another process holds: what discovery knows, without
 * attaching (Graphcore's gc-info reads these while an application runs). */
static void emit_held_info(unsigned id, struct out *o)
{
    fprintf(stderr, "%s: note: only the attributes readable without attaching follow (%s)\n", tool.name,
            ipudrv_last_error(NULL));
    out_object_begin(o, NULL);
    gc_emit_desc_fields(&tool, o, id);
    out_object_end(o);
}

/* The one-value queries that work on any device, held or not. */
static void emit_single(unsigned id, int which, struct out *o)
{
    out_object_begin(o, NULL);
    if (which == OPT_IPU_COUNT) {
        unsigned n = 0;
        int rc = ipudrv_device_count(&n);
        if (rc)
            gc_die_rc(&tool, NULL, rc);
        out_u64(o, "ipu_count", n);
        out_object_end(o);
        return;
    }
    struct ipudrv_device_desc d;
    int rc = ipudrv_describe(id, &d);
    if (rc)
        gc_die_rc(&tool, NULL, rc);
    struct ipu_board b;
    char err[256];
    /* the board's values: from the board file for simulated cards, from the
     * card itself when it is free */
    ipudrv_device *dev = gc_try_open(&tool, id);
    if (dev) {
        struct ipudrv_info in;
        if ((rc = ipudrv_get_info(dev, &in)))
            gc_die_rc(&tool, dev, rc);
        b = in.board;
        ipudrv_close(dev);
    } else if (!d.board[0] || ipu_board_load(d.board, &b, err, sizeof err)) {
        gc_die(&tool, "device %u is held by another process and its board is only known once attached", id);
    }
    if (which == OPT_IPU_ARCH)
        out_str(o, "ipu_arch", b.isa);
    else
        out_f64(o, "tile_clock_mhz", (double)b.tile_clock_hz / 1e6, 1);
    out_object_end(o);
}

/* `only` is one tile, or -1 for every tile. */
static void emit_tile_status(ipudrv_device *dev, struct out *o, long only)
{
    struct ipudrv_info in;
    int rc = ipudrv_get_info(dev, &in);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    if (only >= (long)in.num_tiles)
        gc_die(&tool, "--tile-status %ld: the card has tiles 0..%u", only, in.num_tiles - 1);
    out_object_begin(o, NULL);
    out_str(o, "state", ipudrv_card_state_name(in.state));
    out_array_begin(o, "tiles");
    for (unsigned t = only < 0 ? 0 : (unsigned)only; t < (only < 0 ? in.num_tiles : (unsigned)only + 1); t++) {
        struct ipudrv_tile_status st;
        if ((rc = ipudrv_tile_status(dev, t, &st)))
            gc_die_rc(&tool, dev, rc);
        out_item_begin(o);
        out_u64(o, "tile", t);
        out_str(o, "state", ipudrv_tile_state_name(st.state));
        out_u64(o, "exit", st.exit_code);
        out_str(o, "error", ipudrv_err_name(st.err_cause));
        out_hex(o, "error_pc", st.err_pc);
        out_u64(o, "cycles", st.cycles);
        out_array_begin(o, "contexts");
        for (unsigned c = 0; c < st.num_contexts; c++) {
            out_item_begin(o);
            out_u64(o, "context", c);
            out_str(o, "state", ipudrv_ctx_state_name(st.ctx[c].state));
            out_hex(o, "pc", st.ctx[c].pc);
            out_item_end(o);
        }
        out_array_end(o);
        out_item_end(o);
    }
    out_array_end(o);
    out_object_end(o);
}

static void dump_mem(ipudrv_device *dev, struct out *o, const char *spec)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", spec);
    char *a = strchr(copy, ','), *l = a ? strchr(a + 1, ',') : NULL;
    if (!a || !l)
        gc_usage_error(&tool, "--dump-mem wants TILE,ADDRESS,LENGTH, e.g. 0,0x100000,256");
    *a++ = '\0';
    *l++ = '\0';
    uint64_t tile = gc_parse_number(&tool, copy, "tile");
    uint64_t addr = gc_parse_number(&tool, a, "address");
    uint64_t len = gc_parse_number(&tool, l, "length");
    if (tile > 0xffff || addr > 0xffffffffu || len > IPU_TILE_SRAM_MAX_BYTES)
        gc_usage_error(&tool, "--dump-mem %s is out of range (tile < 65536, address < 4 GiB, length <= 1 MiB)", spec);
    uint8_t *bytes = malloc(len ? len : 1);
    if (!bytes)
        gc_die(&tool, "out of memory for %llu bytes", (unsigned long long)len);
    int rc = ipudrv_tile_read(dev, (unsigned)tile, (uint32_t)addr, bytes, len);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    out_object_begin(o, NULL);
    out_u64(o, "tile", tile);
    out_hex(o, "address", addr);
    out_u64(o, "length", len);
    out_array_begin(o, "lines");
    for (uint64_t off = 0; off < len; off += 16) {
        char hex[16 * 3 + 1] = "", ascii[17] = "";
        for (uint64_t i = 0; i < 16 && off + i < len; i++) {
            uint8_t c = bytes[off + i];
            snprintf(hex + 3 * i, 4, "%02x ", c);
            ascii[i] = c >= 0x20 && c < 0x7f ? (char)c : '.';
        }
        hex[strlen(hex) - 1] = '\0';
        out_item_begin(o);
        out_hex(o, "address", addr + off);
        out_str(o, "bytes", hex);
        out_str(o, "ascii", ascii);
        out_item_end(o);
    }
    out_array_end(o);
    out_object_end(o);
    free(bytes);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        GC_COMMON_LONGOPTS,
        GC_DEVICE_LONGOPTS,
        {"list-devices", no_argument, 0, 'l'},
        {"device-info", no_argument, 0, 'i'},
        {"info", no_argument, 0, 'i'},
        {"tile-status", optional_argument, 0, OPT_TILE_STATUS},
        {"dump-mem", required_argument, 0, OPT_DUMP_MEM},
        {"ipu-arch", no_argument, 0, OPT_IPU_ARCH},
        {"tile-clock-speed", no_argument, 0, OPT_TILE_CLOCK},
        {"ipu-count", no_argument, 0, OPT_IPU_COUNT},
        {0, 0, 0, 0}};
    struct gc_common common = {0};
    int list = 0, info = 0, tile_status = 0, single = 0, commands = 0;
    long tile = -1;
    const char *dump = NULL;
    unsigned id = 0;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "ld:i", longopts, &common)) != -1) {
        switch (opt) {
        case 'l': list = 1, commands++; break;
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'i': info = 1, commands++; break;
        case OPT_TILE_STATUS: {
            /* Graphcore spells it "--tile-status 0" or "--tile-status -" (every tile) */
            const char *arg = optarg;
            if (!arg && optind < argc && (strcmp(argv[optind], "-") == 0 ||
                                          (argv[optind][0] >= '0' && argv[optind][0] <= '9')))
                arg = argv[optind++];
            if (arg && strcmp(arg, "-") != 0)
                tile = (long)gc_parse_number(&tool, arg, "tile");
            tile_status = 1, commands++;
            break;
        }
        case OPT_DUMP_MEM: dump = optarg, commands++; break;
        case OPT_IPU_ARCH: case OPT_TILE_CLOCK: case OPT_IPU_COUNT: single = opt, commands++; break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (commands > 1)
        gc_usage_error(&tool, "choose one of -l, -i, --tile-status, --dump-mem, --ipu-arch, --tile-clock-speed, "
                              "--ipu-count");
    struct out *o = out_new(stdout, common.json);
    if (single) {
        emit_single(id, single, o);
    } else if (!info && !tile_status && !dump) {
        (void)list;
        out_object_begin(o, NULL);
        gc_emit_devices(&tool, o);
        out_object_end(o);
    } else if (info) {
        ipudrv_device *dev = gc_try_open(&tool, id);
        if (dev) {
            emit_info(dev, o);
            ipudrv_close(dev);
        } else {
            emit_held_info(id, o);
        }
    } else {
        ipudrv_device *dev = gc_open(&tool, id);
        if (tile_status)
            emit_tile_status(dev, o, tile);
        else
            dump_mem(dev, o, dump);
        ipudrv_close(dev);
    }
    out_free(o);
    return 0;
}
