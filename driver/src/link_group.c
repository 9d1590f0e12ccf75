/* Link groups: finding the members of a multi-IPU card in sysfs, and the
 * group transport that makes them one card (link_group.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "link_group.h"

#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_CAPABILITY_LIST 0x34

static const char *pci_root(void)
{
    const char *r = getenv("IPU_EMU_PCI_ROOT");
    return r && *r ? r : "/sys/bus/pci/devices";
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ipudrv_pci_link_cap(const char *pci_root_dir, const char *slot, struct ipudrv_link_cap *cap)
{
    char path[1024];
    uint8_t cfg[256];
    snprintf(path, sizeof path, "%s/%s/config", pci_root_dir, slot);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(cfg, 1, sizeof cfg, f);
    fclose(f);
    if (n < sizeof cfg || !(cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST))
        return 0; /* without root, sysfs gives only the first 64 bytes */
    unsigned off = cfg[PCI_CAPABILITY_LIST] & 0xfc;
    for (int guard = 0; off >= 0x40 && off + IPU_LINK_CAP_SIZE <= sizeof cfg && guard < 48; guard++) {
        const uint8_t *c = cfg + off;
        if (c[IPU_LINK_CAP_CAP_ID_OFFSET] == IPU_PCI_LINK_CAP_ID && c[IPU_LINK_CAP_KIND_OFFSET] == IPU_PCI_LINK_CAP_KIND &&
            c[IPU_LINK_CAP_LENGTH_OFFSET] >= IPU_LINK_CAP_SIZE) {
            cap->group = le32(c + IPU_LINK_CAP_GROUP_OFFSET);
            cap->index = le32(c + IPU_LINK_CAP_INDEX_OFFSET);
            cap->size = le32(c + IPU_LINK_CAP_SIZE_OFFSET);
            return cap->group != 0;
        }
        off = c[IPU_LINK_CAP_NEXT_OFFSET] & 0xfc;
    }
    return 0;
}

int ipudrv_pci_link_members(const char *pci_root_dir, const char *slot, struct ipudrv_link_members *out, char *err,
                            size_t err_len)
{
    struct ipudrv_link_cap mine;
    memset(out, 0, sizeof *out);
    if (ipudrv_pci_link_cap(pci_root_dir, slot, &mine) != 1) {
        snprintf(err, err_len, "%s is not in a link group", slot);
        return -EINVAL;
    }
    if (mine.size < 2 || mine.size > IPUDRV_GROUP_MAX) {
        snprintf(err, err_len, "%s says its link group %u has %u IPUs; this driver handles 2 to %u", slot,
                 mine.group, mine.size, IPUDRV_GROUP_MAX);
        return -EINVAL;
    }
    out->group = mine.group;
    out->size = mine.size;
    DIR *d = opendir(pci_root_dir);
    if (!d) {
        snprintf(err, err_len, "cannot list %s to find the other IPUs of link group %u", pci_root_dir, mine.group);
        return -ENODEV;
    }
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        struct ipudrv_link_cap c;
        if (e->d_name[0] == '.' || strlen(e->d_name) >= IPUDRV_SLOT_MAX ||
            !ipudrv_pci_slot_matches(pci_root_dir, e->d_name) || ipudrv_pci_link_cap(pci_root_dir, e->d_name, &c) != 1 ||
            c.group != mine.group)
            continue;
        if (c.size != mine.size) {
            snprintf(err, err_len, "link group %u is inconsistent: %s says %u IPUs, %s says %u; give every member the "
                     "same size (QEMU: ipus=N on each -device ipu-card of the group)", mine.group, slot, mine.size,
                     e->d_name, c.size);
            rc = -EINVAL;
        } else if (c.index >= mine.size || out->slot[c.index][0]) {
            snprintf(err, err_len, "link group %u is inconsistent: %s says it is IPU %u%s%s; give each member its own "
                     "index below %u (QEMU: ipu-index=I)", mine.group, e->d_name, c.index,
                     c.index < mine.size ? ", as does " : "", c.index < mine.size ? out->slot[c.index] : "", mine.size);
            rc = -EINVAL;
        } else {
            memcpy(out->slot[c.index], e->d_name, strlen(e->d_name) + 1); /* shorter than IPUDRV_SLOT_MAX */
        }
    }
    closedir(d);
    for (uint32_t i = 0; !rc && i < mine.size; i++) {
        if (!out->slot[i][0]) {
            snprintf(err, err_len, "link group %u is incomplete: IPU %u of its %u is missing (found %s as IPU %u); "
                     "give QEMU every member (-device ipu-card,link-group=%u,ipu-index=%u,ipus=%u) and bind it to "
                     "vfio-pci", mine.group, i, mine.size, slot, mine.index, mine.group, i, mine.size);
            rc = -ENODEV;
        }
    }
    return rc;
}

