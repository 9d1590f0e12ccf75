/* Enumeration, exclusive attach, close and reset. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "link_group.h"

static int load_nodes(struct ipudrv_node *nodes, size_t *count)
{
    char err[512];
    int rc = ipudrv_discover(nodes, IPUDRV_NODES_MAX, count, err, sizeof err);
    if (rc)
        return ipudrv_fail(NULL, rc, "%s", err);
    return 0;
}

int ipudrv_device_count(unsigned *count)
{
    if (!count)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_device_count: count is NULL");
    struct ipudrv_node nodes[IPUDRV_NODES_MAX];
    size_t n = 0;
    int rc = load_nodes(nodes, &n);
    *count = rc ? 0 : (unsigned)n;
    return rc;
}

static int find_node(unsigned id, struct ipudrv_node *out)
{
    struct ipudrv_node nodes[IPUDRV_NODES_MAX];
    size_t n = 0;
    int rc = load_nodes(nodes, &n);
    if (rc)
        return rc;
    if (id >= n)
        return ipudrv_fail(NULL, -ENODEV, "no device %u: there %s %zu device%s (ids 0..%zu); name simulated cards "
                           "with IPU_EMU_DEVICES, e.g. IPU_EMU_DEVICES=tiny,ipu2, or list them with gc-info -l", id,
                           n == 1 ? "is" : "are", n, n == 1 ? "" : "s", n ? n - 1 : 0);
    *out = nodes[id];
    return 0;
}

/* The board's short name: "ipu2" for "ipu2" or "/x/ipu2.toml". */
static void board_short_name(const char *spec, char *out, size_t len)
{
    const char *base = strrchr(spec, '/');
    base = base ? base + 1 : spec;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".toml") == 0)
        n -= 5;
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), base);
}

int ipudrv_describe(unsigned id, struct ipudrv_device_desc *out)
{
    if (!out)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_describe: out is NULL");
    struct ipudrv_node node;
    int rc = find_node(id, &node);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    out->id = id;
    snprintf(out->transport, sizeof out->transport, "%s", node.transport);
    board_short_name(node.board, out->board, sizeof out->board);
    snprintf(out->location, sizeof out->location, "%s", node.location);
    out->available = ipudrv_transport_find(node.transport) != NULL;
    ipudrv_lock_query(&node, &out->holder_pid, out->holder_command, sizeof out->holder_command);
    return 0;
}

/* PCI and link cards do not say which board they are: match the registers
 * (shape and IPUs, FPU capability, tile clock) against the known boards, else
 * describe the card from its registers alone. A link group (link_group.h)
 * reads as one card of all its members' tiles and IPUs. */
static void board_from_registers(ipudrv_device *dev)
{
    static const char *const known[] = {"tiny", "small", "ipu1", "ipu2", "rtl-tiny", "icebreaker",
                                        "tiny2", "tiny4", "ipu2x2", "ipu2x4", "ipu2x16"};
    uint32_t clock_khz = 0, ipus = 0;
    if (ipudrv_rd(dev, IPU_REG_TILE_CLOCK_KHZ, &clock_khz))
        clock_khz = 0;
    /* Cards of contract 1.0 (and the RTL card) read 0: one IPU. */
    if (ipudrv_rd(dev, IPU_REG_NUM_IPUS, &ipus) || ipus == 0 || dev->num_tiles % ipus)
        ipus = 1;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        struct ipu_board b;
        if (ipu_board_load(known[i], &b, NULL, 0) != 0 || ipu_board_num_tiles(&b) != dev->num_tiles ||
            b.num_ipus != ipus || b.bytes_per_tile != dev->tile_mem_bytes || b.worker_contexts != dev->num_workers)
            continue;
        /* An FPU-less card cannot run a board's rv32imf code, and the reverse would waste its FPU. */
        int board_fpu = strlen(b.isa) > 4 && (strchr(b.isa + 4, 'f') || strchr(b.isa + 4, 'g'));
        if (board_fpu != ((dev->caps & IPU_REG_CAPS_FPU_MASK) != 0))
            continue;
        if (clock_khz && b.tile_clock_hz && b.tile_clock_hz / 1000 != clock_khz)
            continue;
        dev->board = b;
        return;
    }
    ipu_board_default(&dev->board);
    snprintf(dev->board.name, sizeof dev->board.name, "pci");
    dev->board.num_ipus = ipus;
    dev->board.tiles_per_ipu = dev->num_tiles / ipus;
    dev->board.bytes_per_tile = dev->tile_mem_bytes;
    dev->board.worker_contexts = dev->num_workers;
}

