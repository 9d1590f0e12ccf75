/* The host service of a CAPS.HOST_SERVICE card: the driver does the work of
 * the engines the card lacks, for the request SVC_REQ shows (contract
 * SVC_KIND). The rules and records are the card model's
 * (model/src/card_dma.cpp translate/host_read/host_write for host
 * exchanges, tile_csr.cpp send_exchange for exchange lists, card_run.cpp for
 * landing), so a program faults the same way on every card.
 *
 * Everything runs under the device lock (ipudrv_enter), so no START, HALT or
 * RESET of this handle comes between reading a request and completing it. The
 * requesting tile is stalled until SVC_DONE or SVC_FAULT_ADDR, so the window
 * may touch its memory while the card runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *ipudrv_svc_kind_name(uint32_t kind)
{
    switch (kind) {
    case IPU_SVC_KIND_NONE: return "NONE";
    case IPU_SVC_KIND_HOST_EXCHANGE: return "HOST_EXCHANGE";
    case IPU_SVC_KIND_EXCHANGE: return "EXCHANGE";
    case IPU_SVC_KIND_LAND: return "LAND";
    }
    return "UNKNOWN";
}

/* ---- outboxes ---------------------------------------------------------- */

static void outbox_truncate(struct ipudrv_svc_outbox *o, size_t keep)
{
    while (o->count > keep)
        free(o->sends[--o->count].data);
}

void ipudrv_svc_outboxes_empty(ipudrv_device *dev)
{
    if (!dev->outboxes)
        return;
    for (uint32_t t = 0; t < dev->num_tiles; t++)
        outbox_truncate(&dev->outboxes[t], 0);
}

void ipudrv_svc_free(ipudrv_device *dev)
{
    ipudrv_svc_outboxes_empty(dev);
    if (dev->outboxes)
        for (uint32_t t = 0; t < dev->num_tiles; t++)
            free(dev->outboxes[t].sends);
    free(dev->outboxes);
    dev->outboxes = NULL;
}

void ipudrv_svc_note_write(ipudrv_device *dev, uint32_t offset, uint32_t value)
{
    const uint32_t xlat_end = IPU_REG_XLAT_BASE + IPU_REG_XLAT_COUNT * IPU_REG_XLAT_STRIDE;
    if (offset >= IPU_REG_XLAT_BASE && offset < xlat_end) {
        const uint32_t entry = (offset - IPU_REG_XLAT_BASE) / IPU_REG_XLAT_STRIDE;
        dev->xlat_raw[entry][(offset - IPU_REG_XLAT_BASE) % IPU_REG_XLAT_STRIDE / 4] = value;
        dev->xlat_raw_dirty |= 1ull << entry;
    } else if (offset == IPU_REG_RESET && value == IPU_RESET_KEY) {
        memset(dev->xlat_raw, 0, sizeof dev->xlat_raw);
        dev->xlat_raw_dirty = 0;
        ipudrv_svc_outboxes_empty(dev);
    } else if (offset == IPU_REG_RUN_CTRL &&
               (value & (IPU_REG_RUN_CTRL_START_MASK | IPU_REG_RUN_CTRL_HALT_MASK))) {
        ipudrv_svc_outboxes_empty(dev);
    }
}

/* ---- completing a request ---------------------------------------------- */

static int complete(ipudrv_device *dev, uint32_t done)
{
    return ipudrv_wr(dev, IPU_REG_SVC_DONE, done);
}

static int fault_host_exchange(ipudrv_device *dev, uint32_t cause, uint32_t addr)
{
    int rc = ipudrv_wr(dev, IPU_REG_SVC_FAULT_CAUSE, cause);
    return rc ? rc : ipudrv_wr(dev, IPU_REG_SVC_FAULT_ADDR, addr);
}

/* The card records ERR_BAD_EXCHANGE itself; INFO must be written first. */
static int fault_exchange(ipudrv_device *dev, uint32_t addr, uint32_t info)
{
    int rc = ipudrv_wr(dev, IPU_REG_SVC_FAULT_INFO, info);
    return rc ? rc : ipudrv_wr(dev, IPU_REG_SVC_FAULT_ADDR, addr);
}

/* ---- HOST_EXCHANGE ----------------------------------------------------- */

struct chunk {
    uint32_t dev;   /* device address of the chunk's first byte */
    uint32_t length;
    uint64_t bus;
    uint8_t *host;  /* where the bytes are in this process */
};

/* A RESET or the card itself may have refused an entry the mirror holds as
 * VALID (the model clears VALID of a bad entry): the card's CTRL is the truth.
 * Only entries written since the last request cost a read. */