const struct ipudrv_transport_ops *ipudrv_group_ops_for(const struct ipudrv_node *node,
                                                        const struct ipudrv_transport_ops *ops)
{
    struct ipudrv_link_cap cap;
    if (ops == &ipudrv_transport_vfio && ipudrv_pci_link_cap(pci_root(), node->location, &cap) == 1)
        return &ipudrv_transport_group;
    return ops;
}

/* The group transport ---------------------------------------------------------
 *
 * Members are opened with the vfio transport (ipudrv_group_member_ops). The card-wide registers, DMA
 * memory and interrupts are IPU 0's; tile accesses go to the IPU that holds
 * the tile: group-wide tile g is tile g % T of IPU g / T (T tiles per IPU). */

const struct ipudrv_transport_ops *ipudrv_group_member_ops = &ipudrv_transport_vfio;

struct group_transport {
    struct ipudrv_transport base;
    uint32_t size;
    uint32_t tiles_per_ipu;
    uint32_t group;
    uint32_t tile_sel;    /* group-wide TILE_SEL */
    uint32_t window_tile; /* group-wide TILEMEM_WINDOW_TILE */
    struct ipudrv_transport *member[IPUDRV_GROUP_MAX];
};

static struct group_transport *gt(struct ipudrv_transport *t)
{
    return (struct group_transport *)t;
}

static struct ipudrv_transport *leader(struct group_transport *g)
{
    return g->member[0];
}

static int member_rd(struct ipudrv_transport *m, uint32_t offset, uint32_t *value)
{
    return m->ops->reg_read(m, offset, value);
}

static int member_wr(struct ipudrv_transport *m, uint32_t offset, uint32_t value)
{
    return m->ops->reg_write(m, offset, value);
}

static void group_close(struct ipudrv_transport *t)
{
    struct group_transport *g = gt(t);
    for (uint32_t i = 0; i < g->size; i++)
        if (g->member[i])
            g->member[i]->ops->close(g->member[i]);
    free(g);
}

/* Each member must be the IPU discovery found it to be, and of one shape. */
static int check_member(struct group_transport *g, uint32_t i, const char *slot, char *err, size_t err_len)
{
    uint32_t group = 0, index = 0, size = 0, tiles = 0, caps = 0;
    int rc;
    if ((rc = member_rd(g->member[i], IPU_REG_LINK_GROUP, &group)) ||
        (rc = member_rd(g->member[i], IPU_REG_LINK_INDEX, &index)) ||
        (rc = member_rd(g->member[i], IPU_REG_LINK_SIZE, &size)) ||
        (rc = member_rd(g->member[i], IPU_REG_NUM_TILES, &tiles)) ||
        (rc = member_rd(g->member[i], IPU_REG_CAPS, &caps))) {
        snprintf(err, err_len, "IPU %u of link group %u (%s) does not answer its registers", i, g->group, slot);
        return rc;
    }
    /* The driver services a HOST_SERVICE card's exchanges within that card only:
     * there is no fabric to carry its tiles' sends to another IPU. */
    if (caps & IPU_REG_CAPS_HOST_SERVICE_MASK) {
        snprintf(err, err_len, "%s (IPU %u of link group %u) is a CAPS.HOST_SERVICE card, whose exchanges the host "
                 "driver services within the card: it cannot be part of a link group; open it as a card of its own "
                 "(without link-group= on its QEMU device)", slot, i, g->group);
        return -EINVAL;
    }
    if (group != g->group || index != i || size != g->size) {
        snprintf(err, err_len, "%s's registers say link group %u, IPU %u of %u, but its config space says group %u, "
                 "IPU %u of %u: the card is inconsistent", slot, group, index, size, g->group, i, g->size);
        return -EIO;
    }
    if (i == 0)
        g->tiles_per_ipu = tiles;
    if (tiles == 0 || tiles != g->tiles_per_ipu) {
        snprintf(err, err_len, "link group %u mixes IPUs of %u and %u tiles (%s): give every member the same board",
                 g->group, g->tiles_per_ipu, tiles, slot);
        return -EIO;
    }
    return 0;
}

