/*
 * ipu-card: the ipu-emu virtual IPU as a PCIe endpoint (QOM/PCI glue only).
 *
 * The card itself -- registers, tiles, DMA engine, translation table -- lives
 * behind the device backend interface (contract/include/ipu_card/backend.h):
 * the functional model (model/) or, when QEMU was built with
 * Verilator present, the Verilated RTL card (rtl/sim). This file only
 * connects it to QEMU: BARs, MSI-X with INTx fallback, DMA through
 * pci_dma_read/write (so a virtual IOMMU translates it), reset, migration and
 * savevm (the backend's save/restore), trace events, guest-error logging and a
 * worker thread that lets simulated time pass. Link groups are in
 * ipu_card_group.c, the inject-* properties in ipu_card_faults.c, what the
 * three share in ipu_card.h. The card is made by the registry
 * of embodiments (ipu_backends/registry.h), as the driver makes its in-process
 * cards, and behaves exactly as there: DMA_CTRL.START only starts a chain, the
 * card reports DMA_STATUS.BUSY itself, and the worker moves the chain in
 * bounded advance() slices.
 *
 * Link groups: devices given the same link-group are the IPUs of one
 * multi-IPU card (real cards are linked by IPU-Links card to card, not through
 * the host). They share one card model of `ipus` IPUs (IpuCardCore, made by
 * the first member to realize, freed with the last); each device shows its own
 * IPU's tiles through its tile registers and BAR2 and answers the contract's
 * LINK_* registers and a vendor-specific capability (LINK_CAP) in config
 * space. The card-wide registers are the shared card's; IPU 0's function
 * masters its DMA and signals its interrupts (contract/card.toml, LINK_GROUP).
 *
 * Locking: every call into the backend happens with the BQL held (MMIO
 * dispatch holds it; the worker takes it around each small advance budget,
 * which bounds both instructions and DMA bytes, so a long DMA chain never
 * holds the BQL for more than one slice).
 * One lock order (BQL, then the backend's own lock) means the backend's host
 * callbacks may call pci_dma_* and msix_notify without deadlock, and a vCPU
 * touching the card waits for at most one budget.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/thread.h"
#include "sysemu/runstate.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"
#include "trace.h"

#include "ipu_card/hw.h"
#include "ipu_backends/registry.h"
#include "ipu_card.h"

/* Helpers ------------------------------------------------------------------ */

uint32_t ipu_card_reg(IpuCardCore *core, uint32_t offset)
{
    uint64_t v = 0;
    core->card->ops->bar_read(core->card, IPU_BAR_REGS, offset, 4, &v);
    return (uint32_t)v;
}

/* INTx is level-triggered: asserted while an unmasked cause is pending. The
 * card's interrupts are IPU 0's (the only member of a lone card). */
void ipu_card_update_intx(IpuCardCore *core)
{
    IpuCardState *s = core->members[0];
    bool level = false;
    if (!s) {
        return;
    }
    if (!msix_enabled(&s->pdev)) {
        level = (ipu_card_reg(core, IPU_REG_IRQ_STATUS) & ipu_card_reg(core, IPU_REG_IRQ_MASK)) != 0;
    }
    pci_set_irq(&s->pdev, level);
}

void ipu_card_kick(IpuCardCore *core)
{
    qemu_mutex_lock(&core->thr_mutex);
    core->kicked = true;
    qemu_cond_signal(&core->thr_cond);
    qemu_mutex_unlock(&core->thr_mutex);
}

/* Host callbacks: the card's view of the bus --------------------------------- */

