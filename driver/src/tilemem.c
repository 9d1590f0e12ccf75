/* Tile memory access: small transfers through the BAR2 window, bulk ones
 * through the DMA engine and a staging buffer, broadcasts as one descriptor
 * per run of up to 65535 tiles. */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* Below this size the window is faster than setting up a DMA chain. */
#define WINDOW_MAX_BYTES 4096u

static int check_range(ipudrv_device *dev, const char *what, unsigned first, unsigned count, uint32_t addr,
                       const void *data, size_t len)
{
    if (count == 0 || first >= dev->num_tiles || count > dev->num_tiles - first)
        return ipudrv_fail(dev, -EINVAL, "%s: tile range %u..%u is outside the card's tiles 0..%u", what, first,
                           first + count - 1, dev->num_tiles - 1);
    uint64_t lo = IPU_TILE_SRAM_BASE, hi = lo + dev->tile_mem_bytes;
    if (addr < lo || addr > hi || len > hi - addr)
        return ipudrv_fail(dev, -EINVAL, "%s: bytes [0x%08x, 0x%08llx) are not inside tile SRAM [0x%08llx, "
                           "0x%08llx); tile addresses start at IPU_TILE_SRAM_BASE", what, addr,
                           (unsigned long long)addr + len, (unsigned long long)lo, (unsigned long long)hi);
    if (!data && len)
        return ipudrv_fail(dev, -EINVAL, "%s: data is NULL", what);
    return 0;
}

/* Returns 1 when DMA may be used, 0 for the window only, or a negative code. */
static int access_mode(ipudrv_device *dev, const char *what)
{
    uint32_t state;
    int rc = ipudrv_card_state(dev, &state);
    if (rc)
        return rc;
    if (state == IPU_CARD_STATE_RUNNING)
        return ipudrv_fail(dev, -EBUSY, "%s: the tiles are running; wait for a host sync or the end of the run, "
                           "or halt the card", what);
    return state != IPU_CARD_STATE_HOST_SYNC;
}

int ipudrv_tile_window(ipudrv_device *dev, unsigned tile, uint32_t addr, void *data, size_t len, int to_card)
{
    int rc = ipudrv_wr(dev, IPU_REG_TILEMEM_WINDOW_TILE, tile);
    if (rc)
        return rc;
    uint32_t off = addr - IPU_TILE_SRAM_BASE;
    rc = to_card ? dev->t->ops->window_write(dev->t, off, data, len) : dev->t->ops->window_read(dev->t, off, data, len);
    if (rc)
        return ipudrv_fail_transport(dev, rc, "tile %u: BAR2 window access at 0x%08x", tile, addr);
    return 0;
}

/* Maps the staging buffer for one transfer; -ENOSPC when the table is full. */
static int staging_map(ipudrv_device *dev, uint32_t *dev_addr)
{
    if (!dev->staging) {
        int rc = ipudrv_buffer_new(dev, dev->tile_mem_bytes, 1, &dev->staging);
        if (rc)
            return rc;
    }
    return ipudrv_xlat_map(dev, dev->staging, 0, dev->staging->size, IPUDRV_MAP_READ | IPUDRV_MAP_WRITE,
                           IPUDRV_MAP_ANY, 1, dev_addr);
}

/* The window fallback needs the same free entries count: chain + staging. */
static int free_entries(const ipudrv_device *dev)
{
    int n = 0;
    for (unsigned i = 0; i < dev->xlat_entries; i++)
        n += !dev->xlat[i].used;
    return n;
}

static int bulk(ipudrv_device *dev, unsigned first, unsigned count, uint32_t addr, void *data, size_t len,
                int to_card)
{
    uint32_t dev_addr;
    int rc = staging_map(dev, &dev_addr);
    if (rc)
        return rc;
    if (to_card)
        memcpy(dev->staging->va, data, len);
    struct ipu_dma_desc descs[4];
    size_t n = 0;
    for (unsigned t = first; t < first + count && n < 4; n++) {
        unsigned run = first + count - t > 65535u ? 65535u : first + count - t;
        descs[n] = (struct ipu_dma_desc){.dev_addr = dev_addr, .tile_addr = addr, .length = (uint32_t)len,
                                         .first_tile = (uint16_t)t, .tile_count = (uint16_t)run,
                                         .flags = to_card ? 0 : IPU_DMA_FLAGS_TO_HOST_MASK};
        t += run;
    }
    descs[n - 1].flags |= IPU_DMA_FLAGS_LAST_MASK;
    rc = ipudrv_dma_chain(dev, descs, n);
    int unmap_rc = ipudrv_xlat_unmap(dev, dev_addr);
    if (!rc && !to_card)
        memcpy(data, dev->staging->va, len);
    return rc ? rc : unmap_rc;
}

static int transfer(ipudrv_device *dev, const char *what, unsigned first, unsigned count, uint32_t addr,
                    void *data, size_t len, int to_card)
{
    int rc = check_range(dev, what, first, count, addr, data, len);
    if (rc || len == 0)
        return rc;
    int mode = access_mode(dev, what);
    if (mode < 0)
        return mode;
    /* Link cards (socket, usb) prefer the window: there each DMA word is a round trip. A card
     * without descriptor chains (CAPS.DMA = 0) has only the window. */
    if (mode == 1 && !dev->t->ops->window_preferred && (len > WINDOW_MAX_BYTES || count > 1) &&
        free_entries(dev) >= 2 && ipudrv_has_dma(dev))
        return bulk(dev, first, count, addr, data, len, to_card);
    for (unsigned t = first; t < first + count; t++)
        if ((rc = ipudrv_tile_window(dev, t, addr, data, len, to_card)))
            return rc;
    return 0;
}

int ipudrv_tile_write(ipudrv_device *dev, unsigned tile, uint32_t tile_addr, const void *data, size_t len)
{
    int rc = ipudrv_enter(dev, "ipudrv_tile_write");
    if (rc)
        return rc;
    rc = transfer(dev, "ipudrv_tile_write", tile, 1, tile_addr, (void *)data, len, 1);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_tile_read(ipudrv_device *dev, unsigned tile, uint32_t tile_addr, void *data, size_t len)
{
    int rc = ipudrv_enter(dev, "ipudrv_tile_read");
    if (rc)
        return rc;
    rc = transfer(dev, "ipudrv_tile_read", tile, 1, tile_addr, data, len, 0);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_tile_broadcast(ipudrv_device *dev, unsigned first_tile, unsigned tile_count, uint32_t tile_addr,
                          const void *data, size_t len)
{
    int rc = ipudrv_enter(dev, "ipudrv_tile_broadcast");
    if (rc)
        return rc;
    rc = transfer(dev, "ipudrv_tile_broadcast", first_tile, tile_count, tile_addr, (void *)data, len, 1);
    ipudrv_leave(dev);
    return rc;
}
