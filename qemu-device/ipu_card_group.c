/*
 * ipu-card: link groups. Devices given the same link-group are the IPUs of
 * one multi-IPU card: they share one card (IpuCardCore), each shows its own
 * IPU's tiles through its tile registers and BAR2 and answers the contract's
 * LINK_* registers and the LINK_CAP capability (contract/card.toml,
 * LINK_GROUP). Called from ipu_card.c with the BQL held.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"

#include "ipu_card/hw.h"
#include "ipu_card.h"

/* The link groups of this QEMU process (cores of lone devices are not listed). */
static QLIST_HEAD(, IpuCardCore) ipu_card_groups = QLIST_HEAD_INITIALIZER(ipu_card_groups);

/* Sets the shared card's tile selection (TILE_SEL and TILE_CTX_SEL, or with
 * `window` TILEMEM_WINDOW_TILE) to this member's, in group-wide tile ids. */
void ipu_card_select(IpuCardState *s, bool window)
{
    struct ipu_backend *card = s->core->card;
    const uint32_t first = s->ipu_index * s->core->tiles_per_ipu;
    if (window) {
        card->ops->bar_write(card, IPU_BAR_REGS, IPU_REG_TILEMEM_WINDOW_TILE, 4, first + s->window_tile);
    } else {
        card->ops->bar_write(card, IPU_BAR_REGS, IPU_REG_TILE_SEL, 4, first + s->tile_sel);
        card->ops->bar_write(card, IPU_BAR_REGS, IPU_REG_TILE_CTX_SEL, 4, s->ctx_sel);
    }
}

static bool ipu_card_is_tile_reg(hwaddr addr)
{
    return addr >= IPU_REG_TILE_SEL && addr < IPU_REG_TILEMEM_WINDOW_TILE;
}

/* A BAR0 read of a group member: answers what differs per IPU (true), or
 * selects this member's tile for a register the shared card answers (false). */
bool ipu_card_member_read(IpuCardState *s, hwaddr addr, unsigned size, uint64_t *val)
{
    IpuCardCore *core = s->core;
    if (size != 4) {
        return false; /* the card refuses it, logged */
    }
    switch (addr) {
    case IPU_REG_NUM_TILES: *val = core->tiles_per_ipu; return true;
    case IPU_REG_NUM_IPUS: *val = 1; return true;
    case IPU_REG_LINK_GROUP: *val = core->group; return true;
    case IPU_REG_LINK_INDEX: *val = s->ipu_index; return true;
    case IPU_REG_LINK_SIZE: *val = core->size; return true;
    case IPU_REG_TILE_SEL: *val = s->tile_sel; return true;
    case IPU_REG_TILE_CTX_SEL: *val = s->ctx_sel; return true;
    case IPU_REG_TILEMEM_WINDOW_TILE: *val = s->window_tile; return true;
    }
    if (ipu_card_is_tile_reg(addr)) {
        ipu_card_select(s, false);
    }
    return false;
}

/* A BAR0 write of a group member: keeps its selections (true), or selects its
 * tile before the shared card takes the write (false). */
bool ipu_card_member_write(IpuCardState *s, hwaddr addr, unsigned size, uint64_t val)
{
    IpuCardCore *core = s->core;
    if (size != 4) {
        return false;
    }
    if (addr == IPU_REG_TILE_SEL || addr == IPU_REG_TILEMEM_WINDOW_TILE) {
        const char *name = addr == IPU_REG_TILE_SEL ? "TILE_SEL" : "TILEMEM_WINDOW_TILE";
        if (val >= core->tiles_per_ipu) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s=%" PRIu64 " is past the %" PRIu32 " tiles of IPU %" PRIu32
                          " (link-group=%" PRIu32 "): ignored\n", TYPE_IPU_CARD, name, val, core->tiles_per_ipu,
                          s->ipu_index, core->group);
        } else if (addr == IPU_REG_TILE_SEL) {
            s->tile_sel = (uint32_t)val;
        } else {
            s->window_tile = (uint32_t)val;
        }
        return true;
    }
    if (addr == IPU_REG_TILE_CTX_SEL) {
        /* The card checks the context; its answer becomes this member's. */
        uint64_t now = 0;
        ipu_card_select(s, false);
        core->card->ops->bar_write(core->card, IPU_BAR_REGS, addr, 4, val);
        core->card->ops->bar_read(core->card, IPU_BAR_REGS, addr, 4, &now);
        s->ctx_sel = (uint32_t)now;
        return true;
    }
    if (ipu_card_is_tile_reg(addr)) {
        ipu_card_select(s, false);
    }
    return false;
}