static int refresh_mirror(ipudrv_device *dev)
{
    const uint32_t ctrl_word = IPU_XLAT_ENTRY_CTRL_OFFSET / 4;
    for (uint32_t e = 0; dev->xlat_raw_dirty && e < IPU_REG_XLAT_COUNT; e++) {
        if (!(dev->xlat_raw_dirty & (1ull << e)))
            continue;
        if (e < dev->xlat_entries && (dev->xlat_raw[e][ctrl_word] & IPU_XLAT_CTRL_VALID_MASK)) {
            int rc = ipudrv_rd(dev, IPU_REG_XLAT_BASE + e * IPU_REG_XLAT_STRIDE + IPU_XLAT_ENTRY_CTRL_OFFSET,
                               &dev->xlat_raw[e][ctrl_word]);
            if (rc)
                return rc;
        }
        dev->xlat_raw_dirty &= ~(1ull << e);
    }
    return 0;
}

/* The bytes [bus, bus + n) inside one of the device's buffers, or NULL. */
static uint8_t *host_bytes(const ipudrv_device *dev, uint64_t bus, uint32_t n)
{
    for (const struct ipudrv_buffer *b = dev->buffers; b; b = b->next)
        if (bus >= b->bus && bus - b->bus <= b->size && n <= b->size - (bus - b->bus))
            return (uint8_t *)b->va + (bus - b->bus);
    return NULL;
}

/* Translates [dev_addr, dev_addr + len) for a card access that writes host
 * memory (`write`) or reads it, into chunks of host bytes: the lowest VALID
 * entry covering each position (the low 12 bits of DEV_BASE and BUS_LO do not
 * count), its permission, on to the entry covering the next byte; then
 * where each chunk is in this process. Returns 0
 * with *n chunks, or the ERR cause with the failing device address in *fault. */
static uint32_t translate(const ipudrv_device *dev, uint32_t dev_addr, uint32_t len, int write,
                          struct chunk *chunks, size_t *n, uint32_t *fault)
{
    const uint32_t need = write ? IPU_XLAT_CTRL_WRITE_MASK : IPU_XLAT_CTRL_READ_MASK;
    const uint64_t end = (uint64_t)dev_addr + len;
    uint64_t pos = dev_addr;
    *n = 0;
    while (pos < end) {
        const uint32_t *hit = NULL;
        uint64_t base = 0, bytes = 0;
        /* Only the entries the card has (XLAT_ENTRIES, read at open). */
        for (uint32_t e = 0; e < dev->xlat_entries && !hit; e++) {
            const uint32_t *w = dev->xlat_raw[e];
            const uint32_t ctrl = w[IPU_XLAT_ENTRY_CTRL_OFFSET / 4];
            base = w[IPU_XLAT_ENTRY_DEV_BASE_OFFSET / 4] & ~0xfffu;
            bytes = (((ctrl & IPU_XLAT_CTRL_PAGES_MINUS_1_MASK) >> IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT) + 1ull) * 4096u;
            if ((ctrl & IPU_XLAT_CTRL_VALID_MASK) && pos >= base && pos < base + bytes)
                hit = w;
        }
        *fault = (uint32_t)pos;
        if (!hit)
            return IPU_ERR_XLAT_MISS;
        if (!(hit[IPU_XLAT_ENTRY_CTRL_OFFSET / 4] & need))
            return IPU_ERR_XLAT_PERMISSION;
        const uint64_t take = (end < base + bytes ? end : base + bytes) - pos;
        const uint64_t bus = (((uint64_t)hit[IPU_XLAT_ENTRY_BUS_HI_OFFSET / 4] << 32) |
                              (hit[IPU_XLAT_ENTRY_BUS_LO_OFFSET / 4] & ~0xfffu)) + (pos - base);
        /* Each entry is hit at most once (pos only grows past it), so there
         * are at most IPU_REG_XLAT_COUNT chunks. */
        chunks[(*n)++] = (struct chunk){(uint32_t)pos, (uint32_t)take, bus, NULL};
        pos += take;
    }
    /* Then the host side of each chunk: a bus range outside the device's
     * buffers is memory the card may not reach, a refusal that the card
     * reports as a miss at the chunk's first byte. */
    for (size_t i = 0; i < *n; i++) {
        if (!(chunks[i].host = host_bytes(dev, chunks[i].bus, chunks[i].length))) {
            *fault = chunks[i].dev;
            return IPU_ERR_XLAT_MISS;
        }
    }
    return IPU_ERR_NONE;
}

