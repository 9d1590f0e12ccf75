/* The device backend interface: "a card" as seen from a bus.
 *
 * One C interface that every embodiment of the card implements -- the
 * functional card model (qemu-device/core) and the Verilator RTL harness
 * (rtl/sim) -- and that every host of a card uses: the QEMU PCIe device and the
 * driver's in-process transports. The card sees the bus through the callbacks
 * in struct ipu_backend_host (DMA into host memory, interrupts); the bus sees
 * the card through the operations in struct ipu_backend_ops (BAR accesses,
 * letting simulated time advance).
 *
 * Threading: an implementation serialises its own operations, so a host may
 * call bar_read/bar_write from one thread while another thread is in advance().
 * Host callbacks are called from inside advance() or bar_write(), never from a
 * thread the implementation made on its own.
 *
 * Errors: functions return 0 or a negative errno-style code. */
#ifndef IPU_CARD_BACKEND_H
#define IPU_CARD_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ipu_board;

/* What the card needs from the bus it sits on. */
struct ipu_backend_host {
    void *opaque;
    /* Reads `len` bytes of host memory at bus address `bus_addr` (after the
     * card's own translation table; an IOMMU may translate it further).
     * Returns 0, or a negative code when the bus refuses (the card records a
     * fault). */
    int (*dma_read)(void *opaque, uint64_t bus_addr, void *buf, size_t len);
    /* Writes `len` bytes to host memory at `bus_addr`. Returns as dma_read. */
    int (*dma_write)(void *opaque, uint64_t bus_addr, const void *buf, size_t len);
    /* Signals MSI-X vector `vector` (an IPU_IRQ_VECTOR_* value). May be NULL:
     * hosts that poll IRQ_STATUS need no callback. */
    void (*irq)(void *opaque, unsigned vector);
};

struct ipu_backend;

/* The operations of one embodiment of the card. */
struct ipu_backend_ops {
    /* Short name of the embodiment: "model", "rtl". */
    const char *name;
    /* Reads `size` (4, or 1/2/4/8 for BAR2) bytes at `offset` of BAR `bar`.
     * Returns 0, or -EINVAL for a bad BAR, size or offset (the access is logged
     * and *value is all ones, as a real bus would answer). */
    int (*bar_read)(struct ipu_backend *card, unsigned bar, uint64_t offset, unsigned size, uint64_t *value);
    /* Writes `size` bytes of `value` at `offset` of BAR `bar`. Returns 0 or -EINVAL. */
    int (*bar_write)(struct ipu_backend *card, unsigned bar, uint64_t offset, unsigned size, uint64_t value);
    /* Lets simulated time advance by at most `budget` instructions per tile.
     * Returns 1 while the card still has work (STATUS.STATE is RUNNING),
     * 0 when it is idle, waiting for the host, done or in error. */
    int (*advance)(struct ipu_backend *card, uint64_t budget);
    /* Frees the card. */
    void (*destroy)(struct ipu_backend *card);
};

/* Every implementation's instance starts with this header. */
struct ipu_backend {
    const struct ipu_backend_ops *ops;
};

/* Options shared by implementations. Zero-initialise for defaults. */
struct ipu_backend_options {
    unsigned host_threads; /* host threads simulating tiles; 0 = one per core */
    int trace;             /* non-zero: per-instruction trace to stderr */
};

/* Convenience wrappers over the operations table. */
static inline int ipu_backend_read32(struct ipu_backend *card, uint32_t offset, uint32_t *value)
{
    uint64_t v = 0;
    int rc = card->ops->bar_read(card, 0, offset, 4, &v);
    *value = (uint32_t)v;
    return rc;
}

static inline int ipu_backend_write32(struct ipu_backend *card, uint32_t offset, uint32_t value)
{
    return card->ops->bar_write(card, 0, offset, 4, value);
}

#ifdef __cplusplus
}
#endif
#endif /* IPU_CARD_BACKEND_H */