/* The link-group properties: link-group=0 (none) with ipu-index=0, ipus=1, or
 * a group id with 2..IPU_CARD_GROUP_MAX IPUs and an index below that. */
int ipu_card_check_link(IpuCardState *s, Error **errp)
{
    if (s->link_group == 0) {
        if (s->ipu_index != 0 || s->ipus != 1) {
            error_setg(errp, "%s: ipu-index=%" PRIu32 ",ipus=%" PRIu32 " need link-group=<id>: give every IPU "
                       "of one multi-IPU card the same non-zero link-group", TYPE_IPU_CARD, s->ipu_index, s->ipus);
            return -EINVAL;
        }
        return 0;
    }
    if (s->ipus < 2 || s->ipus > IPU_CARD_GROUP_MAX) {
        error_setg(errp, "%s: link-group=%" PRIu32 ": ipus=%" PRIu32 " is out of range: a group has 2 to %u IPUs "
                   "(one device each)", TYPE_IPU_CARD, s->link_group, s->ipus, IPU_CARD_GROUP_MAX);
        return -EINVAL;
    }
    if (s->ipu_index >= s->ipus) {
        error_setg(errp, "%s: link-group=%" PRIu32 ": ipu-index=%" PRIu32 " is past the group's %" PRIu32
                   " IPUs: give 0 to %" PRIu32, TYPE_IPU_CARD, s->link_group, s->ipu_index, s->ipus, s->ipus - 1);
        return -EINVAL;
    }
    if (s->record_path && *s->record_path) {
        error_setg(errp, "%s: link-group=%" PRIu32 ": record= records a card of one device; drop it or the "
                   "link group", TYPE_IPU_CARD, s->link_group);
        return -EINVAL;
    }
    return 0;
}

IpuCardCore *ipu_card_find_group(uint32_t group)
{
    IpuCardCore *core;
    QLIST_FOREACH(core, &ipu_card_groups, next) {
        if (core->group == group) {
            return core;
        }
    }
    return NULL;
}

/* A later member must describe the same card as the one that made the group. */
int ipu_card_check_member(IpuCardCore *core, IpuCardState *s, Error **errp)
{
    const char *backend = s->backend_name ? s->backend_name : core->backend_name;
    if (strcmp(s->board_name, core->board_name) != 0 || s->ipus != core->size ||
        strcmp(backend, core->backend_name) != 0) {
        error_setg(errp, "%s: link-group=%" PRIu32 ",ipu-index=%" PRIu32 " gives board=%s,ipus=%" PRIu32
                   ",backend=%s but the group was made with board=%s,ipus=%" PRIu32 ",backend=%s: give every "
                   "member the same", TYPE_IPU_CARD, core->group, s->ipu_index, s->board_name, s->ipus, backend,
                   core->board_name, core->size, core->backend_name);
        return -EINVAL;
    }
    if (core->members[s->ipu_index]) {
        error_setg(errp, "%s: link-group=%" PRIu32 ": ipu-index=%" PRIu32 " is already taken by another device: "
                   "give each IPU of the group its own index", TYPE_IPU_CARD, core->group, s->ipu_index);
        return -EINVAL;
    }
    return 0;
}

void ipu_card_group_add(IpuCardCore *core)
{
    QLIST_INSERT_HEAD(&ipu_card_groups, core, next);
}

void ipu_card_group_remove(IpuCardCore *core)
{
    QLIST_REMOVE(core, next);
}

/* The LINK_CAP vendor capability: the group as discovery reads it (contract/card.toml). */
int ipu_card_add_link_cap(IpuCardState *s, Error **errp)
{
    int off = pci_add_capability(&s->pdev, IPU_PCI_LINK_CAP_ID, 0, IPU_LINK_CAP_SIZE, errp);
    if (off < 0) {
        return off;
    }
    uint8_t *cap = s->pdev.config + off;
    cap[IPU_LINK_CAP_LENGTH_OFFSET] = IPU_LINK_CAP_SIZE;
    cap[IPU_LINK_CAP_KIND_OFFSET] = IPU_PCI_LINK_CAP_KIND;
    pci_set_long(cap + IPU_LINK_CAP_GROUP_OFFSET, s->core->group);
    pci_set_long(cap + IPU_LINK_CAP_INDEX_OFFSET, s->ipu_index);
    pci_set_long(cap + IPU_LINK_CAP_SIZE_OFFSET, s->core->size);
    return 0;
}