/* The card masters the bus as IPU 0's function (the only one of a lone card). */
static int ipu_card_dma(IpuCardCore *core, uint64_t addr, void *buf, size_t len, DMADirection dir)
{
    const char *what = dir == DMA_DIRECTION_TO_DEVICE ? "read" : "write";
    IpuCardState *s = core->members[0];
    if (!s) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: link-group=%" PRIu32 " has no ipu-index=0 device to master the "
                      "group's DMA %s at 0x%" PRIx64 "\n", TYPE_IPU_CARD, core->group, what, addr);
        return -EIO;
    }
    /* Whatever the IOMMU makes of the address, an access that lands in any
     * member's BARs finds in_dma set and fails (see ipu_card_read/write). */
    core->in_dma = true;
    core->dma_loop_logged = false;
    MemTxResult r = pci_dma_rw(&s->pdev, addr, buf, len, dir, MEMTXATTRS_UNSPECIFIED);
    core->in_dma = false;
    trace_ipu_card_dma(what, addr, len, r);
    return r == MEMTX_OK ? 0 : -EIO;
}

static int ipu_card_dma_read(void *opaque, uint64_t bus_addr, void *buf, size_t len)
{
    return ipu_card_dma(opaque, bus_addr, buf, len, DMA_DIRECTION_TO_DEVICE);
}

static int ipu_card_dma_write(void *opaque, uint64_t bus_addr, const void *buf, size_t len)
{
    return ipu_card_dma(opaque, bus_addr, (void *)buf, len, DMA_DIRECTION_FROM_DEVICE);
}

static void ipu_card_irq(void *opaque, unsigned vector)
{
    IpuCardCore *core = opaque;
    IpuCardState *s = core->members[0];
    if (!s) {
        return; /* IRQ_STATUS keeps the cause for a driver that polls */
    }
    bool msix = msix_enabled(&s->pdev);
    trace_ipu_card_irq(vector, msix);
    if (msix) {
        /* The message is a memory write to an address the guest chose: one that
         * lands in our own BARs must not re-enter the card (see ipu_card_read). */
        bool was = core->in_msi;
        core->in_msi = true;
        core->dma_loop_logged = false;
        msix_notify(&s->pdev, vector);
        core->in_msi = was;
    } else {
        ipu_card_update_intx(core);
    }
}

/* MMIO --------------------------------------------------------------------- */

/* The one register bit the glue answers itself: MSI-X is the bus's, not the card's. */
static uint64_t ipu_card_regs_fixup(IpuCardState *s, hwaddr addr, uint64_t val)
{
    if (addr == IPU_REG_CAPS && s->msix_ok) {
        val |= IPU_REG_CAPS_MSIX_MASK;
    }
    return val;
}

/* The card's own DMA or MSI-X message reached one of its BARs: refuse it, so
 * that it fails like any other bus error instead of re-entering the model
 * (which would reset the card or move its window from inside its own work). */
static MemTxResult ipu_card_dma_loop(IpuCardCore *core, unsigned bar, hwaddr addr, const char *what)
{
    if (!core->dma_loop_logged) { /* once per DMA, not once per 8 bytes */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s %s targets the card's own BAR%u at 0x%" HWADDR_PRIx "\n",
                      TYPE_IPU_CARD, core->in_msi ? "MSI-X message" : "DMA", what, bar, addr);
        core->dma_loop_logged = true;
    }
    return MEMTX_ERROR;
}

static MemTxResult ipu_card_read(IpuCardState *s, unsigned bar, hwaddr addr, uint64_t *data, unsigned size)
{
    uint64_t val = ~0ull;
    IpuCardCore *core = s->core;
    if (core->in_dma || core->in_msi) {
        *data = val;
        return ipu_card_dma_loop(core, bar, addr, "read");
    }
    bool answered = false;
    if (core->size > 1 && bar == IPU_BAR_REGS) {
        answered = ipu_card_member_read(s, addr, size, &val);
    } else if (core->size > 1 && bar == IPU_BAR_TILEMEM) {
        ipu_card_select(s, true);
    }
    if (answered) {
        /* a register of this member's own */
    } else if (core->card->ops->bar_read(core->card, bar, addr, size, &val) != 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad read of BAR%u at 0x%" HWADDR_PRIx " size %u\n",
                      TYPE_IPU_CARD, bar, addr, size);
        val = ~0ull;
    } else if (bar == IPU_BAR_REGS) {
        val = ipu_card_regs_fixup(s, addr, val);
    }
    if (size < 8) {
        val &= (1ull << (size * 8)) - 1;
    }
    trace_ipu_card_mmio_read(bar, addr, size, val);
    *data = val;
    return MEMTX_OK;
}

