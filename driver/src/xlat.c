/* The card's translation table: the driver's shadow copy, the checks
 * (alignment, 128 MiB per entry, 64 entries, no overlap, permissions), the
 * device-address allocator and programming the XLAT registers. */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define PAGE IPUDRV_PAGE_SIZE
#define MAX_PAGES (IPUDRV_MAP_MAX_BYTES / PAGE)
/* Device addresses start above page 0 so that a zero address always faults. */
#define DEV_LOW 0x1000ull
#define DEV_END 0x100000000ull

static uint32_t entry_reg(unsigned i, unsigned field)
{
    return IPU_REG_XLAT_BASE + IPU_REG_XLAT_STRIDE * i + field;
}

static int program(ipudrv_device *dev, unsigned i)
{
    const struct ipudrv_xlat_slot *s = &dev->xlat[i];
    /* Invalidate first and set VALID last, so that the card never sees a half-written entry. */
    int rc = ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
    if (rc || !s->used)
        return rc;
    uint32_t ctrl = IPU_XLAT_CTRL_VALID_MASK | ((s->pages - 1) << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT);
    if (s->perms & IPUDRV_MAP_READ)
        ctrl |= IPU_XLAT_CTRL_READ_MASK;
    if (s->perms & IPUDRV_MAP_WRITE)
        ctrl |= IPU_XLAT_CTRL_WRITE_MASK;
    if ((rc = ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_DEV_BASE_OFFSET), s->dev_base)) ||
        (rc = ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_BUS_LO_OFFSET), (uint32_t)s->bus)) ||
        (rc = ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_BUS_HI_OFFSET), (uint32_t)(s->bus >> 32))))
        return rc;
    return ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_CTRL_OFFSET), ctrl);
}

static int overlaps(const ipudrv_device *dev, uint64_t base, uint64_t len, unsigned *which)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++) {
        const struct ipudrv_xlat_slot *s = &dev->xlat[i];
        uint64_t sb = s->dev_base, se = sb + (uint64_t)s->pages * PAGE;
        if (s->used && base < se && sb < base + len) {
            *which = i;
            return 1;
        }
    }
    return 0;
}

/* First fit: candidates are DEV_LOW and the end of every entry. */
static int find_range(const ipudrv_device *dev, uint64_t len, uint32_t *out)
{
    uint64_t best = DEV_END;
    unsigned dummy;
    if (!overlaps(dev, DEV_LOW, len, &dummy))
        best = DEV_LOW;
    for (unsigned i = 0; i < dev->xlat_entries; i++) {
        const struct ipudrv_xlat_slot *s = &dev->xlat[i];
        if (!s->used)
            continue;
        uint64_t cand = s->dev_base + (uint64_t)s->pages * PAGE;
        if (cand < best && cand + len <= DEV_END && !overlaps(dev, cand, len, &dummy))
            best = cand;
    }
    if (best + len > DEV_END)
        return -ENOSPC;
    *out = (uint32_t)best;
    return 0;
}

