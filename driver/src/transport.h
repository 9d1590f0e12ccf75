/* The transport operations table: how the driver core reaches one card. */
#ifndef IPUDRV_TRANSPORT_H
#define IPUDRV_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_board.h"

struct ipudrv_node;

/* One attached card on some transport. Each transport embeds this header
 * first in its own instance. */
struct ipudrv_transport {
    const struct ipudrv_transport_ops *ops;
};

/* Everything the core (DMA, translation, events, tile logic) needs from a
 * transport; nothing else is transport-specific. A new transport (usb,
 * socket) is a new transport_*.c and one line in transport.c. */
struct ipudrv_transport_ops {
    const char *name;
    /* Set when the BAR2 window moves tile memory faster than DMA through
     * host memory (the link transports: a DMA word is a round trip). */
    int window_preferred;
    /* Attaches to the card described by `node`. `board` is the board loaded for
     * simulated cards (NULL for PCI cards). Returns 0 or a negative code and a
     * message in err naming the problem and the fix. */
    int (*open)(const struct ipudrv_node *node, const struct ipu_board *board, struct ipudrv_transport **out,
                char *err, size_t err_len);
    void (*close)(struct ipudrv_transport *t);
    /* BAR0 32-bit access. */
    int (*reg_read)(struct ipudrv_transport *t, uint32_t offset, uint32_t *value);
    int (*reg_write)(struct ipudrv_transport *t, uint32_t offset, uint32_t value);
    /* BAR2 window access at byte `offset` (TILEMEM_WINDOW_TILE already set). */
    int (*window_read)(struct ipudrv_transport *t, uint32_t offset, void *buf, size_t len);
    int (*window_write)(struct ipudrv_transport *t, uint32_t offset, const void *buf, size_t len);
    /* Host memory the card can reach: page-aligned, zeroed; *bus is the
     * address the card must use (after its translation table). */
    int (*mem_alloc)(struct ipudrv_transport *t, size_t size, void **va, uint64_t *bus);
    void (*mem_free)(struct ipudrv_transport *t, void *va, size_t size, uint64_t bus);
    /* Lets the card make progress for at most about `max_ms` milliseconds:
     * simulated transports advance the card, hardware transports sleep until
     * an interrupt. Returns 0, or a negative code. */
    int (*progress)(struct ipudrv_transport *t, int max_ms);
};

/* The transport named `name`, or NULL when this build does not have it. */
const struct ipudrv_transport_ops *ipudrv_transport_find(const char *name);

extern const struct ipudrv_transport_ops ipudrv_transport_model;
extern const struct ipudrv_transport_ops ipudrv_transport_vfio;
extern const struct ipudrv_transport_ops ipudrv_transport_rtl;
extern const struct ipudrv_transport_ops ipudrv_transport_socket;
extern const struct ipudrv_transport_ops ipudrv_transport_usb;

#endif
