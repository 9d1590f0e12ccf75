/*
 * ipu-card: what the device's files share (ipu_card.c: the QOM/PCI glue;
 * ipu_card_group.c: link groups; ipu_card_faults.c: the inject-* properties).
 * The device's state, the card behind it, and the functions one file offers
 * the others.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_IPU_CARD_H
#define HW_MISC_IPU_CARD_H

#include "qemu/thread.h"
#include "qom/object.h"
#include "sysemu/runstate.h"
#include "hw/pci/pci.h"

#include "ipu_board.h"
#include "ipu_card/backend.h"

#define TYPE_IPU_CARD "ipu-card"
OBJECT_DECLARE_SIMPLE_TYPE(IpuCardState, IPU_CARD)

/* MSI-X table at the start of BAR4, pending-bit array in its upper half. */
#define IPU_CARD_MSIX_PBA_OFFSET (IPU_BAR_MSIX_SIZE / 2)

/* Property ranges, checked at realize. A step of `budget` instructions per tile
 * is made with the BQL held, so it bounds how long a vCPU can wait for the card:
 * 65536 on ipu2's 1472 tiles is already about 10^8 instructions per step;
 * 4294967295 froze QEMU. */
#define IPU_CARD_BUDGET_MAX 65536u
#define IPU_CARD_THREADS_MAX 256u

/* The most IPUs of one link group (the largest board, ipu2x16, has 16). */
#define IPU_CARD_GROUP_MAX 16u

typedef struct IpuCardCore IpuCardCore;

struct IpuCardState {
    PCIDevice pdev;
    MemoryRegion regs;
    MemoryRegion tilemem;
    MemoryRegion msix_bar;

    /* Properties. */
    char *backend_name;
    char *board_name;
    char *board_path;
    uint32_t budget;
    uint32_t host_threads;
    bool msix_wanted;
    char *record_path;               /* record=FILE: the session's trace */
    struct ipu_backend_faults faults; /* inject-*: armed through the backend interface */
    uint32_t link_group;             /* link-group: 0 alone, else the group's id */
    uint32_t ipu_index;              /* ipu-index: this device's IPU in the group */
    uint32_t ipus;                   /* ipus: IPUs in the group */

    IpuCardCore *core;     /* the card this device shows (shared in a group) */
    bool msix_ok;
    /* A group member's own selections: the shared card has one TILE_SEL,
     * TILE_CTX_SEL and TILEMEM_WINDOW_TILE, so each member keeps its own and
     * sets the card's before each tile access (all under the BQL). */
    uint32_t tile_sel;
    uint32_t ctx_sel;
    uint32_t window_tile;

    /* The backend's snapshot while vmstate saves or loads it. */
    uint32_t snap_size;
    uint8_t *snap;
};

/* The card behind one device, or behind every member of a link group. */
struct IpuCardCore {
    uint32_t group;          /* link-group id; 0: the card of one device */
    uint32_t size;           /* IPUs (member devices) */
    uint32_t tiles_per_ipu;
    uint32_t budget;         /* the creating member's properties */
    char *board_name;        /* ...which later members must repeat */
    char *backend_name;
    struct ipu_board board;  /* with `size` IPUs */
    struct ipu_backend *card;
    IpuCardState *members[IPU_CARD_GROUP_MAX]; /* by IPU index; NULL until realized */
    unsigned live;           /* realized members */
    bool in_dma;             /* a DMA of ours is on the bus: catches re-entry */
    bool in_msi;             /* an MSI-X message of ours is on the bus: likewise */
    bool dma_loop_logged;    /* ...and that access was already logged as looping */

    VMChangeStateEntry *vmstate_entry;
    QemuThread thread;
    QemuMutex thr_mutex;
    QemuCond thr_cond;
    bool kicked;
    bool stopping;
    QLIST_ENTRY(IpuCardCore) next;
};

/* ipu_card.c ----------------------------------------------------------------- */

/* A 32-bit register of the card behind `core`. */
uint32_t ipu_card_reg(IpuCardCore *core, uint32_t offset);
/* INTx follows IRQ_STATUS & IRQ_MASK while MSI-X is off. */
void ipu_card_update_intx(IpuCardCore *core);
/* Wakes the worker: the card may have work. */
void ipu_card_kick(IpuCardCore *core);

/* ipu_card_group.c: link groups ----------------------------------------------- */

/* A BAR0 access of a group member: true when the member answered it itself
 * (what differs per IPU, its own selections), false when the shared card takes
 * it (with this member's tile selected). */
bool ipu_card_member_read(IpuCardState *s, hwaddr addr, unsigned size, uint64_t *val);
bool ipu_card_member_write(IpuCardState *s, hwaddr addr, unsigned size, uint64_t val);
/* Sets the shared card's tile selection (or with `window` its BAR2 window) to this member's. */
void ipu_card_select(IpuCardState *s, bool window);
/* The link-group properties, checked at realize. */
int ipu_card_check_link(IpuCardState *s, Error **errp);
/* The group's card, or NULL; lists and unlists the card of a group. */
IpuCardCore *ipu_card_find_group(uint32_t group);
void ipu_card_group_add(IpuCardCore *core);
void ipu_card_group_remove(IpuCardCore *core);
/* A later member must describe the same card as the one that made the group. */
int ipu_card_check_member(IpuCardCore *core, IpuCardState *s, Error **errp);
/* The LINK_CAP vendor capability in config space. */
int ipu_card_add_link_cap(IpuCardState *s, Error **errp);

/* ipu_card_faults.c: fault injection ------------------------------------------ */

/* Arms the device's inject-* values on its card (0 before realize). */
int ipu_card_apply_faults(IpuCardState *s, Error **errp);
/* Adds the inject-* class properties (settable on a running VM with qom-set). */
void ipu_card_add_fault_properties(ObjectClass *klass);

#endif /* HW_MISC_IPU_CARD_H */
