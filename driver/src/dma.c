/* DMA buffers and descriptor chains on the card's DMA engine. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define DMA_TIMEOUT_MS 60000
#define MAX_CHAIN 65536u

int ipudrv_buffer_new(ipudrv_device *dev, size_t size, int internal, struct ipudrv_buffer **out)
{
    struct ipudrv_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return ipudrv_fail(dev, -ENOMEM, "out of memory for a DMA buffer descriptor");
    b->size = ipudrv_page_round(size);
    b->internal = internal;
    int rc = dev->t->ops->mem_alloc(dev->t, b->size, &b->va, &b->bus);
    if (rc) {
        free(b);
        return ipudrv_fail(dev, rc, "cannot allocate a %zu-byte DMA buffer (%s); free buffers or allocate less",
                           size, ipudrv_strerror(rc));
    }
    b->next = dev->buffers;
    dev->buffers = b;
    *out = b;
    return 0;
}

void ipudrv_buffer_release(ipudrv_device *dev, struct ipudrv_buffer *buf)
{
    ipudrv_xlat_unmap_buffer(dev, buf);
    for (struct ipudrv_buffer **p = &dev->buffers; *p; p = &(*p)->next)
        if (*p == buf) {
            *p = buf->next;
            break;
        }
    dev->t->ops->mem_free(dev->t, buf->va, buf->size, buf->bus);
    free(buf);
}

int ipudrv_buffer_is_live(const ipudrv_device *dev, const struct ipudrv_buffer *buf)
{
    for (const struct ipudrv_buffer *b = dev->buffers; b; b = b->next)
        if (b == buf)
            return 1;
    return 0;
}

void ipudrv_buffers_free_all(ipudrv_device *dev)
{
    while (dev->buffers)
        ipudrv_buffer_release(dev, dev->buffers);
    dev->chain = dev->staging = NULL;
}

/* Waits for the chain started last; the model finishes it at once, hardware
 * raises DMA_DONE (or ERROR) in IRQ_STATUS. */
static int wait_chain(ipudrv_device *dev, uint32_t *dma_status)
{
    uint64_t deadline = ipudrv_now_ms() + DMA_TIMEOUT_MS;
    for (;;) {
        uint32_t irq = 0;
        int rc = ipudrv_rd(dev, IPU_REG_DMA_STATUS, dma_status);
        if (!rc)
            rc = ipudrv_rd(dev, IPU_REG_IRQ_STATUS, &irq);
        if (rc)
            return rc;
        if (!(*dma_status & IPU_REG_DMA_STATUS_BUSY_MASK) &&
            ((irq & (IPU_REG_IRQ_STATUS_DMA_DONE_MASK | IPU_REG_IRQ_STATUS_ERROR_MASK)) ||
             (*dma_status & (IPU_REG_DMA_STATUS_DONE_MASK | IPU_REG_DMA_STATUS_ERROR_MASK))))
            return 0;
        if (ipudrv_now_ms() >= deadline)
            return ipudrv_fail(dev, -ETIMEDOUT, "the DMA engine did not finish a chain within %d s; reset the card",
                               DMA_TIMEOUT_MS / 1000);
        if ((rc = ipudrv_progress(dev, 10)))
            return rc;
    }
}

static int chain_error(ipudrv_device *dev)
{
    struct ipudrv_error_record rec;
    char line[512] = "no error record was queued";
    int code = -EIO;
    if (ipudrv_error_peek(dev, &rec) == 0) {
        ipudrv_error_format(&rec, line, sizeof line);
        if (rec.cause != IPU_ERR_DMA_BAD_DESCRIPTOR)
            code = -EFAULT;
    }
    return ipudrv_fail(dev, code, "DMA chain stopped: %s; then reset the card (ipudrv_reset) to clear the error",
                       line);
}

int ipudrv_has_dma(const ipudrv_device *dev)
{
    return (dev->caps & IPU_REG_CAPS_DMA_MASK) != 0;
}