static MemTxResult ipu_card_write(IpuCardState *s, unsigned bar, hwaddr addr, uint64_t val, unsigned size)
{
    IpuCardCore *core = s->core;
    trace_ipu_card_mmio_write(bar, addr, size, val);
    if (core->in_dma || core->in_msi) {
        return ipu_card_dma_loop(core, bar, addr, "write");
    }
    if (core->size > 1 && bar == IPU_BAR_REGS && ipu_card_member_write(s, addr, size, val)) {
        return MEMTX_OK;
    }
    if (core->size > 1 && bar == IPU_BAR_TILEMEM) {
        ipu_card_select(s, true);
    }
    if (core->card->ops->bar_write(core->card, bar, addr, size, val) != 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: bad write of BAR%u at 0x%" HWADDR_PRIx " size %u\n",
                      TYPE_IPU_CARD, bar, addr, size);
        return MEMTX_OK; /* a bad guest access is logged, not a bus error */
    }
    if (bar == IPU_BAR_REGS) {
        /* Work for the worker: tiles to run or a DMA chain to move. */
        if (addr == IPU_REG_RUN_CTRL || addr == IPU_REG_HSYNC_RELEASE || addr == IPU_REG_DMA_CTRL) {
            ipu_card_kick(core);
        }
        ipu_card_update_intx(core);
    }
    return MEMTX_OK;
}

static MemTxResult ipu_card_regs_read(void *opaque, hwaddr addr, uint64_t *data, unsigned size, MemTxAttrs attrs)
{
    return ipu_card_read(opaque, IPU_BAR_REGS, addr, data, size);
}

static MemTxResult ipu_card_regs_write(void *opaque, hwaddr addr, uint64_t val, unsigned size, MemTxAttrs attrs)
{
    return ipu_card_write(opaque, IPU_BAR_REGS, addr, val, size);
}

static MemTxResult ipu_card_tilemem_read(void *opaque, hwaddr addr, uint64_t *data, unsigned size,
                                         MemTxAttrs attrs)
{
    return ipu_card_read(opaque, IPU_BAR_TILEMEM, addr, data, size);
}

static MemTxResult ipu_card_tilemem_write(void *opaque, hwaddr addr, uint64_t val, unsigned size,
                                          MemTxAttrs attrs)
{
    return ipu_card_write(opaque, IPU_BAR_TILEMEM, addr, val, size);
}

/* Every size reaches the backend, which refuses what the contract forbids (so
 * that a wrong-size access is logged rather than silently split). */