static int probe_card(ipudrv_device *dev)
{
    uint32_t magic = 0, version = 0;
    int rc;
    if ((rc = ipudrv_rd(dev, IPU_REG_ID, &magic)) || (rc = ipudrv_rd(dev, IPU_REG_VERSION, &version)))
        return rc;
    if (magic != IPU_REG_ID_RESET_VALUE)
        return ipudrv_fail(dev, -EIO, "%s (%s) answers ID 0x%08x instead of 0x%08x ('IPU1'): not an ipu-emu "
                           "card, or it is gone", dev->node.label, dev->node.location, magic, IPU_REG_ID_RESET_VALUE);
    if ((version & IPU_REG_VERSION_MAJOR_MASK) >> IPU_REG_VERSION_MAJOR_SHIFT != IPU_CONTRACT_VERSION_MAJOR)
        return ipudrv_fail(dev, -EIO, "%s speaks contract version %u.x; this driver needs %u.x: update the "
                           "driver or the card", dev->node.label, version >> 16, IPU_CONTRACT_VERSION_MAJOR);
    if ((rc = ipudrv_rd(dev, IPU_REG_NUM_TILES, &dev->num_tiles)) ||
        (rc = ipudrv_rd(dev, IPU_REG_TILE_MEM_BYTES, &dev->tile_mem_bytes)) ||
        (rc = ipudrv_rd(dev, IPU_REG_NUM_WORKERS, &dev->num_workers)) ||
        (rc = ipudrv_rd(dev, IPU_REG_CAPS, &dev->caps)) ||
        (rc = ipudrv_rd(dev, IPU_REG_XLAT_ENTRIES, &dev->xlat_entries)))
        return rc;
    if (dev->xlat_entries > IPU_REG_XLAT_COUNT)
        dev->xlat_entries = IPU_REG_XLAT_COUNT;
    if (dev->num_tiles == 0 || dev->tile_mem_bytes == 0 || dev->tile_mem_bytes > IPU_TILE_SRAM_MAX_BYTES)
        return ipudrv_fail(dev, -EIO, "%s reports %u tiles of %u bytes; the card is misconfigured",
                           dev->node.label, dev->num_tiles, dev->tile_mem_bytes);
    /* Stale entries would point at another process's memory: start empty. */
    if ((rc = ipudrv_xlat_clear_card(dev)))
        return rc;
    return ipudrv_wr(dev, IPU_REG_IRQ_MASK, ipudrv_irq_mask(dev));
}

/* Attaches dev to the card that `params` describe; dev->node.id and label are set. */
static int attach(ipudrv_device *dev, const struct ipudrv_open_params *params)
{
    int has_board = 0;
    unsigned policy = IPUDRV_LOCK_TRY;
    int rc = ipudrv_params_resolve(params, &dev->node, &dev->board, &has_board, &policy);
    if (rc)
        return rc;
    if (dev->node.id == IPUDRV_ID_NONE)
        snprintf(dev->node.label, sizeof dev->node.label, "card %s", dev->node.location);
    const char *label = dev->node.label;
    /* A PCI function in a link group is opened with the rest of its group. */
    const struct ipudrv_transport_ops *ops = ipudrv_group_ops_for(&dev->node,
                                                                  ipudrv_transport_find(dev->node.transport));
    int pid = 0;
    char cmd[IPUDRV_NAME_MAX] = "";
    rc = ipudrv_lock_acquire(&dev->node, policy, &dev->lock_fd, &pid, cmd, sizeof cmd);
    if (rc == -EBUSY) {
        if (pid > 0)
            return ipudrv_fail(NULL, rc, "%s is in use by PID %d (%s)%s; close it or wait", label, pid, cmd,
                               pid == (int)getpid() ? ", this process: another handle" : "");
        return ipudrv_fail(NULL, rc, "%s is in use by another process; close it or wait", label);
    }
    if (rc) {
        char path[768] = "";
        ipudrv_lock_path(&dev->node, path, sizeof path);
        return ipudrv_fail(NULL, rc, "cannot create the lock file %s for %s (%s); set IPU_EMU_LOCK_DIR to a "
                           "writable directory", path, label, ipudrv_strerror(rc));
    }
    const struct ipu_board *board = has_board ? &dev->board : NULL;
    char err[512] = "";
    if ((rc = ops->open(&dev->node, board, &dev->t, err, sizeof err)))
        return ipudrv_fail(NULL, rc, "%s (%s): %s", label, dev->node.location, err);
    if ((rc = probe_card(dev)))
        return ipudrv_fail(NULL, rc, "%s", dev->last_error ? dev->last_error : "probe failed");
    /* A member of a link group opened by itself: discovery could not read its
     * LINK_CAP, so the group transport was not chosen. */
    uint32_t group = 0, index = 0, size = 0;
    /* A failed read is an error, not a card of its own: over a faulty link it
     * would hide a register read out of step. */
    if (ops != &ipudrv_transport_group &&
        ((rc = ipudrv_rd(dev, IPU_REG_LINK_SIZE, &size)) ||
         (size > 1 && ((rc = ipudrv_rd(dev, IPU_REG_LINK_GROUP, &group)) ||
                       (rc = ipudrv_rd(dev, IPU_REG_LINK_INDEX, &index))))))
        return ipudrv_fail(NULL, rc, "%s", dev->last_error ? dev->last_error : "cannot read LINK_SIZE");
    if (ops != &ipudrv_transport_group && size > 1)
        return ipudrv_fail(NULL, -EINVAL, "%s is IPU %u of link group %u (%u IPUs) and cannot be used alone; the "
                           "driver groups the IPUs from PCI config space, which sysfs shows only to root: run as "
                           "root", label, index, group, size);
    if (!board)
        board_from_registers(dev);
    return 0;
}