int ipudrv_dma_chain(ipudrv_device *dev, const struct ipu_dma_desc *descs, size_t count)
{
    uint32_t state;
    int rc = ipudrv_card_state(dev, &state);
    if (rc)
        return rc;
    if (state == IPU_CARD_STATE_RUNNING || state == IPU_CARD_STATE_HOST_SYNC)
        return ipudrv_fail(dev, -EBUSY, "DMA: the card is %s and its DMA engine only runs while tiles are stopped; "
                           "wait for the run to finish or halt it", ipudrv_card_state_name(state));
    if (!ipudrv_has_dma(dev))
        return ipudrv_fail(dev, -EOPNOTSUPP, "this card has no DMA engine (CAPS.DMA = 0): use the tile "
                           "window (ipudrv_tile_write/ipudrv_tile_read)");
    size_t bytes = ipudrv_page_round(count * sizeof *descs);
    if (!dev->chain || dev->chain->size < bytes) {
        if (dev->chain)
            ipudrv_buffer_release(dev, dev->chain);
        dev->chain = NULL;
        if ((rc = ipudrv_buffer_new(dev, bytes, 1, &dev->chain)))
            return rc;
    }
    memcpy(dev->chain->va, descs, count * sizeof *descs);
    uint32_t chain_addr;
    if ((rc = ipudrv_xlat_map(dev, dev->chain, 0, bytes, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, 1, &chain_addr)))
        return ipudrv_fail(dev, rc, "DMA: no translation entry left for the descriptor chain (%s); unmap one "
                           "of the 64 entries", ipudrv_last_error(NULL));
    uint32_t dma_status = 0;
    rc = ipudrv_wr(dev, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_DMA_DONE_MASK | IPU_REG_IRQ_STATUS_ERROR_MASK);
    if (!rc)
        rc = ipudrv_wr(dev, IPU_REG_DMA_DESC_ADDR, chain_addr);
    if (!rc)
        rc = ipudrv_wr(dev, IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    if (!rc)
        rc = wait_chain(dev, &dma_status);
    int unmap_rc = ipudrv_xlat_unmap(dev, chain_addr);
    if (rc)
        return rc;
    if (dma_status & IPU_REG_DMA_STATUS_ERROR_MASK)
        return chain_error(dev);
    return unmap_rc;
}

int ipudrv_buffer_alloc(ipudrv_device *dev, size_t size, ipudrv_buffer **out)
{
    int rc = ipudrv_enter(dev, "ipudrv_buffer_alloc");
    if (rc)
        return rc;
    if (!out || size == 0)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_buffer_alloc: %s", !out ? "out is NULL" : "size is 0");
    else
        rc = ipudrv_buffer_new(dev, size, 0, out);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_buffer_free(ipudrv_device *dev, ipudrv_buffer *buf)
{
    int rc = ipudrv_enter(dev, "ipudrv_buffer_free");
    if (rc)
        return rc;
    if (!ipudrv_buffer_is_live(dev, buf) || buf->internal)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_buffer_free: not a live DMA buffer of this device (already freed, "
                         "or allocated on another handle)");
    else
        ipudrv_buffer_release(dev, buf);
    ipudrv_leave(dev);
    return rc;
}

void *ipudrv_buffer_ptr(const ipudrv_buffer *buf)
{
    return buf ? buf->va : NULL;
}

size_t ipudrv_buffer_size(const ipudrv_buffer *buf)
{
    return buf ? buf->size : 0;
}

/* The host-side bytes of one transfer must lie inside the translation entry
 * (and so the buffer) their start address falls in: entries are packed next to
 * each other in device space, so a transfer that ran past its entry's end would
 * silently read or write the next mapping (often the driver's own descriptor
 * chain). Addresses outside every entry are left to the card, which faults
 * them with an error record. */
static int check_xfer_in_mapping(ipudrv_device *dev, size_t index, const struct ipudrv_dma_xfer *x)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++) {
        const struct ipudrv_xlat_slot *s = &dev->xlat[i];
        uint64_t base = s->dev_base, end = base + (uint64_t)s->pages * IPUDRV_PAGE_SIZE;
        if (!s->used || x->dev_addr < base || x->dev_addr >= end)
            continue;
        uint64_t last = (uint64_t)x->dev_addr + x->length;
        if (last <= end)
            return 0;
        size_t buf_offset = (size_t)(s->bus - s->buf->bus);
        return ipudrv_fail(dev, -EINVAL, "ipudrv_dma_run: transfer %zu (%s, %u bytes at device address 0x%08x) "
                           "runs %llu bytes past the end of its mapping [0x%08x, 0x%08llx): buffer %p (%zu bytes) "
                           "offset 0x%zx size %llu; shorten the transfer or map more of the buffer",
                           index, x->to_host ? "tile to host" : "host to tile", x->length, x->dev_addr,
                           (unsigned long long)(last - end), s->dev_base, (unsigned long long)end,
                           (void *)s->buf, s->buf->size, buf_offset, (unsigned long long)(end - base));
    }
    return 0;
}

int ipudrv_dma_run(ipudrv_device *dev, const struct ipudrv_dma_xfer *xfers, size_t count)
{
    int rc = ipudrv_enter(dev, "ipudrv_dma_run");
    if (rc)
        return rc;
    if (!xfers || count == 0 || count > MAX_CHAIN) {
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_dma_run: %s; pass 1 to %u transfers", !xfers ? "xfers is NULL" :
                         "bad transfer count", MAX_CHAIN);
        ipudrv_leave(dev);
        return rc;
    }
    for (size_t i = 0; i < count; i++)
        if ((rc = check_xfer_in_mapping(dev, i, &xfers[i]))) {
            ipudrv_leave(dev);
            return rc;
        }
    struct ipu_dma_desc *descs = calloc(count, sizeof *descs);
    if (!descs) {
        rc = ipudrv_fail(dev, -ENOMEM, "ipudrv_dma_run: out of memory for %zu descriptors", count);
    } else {
        for (size_t i = 0; i < count; i++) {
            descs[i].dev_addr = xfers[i].dev_addr;
            descs[i].tile_addr = xfers[i].tile_addr;
            descs[i].length = xfers[i].length;
            descs[i].first_tile = xfers[i].first_tile;
            descs[i].tile_count = xfers[i].tile_count;
            descs[i].flags = (xfers[i].to_host ? IPU_DMA_FLAGS_TO_HOST_MASK : 0) |
                             (i + 1 == count ? IPU_DMA_FLAGS_LAST_MASK : 0);
        }
        rc = ipudrv_dma_chain(dev, descs, count);
        free(descs);
    }
    ipudrv_leave(dev);
    return rc;
}
