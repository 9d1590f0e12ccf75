/* Attributes, per-tile status, console bytes and error records. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

_Static_assert(IPUDRV_CONTEXTS_MAX == IPU_TILE_CONTEXTS_MAX, "public context count follows the contract");

int ipudrv_tile_status_locked(ipudrv_device *dev, unsigned tile, struct ipudrv_tile_status *out)
{
    memset(out, 0, sizeof *out);
    out->tile = tile;
    uint32_t lo = 0, hi = 0;
    int rc;
    if ((rc = ipudrv_wr(dev, IPU_REG_TILE_SEL, tile)) || (rc = ipudrv_rd(dev, IPU_REG_TILE_STATE, &out->state)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_EXIT_CODE, &out->exit_code)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_ERR_CAUSE, &out->err_cause)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_ERR_PC, &out->err_pc)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_ERR_ADDR, &out->err_addr)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_CYCLES_LO, &lo)) || (rc = ipudrv_rd(dev, IPU_REG_TILE_CYCLES_HI, &hi)))
        return rc;
    out->cycles = ((uint64_t)hi << 32) | lo;
    out->num_contexts = dev->num_workers + 1 > IPUDRV_CONTEXTS_MAX ? IPUDRV_CONTEXTS_MAX : dev->num_workers + 1;
    for (unsigned c = 0; c < out->num_contexts; c++) {
        struct ipudrv_context_status *cs = &out->ctx[c];
        if ((rc = ipudrv_wr(dev, IPU_REG_TILE_CTX_SEL, c)) || (rc = ipudrv_rd(dev, IPU_REG_TILE_CTX_STATE, &cs->state)) ||
            (rc = ipudrv_rd(dev, IPU_REG_TILE_CTX_PC, &cs->pc)) ||
            (rc = ipudrv_rd(dev, IPU_REG_TILE_CTX_INSTRET, &cs->instret)))
            return rc;
    }
    return 0;
}

int ipudrv_tile_status(ipudrv_device *dev, unsigned tile, struct ipudrv_tile_status *out)
{
    int rc = ipudrv_enter(dev, "ipudrv_tile_status");
    if (rc)
        return rc;
    if (!out)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_tile_status: out is NULL");
    else if (tile >= dev->num_tiles)
        rc = ipudrv_fail(dev, -EINVAL, "ipudrv_tile_status: tile %u does not exist; the card has tiles 0..%u", tile,
                         dev->num_tiles - 1);
    else
        rc = ipudrv_tile_status_locked(dev, tile, out);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_get_info(ipudrv_device *dev, struct ipudrv_info *out)
{
    int rc = ipudrv_enter(dev, "ipudrv_get_info");
    if (rc)
        return rc;
    if (!out) {
        ipudrv_leave(dev);
        return ipudrv_fail(dev, -EINVAL, "ipudrv_get_info: out is NULL");
    }
    memset(out, 0, sizeof *out);
    out->id = dev->node.id;
    snprintf(out->transport, sizeof out->transport, "%s", dev->node.transport);
    snprintf(out->location, sizeof out->location, "%s", dev->node.location);
    out->board = dev->board;
    out->xlat_used = ipudrv_xlat_used(dev);
    out->flags = dev->t->ops->window_preferred ? IPUDRV_INFO_WINDOW_PREFERRED : 0;
    snprintf(out->driver_version, sizeof out->driver_version, "%s", ipudrv_version());
    uint32_t version = 0, lo = 0, hi = 0, blo = 0, bhi = 0;
    if ((rc = ipudrv_rd(dev, IPU_REG_NUM_TILES, &out->num_tiles)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_MEM_BYTES, &out->tile_mem_bytes)) ||
        (rc = ipudrv_rd(dev, IPU_REG_NUM_WORKERS, &out->num_workers)) ||
        (rc = ipudrv_rd(dev, IPU_REG_CAPS, &out->caps)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_CLOCK_KHZ, &out->tile_clock_khz)) ||
        (rc = ipudrv_rd(dev, IPU_REG_XLAT_ENTRIES, &out->xlat_entries)) ||
        (rc = ipudrv_rd(dev, IPU_REG_VERSION, &version)) || (rc = ipudrv_card_state(dev, &out->state)) ||
        (rc = ipudrv_rd(dev, IPU_REG_ERR_COUNT, &out->error_count)) ||
        (rc = ipudrv_rd(dev, IPU_REG_ERR_LOST, &out->errors_lost)) ||
        (rc = ipudrv_rd(dev, IPU_REG_CONSOLE_LOST, &out->console_lost)) ||
        (rc = ipudrv_rd(dev, IPU_REG_DMA_BYTES_LO, &blo)) || (rc = ipudrv_rd(dev, IPU_REG_DMA_BYTES_HI, &bhi)) ||
        (rc = ipudrv_rd(dev, IPU_REG_CARD_CYCLES_LO, &lo)) || (rc = ipudrv_rd(dev, IPU_REG_CARD_CYCLES_HI, &hi))) {
        ipudrv_leave(dev);
        return rc;
    }
    snprintf(out->firmware_version, sizeof out->firmware_version, "%u.%u",
             (version & IPU_REG_VERSION_MAJOR_MASK) >> IPU_REG_VERSION_MAJOR_SHIFT,
             (version & IPU_REG_VERSION_MINOR_MASK) >> IPU_REG_VERSION_MINOR_SHIFT);
    out->dma_bytes = ((uint64_t)bhi << 32) | blo;
    out->card_cycles = ((uint64_t)hi << 32) | lo;
    ipudrv_leave(dev);
    return 0;
}

int ipudrv_console_read(ipudrv_device *dev, struct ipudrv_console_byte *out, size_t max, size_t *count)
{
    int rc = ipudrv_enter(dev, "ipudrv_console_read");
    if (rc)
        return rc;
    if (!count || (!out && max)) {
        ipudrv_leave(dev);
        return ipudrv_fail(dev, -EINVAL, "ipudrv_console_read: %s is NULL", !count ? "count" : "out");
    }
    *count = 0;
    while (*count < max) {
        uint32_t v = 0;
        if ((rc = ipudrv_rd(dev, IPU_REG_CONSOLE_DATA, &v)))
            break;
        if (!(v & IPU_REG_CONSOLE_DATA_VALID_MASK))
            break;
        out[*count].tile = (uint16_t)((v & IPU_REG_CONSOLE_DATA_TILE_MASK) >> IPU_REG_CONSOLE_DATA_TILE_SHIFT);
        out[*count].byte = (uint8_t)(v & IPU_REG_CONSOLE_DATA_BYTE_MASK);
        (*count)++;
    }
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_error_peek(ipudrv_device *dev, struct ipudrv_error_record *rec)
{
    uint32_t n = 0;
    int rc = ipudrv_rd(dev, IPU_REG_ERR_COUNT, &n);
    if (rc)
        return rc;
    if (n == 0)
        return -ENOENT;
    if ((rc = ipudrv_rd(dev, IPU_REG_ERR_CAUSE, &rec->cause)) || (rc = ipudrv_rd(dev, IPU_REG_ERR_TILE, &rec->tile)) ||
        (rc = ipudrv_rd(dev, IPU_REG_ERR_CONTEXT, &rec->context)) || (rc = ipudrv_rd(dev, IPU_REG_ERR_PC, &rec->pc)) ||
        (rc = ipudrv_rd(dev, IPU_REG_ERR_ADDR, &rec->addr)) || (rc = ipudrv_rd(dev, IPU_REG_ERR_INFO, &rec->info)))
        return rc;
    return 0;
}

int ipudrv_error_read(ipudrv_device *dev, struct ipudrv_error_record *out, size_t max, size_t *count)
{
    int rc = ipudrv_enter(dev, "ipudrv_error_read");
    if (rc)
        return rc;
    if (!count || (!out && max)) {
        ipudrv_leave(dev);
        return ipudrv_fail(dev, -EINVAL, "ipudrv_error_read: %s is NULL", !count ? "count" : "out");
    }
    *count = 0;
    while (*count < max) {
        rc = ipudrv_error_peek(dev, &out[*count]);
        if (rc == -ENOENT) {
            rc = 0;
            break;
        }
        if (rc || (rc = ipudrv_wr(dev, IPU_REG_ERR_POP, 1)))
            break;
        (*count)++;
    }
    ipudrv_leave(dev);
    return rc;
}

/* The fix to suggest for each cause. */
static const char *hint(uint32_t cause)
{
    switch (cause) {
    case IPU_ERR_XLAT_MISS: return "map the host buffer with ipudrv_map and use the device address it returns";
    case IPU_ERR_XLAT_PERMISSION:
        return "map with IPUDRV_MAP_READ for host-to-device and IPUDRV_MAP_WRITE for device-to-host";
    case IPU_ERR_DMA_BAD_DESCRIPTOR:
        return "check the tile range, the tile address (from IPU_TILE_SRAM_BASE) and the length (1 to the tile size)";
    case IPU_ERR_WATCHDOG: return "the tile is probably hung; raise the watchdog budget if it is just long";
    case IPU_ERR_HOST_EXCHANGE: return "check the host-exchange descriptor's tile address and length";
    case IPU_ERR_LOAD_FAULT:
    case IPU_ERR_STORE_FAULT:
    case IPU_ERR_FETCH_FAULT: return "the tile program used an address outside tile SRAM (a null pointer?)";
    case IPU_ERR_STACK_OVERFLOW:
        return "the context's stack outgrew its STACK_LIMIT (address: the new sp, info: the limit); use less stack "
               "(smaller locals, no deep recursion) or link with larger stacks (gen-ldscript.py --worker-stack / "
               "--supervisor-stack)";
    case IPU_ERR_LOCKSTEP_DIVERGENCE:
        return "both cards are stopped; the divergence report on stderr shows both sides; reset the card";
    default: return "see docs/hardware.md for the cause";
    }
}

int ipudrv_error_format(const struct ipudrv_error_record *rec, char *buf, size_t len)
{
    if (!rec || (!buf && len))
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_error_format: %s is NULL", !rec ? "rec" : "buf");
    char cause[IPUDRV_CAUSE_TEXT_MAX];
    ipudrv_err_describe(rec->cause, cause, sizeof cause);
    if (rec->cause == IPU_ERR_LOCKSTEP_DIVERGENCE)
        return snprintf(buf, len, "tile %u context %u: LOCKSTEP_DIVERGENCE: the RTL retired pc 0x%08x where the "
                        "model retired pc 0x%08x, after %u matching instructions; %s", rec->tile, rec->context,
                        rec->pc, rec->addr, rec->info, hint(rec->cause));
    if (rec->tile == 0xffffffffu)
        return snprintf(buf, len, "DMA engine: %s at device address 0x%08x (descriptor %u); %s", cause, rec->addr,
                        rec->info, hint(rec->cause));
    return snprintf(buf, len, "tile %u context %u: %s at pc 0x%08x, address 0x%08x, info %u; %s", rec->tile,
                    rec->context, cause, rec->pc, rec->addr, rec->info, hint(rec->cause));
}
