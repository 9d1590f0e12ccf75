/* gc-info: list devices, show a device's attributes, tile status and memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ipu_card/hw.h"
#include "output.h"

static const struct gc_tool tool = {
    "gc-info", "Show IPU devices, their attributes, tile status and tile memory.",
    "  -l, --list-devices  list the devices (the default)\n"
    "  -d, --device N      the device for the options below (default 0)\n"
    "  -i, --info          the device's attributes\n"
    "      --tile-status   every tile's state, exit code and per-context state and PC\n"
    "      --dump-mem T,A,L  hex dump of L bytes at tile address A of tile T\n"};

enum { OPT_TILE_STATUS = 256, OPT_DUMP_MEM };

static void emit_info(ipudrv_device *dev, struct out *o)
{
    struct ipudrv_info in;
    int rc = ipudrv_get_info(dev, &in);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    const struct ipu_board *b = &in.board;
    out_object_begin(o, NULL);
    out_u64(o, "id", in.id);
    out_str(o, "transport", in.transport);
    out_str(o, "location", in.location);
    out_str(o, "board", b->name);
    out_str(o, "description", b->description);
    out_str(o, "state", ipudrv_card_state_name(in.state));
    out_u64(o, "error_records", in.error_count);
    out_u64(o, "errors_lost", in.errors_lost);
    out_u64(o, "console_lost", in.console_lost);
    out_str(o, "driver_version", in.driver_version);
    out_str(o, "firmware_version", in.firmware_version);
    out_u64(o, "num_tiles", in.num_tiles);
    out_u64(o, "tile_mem_bytes", in.tile_mem_bytes);
    out_u64(o, "num_workers", in.num_workers);
    out_hex(o, "caps", in.caps);
    out_u64(o, "tile_clock_khz", in.tile_clock_khz);
    out_u64(o, "xlat_entries", in.xlat_entries);
    out_u64(o, "xlat_used", in.xlat_used);
    out_u64(o, "dma_bytes", in.dma_bytes);
    out_u64(o, "card_cycles", in.card_cycles);
    out_object_begin(o, "target");
    out_str(o, "isa", b->isa);
    out_str(o, "abi", b->abi);
    out_str(o, "default_transport", b->transport);
    out_u64(o, "num_ipus", b->num_ipus);
    out_u64(o, "tiles_per_ipu", b->tiles_per_ipu);
    out_u64(o, "num_tiles", ipu_board_num_tiles(b));
    out_u64(o, "bytes_per_tile", b->bytes_per_tile);
    out_u64(o, "worker_contexts", b->worker_contexts);
    out_u64(o, "tile_clock_hz", b->tile_clock_hz);
    out_u64(o, "exchange_bytes_per_cycle", b->exchange_bytes_per_cycle);
    out_u64(o, "memcpy_bytes_per_cycle", b->memcpy_bytes_per_cycle);
    out_u64(o, "data_path_width", b->data_path_width);
    out_u64(o, "min_ipu_sync_delay", b->min_ipu_sync_delay);
    out_u64(o, "global_sync_cycles", b->global_sync_cycles);
    out_u64(o, "rpt_count_max", b->rpt_count_max);
    out_u64(o, "num_stride_bits", b->num_stride_bits);
    out_u64(o, "tiles_per_shared_exchange_bus", b->tiles_per_shared_exchange_bus);
    out_u64(o, "atomic_store_granularity", b->atomic_store_granularity);
    out_u64(o, "supervisor_stack_bytes", b->supervisor_stack_bytes);
    out_u64(o, "worker_stack_bytes", b->worker_stack_bytes);
    out_object_end(o);
    out_object_end(o);
}

static void emit_tile_status(ipudrv_device *dev, struct out *o)
{
    struct ipudrv_info in;
    int rc = ipudrv_get_info(dev, &in);
    if (rc)
        gc_die_rc(&tool, dev, rc);
    out_object_begin(o, NULL);
    out_str(o, "state", ipudrv_card_state_name(in.state));
    out_array_begin(o, "tiles");
    for (unsigned t = 0; t < in.num_tiles; t++) {
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
        {"list-devices", no_argument, 0, 'l'},
        {"device", required_argument, 0, 'd'},
        {"info", no_argument, 0, 'i'},
        {"tile-status", no_argument, 0, OPT_TILE_STATUS},
        {"dump-mem", required_argument, 0, OPT_DUMP_MEM},
        {0, 0, 0, 0}};
    struct gc_common common = {0};
    int list = 0, info = 0, tile_status = 0;
    const char *dump = NULL;
    unsigned id = 0;
    int opt;
    while ((opt = gc_getopt(&tool, argc, argv, "ld:i", longopts, &common)) != -1) {
        switch (opt) {
        case 'l': list = 1; break;
        case 'd': id = (unsigned)gc_parse_number(&tool, optarg, "device id"); break;
        case 'i': info = 1; break;
        case OPT_TILE_STATUS: tile_status = 1; break;
        case OPT_DUMP_MEM: dump = optarg; break;
        }
    }
    if (optind < argc)
        gc_usage_error(&tool, "unexpected argument '%s'", argv[optind]);
    if (list + info + tile_status + (dump != NULL) > 1)
        gc_usage_error(&tool, "choose one of -l, -i, --tile-status, --dump-mem");
    struct out *o = out_new(stdout, common.json);
    if (!info && !tile_status && !dump) {
        out_object_begin(o, NULL);
        gc_emit_devices(&tool, o);
        out_object_end(o);
    } else {
        ipudrv_device *dev = gc_open(&tool, id);
        if (info)
            emit_info(dev, o);
        else if (tile_status)
            emit_tile_status(dev, o);
        else
            dump_mem(dev, o, dump);
        ipudrv_close(dev);
    }
    out_free(o);
    return 0;
}