int ipudrv_xlat_map(ipudrv_device *dev, struct ipudrv_buffer *buf, size_t offset, size_t length, unsigned perms,
                    uint32_t dev_addr, int internal, uint32_t *out_dev_addr)
{
    if (!ipudrv_buffer_is_live(dev, buf))
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: the buffer is not a live DMA buffer of this device; "
                           "allocate it with ipudrv_buffer_alloc on the same handle");
    if (perms == 0 || (perms & ~(IPUDRV_MAP_READ | IPUDRV_MAP_WRITE)))
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: permissions 0x%x are invalid; use IPUDRV_MAP_READ "
                           "(host to device), IPUDRV_MAP_WRITE (device to host) or both", perms);
    if (offset % PAGE || dev_addr % PAGE)
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: %s 0x%zx is not 4 KiB aligned; translation entries map "
                           "whole 4 KiB pages", offset % PAGE ? "buffer offset" : "device address",
                           offset % PAGE ? offset : (size_t)dev_addr);
    if (length == 0)
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: length is 0; map at least one byte");
    if (offset > buf->size || length > buf->size - offset)
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: bytes [0x%zx, 0x%zx) lie outside the %zu-byte buffer",
                           offset, offset + length, buf->size);
    size_t bytes = ipudrv_page_round(length);
    if (bytes > IPUDRV_MAP_MAX_BYTES)
        return ipudrv_fail(dev, -E2BIG, "ipudrv_map: %zu bytes exceed the 128 MiB a translation entry can map; "
                           "split the buffer into several entries", length);
    uint32_t pages = (uint32_t)(bytes / PAGE);
    unsigned slot = dev->xlat_entries, other;
    for (unsigned i = 0; i < dev->xlat_entries; i++)
        if (!dev->xlat[i].used) {
            slot = i;
            break;
        }
    if (slot == dev->xlat_entries)
        return ipudrv_fail(dev, -ENOSPC, "ipudrv_map: all %u translation entries are in use; unmap one "
                           "(ipudrv_unmap) or map larger regions", dev->xlat_entries);
    if (dev_addr == IPUDRV_MAP_ANY) {
        if (find_range(dev, bytes, &dev_addr))
            return ipudrv_fail(dev, -ENOSPC, "ipudrv_map: no free %zu-byte range in the 4 GiB device address "
                               "space; unmap something", bytes);
    } else if ((uint64_t)dev_addr + bytes > DEV_END) {
        return ipudrv_fail(dev, -EINVAL, "ipudrv_map: device range at 0x%08x of %zu bytes passes 4 GiB",
                           dev_addr, bytes);
    } else if (overlaps(dev, dev_addr, bytes, &other)) {
        return ipudrv_fail(dev, -EEXIST, "ipudrv_map: device range [0x%08x, 0x%08llx) overlaps entry %u at "
                           "0x%08x (%u pages); pick another address or IPUDRV_MAP_ANY", dev_addr,
                           (unsigned long long)dev_addr + bytes, other, dev->xlat[other].dev_base,
                           dev->xlat[other].pages);
    }
    struct ipudrv_xlat_slot *s = &dev->xlat[slot];
    *s = (struct ipudrv_xlat_slot){1, internal, dev_addr, pages, perms, buf->bus + offset, buf};
    int rc = program(dev, slot);
    if (rc) {
        memset(s, 0, sizeof *s);
        return rc;
    }
    if (out_dev_addr)
        *out_dev_addr = dev_addr;
    return 0;
}

int ipudrv_xlat_unmap(ipudrv_device *dev, uint32_t dev_addr)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++)
        if (dev->xlat[i].used && dev->xlat[i].dev_base == dev_addr) {
            memset(&dev->xlat[i], 0, sizeof dev->xlat[i]);
            return program(dev, i);
        }
    return ipudrv_fail(dev, -ENOENT, "ipudrv_unmap: no translation entry starts at device address 0x%08x; "
                       "pass the address ipudrv_map returned", dev_addr);
}

void ipudrv_xlat_unmap_buffer(ipudrv_device *dev, struct ipudrv_buffer *buf)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++)
        if (dev->xlat[i].used && dev->xlat[i].buf == buf) {
            memset(&dev->xlat[i], 0, sizeof dev->xlat[i]);
            program(dev, i);
        }
}

int ipudrv_xlat_clear_card(ipudrv_device *dev)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++) {
        int rc = ipudrv_wr(dev, entry_reg(i, IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
        if (rc)
            return rc;
    }
    return 0;
}

int ipudrv_xlat_reinstall(ipudrv_device *dev)
{
    for (unsigned i = 0; i < dev->xlat_entries; i++) {
        int rc = program(dev, i);
        if (rc)
            return rc;
    }
    return 0;
}

unsigned ipudrv_xlat_used(const ipudrv_device *dev)
{
    unsigned n = 0;
    for (unsigned i = 0; i < dev->xlat_entries; i++)
        n += dev->xlat[i].used && !dev->xlat[i].internal;
    return n;
}

int ipudrv_map(ipudrv_device *dev, ipudrv_buffer *buf, size_t offset, size_t length, unsigned perms,
               uint32_t dev_addr, uint32_t *out_dev_addr)
{
    int rc = ipudrv_enter(dev, "ipudrv_map");
    if (rc)
        return rc;
    rc = ipudrv_xlat_map(dev, buf, offset, length, perms, dev_addr, 0, out_dev_addr);
    ipudrv_leave(dev);
    return rc;
}

int ipudrv_unmap(ipudrv_device *dev, uint32_t dev_addr)
{
    int rc = ipudrv_enter(dev, "ipudrv_unmap");
    if (rc)
        return rc;
    rc = ipudrv_xlat_unmap(dev, dev_addr);
    ipudrv_leave(dev);
    return rc;
}
