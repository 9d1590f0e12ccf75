/* Internal types of libipudrv shared by the core's source files. */
#ifndef IPUDRV_INTERNAL_H
#define IPUDRV_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "ipudrv/ipudrv.h"
#include "svc.h"
#include "transport.h"

/* One card, resolved from ipudrv_open_params (or found by discovery, which
 * describes its cards the same way). */
struct ipudrv_node {
    unsigned id;                         /* discovery id, IPUDRV_ID_NONE when opened by parameters */
    char transport[IPUDRV_NAME_MAX];
    char board[IPUDRV_BOARD_SPEC_MAX];   /* board name or path (simulated cards) */
    char location[IPUDRV_LOCATION_MAX];  /* "model:tiny" or the PCI slot */
    char label[IPUDRV_LOCATION_MAX + 8]; /* how messages name the card: "device 3" or "card model:tiny" */
    /* Simulated cards' debugging knobs, from ipudrv_open_params (ipudrv_open
     * fills them from IPU_EMU_HOST_THREADS / IPU_EMU_TRACE); transport_backend.c
     * passes them to the card as struct ipu_backend_options. */
    unsigned host_threads;
    int trace;
};

struct ipudrv_buffer {
    struct ipudrv_buffer *next;
    void *va;
    size_t size;
    uint64_t bus;
    int internal; /* the library's own (staging, descriptor chains) */
};

/* The driver's copy of one translation-table entry. */
struct ipudrv_xlat_slot {
    int used;
    int internal;       /* temporary entry of the library's own transfers */
    uint32_t dev_base;
    uint32_t pages;
    unsigned perms;     /* IPUDRV_MAP_* */
    uint64_t bus;
    struct ipudrv_buffer *buf;
};

struct ipudrv_device {
    pthread_mutex_t mutex;
    struct ipudrv_node node;
    struct ipu_board board;
    struct ipudrv_transport *t;
    int lock_fd;
    uint32_t num_tiles;
    uint32_t tile_mem_bytes;
    uint32_t num_workers;
    uint32_t caps; /* CAPS, read once at open: constant for a card */
    uint32_t xlat_entries;
    struct ipudrv_buffer *buffers;
    struct ipudrv_xlat_slot xlat[IPU_REG_XLAT_COUNT];
    struct ipudrv_buffer *chain;   /* descriptor chains */
    struct ipudrv_buffer *staging; /* bulk tile transfers */
    /* The translation table as written through ipudrv_wr by anyone (xlat.c and
     * raw ipudrv_reg_write users such as the card checks), word i of entry e at
     * XLAT_BASE + 16e + 4i; zeroed by RESET. A HOST_SERVICE card's host
     * exchanges are translated from it (svc.c), which saves reading the table
     * back for each request over a slow link. */
    uint32_t xlat_raw[IPU_REG_XLAT_COUNT][IPU_XLAT_ENTRY_SIZE / 4];
    uint64_t xlat_raw_dirty; /* entries written since svc.c last read their CTRL back */
    struct ipudrv_svc_outbox *outboxes; /* num_tiles of them; NULL until the first EXCHANGE */
    char *last_error;
};

/* errors.c: records a message for `dev` (may be NULL) and the calling thread;
 * returns `code` so that callers can `return ipudrv_fail(...)`. */
