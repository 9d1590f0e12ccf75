/* Fault injection on the card model, for driver developers: the faults a real
 * card and its PCIe link produce, on demand. The QEMU device exposes the same
 * knobs as properties (qemu-device/README.md); in-process cards read them from
 * $IPU_EMU_INJECT when they are created (ipu_model_faults_from_env). */
#ifndef IPU_MODEL_INJECT_H
#define IPU_MODEL_INJECT_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The faults armed on a card. Zero-initialise for none. */
struct ipu_model_faults {
    /* An ERR_* code (contract/card.toml): the next DMA chain started fails at
     * its first descriptor with an error record of this cause, as a bus or
     * engine error would (DMA_STATUS.ERROR, IRQ ERROR). One-shot: cleared when
     * it fires. 0: none. */
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

/* Arms `faults` on a card made by ipu_model_create (replacing what was armed).
 * Returns 0, -EINVAL (NULL argument or dma_error not an ERR code) or -ENOTSUP
 * (the card is not the model: the RTL has no injection). */
int ipu_model_inject(struct ipu_backend *card, const struct ipu_model_faults *faults);

/* What is armed now (one-shot faults that fired read as cleared). */
int ipu_model_injected(struct ipu_backend *card, struct ipu_model_faults *faults);

/* Parses a comma-separated spec: "dma_error=N", "drop_irq=V", "delay_irq=V:N"
 * (vector V, N advances), "removed", "stall_dma"; V is a vector number 0-3,
 * N a number (decimal or 0x hex). Returns 0, or -EINVAL with a message in err
 * naming the bad item and the accepted forms. */
int ipu_model_faults_parse(const char *spec, struct ipu_model_faults *out, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif /* IPU_MODEL_INJECT_H */