static const MemoryRegionOps ipu_card_regs_ops = {
    .read_with_attrs = ipu_card_regs_read,
    .write_with_attrs = ipu_card_regs_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static const MemoryRegionOps ipu_card_tilemem_ops = {
    .read_with_attrs = ipu_card_tilemem_read,
    .write_with_attrs = ipu_card_tilemem_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* The worker: simulated time passes here, in small budgets --------------------- */

/* One step with the BQL held. Returns true while the card has more work. */
static bool ipu_card_step(IpuCardCore *core)
{
    if (!runstate_is_running()) {
        return false; /* a paused VM's card stands still; resuming kicks it */
    }
    int more = core->card->ops->advance(core->card, core->budget);
    trace_ipu_card_advance(more);
    ipu_card_update_intx(core);
    return more > 0;
}

/* One worker per card: a link group's IPUs advance together, as one card. */
static void *ipu_card_worker(void *opaque)
{
    IpuCardCore *core = opaque;
    qemu_mutex_lock(&core->thr_mutex);
    while (!core->stopping) {
        if (!core->kicked) {
            qemu_cond_wait(&core->thr_cond, &core->thr_mutex);
            continue;
        }
        core->kicked = false;
        qemu_mutex_unlock(&core->thr_mutex);
        bool more = true;
        while (more && !qatomic_read(&core->stopping)) {
            qemu_mutex_lock_iothread();
            more = ipu_card_step(core);
            qemu_mutex_unlock_iothread();
        }
        qemu_mutex_lock(&core->thr_mutex);
    }
    qemu_mutex_unlock(&core->thr_mutex);
    return NULL;
}

/* Realize, reset, class ------------------------------------------------------ */

/* Creates the embodiment named by the `backend` property or, without one, by
 * the board (ipu_backend_default_for: its `transport` key, so rtl-tiny says
 * "rtl"), through the registry the driver uses too. */
static int ipu_card_backend_create(IpuCardCore *core, IpuCardState *s, Error **errp)
{
    const struct ipu_backend_host host = {
        .opaque = core,
        .dma_read = ipu_card_dma_read,
        .dma_write = ipu_card_dma_write,
        .irq = ipu_card_irq,
    };
    const struct ipu_backend_options options = { .host_threads = s->host_threads, .record_path = s->record_path };
    const char *name = s->backend_name ? s->backend_name : ipu_backend_default_for(&core->board);
    const struct ipu_backend_factory *factory = ipu_backend_find(name);
    core->backend_name = g_strdup(name);
    if (!factory) {
        error_setg(errp, "%s: unknown backend '%s' (model, rtl or lockstep)", TYPE_IPU_CARD, name);
        return -EINVAL;
    }
    char err[512] = "";
    int rc = ipu_backend_create(factory, &core->board, &host, &options, &core->card, err, sizeof(err));
    if (rc != 0) {
        error_setg(errp, "%s: backend '%s': %s", TYPE_IPU_CARD, name, err);
    }
    return rc;
}

static int ipu_card_load_board(IpuCardState *s, struct ipu_board *board, Error **errp)
{
    char err[256] = "";
    int rc;
    if (s->board_path) {
        g_autofree char *file = g_strdup_printf("%s/%s.toml", s->board_path, s->board_name);
        rc = ipu_board_load(strchr(s->board_name, '/') ? s->board_name : file, board, err, sizeof(err));
    } else {
        rc = ipu_board_load(s->board_name, board, err, sizeof(err));
    }
    if (rc != 0) {
        error_setg(errp, "%s: board '%s': %s", TYPE_IPU_CARD, s->board_name, err);
    }
    return rc;
}

static void ipu_card_core_vm_state_change(void *opaque, bool running, RunState state)
{
    if (running) {
        ipu_card_kick(opaque);
    }
}

/* Frees a card whose last device is gone. Called with the BQL held. */
static void ipu_card_core_free(IpuCardCore *core)
{
    if (core->vmstate_entry) {
        qemu_del_vm_change_state_handler(core->vmstate_entry);
        qemu_mutex_lock(&core->thr_mutex);
        qatomic_set(&core->stopping, true);
        qemu_cond_signal(&core->thr_cond);
        qemu_mutex_unlock(&core->thr_mutex);
        /* The worker may be waiting for the BQL we hold. */
        qemu_mutex_unlock_iothread();
        qemu_thread_join(&core->thread);
        qemu_mutex_lock_iothread();
        qemu_cond_destroy(&core->thr_cond);
        qemu_mutex_destroy(&core->thr_mutex);
    }
    if (core->card) {
        core->card->ops->destroy(core->card);
    }
    if (core->group) {
        ipu_card_group_remove(core);
    }
    g_free(core->board_name);
    g_free(core->backend_name);
    g_free(core);
}

/* Makes the card for the first (or only) device of a group: the board with the
 * group's IPUs (a one-IPU board is repeated `ipus` times; a multi-IPU board
 * must have exactly that many), the backend and the worker. */
static IpuCardCore *ipu_card_core_new(IpuCardState *s, Error **errp)
{
    IpuCardCore *core = g_new0(IpuCardCore, 1);
    core->group = s->link_group;
    core->size = s->ipus;
    core->budget = s->budget;
    core->board_name = g_strdup(s->board_name);
    if (core->group) {
        ipu_card_group_add(core);
    }
    if (ipu_card_load_board(s, &core->board, errp) != 0) {
        goto fail;
    }
    if (core->size > 1) {
        if (core->board.num_ipus == 1) {
            core->board.num_ipus = core->size;
        } else if (core->board.num_ipus != core->size) {
            error_setg(errp, "%s: link-group=%" PRIu32 ": board '%s' has %" PRIu32 " IPUs but ipus=%" PRIu32
                       ": give a one-IPU board (repeated per member) or one of exactly %" PRIu32 " IPUs",
                       TYPE_IPU_CARD, core->group, s->board_name, core->board.num_ipus, core->size, core->size);
            goto fail;
        }
    }
    core->tiles_per_ipu = core->board.tiles_per_ipu;
    if (ipu_card_backend_create(core, s, errp) != 0) {
        goto fail;
    }
    qemu_mutex_init(&core->thr_mutex);
    qemu_cond_init(&core->thr_cond);
    qemu_thread_create(&core->thread, "ipu-card", ipu_card_worker, core, QEMU_THREAD_JOINABLE);
    core->vmstate_entry = qemu_add_vm_change_state_handler(ipu_card_core_vm_state_change, core);
    return core;

fail:
    ipu_card_core_free(core);
    return NULL;
}

/* Joins the device to its card (made now for a lone device or the group's first). */
static int ipu_card_attach(IpuCardState *s, Error **errp)
{
    IpuCardCore *core = s->link_group ? ipu_card_find_group(s->link_group) : NULL;
    if (core && ipu_card_check_member(core, s, errp) != 0) {
        return -EINVAL;
    }
    if (!core && !(core = ipu_card_core_new(s, errp))) {
        return -EINVAL;
    }
    core->members[s->ipu_index] = s;
    core->live++;
    s->core = core;
    return 0;
}

static void ipu_card_detach(IpuCardState *s)
{
    IpuCardCore *core = s->core;
    if (!core) {
        return;
    }
    core->members[s->ipu_index] = NULL;
    s->core = NULL;
    if (--core->live == 0) {
        ipu_card_core_free(core);
    }
}

static void ipu_card_realize(PCIDevice *pdev, Error **errp)
{
    IpuCardState *s = IPU_CARD(pdev);
    const uint8_t bar_type = PCI_BASE_ADDRESS_SPACE_MEMORY | PCI_BASE_ADDRESS_MEM_TYPE_64;

    /* String properties have no static defaults; the backend's default comes
     * from the board (ipu_card_backend_create). */
    if (!s->board_name) {
        s->board_name = g_strdup("tiny");
    }
    if (s->budget == 0 || s->budget > IPU_CARD_BUDGET_MAX) {
        error_setg(errp, "%s: budget=%" PRIu32 " is out of range: give 1 to %u instructions per tile per step "
                   "(the default 4096 keeps MMIO waits short)", TYPE_IPU_CARD, s->budget, IPU_CARD_BUDGET_MAX);
        return;
    }
    if (s->host_threads > IPU_CARD_THREADS_MAX) {
        error_setg(errp, "%s: threads=%" PRIu32 " is out of range: give 0 (one per host core) to %u",
                   TYPE_IPU_CARD, s->host_threads, IPU_CARD_THREADS_MAX);
        return;
    }
    if (ipu_card_check_link(s, errp) != 0 || ipu_card_attach(s, errp) != 0) {
        return;
    }
    /* A later member without inject-* must not disarm what the first armed. */
    static const struct ipu_backend_faults no_faults;
    if ((s->core->live == 1 || memcmp(&s->faults, &no_faults, sizeof(no_faults)) != 0) &&
        ipu_card_apply_faults(s, errp) != 0) {
        goto fail;
    }

    pci_config_set_interrupt_pin(pdev->config, 1);
    memory_region_init_io(&s->regs, OBJECT(s), &ipu_card_regs_ops, s, "ipu-card-regs", IPU_BAR_REGS_SIZE);
    memory_region_init_io(&s->tilemem, OBJECT(s), &ipu_card_tilemem_ops, s, "ipu-card-tilemem",
                          IPU_BAR_TILEMEM_SIZE);
    memory_region_init(&s->msix_bar, OBJECT(s), "ipu-card-msix", IPU_BAR_MSIX_SIZE);
    pci_register_bar(pdev, IPU_BAR_REGS, bar_type, &s->regs);
    pci_register_bar(pdev, IPU_BAR_TILEMEM, bar_type, &s->tilemem);
    pci_register_bar(pdev, IPU_BAR_MSIX, bar_type, &s->msix_bar);

    if (pcie_endpoint_cap_init(pdev, 0) < 0) {
        error_setg(errp, "%s: cannot add the PCIe capability", TYPE_IPU_CARD);
        goto fail;
    }
    pcie_cap_flr_init(pdev); /* lets vfio-pci reset the card on its own */
    if (s->core->size > 1 && ipu_card_add_link_cap(s, errp) < 0) {
        goto fail;
    }
    if (s->msix_wanted) {
        /* Without MSI-X support in the machine the card still works on INTx. */
        s->msix_ok = msix_init(pdev, IPU_PCI_MSIX_VECTORS, &s->msix_bar, IPU_BAR_MSIX, 0, &s->msix_bar,
                               IPU_BAR_MSIX, IPU_CARD_MSIX_PBA_OFFSET, 0, NULL) == 0;
        for (unsigned v = 0; s->msix_ok && v < IPU_PCI_MSIX_VECTORS; v++) {
            msix_vector_use(pdev, v);
        }
    }
    return;

fail:
    ipu_card_detach(s);
}

static void ipu_card_exit(PCIDevice *pdev)
{
    IpuCardState *s = IPU_CARD(pdev);

    if (s->msix_ok) {
        msix_uninit(pdev, &s->msix_bar, &s->msix_bar);
    }
    g_free(s->snap);
    s->snap = NULL;
    ipu_card_detach(s);
}

static void ipu_card_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val, int len)
{
    pci_default_write_config(pdev, addr, val, len);
    pcie_cap_flr_write_config(pdev, addr, val, len);
}

/* Device reset is the contract's RESET: the same state as a RESET.KEY write. */
static void ipu_card_reset(DeviceState *dev)
{
    IpuCardState *s = IPU_CARD(dev);

    trace_ipu_card_reset();
    if (s->core) { /* stops a DMA chain in flight too; in a group, the whole group's */
        s->core->card->ops->bar_write(s->core->card, IPU_BAR_REGS, IPU_REG_RESET, 4, IPU_RESET_KEY);
    }
    s->tile_sel = s->ctx_sel = s->window_tile = 0;
    pci_set_irq(&s->pdev, 0);
}

/* Migration and savevm: the backend's own snapshot (every register, tile
 * memory, context, DMA position and error record) as one opaque buffer. The VM
 * is stopped, so the worker does not advance the card meanwhile. A backend that
 * cannot save (the RTL card) fails the migration with the reason. */
static int ipu_card_pre_save(void *opaque)
{
    IpuCardState *s = opaque;
    struct ipu_backend *card = s->core->card;
    if (s->core->size > 1) {
        error_report("%s: link-group=%" PRIu32 " cannot be saved or migrated: its IPUs share one card that no "
                     "single device's state holds", TYPE_IPU_CARD, s->core->group);
        return -ENOTSUP;
    }
    size_t size = card->ops->save_size(card);
    if (size == 0 || size > UINT32_MAX) {
        error_report("%s: the %s card cannot be saved or migrated (no snapshot of its state)", TYPE_IPU_CARD,
                     card->ops->name);
        return -ENOTSUP;
    }
    g_free(s->snap);
    s->snap = g_malloc(size);
    s->snap_size = (uint32_t)size;
    int rc = card->ops->save(card, s->snap, size);
    if (rc != 0) {
        error_report("%s: saving the card failed (%s)", TYPE_IPU_CARD, strerror(-rc));
    }
    return rc;
}

static int ipu_card_post_save(void *opaque)
{
    IpuCardState *s = opaque;
    g_free(s->snap);
    s->snap = NULL;
    s->snap_size = 0;
    return 0;
}

static int ipu_card_post_load(void *opaque, int version_id)
{
    IpuCardState *s = opaque;
    struct ipu_backend *card = s->core->card;
    int rc = card->ops->restore(card, s->snap, s->snap_size);
    if (rc != 0) {
        error_report("%s: the saved card state does not fit this %s card on board '%s' (%s)", TYPE_IPU_CARD,
                     card->ops->name, s->core->board.name, strerror(-rc));
    }
    ipu_card_post_save(s);
    ipu_card_update_intx(s->core);
    ipu_card_kick(s->core); /* a restored run or DMA chain goes on */
    return rc;
}

static bool ipu_card_has_msix(void *opaque, int version_id)
{
    return ((IpuCardState *)opaque)->msix_ok;
}

static const VMStateDescription vmstate_ipu_card = {
    .name = TYPE_IPU_CARD,
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = ipu_card_pre_save,
    .post_save = ipu_card_post_save,
    .post_load = ipu_card_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(pdev, IpuCardState),
        VMSTATE_MSIX_TEST(pdev, IpuCardState, ipu_card_has_msix),
        VMSTATE_UINT32(snap_size, IpuCardState),
        VMSTATE_VBUFFER_ALLOC_UINT32(snap, IpuCardState, 0, NULL, snap_size),
        VMSTATE_END_OF_LIST()
    },
};