static int group_open(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                      char *err, size_t err_len)
{
    struct ipudrv_link_members members;
    int rc = ipudrv_pci_link_members(pci_root(), node->location, &members, err, err_len);
    if (rc)
        return rc;
    if (strcmp(members.slot[0], node->location) != 0) {
        /* One lock file per card: the group is opened (and locked) by IPU 0's slot. */
        uint32_t mine = 1;
        while (mine < members.size && strcmp(members.slot[mine], node->location) != 0)
            mine++;
        snprintf(err, err_len, "%s is IPU %u of link group %u; open the group by IPU 0's slot %s (gc-info -l lists "
                 "it)", node->location, mine, members.group, members.slot[0]);
        return -EINVAL;
    }
    struct group_transport *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    g->base.ops = &ipudrv_transport_group;
    g->size = members.size;
    g->group = members.group;
    for (uint32_t i = 0; i < g->size && !rc; i++) {
        struct ipudrv_node m = *node;
        char why[384] = "";
        snprintf(m.location, sizeof m.location, "%s", members.slot[i]);
        rc = ipudrv_group_member_ops->open(&m, board, &g->member[i], why, sizeof why);
        if (rc)
            snprintf(err, err_len, "IPU %u of link group %u (%s): %s", i, g->group, members.slot[i], why);
        else
            rc = check_member(g, i, members.slot[i], err, err_len);
    }
    if (rc) {
        group_close(&g->base);
        return rc;
    }
    *out = &g->base;
    return 0;
}

/* The member holding group-wide tile `tile` and the tile's index there; a tile
 * past the group goes to IPU 0 unchanged, which ignores and logs it. */
static struct ipudrv_transport *tile_member(struct group_transport *g, uint32_t tile, uint32_t *local)
{
    const uint32_t ipu = tile / g->tiles_per_ipu;
    if (ipu >= g->size) {
        *local = tile;
        return leader(g);
    }
    *local = tile % g->tiles_per_ipu;
    return g->member[ipu];
}

static int is_tile_reg(uint32_t offset)
{
    return offset >= IPU_REG_TILE_SEL && offset < IPU_REG_TILEMEM_WINDOW_TILE;
}

static int group_reg_read(struct ipudrv_transport *t, uint32_t offset, uint32_t *value)
{
    struct group_transport *g = gt(t);
    uint32_t local = 0;
    switch (offset) {
    case IPU_REG_NUM_TILES: *value = g->size * g->tiles_per_ipu; return 0;
    case IPU_REG_NUM_IPUS: *value = g->size; return 0;
    case IPU_REG_LINK_GROUP: *value = g->group; return 0;
    case IPU_REG_LINK_INDEX: *value = 0; return 0;
    case IPU_REG_LINK_SIZE: *value = g->size; return 0;
    case IPU_REG_TILE_SEL: *value = g->tile_sel; return 0;
    case IPU_REG_TILEMEM_WINDOW_TILE: *value = g->window_tile; return 0;
    }
    if (is_tile_reg(offset))
        return member_rd(tile_member(g, g->tile_sel, &local), offset, value);
    return member_rd(leader(g), offset, value);
}

static int group_reg_write(struct ipudrv_transport *t, uint32_t offset, uint32_t value)
{
    struct group_transport *g = gt(t);
    uint32_t local = 0;
    struct ipudrv_transport *m;
    switch (offset) {
    case IPU_REG_TILE_SEL:
        g->tile_sel = value;
        m = tile_member(g, value, &local);
        return member_wr(m, offset, local);
    case IPU_REG_TILEMEM_WINDOW_TILE:
        g->window_tile = value;
        m = tile_member(g, value, &local);
        return member_wr(m, offset, local);
    case IPU_REG_TILE_CTX_SEL:
        /* Every member keeps its own context selection: set them all alike. */
        for (uint32_t i = 0; i < g->size; i++) {
            int rc = member_wr(g->member[i], offset, value);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (is_tile_reg(offset))
        return member_wr(tile_member(g, g->tile_sel, &local), offset, value);
    return member_wr(leader(g), offset, value);
}

static int group_window_read(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len)
{
    struct group_transport *g = gt(t);
    uint32_t local = 0;
    struct ipudrv_transport *m = tile_member(g, g->window_tile, &local);
    return m->ops->window_read(m, offset, buf, len);
}

static int group_window_write(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len)
{
    struct group_transport *g = gt(t);
    uint32_t local = 0;
    struct ipudrv_transport *m = tile_member(g, g->window_tile, &local);
    return m->ops->window_write(m, offset, buf, len);
}

static int group_mem_alloc(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus)
{
    struct ipudrv_transport *m = leader(gt(t));
    return m->ops->mem_alloc(m, size, va, bus);
}

static void group_mem_free(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus)
{
    struct ipudrv_transport *m = leader(gt(t));
    m->ops->mem_free(m, va, size, bus);
}

static int group_progress(struct ipudrv_transport *t, int max_ms)
{
    struct ipudrv_transport *m = leader(gt(t));
    return m->ops->progress(m, max_ms);
}

const struct ipudrv_transport_ops ipudrv_transport_group = {
    .name = "vfio",
    .window_preferred = 0,
    .open = group_open,
    .close = group_close,
    .reg_read = group_reg_read,
    .reg_write = group_reg_write,
    .window_read = group_window_read,
    .window_write = group_window_write,
    .mem_alloc = group_mem_alloc,
    .mem_free = group_mem_free,
    .progress = group_progress,
};
