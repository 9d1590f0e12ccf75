/* Tile runs for the gc card tests (see run.h). */
#include "run.h"

#include <stdio.h>

#include "ipu_card/hw.h"

void gc_get_info(const struct gc_tool *tool, ipudrv_device *dev, struct ipudrv_info *info)
{
    int rc = ipudrv_get_info(dev, info);
    if (rc)
        gc_die_rc(tool, dev, rc);
}

static _Noreturn void die_error_record(const struct gc_tool *tool, ipudrv_device *dev)
{
    struct ipudrv_error_record rec;
    size_t n = 0;
    char text[512];
    if (ipudrv_error_read(dev, &rec, 1, &n) || n == 0)
        gc_die(tool, "the card reported an error but kept no error record");
    ipudrv_error_format(&rec, text, sizeof text);
    gc_die(tool, "the tile program failed: %s", text);
}

uint64_t gc_run_tiles(const struct gc_tool *tool, ipudrv_device *dev, unsigned tiles, uint32_t entry,
                      int timeout_ms)
{
    struct ipudrv_info info;
    gc_get_info(tool, dev, &info);
    int rc;
    for (unsigned t = 0; t < info.num_tiles; t++)
        if ((rc = ipudrv_tile_setup(dev, t, entry, 0, t < tiles)))
            gc_die_rc(tool, dev, rc);
    if ((rc = ipudrv_start(dev)))
        gc_die_rc(tool, dev, rc);
    struct ipudrv_event ev;
    if ((rc = ipudrv_wait(dev, timeout_ms, &ev)))
        gc_die_rc(tool, dev, rc);
    if (ev.kind == IPUDRV_EVENT_ERROR)
        die_error_record(tool, dev);
    if (ev.kind != IPUDRV_EVENT_DONE)
        gc_die(tool, "the tile program stopped without finishing (card event %d)", (int)ev.kind);
    for (unsigned t = 0; t < tiles; t++) {
        struct ipudrv_tile_status st;
        if ((rc = ipudrv_tile_status(dev, t, &st)))
            gc_die_rc(tool, dev, rc);
        if (st.exit_code != 0)
            gc_die(tool, "tile %u exited with code %u", t, st.exit_code);
    }
    return ev.card_cycles;
}

void gc_write_exchange_lists(const struct gc_tool *tool, ipudrv_device *dev, unsigned tiles, uint32_t list_addr,
                             unsigned shift, uint32_t src_addr, uint32_t dst_addr, uint32_t len)
{
    for (unsigned t = 0; t < tiles; t++) {
        uint32_t list[1 + IPU_EXCH_DESC_SIZE / 4] = {len ? 1u : 0u};
        list[1 + IPU_EXCH_DESC_DST_TILE_OFFSET / 4] = (t + shift) % tiles;
        list[1 + IPU_EXCH_DESC_DST_ADDR_OFFSET / 4] = dst_addr;
        list[1 + IPU_EXCH_DESC_SRC_ADDR_OFFSET / 4] = src_addr;
        list[1 + IPU_EXCH_DESC_LENGTH_OFFSET / 4] = len;
        int rc = ipudrv_tile_write(dev, t, list_addr, list, sizeof list);
        if (rc)
            gc_die_rc(tool, dev, rc);
    }
}

uint32_t gc_exchange_word(unsigned tile, unsigned round, uint32_t i)
{
    uint32_t x = (uint32_t)tile * 0x9e3779b1u ^ (uint32_t)round << 24 ^ i * 0x85ebca77u ^ 0xa5a5a5a5u;
    return x ^ x >> 15;
}