static Property ipu_card_properties[] = {
    DEFINE_PROP_STRING("backend", IpuCardState, backend_name),
    DEFINE_PROP_STRING("board", IpuCardState, board_name),
    DEFINE_PROP_STRING("board-path", IpuCardState, board_path),
    DEFINE_PROP_UINT32("budget", IpuCardState, budget, 4096),
    DEFINE_PROP_UINT32("threads", IpuCardState, host_threads, 1),
    DEFINE_PROP_BOOL("msix", IpuCardState, msix_wanted, true),
    DEFINE_PROP_STRING("record", IpuCardState, record_path),
    DEFINE_PROP_UINT32("link-group", IpuCardState, link_group, 0),
    DEFINE_PROP_UINT32("ipu-index", IpuCardState, ipu_index, 0),
    DEFINE_PROP_UINT32("ipus", IpuCardState, ipus, 1),
    DEFINE_PROP_END_OF_LIST(),
};

static void ipu_card_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = ipu_card_realize;
    k->exit = ipu_card_exit;
    k->config_write = ipu_card_write_config;
    k->vendor_id = IPU_PCI_VENDOR_ID;
    k->device_id = IPU_PCI_DEVICE_ID;
    k->subsystem_vendor_id = IPU_PCI_SUBSYSTEM_VENDOR_ID;
    k->subsystem_id = IPU_PCI_SUBSYSTEM_ID;
    k->revision = IPU_PCI_REVISION;
    k->class_id = IPU_PCI_CLASS_CODE;
    dc->desc = "ipu-emu virtual IPU card";
    dc->reset = ipu_card_reset;
    dc->vmsd = &vmstate_ipu_card;
    device_class_set_props(dc, ipu_card_properties);
    ipu_card_add_fault_properties(klass);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo ipu_card_info = {
    .name = TYPE_IPU_CARD,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(IpuCardState),
    .class_init = ipu_card_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void ipu_card_register_types(void)
{
    type_register_static(&ipu_card_info);
}

type_init(ipu_card_register_types)
