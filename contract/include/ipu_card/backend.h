/* The device backend interface: "a card" as seen from a bus.
 *
 * One C interface that every embodiment of the card implements -- the
 * functional card model (model/) and the Verilator RTL harness
 * (rtl/sim) -- and that every host of a card uses: the QEMU PCIe device and the
 * driver's in-process transports. The card sees the bus through the callbacks
 * in struct ipu_backend_host (DMA into host memory, interrupts); the bus sees
 * the card through the operations in struct ipu_backend_ops (BAR accesses,
 * letting simulated time advance).
 *
 * Creating a card: the registry (ipu_backends/registry.h) names every embodiment
 * ("model", "rtl", "lockstep") for every host, so that QEMU and the driver
 * choose the same way.
 *
 * Threading: an implementation serialises its own operations, so a host may
 * call bar_read/bar_write from one thread while another thread is in advance().
 * Host callbacks are called from inside advance() or bar_write(), never from a
 * thread the implementation made on its own, unless the host sets
 * dma_read_any_thread (below).
 *
 * Errors: functions return 0 or a negative errno-style code. */
#ifndef IPU_CARD_BACKEND_H
#define IPU_CARD_BACKEND_H

#include <errno.h>
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
    /* Non-zero: dma_read may also be called during advance() from the
     * threads the implementation made to simulate tiles, several at once,
     * so that the model moves tiles' host-exchange reads in parallel. Zero
     * (QEMU, the recorder, whose trace needs one order): every callback
     * comes from the thread in advance() or bar_write(). */
    int dma_read_any_thread;
};

struct ipu_backend;

/* One instruction retired by one tile context: what the retire observer sees.
 * The same record on every embodiment, so that lock-step and instruction
 * traces work over any pair of cards. */
struct ipu_retire_event {
    uint32_t tile;
    uint32_t context;  /* 0 supervisor, 1..N workers */
    uint32_t pc;
    uint32_t insn;
    uint32_t rd;       /* 0 when the instruction writes no integer register */
    uint32_t rd_value; /* the value written to rd (0 when rd is 0) */
    uint64_t cycle;    /* the card's notion of time at retirement: the model's
                        * logical cycle of that context, the RTL's clock cycle;
                        * it differs between embodiments by design */
};

/* Called for every retired instruction, from inside advance() (or a BAR
 * access that lets the card run), in a deterministic order: tile by tile on the
 * model (which then simulates tiles on one thread), tiles in index order within
 * a cycle on the RTL. A non-zero return asks the card to stop the current
 * advance() early: the RTL stops at the end of that cycle; the model finishes
 * the instruction slice it is in (so a caller must not rely on it stopping). */
typedef int (*ipu_retire_observer)(void *opaque, const struct ipu_retire_event *event);

/* Bytes of DMA an advance(budget) call moves at most per unit of budget: the
 * DMA engine runs a descriptor chain in bounded slices, never inside the
 * DMA_CTRL write (see advance below). */
#define IPU_BACKEND_DMA_BYTES_PER_BUDGET 64u

/* Faults a card can be made to show, for driver developers: what a real card
 * and its PCIe link do when things go wrong, on demand. The functional model
 * implements them (model/src/card_inject.cpp); decorators (the recorder)
 * forward them; the RTL and lock-step cards refuse them. Zero-initialise for
 * none. The QEMU device's inject-* properties and $IPU_EMU_INJECT
 * (ipu_model_faults_parse in ipu_model/inject.h) fill this struct. */
struct ipu_backend_faults {
    /* An ERR_* code (contract/card.toml, 1-255): the next DMA chain started
     * fails at its first descriptor with an error record of this cause, as a
     * bus or engine error would (DMA_STATUS.ERROR, IRQ ERROR). One-shot:
     * cleared when it fires. 0: none. */
    uint32_t dma_error;
    /* Bit v: the next MSI-X message of vector v is lost (IRQ_STATUS still
     * records the cause, as on a real card whose message was dropped).
     * One-shot per vector. */
    uint32_t drop_irq_mask;
    /* Bit v: messages of vector v are held for `irq_delay` advance() calls
     * before they reach the host. */
    uint32_t delay_irq_mask;
    uint32_t irq_delay;
    /* Surprise removal: every BAR read returns all ones, writes are dropped,
     * the card does no DMA and raises no interrupt, until cleared. */
    int removed;
    /* A DMA chain in flight makes no progress (DMA_STATUS stays BUSY) until
     * cleared: a stalled completion. */
    int stall_dma;
};