static void destroy(ipudrv_device *dev)
{
    if (dev->t) {
        ipudrv_buffers_free_all(dev);
        dev->t->ops->close(dev->t);
    }
    ipudrv_svc_free(dev);
    ipudrv_lock_release(dev->lock_fd);
    ipudrv_error_free(dev);
    pthread_mutex_destroy(&dev->mutex);
    free(dev);
}

/* The one open path: ipudrv_open and ipudrv_open_with differ only in how
 * the card is named in messages and in ipudrv_get_info. */
static int open_card(unsigned id, const struct ipudrv_open_params *params, ipudrv_device **out)
{
    ipudrv_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return ipudrv_fail(NULL, -ENOMEM, "ipudrv_open: out of memory");
    dev->lock_fd = -1;
    pthread_mutex_init(&dev->mutex, NULL);
    dev->node.id = id;
    if (id != IPUDRV_ID_NONE)
        snprintf(dev->node.label, sizeof dev->node.label, "device %u", id);
    else
        snprintf(dev->node.label, sizeof dev->node.label, "ipudrv_open_with");
    int rc = attach(dev, params);
    if (!rc && (rc = ipudrv_registry_add(dev)))
        ipudrv_fail(NULL, rc, "ipudrv_open: too many open handles in this process; close some");
    if (rc) {
        destroy(dev);
        return rc;
    }
    *out = dev;
    return 0;
}

int ipudrv_open(unsigned id, unsigned flags, ipudrv_device **out)
{
    if (!out)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open: out is NULL");
    *out = NULL;
    if (flags)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open: flags 0x%x are not defined; pass 0", flags);
    struct ipudrv_node node;
    int rc = find_node(id, &node);
    if (rc)
        return rc;
    struct ipudrv_open_params params;
    char err[512];
    if ((rc = ipudrv_node_params(&node, &params, err, sizeof err)))
        return ipudrv_fail(NULL, rc, "device %u: %s", id, err);
    return open_card(id, &params, out);
}

int ipudrv_open_with(const struct ipudrv_open_params *params, ipudrv_device **out)
{
    if (!out)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: out is NULL");
    *out = NULL;
    if (!params)
        return ipudrv_fail(NULL, -EINVAL, "ipudrv_open_with: params is NULL; fill a struct ipudrv_open_params");
    return open_card(IPUDRV_ID_NONE, params, out);
}

int ipudrv_close(ipudrv_device *dev)
{
    if (ipudrv_registry_remove(dev))
        return ipudrv_fail(NULL, -EBADF, "ipudrv_close: the handle is NULL, already closed or was never opened");
    /* Wait for a call in progress on another thread. */
    pthread_mutex_lock(&dev->mutex);
    pthread_mutex_unlock(&dev->mutex);
    if (dev->t)
        ipudrv_wr(dev, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    destroy(dev);
    return 0;
}

int ipudrv_reset(ipudrv_device *dev)
{
    int rc = ipudrv_enter(dev, "ipudrv_reset");
    if (rc)
        return rc;
    uint32_t state = 0;
    if (!(rc = ipudrv_wr(dev, IPU_REG_RESET, IPU_RESET_KEY)) && !(rc = ipudrv_card_state(dev, &state))) {
        if (state != IPU_CARD_STATE_IDLE)
            rc = ipudrv_fail(dev, -EIO, "reset: the card is %s instead of IDLE after a reset; power-cycle it (or "
                             "restart QEMU)", ipudrv_card_state_name(state));
        else if (!(rc = ipudrv_xlat_reinstall(dev)))
            rc = ipudrv_wr(dev, IPU_REG_IRQ_MASK, ipudrv_irq_mask(dev));
    }
    ipudrv_leave(dev);
    return rc;
}