int ipudrv_fail(ipudrv_device *dev, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Records a message already formatted (possibly long). */
int ipudrv_fail_text(ipudrv_device *dev, int code, const char *text);
/* A transport call on an open card failed: the message names the card, what
 * failed (fmt) and the cause; a card gone away (-ENODEV: a pulled cable, a board
 * powered off, a stopped simulation) or silent (-EIO: a link request without an
 * answer) says how to get it back. Returns `code`. */
int ipudrv_fail_transport(ipudrv_device *dev, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ipudrv_error_free(ipudrv_device *dev);
/* The cause's name, or for 0 and codes outside the contract the raw value and
 * what it means (ipudrv_err_name says only NONE / UNKNOWN). Returns buf. */
#define IPUDRV_CAUSE_TEXT_MAX 192
const char *ipudrv_err_describe(uint32_t cause, char *buf, size_t len);

/* registry.c: live handles, so that stale handles are refused without being
 * dereferenced. ipudrv_enter locks the device on success. */
int ipudrv_registry_add(ipudrv_device *dev);
int ipudrv_registry_remove(ipudrv_device *dev);
int ipudrv_registry_contains(const ipudrv_device *dev);
int ipudrv_enter(ipudrv_device *dev, const char *what);
void ipudrv_leave(ipudrv_device *dev);

/* discovery.c */
#define IPUDRV_NODES_MAX 64
int ipudrv_discover_at(const char *devices, const char *pci_root, struct ipudrv_node *out, size_t max,
                       size_t *count, char *err, size_t err_len);
int ipudrv_discover(struct ipudrv_node *out, size_t max, size_t *count, char *err, size_t err_len);
int ipudrv_pci_slot_matches(const char *pci_root, const char *slot);
/* The open parameters of a discovered card: its transport, board or location,
 * and for simulated cards IPU_EMU_HOST_THREADS and IPU_EMU_TRACE. p points
 * into node. Returns 0, or -EINVAL with a message naming a bad variable. */
int ipudrv_node_params(const struct ipudrv_node *node, struct ipudrv_open_params *p, char *err, size_t err_len);

/* open_params.c: checks every field of `params` and resolves them into *node
 * (whose id and label the caller has set) and, for simulated cards, the board
 * the card is created from (*has_board = 1). Fails through ipudrv_fail. */
int ipudrv_params_resolve(const struct ipudrv_open_params *params, struct ipudrv_node *node, struct ipu_board *board,
                          int *has_board, unsigned *lock_policy);

/* lock.c: exclusive attach of shared cards through a lock file keyed by what
 * identifies the card: pci-<slot>.lock for vfio, <transport>-<location>.lock
 * for later shared transports. Simulated cards (model, rtl) are private to
 * their process and take no lock: acquire sets *fd = -1, query reports free. */
int ipudrv_transport_is_shared(const char *transport);
int ipudrv_lock_acquire(const struct ipudrv_node *node, unsigned policy, int *fd, int *holder_pid, char *holder_cmd,
                        size_t cmd_len);
int ipudrv_lock_query(const struct ipudrv_node *node, int *holder_pid, char *holder_cmd, size_t cmd_len);
void ipudrv_lock_release(int fd);
/* Returns 0, or -EINVAL for a private card (no lock), or the lock directory's error. */
int ipudrv_lock_path(const struct ipudrv_node *node, char *buf, size_t len);

/* regs.c: register helpers on a locked device. */
int ipudrv_rd(ipudrv_device *dev, uint32_t offset, uint32_t *value);
int ipudrv_wr(ipudrv_device *dev, uint32_t offset, uint32_t value);
int ipudrv_card_state(ipudrv_device *dev, uint32_t *state);
/* Reads STATUS; on a CAPS.HOST_SERVICE card it first services the requests
 * the card shows (STATUS.SVC_PENDING) and returns STATUS as it is after them.
 * Every wait reads the card's state through this. */
int ipudrv_status(ipudrv_device *dev, uint32_t *status);
/* The IRQ_MASK the driver keeps: the causes it waits for (SERVICE only on a
 * HOST_SERVICE card). */
uint32_t ipudrv_irq_mask(const ipudrv_device *dev);

/* xlat.c: the translation table. */
int ipudrv_xlat_map(ipudrv_device *dev, struct ipudrv_buffer *buf, size_t offset, size_t length, unsigned perms,
                    uint32_t dev_addr, int internal, uint32_t *out_dev_addr);
int ipudrv_xlat_unmap(ipudrv_device *dev, uint32_t dev_addr);
void ipudrv_xlat_unmap_buffer(ipudrv_device *dev, struct ipudrv_buffer *buf);
int ipudrv_xlat_clear_card(ipudrv_device *dev);
int ipudrv_xlat_reinstall(ipudrv_device *dev);
unsigned ipudrv_xlat_used(const ipudrv_device *dev);

/* dma.c: buffers and descriptor chains. */
int ipudrv_buffer_new(ipudrv_device *dev, size_t size, int internal, struct ipudrv_buffer **out);
void ipudrv_buffer_release(ipudrv_device *dev, struct ipudrv_buffer *buf);
int ipudrv_buffer_is_live(const ipudrv_device *dev, const struct ipudrv_buffer *buf);
void ipudrv_buffers_free_all(ipudrv_device *dev);
int ipudrv_dma_chain(ipudrv_device *dev, const struct ipu_dma_desc *descs, size_t count);
/* 1 when the card runs DMA descriptor chains (CAPS.DMA, read at open), 0 when not. */
int ipudrv_has_dma(const ipudrv_device *dev);

/* events.c */
int ipudrv_progress(ipudrv_device *dev, int max_ms);
uint64_t ipudrv_now_ms(void);
char *ipudrv_report_alloc(ipudrv_device *dev, const char *headline);

/* tilemem.c: moves `len` bytes between `data` and tile `tile`'s SRAM at `addr`
 * through the BAR2 window, whatever the card's state (the caller knows the
 * tile is not running or is stalled waiting for the host). */
int ipudrv_tile_window(ipudrv_device *dev, unsigned tile, uint32_t addr, void *data, size_t len, int to_card);

/* status.c */
int ipudrv_tile_status_locked(ipudrv_device *dev, unsigned tile, struct ipudrv_tile_status *out);
int ipudrv_error_peek(ipudrv_device *dev, struct ipudrv_error_record *rec);

static inline size_t ipudrv_page_round(size_t n)
{
    return (n + IPUDRV_PAGE_SIZE - 1) & ~(size_t)(IPUDRV_PAGE_SIZE - 1);
}

#endif