/* The operations of one embodiment of the card. Every member is set by every
 * implementation; an embodiment that cannot do something returns -ENOTSUP. */
struct ipu_backend_ops {
    /* Short name of the embodiment: "model", "rtl", "lockstep". */
    const char *name;
    /* Reads `size` (4, or 1/2/4/8 for BAR2) bytes at `offset` of BAR `bar`.
     * Returns 0, or -EINVAL for a bad BAR, size or offset (the access is logged
     * and *value is all ones, as a real bus would answer). */
    int (*bar_read)(struct ipu_backend *card, unsigned bar, uint64_t offset, unsigned size, uint64_t *value);
    /* Writes `size` bytes of `value` at `offset` of BAR `bar`. Returns 0 or -EINVAL.
     * A write never runs unbounded work: DMA_CTRL.START only starts the chain
     * (DMA_STATUS.BUSY and STATUS.DMA_BUSY read as set until it ends). */
    int (*bar_write)(struct ipu_backend *card, unsigned bar, uint64_t offset, unsigned size, uint64_t value);
    /* Lets simulated time advance: tiles run at most `budget` instructions
     * each, and a DMA chain in flight moves at most
     * budget * IPU_BACKEND_DMA_BYTES_PER_BUDGET bytes (the RTL: at most
     * budget * (workers + 1) clock cycles of its DMA engine), raising DMA_DONE
     * (or ERROR) when the chain ends. A RESET stops a chain in flight.
     * Returns 1 while the card still has work (STATUS.STATE is RUNNING or a
     * DMA chain is in flight), 0 when it is idle, waiting for the host, done
     * or in error. */
    int (*advance)(struct ipu_backend *card, uint64_t budget);
    /* Frees the card. */
    void (*destroy)(struct ipu_backend *card);
    /* Sets (or with observer NULL clears) the retire observer. Returns 0 or
     * -ENOTSUP (an embodiment without a retire trace). */
    int (*set_retire_observer)(struct ipu_backend *card, ipu_retire_observer observer, void *opaque);
    /* Save/restore of the whole card state (registers, tile memories, contexts,
     * DMA state, error records, console): save_size() is the exact size of a
     * snapshot of the card as it is now (0 when the embodiment cannot save);
     * save() writes one into buf (len at least save_size()); restore() loads a
     * snapshot saved by the same embodiment for the same board into this card.
     * They return 0, -ENOSPC (buf too small), -EINVAL (not a snapshot of this
     * embodiment and board; the card is unchanged) or -ENOTSUP. Call them
     * between advance() calls, not from a host callback. */
    size_t (*save_size)(struct ipu_backend *card);
    int (*save)(struct ipu_backend *card, void *buf, size_t len);
    int (*restore)(struct ipu_backend *card, const void *buf, size_t len);
    /* Arms `faults` (replacing what was armed). Returns 0, -EINVAL (dma_error
     * not an ERR code, a mask with bits past the MSI-X vectors) or -ENOTSUP
     * (an embodiment without fault injection). */
    int (*inject)(struct ipu_backend *card, const struct ipu_backend_faults *faults);
    /* What is armed now (one-shot faults that fired read as cleared). Returns
     * 0 or -ENOTSUP. */
    int (*injected)(struct ipu_backend *card, struct ipu_backend_faults *faults);
};

/* Every implementation's instance starts with this header. */
struct ipu_backend {
    const struct ipu_backend_ops *ops;
};

/* Options shared by implementations. Zero-initialise for defaults. */
struct ipu_backend_options {
    unsigned host_threads; /* host threads simulating tiles; 0 = one per core */
    int trace;             /* non-zero: per-instruction trace to stderr */
    /* Non-NULL and non-empty: the card's session is recorded to this file
     * (docs/trace-format.md). Honoured by ipu_backend_create
     * (ipu_backends/registry.h), which wraps the card in the recorder. */
    const char *record_path;
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

static inline int ipu_backend_inject(struct ipu_backend *card, const struct ipu_backend_faults *faults)
{
    return card && faults ? card->ops->inject(card, faults) : -EINVAL;
}

static inline int ipu_backend_injected(struct ipu_backend *card, struct ipu_backend_faults *faults)
{
    return card && faults ? card->ops->injected(card, faults) : -EINVAL;
}

#ifdef __cplusplus
}
#endif
#endif /* IPU_CARD_BACKEND_H */