static int in_sram(const ipudrv_device *dev, uint32_t addr, uint32_t len)
{
    return addr >= IPU_TILE_SRAM_BASE && len <= dev->tile_mem_bytes &&
           addr - IPU_TILE_SRAM_BASE <= dev->tile_mem_bytes - len;
}

static int serve_host_exchange(ipudrv_device *dev, uint32_t req, uint32_t tile)
{
    uint32_t dev_addr = 0, tile_addr = 0, len = 0;
    int rc;
    if ((rc = ipudrv_rd(dev, IPU_REG_SVC_ARG0, &dev_addr)) || (rc = ipudrv_rd(dev, IPU_REG_SVC_ARG1, &tile_addr)) ||
        (rc = ipudrv_rd(dev, IPU_REG_SVC_ARG2, &len)))
        return rc;
    const int to_host = (req & IPU_REG_SVC_REQ_TO_HOST_MASK) != 0;
    /* The tile checked its range before asking; a card that did not gets the tile's own record. */
    if (len == 0 || !in_sram(dev, tile_addr, len))
        return fault_host_exchange(dev, IPU_ERR_HOST_EXCHANGE, tile_addr);
    if ((rc = refresh_mirror(dev)))
        return rc;
    struct chunk chunks[IPU_REG_XLAT_COUNT];
    size_t n = 0;
    uint32_t fault = 0;
    /* The whole range first: a fault moves no byte, as on the card model. */
    uint32_t cause = translate(dev, dev_addr, len, to_host, chunks, &n, &fault);
    if (cause)
        return fault_host_exchange(dev, cause, fault);
    for (size_t i = 0; i < n; i++)
        if ((rc = ipudrv_tile_window(dev, tile, tile_addr + (chunks[i].dev - dev_addr), chunks[i].host,
                                     chunks[i].length, !to_host)))
            return rc;
    return complete(dev, IPU_REG_SVC_DONE_DONE_MASK);
}

/* ---- EXCHANGE and LAND ------------------------------------------------- */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int outbox_add(ipudrv_device *dev, uint32_t tile, const struct ipudrv_svc_send *send)
{
    if (!dev->outboxes && !(dev->outboxes = calloc(dev->num_tiles, sizeof *dev->outboxes)))
        return -ENOMEM;
    struct ipudrv_svc_outbox *o = &dev->outboxes[tile];
    if (o->count == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 8;
        struct ipudrv_svc_send *s = realloc(o->sends, cap * sizeof *s);
        if (!s)
            return -ENOMEM;
        o->sends = s;
        o->cap = cap;
    }
    o->sends[o->count++] = *send;
    return 0;
}

/* Validates the list (tile_csr.cpp send_exchange's checks, records and
 * order), then reads every source now into the tile's outbox. */
static int serve_exchange(ipudrv_device *dev, uint32_t tile)
{
    uint32_t list = 0;
    int rc = ipudrv_rd(dev, IPU_REG_SVC_ARG0, &list);
    if (rc)
        return rc;
    if (!in_sram(dev, list, 4))
        return fault_exchange(dev, list, 0);
    uint8_t head[4];
    if ((rc = ipudrv_tile_window(dev, tile, list, head, sizeof head, 0)))
        return rc;
    const uint32_t count = le32(head);
    if (count > dev->tile_mem_bytes / IPU_EXCH_DESC_SIZE || !in_sram(dev, list + 4, count * IPU_EXCH_DESC_SIZE))
        return fault_exchange(dev, list, count);
    if (count == 0)
        return complete(dev, IPU_REG_SVC_DONE_DONE_MASK);
    uint8_t *descs = malloc((size_t)count * IPU_EXCH_DESC_SIZE);
    if (!descs)
        return ipudrv_fail(dev, -ENOMEM, "servicing tile %u's EXCHANGE: out of memory", tile);
    if ((rc = ipudrv_tile_window(dev, tile, list + 4, descs, (size_t)count * IPU_EXCH_DESC_SIZE, 0))) {
        free(descs);
        return rc;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *d = descs + (size_t)i * IPU_EXCH_DESC_SIZE;
        const uint32_t dst_tile = le32(d + IPU_EXCH_DESC_DST_TILE_OFFSET), dst = le32(d + IPU_EXCH_DESC_DST_ADDR_OFFSET);
        const uint32_t src = le32(d + IPU_EXCH_DESC_SRC_ADDR_OFFSET), length = le32(d + IPU_EXCH_DESC_LENGTH_OFFSET);
        const int dst_ok = dst_tile < dev->num_tiles && in_sram(dev, dst, length);
        if (!dst_ok || !in_sram(dev, src, length)) {
            free(descs);
            return fault_exchange(dev, dst_ok ? src : dst, i);
        }
    }
    /* A good list: snapshot the sources. On a failure the list keeps no send. */
    const size_t kept = dev->outboxes ? dev->outboxes[tile].count : 0;
    for (uint32_t i = 0; i < count && !rc; i++) {
        const uint8_t *d = descs + (size_t)i * IPU_EXCH_DESC_SIZE;
        struct ipudrv_svc_send s = {le32(d + IPU_EXCH_DESC_DST_TILE_OFFSET), le32(d + IPU_EXCH_DESC_DST_ADDR_OFFSET),
                                    le32(d + IPU_EXCH_DESC_LENGTH_OFFSET), NULL};
        s.data = malloc(s.length ? s.length : 1);
        if (!s.data || outbox_add(dev, tile, &s)) {
            free(s.data);
            rc = ipudrv_fail(dev, -ENOMEM, "servicing tile %u's EXCHANGE: out of memory", tile);
        } else if (s.length) {
            rc = ipudrv_tile_window(dev, tile, le32(d + IPU_EXCH_DESC_SRC_ADDR_OFFSET), s.data, s.length, 0);
        }
    }
    free(descs);
    if (rc) {
        if (dev->outboxes)
            outbox_truncate(&dev->outboxes[tile], kept);
        return rc;
    }
    return complete(dev, IPU_REG_SVC_DONE_DONE_MASK | IPU_REG_SVC_DONE_LAND_DUE_MASK);
}

/* Lands every kept send: lowest sending tile first, each tile's in order, so a
 * later send to the same bytes wins as on the exchange fabric. */
static int serve_land(ipudrv_device *dev)
{
    for (uint32_t t = 0; dev->outboxes && t < dev->num_tiles; t++) {
        const struct ipudrv_svc_outbox *o = &dev->outboxes[t];
        for (size_t i = 0; i < o->count; i++) {
            const struct ipudrv_svc_send *s = &o->sends[i];
            int rc = s->length ? ipudrv_tile_window(dev, s->dst_tile, s->dst_addr, s->data, s->length, 1) : 0;
            if (rc)
                return rc;
        }
    }
    ipudrv_svc_outboxes_empty(dev);
    return complete(dev, IPU_REG_SVC_DONE_DONE_MASK);
}

/* ---- the request ------------------------------------------------------- */

int ipudrv_svc_service(ipudrv_device *dev)
{
    uint32_t req = 0, tile = 0;
    int rc = ipudrv_rd(dev, IPU_REG_SVC_REQ, &req);
    if (rc || !(req & IPU_REG_SVC_REQ_PENDING_MASK))
        return rc;
    const uint32_t kind = (req & IPU_REG_SVC_REQ_KIND_MASK) >> IPU_REG_SVC_REQ_KIND_SHIFT;
    /* A one-tile card (the iCEBreaker) saves the read: a round trip on its UART. */
    if (kind != IPU_SVC_KIND_LAND && dev->num_tiles > 1 && (rc = ipudrv_rd(dev, IPU_REG_SVC_TILE, &tile)))
        return rc;
    if (kind == IPU_SVC_KIND_NONE || tile >= dev->num_tiles)
        return ipudrv_fail(dev, -EIO, "%s shows a request the driver cannot service (SVC_REQ 0x%08x, SVC_TILE %u of "
                           "%u tiles): the card is inconsistent; reset it (gc-reset)", dev->node.label, req, tile,
                           dev->num_tiles);
    /* Cleared before the completion, so a request raised after it sets it again. */
    if ((rc = ipudrv_wr(dev, IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_SERVICE_MASK)))
        return rc;
    switch (kind) {
    case IPU_SVC_KIND_HOST_EXCHANGE: return serve_host_exchange(dev, req, tile);
    case IPU_SVC_KIND_EXCHANGE: return serve_exchange(dev, tile);
    default: return serve_land(dev);
    }
}

int ipudrv_svc_serve(ipudrv_device *dev, uint32_t *status)
{
    for (uint32_t round = 0; round <= dev->num_tiles && (*status & IPU_REG_STATUS_SVC_PENDING_MASK) &&
                             *status != 0xffffffffu; round++) {
        int rc = ipudrv_svc_service(dev);
        if (rc || (rc = ipudrv_rd(dev, IPU_REG_STATUS, status)))
            return rc;
    }
    return 0;
}
